BEGIN { trace(args[0]); }
END { trace(args[2]); }
dtrace:::BEGIN, END { trace(args[1]); }
