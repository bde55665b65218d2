enum e { X = sizeof(probename) };

BEGIN
{
	trace(X);
	exit(0);
}
