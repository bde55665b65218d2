BEGIN
{
#error this script needs -DNAME
}
