/* Two types in one declaration, for want of a ';' after the first (D_DECL_COMBO at the second). */
struct first {
	int a;
}
struct second {
	int b;
} v;
BEGIN { exit(0); }
