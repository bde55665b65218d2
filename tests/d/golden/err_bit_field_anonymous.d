/* An unnamed bit-field is padding, of an integer type too (D_DECL_BFTYPE); DTrace calls it (anon). */
struct r {
	int a : 3;
	int : 0;
	float : 1;
} v;
