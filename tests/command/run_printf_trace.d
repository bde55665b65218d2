/* printf conversions and trace() of every size, quiet. */
#pragma D option quiet
BEGIN
{
	printf("[%d] [%i] [%u] [%x] [%X] [%o] [%c] [%s] [%5s] [%-5s] [%.2s]\n",
	    -17, 42, 42, 255, 255, 8, 'A', "str", "ab", "ab", "abcdef");
	printf("[%d] [%d] [%d] [%u]\n", (char)-17, (short)-12817, (int)-1, (unsigned int)-1);
	printf("[%5d] [%-5d] [%05d] [%+d] [% d] [%*d] [%.*s]\n", 42, 42, 42, 42, 42, 6, 42, 3, "abcdef");
	printf("[%lld] [%llu] [%llx]\n", -9223372036854775807 - 1, 0xffffffffffffffff, 0xffffffffffffffff);
	printf("[%S]\n", "tab\there");
	printf("%%\n");
	trace((char)-2); trace(" ");
	trace((unsigned char)254); trace(" ");
	trace((short)-2); trace(" ");
	trace(-2); trace(" ");
	trace((long)-2); trace(" ");
	trace((unsigned long)-2); trace("\n");
	exit(0);
}
