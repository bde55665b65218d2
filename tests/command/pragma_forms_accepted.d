int x, y;
inline int z = 3;
#pragma D attributes Stable/Evolving/Common x
#pragma D attributes stable/EVOLVING y
#pragma D attributes Standard z
#pragma D binding "1.0" x
#pragma D binding "255.4095.4095" y
#pragma D depends_on provider syscall
#pragma D depends_on module vmlinux
#pragma ident "anything"
#pragma weak something
#ident "anything"
#pragma D option quiet
BEGIN
{
	printf("accepted %d\n", z);
	exit(0);
}
