int i;
self uint64_t ts;
this long long v;
string names[int];
BEGIN
{
	i++;
	self->ts = timestamp;
	this->v = i * 2;
	names[i] = "one";
	self->seen["read", 1] = 1;
	self->seen["read", 1]++;
	n++;
	@a[names[i]] = count();
	printa("%s %8@d\n", @a);
}
