BEGIN
{
  @a = count();
  @a = sum(1);
}
