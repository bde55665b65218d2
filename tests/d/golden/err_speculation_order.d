BEGIN { s = speculation(); }
BEGIN { speculate(s); speculate(s); }
BEGIN { commit(s); speculate(s); }
BEGIN { trace(1); speculate(s); }
BEGIN { @a = count(); speculate(s); }
BEGIN { trace(1); commit(s); }
BEGIN { @a = count(); commit(s); }
BEGIN { commit(s); trace(1); }
BEGIN { commit(s); exit(0); }
BEGIN { commit(s); @a = count(); }
BEGIN { speculate(s); @a = count(); }
BEGIN { speculate(s); exit(0); }
BEGIN { speculate(); }
BEGIN { commit("s"); }
BEGIN { x = speculation(1); }
BEGIN { speculate(s); system("true"); }
BEGIN { chill(); }
