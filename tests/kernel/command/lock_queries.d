/* mutex_owned(), mutex_owner(), mutex_type_*() and rw_*() read the lock's own words as
   dtrace-utils does: a mutex's owner word is its task and three flag bits; a queued rwlock's count
   has its readers from bit 9, a waiting writer at bit 8 and a writer in the low byte. A NULL lock
   faults at 0. */
#pragma D option quiet

BEGIN
{
	m = (struct mutex *)alloca(sizeof(struct mutex));
	r = (rwlock_t *)alloca(sizeof(rwlock_t));
	printf("free: %d %d %d %d\n", mutex_owned(m), mutex_owner(m) == NULL, mutex_type_adaptive(m), mutex_type_spin(m));
	*(unsigned long *)m = (unsigned long)curthread | 3;
	printf("owned: %d %d\n", mutex_owned(m), mutex_owner(m) == curthread);
	*(unsigned long *)m = ((unsigned long)curthread + 64) | 1;
	printf("another's: %d %d\n", mutex_owned(m), mutex_owner(m) == curthread);
	printf("rwlock of %d bytes: %d %d %d\n", sizeof(rwlock_t), rw_read_held(r), rw_write_held(r), rw_iswriter(r));
	*(unsigned int *)r = 0x605;
	printf("3 readers, a writer: %d %d %d\n", rw_read_held(r), rw_write_held(r), rw_iswriter(r));
	*(unsigned int *)r = 0x100;
	printf("a writer waiting: %d %d %d\n", rw_read_held(r), rw_write_held(r), rw_iswriter(r));
}

BEGIN { trace(mutex_owned(NULL)); }
BEGIN { trace(rw_iswriter((rwlock_t *)NULL)); }
BEGIN { exit(0); }

ERROR { printf("fault %d at %d\n", arg4, arg5); }
