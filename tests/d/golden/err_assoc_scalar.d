/* An associative array is not a scalar (D_IDENT_BADREF). */
BEGIN { a[1] = 1; trace(sizeof(a)); }
BEGIN { x = a; }
