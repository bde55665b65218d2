int i;
int i;
void v;
this int locals[int];
