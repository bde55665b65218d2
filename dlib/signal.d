/*
 * dtpp's D library: the si_code values of SIGCHLD (<signal.h>), which proc:::exit's reason and
 * proc:::signal-* scripts compare with. The signal names themselves are built in (SIGINT ...).
 */
inline int CLD_EXITED = 1;	/* the child called exit */
inline int CLD_KILLED = 2;	/* a signal killed it */
inline int CLD_DUMPED = 3;	/* a signal killed it, and it dumped core */
inline int CLD_TRAPPED = 4;	/* a traced child trapped */
inline int CLD_STOPPED = 5;	/* it stopped */
inline int CLD_CONTINUED = 6;	/* a stopped child continued */
