/* An inline array takes as many keys as it has parameters, each of its parameter's kind. */
inline int twice[int x] = x * 2;
BEGIN { trace(twice[1, 2]); }
BEGIN { trace(twice["a"]); }
BEGIN { trace(twice); }
