/* Bit-fields declared in D are checked as DTrace checks them, then refused: not taken yet. */
struct r {
	int a : 1;
	unsigned int b : 31;
} v;
