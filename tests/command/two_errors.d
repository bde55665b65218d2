BEGIN
{
  x = ;
}

tick-1s
{
  @a = count();
}

END
{
  printf("%d\n", 1 +);
}
