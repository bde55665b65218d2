/* A struct holds no function: D_DECL_VOIDOBJ, as DTrace says of a member of no size. */
struct ops {
	int count;
	int open();
} o;
