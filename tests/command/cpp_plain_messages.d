BEGIN
{
#else
}
