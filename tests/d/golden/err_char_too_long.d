/* More than eight bytes, counted after escapes, is too long; nothing after it is checked. */
BEGIN
{
	b = 'a\bcdefghi';
	c = nosuch;
}
