/*
 * A key short enough for the stack, with an associative array's element among its keys: the
 * element's own key is built in scratch, and the words of the outer key written before it stay.
 */
BEGIN { a["x"] = 7; }
syscall::getppid:entry /pid == $target/ { @[1234, a["x"], "k", execname] = count(); }
