/* An inline may not take a subroutine's or another inline's name (D_DECL_IDRED, with what the
   name was before). */
inline int rand = 7;
inline int twice = 2;
inline int twice = 3;
