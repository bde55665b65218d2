struct s { int i; struct { int a; }; };
struct { } e;
