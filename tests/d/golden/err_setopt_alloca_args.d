BEGIN { setopt(1); }
BEGIN { setopt(execname); }
BEGIN { setopt("quiet", 2); }
BEGIN { p = alloca(0xffffffffffffffff); }
