/* A bit-field has no address, size or offset of its own (D_ADDROF_BITFIELD, D_SIZEOF_BITFIELD,
   D_OFFSETOF_BITFIELD), and takes integers only. */
struct r {
	int a : 3;
	unsigned int b : 5;
} v;
BEGIN { trace(&v.a); }
BEGIN { trace(sizeof(v.b)); }
BEGIN { trace(offsetof(struct r, b)); }
BEGIN { v.a = "x"; }
