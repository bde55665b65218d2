inline int X = "a";
inline int X2 = 1;
inline int X2 = 2;
inline void V = 1;
BEGIN{}
inline int X0000000;
