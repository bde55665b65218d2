/* A bit-field holds no more bits than its type (D_DECL_BFSIZE). */
struct r {
	char a : 10;
} v;
