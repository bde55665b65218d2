BEGIN
{
  @limit = max(LIMIT);
#ifdef VERBOSE
  printf("limit %d\n", LIMIT);
#endif
}
