#!/usr/sbin/dtrace -Cs
#include "cpp_include.h"

END
{
  y = );
}
