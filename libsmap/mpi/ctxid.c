/*
 * ctxid.c - context ids: which are free here, and how the members of a new
 * communicator agree on one without ever waiting on each other's other
 * agreements (MPI_Comm_idup may leave any number of them pending, on
 * overlapping groups, started in different orders on different members).
 *
 * An agreement is a schedule (nbc.h) of attempts.  An attempt:
 *   1. every member offers the ids free here and not held (below);
 *   2. the offers are ANDed across the members; everyone picks the same id
 *      from the result (the lowest in a first attempt; in later ones, one
 *      chosen by a hash of the result, the attempt and the agreement's
 *      schedule - its communicator's context and its tag, the same on every
 *      member and different for agreements in flight together - so that
 *      agreements that collided part ways);
 *   3. each member holds the id if it is still free and nobody holds it
 *      here, and the members AND their answers;
 *   4. all held it: it is taken everywhere.  Otherwise the holds go and
 *      another attempt starts.
 * An id is held here for one agreement at a time, and only between steps 3
 * and 4, so two agreements sharing a member never both take it; and no
 * member holds anything while it waits for a member that has not joined
 * the agreement yet (step 1 completes only once everyone has), so an
 * agreement never waits on another - MPI_Comm_dup in one order on one
 * member and MPI_Comm_idup in another order on the next cannot deadlock.
 */
#include <stdlib.h>
#include <string.h>
#include "nbc.h"

#define CTX_WORDS	(SMPI_MAX_CTX / 64)
/* Attempts before an agreement reports that no id is free everywhere. */
#define CTX_TRIES	64

static uint64_t ctx_free[CTX_WORDS];
static uint64_t ctx_held[CTX_WORDS];

static int ctx_is(const uint64_t *m, int ctx)
{
	return (m[ctx / 64] >> (ctx % 64)) & 1;
}

void smpi_ctx_init(void)
{
	memset(ctx_free, 0xff, sizeof ctx_free);
	memset(ctx_held, 0, sizeof ctx_held);
}

void smpi_ctx_take(int ctx)
{
	ctx_free[ctx / 64] &= ~(1ULL << (ctx % 64));
}

void smpi_ctx_release(int ctx)
{
	ctx_free[ctx / 64] |= 1ULL << (ctx % 64);
}

struct ctx_agreement {
	uint64_t offer[CTX_WORDS];	/* this member's, then everyone's AND */
	uint64_t ok;			/* step 3's answer, then everyone's AND */
	uint64_t *in;			/* the leader's: the members' votes */
	int n, me, *rank;		/* the members (ranks of the schedule's comm) */
	MPI_Comm xcomm;			/* leader: the other group's leader's route */
	int xpeer, xctx, xtag;
	int attempt, ctx, held;
	uint64_t seed;			/* the agreement's name, for step 2 */
	void (*done)(struct smpi_nbc *s, int ctx, void *arg);
	void *arg;
};

/* words at buf become the AND of every member's (and the other group's). */
static void ctx_vote(struct smpi_nbc *s, struct ctx_agreement *a, uint64_t *buf, int words)
{
	int i;

	if (a->me) {
		nbc_send(s, buf, words, MPI_UINT64_T, a->rank[0], 0);
		nbc_recv(s, a->in, words, MPI_UINT64_T, a->rank[0], 0);
		nbc_copy(s, buf, words, MPI_UINT64_T, a->in, words, MPI_UINT64_T);
		nbc_round(s);
		return;
	}
	for (i = 1; i < a->n; i++)
		nbc_recv(s, a->in + (i - 1) * words, words, MPI_UINT64_T, a->rank[i], 0);
	for (i = 1; i < a->n; i++)
		nbc_reduce(s, a->in + (i - 1) * words, buf, words, MPI_UINT64_T, MPI_BAND);
	nbc_round(s);
	if (a->xcomm) {
		uint64_t *x = a->in + (a->n - 1) * words;

		nbc_send_on(s, buf, words, MPI_UINT64_T, a->xpeer, a->xcomm, a->xctx, a->xtag);
		nbc_recv_on(s, x, words, MPI_UINT64_T, a->xpeer, a->xcomm, a->xctx, a->xtag);
		nbc_reduce(s, x, buf, words, MPI_UINT64_T, MPI_BAND);
		nbc_round(s);
	}
	for (i = 1; i < a->n; i++)
		nbc_send(s, buf, words, MPI_UINT64_T, a->rank[i], 0);
	nbc_round(s);
}

static void ctx_offer(struct smpi_nbc *s, void *arg)
{
	struct ctx_agreement *a = arg;

	(void)s;
	for (int w = 0; w < CTX_WORDS; w++)
		a->offer[w] = ctx_free[w] & ~ctx_held[w];
}

/* Step 2's pick from the AND m, the same on every member. */
static int ctx_pick(const uint64_t *m, int attempt, uint64_t seed)
{
	uint64_t h = (0xcbf29ce484222325ull ^ seed) * 0x100000001b3ull ^ (uint64_t)attempt;
	int n = 0, w;

	for (w = 0; w < CTX_WORDS; w++) {
		n += __builtin_popcountll(m[w]);
		h = (h ^ m[w]) * 0x100000001b3ull;
	}
	if (!n)
		return -1;
	h *= 0x9e3779b97f4a7c15ull;
	n = attempt ? (int)((h ^ h >> 29) % (uint64_t)n) : 0;
	for (w = 0; w < CTX_WORDS; w++) {
		int k = __builtin_popcountll(m[w]);
		uint64_t bits = m[w];

		if (n >= k) {
			n -= k;
			continue;
		}
		while (n--)
			bits &= bits - 1;
		return w * 64 + __builtin_ctzll(bits);
	}
	return -1;
}

static void ctx_hold(struct smpi_nbc *s, void *arg)
{
	struct ctx_agreement *a = arg;

	(void)s;
	a->ctx = ctx_pick(a->offer, a->attempt, a->seed);
	a->held = a->ctx >= 0 && ctx_is(ctx_free, a->ctx) && !ctx_is(ctx_held, a->ctx);
	if (a->held)
		ctx_held[a->ctx / 64] |= 1ULL << (a->ctx % 64);
	a->ok = a->held ? ~0ULL : 0;
}

static void ctx_attempt(struct smpi_nbc *s, struct ctx_agreement *a);

static void ctx_settle(struct smpi_nbc *s, void *arg)
{
	struct ctx_agreement *a = arg;

	if (a->held)
		ctx_held[a->ctx / 64] &= ~(1ULL << (a->ctx % 64));
	if (a->ok) {
		smpi_ctx_take(a->ctx);
		a->done(s, a->ctx, a->arg);
	} else if (++a->attempt < CTX_TRIES) {
		ctx_attempt(s, a);
	} else {
		a->done(s, -1, a->arg);
	}
}

static void ctx_attempt(struct smpi_nbc *s, struct ctx_agreement *a)
{
	nbc_call(s, ctx_offer, a);
	nbc_round(s);
	ctx_vote(s, a, a->offer, CTX_WORDS);
	nbc_call(s, ctx_hold, a);
	nbc_round(s);
	ctx_vote(s, a, &a->ok, 1);
	nbc_call(s, ctx_settle, a);
	nbc_round(s);
}

void smpi_ctx_agree_build(struct smpi_nbc *s, const struct smpi_ctx_voters *v,
			  void (*done)(struct smpi_nbc *s, int ctx, void *arg), void *arg)
{
	MPI_Comm comm = smpi_nbc_comm(s);
	struct ctx_agreement *a = nbc_tmp(s, sizeof *a, MPI_BYTE);
	int n = v->rank ? v->n : comm->size, i;

	memset(a, 0, sizeof *a);
	a->n = n;
	a->rank = nbc_tmp(s, (int64_t)n * (int64_t)sizeof(int), MPI_BYTE);
	a->in = nbc_tmp(s, (int64_t)n * CTX_WORDS * (int64_t)sizeof(uint64_t), MPI_BYTE);
	for (i = 0; i < n; i++) {
		a->rank[i] = v->rank ? v->rank[i] : i;
		if (a->rank[i] == comm->rank)
			a->me = i;
	}
	if (a->me == 0 && v->xcomm) {
		a->xcomm = v->xcomm;
		a->xpeer = v->xpeer;
		a->xctx = v->xctx;
		a->xtag = v->xtag;
	}
	a->seed = (uint64_t)comm->ctx << 32 | (uint32_t)smpi_nbc_tag(s);
	a->done = done;
	a->arg = arg;
	ctx_attempt(s, a);
}

static void ctx_blocking_done(struct smpi_nbc *s, int ctx, void *arg)
{
	(void)s;
	*(int *)arg = ctx;
}

int smpi_ctx_agree(struct smpi_nbc *s, const struct smpi_ctx_voters *v)
{
	int ctx = -1;

	smpi_ctx_agree_build(s, v, ctx_blocking_done, &ctx);
	nbc_run(s);
	return ctx;
}
