#define LIMIT 100
BEGIN
{
  @a = lquantize(42, 0, LIMIT, 10);
  @a = max(LIMIT);
}
