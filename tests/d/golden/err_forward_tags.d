/* A struct named before any definition is a forward tag, as DTrace makes one for a cast or a
   translator's input (D_OP_INCOMPLETE through it); -> through a pointer to an integer is D_OP_SOU;
   a translation that does not exist is D_XLATE_NONE before the operator on its result. */
int *ip;
struct in { int i; };
struct out { int o; };
translator struct out < struct in *p > { o = p->i; };
struct in v;
BEGIN { trace(((struct later *)0)->x); }
BEGIN { trace(ip->a); }
BEGIN { trace(xlate<struct out>(v)->o); }
