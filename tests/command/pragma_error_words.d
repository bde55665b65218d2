#pragma D error "this is" 42 an  error	0x10 "" message
BEGIN
{
	exit(0);
}
