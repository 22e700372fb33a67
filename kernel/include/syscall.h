/* syscall.h - the system call table. */
#ifndef SYSCALL_H
#define SYSCALL_H

#include <stdint.h>

struct proc;

long syscall_run(struct proc *p, uint64_t nr, const uint64_t a[6]);
/* Wall-clock seconds at TSC value at_tsc, for CLOCK_REALTIME. */
void syscall_init_clock(uint64_t epoch_seconds, uint64_t at_tsc);

/* Memory calls (sysmem.c). */
long sys_brk(struct proc *p, uint64_t addr);
long sys_mmap(struct proc *p, uint64_t addr, uint64_t len, uint64_t prot, uint64_t flags,
	      uint64_t fd, uint64_t off);
long sys_munmap(struct proc *p, uint64_t addr, uint64_t len);
long sys_mremap(struct proc *p, uint64_t old, uint64_t old_len, uint64_t new_len,
		uint64_t flags);
long sys_mprotect(struct proc *p, uint64_t addr, uint64_t len, uint64_t prot);
long sys_madvise(struct proc *p, uint64_t addr, uint64_t len, uint64_t advice);

#endif
