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
 * arrival order.  Every step is one locked instruction, through SMARTMAP
 * on the node or in the target's network engine beyond it (lock_amo).
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
	return (struct lock_words){ &w[0], &w[1], (uint32_t)shmemi.me + 1 };
}

/* One atomic on word w of PE pe: the old value. */
static uint32_t lock_amo(uint8_t kind, uint32_t *w, int pe, uint32_t v, uint32_t cond,
			 const char *fn)
{
	uint32_t *p = shmemi_local(w, sizeof(*w), pe, fn);

	if (!p)
		return (uint32_t)shmemi_net_fetch(kind | SNAMO_32, w, (int32_t)v, (int32_t)cond, pe,
						  fn);
	switch (kind) {
	case SNAMO_SWAP:
		return __atomic_exchange_n(p, v, __ATOMIC_ACQ_REL);
	case SNAMO_OR:
		return __atomic_fetch_or(p, v, __ATOMIC_RELEASE);
	case SNAMO_AND:
		return __atomic_fetch_and(p, v, __ATOMIC_RELEASE);
	default:
		__atomic_compare_exchange_n(p, &cond, v, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
		return cond;
	}
}

void shmem_set_lock(long *lock)
{
	struct lock_words l = lock_words(lock, __func__);
	unsigned spins = 0;
	uint32_t pred;

	__atomic_store_n(l.node, LOCK_WAIT, __ATOMIC_RELAXED);
	pred = lock_amo(SNAMO_SWAP, l.tail, 0, l.me, 0, __func__);
	if (!pred)
		return;
	lock_amo(SNAMO_OR, l.node, (int)pred - 1, l.me, 0, __func__);
	while (__atomic_load_n(l.node, __ATOMIC_ACQUIRE) & LOCK_WAIT)
		core_spin(&spins);
}

int shmem_test_lock(long *lock)
{
	struct lock_words l = lock_words(lock, __func__);

	__atomic_store_n(l.node, 0, __ATOMIC_RELAXED);
	shmemi_poll();
	return lock_amo(SNAMO_CAS, l.tail, 0, l.me, 0, __func__) != 0;
}

/* The locked instructions also complete this PE's stores (the quiet the
 * specification asks for) before the next holder can see the lock; puts
 * to other nodes complete in the quiet first. */
void shmem_clear_lock(long *lock)
{
	struct lock_words l = lock_words(lock, __func__);
	uint32_t next = __atomic_load_n(l.node, __ATOMIC_ACQUIRE) & ~LOCK_WAIT;
	unsigned spins = 0;

	if (net_up())
		net_quiet();
	if (!next) {
		uint32_t me = lock_amo(SNAMO_CAS, l.tail, 0, 0, l.me, __func__);

		if (me == l.me)
			return;
		if (me == 0)
			shmemi_fail(__func__, "the lock is not held");
		/* A PE swapped itself in after us and is about to link. */
		while (!(next = __atomic_load_n(l.node, __ATOMIC_ACQUIRE) & ~LOCK_WAIT))
			core_spin(&spins);
	}
	__atomic_store_n(l.node, 0, __ATOMIC_RELAXED);
	lock_amo(SNAMO_AND, l.node, (int)next - 1, ~LOCK_WAIT, 0, __func__);
}
