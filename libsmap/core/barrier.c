/*
 * barrier.c - the node barrier: one counter with sense reversal in rank 0's
 * memory, reached through SMARTMAP like any other variable.
 *
 * A rank flips its own sense and adds one to the counter (lock xadd); the
 * last to arrive resets the counter and publishes the new sense, which the
 * others are spinning on.  Counter and sense sit on separate cache lines so
 * the spinners' reads do not slow the arrivals' atomics.  Beyond
 * BARRIER_GROUP ranks the arrivals combine first in a counter in each
 * group's first rank, and only the last of each group goes on to rank 0's:
 * one cache line then sees at most BARRIER_GROUP atomics in a row.  For a
 * job on several nodes, smap_barrier's last arrival is the node's leader:
 * it runs the hardware barrier across the nodes between the on-node gather
 * and the release (docs/barrier.md).
 */
#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "core.h"
#include "smap.h"
#include "../net/net.h"

#define BARRIER_GROUP	8
/* In a job on several nodes a waiting rank spins this long, then naps
 * (the kernel halts its core) between looks at the sense.  A real box
 * answers in microseconds, so the naps only start behind a straggler;
 * under QEMU the wire takes tens of microseconds, and spinning vCPUs would
 * take the host cores every other node's vCPUs and the box need. */
#define BARRIER_SPIN_NS	10000
#define BARRIER_NAP_NS	1000

struct barrier_state {
	_Alignas(64) uint32_t count;	/* rank 0: the groups; group heads: their ranks */
	_Alignas(64) uint32_t group;	/* rank 0 with more than one group: its own group */
	_Alignas(64) uint32_t sense;	/* rank 0 */
};

static struct barrier_state barrier_node;
static uint32_t barrier_sense;			/* this rank's */

/* The kernel's wait comes back this often with the barrier still open, so
 * that a node whose only rank waits in it can still take part in finding
 * a deadlock (core_wait_check); with a progress function, every
 * millisecond, so that messages keep moving meanwhile. */
#define BARRIER_SLICE_MS	100
#define BARRIER_PROGRESS_MS	1

/* The barrier's progress function (NULL: none), for its waits. */
static void (*barrier_progress)(void);

static int hwbarrier_wait(void)
{
	unsigned spins = 0;
	long r;

	core_wait_blocked(1);
	while ((r = syscall(SMAPOS_SYS_HWBARRIER, barrier_progress ? BARRIER_PROGRESS_MS
								   : BARRIER_SLICE_MS)) < 0 &&
	       errno == EAGAIN) {
		if (barrier_progress)
			barrier_progress();
		spins += barrier_progress ? CORE_WAIT_LOOK / 64 : CORE_WAIT_LOOK;
		core_wait_check(spins);
	}
	core_wait_blocked(0);
	return r < 0 ? -errno : 0;
}

int smap_hwbarrier(void)
{
	core_ready();
	if (core.host) {
		core_warn("smap_hwbarrier: no hardware barrier in host mode");
		return -ENODEV;
	}
	return hwbarrier_wait();
}

int smap_hwbarrier_info(struct smapos_hwbarrier *out)
{
	core_ready();
	if (core.host)
		return -ENODEV;
	memset(out, 0, sizeof(*out));
	return syscall(SMAPOS_SYS_HWBARRIER_INFO, out, sizeof(*out)) < 0 ? -errno : 0;
}

/* Adds one at *count; true for the last of `of`, who resets it. */
static int barrier_arrive(uint32_t *count, uint32_t of)
{
	if (__atomic_add_fetch(count, 1, __ATOMIC_ACQ_REL) != of)
		return 0;
	__atomic_store_n(count, 0, __ATOMIC_RELAXED);
	return 1;
}

static int barrier_last(void)
{
	unsigned n = core.ji.nranks, me = core.ji.rank, head = me - me % BARRIER_GROUP;
	struct barrier_state *root = remote_address(0, &barrier_node);
	struct barrier_state *g = remote_address(head, &barrier_node);
	uint32_t *group = head == 0 ? &root->group : &g->count;

	if (n <= BARRIER_GROUP)
		return barrier_arrive(&root->count, n);
	if (!barrier_arrive(group, n - head < BARRIER_GROUP ? n - head : BARRIER_GROUP))
		return 0;
	return barrier_arrive(&root->count, (n + BARRIER_GROUP - 1) / BARRIER_GROUP);
}

/* Spin BARRIER_SPIN_NS, then nap until *sense is `want`. */
static void barrier_wait_napping(const uint32_t *sense, uint32_t want)
{
	static const struct timespec nap = { 0, BARRIER_NAP_NS };
	uint64_t until = smap_rdtsc() + smap_tsc_hz() / (1000000000 / BARRIER_SPIN_NS);
	unsigned spins = 0;

	while (__atomic_load_n(sense, __ATOMIC_ACQUIRE) != want) {
		if (barrier_progress)
			barrier_progress();
		/* A nap counts for 16 spins (from a multiple of 16), as in
		 * core_spin: the wait check looks every 16 naps. */
		if (smap_rdtsc() < until) {
			spins++;
			__builtin_ia32_pause();
		} else {
			spins = (spins + 16) & ~15u;
			nanosleep(&nap, NULL);
		}
		core_wait_check(spins);
	}
}

static void barrier_run(int across_nodes)
{
	struct barrier_state *b = remote_address(0, &barrier_node);
	uint32_t sense = barrier_sense ^ 1;
	unsigned spins = 0;

	barrier_sense = sense;
	if (barrier_last()) {
		/* The wire where there is one, else the network, else the wire
		 * call says why there is neither. */
		if (across_nodes && !(core.ji.flags & SMAPOS_JOB_HWBARRIER) && net_init() == 0) {
			net_node_barrier();
		} else if (across_nodes) {
			int r = hwbarrier_wait();

			if (r < 0)
				core_fatal("smap_barrier: hardware barrier across %u nodes failed: %s",
					   core.ji.nnodes, strerror(-r));
		}
		__atomic_store_n(&b->sense, sense, __ATOMIC_RELEASE);
		return;
	}
	/* In host mode the processes may outnumber the cores: core_spin
	 * yields to the leader, where a nap would sleep out the timer slack
	 * (50 us). */
	if (core.ji.nnodes > 1 && !core.host) {
		barrier_wait_napping(&b->sense, sense);
		return;
	}
	while (__atomic_load_n(&b->sense, __ATOMIC_ACQUIRE) != sense) {
		if (barrier_progress)
			barrier_progress();
		core_spin(&spins);
	}
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

void core_barrier_progress(void (*progress)(void))
{
	core_ready();
	barrier_progress = progress;
	barrier_run(core.ji.nnodes > 1);
	barrier_progress = NULL;
}
