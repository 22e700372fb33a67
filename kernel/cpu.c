/*
 * cpu.c - the CPU table.  Logical CPU numbers follow the firmware's order
 * with the boot CPU first; rank r of a job runs on CPU r.  Each CPU gets a
 * slot in the kernel stack area with guard pages around every stack, so a
 * kernel stack overflow is a clean double fault, not silent corruption.
 */
#include <arch/arch.h>
#include <arch/memlayout.h>
#include <arch/paging.h>
#include "cpu.h"
#include "kmem.h"
#include "printk.h"
#include "proc.h"
#include <arch/cpu.h>

struct cpu *cpus[CPU_MAX];
unsigned ncpus;

#define CPU_SLOT	(128ul << 10)
#define KSTACK_SIZE	(32ul << 10)
#define ISTACK_SIZE	(8ul << 10)

/* Offsets of the stacks inside a CPU's slot; the gaps are guards. */
static const uint64_t stack_off[4] = { 4ul << 10, 40ul << 10, 52ul << 10, 64ul << 10 };

static uintptr_t slot_base(unsigned id)
{
	return KSTACK_AREA + id * CPU_SLOT;
}

uint64_t cpu_stack_top(unsigned id)
{
	return slot_base(id) + stack_off[0] + KSTACK_SIZE;
}

struct cpu *cpu_create(unsigned id, uint32_t hwid, struct cpu *preset)
{
	struct cpu *c = preset ? preset : kpages_alloc((sizeof(struct cpu) + PAGE_SIZE - 1) / PAGE_SIZE);

	if (!c || paging_map_kstack(slot_base(id) + stack_off[0], KSTACK_SIZE) < 0)
		return NULL;
	for (int ist = 1; ist <= 3; ist++)
		if (paging_map_kstack(slot_base(id) + stack_off[ist], ISTACK_SIZE) < 0)
			return NULL;
	c->id = id;
	c->arch.apic_id = hwid;
	cpus[id] = c;
	return c;
}

void cpu_setup(struct cpu *c, int bsp)
{
	arch_cpu_init(c, bsp);
	for (int ist = 1; ist <= 3; ist++)
		arch_cpu_set_ist(c, ist, slot_base(c->id) + stack_off[ist] + ISTACK_SIZE);
	c->arch.tss.rsp[0] = cpu_stack_top(c->id);
	c->arch.kernel_rsp = cpu_stack_top(c->id);
}

_Noreturn void cpu_idle_loop(void)
{
	struct cpu *c = this_cpu();

	for (;;) {
		struct proc *p;

		irq_disable();
		void (*task)(void) = __atomic_exchange_n(&c->task, NULL, __ATOMIC_ACQ_REL);

		if (task) {
			task();
			continue;
		}
		p = __atomic_exchange_n(&c->next, NULL, __ATOMIC_ACQ_REL);
		if (p) {
			proc_run(p);
			continue;
		}
		cpu_idle();
	}
}

_Noreturn void ap_main(struct cpu *c)
{
	cpu_setup(c, 0);
	paging_cpu_init();
	apic_init_ap();
	__atomic_store_n(&c->online, 1, __ATOMIC_RELEASE);
	cpu_idle_loop();
}
