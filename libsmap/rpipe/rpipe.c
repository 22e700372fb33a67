/*
 * rpipe.c - rmalloc()/rpipe() on SMARTMAP (docs/rpipe.md).
 *
 * Each end of a pipe owns a struct rp_end in its own memory: the ring of
 * notifications the peer writes to it, the count of notifications it has
 * taken (which the peer reads for flow control), and, if it reads, the
 * lock and address of its heap.  The heap (rheap.c) keeps all its state
 * inside itself, so the writer allocates in the reader's memory by running
 * the allocator on the heap's SMARTMAP address: no message, no help from
 * the reader, nothing registered.  Allocations are named by that address
 * in the owner's slot, which both ends can use as it is.
 *
 *   rwrite  memcpy into the allocation, then the notification slot: ra and
 *           length, the sequence number stored last (release)
 *   rread   wait for slot.seq == taken + 1 (acquire), copy out, publish
 *           taken (release): after that the writer may reuse the block
 *
 * One writer per ring and per counter, all counters only grow, so nobody
 * resets anything and a stale slot always carries an older number.  The
 * heap lock is the only lock: both ends may rmalloc/rfree in one heap.
 *
 * rpipe() is a rendezvous of the two ends through a mailbox per pair of
 * ranks; rclose() is not: each end frees its own memory once both ends
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

#define RP_RING		256
/* In the exchanged flags: this end could not get its memory. */
#define RP_NOMEM	0x100
#define RP_POLICY	(RMALLOC_BEST_FIT | RMALLOC_WORST_FIT)

struct rp_note {
	uint64_t seq;		/* n + 1 for the writer's n-th notification */
	raddr_t ra;
	uint64_t len;
	uint64_t pad;
};

struct rp_end {
	struct rp_note ring[RP_RING];			/* written by the peer */
	uint64_t taken __attribute__((aligned(64)));	/* notifications this end took */
	int lock __attribute__((aligned(64)));		/* this end's heap */
	struct rheap *heap;	/* in this end's slot; NULL if this end does not read */
	int peer_closed __attribute__((aligned(64)));	/* written by the peer's rclose */
};

struct rpipe {
	int peer;		/* on-node rank */
	int flags;
	enum rheap_policy policy;
	struct rp_end *mine;	/* local */
	struct rp_end *theirs;	/* the peer's, in its slot */
	void *mem;		/* this end's heap memory (local) */
	uint64_t sent;		/* notifications posted to the peer */
	uint64_t seen;		/* the peer's taken count, as last read */
	struct rpipe *next;	/* closed here, waiting for the peer to close */
};

/* Pipes closed by this end whose peer may still touch our memory. */
static struct rpipe *rp_closed;

/*
 * Rendezvous mailboxes, as static data at the same address in every rank:
 * rp_box[j] in rank i is written by rank j only.  seq counts j's offers to
 * i, ack the offers of i that j has read (so i never overwrites an offer
 * j has not seen).
 */
struct rp_box {
	uint64_t seq, ack;
	uint64_t end, flags;
} __attribute__((aligned(64)));

static struct rp_box rp_box[SMAP_MAX_RANKS];
static uint64_t rp_made[SMAP_MAX_RANKS];

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

static void rp_release(struct rpipe *p)
{
	free(p->mem);
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
	smap_barrier();
	rp_reap(1);
	return 0;
}

/* Both ends call it: gives the peer our (end, flags), returns theirs. */
static void rp_exchange(int peer, uint64_t end, uint64_t flags, uint64_t *pend, uint64_t *pflags)
{
	struct rp_box *out = remote_address(peer, &rp_box[smap_rank()]), *in = &rp_box[peer];
	uint64_t n = ++rp_made[peer];
	unsigned spins = 0;

	while (__atomic_load_n(&in->ack, __ATOMIC_ACQUIRE) < n - 1)
		core_spin(&spins);
	out->end = end;
	out->flags = flags;
	__atomic_store_n(&out->seq, n, __ATOMIC_RELEASE);
	while (__atomic_load_n(&in->seq, __ATOMIC_ACQUIRE) < n)
		core_spin(&spins);
	*pend = in->end;
	*pflags = in->flags;
	__atomic_store_n(&out->ack, n, __ATOMIC_RELEASE);
}

int rpipe(rpipe_t *rp, int peer, int flags, size_t heap_bytes)
{
	const char *fn = "rpipe";
	int me = smap_world_rank(), rpn = smap_size(), ok, dir = flags & RPIPE_DUPLEX;
	uint64_t pend, pflags;
	struct rpipe *p;

	if (!rp)
		return rp_err(EINVAL, fn, "rp is NULL");
	if (!dir || (flags & ~(RPIPE_DUPLEX | RP_POLICY)) || (flags & RP_POLICY) == RP_POLICY)
		return rp_err(EINVAL, fn, "flags 0x%x: RPIPE_READ and/or RPIPE_WRITE, and one policy",
			      flags);
	if (peer < 0 || peer >= smap_world_size() || peer == me)
		return rp_err(EINVAL, fn, "peer %d is not another rank of the job (0..%d)", peer,
			      smap_world_size() - 1);
	if (peer / rpn != smap_node())
		return rp_err(ENOTSUP, fn, "rank %d is on node %d, this rank on node %d: pipes between nodes are not implemented yet",
			      peer, peer / rpn, smap_node());
	if (!heap_bytes)
		heap_bytes = RPIPE_HEAP_DEFAULT;
	if ((flags & RPIPE_READ) && heap_bytes < RHEAP_MIN)
		return rp_err(EINVAL, fn, "a heap of %zu bytes is too small (at least %d)", heap_bytes,
			      RHEAP_MIN);
	p = calloc(1, sizeof *p);
	if (p && posix_memalign((void **)&p->mine, 64, sizeof *p->mine))
		p->mine = NULL;
	if (p && p->mine && (flags & RPIPE_READ) && posix_memalign(&p->mem, 64, heap_bytes))
		p->mem = NULL;
	ok = p && p->mine && (p->mem || !(flags & RPIPE_READ));
	if (ok) {
		memset(p->mine, 0, sizeof *p->mine);
		if (p->mem) {
			rheap_init(p->mem, heap_bytes);
			p->mine->heap = remote_address(smap_rank(), p->mem);
		}
	}
	rp_exchange(peer % rpn, ok ? (uint64_t)(uintptr_t)remote_address(smap_rank(), p->mine) : 0,
		    flags | (ok ? 0 : RP_NOMEM), &pend, &pflags);
	rp_reap(0);
	if (!ok || (pflags & RP_NOMEM)) {
		if (p)
			rp_release(p);
		return rp_err(ENOMEM, fn, "%s could not allocate the pipe to rank %d",
			      ok ? "the peer" : "this rank", peer);
	}
	if (!(flags & RPIPE_WRITE) != !(pflags & RPIPE_READ) ||
	    !(flags & RPIPE_READ) != !(pflags & RPIPE_WRITE)) {
		rp_release(p);
		return rp_err(EINVAL, fn, "this end has flags 0x%x, rank %d's end 0x%x: one end must read what the other writes",
			      flags, peer, (int)pflags & ~RP_NOMEM);
	}
	p->peer = peer % rpn;
	p->flags = dir;
	p->policy = flags & RMALLOC_BEST_FIT ? RHEAP_BEST_FIT :
		    flags & RMALLOC_WORST_FIT ? RHEAP_WORST_FIT : RHEAP_NEXT_FIT;
	p->theirs = (struct rp_end *)(uintptr_t)pend;
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
	__atomic_store_n(&p->theirs->peer_closed, 1, __ATOMIC_SEQ_CST);
	p->next = rp_closed;
	rp_closed = p;
	rp_reap(0);
	return 0;
}

/* The end whose heap holds ra, or NULL. */
static struct rp_end *rp_owner(struct rpipe *p, raddr_t ra)
{
	struct rp_end *e[2] = { p->mine, p->theirs };
	struct rheap *h;
	int i;

	for (i = 0; i < 2; i++) {
		h = e[i]->heap;
		if (h && ra > (uintptr_t)h && ra < (uintptr_t)h + h->size)
			return e[i];
	}
	return NULL;
}

raddr_t rmalloc(rpipe_t p, size_t bytes)
{
	struct rheap *h;
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
	h = p->theirs->heap;
	core_lock(&p->theirs->lock);
	off = rheap_alloc(h, bytes, p->policy);
	core_unlock(&p->theirs->lock);
	if (!off) {
		errno = ENOMEM;
		return RADDR_NULL;
	}
	return (uintptr_t)h + off;
}

int rfree(rpipe_t p, raddr_t ra)
{
	struct rp_end *e = p ? rp_owner(p, ra) : NULL;
	int err;

	if (!e)
		return rp_err(EINVAL, "rfree", "0x%llx is not in a heap of this pipe",
			      (unsigned long long)ra);
	core_lock(&e->lock);
	err = rheap_free(e->heap, ra - (uintptr_t)e->heap);
	core_unlock(&e->lock);
	if (err)
		return rp_err(EINVAL, "rfree", "0x%llx is not an allocation (freed already?)",
			      (unsigned long long)ra);
	return 0;
}

size_t rsize(rpipe_t p, raddr_t ra)
{
	struct rp_end *e = p ? rp_owner(p, ra) : NULL;

	return e ? rheap_capacity(e->heap, ra - (uintptr_t)e->heap) : 0;
}

void *rmem(rpipe_t p, raddr_t ra)
{
	if (!rsize(p, ra)) {
		rp_err(EINVAL, "rmem", "0x%llx is not an allocation of this pipe",
		       (unsigned long long)ra);
		errno = EINVAL;
		return NULL;
	}
	return (void *)(uintptr_t)ra;
}

/* Posts a notification, waiting while the reader's ring is full. */
static void rp_post(struct rpipe *p, raddr_t ra, uint64_t len)
{
	struct rp_note *n;
	unsigned spins = 0;

	while (p->sent - p->seen >= RP_RING) {
		p->seen = __atomic_load_n(&p->theirs->taken, __ATOMIC_ACQUIRE);
		if (p->sent - p->seen >= RP_RING)
			core_spin(&spins);
	}
	n = &p->theirs->ring[p->sent % RP_RING];
	n->ra = ra;
	n->len = len;
	__atomic_store_n(&n->seq, ++p->sent, __ATOMIC_RELEASE);
}

int rwrite(rpipe_t p, raddr_t ra, const void *buf, size_t len)
{
	const char *fn = "rwrite";
	unsigned spins = 0;
	struct rheap *h;
	uint64_t cap, *tag;

	if (!p || !(p->flags & RPIPE_WRITE))
		return rp_err(EBADF, fn, "this end of the pipe does not write");
	if (__atomic_load_n(&p->mine->peer_closed, __ATOMIC_ACQUIRE))
		return -EPIPE;
	h = p->theirs->heap;
	if (rp_owner(p, ra) != p->theirs || !(cap = rheap_capacity(h, ra - (uintptr_t)h)))
		return rp_err(EINVAL, fn, "0x%llx is not an allocation in the reader's heap",
			      (unsigned long long)ra);
	if (len > cap)
		return rp_err(EINVAL, fn, "%zu bytes do not fit an allocation of %llu", len,
			      (unsigned long long)cap);
	/* The tag holds the number of ra's last notification; only we write it. */
	tag = rheap_tag(h, ra - (uintptr_t)h);
	while (p->seen < *tag) {
		p->seen = __atomic_load_n(&p->theirs->taken, __ATOMIC_ACQUIRE);
		if (p->seen < *tag)
			core_spin(&spins);
	}
	/* the capacity came from the peer's heap: trust only its region */
	if (!core_range_in((unsigned)p->peer, ra, len))
		return rp_err(EFAULT, fn, "rank %d: %zu bytes at 0x%llx are outside rank %d's memory",
			      smap_rank(), len, (unsigned long long)ra, p->peer);
	memcpy((void *)(uintptr_t)ra, buf, len);
	rp_post(p, ra, len);
	*tag = p->sent;
	return 0;
}

ssize_t rread(rpipe_t p, raddr_t *ra, void *buf, size_t len)
{
	struct rp_note *n;
	unsigned spins = 0;
	uint64_t taken;
	raddr_t a;
	size_t got;

	if (!p || !(p->flags & RPIPE_READ))
		return rp_err(EBADF, "rread", "this end of the pipe does not read");
	taken = p->mine->taken;
	n = &p->mine->ring[taken % RP_RING];
	while (__atomic_load_n(&n->seq, __ATOMIC_ACQUIRE) != taken + 1)
		core_spin(&spins);
	a = n->ra;
	got = n->len;
	/* the peer wrote the notice: its range must be in our own memory */
	if (!core_range_in((unsigned)smap_rank(), a, got))
		return rp_err(EFAULT, "rread", "rank %d: rank %d's notice names %llu bytes at "
			      "0x%llx, outside this rank's memory", smap_rank(), p->peer,
			      (unsigned long long)got, (unsigned long long)a);
	if (buf)
		memcpy(buf, (void *)(uintptr_t)a, got < len ? got : len);
	if (ra)
		*ra = a;
	__atomic_store_n(&p->mine->taken, taken + 1, __ATOMIC_RELEASE);
	return got;
}

int rpoll(rpipe_t p)
{
	if (!p || !(p->flags & RPIPE_READ))
		return rp_err(EBADF, "rpoll", "this end of the pipe does not read");
	return __atomic_load_n(&p->mine->ring[p->mine->taken % RP_RING].seq, __ATOMIC_ACQUIRE) ==
	       p->mine->taken + 1;
}
