BEGIN { mutex_owned(); }
BEGIN { mutex_type_adaptive(0, 99); }
BEGIN { mutex_owned("badarg"); }
BEGIN { mutex_type_adaptive(trace("badarg")); }
BEGIN { rw_read_held(@a); }
BEGIN { mutex_unlocked(0); }
BEGIN { rw_iswriter(0); }
