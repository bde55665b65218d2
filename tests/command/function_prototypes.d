/*
 * Functions' prototypes, as C headers declare them, declare nothing D can use; the variables
 * declared beside them are declared.
 */
void func(int, int);
int f(void), g(), *h(char *s, ...), y;
unsigned long long later(struct task_struct *task);

BEGIN
{
	y = 7;
	printf("%d\n", y);
	exit(0);
}
