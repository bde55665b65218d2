/*
 * cpp replaces a long run of blank lines with a line marker; the error below must still
 * be reported on line 19.
 */












BEGIN
{
  x = ;
}
