BEGIN
{
	tick-10ms
}
BEGIN { x = 0x1fg; }
BEGIN { x = 12ULx; }
BEGIN { x = 1 2; }
BEGIN { print("%d\n", $-1); }
BEGIN { x = $-1; }
BEGIN { x = ($); }
