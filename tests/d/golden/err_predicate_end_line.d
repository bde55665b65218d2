/* An operator that ends a predicate is reported on the line of the { after it, as DTrace
   reduces it once it has read that token; a lone name at the end, where it stands. */
BEGIN
/"char" & "foo"/
{
	exit(0);
}

BEGIN
/1 && nosuch/
{
	exit(0);
}
