/* A bit-field is of an integer type (D_DECL_BFTYPE). */
struct r {
	int *p : 3;
} v;
