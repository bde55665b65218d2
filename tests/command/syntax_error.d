BEGIN
{
  @calls = count(;
}
