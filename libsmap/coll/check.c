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
 * and no extra synchronisation.  The rooted calls add one look so that
 * no disagreement on the root goes unseen, whoever each member believes
 * the root to be.  Bcast and scatter (coll_anchor): members other than 0
 * that read nobody - a root other than 0 - look at member 0's word; the
 * others read their parent, and the chain of parents ends at the root.
 * Gather and reduce (coll_anchor_root): the root a member believes in
 * reads every member, directly or through a chain of members that each
 * read the next, so if member 0 is that root, the first member along the
 * chain that disagrees is read by one that agrees; otherwise member 0
 * looks at the root it believes in, which either disagrees with it or is
 * the root whose chain covers everybody.  So the common rooted call, to
 * member 0, makes nobody wait for more than its data (a non-root of a
 * small gather or reduce leaves as soon as its value is posted).
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

/* A check word's hash is odd (the face's, | 1): an even one marks a call
 * a member left on a disagreement it found (coll_spread). */
#define COLL_SPREAD_HASH	2u

/* Copies a description written by another member, or zeroes when it was
 * rewritten meanwhile (its hash field no longer `hash`). */
static void desc_copy(unsigned char *copy, const struct coll_desc *d, uint64_t hash)
{
	uint64_t before = __atomic_load_n(&d->hash, __ATOMIC_ACQUIRE);

	memcpy(copy, d->desc, COLL_DESC_MAX);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (before != hash || __atomic_load_n(&d->hash, __ATOMIC_RELAXED) != hash)
		memset(copy, 0, COLL_DESC_MAX);
}

void coll_mismatch(struct coll_group *g, int q, uint64_t theirs)
{
	struct coll_member *me = g->me;
	/* Theirs goes where coll_spread shows it, should the call fail. */
	unsigned char *copy = me->spread[1].desc;
	int who = q;

	/* Members waiting for this one in the call they believe in see the
	 * disagreement too, rather than a member that left. */
	coll_show(g);
	__atomic_store_n(&me->spread[1].hash, 0, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_RELEASE);
	if ((uint32_t)(theirs >> 32) == COLL_SPREAD_HASH) {
		/* q left the call on a disagreement: of the two descriptions
		 * it found, the one that is not ours. */
		const struct coll_member *m = g->peer[q];
		int i = __atomic_load_n(&m->spread[0].hash, __ATOMIC_ACQUIRE) == g->word;

		theirs = __atomic_load_n(&m->spread[i].hash, __ATOMIC_ACQUIRE);
		desc_copy(copy, &m->spread[i], theirs);
		if (i)
			who = __atomic_load_n(&m->spread_member, __ATOMIC_RELAXED);
	} else {
		/* Its check word was there, so was its description; a peer
		 * that went COLL_DEPTH calls on since may have put another in
		 * the slot. */
		desc_copy(copy, desc_slot(g->peer[q], theirs), theirs >> 32);
	}
	g->found = theirs;
	me->spread_member = who;
	if (coll_check_fail &&
	    !coll_check_fail(g->expect_ctx, g->rank, who, desc_slot(me, g->word)->desc, copy))
		return;
	core_fatal("libsmap coll: members %d and %d of a group disagree on collective call %llu",
		   g->rank, who, (unsigned long long)(uint32_t)g->word);
}

/* Members still waiting for this one in the failed call compare its word
 * each turn: they find the spread mark instead, and with it the
 * description that disagrees with theirs (coll_mismatch left it in
 * spread[1]). */
void coll_spread(struct coll_group *g)
{
	struct coll_member *m = g->me;
	uint64_t w = g->found;

	if (coll_is_span(g) || !w)
		return;
	g->found = 0;
	__atomic_store_n(&m->spread[0].hash, 0, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_RELEASE);
	memcpy(m->spread[0].desc, desc_slot(m, g->word)->desc, COLL_DESC_MAX);
	__atomic_store_n(&m->spread[0].hash, g->word, __ATOMIC_RELEASE);
	__atomic_store_n(&m->spread[1].hash, w, __ATOMIC_RELEASE);
	__atomic_store_n(&m->post[(uint32_t)g->word % COLL_DEPTH].check,
			 (uint64_t)COLL_SPREAD_HASH << 32 | (uint32_t)g->word, __ATOMIC_RELEASE);
	g->word_pending = 0;
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

/* Compares with member q's word for call s once q has started it; no
 * verdict when q is past s already. */
static void anchor_at(struct coll_group *g, uint64_t s, int q)
{
	const struct coll_post *p = &g->peer[q]->post[s % COLL_DEPTH];
	uint64_t mine = g->word, torn_until = 0;
	unsigned spins = 0;

	if ((uint32_t)mine != (uint32_t)s || !(mine >> 32))
		return;
	for (;;) {
		/* The step first: a word written before member q published
		 * anything of call s is visible once the step says s. */
		int started = coll_ready(g, q, s, COLL_POSTED);
		uint64_t w = __atomic_load_n(&p->check, __ATOMIC_ACQUIRE);
		int32_t ahead = (int32_t)((uint32_t)w - (uint32_t)s);

		if (ahead == 0 && (w >> 32)) {
			if (w != mine)
				coll_mismatch(g, q, w);
			return;
		}
		if (ahead > 0)
			return;
		/* Started with an older word: coll_publish's 16-byte store of
		 * step and word, which hardware with AVX makes atomic but QEMU's
		 * TCG splits in two, is halfway; the word follows (a missed
		 * disagreement of roots in fail_kernel_bad_errors_return).  A
		 * member that never shows one is no verdict after 100 ms. */
		if (started && !torn_until)
			torn_until = smap_rdtsc() + smap_tsc_hz() / 10;
		if (started && smap_rdtsc() >= torn_until)
			return;
		coll_show(g);
		coll_spin(&spins);
	}
}

void coll_anchor(struct coll_group *g, uint64_t s)
{
	if (g->rank != 0)
		anchor_at(g, s, 0);
}

void coll_anchor_root(struct coll_group *g, uint64_t s, int root)
{
	if (g->rank == 0 && root != 0)
		anchor_at(g, s, root);
}
