/* D's arithmetic conversions are DTrace's, not C's: no promotion to int, so an operation on two
   narrow integers has the wider operand's type (unsigned at a tie) and wraps in it. */
#pragma D option quiet

unsigned char uc;
char sc;
unsigned short us;
short ss;
unsigned char a[int];
self char t;

BEGIN
{
	uc = 254; sc = 3;
	printf("uc + sc %d, sc + uc %d, sc - uc %d\n", uc + sc, sc + uc, sc - uc);
	us = 65535; ss = -1;
	printf("us + 1 %d (int), us + us %d, ss + ss %d, us + sc %d\n", us + 1, us + us, ss + ss, us + sc);
	a[0] = 200; self->t = 100;
	printf("a[0] + a[0] %d, self->t + self->t %d, ~uc %d, -uc %d\n", a[0] + a[0], self->t + self->t, ~uc, -uc);
	x = uc + uc;
	printf("x = uc + uc: %d, sizeof %d\n", x, sizeof(uc + uc));
	exit(0);
}
