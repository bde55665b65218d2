BEGIN { i = R_SP; trace(uregs[i]); }
BEGIN { trace(uregs[26]); }
BEGIN { trace(uregs[-1]); }
BEGIN { trace(uregs[R_PC, 1]); }
