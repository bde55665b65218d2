# 1 "<stdin>"
#line 2
#ident "kept by cpp"
#pragma ident "also kept"
#pragma GCC system_header
#pragma D depends_on module vmlinux
#pragma D attributes Evolving/Evolving/Common provider syscall provider
#pragma D binding "1.0" f
#
BEGIN
{
	exit(0);
}
