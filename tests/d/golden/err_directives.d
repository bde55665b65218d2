#pragma D nosuchpragma
#pragma D error this script needs -C
#error stop here
#include <stdio.h>
#include "local.h"
#define N 1
#nosuchdirective
BEGIN
{
	exit(0);
}
