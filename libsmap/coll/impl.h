/*
 * impl.h - what the collective engine's files share: the per-member state
 * peers read through SMARTMAP, the local view of a group, and the step
 * protocol every algorithm is written in (docs/collectives.md).
 *
 * Invariants:
 * - A member's post lines are written by that member only; a step word
 *   only grows (compared by signed difference, so it may wrap).
 * - A call writes anything but the step of its post line (addresses, data,
 *   its slot) only after coll_claim: every member has started the call
 *   COLL_DEPTH - 1 back, so nobody still reads what the call COLL_DEPTH
 *   back left there.
 * - A call leaves only when nobody will touch the caller's buffers again.
 */
#ifndef SMAP_COLL_IMPL_H
#define SMAP_COLL_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "coll.h"
#include "smap.h"
#include "../core/core.h"

/* Phases of a call (the low half of a step). */
#define COLL_POSTED	0u		/* the post line's fields are valid */
#define COLL_CHUNK	1u		/* + c: the first c chunks are ready */
#define COLL_DONE	(1u << 30)	/* finished with every peer's buffers */
#define COLL_ROUND	(1u << 31)	/* + k: barrier round k reached */

/* By-value contributions up to this size travel in the post line itself. */
#define COLL_INLINE	24
/* Post lines and slots used in turn: a member may run this many calls
 * minus one ahead of the slowest before a claim waits for it. */
#define COLL_DEPTH	4

struct coll_post {
	_Alignas(64) uint64_t step;	/* seq << 32 | phase */
	/* The call's check word (check.c): its description's hash << 32 |
	 * the low 32 bits of its seq; written with the call's first step in
	 * one 16-byte store, so a reader polling the line cannot take it
	 * away between the two (which cost a second miss: 30 ns a barrier). */
	uint64_t check;
	const void *buf;		/* owner-local addresses */
	const void *aux;
	const size_t *vec;
	unsigned char data[COLL_INLINE];
};

_Static_assert(sizeof(struct coll_post) == 64, "a post line is one cache line");

/* Shared state of one member, in its own memory. */
struct coll_member {
	struct coll_post post[COLL_DEPTH];	/* call s uses s % COLL_DEPTH */
	_Alignas(64) uint64_t arrive;		/* counter barrier, member 0's */
	_Alignas(64) uint64_t release;		/* counter barrier, member 0's */
	_Alignas(64) uint64_t gone;		/* destroy: members in, member 0's */
	const struct coll_member *const *table;	/* member 0's: every state */
	_Alignas(64) uint64_t bye;		/* destroy: set by member 0 */
	_Alignas(64) unsigned char slot[COLL_DEPTH][COLL_EAGER_MAX];
	/* The face's description of call s in desc[s % COLL_DEPTH], read by
	 * a peer only when check words differ (check.c). */
	struct coll_desc desc[COLL_DEPTH];
	/* coll_spread: the failed call's two disagreeing descriptions (hash:
	 * the whole check word), this member's and the other's, and the
	 * other's member. */
	struct coll_desc spread[2];
	int spread_member;
};

/* A member's local view of its group. */
struct coll_group {
	int size, rank;
	int rounds;			/* ceil(log2(size)) */
	uint64_t seq;			/* calls made on the group */
	uint64_t synced;		/* every member is known to have started this call */
	uint64_t barriers;		/* counter barriers made */
	struct coll_member *me;
	struct coll_member **peer;	/* peer[i]: member i's state, as seen here */
	const void **src;		/* per-call scratch: a buffer of each member */
	const void **res;
	size_t *cursor;
	int *node;			/* node rank of each member */
	int *lead;			/* span groups: each member's node's first member */
	void *block;			/* what destroy frees; NULL for the world */
	struct coll_transport span;	/* span groups (span.c): send != NULL */
	uint64_t word;			/* the latest described call's check word (check.c) */
	uint32_t span_hash, span_mark;	/* span groups: the latest described call's */
	int word_pending;		/* not in its post line yet: goes with the first step */
	void *expect_ctx;
	/* The other word of the disagreement coll_mismatch found last, for
	 * coll_spread (0: none); its description is in me->spread[1]. */
	uint64_t found;
	struct coll_group *dying_next;	/* destroyed, its block not freed yet (group.c) */
};

/* span.c: the collectives of a group that spans nodes. */
static inline int coll_is_span(const struct coll_group *g)
{
	return g->span.send != NULL;
}
void span_barrier(struct coll_group *g);
void span_bcast(struct coll_group *g, void *buf, size_t bytes, int root);
void span_gatherv(struct coll_group *g, const void *sbuf, size_t sbytes, void *rbuf,
		  const size_t *rcounts, const size_t *rdispls, size_t uniform, int root);
void span_scatterv(struct coll_group *g, const void *sbuf, const size_t *scounts,
		   const size_t *sdispls, size_t uniform, void *rbuf, size_t rbytes, int root);
void span_allgatherv(struct coll_group *g, const void *sbuf, void *rbuf, const size_t *rcounts,
		     const size_t *rdispls, size_t uniform);
void span_alltoallv(struct coll_group *g, const void *sbuf, const size_t *scounts,
		    const size_t *sdispls, void *rbuf, const size_t *rcounts,
		    const size_t *rdispls, size_t uniform);
void span_reduce(struct coll_group *g, const void *sbuf, void *rbuf, size_t count,
		 const struct coll_op *op, int root);
void span_allreduce(struct coll_group *g, const void *sbuf, void *rbuf, size_t count,
		    const struct coll_op *op);
void span_reduce_scatter(struct coll_group *g, const void *sbuf, void *rbuf,
			 const size_t *counts, size_t block, const struct coll_op *op);
void span_scan(struct coll_group *g, const void *sbuf, void *rbuf, size_t count,
	       const struct coll_op *op, int ex);

static inline uint64_t coll_step(uint64_t seq, unsigned phase)
{
	return seq << 32 | phase;
}

static inline int coll_reached(uint64_t have, uint64_t want)
{
	return (int64_t)(have - want) >= 0;
}

/* remote_address() for the owner-local addresses peers publish (const). */
static inline void *coll_remote(int node, const void *p)
{
	return remote_address(node, (void *)p);
}

/* Member q's address for p, an address in q's own memory. */
static inline void *coll_at(const struct coll_group *g, int q, const void *p)
{
	return q == g->rank ? (void *)p : coll_remote(g->node[q], p);
}

/* Data moves, small ones without memcpy's start-up (core_copy); none
 * when dst is src. */
static inline void coll_copy(void *dst, const void *src, size_t bytes)
{
	if (dst != src)
		core_copy(dst, src, bytes);
}

/* out = in op b (coll_op_fn3); out must not overlap in unless op has fn3. */
static inline void coll_apply3(const struct coll_op *op, void *out, const void *in,
			       const void *b, size_t count)
{
	if (op->fn3) {
		op->fn3(out, in, b, count, op->ctx);
		return;
	}
	coll_copy(out, b, count * op->size);
	op->fn(out, in, count, op->ctx);
}

/* Member q's check word for call s, theirs, differs from ours: ends the
 * call through the face (coll_check_fail), unless the face finds the two
 * descriptions agree after all. */
void coll_mismatch(struct coll_group *g, int q, uint64_t theirs);

/* Starts a call: its sequence number (a description coll_expect gave is
 * for this one: it numbered it g->seq + 1). */
static inline uint64_t coll_begin(struct coll_group *g)
{
	return ++g->seq;
}

/* Member q has a check word for call s (the low half is s's) and it is
 * not ours, while we have one for s: they disagree.  A word of another
 * call on either side is no verdict.  Ours is read from the group, not
 * from our post line, which the peers are polling. */
static inline void coll_compare(struct coll_group *g, int q, uint64_t s)
{
	uint64_t mine = g->word;
	uint64_t theirs = __atomic_load_n(&g->peer[q]->post[s % COLL_DEPTH].check,
					  __ATOMIC_ACQUIRE);

	if (__builtin_expect(theirs != mine, 0) && (uint32_t)mine == (uint32_t)s &&
	    (uint32_t)theirs == (uint32_t)s && (mine >> 32) && (theirs >> 32))
		coll_mismatch(g, q, theirs);
}

static inline struct coll_post *coll_mine(struct coll_group *g, uint64_t s)
{
	return &g->me->post[s % COLL_DEPTH];
}

/* Puts the current call's check word in its post line (the word's low
 * half is the call's seq, whose low bits pick the line). */
static inline void coll_show(struct coll_group *g)
{
	if (g->word_pending) {
		__atomic_store_n(&g->me->post[(uint32_t)g->word % COLL_DEPTH].check, g->word,
				 __ATOMIC_RELEASE);
		g->word_pending = 0;
	}
}

typedef uint64_t coll_pair __attribute__((vector_size(16)));

static inline void coll_publish(struct coll_group *g, uint64_t s, unsigned phase)
{
	struct coll_post *p = coll_mine(g, s);

	if (g->word_pending) {
		coll_pair v = { coll_step(s, phase), g->word };

		/* TSO: the earlier stores are seen first; only the compiler
		 * must not move them past this one. */
		__atomic_signal_fence(__ATOMIC_RELEASE);
		*(volatile coll_pair *)&p->step = v;
		g->word_pending = 0;
		return;
	}
	__atomic_store_n(&p->step, coll_step(s, phase), __ATOMIC_RELEASE);
}

static inline int coll_ready(const struct coll_group *g, int q, uint64_t s, unsigned phase)
{
	const struct coll_post *p = &g->peer[q]->post[s % COLL_DEPTH];

	return coll_reached(__atomic_load_n(&p->step, __ATOMIC_ACQUIRE), coll_step(s, phase));
}

/* One turn of a wait for another member. */
static inline void coll_spin(unsigned *spins)
{
	if (coll_idle)
		coll_idle();
	core_spin(spins);
}

/* Waits until member q reached phase of call s; its post line for s.
 * Compares check words while waiting (a member in another call may never
 * reach the phase) and once there, before the caller reads anything.  A
 * member that waits before its call's first step shows its check word, so
 * that such a member waiting for it sees the disagreement too. */
static inline const struct coll_post *coll_wait(struct coll_group *g, int q,
						uint64_t s, unsigned phase)
{
	unsigned spins = 0;

	while (!coll_ready(g, q, s, phase)) {
		coll_compare(g, q, s);
		coll_show(g);
		coll_spin(&spins);
	}
	coll_compare(g, q, s);
	return &g->peer[q]->post[s % COLL_DEPTH];
}

/* coll_wait for a member that posts by value and leaves without waiting
 * for this one (a small bcast's or scatter's root, a small gather's or
 * reduce's non-root): in a run of such calls it is ahead, with its next
 * call's line written already.  Fetching that line now overlaps its miss
 * with the rest of this call; missed at the next call's start, it costs a
 * 2-rank 8-byte gather 43 -> 64 ns, as soon as a few ns more per call (the
 * argument check's) move the next call's load out of reach of the CPU's
 * out-of-order window (docs/collectives.md). */
static inline const struct coll_post *coll_wait_ahead(struct coll_group *g, int q, uint64_t s,
						      unsigned phase)
{
	const struct coll_post *p = coll_wait(g, q, s, phase);

	__builtin_prefetch(&g->peer[q]->post[(s + 1) % COLL_DEPTH]);
	return p;
}

/* check.c: before it leaves a bcast or scatter, a member other than 0
 * compares with member 0 (which needs to have started call s, nothing
 * more); in a gather or reduce, member 0 compares with the root it
 * believes in, if that is another member. */
void coll_anchor(struct coll_group *g, uint64_t s);
void coll_anchor_root(struct coll_group *g, uint64_t s, int root);

/* sync.c */
struct coll_post *coll_claim(struct coll_group *g, uint64_t s);
void coll_post_value(struct coll_group *g, uint64_t s, const void *p, size_t bytes);
void coll_wait_all(struct coll_group *g, uint64_t s, unsigned phase);
void *coll_scratch(int which, size_t bytes);
void *coll_alloc(size_t bytes, const char *what);
/* Index of the environment variable's value in names (names[0] when unset
 * or unknown, with a warning for an unknown one). */
int coll_env_choice(const char *var, const char *const *names, int n);

enum { COLL_SCRATCH_ACC, COLL_SCRATCH_RING, COLL_SCRATCHES };

#endif
