#pragma D option quiet

syscall::write:entry
/pid != 0/
{
  @bytes[execname, pid] = sum(arg2);
  printf("%s wrote %d bytes\n", execname, arg2);
}
