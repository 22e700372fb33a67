/* spinlock.h - ticket spinlocks.  FIFO order matters under QEMU's TCG,
 * where dozens of vCPUs share two host cores: a plain test-and-set lock
 * lets one vCPU starve the rest. */
#ifndef SPINLOCK_H
#define SPINLOCK_H

#include <stdint.h>
#include <arch/cpu.h>

struct spinlock {
	volatile uint32_t next;
	volatile uint32_t owner;
};

#define SPINLOCK_INIT { 0, 0 }

static inline void spin_lock(struct spinlock *l)
{
	uint32_t me = __atomic_fetch_add(&l->next, 1, __ATOMIC_ACQUIRE);

	while (__atomic_load_n(&l->owner, __ATOMIC_ACQUIRE) != me)
		cpu_relax();
}

static inline void spin_unlock(struct spinlock *l)
{
	__atomic_store_n(&l->owner, l->owner + 1, __ATOMIC_RELEASE);
}

static inline uint64_t spin_lock_irqsave(struct spinlock *l)
{
	uint64_t f = irq_save();

	spin_lock(l);
	return f;
}

static inline void spin_unlock_irqrestore(struct spinlock *l, uint64_t f)
{
	spin_unlock(l);
	irq_restore(f);
}

#endif
