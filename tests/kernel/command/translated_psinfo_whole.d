/*
 * curpsinfo and curlwpsinfo taken whole: the translators' members stored into scratch memory
 * (each translation takes its struct's bytes of it: 248 and 72 here, more than the default 256),
 * read back through the pointer, a global copied and its bytes traced.
 */
#pragma D option quiet
#pragma D option scratchsize=1024

BEGIN
{
	this->p = curpsinfo;
	this->l = curlwpsinfo;
	printf("%d %d %d %s\n", this->p->pr_pid == pid, this->p->pr_ppid == ppid, this->l->pr_lwpid == tid,
	    this->p->pr_fname);
	ps = *curpsinfo;
	printf("%d %s %s\n", ps.pr_pid == pid, ps.pr_fname, ps.pr_psargs == curpsinfo->pr_psargs ? "same" : "differ");
	tracemem(&ps.pr_fname, 5);
	exit(0);
}
