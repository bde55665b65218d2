/* Read after b_base.d, which it names, though its name sorts first. */
#pragma D depends_on library b_base.d
struct uses {
	base_t base;
	int n;
};
inline int USES_SIZE = sizeof (struct uses);
