/* A translator's input may name a struct nothing defines yet (a forward tag), and a cast may
   name it again once the program defines it. */
#pragma D option quiet

struct out {
	int o;
};

translator struct out < struct later *p > {
	o = 7;
};

struct later {
	int x;
};

BEGIN
{
	printf("%d %d\n", xlate<struct out *>((struct later *)0)->o, sizeof(struct later));
	exit(0);
}
