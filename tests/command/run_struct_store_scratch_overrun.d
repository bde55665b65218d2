/* A whole struct stored into scratch that starts inside the bytes alloca() took and runs past
   them is an invalid size, as other stores. */
struct s { int a; long l; } rec;
BEGIN
{
	p = (struct s *)alloca(8);
	*p = rec;
	exit(0);
}
ERROR
{
	exit(1);
}
