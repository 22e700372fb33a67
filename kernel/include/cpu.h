/* cpu.h - one struct per logical CPU: its rank, its return point, the
 * work other CPUs ask of it. */
#ifndef CPU_H
#define CPU_H

#include <stdint.h>
#include <arch/percpu.h>
#include <arch/context.h>

#define CPU_MAX		512

struct proc;

struct cpu {
	struct arch_cpu arch;		/* first: entry code finds it at %gs:0 */
	unsigned id;			/* logical number: rank r runs on cpu r */
	volatile int online;
	struct proc *proc;		/* the rank running here, or NULL */
	struct proc *volatile next;	/* a rank handed to this CPU to start */
	void (*volatile task)(void);	/* kernel work handed to this CPU (the network engine) */
	struct kcontext idle_ctx;	/* where a rank's end returns to */
	uint64_t intr_count;		/* interrupts taken (OS-noise accounting) */
};

extern struct cpu *cpus[CPU_MAX];
extern unsigned ncpus;

/* Allocate CPU `id` (hardware id `hwid`) with its stacks; `preset` is used
 * instead of a new struct when given (the boot CPU's is static). */
struct cpu *cpu_create(unsigned id, uint32_t hwid, struct cpu *preset);
/* Processor tables and stacks for this CPU; called on the CPU itself. */
void cpu_setup(struct cpu *c, int bsp);
uint64_t cpu_stack_top(unsigned id);
/* Where APs begin in C, and where every CPU waits for work. */
_Noreturn void ap_main(struct cpu *c);
_Noreturn void cpu_idle_loop(void);

static inline struct cpu *this_cpu(void)
{
	struct cpu *c;

	__asm__ volatile("mov %%gs:0, %0" : "=r"(c));
	return c;
}

#endif
