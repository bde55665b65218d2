BEGIN, END {}
dtrace:::BEGIN {}
syscall::read*:entry, syscall::[rw]*:return {}
pid$1:a.out:main:entry, pid$target::read:entry {}
profile-997, profile-199hz, tick-1sec, tick-10ms, tick-200us, tick-5000hz, profile:::tick-1min {}
sdt:::sched_switch
