/*
 * barrier.c - the node barrier: one counter with sense reversal in rank 0's
 * memory, reached through SMARTMAP like any other variable.
 *
 * A rank flips its own sense and adds one to the counter (lock xadd); the
 * last to arrive resets the counter and publishes the new sense, which the
 * others are spinning on.  Counter and sense sit on separate cache lines so
 * the spinners' reads do not slow the arrivals' atomics.  For a job on
 * several nodes, smap_barrier's last arrival also runs the hardware barrier
 * across the nodes between the on-node gather and the on-node release.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "core.h"
#include "smap.h"

struct barrier_state {
	_Alignas(64) uint32_t count;
	_Alignas(64) uint32_t sense;
};

static struct barrier_state barrier_node;	/* used in rank 0 only */
static uint32_t barrier_sense;			/* this rank's */

int smap_hwbarrier(void)
{
	long r;

	core_ready();
	if (core.host) {
		core_warn("smap_hwbarrier: no hardware barrier in host mode");
		return -ENODEV;
	}
	r = syscall(SMAPOS_SYS_HWBARRIER);
	return r < 0 ? -errno : 0;
}

static void barrier_run(int across_nodes)
{
	struct barrier_state *b = remote_address(0, &barrier_node);
	uint32_t sense = barrier_sense ^ 1;
	unsigned spins = 0;

	barrier_sense = sense;
	if (__atomic_add_fetch(&b->count, 1, __ATOMIC_ACQ_REL) == core.ji.nranks) {
		if (across_nodes) {
			int r = smap_hwbarrier();

			if (r < 0)
				core_fatal("smap_barrier: hardware barrier across %u nodes failed: %s",
					   core.ji.nnodes, strerror(-r));
		}
		__atomic_store_n(&b->count, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&b->sense, sense, __ATOMIC_RELEASE);
		return;
	}
	while (__atomic_load_n(&b->sense, __ATOMIC_ACQUIRE) != sense)
		core_spin(&spins);
}

void smap_node_barrier(void)
{
	core_ready();
	barrier_run(0);
}

void smap_barrier(void)
{
	core_ready();
	barrier_run(core.ji.nnodes > 1);
}
