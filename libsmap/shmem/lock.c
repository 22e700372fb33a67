/*
 * lock.c - distributed locks: shmem_set_lock, shmem_test_lock,
 * shmem_clear_lock, as an MCS queue lock kept in the lock variables
 * themselves.
 *
 * The symmetric long `lock` is two 32-bit halves.  The low half of PE 0's
 * copy is the queue's tail: PE number + 1 of the last PE to ask, 0 when the
 * lock is free.  The high half of every PE's own copy is that PE's queue
 * node: its successor (PE number + 1, 0 for none) and a WAIT bit it spins
 * on locally.  A PE asking swaps itself into the tail, links itself behind
 * its predecessor and spins on its own memory until the predecessor hands
 * over, so waiters never hammer PE 0's line and the lock is granted in
 * arrival order.  Every step is one locked instruction through SMARTMAP,
 * so the lock works for PE 0's node only (the job's single node today).
 */
#include "../core/core.h"
#include "shmemi.h"

#define LOCK_WAIT	0x80000000u

struct lock_words {
	uint32_t *tail;		/* on PE 0 */
	uint32_t *node;		/* this PE's */
	uint32_t me;		/* this PE + 1 */
};

static struct lock_words lock_words(long *lock, const char *fn)
{
	uint32_t *w = (uint32_t *)lock;

	shmemi_check_ready(fn);
	return (struct lock_words){ shmemi_addr(&w[0], 0, fn), &w[1], (uint32_t)shmemi.me + 1 };
}

/* The queue node of PE pe1 - 1. */
static uint32_t *lock_node_of(long *lock, uint32_t pe1, const char *fn)
{
	return shmemi_addr((uint32_t *)lock + 1, (int)pe1 - 1, fn);
}

void shmem_set_lock(long *lock)
{
	struct lock_words l = lock_words(lock, __func__);
	unsigned spins = 0;
	uint32_t pred;

	__atomic_store_n(l.node, LOCK_WAIT, __ATOMIC_RELAXED);
	pred = __atomic_exchange_n(l.tail, l.me, __ATOMIC_ACQ_REL);
	if (!pred)
		return;
	__atomic_fetch_or(lock_node_of(lock, pred, __func__), l.me, __ATOMIC_RELEASE);
	while (__atomic_load_n(l.node, __ATOMIC_ACQUIRE) & LOCK_WAIT)
		core_spin(&spins);
}

int shmem_test_lock(long *lock)
{
	struct lock_words l = lock_words(lock, __func__);
	uint32_t free = 0;

	__atomic_store_n(l.node, 0, __ATOMIC_RELAXED);
	return !__atomic_compare_exchange_n(l.tail, &free, l.me, 0, __ATOMIC_ACQ_REL,
					    __ATOMIC_RELAXED);
}

/* The locked instructions also complete this PE's stores (the quiet the
 * specification asks for) before the next holder can see the lock. */
void shmem_clear_lock(long *lock)
{
	struct lock_words l = lock_words(lock, __func__);
	uint32_t next = __atomic_load_n(l.node, __ATOMIC_ACQUIRE) & ~LOCK_WAIT;
	unsigned spins = 0;

	if (!next) {
		uint32_t me = l.me;

		if (__atomic_compare_exchange_n(l.tail, &me, 0, 0, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE))
			return;
		if (me == 0)
			shmemi_fail(__func__, "the lock is not held");
		/* A PE swapped itself in after us and is about to link. */
		while (!(next = __atomic_load_n(l.node, __ATOMIC_ACQUIRE) & ~LOCK_WAIT))
			core_spin(&spins);
	}
	__atomic_store_n(l.node, 0, __ATOMIC_RELAXED);
	__atomic_fetch_and(lock_node_of(lock, next, __func__), ~LOCK_WAIT, __ATOMIC_RELEASE);
}
