/* Compiles cleanly: with -e, dtpp prints nothing and exits 0. */
#pragma D option quiet

syscall::read:entry
/execname != "dtpp"/
{
  @bytes[execname] = sum(arg2);
  self->start = timestamp;
}

syscall::read:return
/self->start/
{
  @latency = quantize(timestamp - self->start);
  self->start = 0;
}

END
{
  printa("%-16s %@d\n", @bytes);
}
