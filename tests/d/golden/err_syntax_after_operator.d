BEGIN
{
	i = 0;
	i +- ;
}
BEGIN
{
	i /-= i;
}
BEGIN
{
	i = !;
}
