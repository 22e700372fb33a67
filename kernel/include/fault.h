/* fault.h - a processor exception, decoded by arch/ and explained (in terms
 * of the rank's memory layout) by fault.c. */
#ifndef FAULT_H
#define FAULT_H

#include <stdint.h>
#include <arch/trapframe.h>

struct fault {
	unsigned vector;
	const char *name;	/* "page fault", "general protection", ... */
	int signo;		/* the Linux signal a rank dies of */
	uint64_t rip;
	uint64_t error;		/* error code, if the exception has one */
	int has_addr;		/* page faults: addr is the faulting address */
	uint64_t addr;
	int write, exec, present;
};

/* A rank faulted: report, end the rank and its job.  Never returns. */
_Noreturn void fault_user(struct trapframe *tf, const struct fault *f);
/* The kernel faulted: report and panic. */
_Noreturn void fault_kernel(struct trapframe *tf, const struct fault *f);

#endif
