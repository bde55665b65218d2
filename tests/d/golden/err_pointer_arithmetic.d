void *v;
int *p;
char *c;
BEGIN
{
	x = v + 1;
	x = p + p;
	x = p - c;
	x = 2 - p;
	x = p * 2;
	x = p % 2;
	x = -p;
	x = ~p;
	v++;
	v += 1;
	p *= 2;
	p |= 1;
	p += c;
}
