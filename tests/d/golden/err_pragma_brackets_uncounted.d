#pragma D error ( ] )
BEGIN
{
	trace(")]");
}
