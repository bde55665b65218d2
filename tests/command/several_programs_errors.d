/* Checked after the -n program before it: its @a is a count(), so sum() here is an error placed
   in this script, at this script's own line. */
BEGIN
{
	@a = sum(1);
}
