#pragma D option errsource=off

BEGIN
{
  @a = count();
  @a = sum(1);
}
