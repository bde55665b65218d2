syscall::read:entry
/execname == $$1/
{
  @bytes = sum(arg2 * $2);
}
