/* sym(), func(), mod(), usym(), ufunc(), uaddr() and umod() of addresses no object holds print the address as "  %-50s" traced and as keys; ucaller of BEGIN (fired by dtpp itself) and caller are 0. */
#pragma D option quiet
BEGIN {
  trace(sym(0)); trace(func(1)); trace(mod(0x10)); printf("|\n");
  trace(usym(0)); trace(ufunc(2)); trace(uaddr(0xff)); trace(umod(0)); printf("|\n");
  @[umod(0), sym(1)] = count();
  @[umod(0), sym(1)] = count();
  @u[uaddr(3)] = sum(3);
  printf("%d %d\n", caller, stackdepth);
  exit(0);
}
