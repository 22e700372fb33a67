/*
 * waits.c - no waiting for the impossible: a job of one node in which every
 * rank has been spinning in a libsmap wait for WAIT_STUCK_S, or has
 * exited, can never move again (nothing outside the ranks can satisfy a
 * wait on one node), so it ends with SMAPOS_EXIT_DEADLOCK and one line
 * naming who waits, in which call (core_call), and who is gone.
 *
 * Each rank keeps its wait state in its own memory, at the same address in
 * every rank: peers read it through SMARTMAP, so the check costs nothing
 * until a wait has lasted long.  A rank that computes, sleeps or sits in a
 * system call is not spinning, so a job waiting on it is never judged.
 * Several nodes are left to the network engine and the launcher (a peer
 * node may still send).
 */
#include <stdio.h>
#include <stdlib.h>
#include "core.h"
#include "smap.h"

#define WAIT_CHECK_MASK	0xffu		/* spins between looks at the clock */
#define WAIT_STUCK_S	2		/* seconds in one wait */
#define WAIT_FRESH_DIV	4		/* still spinning: seen within 1/4 s */
#define WAIT_GAP_DIV	2		/* no look for 1/2 s: a new wait */

struct wait_state {
	_Alignas(64) uint64_t start;	/* TSC when this rank's current wait began */
	uint64_t seen;			/* TSC of its latest look */
	uint32_t exited;
	uint32_t reported;		/* rank 0's: one rank tells */
};

static struct wait_state wait_state;
const char *core_call;
static unsigned wait_spins;		/* spin count at this rank's latest look */

static void wait_exited(void)
{
	__atomic_store_n(&wait_state.exited, 1, __ATOMIC_RELEASE);
}

void core_wait_init(void)
{
	atexit(wait_exited);
}

/* Appends " rank(s) R.. in CALL" for the waiting ranks in `call`, once per
 * call, in rank order of the first rank in each. */
static size_t wait_list(char *buf, size_t len, size_t at, const char *call)
{
	unsigned n = 0, first = 1;

	for (unsigned r = 0; r < core.ji.nranks; r++) {
		const struct wait_state *s = remote_address(r, &wait_state);
		const char *c = *(const char *const *)remote_address(r, &core_call);

		if (!s->exited && c == call)
			n++;
	}
	for (unsigned r = 0; r < core.ji.nranks && at < len - 16; r++) {
		const struct wait_state *s = remote_address(r, &wait_state);
		const char *c = *(const char *const *)remote_address(r, &core_call);

		if (s->exited || c != call)
			continue;
		if (first)
			at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? ", " : "",
					       n > 1 ? "ranks" : "rank");
		first = 0;
		at += (size_t)snprintf(buf + at, len - at, " %u", r);
	}
	if (at < len - 16)
		at += (size_t)snprintf(buf + at, len - at, " in %s", call ? call : "libsmap");
	return at < len ? at : len - 1;
}

static void wait_deadlock(uint64_t hz, uint64_t now)
{
	char waiting[512] = "", gone[256] = "";
	size_t w = 0, g = 0;
	uint32_t *reported = remote_address(0, &wait_state.reported), no = 0;

	/* Every stuck rank sees the deadlock; the first tells and ends the
	 * job, the others go on waiting for the end. */
	if (!__atomic_compare_exchange_n(reported, &no, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		return;

	for (unsigned r = 0; r < core.ji.nranks; r++) {
		const struct wait_state *s = remote_address(r, &wait_state);
		const char *c = *(const char *const *)remote_address(r, &core_call);
		unsigned q;

		if (s->exited) {
			if (g < sizeof(gone) - 12)
				g += (size_t)snprintf(gone + g, sizeof(gone) - g, " %u", r);
			continue;
		}
		/* The first waiting rank in each call lists that call's ranks. */
		for (q = 0; q < r; q++)
			if (!((const struct wait_state *)remote_address(q, &wait_state))->exited &&
			    *(const char *const *)remote_address(q, &core_call) == c)
				break;
		if (q == r)
			w = wait_list(waiting, sizeof(waiting), w, c);
	}
	core_warn("libsmap: rank %u: deadlock: waiting in libsmap for %lu s with nothing left "
		  "to wake them: %s%s%s: ending the job", core.ji.rank,
		  (unsigned long)((now - wait_state.start) / hz), waiting, g ? "; exited:" : "",
		  gone);
	smap_abort(SMAPOS_EXIT_DEADLOCK);
}

void core_wait_check(unsigned spins)
{
	uint64_t now, hz;

	if ((spins & WAIT_CHECK_MASK) || core.ji.nnodes > 1)
		return;
	now = smap_rdtsc();
	hz = smap_tsc_hz();
	/* Waits do not announce themselves (some spin a while before their
	 * first call here): a look with no more spins than the last one, or
	 * long after it, belongs to a new wait. */
	if (spins <= wait_spins || now - wait_state.seen > hz / WAIT_GAP_DIV)
		__atomic_store_n(&wait_state.start, now, __ATOMIC_RELAXED);
	wait_spins = spins;
	__atomic_store_n(&wait_state.seen, now, __ATOMIC_RELAXED);
	if (now - wait_state.start < WAIT_STUCK_S * hz)
		return;
	for (unsigned r = 0; r < core.ji.nranks; r++) {
		const struct wait_state *s = remote_address(r, &wait_state);

		if (__atomic_load_n(&s->exited, __ATOMIC_ACQUIRE))
			continue;
		if (now - __atomic_load_n(&s->seen, __ATOMIC_RELAXED) > hz / WAIT_FRESH_DIV ||
		    now - __atomic_load_n(&s->start, __ATOMIC_RELAXED) < WAIT_STUCK_S * hz)
			return;		/* r is busy elsewhere, or waits only since lately */
	}
	wait_deadlock(hz, now);
}
