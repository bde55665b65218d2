/* extern declares a kernel symbol by name, of any type, as DTrace does; this kernel's kallsyms
   lists no data symbols, so a use is refused as a backquoted name is. */
extern int e8;
extern long double e20;
extern e9, *e10;
extern int a3[123][456];

BEGIN
{
	trace(e9);
}
