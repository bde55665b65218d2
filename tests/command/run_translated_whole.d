/*
 * A translated struct taken whole: each member its translator defines is stored into scratch
 * memory (zero where it defines none), and the value is its address, the struct there, or a copy
 * of it. The input is evaluated once.
 */
#pragma D option quiet

struct out {
	int n;
	char name[8];
	long big;
};

translator struct out < int i > {
	n = i * 2;
	name = "dtpp";
};

BEGIN
{
	i = 3;
	this->o = xlate<struct out *>(i++);
	printf("%d %s %d i=%d\n", this->o->n, this->o->name, this->o->big, i);
	copy = xlate<struct out>(21);
	printf("%d %s\n", copy.n, copy.name);
	trace(*xlate<struct out *>(1));
	this->c = curcpu;
	printf("\n%d %d %d\n", curcpu != 0, this->c->cpu_id == cpu, this->c->cpu_pset);
	exit(0);
}
