/* Storage classes C has and D has not, a declaration of nothing, a scoped name. */
register r;
static int s;
auto int a;
extern int;
int `scoped;
BEGIN { exit(0); }
