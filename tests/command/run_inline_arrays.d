/* Inline arrays: an inline with parameters, its definition evaluated with each standing for
   its key's value as the parameter's type, wherever it is used. */
#pragma D option quiet

struct s {
	int s_x;
};

translator struct s < int T > {
	s_x = T + 1;
};

inline int sum[int x, int y] = x + y;
inline int field[int x] = (xlate < struct s > (x)).s_x;
inline string pick[int n, string a, string b] = n ? a : b;
inline char low[int v] = v;

BEGIN
{
	i = 5;
	printf("%d %d %d\n", sum[10, 20], sum[i++, i], field[123]);
	printf("%s %s %d %d\n", pick[1, "yes", "no"], pick[0, "yes", "no"], low[0x141], sizeof(low[1]));
	exit(0);
}
