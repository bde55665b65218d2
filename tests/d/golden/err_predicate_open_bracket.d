BEGIN
/args[0/ {
	trace(epid);
}
