/* In a script file, a probe description must be followed by a predicate or actions: what follows
   here is a mistake, reported at the description, as DTrace does. -n BEGIN stands alone. */
BEGIN
	exit(0);
}
