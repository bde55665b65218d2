/* bufpolicy=fill stops tracing at the first firing that does not fit, keeping room for END's:
   48 bytes less END's 8 leave five 8-byte firings. */
#pragma D option bufpolicy=fill
#pragma D option bufsize=48
#pragma D option quiet

int i;

tick-1ms
{
	printf("%d\n", i++);
}

tick-1ms
{
	printf("%d\n", i++);
}

END
{
	printf("end\n");
}
