self x;
BEGIN
{
	self->x = execname;
}
