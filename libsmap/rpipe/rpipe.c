/*
 * rpipe.c - rmalloc()/rpipe() on SMARTMAP, and between nodes over the
 * network engine (docs/rpipe.md).
 *
 * Each end of a pipe owns a struct rp_end in its own memory: the ring of
 * notifications the peer writes to it, the count of notifications it has
 * taken (which the peer reads for flow control) and, if it reads, a heap.
 * The heap (rheap.c) keeps all its state inside itself, so on a node the
 * writer allocates in the reader's memory by running the allocator on the
 * heap's SMARTMAP address: no message, no help from the reader, nothing
 * registered.  Allocations are named by that address in the owner's slot,
 * which both ends can use as it is.
 *
 *   rwrite  copy into the allocation, then the notification slot: ra and
 *           length, the sequence number stored last (release)
 *   rread   wait for slot.seq == taken + 1 (acquire), copy out, publish
 *           taken (release): after that the writer may reuse the block
 *
 * One writer per ring and per counter, all counters only grow, so nobody
 * resets anything and a stale slot always carries an older number.  The
 * heap lock is the only lock: both ends may rmalloc/rfree in one heap.
 *
 * Between nodes the same protocol runs through the peer's memory with
 * gets, puts and atomic stores (rp_net, rp_put, rp_set64: the engine
 * keeps one rank's operations to a node in order, so a notification lands
 * after its data).  The headers a writer walks cannot be loaded across
 * the wire, so the writer allocates in a copy of the reader's heap of its
 * own (the shadow: only the writer allocates in a heap) and copies each
 * header it hands out or takes back into the reader's heap, where the
 * reader's rsize/rmem/rfree read it.  The reader's frees go to a list in
 * its own memory that the writer takes in when its shadow has no hole.
 *
 * rpipe() is a rendezvous of the two ends through a mailbox per pair of
 * ranks on a node, through a table of offers the peer reads between
 * nodes; rclose() is not: each end frees its own memory once both ends
 * have said they closed.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rpipe.h"
#include "smap.h"
#include "rheap.h"
#include "../core/core.h"
#include "../net/net.h"

#define RP_RING		256
/* In the exchanged flags: this end could not get its memory. */
#define RP_NOMEM	0x100
#define RP_POLICY	(RMALLOC_BEST_FIT | RMALLOC_WORST_FIT)
/* Between nodes an allocation is named by its owner's own address with
 * the owner's world rank + 1 above bit 48 (no SMARTMAP slot reaches it,
 * and two ranks' heaps may lie at one address on their nodes). */
#define RP_NAME_SHIFT	48
#define RP_ADDR_MASK	((1ull << RP_NAME_SHIFT) - 1)
/* Offers a rank can have out at once to ranks on other nodes. */
#define RP_OFFERS	64
/* What the ends of a pipe tell each other (enum rp_word). */
#define RP_WORDS	5

enum rp_word {
	RPW_FLAGS,	/* rpipe's flags, RP_NOMEM */
	RPW_END,	/* the end's struct rp_end */
	RPW_HEAP,	/* its heap (0 if it does not read) */
	RPW_SIZE,	/* the heap's size */
	RPW_FREES,	/* between nodes: its list of frees */
};

struct rp_note {
	uint64_t seq;		/* n + 1 for the writer's n-th notification;
				 * between nodes the packed word (rp_word) */
	raddr_t ra;
	uint64_t len;
	uint64_t pad;
};

struct rp_end {
	struct rp_note ring[RP_RING];			/* written by the peer */
	uint64_t taken __attribute__((aligned(64)));	/* notifications this end took */
	int lock __attribute__((aligned(64)));		/* this end's heap, on a node */
	uint64_t peer_closed __attribute__((aligned(64)));	/* written by the peer's rclose */
	uint64_t freed __attribute__((aligned(64)));	/* between nodes: frees listed */
	uint64_t peer_took __attribute__((aligned(64)));	/* between nodes: the peer's taken */
};

struct rpipe {
	int peer;		/* on a node its on-node rank, else its world rank */
	int far;		/* the peer is on another node */
	int flags;
	enum rheap_policy policy;
	struct rp_end *mine;	/* local */
	struct rp_end *theirs;	/* the peer's: in its slot, or (far) its address there */
	struct rheap *heap;	/* where rmalloc runs: the peer's heap in its slot, or the shadow */
	int *lock;		/* that heap's lock */
	int shadow_lock;
	raddr_t my_base, their_base;	/* each heap's start as allocations name it */
	uint64_t my_size, their_size;
	void *mem;		/* this end's heap memory (local) */
	uint64_t *frees;	/* far: this end's frees of its heap, for the peer */
	uint64_t peer_frees;	/* far: the peer's list (its address) */
	uint64_t pulled;	/* far: entries of it applied to the shadow */
	uint64_t sent;		/* notifications posted to the peer */
	uint64_t seen;		/* the peer's taken count, as last read */
	struct rpipe *next;	/* closed here, waiting for the peer to close */
};

/* Pipes closed by this end whose peer may still touch our memory. */
static struct rpipe *rp_closed;
/* Some pipe used the network: rfinalize waits for its last operations. */
static int rp_used_net;

static int rp_err(int err, const char *fn, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int rp_err(int err, const char *fn, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", fn);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -err;
}

/* ---- the peer's memory: loads and stores on a node, the engine off it ---- */

/* spins: NULL, or the count of a poll the operation is a probe of. */
static void rp_net(const struct rpipe *p, uint8_t opc, void *local, const void *remote, size_t n,
		   unsigned *spins)
{
	struct net_op op = { .probe = spins != NULL };
	unsigned mine = 0;

	net_cmd(&op, opc, 0, 0, (uint32_t)p->peer, local, (uintptr_t)remote, n, 0, 0);
	if (net_wait_spins(&op, spins ? spins : &mine) < 0)
		core_fatal("rpipe: rank %d: %s %zu bytes of rank %d on node %d: %s",
			   smap_world_rank(), opc == SNOP_PUT ? "writing" : "reading", n, p->peer,
			   p->peer / smap_size(), net_strerror(op.status));
}

/* A release store: everything put before it lands first. */
static void rp_set64(const struct rpipe *p, uint64_t *at, uint64_t v)
{
	if (!p->far)
		__atomic_store_n(at, v, __ATOMIC_RELEASE);
	else
		net_cmd_async(SNOP_AMO, SNAMO_SET, 0, (uint32_t)p->peer, NULL, (uintptr_t)at, 0,
			      (int64_t)v, 0, "rpipe");
}

/* Returns once src may be reused. */
static void rp_put(const struct rpipe *p, void *at, const void *src, size_t n)
{
	if (!p->far)
		memcpy(at, src, n);
	else if (n <= net_eager_max())
		net_cmd_async(SNOP_PUT, 0, 0, (uint32_t)p->peer, src, (uintptr_t)at, n, 0, 0,
			      "rpipe");
	else
		rp_net(p, SNOP_PUT, (void *)src, at, n, NULL);
}

/* How many of our notifications the peer has taken: on a node its count;
 * between nodes the copy it stores here as it takes them (a get would
 * cost a round trip at every rwrite that reuses an allocation). */
static uint64_t rp_peer_took(const struct rpipe *p)
{
	return p->far ? __atomic_load_n(&p->mine->peer_took, __ATOMIC_ACQUIRE)
		      : __atomic_load_n(&p->theirs->taken, __ATOMIC_ACQUIRE);
}

/* ---- rendezvous ---- */

/*
 * On a node: static mailboxes at the same address in every rank, rp_box[j]
 * in rank i written by rank j only.  seq counts j's offers to i, ack the
 * offers of i that j has read (so i never overwrites an offer j has not
 * seen).
 */
struct rp_box {
	uint64_t seq, ack;
	uint64_t w[RP_WORDS];
} __attribute__((aligned(64)));

static struct rp_box rp_box[SMAP_MAX_RANKS];
static uint64_t rp_made[SMAP_MAX_RANKS];

static void rp_exchange_near(int peer, const uint64_t *out, uint64_t *in)
{
	struct rp_box *to = remote_address(peer, &rp_box[smap_rank()]), *from = &rp_box[peer];
	uint64_t n = ++rp_made[peer];
	unsigned spins = 0;

	while (__atomic_load_n(&from->ack, __ATOMIC_ACQUIRE) < n - 1)
		core_spin(&spins);
	memcpy(to->w, out, sizeof to->w);
	__atomic_store_n(&to->seq, n, __ATOMIC_RELEASE);
	while (__atomic_load_n(&from->seq, __ATOMIC_ACQUIRE) < n)
		core_spin(&spins);
	memcpy(in, from->w, sizeof from->w);
	__atomic_store_n(&to->ack, n, __ATOMIC_RELEASE);
}

/*
 * Between nodes: each rank lists its offers in a static table (the same
 * address in every rank), and the peer reads the table with gets until it
 * finds the one for it, then marks it taken.  No rank writes another's
 * table except for that mark, so offers from many ranks never contend.
 */
struct rp_offer {
	uint64_t to;		/* world rank + 1 of the rank it is for; 0: none */
	uint64_t n;		/* the n-th exchange between the two */
	uint64_t taken;		/* set to n by the peer once it read the offer */
	uint64_t w[RP_WORDS];
};

static struct rp_offer rp_offers[RP_OFFERS] __attribute__((aligned(64)));
static struct rp_offer rp_table[RP_OFFERS];	/* a peer's, as last read */
static uint64_t *rp_far_made;			/* per world rank */

static void rp_exchange_far(const struct rpipe *p, const uint64_t *out, uint64_t *in)
{
	uint64_t n = ++rp_far_made[p->peer], me = (uint64_t)smap_world_rank() + 1;
	struct rp_offer *o = NULL, got;
	unsigned spins = 0;
	int i;

	while (!o) {
		for (i = 0; i < RP_OFFERS && !o; i++)
			if (!rp_offers[i].to ||
			    __atomic_load_n(&rp_offers[i].taken, __ATOMIC_ACQUIRE) == rp_offers[i].n)
				o = &rp_offers[i];
		if (!o)
			core_spin(&spins);	/* every offer is out: their peers are reading */
	}
	__atomic_store_n(&o->to, 0, __ATOMIC_RELEASE);
	o->n = n;
	o->taken = 0;
	memcpy(o->w, out, sizeof o->w);
	__atomic_store_n(&o->to, (uint64_t)p->peer + 1, __ATOMIC_RELEASE);
	for (;;) {
		rp_net(p, SNOP_GETREQ, rp_table, rp_offers, sizeof rp_table, &spins);
		for (i = 0; i < RP_OFFERS; i++)
			if (rp_table[i].to == me && rp_table[i].n == n)
				break;
		/* Read it again: the table's copy may mix words from before and
		 * after the owner stored `to`; a read after one that saw the
		 * store sees everything written before it. */
		if (i < RP_OFFERS) {
			rp_net(p, SNOP_GETREQ, &got, &rp_offers[i], sizeof got, &spins);
			if (got.to == me && got.n == n)
				break;
		}
		/* A look of the wait check after every probe: it looks every
		 * CORE_WAIT_LOOK spins and takes half a second without a
		 * look for a new wait, and a probe's round trip may last
		 * milliseconds (under emulation). */
		spins = (spins + CORE_WAIT_LOOK) & ~(CORE_WAIT_LOOK - 1);
		core_spin(&spins);
	}
	memcpy(in, got.w, sizeof got.w);
	rp_set64(p, &rp_offers[i].taken, n);
}

static void rp_exchange(const struct rpipe *p, const uint64_t *out, uint64_t *in)
{
	if (!p->far) {
		rp_exchange_near(p->peer, out, in);
		return;
	}
	/* Failing here would leave the peer waiting for our offer. */
	if (!rp_far_made && !(rp_far_made = calloc(smap_world_size(), sizeof *rp_far_made)))
		core_fatal("rpipe: rank %d: no memory to count its pipes", smap_world_rank());
	rp_exchange_far(p, out, in);
}

/* ---- pipes ---- */

static void rp_release(struct rpipe *p)
{
	free(p->mem);
	free(p->frees);
	if (p->far && p->heap)
		free(p->heap);
	free(p->mine);
	free(p);
}

/* Frees the pipes closed here whose peer has closed too (all once the
 * job is finishing). */
static void rp_reap(int all)
{
	struct rpipe **pp = &rp_closed, *p;

	while ((p = *pp)) {
		if (all || __atomic_load_n(&p->mine->peer_closed, __ATOMIC_ACQUIRE)) {
			*pp = p->next;
			rp_release(p);
		} else {
			pp = &p->next;
		}
	}
}

int rinit(int *rank, int *nranks)
{
	if (rank)
		*rank = smap_world_rank();
	if (nranks)
		*nranks = smap_world_size();
	return 0;
}

int rfinalize(void)
{
	core_call = "rfinalize";
	if (rp_used_net)
		net_quiet();
	smap_barrier();
	rp_reap(1);
	return 0;
}

/* How many frees of a heap of `size` can be listed and not yet taken in:
 * one per allocation the heap can hold, so the list never overflows. */
static uint64_t rp_nfree(uint64_t size)
{
	return size / (2 * RHEAP_UNIT);
}

static raddr_t rp_name(int world_rank, const void *local)
{
	return ((uint64_t)(world_rank + 1) << RP_NAME_SHIFT) | (uintptr_t)local;
}

/* This end's memory: its rp_end, its heap if it reads (and, between
 * nodes, the list of its frees).  0 or -ENOMEM. */
static int rp_alloc_end(struct rpipe *p, size_t heap_bytes)
{
	struct rheap *h;

	if (posix_memalign((void **)&p->mine, 64, sizeof *p->mine)) {
		p->mine = NULL;
		return -ENOMEM;
	}
	memset(p->mine, 0, sizeof *p->mine);
	if (!(p->flags & RPIPE_READ))
		return 0;
	if (posix_memalign(&p->mem, 64, heap_bytes)) {
		p->mem = NULL;
		return -ENOMEM;
	}
	h = p->mem;
	rheap_init(h, heap_bytes);
	p->my_size = h->size;
	p->my_base = p->far ? rp_name(smap_world_rank(), h) :
			      (uintptr_t)remote_address(smap_rank(), h);
	if (p->far && !(p->frees = calloc(rp_nfree(h->size), sizeof *p->frees)))
		return -ENOMEM;
	return 0;
}

/* The writing end between nodes: the shadow of the peer's heap. */
static int rp_alloc_shadow(struct rpipe *p)
{
	if (!(p->flags & RPIPE_WRITE))
		return 0;
	if (posix_memalign((void **)&p->heap, 64, p->their_size)) {
		p->heap = NULL;
		return -ENOMEM;
	}
	rheap_init(p->heap, p->their_size);
	p->lock = &p->shadow_lock;
	return 0;
}

int rpipe(rpipe_t *rp, int peer, int flags, size_t heap_bytes)
{
	const char *fn = "rpipe";
	int me = smap_world_rank(), rpn = smap_size(), ok, dir = flags & RPIPE_DUPLEX, err;
	uint64_t out[RP_WORDS], in[RP_WORDS], okw[RP_WORDS] = { 0 }, pok[RP_WORDS];
	struct rpipe *p;

	if (!rp)
		return rp_err(EINVAL, fn, "rp is NULL");
	if (!dir || (flags & ~(RPIPE_DUPLEX | RP_POLICY)) || (flags & RP_POLICY) == RP_POLICY)
		return rp_err(EINVAL, fn, "flags 0x%x: RPIPE_READ and/or RPIPE_WRITE, and one policy",
			      flags);
	if (peer < 0 || peer >= smap_world_size() || peer == me)
		return rp_err(EINVAL, fn, "peer %d is not another rank of the job (0..%d)", peer,
			      smap_world_size() - 1);
	if (!heap_bytes)
		heap_bytes = RPIPE_HEAP_DEFAULT;
	if ((flags & RPIPE_READ) && heap_bytes < RHEAP_MIN)
		return rp_err(EINVAL, fn, "a heap of %zu bytes is too small (at least %d)", heap_bytes,
			      RHEAP_MIN);
	if (peer / rpn != smap_node() && (err = net_init()))
		return rp_err(-err, fn, "rank %d is on node %d, and the network is not up: %s", peer,
			      peer / rpn, strerror(-err));
	if (!(p = calloc(1, sizeof *p)))
		return rp_err(ENOMEM, fn, "no memory for a pipe to rank %d", peer);
	core_call = fn;
	p->far = peer / rpn != smap_node();
	p->peer = p->far ? peer : peer % rpn;
	p->flags = dir;
	rp_used_net |= p->far;
	ok = !rp_alloc_end(p, heap_bytes);
	out[RPW_FLAGS] = (uint64_t)flags | (ok ? 0 : RP_NOMEM);
	out[RPW_END] = !ok ? 0 : p->far ? (uintptr_t)p->mine :
			(uintptr_t)remote_address(smap_rank(), p->mine);
	out[RPW_HEAP] = p->mem ? (p->my_base & (p->far ? RP_ADDR_MASK : ~0ull)) : 0;
	out[RPW_SIZE] = p->my_size;
	out[RPW_FREES] = (uintptr_t)p->frees;
	rp_exchange(p, out, in);
	rp_reap(0);
	p->theirs = (struct rp_end *)(uintptr_t)in[RPW_END];
	p->their_size = in[RPW_SIZE];
	p->their_base = !in[RPW_HEAP] ? 0 : p->far ? rp_name(peer, (void *)(uintptr_t)in[RPW_HEAP]) :
				       in[RPW_HEAP];
	p->peer_frees = in[RPW_FREES];
	if (ok && !(in[RPW_FLAGS] & RP_NOMEM) && p->far) {
		/* A second round: the shadow is the size of the peer's heap. */
		okw[0] = !rp_alloc_shadow(p);
		rp_exchange(p, okw, pok);
		ok = okw[0] && pok[0];
	}
	if (!ok || (in[RPW_FLAGS] & RP_NOMEM)) {
		rp_release(p);
		return rp_err(ENOMEM, fn, "%s could not allocate the pipe to rank %d",
			      ok ? "the peer" : "this rank or the peer", peer);
	}
	if (!(flags & RPIPE_WRITE) != !(in[RPW_FLAGS] & RPIPE_READ) ||
	    !(flags & RPIPE_READ) != !(in[RPW_FLAGS] & RPIPE_WRITE)) {
		rp_release(p);
		return rp_err(EINVAL, fn, "this end has flags 0x%x, rank %d's end 0x%x: one end must read what the other writes",
			      flags, peer, (int)in[RPW_FLAGS] & ~RP_NOMEM);
	}
	if (!p->far) {
		p->heap = (struct rheap *)(uintptr_t)in[RPW_HEAP];
		p->lock = &p->theirs->lock;
	}
	p->policy = flags & RMALLOC_BEST_FIT ? RHEAP_BEST_FIT :
		    flags & RMALLOC_WORST_FIT ? RHEAP_WORST_FIT : RHEAP_NEXT_FIT;
	*rp = p;
	return 0;
}

/*
 * Like close(2), it does not wait: it tells the peer, and each end's
 * memory is freed by its owner once both ends have closed (the peer stops
 * touching it before it says so).  Until then the other end can still read
 * what was written to it.
 */
int rclose(rpipe_t p)
{
	if (!p)
		return rp_err(EINVAL, "rclose", "rp is NULL");
	rp_set64(p, &p->theirs->peer_closed, 1);
	p->next = rp_closed;
	rp_closed = p;
	rp_reap(0);
	return 0;
}

/* Which heap holds ra: 1 this end's, 2 the peer's, 0 neither. */
static int rp_owner(const struct rpipe *p, raddr_t ra)
{
	if (p->my_base && ra > p->my_base && ra - p->my_base < p->my_size)
		return 1;
	if (p->their_base && ra > p->their_base && ra - p->their_base < p->their_size)
		return 2;
	return 0;
}

/* Where this rank reaches its own allocation ra. */
static void *rp_local(const struct rpipe *p, raddr_t ra)
{
	return (char *)p->mem + (ra - p->my_base);
}

/* Between nodes: copies the header of the shadow's block at off into the
 * peer's heap, where its rsize, rmem and rfree look. */
static void rp_mirror(const struct rpipe *p, uint64_t off)
{
	uint64_t at = (p->their_base & RP_ADDR_MASK) + off - RHEAP_UNIT;

	rp_put(p, (void *)(uintptr_t)at, (char *)p->heap + off - RHEAP_UNIT, RHEAP_UNIT);
}

/* Between nodes: frees the peer listed since last time, applied to the
 * shadow.  Whether there were any. */
static int rp_take_frees(struct rpipe *p)
{
	uint64_t freed, nfree = rp_nfree(p->their_size), offs[64], i, k, j, from = p->pulled;

	rp_net(p, SNOP_GETREQ, &freed, &p->theirs->freed, sizeof freed, NULL);

	while (p->pulled < freed) {
		i = p->pulled % nfree;
		k = freed - p->pulled;
		k = k < nfree - i ? k : nfree - i;
		k = k < 64 ? k : 64;
		rp_net(p, SNOP_GETREQ, offs, (uint64_t *)(uintptr_t)p->peer_frees + i, k * 8, NULL);
		/* The peer checked each against its copy of the header; one the
		 * shadow does not hold is ignored. */
		for (j = 0; j < k; j++)
			rheap_free(p->heap, offs[j]);
		p->pulled += k;
	}
	return p->pulled != from;
}

raddr_t rmalloc(rpipe_t p, size_t bytes)
{
	uint64_t off;

	if (!p || !(p->flags & RPIPE_WRITE)) {
		rp_err(EBADF, "rmalloc", "this end of the pipe does not write");
		errno = EBADF;
		return RADDR_NULL;
	}
	if (__atomic_load_n(&p->mine->peer_closed, __ATOMIC_ACQUIRE)) {
		errno = EPIPE;
		return RADDR_NULL;
	}
	core_lock(p->lock);
	off = rheap_alloc(p->heap, bytes, p->policy);
	if (!off && p->far && rp_take_frees(p))
		off = rheap_alloc(p->heap, bytes, p->policy);
	core_unlock(p->lock);
	if (!off) {
		errno = ENOMEM;
		return RADDR_NULL;
	}
	if (p->far)
		rp_mirror(p, off);
	return p->their_base + off;
}

int rfree(rpipe_t p, raddr_t ra)
{
	int who = p ? rp_owner(p, ra) : 0, err;
	struct rheap *h;
	uint64_t off;
	int *lock;

	if (!who)
		return rp_err(EINVAL, "rfree", "0x%llx is not in a heap of this pipe",
			      (unsigned long long)ra);
	if (who == 1 && p->far) {
		/* The peer allocates here: it frees in its shadow when it
		 * takes in the list. */
		off = ra - p->my_base;
		if (rheap_forget(p->mem, off))
			return rp_err(EINVAL, "rfree", "0x%llx is not an allocation (freed already?)",
				      (unsigned long long)ra);
		p->frees[p->mine->freed % rp_nfree(p->my_size)] = off;
		__atomic_store_n(&p->mine->freed, p->mine->freed + 1, __ATOMIC_RELEASE);
		return 0;
	}
	if (who == 1) {
		h = p->mem;
		lock = &p->mine->lock;
		off = ra - p->my_base;
	} else {
		h = p->heap;
		lock = p->lock;
		off = ra - p->their_base;
		/* The peer's frees first: one of them may be this block's. */
		if (p->far)
			rp_take_frees(p);
	}
	core_lock(lock);
	err = rheap_free(h, off);
	core_unlock(lock);
	if (err)
		return rp_err(EINVAL, "rfree", "0x%llx is not an allocation (freed already?)",
			      (unsigned long long)ra);
	if (who == 2 && p->far)
		rp_mirror(p, off);
	return 0;
}

size_t rsize(rpipe_t p, raddr_t ra)
{
	int who = p ? rp_owner(p, ra) : 0;

	if (who == 1)
		return rheap_capacity(p->mem, ra - p->my_base);
	return who == 2 ? rheap_capacity(p->heap, ra - p->their_base) : 0;
}

void *rmem(rpipe_t p, raddr_t ra)
{
	if (!rsize(p, ra)) {
		rp_err(EINVAL, "rmem", "0x%llx is not an allocation of this pipe",
		       (unsigned long long)ra);
		errno = EINVAL;
		return NULL;
	}
	if (!p->far)
		return (void *)(uintptr_t)ra;
	if (rp_owner(p, ra) == 1)
		return rp_local(p, ra);
	errno = EREMOTE;	/* in a rank on another node: only rwrite reaches it */
	return NULL;
}

/*
 * Between nodes a notification is one word, stored by one posted atomic
 * (a put of ra and len, then the number, cost one operation more): the
 * lap of the ring it belongs to in bit 63 (a slot holds the last lap's
 * word until the new one lands: the writer never laps the reader), the
 * allocation's offset in the reader's heap in units above bit 32, and its
 * length below.  Offset 0 (no allocation has it) says the two did not fit
 * the word: ra and len are in the slot, put before the word.
 */
#define RP_WORD_LAP	(1ull << 63)
#define RP_WORD_UNITS	0x7fffffffull

static uint64_t rp_lap(uint64_t n)
{
	return ((n - 1) / RP_RING) & 1 ? 0 : RP_WORD_LAP;
}

/* Whether the slot holds notification n, and (if so) its ra and length. */
static int rp_note_ready(const struct rpipe *p, const struct rp_note *slot, uint64_t n,
			 raddr_t *ra, uint64_t *len)
{
	uint64_t w = __atomic_load_n(&slot->seq, __ATOMIC_ACQUIRE), units;

	if (!p->far ? w != n : (w & RP_WORD_LAP) != rp_lap(n))
		return 0;
	units = p->far ? w >> 32 & RP_WORD_UNITS : 0;
	*ra = units ? p->my_base + units * RHEAP_UNIT : slot->ra;
	*len = units ? (uint32_t)w : slot->len;
	return 1;
}

/* Posts a notification, waiting while the reader's ring is full. */
static void rp_post(struct rpipe *p, raddr_t ra, uint64_t len)
{
	struct rp_note *n, note = { .ra = ra, .len = len };
	uint64_t units = (ra - p->their_base) / RHEAP_UNIT, w;
	unsigned spins = 0;

	while (p->sent - p->seen >= RP_RING) {
		p->seen = rp_peer_took(p);
		if (p->sent - p->seen >= RP_RING)
			core_spin(&spins);
	}
	n = &p->theirs->ring[p->sent % RP_RING];
	if (p->far && units <= RP_WORD_UNITS && len <= UINT32_MAX) {
		w = rp_lap(++p->sent) | units << 32 | len;
	} else {
		rp_put(p, &n->ra, &note.ra, 2 * sizeof(uint64_t));
		w = p->far ? rp_lap(++p->sent) : ++p->sent;
	}
	rp_set64(p, &n->seq, w);
}

int rwrite(rpipe_t p, raddr_t ra, const void *buf, size_t len)
{
	const char *fn = "rwrite";
	unsigned spins = 0;
	uint64_t cap, off, *tag;

	if (!p || !(p->flags & RPIPE_WRITE))
		return rp_err(EBADF, fn, "this end of the pipe does not write");
	if (__atomic_load_n(&p->mine->peer_closed, __ATOMIC_ACQUIRE))
		return -EPIPE;
	core_call = fn;
	off = ra - p->their_base;
	if (rp_owner(p, ra) != 2 || !(cap = rheap_capacity(p->heap, off)))
		return rp_err(EINVAL, fn, "0x%llx is not an allocation in the reader's heap",
			      (unsigned long long)ra);
	if (len > cap)
		return rp_err(EINVAL, fn, "%zu bytes do not fit an allocation of %llu", len,
			      (unsigned long long)cap);
	/* The tag holds the number of ra's last notification; only we write it. */
	tag = rheap_tag(p->heap, off);
	while (p->seen < *tag) {
		p->seen = rp_peer_took(p);
		if (p->seen < *tag)
			core_spin(&spins);
	}
	if (p->far) {
		/* the peer's engine checks the range against its memory */
		rp_put(p, (void *)(uintptr_t)(ra & RP_ADDR_MASK), buf, len);
	} else {
		/* the capacity came from the peer's heap: trust only its region */
		if (!core_range_in((unsigned)p->peer, ra, len))
			return rp_err(EFAULT, fn, "rank %d: %zu bytes at 0x%llx are outside rank %d's memory",
				      smap_rank(), len, (unsigned long long)ra, p->peer);
		memcpy((void *)(uintptr_t)ra, buf, len);
	}
	rp_post(p, ra, len);
	*tag = p->sent;
	return 0;
}

ssize_t rread(rpipe_t p, raddr_t *ra, void *buf, size_t len)
{
	struct rp_note *n;
	unsigned spins = 0;
	uint64_t taken, got;
	const void *at;
	raddr_t a;
	int inside;

	if (!p || !(p->flags & RPIPE_READ))
		return rp_err(EBADF, "rread", "this end of the pipe does not read");
	core_call = "rread";
	taken = p->mine->taken;
	n = &p->mine->ring[taken % RP_RING];
	while (!rp_note_ready(p, n, taken + 1, &a, &got))
		core_spin(&spins);
	/* the peer wrote the notice: its range must be in our own memory */
	if (p->far)
		inside = rp_owner(p, a) == 1 && got <= p->my_size - (a - p->my_base);
	else
		inside = core_range_in((unsigned)smap_rank(), a, got);
	if (!inside)
		return rp_err(EFAULT, "rread", "rank %d: rank %d's notice names %llu bytes at "
			      "0x%llx, outside this rank's %s", smap_world_rank(), p->peer,
			      (unsigned long long)got, (unsigned long long)a,
			      p->far ? "heap" : "memory");
	at = p->far ? rp_local(p, a) : (const void *)(uintptr_t)a;
	if (buf)
		memcpy(buf, at, got < len ? got : len);
	if (ra)
		*ra = a;
	__atomic_store_n(&p->mine->taken, taken + 1, __ATOMIC_RELEASE);
	if (p->far)
		rp_set64(p, &p->theirs->peer_took, taken + 1);
	return got;
}

int rpoll(rpipe_t p)
{
	uint64_t len;
	raddr_t ra;
	int ready;

	if (!p || !(p->flags & RPIPE_READ))
		return rp_err(EBADF, "rpoll", "this end of the pipe does not read");
	/* In host mode the engine runs in the ranks that call the library. */
	if (p->far && core_progress)
		core_progress();
	ready = rp_note_ready(p, &p->mine->ring[p->mine->taken % RP_RING], p->mine->taken + 1,
			      &ra, &len);
	core_poll(ready);
	return ready;
}
