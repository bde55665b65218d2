BEGIN
{
	@a[(int32_t)1, 2] = count();
	@a[(int64_t)1, (char)2] = count();
	@a[(short)3, 4] = count();
}
