BEGIN
{
	x = ;
}

END
{
	printf("a") printf("b");
}

tick-1s { y = 1; }

END { z = (1 + }
