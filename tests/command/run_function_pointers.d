/* Function pointers declared as C declares them: an address each, whatever the function returns. */
#pragma D option quiet

struct ops {
	char tag;
	int (*open)(const char *, int);
	void (*hooks[3])();
	long after;
};

extern int *(*lookup)(void);
int (*handler)(int);

BEGIN
{
	handler = (void *)0x1234;
	printf("%d %d %d %x\n", sizeof(struct ops), offsetof(struct ops, hooks), offsetof(struct ops, after),
	    (long)handler);
	exit(0);
}
