/* sizeof and casts of a struct, union or enum written in place: the errors of its declaration, and
   sizeof of what has no size (void). */
BEGIN
{
	trace(sizeof(struct { int a, a; }));
	trace(sizeof(union { struct nosuch n; }));
	trace(sizeof(enum { A, A }));
	trace(sizeof(struct { int a; } **));
	trace((struct { int a; })1);
	trace(sizeof(void));
	trace(sizeof(enum { B = 2147483648 }));
}
