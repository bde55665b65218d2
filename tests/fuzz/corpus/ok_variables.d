BEGIN
{
	self->depth = 0;
	this->local = 7;
	counts["read"] = 1;
	counts["write"] = counts["read"] + 1;
	pair[1, "a"] = 2;
	pair[(char)2, "b"] = pair[1, "a"];
	trace(self->depth + this->local);
}
