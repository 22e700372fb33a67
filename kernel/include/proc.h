/*
 * proc.h - a rank: one process on one CPU for its whole life, in one
 * physically contiguous region that is mapped entirely before it runs.
 *
 * Virtual layout of the region [base, end):
 *   base .. brk_start    ELF segments at their link addresses
 *   brk_start .. guard   heap: brk grows up, mmap carves from the top
 *   guard                one unmapped 4 KiB page (stack overflow trap)
 *   guard+4K .. end      stack, growing down from end
 */
#ifndef PROC_H
#define PROC_H

#include <stddef.h>
#include <stdint.h>
#include "elf.h"
#include "pmem.h"
#include "signal.h"
#include "uaccess.h"

#define PROC_OUTBUF	4096
/* Nothing below this address is ever user memory (Linux's mmap_min_addr). */
#define NULL_GUARD	0x10000ul

struct job;
struct cpu;
struct trapframe;

struct proc {
	struct job *job;
	unsigned rank;
	struct cpu *cpu;
	uint64_t *pml4;
	uint64_t phys;			/* physical base of the region */
	uint64_t base, end;		/* virtual bounds of the region */
	uint64_t brk_start, brk;
	uint64_t guard;
	struct pmem vfree;		/* free virtual space in [brk_start, guard) */
	unsigned nro;
	struct { uint64_t lo, hi; } ro[ELF_SEGS_MAX];	/* pages without write access */
	volatile int killed;		/* stop at the next chance (job failing) */
	volatile int done;
	int status;			/* exit code, or 128 + signal */
	int culprit;			/* ended by its own fault, abort or job_abort */
	int comm_done;			/* SMAPOS_SYS_COMM_DONE: no peer can wait for it */
	uint64_t tid_address;
	uint64_t t_user;		/* TSC at the first user instruction */
	uint64_t t_end;
	uint64_t syscalls;
	struct trapframe *tf;		/* the user registers of the running system call */
	uint64_t sigblocked, sigpending;	/* bit sig-1 for signal sig */
	uint64_t suspend_mask;		/* rt_sigsuspend: the mask to return to */
	int suspended;			/* ... and the rank is in it */
	uint64_t alarm_at, alarm_every;	/* ITIMER_REAL's next expiry and period (TSC; 0: off) */
	struct ksigaction sigact[NSIG];
	struct { uint64_t base, len; } iov[1024];	/* readv/writev's copy of the iovec */
	size_t outlen;
	char out[PROC_OUTBUF];		/* the unfinished line of stdout/stderr */
};

/* Arm this CPU's one-shot timer for p: the earliest of `sleep` (a TSC
 * deadline, 0 for none), p's alarm and, on rank 0, the job's time limit. */
void proc_timer_arm(struct proc *p, uint64_t sleep);
/* The timer fired, in user mode (registers tf) when from_user. */
void proc_timer_interrupt(struct trapframe *tf, int from_user);

/* A wait nothing can ever end (no other thread exists to wake a futex or
 * send a signal): the job ends now rather than hang until its limit. */
_Noreturn void proc_deadlock(struct proc *p, const char *what);
/* Run p on this CPU until it ends (called by the CPU that owns it). */
void proc_run(struct proc *p);
/* End the rank running on this CPU.  Never returns. */
_Noreturn void proc_end(struct proc *p, int status, int culprit);
/* End the current rank because its job is being stopped. */
_Noreturn void proc_end_current(void);
struct proc *proc_current(void);

/* Console output of a rank: whole lines, tagged on request. */
void proc_output(struct proc *p, const char *s, size_t n);
void proc_output_flush(struct proc *p);

#endif
