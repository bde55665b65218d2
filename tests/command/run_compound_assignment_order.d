/* x op= v reads x before it evaluates v, as DTrace's x = x op v does, for every kind of variable:
   i += i++ adds the old i to itself, whatever i++ leaves behind. */
#pragma D option quiet

int a[int];

BEGIN
{
	i = 4;
	i += i++ + --i + ++i - ++i * i;
	printf("global %d\n", i);
	i -= i++ * 3;
	printf("global %d\n", i);
	a[0] = 4;
	a[0] += a[0]++ + --a[0] + ++a[0] - ++a[0] * a[0];
	printf("element %d\n", a[0]);
	self->t = 4;
	self->t += self->t++ + --self->t + ++self->t - ++self->t * self->t;
	printf("thread-local %d\n", self->t);
	this->c = 4;
	this->c += this->c++ + --this->c + ++this->c - ++this->c * this->c;
	printf("clause-local %d\n", this->c);
	k = 1;
	a[k] = 10;
	a[k++] *= k;
	printf("a[1] %d, k %d\n", a[1], k);
	exit(0);
}
