/*
 * sync.c - the engine's synchronisation: claiming a post line, posting by
 * value, waiting for every member, the two barriers, and the per-process
 * scratch buffers the algorithms fold and stage chunks in.
 *
 * The scratch buffers are per process, not per group: a rank is in one
 * collective at a time and leaves it only when nobody reads its buffers, so
 * the next call may reuse them.
 */
#include <stdlib.h>
#include <string.h>
#include "impl.h"

void (*coll_idle)(void);

/* Looking costs a cache miss per peer, so a look that finds everybody
 * already in the previous call buys the next COLL_DEPTH - 2 claims free. */
struct coll_post *coll_claim(struct coll_group *g, uint64_t s)
{
	uint64_t need = s - (COLL_DEPTH - 1), known = s - 1;

	if (!coll_reached(g->synced, need)) {
		for (int q = 0; q < g->size; q++) {
			if (q == g->rank || coll_ready(g, q, s - 1, COLL_POSTED))
				continue;
			coll_wait(g, q, need, COLL_POSTED);
			known = need;
		}
		g->synced = known;
	}
	return coll_mine(g, s);
}

void coll_post_value(struct coll_group *g, uint64_t s, const void *p, size_t bytes)
{
	struct coll_post *mine = coll_claim(g, s);
	unsigned char *dst = bytes <= COLL_INLINE ? mine->data : g->me->slot[s % COLL_DEPTH];

	coll_copy(dst, p, bytes);
	/* Usually unchanged: one store less on a line peers are polling. */
	if (mine->buf != dst)
		mine->buf = dst;
	coll_publish(g, s, COLL_POSTED);
}

void coll_wait_all(struct coll_group *g, uint64_t s, unsigned phase)
{
	for (int q = 0; q < g->size; q++)
		if (q != g->rank)
			coll_wait(g, q, s, phase);
	g->synced = s;
}

void *coll_alloc(size_t bytes, const char *what)
{
	void *p = aligned_alloc(64, (bytes + 63) & ~(size_t)63);

	if (!p)
		core_fatal("libsmap coll: no memory for %zu bytes of %s", bytes, what);
	return p;
}

/* Grown in steps this big, so a run of growing calls does not realloc each time. */
#define COLL_SCRATCH_STEP	(64 * 1024)

void *coll_scratch(int which, size_t bytes)
{
	static void *buf[COLL_SCRATCHES];
	static size_t size[COLL_SCRATCHES];

	if (bytes > size[which]) {
		size_t want = (bytes + COLL_SCRATCH_STEP - 1) & ~(size_t)(COLL_SCRATCH_STEP - 1);

		free(buf[which]);
		buf[which] = coll_alloc(want, "collective scratch");
		size[which] = want;
	}
	return buf[which];
}

int coll_env_choice(const char *var, const char *const *names, int n)
{
	const char *v = getenv(var);

	if (!v || !*v)
		return 0;
	for (int i = 0; i < n; i++)
		if (!strcmp(v, names[i]))
			return i;
	core_warn("libsmap coll: %s=%s is not one of the choices; using %s", var, v, names[0]);
	return 0;
}

/* Member i waits for i - 2^k in round k; after the last round it has heard,
 * through the chain of rounds, from every member. */
static void barrier_dissemination(struct coll_group *g, uint64_t s)
{
	for (int k = 0; k < g->rounds; k++) {
		/* 2^k < size: one subtraction wraps, where % took a division. */
		int from = g->rank - (1 << k);

		coll_publish(g, s, COLL_ROUND + k);
		coll_wait(g, from < 0 ? from + g->size : from, s, COLL_ROUND + k);
	}
}

/* Catamount's: arrivals counted with lock xadd in member 0's memory; the
 * last one releases the epoch everybody else spins on.  Counting epochs
 * instead of flipping a sense bit means nothing is ever reset. */
static void barrier_counter(struct coll_group *g, uint64_t s)
{
	struct coll_member *lead = g->peer[0];
	uint64_t epoch = ++g->barriers;
	unsigned spins = 0;

	coll_publish(g, s, COLL_ROUND);
	if (__atomic_add_fetch(&lead->arrive, 1, __ATOMIC_ACQ_REL) == epoch * g->size) {
		__atomic_store_n(&lead->release, epoch, __ATOMIC_RELEASE);
	} else {
		/* Member 0 looks at member 1, the others at member 0: a member
		 * in another call never arrives, but its check word shows. */
		while (!coll_reached(__atomic_load_n(&lead->release, __ATOMIC_ACQUIRE), epoch)) {
			coll_compare(g, g->rank ? 0 : 1, s);
			coll_spin(&spins);
		}
	}
	coll_anchor(g, s);
}

enum { BARRIER_AUTO, BARRIER_DISSEMINATION, BARRIER_COUNTER };

void coll_barrier(struct coll_group *g)
{
	static const char *const names[] = { "auto", "dissemination", "counter" };
	static int algo = -1;
	uint64_t s;

	if (coll_is_span(g)) {
		span_barrier(g);
		return;
	}
	if (g->size == 1)
		return;
	if (algo < 0)
		algo = coll_env_choice("SMAP_BARRIER", names, 3);
	s = coll_begin(g);
	if (algo == BARRIER_COUNTER)
		barrier_counter(g, s);
	else
		barrier_dissemination(g, s);
	g->synced = s;
}
