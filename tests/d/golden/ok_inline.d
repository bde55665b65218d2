/* Inlines: names that stand for their expressions, converted to their types. */
inline int X = 3;
inline string NAME = "dtpp";
inline uint64_t NANOSEC = 1000000000;
inline char SMALL = 300;
BEGIN { printf("%d %s %d %d %d\n", X, NAME, NANOSEC / 1000, SMALL, X * 2); exit(0); }
