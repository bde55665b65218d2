/*
 * dtpp's D library: processes, threads and CPUs as DTrace describes them (psinfo_t, lwpsinfo_t,
 * cpuinfo_t, curpsinfo, curlwpsinfo, curcpu), translated from Linux's task_struct through the
 * kernel's BTF. A kernel whose structures differ needs only its BTF: nothing here is compiled
 * against kernel headers. Translators are checked where a program uses them, so a program that
 * does not pays nothing for them.
 */

/* Process states (pr_state), as DTrace numbers them. */
inline char SSLEEP = 1;
inline char SRUN = 2;
inline char SZOMB = 3;
inline char SSTOP = 4;
inline char SIDL = 5;
inline char SONPROC = 6;
inline char SWAIT = 7;

/* Data models (pr_dmodel). */
inline char PR_MODEL_ILP32 = 1;
inline char PR_MODEL_LP64 = 2;

struct psinfo {
	int pr_nlwp;		/* threads in the process */
	pid_t pr_pid;		/* the process id (Linux's tgid) */
	pid_t pr_ppid;		/* the parent's process id */
	pid_t pr_pgid;
	pid_t pr_sid;
	uid_t pr_uid;		/* real user id */
	uid_t pr_euid;		/* effective user id */
	gid_t pr_gid;		/* real group id */
	gid_t pr_egid;		/* effective group id */
	uintptr_t pr_addr;	/* the task_struct's address */
	size_t pr_size;
	size_t pr_rssize;
	dev_t pr_ttydev;
	ushort_t pr_pctcpu;
	ushort_t pr_pctmem;
	int64_t pr_start;	/* start time: ns since boot */
	int64_t pr_time;
	int64_t pr_ctime;
	char pr_fname[16];	/* the executable's name (Linux's comm) */
	char pr_psargs[80];	/* the command line's first word */
	int pr_wstat;
	int pr_argc;
	uintptr_t pr_argv;
	uintptr_t pr_envp;
	char pr_dmodel;		/* PR_MODEL_ILP32 or PR_MODEL_LP64 */
	int pr_taskid;
	int pr_projid;
	int pr_nzomb;
	int pr_poolid;
	int pr_zoneid;		/* always 0: Linux has no zones */
	int pr_contract;
};
typedef struct psinfo psinfo_t;

struct lwpsinfo {
	int pr_flag;
	int pr_lwpid;		/* the thread id (Linux's pid) */
	uintptr_t pr_addr;	/* the task_struct's address */
	uintptr_t pr_wchan;
	char pr_stype;
	char pr_state;		/* SSLEEP, SRUN, SZOMB, SSTOP, SONPROC ... */
	char pr_sname;		/* the state as a letter: S, R, Z, T, O ... */
	char pr_nice;		/* nice value: -20 to 19 */
	short pr_syscall;
	char pr_oldpri;
	char pr_cpu;
	int pr_pri;		/* priority: Linux's prio, lower runs first */
	char pr_clname[8];
	char pr_name[16];	/* the thread's name (comm) */
	processorid_t pr_onpro;	/* the CPU the thread last ran on */
	processorid_t pr_bindpro;
	int pr_bindpset;
};
typedef struct lwpsinfo lwpsinfo_t;

struct cpuinfo {
	processorid_t cpu_id;
	int cpu_pset;
	int cpu_chip;
	int cpu_lgrp;
};
typedef struct cpuinfo cpuinfo_t;

translator psinfo_t < struct task_struct *T > {
	pr_nlwp = T->signal->nr_threads;
	pr_pid = T->tgid;
	pr_ppid = T->real_parent->tgid;
	/* signal->pids[] by enum pid_type (2 the group, 3 the session); numbers[0] the root namespace's */
	pr_pgid = T->signal->pids[2]->numbers[0].nr;
	pr_sid = T->signal->pids[3]->numbers[0].nr;
	pr_uid = T->cred->uid.val;
	pr_euid = T->cred->euid.val;
	pr_gid = T->cred->gid.val;
	pr_egid = T->cred->egid.val;
	pr_addr = (uintptr_t)T;
	pr_start = T->start_time;
	pr_fname = T->comm;
	pr_psargs = T->mm == NULL ? stringof(T->comm) : copyinstr(T->mm->arg_start);
	pr_dmodel = PR_MODEL_LP64;
	pr_zoneid = 0;
};

/*
 * Linux's states: __state 0 is runnable (on a CPU or waiting for one), bits 1 and 2 are sleeps,
 * 4 and 8 stopped or traced; exit_state 16 or 32 a process that has exited.
 */
translator lwpsinfo_t < struct task_struct *T > {
	pr_flag = 0;
	pr_lwpid = T->pid;
	pr_addr = (uintptr_t)T;
	pr_state = T->exit_state != 0 ? SZOMB :
	    T->__state == 0 ? (T->on_cpu ? SONPROC : SRUN) :
	    (T->__state & 3) != 0 ? SSLEEP :
	    (T->__state & 12) != 0 ? SSTOP : SWAIT;
	pr_sname = T->exit_state != 0 ? 'Z' :
	    T->__state == 0 ? (T->on_cpu ? 'O' : 'R') :
	    (T->__state & 3) != 0 ? 'S' :
	    (T->__state & 12) != 0 ? 'T' : 'W';
	pr_nice = T->static_prio - 120;
	pr_pri = T->prio;
	/* The scheduling class by policy, named as ps(1) names it. */
	pr_clname = T->policy == 1 ? "FF" : T->policy == 2 ? "RR" : T->policy == 3 ? "B" :
	    T->policy == 5 ? "IDL" : T->policy == 6 ? "DLN" : "TS";
	pr_name = T->comm;
	pr_onpro = T->thread_info.cpu;
};

/*
 * Linux has no processor sets (every CPU is in the one set, 0). The chip (package) and the
 * locality group (NUMA node) are in per-CPU variables (cpu_info, numa_node) that the kernel
 * engine does not read yet: 0, right on a machine of one package and one node, as this one.
 */
translator cpuinfo_t < int C > {
	cpu_id = C;
	cpu_pset = 0;
	cpu_chip = 0;
	cpu_lgrp = 0;
};

/*
 * sched:::change-pri's args[2], the priority sched_pi_setprio(tsk, pi_task) is about to give the
 * task (arg0 here is the task, arg2 pi_task, the task boosting it or NULL): pi_task's when that is
 * higher (a lower number) than the task's normal priority, else the normal one (rt_mutex_setprio).
 */
inline int __dtpp_pi_new_priority = (struct task_struct *)arg2 != NULL &&
    ((struct task_struct *)arg2)->prio < ((struct task_struct *)arg0)->normal_prio ?
    ((struct task_struct *)arg2)->prio : ((struct task_struct *)arg0)->normal_prio;

inline psinfo_t *curpsinfo = xlate <psinfo_t *> (curthread);
inline lwpsinfo_t *curlwpsinfo = xlate <lwpsinfo_t *> (curthread);
inline cpuinfo_t *curcpu = xlate <cpuinfo_t *> (cpu);
inline int pset = curcpu->cpu_pset;
inline int chip = curcpu->cpu_chip;
inline int lgrp = curcpu->cpu_lgrp;
