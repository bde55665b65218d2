#include <stdio.h>
#include "local.h"
#define N 1
#pragma D nosuchpragma
#pragma D error this script needs -C
#error stop here
BEGIN
{
	exit(0);
}
