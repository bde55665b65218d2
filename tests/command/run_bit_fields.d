/*
 * Bit-fields declared in D, laid out as DTrace's libctf lays them out (each from a byte, in the
 * fewest bytes that hold it, no padding at the end), read sign- or zero-extended, written with
 * their neighbours kept, and wrapped within their bits by =, op= and ++/--.
 */
#pragma D option quiet

typedef struct flags {
	unsigned int ready : 1;
	int level : 3;
	unsigned int : 4;
	unsigned long count : 40;
	char tail;
} flags_t;

union both {
	int i;
	char c;
};

flags_t f;

BEGIN
{
	f.tail = 'z';
	f.ready = 3;
	f.level = 3;
	f.level += 1;
	f.count = 0xffffffffff;
	printf("%d %d %d %c\n", f.ready, f.level, f.count, f.tail);
	x = f.count++;
	y = f.level--;
	z = --f.ready;
	printf("%d %d %d %d %d %d\n", x, f.count, y, f.level, z, f.ready);
	f.level = -1;
	f.level &= 5;
	f.count |= 0x8000000001;
	printf("%d %d %c\n", f.level, f.count, f.tail);
	printf("%d %d %d %d\n", sizeof(flags_t), offsetof(flags_t, tail), offsetof(struct flags, tail),
	    sizeof(union D`both));
	exit(0);
}
