/* A translated struct's address is no address a cast may take, as in DTrace. */
struct in { int ii; };
struct out { int oi; };
translator struct out < struct in *i > { oi = i->ii; };
struct in *f;
BEGIN { addr = (uintptr_t)xlate<struct out *>(f); }
