/* uregs[] outside pid and USDT clauses: the registers the task entered the kernel with. At a
   system call's entry x86-64's pt_regs holds the call's number in orig_ax (R_ERR) and -ENOSYS
   in ax; getppid is call 110. R_DS ... R_TRAPNO are the task's thread_struct members. */
syscall::getppid:entry
/pid == $target/
{
	@calls[uregs[R_ERR], (long)uregs[R_RAX], uregs[R_DS] == curthread->thread.ds,
	    uregs[R_FS] == curthread->thread.fsbase, uregs[R_PC] == uregs[R_RIP]] = count();
}

END
{
	printf("R_PC %d R_SP %d R_TRAPNO %d\n", R_PC, R_SP, R_TRAPNO);
	printa("orig_ax %d ax %d ds %d fs %d pc %d: %@d\n", @calls);
}
