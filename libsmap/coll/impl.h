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
#define COLL_INLINE	32
/* Post lines and slots used in turn: a member may run this many calls
 * minus one ahead of the slowest before a claim waits for it. */
#define COLL_DEPTH	4

struct coll_post {
	_Alignas(64) uint64_t step;	/* seq << 32 | phase */
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
	void *block;			/* what destroy frees; NULL for the world */
	struct coll_transport span;	/* span groups (span.c): send != NULL */
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

static inline void coll_copy(void *dst, const void *src, size_t bytes)
{
	if (dst != src)
		memcpy(dst, src, bytes);
}

/* Starts a call: its sequence number. */
static inline uint64_t coll_begin(struct coll_group *g)
{
	return ++g->seq;
}

static inline struct coll_post *coll_mine(struct coll_group *g, uint64_t s)
{
	return &g->me->post[s % COLL_DEPTH];
}

static inline void coll_publish(struct coll_group *g, uint64_t s, unsigned phase)
{
	__atomic_store_n(&coll_mine(g, s)->step, coll_step(s, phase), __ATOMIC_RELEASE);
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

/* Waits until member q reached phase of call s; its post line for s. */
static inline const struct coll_post *coll_wait(const struct coll_group *g, int q,
						uint64_t s, unsigned phase)
{
	unsigned spins = 0;

	while (!coll_ready(g, q, s, phase))
		coll_spin(&spins);
	return &g->peer[q]->post[s % COLL_DEPTH];
}

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
