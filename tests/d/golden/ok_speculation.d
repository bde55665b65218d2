BEGIN { s = speculation(); }
BEGIN { self->n++; speculate(s); printf("%d\n", 1); trace(2); self->n++; }
BEGIN { discard(s); trace(3); }
BEGIN { commit(s); commit(s + 1); discard(s); self->n = 0; }
