long double ld;
