/*
 * check.c - members agreeing on a call (coll.h, coll_expect).
 *
 * A face describes its next call; every member writes the description's
 * hash with the call's sequence number into the check word of its post
 * line with the call's first step (coll_publish), or as soon as it has to
 * wait before that step (coll_show), and the description itself, unless
 * the call COLL_DEPTH back had the same, into a slot of its own that peers
 * read only on a mismatch.  Every coll_wait
 * compares the waited-for member's word with the caller's, while waiting
 * and once there: the comparisons ride on the cache lines the algorithms
 * read anyway, so agreeing members pay a load and a compare per peer read,
 * and no extra synchronisation.  The rooted calls add one look at member
 * 0's word (coll_anchor) on members that would not otherwise read it, so
 * that every member is compared with member 0 directly or through a chain
 * of agreeing members, whoever each believes the root to be.
 */
#include <string.h>
#include "impl.h"

int (*coll_check_fail)(void *ctx, int me, int peer, const void *mine, const void *theirs);

/* Call s's description goes in slot s % COLL_DEPTH, which then holds
 * call s - COLL_DEPTH's: in a loop of one to COLL_DEPTH calls over and
 * over, it holds this one's already. */
static struct coll_desc *desc_slot(struct coll_member *m, uint64_t word)
{
	return &m->desc[(uint32_t)word % COLL_DEPTH];
}

struct coll_desc coll_span_descs[COLL_SPAN_DESCS];
static unsigned span_next;		/* the slot the next description takes */

/* This rank's description of hash, if it is among the latest few. */
static const struct coll_desc *span_desc(uint32_t hash)
{
	for (unsigned i = 0; i < COLL_SPAN_DESCS; i++)
		if ((uint32_t)__atomic_load_n(&coll_span_descs[i].hash, __ATOMIC_RELAXED) == hash)
			return &coll_span_descs[i];
	return NULL;
}

/* The call the hash is for is the group's next: g->seq + 1.  A group
 * spanning nodes keeps the hash for its transport (coll_span_hash), and
 * the description in coll_span_descs unless one of them has it. */
int coll_expect(struct coll_group *g, uint32_t hash, uint32_t mark, void *ctx)
{
	uint64_t s = g->seq + 1;

	g->expect_ctx = ctx;
	if (coll_is_span(g)) {
		g->span_hash = hash;
		g->span_mark = mark;
		return hash && !span_desc(hash);
	}
	g->word = hash ? (uint64_t)hash << 32 | (uint32_t)s : 0;
	g->word_pending = hash != 0;
	return hash && __atomic_load_n(&desc_slot(g->me, g->word)->hash, __ATOMIC_RELAXED) != hash;
}

void coll_describe(struct coll_group *g, const void *desc)
{
	int span = coll_is_span(g);
	uint64_t hash = span ? (uint64_t)g->span_mark << 32 | g->span_hash : g->word >> 32;
	struct coll_desc *d = span ? &coll_span_descs[span_next++ % COLL_SPAN_DESCS]
				   : desc_slot(g->me, g->word);

	/* A peer copying the slot meanwhile sees the hash change and
	 * discards its copy (coll_mismatch).  8 bytes at a time, as the face
	 * wrote it: a wider load over its fresh stores would wait for them
	 * (a store-forwarding miss); relaxed atomics keep the compiler from
	 * widening the copy. */
	__atomic_store_n(&d->hash, 0, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_RELEASE);
	for (unsigned i = 0; i < COLL_DESC_MAX / 8; i++)
		__atomic_store_n((uint64_t *)d->desc + i, ((const uint64_t *)desc)[i],
				 __ATOMIC_RELAXED);
	__atomic_store_n(&d->hash, hash, __ATOMIC_RELEASE);
}

void coll_mismatch(struct coll_group *g, int q, uint64_t theirs)
{
	uint32_t hash = theirs >> 32;
	const struct coll_desc *d = desc_slot(g->peer[q], theirs);
	unsigned char copy[COLL_DESC_MAX];
	uint64_t before;

	/* Members waiting for this one in the call they believe in see the
	 * disagreement too, rather than a member that left. */
	coll_show(g);
	before = __atomic_load_n(&d->hash, __ATOMIC_ACQUIRE);
	memcpy(copy, d->desc, COLL_DESC_MAX);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	/* Its check word was there, so was its description; a peer that went
	 * COLL_DEPTH calls on since may have put another in the slot. */
	if (before != hash || __atomic_load_n(&d->hash, __ATOMIC_RELAXED) != hash)
		memset(copy, 0, COLL_DESC_MAX);
	if (coll_check_fail &&
	    !coll_check_fail(g->expect_ctx, g->rank, q, desc_slot(g->me, g->word)->desc, copy))
		return;
	core_fatal("libsmap coll: members %d and %d of a group disagree on collective call %llu",
		   g->rank, q, (unsigned long long)(uint32_t)theirs);
}

uint32_t coll_span_mark(const struct coll_group *g)
{
	return g->span_mark;
}

void coll_span_mismatch(struct coll_group *g, int q, const void *theirs)
{
	static const unsigned char none[COLL_DESC_MAX];
	const struct coll_desc *mine = span_desc(g->span_hash);

	if (mine && coll_check_fail &&
	    !coll_check_fail(g->expect_ctx, g->rank, q, mine->desc, theirs ? theirs : none))
		return;
	core_fatal("libsmap coll: members %d and %d of a group disagree on a collective call",
		   g->rank, q);
}

void coll_anchor(struct coll_group *g, uint64_t s)
{
	const struct coll_post *p = &g->peer[0]->post[s % COLL_DEPTH];
	uint64_t mine = g->word;
	unsigned spins = 0;

	if (g->rank == 0 || (uint32_t)mine != (uint32_t)s || !(mine >> 32))
		return;
	for (;;) {
		/* The step first: a word written before member 0 published
		 * anything of call s is visible once the step says s. */
		int started = coll_ready(g, 0, s, COLL_POSTED);
		uint64_t w = __atomic_load_n(&p->check, __ATOMIC_ACQUIRE);
		int32_t ahead = (int32_t)((uint32_t)w - (uint32_t)s);

		if (ahead == 0 && (w >> 32)) {
			if (w != mine)
				coll_mismatch(g, 0, w);
			return;
		}
		if (ahead > 0 || started)
			return;
		coll_show(g);
		coll_spin(&spins);
	}
}
