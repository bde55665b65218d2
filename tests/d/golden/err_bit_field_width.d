/* A bit-field's width is a positive integral constant (D_DECL_BFCONST). */
struct r {
	int a : 1;
	int b : -3;
} v;
