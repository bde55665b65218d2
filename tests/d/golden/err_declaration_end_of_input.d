int i;
int lols[int