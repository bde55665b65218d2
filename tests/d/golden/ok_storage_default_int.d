self x;
this y, z;
BEGIN
{
	self->x = 1;
	this->y = self->x + 2;
	this->z = this->y;
	trace(this->z);
}
