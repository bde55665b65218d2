/* A call's arguments are checked before printf()'s format, as DTrace cooks them first; an
   action as an argument is checked only against its prototype. */
struct bits { int a : 1; } var;
BEGIN { printf("%n", sizeof(var.a)); }
BEGIN { printf("%d", printf("")); }
