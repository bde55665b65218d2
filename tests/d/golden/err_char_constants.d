BEGIN
{
	a = '';
	b = 'abcdefghi';
}
