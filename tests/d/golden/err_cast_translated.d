/* A translated struct's address is no address a cast may take, as in DTrace; an inline of one
   (as D's library has curcpu) may be cast: no error on line 8. */
struct in { int ii; };
struct out { int oi; };
translator struct out < struct in *i > { oi = i->ii; };
struct in *f;
inline struct out *o = xlate<struct out *>(f);
BEGIN { addr = (uintptr_t)o; }
BEGIN { addr = (uintptr_t)xlate<struct out *>(f); }
