struct base {
	int a;
	long b;
};
typedef struct base base_t;
