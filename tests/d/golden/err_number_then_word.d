BEGIN
{
	tick-10ms
}
BEGIN { x = 0x1fg; }
BEGIN { x = 12ULx; }
BEGIN { x = 1 2; }
