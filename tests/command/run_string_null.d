/*
 * NULL where a string is wanted, as the Guide's scripts use it (self->parent != NULL, then
 * self->parent = NULL): compared with and assigned to strings it is the empty string here.
 */
#pragma D option quiet

BEGIN
{
	s = "set";
	printf("%d %d %d %d\n", s == NULL, s != NULL, NULL == s, NULL != s);
	s = NULL;
	printf("%d %d [%s] %d\n", s == NULL, s != NULL, s, s == "");
	self->who = execname;
	printf("%d\n", self->who != NULL);
	self->who = NULL;
	printf("%d\n", self->who == NULL);
	exit(0);
}
