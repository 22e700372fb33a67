/*
 * coll.h - libsmap's collective engine: the one set of collectives the MPI
 * and OpenSHMEM faces both run on (docs/collectives.md).
 *
 * A group is an ordered set of this node's ranks.  Every member calls the
 * same collectives on a group in the same order; a collective moves the data
 * once, straight between the members' own buffers through SMARTMAP, and
 * returns when no member will touch the caller's buffers again, so they may
 * be reused at once.  Buffers are contiguous bytes anywhere in the caller's
 * memory (static, heap or stack) and need not sit at the same address on
 * every member.  The engine knows no MPI or SHMEM type: data movement counts
 * bytes, reductions count elements of an opaque type combined by a callback.
 *
 * In place is pointer identity, never a special value: where a call says
 * "may equal", passing that pointer means the caller's contribution is
 * already where the result goes.
 *
 * What the caller checks (root in range, sizes that agree among members,
 * buffers that do not overlap except as allowed) is the faces' job; breaking
 * it gives wrong data or a hang, as with MPI.  The engine itself fails only
 * when memory runs out (a "libsmap coll:" line, then the job fails).
 */
#ifndef SMAP_COLL_H
#define SMAP_COLL_H

#include <stddef.h>
#include <stdint.h>

struct coll_group;

/* ---- groups ---- */

/* Every rank of this node in rank order; set up on first use, never freed. */
struct coll_group *coll_world(void);

int coll_size(const struct coll_group *g);
int coll_rank(const struct coll_group *g);
/* The node rank (what remote_address() takes) of member i. */
int coll_node(const struct coll_group *g, int i);

/*
 * Collective over the new group's members only (concurrent creations over
 * disjoint sets are fine): member i of the new group is member members[i]
 * of parent; every member passes the same list and non-members do not call.
 * Creations that share two ranks must happen in the same order on both.
 * 0 with *out set, -EINVAL for a bad list (out of range, repeated, caller
 * not in it), -ENOMEM when any member ran out of memory (then all fail).
 */
int coll_group_create(struct coll_group *parent, int n, const int *members,
		      struct coll_group **out);
/*
 * Collective over parent, MPI_Comm_split's rule: the members with the same
 * color >= 0 form a group ordered by (key, rank in parent); a negative color
 * gets *out = NULL.  Return values as coll_group_create.
 */
int coll_group_split(struct coll_group *parent, int color, int key,
		     struct coll_group **out);
/* Every member of g calls it once, whenever it likes (MPI_Comm_free may
 * come before a barrier on one rank and after it on another): it returns
 * at once, and the group's memory goes once every member has called it
 * (a later destroy or create frees it).  The world group is never
 * destroyed (ignored). */
void coll_group_destroy(struct coll_group *g);

/*
 * A group whose members may sit on several nodes (span.c): the same
 * collectives, run as messages between members over a face's transport
 * (MPI's point-to-point on the communicator's library context), which
 * reaches every member on this node or another.  send may complete before
 * the receive is posted or wait for it; sendrecv never deadlocks against a
 * peer doing the mirror call.  Each pair's messages arrive in send order.
 */
struct coll_transport {
	void (*send)(void *ctx, int to, const void *buf, size_t len);
	void (*recv)(void *ctx, int from, void *buf, size_t len);
	void (*sendrecv)(void *ctx, int to, const void *sbuf, size_t slen, int from, void *rbuf,
			 size_t rlen);
	void *ctx;
	/* The node of each member, or NULL: then every collective is flat
	 * over the members; with it, the barrier gathers each node to its
	 * first member, runs among those leaders only and releases each node,
	 * so only leaders' messages cross the network. */
	const int *host;
	/* Optional: n sends (sbuf[i] to peer[i]) and n receives (from peer[i]
	 * into rbuf[i]) all in flight at once, so that an alltoall waits for
	 * one network round trip rather than one per member. */
	void (*exchange)(void *ctx, int n, const int *peer, const void *const *sbuf,
			 const size_t *slen, void *const *rbuf, const size_t *rlen);
	/* Optional: a send to `to` and a receive from `from` (either < 0:
	 * none) started, and their completion, so a member can work while
	 * they are in flight; post returns NULL when both are done already. */
	void *(*post)(void *ctx, int to, const void *sbuf, size_t slen, int from, void *rbuf,
		      size_t rlen);
	void (*complete)(void *ctx, void *h);
};

/* Not collective: just this member's view; NULL when memory is short. */
struct coll_group *coll_span_create(int size, int rank, const struct coll_transport *t);

/* ---- members agreeing on a call (check.c) ---- */

/*
 * A face may describe its next call on g before making it: every member
 * publishes the description's hash at the call's arrival, in its own
 * memory, and each compares its own with those of the members it reads
 * anyway in the call (and a rooted call adds one look where needed -
 * check.c - so no root two members disagree on goes unseen).  hash
 * covers everything the members must agree on (0: nothing to check).
 * coll_expect returns non-zero when the face must then hand over its own
 * account of the call (coll_describe, COLL_DESC_MAX bytes): not when the
 * group's call 4 back had the same hash, so a loop of up to 4 calls costs
 * no more than their hashes.  A peer's description comes back with the
 * caller's when two hashes differ (coll_check_fail: it returns only to say
 * that a closer look finds the two agree after all, and then the call goes
 * on).
 * Calls left before the engine starts them (one member, nothing to move)
 * publish nothing: their hash goes with the group's next call instead,
 * alike on every member of a program that agrees.
 */
#define COLL_DESC_MAX	40

/* A description with its hash (0 while being written). */
struct coll_desc {
	uint64_t hash;
	unsigned char desc[COLL_DESC_MAX];
};

int coll_expect(struct coll_group *g, uint32_t hash, uint32_t mark, void *ctx);
void coll_describe(struct coll_group *g, const void *desc);
/* ctx as given to coll_expect, then this member's and member `peer`'s. */
extern int (*coll_check_fail)(void *ctx, int me, int peer, const void *mine,
			      const void *theirs);
/*
 * A face that returns such a disagreement as an error from the call on g
 * (rather than ending the job) calls this first: members that agree with
 * this one may be waiting for it in that call, and would wait forever;
 * they find the disagreement it found instead, and fail the call too.
 */
void coll_spread(struct coll_group *g);

/*
 * Groups spanning nodes have no post lines: their transport compares.  A
 * call's mark (coll_expect: a hash like `hash` of what members must share
 * exactly, so untyped data and data of its bytes share it; 0: not
 * described) marks its messages, and a member waiting for a message that
 * finds the peer's next one marked otherwise has found a disagreement.
 * The peer's description is then in its coll_span_descs (the latest few
 * described calls, hash in the low half, mark in the high), at the same
 * address in every rank of the one binary, which the face reads through
 * SMARTMAP or the network; coll_span_mismatch ends the call with both
 * descriptions (theirs NULL: the peer went on to other calls), and
 * returns only if a closer look finds that they agree after all: then the
 * face takes the peer's message as it is marked.
 */
#define COLL_SPAN_DESCS	4
extern struct coll_desc coll_span_descs[COLL_SPAN_DESCS];
uint32_t coll_span_mark(const struct coll_group *g);
void coll_span_mismatch(struct coll_group *g, int q, const void *theirs);

/*
 * Run on every turn of a wait for another member (NULL: nothing): a face
 * puts its own pending work there - MPI its nonblocking collectives, which
 * a member may be waiting on before it joins this collective.  It must not
 * call into the engine.
 */
extern void (*coll_idle)(void);

/* ---- reduction operators ---- */

/*
 * inout[i] = in[i] op inout[i] for i < count: `in` is the left operand, as
 * in MPI_User_function, so a face passes user functions unchanged.  Every
 * reduction yields x0 op x1 op ... op x(n-1) in member order and evaluates
 * it the same way on every member and in every run (floating-point results
 * are reproducible and identical across members); `commute` only lets the
 * engine choose a cheaper evaluation order where that keeps true.
 */
typedef void coll_op_fn(void *inout, const void *in, size_t count, void *ctx);
/*
 * out[i] = in[i] op b[i], the same operation in one pass: a fold's first
 * step reads its two inputs and writes the result once instead of copying
 * one input and combining in place (1.4x faster on a 512 KiB fold:
 * docs/performance/allreduce-fused-2026-11-29.txt).  out may be in or b,
 * but overlap neither partly.
 */
typedef void coll_op_fn3(void *out, const void *in, const void *b, size_t count, void *ctx);

struct coll_op {
	coll_op_fn *fn;
	void *ctx;		/* handed to fn (and fn3) unchanged */
	size_t size;		/* bytes per element, > 0 */
	int commute;		/* op is commutative */
	coll_op_fn3 *fn3;	/* optional */
};

/* ---- collectives (every member calls; "root" is a member index) ---- */

/*
 * Contributions of up to this many bytes travel by value through a staging
 * slot in the sender's memory, so their senders (a bcast root, a reduce or
 * gather non-root) return without waiting for the readers.
 */
#define COLL_EAGER_MAX		2048

void coll_barrier(struct coll_group *g);

/* buf: the root's data, every other member's result. */
void coll_bcast(struct coll_group *g, void *buf, size_t bytes, int root);

/*
 * rbuf (root only) receives member i's `bytes` at rbuf + i * bytes, or for
 * the v form its sbytes at rbuf + rdispls[i] (rcounts[i] == that member's
 * sbytes; rcounts and rdispls are read at the root only).  The root's sbuf
 * may equal its own block of rbuf.
 */
void coll_gather(struct coll_group *g, const void *sbuf, void *rbuf,
		 size_t bytes, int root);
void coll_gatherv(struct coll_group *g, const void *sbuf, size_t sbytes,
		  void *rbuf, const size_t *rcounts, const size_t *rdispls,
		  int root);

/*
 * Member i receives into rbuf the `bytes` at root's sbuf + i * bytes, or
 * for the v form the rbytes at sbuf + sdispls[i] (scounts[i] == rbytes of
 * member i; sbuf, scounts and sdispls are read at the root only).  The
 * root's rbuf may equal its own block of sbuf.
 */
void coll_scatter(struct coll_group *g, const void *sbuf, void *rbuf,
		  size_t bytes, int root);
void coll_scatterv(struct coll_group *g, const void *sbuf,
		   const size_t *scounts, const size_t *sdispls, void *rbuf,
		   size_t rbytes, int root);

/*
 * Every member's rbuf receives member i's block at rbuf + i * bytes (v form:
 * rcounts[i] bytes at rbuf + rdispls[i], the same arrays on every member;
 * member i sends rcounts[i] bytes from sbuf).  sbuf may equal the caller's
 * own block of rbuf.
 */
void coll_allgather(struct coll_group *g, const void *sbuf, void *rbuf,
		    size_t bytes);
void coll_allgatherv(struct coll_group *g, const void *sbuf, void *rbuf,
		     const size_t *rcounts, const size_t *rdispls);

/*
 * Block j of the caller's sbuf goes to member j, which stores it as block i
 * (the caller's index) of its rbuf.  Uniform form: blocks of `bytes` at
 * j * bytes.  v form, byte displacements (also what alltoallw needs for
 * contiguous types): the caller sends scounts[j] bytes from sbuf +
 * sdispls[j] to member j and receives rcounts[j] bytes from member j at
 * rbuf + rdispls[j]; scounts[j] on the sender equals rcounts[i] on j.
 * In place: sbuf may equal rbuf (the uniform form's blocks, or the v form's
 * rcounts/rdispls, then describe both what is sent and what is received).
 */
void coll_alltoall(struct coll_group *g, const void *sbuf, void *rbuf,
		   size_t bytes);
void coll_alltoallv(struct coll_group *g, const void *sbuf,
		    const size_t *scounts, const size_t *sdispls, void *rbuf,
		    const size_t *rcounts, const size_t *rdispls);

/*
 * count elements; the root's rbuf gets the reduction (rbuf is not touched
 * elsewhere).  The root's sbuf may equal its rbuf.  SMAP_REDUCE=serial |
 * parallel | auto (default) picks the algorithm; see docs/collectives.md.
 */
void coll_reduce(struct coll_group *g, const void *sbuf, void *rbuf,
		 size_t count, const struct coll_op *op, int root);
/* Every member's rbuf gets the reduction; sbuf may equal rbuf. */
void coll_allreduce(struct coll_group *g, const void *sbuf, void *rbuf,
		    size_t count, const struct coll_op *op);
/*
 * The reduction of sbuf (sum of counts[] elements, the same counts on every
 * member) is scattered: member i gets counts[i] elements, from element
 * counts[0] + ... + counts[i-1], at its rbuf.  The block form has count
 * elements per member.  sbuf may equal rbuf: the input is then the whole
 * vector in rbuf and the result lands at its start.
 */
void coll_reduce_scatter(struct coll_group *g, const void *sbuf, void *rbuf,
			 const size_t *counts, const struct coll_op *op);
void coll_reduce_scatter_block(struct coll_group *g, const void *sbuf,
			       void *rbuf, size_t count,
			       const struct coll_op *op);
/*
 * Prefix reductions: member i's rbuf gets x0 op ... op xi (scan) or
 * x0 op ... op x(i-1) (exscan; member 0's rbuf is not touched).  sbuf may
 * equal rbuf.
 */
void coll_scan(struct coll_group *g, const void *sbuf, void *rbuf,
	       size_t count, const struct coll_op *op);
void coll_exscan(struct coll_group *g, const void *sbuf, void *rbuf,
		 size_t count, const struct coll_op *op);

#endif
