/*
 * NULL where a string goes, as DTrace has it: compared with and assigned to strings, an
 * element never assigned, strstr() and strtok() finding nothing. NULL orders before every
 * string, "" too; assigned to a dynamic variable it deletes it, where "" is kept; reading its
 * bytes (printing it, indexing it, passing it to a subroutine, keying an aggregation by it)
 * faults at address 0.
 */
#pragma D option quiet

string names[int];
self string unset;

BEGIN
{
	s = "set";
	printf("%d %d %d %d\n", s == NULL, s != NULL, NULL == s, NULL != s);
	s = NULL;
	printf("%d %d %d %d %d %d\n", s == NULL, s != NULL, s == "", s < "", "" > s, s <= s);
	empty = "";
	printf("%d %d\n", empty == NULL, empty != NULL);
	self->who = execname;
	printf("%d\n", self->who != NULL);
	self->who = NULL;
	printf("%d %d %d\n", self->who == NULL, names[1] == NULL, self->unset == NULL);
	names[2] = "";
	printf("%d %d\n", names[2] == NULL, names[2] == "");
	printf("%d %d\n", strstr("abc", "d") == NULL, strstr("abc", "") == "abc");
	printf("[%s] %d\n", strtok("a,b", ","), strtok(NULL, ",") == "b");
	printf("%d\n", strtok(NULL, ",") == NULL);
}

BEGIN
{
	printf("[%s]\n", s);
}

BEGIN
{
	trace(s[2]);
}

BEGIN
{
	trace(strlen(names[3]));
}

BEGIN
{
	@[names[4]] = count();
}

BEGIN
{
	exit(0);
}
