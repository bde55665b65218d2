#pragma D option errtags

BEGIN
{
  trace(;
}
