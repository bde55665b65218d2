struct s { int i; struct { int a; }; };
struct { } e;
BEGIN { trace(sizeof(union { })); }
BEGIN { trace(sizeof(struct { int a; } x)); }
BEGIN { trace((enum { })1); }
