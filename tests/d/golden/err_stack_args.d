BEGIN { stack("not an integer constant"); }
BEGIN { ustack(1, "not an integer constant"); }
BEGIN { stack(1, 2); }
BEGIN { ustack(1, 10, 3); }
BEGIN { stack(0); }
BEGIN { stack(-1); }
BEGIN { ustack(0, 200); }
BEGIN { ustack(1, -1); }
BEGIN { x = 3; stack(x); }
