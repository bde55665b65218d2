BEGIN
{
	trace(curlwpsinfo->pr_name[15]);
	trace(curlwpsinfo->pr_name[16]);
}

BEGIN
{
	curlwpsinfo->pr_name[256] = 0;
}
