/* Included by cpp_include.d: its error is reported on its own line 4. */
#define STEP 10

BEGIN { x = ; }
