/* A struct key fits only a struct of its own type, as DTrace's prototypes have it (D_PROTO_ARG). */
struct record { int position; char content; } r;
struct other { int position; char content; } o;
BEGIN { a[r] = 1; a[o] = 2; a[3] = 3; b[1] = 1; b[r] = 2; }
