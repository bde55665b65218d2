BEGIN { this->a[1, 2] = 3; }
BEGIN { trace(args); }
BEGIN { trace(args["a"]); }
BEGIN { p -= 1; }
BEGIN { arg0 = 2; }
