/* dtrace.h is plain C99: this compiles with -std=c99 -Wall -Wextra -pedantic -Werror, and the
 * second inclusion proves the #pragma once. */
#include <dtrace.h>
#include <dtrace.h>

int header_c99_uses(dtrace_hdl_t *dtp);
int header_c99_uses(dtrace_hdl_t *dtp) {
  dtrace_optval_t value = DTRACEOPT_UNSET;
  return dtrace_getopt(dtp, "bufsize", &value) + (int)DTRACE_QUANTIZE_NBUCKETS;
}
