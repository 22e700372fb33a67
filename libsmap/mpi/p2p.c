/*
 * p2p.c - the point-to-point transport: per-peer queues in the receiver's
 * memory, written by the sender through SMARTMAP.
 *
 * Each rank owns one inbox per sender: a ring of P2P_NSLOT cache-line
 * slots and a ring of eager data.  A sender fills the next slot (header
 * and, up to P2P_INLINE bytes, the payload) and stores the slot's sequence
 * number last; the receiver polls for the number it expects next.  So a
 * small message is one cache line moving once, with no atomics: x86 keeps
 * stores in order (TSO), and the sequence store is a release.  Slots only
 * ever hold headers, so a stale slot always carries an older number.
 *
 * Three protocols:
 *   inline  <= 40 B    payload inside the slot;
 *   eager   <= 256 B   payload copied once into the data ring
 *                      (P2P_SHORT);
 *   rendezvous         the slot carries the sender's buffer, layout and
 *                      request; the receiver copies straight out of the
 *                      sender's memory into its own buffer (any layouts,
 *                      dt.c) and then sets the request's done flag.
 *                      Synchronous sends always take this path: done means
 *                      matched.  From SMAP_MPI_SPLIT bytes of contiguous
 *                      data the copy is cut into pieces both sides claim,
 *                      so a sender waiting for its send copies about half
 *                      of it: two cores move the data (struct smpi_rndv).
 * The ring costs two copies and moves each line between the caches twice,
 * where a rendezvous moves it once and adds one line for the done flag:
 * from a few lines of data on, a receiver that is there copies sooner out
 * of the sender's buffer (docs/mpi.md has the figures).  What the ring is
 * good for, a send that completes with no receive in sight, blocking sends
 * up to SMAP_MPI_EAGER (16 KiB) still get: one whose receiver has not
 * claimed it after P2P_WITHDRAW_NS copies its data aside and withdraws
 * (struct smpi_rndv's claim, one lock cmpxchg on either side), so programs
 * that send before they receive keep working.  Nonblocking sends of those
 * sizes do the same when waited for or tested (smpi_p2p_send_due), so
 * Isend + Wait completes wherever Send would.  A sender whose receiver
 * made it withdraw sends its next ones eager (p2p_out.eager_left), so a
 * receiver busy elsewhere costs a wait now and then, not every time.
 *
 * MPI_Cancel of a send on this node: one still queued here is simply
 * dropped; one posted (any protocol: eager ones too, which completed for
 * their callers) sends a CANCEL in the next slot, on a context no receive
 * uses.  The receiver takes slots in order, so by then the message is in
 * its unexpected list, where the receiver removes it, or matched; it
 * writes which into the sender's request (rv.cancel), and the send
 * completes cancelled or as usual.  Nothing on the paths of sends that
 * are not cancelled changes.  Like MPICH's, the answer needs the receiver
 * to make progress.
 *
 * Flow control: the receiver publishes how far it has consumed (slots and
 * ring bytes) in its own memory; a sender rereads that only when its cached
 * copy says the queue is full.  A send that finds no room is queued on its
 * request (in order behind earlier ones to the same peer) and posted by a
 * later progress pass, so nonblocking sends never block.  Progress drains
 * every inbox, moving unmatched messages to the unexpected lists (a copy
 * for eager data), which is what keeps a full queue from deadlocking the
 * exchanges MPI programs rely on (both ranks send, then receive).
 *
 * Fast paths, where the per-message cost is counted in instructions:
 * a blocking send of an inline or eager message writes the slot from the
 * caller's arguments without a request; a blocking receive naming a source
 * that no earlier receive could compete for polls that source's inbox only
 * (every inbox once per P2P_POLL_ALL polls, which keeps the guarantee
 * above) and copies the message straight out of the slot.  Waits poll
 * without `pause` for the first polls (its latency would add to every
 * message), then pause, then yield only where core_spin does.
 */
#include <stdlib.h>
#include <string.h>
#include "impl.h"
#include "p2p.h"
#include "../core/core.h"

#define P2P_NSLOT	64
#define P2P_INLINE	40
_Static_assert(P2P_INLINE <= CORE_COPY_SMALL, "an inline payload is a small copy");
#define P2P_LINE	64
#define P2P_EAGER_DEFAULT	(16 << 10)
#define P2P_SHORT	CORE_COPY_SHORT
#define P2P_SPLIT_DEFAULT	(64 << 10)
#define P2P_PIECE	(16 << 10)
#define P2P_SPIN_HOT	1024
#define P2P_POLL_ALL	64
#define P2P_WITHDRAW_NS	2000
#define P2P_BACKOFF_MAX	64


/* struct p2p_rndv.flags: a blocking send that may withdraw (p2p_withdraw);
 * the other bits: the send type's segments (dt_segments, malloc'd: 16-byte
 * aligned), which the receiver reads through SMARTMAP, or 0. */
#define P2P_RNDV_WITHDRAW	1
#define P2P_RNDV_SEGS		(~(uint64_t)15)

/* struct smpi_rndv.claim of such a send. */
enum { P2P_UNCLAIMED, P2P_CLAIMED, P2P_WITHDRAWN };

/* The context of a CANCEL slot: no receive's (those are below
 * 2 * SMPI_MAX_CTX), so no fast path takes it for a message. */
#define P2P_CTX_CONTROL	0xffffu
_Static_assert(2 * SMPI_MAX_CTX < P2P_CTX_CONTROL, "contexts fit below the control one");


struct p2p_slot {
	uint32_t seq;		/* stored last */
	uint16_t ctx;
	uint8_t kind;
	uint8_t pad;
	int32_t tag;
	uint32_t pad2;
	uint64_t len;
	union {
		char data[P2P_INLINE];
		uint64_t off;	/* eager: ring position */
		struct p2p_rndv rndv;
	} u;
} __attribute__((aligned(P2P_LINE)));

_Static_assert(sizeof(struct p2p_slot) == P2P_LINE, "one slot, one cache line");

struct p2p_inbox {
	struct p2p_slot slot[P2P_NSLOT];
	/* Written by the receiver, read by the sender when it runs out. */
	_Alignas(P2P_LINE) uint64_t consumed;	/* last sequence number taken */
	uint64_t tail;				/* ring bytes released */
	_Alignas(P2P_LINE) char end[0];
};

/* One per rank; its pointer is a static variable, so at the same address
 * in every rank: peers read it there. */
struct p2p_box {
	uint64_t ring_bytes;
	struct p2p_inbox in[];	/* per sender; then the rings, per sender */
};

/* Sender's view of one destination. */
struct p2p_out {
	struct p2p_inbox *in;	/* my inbox at the destination (SMARTMAP) */
	char *ring;
	uint64_t ring_bytes;
	uint64_t seq, consumed;
	uint64_t head, tail;
	struct smpi_req *qhead, *qtail;	/* sends waiting for room */
	unsigned eager_left;	/* sends to go eager, after a withdrawal */
	unsigned backoff;	/* eager_left after the next withdrawal */
};


static struct p2p_box *p2p_box;
static struct p2p_out *p2p_out;
static uint64_t *p2p_expect;
static char *p2p_rings;
static int p2p_nranks, p2p_me, p2p_queued;
/* Matching names sources by world rank: this node's first is p2p_base. */
static int p2p_base, p2p_world;
static int p2p_net;
static uint64_t p2p_eager_max, p2p_split, p2p_ring;
static unsigned p2p_hot;
static uint64_t p2p_withdraw_ticks;
static struct match_ctx *p2p_ctx[2 * SMPI_MAX_CTX];
static struct p2p_unexp *p2p_unexp_free;
static struct smpi_req *p2p_orphans;
static struct smpi_req *p2p_withdrawn;	/* sends whose copy a receiver will read */

static uint64_t p2p_env(const char *name, uint64_t dflt)
{
	const char *v = getenv(name);
	char *end;
	unsigned long long x;

	if (!v || !*v)
		return dflt;
	x = strtoull(v, &end, 0);
	if (*end == 'k' || *end == 'K')
		x <<= 10, end++;
	else if (*end == 'm' || *end == 'M')
		x <<= 20, end++;
	if (*end)
		smpi_fatal("MPI_Init: %s=%s is not a size", name, v);
	return x;
}

uint64_t smpi_p2p_limit(int which)
{
	return which == SMPI_LIMIT_EAGER ? p2p_eager_max : which == SMPI_LIMIT_RING ? p2p_ring :
	       p2p_split;
}

static uint64_t p2p_round(uint64_t n)
{
	return (n + P2P_LINE - 1) & ~(uint64_t)(P2P_LINE - 1);
}

void smpi_p2p_init(void)
{
	uint64_t ring;
	size_t inboxes;
	int n = smap_size();

	p2p_nranks = n;
	p2p_me = smap_rank();
	p2p_base = smap_world_rank() - p2p_me;
	p2p_world = smap_world_size();
	p2p_net = smpi_pnet_init() == 0;
	/* Enough ring for several eager messages per peer, within a budget
	 * that stays modest for 254 ranks. */
	ring = (16ULL << 20) / n;
	if (ring > (256 << 10))
		ring = 256 << 10;
	if (ring < (32 << 10))
		ring = 32 << 10;
	ring = p2p_env("SMAP_MPI_RING", ring);
	ring = p2p_round(ring);
	p2p_ring = ring;
	p2p_eager_max = p2p_env("SMAP_MPI_EAGER", P2P_EAGER_DEFAULT);
	if (p2p_eager_max > ring / 2)
		p2p_eager_max = ring / 2;
	p2p_split = p2p_env("SMAP_MPI_SPLIT", P2P_SPLIT_DEFAULT);
	/* Busy polls are a share of what core_spin allows before it yields:
	 * ranks that share a CPU get to the yield as soon as before. */
	p2p_hot = core.spin_limit / 2 < P2P_SPIN_HOT ? core.spin_limit / 2 : P2P_SPIN_HOT;
	p2p_withdraw_ticks = smap_tsc_hz() / (1000000000 / P2P_WITHDRAW_NS);
	inboxes = sizeof(struct p2p_box) + n * sizeof(struct p2p_inbox);
	inboxes = p2p_round(inboxes);
	p2p_box = aligned_alloc(4096, inboxes + n * ring);
	p2p_out = calloc(n, sizeof *p2p_out);
	p2p_expect = malloc(n * sizeof *p2p_expect);
	if (!p2p_box || !p2p_out || !p2p_expect)
		smpi_fatal("MPI_Init: no memory for the message queues of %d ranks", n);
	memset(p2p_box, 0, inboxes + n * ring);
	p2p_box->ring_bytes = ring;
	p2p_rings = (char *)p2p_box + inboxes;
	for (int i = 0; i < n; i++)
		p2p_expect[i] = 1;
}

/* Spin-wait step of the transport's waits. */
static inline void p2p_spin(unsigned *spins)
{
	if (*spins < p2p_hot)
		++*spins;
	else
		smpi_spin(spins);
}

/* Finds my inbox at dest the first time I send there: dest's p2p_box is
 * set once its MPI_Init passed the start-up barrier. */
static struct p2p_out *p2p_peer_first(int dest)
{
	struct p2p_out *o = &p2p_out[dest];
	struct p2p_box *box;
	size_t inboxes;

	box = *(struct p2p_box **)remote_address(dest, &p2p_box);
	box = remote_address(dest, box);
	inboxes = p2p_round(sizeof(struct p2p_box) + p2p_nranks * sizeof(struct p2p_inbox));
	o->ring_bytes = box->ring_bytes;
	o->ring = (char *)box + inboxes + p2p_me * o->ring_bytes;
	o->in = &box->in[p2p_me];
	return o;
}

static inline struct p2p_out *p2p_peer(int dest)
{
	struct p2p_out *o = &p2p_out[dest];

	return o->in ? o : p2p_peer_first(dest);
}

static struct match_ctx *p2p_match_new(int ctx)
{
	struct match_ctx *m = malloc(sizeof *m);

	if (!m || match_init(m, p2p_world) < 0)
		smpi_fatal("MPI: no memory for the matching lists of context %d", ctx);
	p2p_ctx[ctx] = m;
	return m;
}

struct match_ctx *p2p_match(int ctx)
{
	struct match_ctx *m = p2p_ctx[ctx];

	return m ? m : p2p_match_new(ctx);
}

static inline int p2p_dense(MPI_Datatype type)
{
	return dt_is_dense(type->dt);
}

/* Packs r's data into dst (len bytes). */
static void p2p_pack(char *dst, const struct smpi_req *r, uint64_t len)
{
	if (!p2p_dense(r->type))
		smpi_type_copy(dst, len, MPI_BYTE, r->buf, r->count, r->type);
	else
		core_copy(dst, r->buf, len);
}

/* The next slot at o, numbered o->seq + 1; NULL while the queue is full. */
static inline struct p2p_slot *p2p_slot_next(struct p2p_out *o)
{
	uint64_t seq = o->seq + 1;

	if (seq - o->consumed > P2P_NSLOT) {
		o->consumed = __atomic_load_n(&o->in->consumed, __ATOMIC_ACQUIRE);
		if (seq - o->consumed > P2P_NSLOT)
			return NULL;
	}
	return &o->in->slot[seq & (P2P_NSLOT - 1)];
}

/* The CANCEL of the send r, posted in slot r->sseq; 0 when the queue is
 * full. */
static int p2p_post_cancel(struct p2p_out *o, struct smpi_req *r)
{
	struct p2p_slot *s = p2p_slot_next(o);

	if (!s)
		return 0;
	s->u.rndv.req = (uintptr_t)r;
	s->u.rndv.buf = r->sseq;
	s->u.rndv.dt = (uint64_t)r->ctx;
	s->ctx = P2P_CTX_CONTROL;
	s->kind = P2P_MSG_CANCEL;
	s->tag = 0;
	s->len = 0;
	__atomic_store_n(&s->seq, (uint32_t)++o->seq, __ATOMIC_RELEASE);
	r->state = SMPI_ST_POSTED;
	return 1;
}

/* Writes r's header (and data) into the next slot at its destination;
 * 0 when the queue or the ring has no room.  Messages up to `eager`
 * bytes go eager (synchronous ones never), larger ones rendezvous when
 * rndv is set (r is a whole request), else 0.  A send being cancelled
 * posts its CANCEL instead. */
static int p2p_post(struct p2p_out *o, struct smpi_req *r, uint64_t eager, int rndv)
{
	uint64_t seq = o->seq + 1, len = r->count * smpi_type_size(r->type);
	struct p2p_slot *s;
	int kind;

	if (__builtin_expect(r->cancel == P2P_CANCEL_ASKED, 0))
		return p2p_post_cancel(o, r);
	if (!(s = p2p_slot_next(o)))
		return 0;
	if (r->mode == SMPI_MODE_SYNC || len > eager) {
		int dense = p2p_dense(r->type);

		if (!rndv)
			return 0;
		kind = P2P_MSG_RNDV;
		r->rv.done = 0;
		r->rv.help = 0;
		r->rv.next = 0;
		r->rv.copied = 0;
		r->rv.claim = P2P_UNCLAIMED;
		r->helped = 0;
		s->u.rndv.buf = (uintptr_t)r->buf;
		s->u.rndv.dt = dense ? 0 : (uintptr_t)r->type->dt;
		s->u.rndv.count = r->count;
		s->u.rndv.req = (uintptr_t)r;
		s->u.rndv.flags = (r->withdraw ? P2P_RNDV_WITHDRAW : 0) |
			(dense ? 0 : (uintptr_t)smpi_type_segs(r->type));
	} else if (len <= P2P_INLINE) {
		kind = P2P_MSG_INLINE;
		p2p_pack(s->u.data, r, len);
	} else {
		uint64_t need = p2p_round(len), pos = o->head;

		if (pos % o->ring_bytes + need > o->ring_bytes)
			pos += o->ring_bytes - pos % o->ring_bytes;
		if (pos + need - o->tail > o->ring_bytes) {
			o->tail = __atomic_load_n(&o->in->tail, __ATOMIC_ACQUIRE);
			if (pos + need - o->tail > o->ring_bytes)
				return 0;
		}
		kind = P2P_MSG_EAGER;
		p2p_pack(o->ring + pos % o->ring_bytes, r, len);
		o->head = pos + need;
		s->u.off = pos;
	}
	s->ctx = r->ctx;
	s->kind = kind;
	s->tag = r->tag;
	s->len = len;
	__atomic_store_n(&s->seq, (uint32_t)seq, __ATOMIC_RELEASE);
	o->seq = seq;
	r->sseq = seq;
	r->state = kind == P2P_MSG_RNDV ? SMPI_ST_POSTED : SMPI_ST_DONE;
	return 1;
}

/*
 * Claims the next piece of a shared copy of len bytes: half of what is
 * left, in whole pages and at least P2P_PIECE, so two sides that start
 * together take about half each in a few claims (each claim moves the
 * line both sides fight over), and one that starts late or runs slow gets
 * less.  Returns its length (0: nothing left) and its offset in *off.
 */
static uint64_t p2p_piece(struct smpi_rndv *rv, uint64_t len, uint64_t *off)
{
	uint64_t at = __atomic_load_n(&rv->next, __ATOMIC_RELAXED), n;

	do {
		if (at >= len)
			return 0;
		n = ((len - at) / 2 + 4095) & ~(uint64_t)4095;
		if (n < P2P_PIECE)
			n = P2P_PIECE;
		if (n > len - at)
			n = len - at;
	} while (!__atomic_compare_exchange_n(&rv->next, &at, at + n, 0, __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	*off = at;
	return n;
}

/* Copies the pieces of a shared copy it can claim from src to dst (as
 * the caller reaches them); returns the bytes it copied. */
static uint64_t p2p_claim(struct smpi_rndv *rv, char *dst, const char *src, uint64_t len)
{
	uint64_t off, n, mine = 0;

	while ((n = p2p_piece(rv, len, &off))) {
		memcpy(dst + off, src + off, n);
		mine += n;
	}
	return mine;
}

/* The receiver's side of a shared copy of n bytes of contiguous data from
 * the sender's request sr (SMARTMAP address). */
static void p2p_copy_shared(struct smpi_rndv *rv, char *dst, const char *src, uint64_t n)
{
	unsigned spins = 0;
	uint64_t mine;

	rv->dst = (uintptr_t)remote_address(p2p_me, dst);
	rv->len = n;
	__atomic_store_n(&rv->help, 1, __ATOMIC_RELEASE);
	mine = p2p_claim(rv, dst, src, n);
	while (mine + __atomic_load_n(&rv->copied, __ATOMIC_ACQUIRE) < n)
		p2p_spin(&spins);
}

/* The sender's side: its receiver asked for help, so it copies pieces. */
static void p2p_help(struct smpi_req *r)
{
	uint64_t mine;

	r->helped = 1;
	mine = p2p_claim(&r->rv, (char *)(uintptr_t)r->rv.dst, r->buf, r->rv.len);
	__atomic_fetch_add(&r->rv.copied, mine, __ATOMIC_RELEASE);
}

/* Whether n bytes end inside a basic element of type.  A leaf (every
 * dense type) is whole elements of one size, almost always a power of
 * two: a mask, no division, on the receive paths. */
static inline int p2p_partial(MPI_Datatype type, uint64_t n)
{
	const struct dt_node *root = dt_root(type->dt);
	uint64_t b = root->basic;

	if (root->kind == DT_LEAF && b && !(b & (b - 1)))
		return (n & (b - 1)) != 0;
	return root->size && n % (uint64_t)root->size && dt_count_basic(type->dt, (int64_t)n) < 0;
}

/* Copies a message (kind, tag, len; data for inline and eager, rndv for
 * rendezvous) into the receive r and completes it. */
static void p2p_deliver(struct smpi_req *r, int src, int kind, int tag, uint64_t len,
			const char *data, const struct p2p_rndv *rndv)
{
	uint64_t cap = r->count * smpi_type_size(r->type), n = len;
	int err = MPI_SUCCESS;

	if (n > cap) {
		n = cap;
		err = MPI_ERR_TRUNCATE;
	}
	if (kind == P2P_MSG_RNDV) {
		char *sbuf = remote_address(src, (void *)(uintptr_t)rndv->buf);
		struct smpi_req *sr = remote_address(src, (void *)(uintptr_t)rndv->req);
		uint64_t sdt = rndv->dt, split = p2p_split;
		uint32_t unclaimed = P2P_UNCLAIMED;

		/* A send that may withdraw is this receive's once claimed; one
		 * that has withdrawn left its data packed in a copy, and its
		 * sender is gone: no shared copy. */
		if ((rndv->flags & P2P_RNDV_WITHDRAW) &&
		    !__atomic_compare_exchange_n(&sr->rv.claim, &unclaimed, P2P_CLAIMED, 0,
						 __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE)) {
			sbuf = remote_address(src, (void *)(uintptr_t)sr->rv.copy);
			sdt = 0;
			split = UINT64_MAX;
		}
		if (!sdt && p2p_dense(r->type)) {
			if (n >= split)
				p2p_copy_shared(&sr->rv, (char *)r->buf, sbuf, n);
			else
				memcpy((void *)r->buf, sbuf, n);
		} else {
			uint64_t ssegs = sdt ? rndv->flags & P2P_RNDV_SEGS : 0;

			dt_copy_whole((void *)r->buf, r->type->dt, smpi_type_segs(r->type), r->count,
				      sbuf, sdt ? remote_address(src, (void *)(uintptr_t)sdt) : NULL,
				      ssegs ? remote_address(src, (void *)(uintptr_t)ssegs) : NULL,
				      rndv->count, n);
		}
		__atomic_store_n(&sr->rv.done, 1, __ATOMIC_RELEASE);
	} else if (p2p_dense(r->type)) {
		core_copy((void *)r->buf, data, n);
	} else if (n) {
		smpi_type_copy((void *)r->buf, r->count, r->type, data, n, MPI_BYTE);
	}
	p2p_complete(r, p2p_base + src, tag, err, n);
}

void p2p_complete(struct smpi_req *r, int wsrc, int tag, int err, uint64_t n)
{
	/* A message that ends inside an element of the receive type was sent
	 * with another type signature (MPI 3.1 3.3.1): the receive says so. */
	if (!err && p2p_partial(r->type, n))
		err = MPI_ERR_TYPE;
	smpi_status_set(&r->status, r->comm->from_world[wsrc], tag, err, n);
	r->state = SMPI_ST_DONE;
	if (r->freed)
		smpi_req_free(r);
}

struct p2p_unexp *p2p_unexp_get(void)
{
	struct p2p_unexp *u = p2p_unexp_free;
	int i;

	if (!u) {
		u = malloc(64 * sizeof *u);
		if (!u)
			smpi_fatal("MPI: no memory for unexpected messages");
		for (i = 0; i < 63; i++)
			u[i].next = &u[i + 1];
		u[63].next = NULL;
	}
	p2p_unexp_free = u->next;
	return u;
}

void p2p_unexp_put(struct p2p_unexp *u)
{
	if (u->kind == P2P_MSG_EAGER || u->kind == P2P_MSG_NET_EAGER)
		free(u->data);
	u->next = p2p_unexp_free;
	p2p_unexp_free = u;
}

/* Keeps the message of slot s (data: its payload) as unexpected. */
static void p2p_keep(struct match_ctx *m, int src, uint64_t seq, const struct p2p_slot *s,
		     const char *data)
{
	struct p2p_unexp *u = p2p_unexp_get();

	u->seq = seq;
	u->m.src = p2p_base + src;
	u->m.tag = s->tag;
	u->kind = s->kind;
	u->tag = s->tag;
	u->len = s->len;
	u->data = u->idata;
	if (s->kind == P2P_MSG_INLINE) {
		core_copy_small(u->idata, s->u.data, s->len);
	} else if (s->kind == P2P_MSG_EAGER) {
		u->data = malloc(s->len);
		if (!u->data)
			smpi_fatal("MPI: no memory for an unexpected message of %llu bytes",
				   (unsigned long long)s->len);
		memcpy(u->data, data, s->len);
	} else {
		u->rndv = s->u.rndv;
	}
	match_keep(m, &u->m);
}

static int p2p_is_slot(const struct match_entry *e, const void *seq)
{
	const struct p2p_unexp *u = (const struct p2p_unexp *)e;

	return u->kind <= P2P_MSG_RNDV && u->seq == *(const uint64_t *)seq;
}

/* Slot s of src's inbox cancels src's message in slot s->u.rndv.buf:
 * removed if no receive has taken it.  The answer goes to the sender's
 * request. */
static void p2p_cancel_arrive(int src, const struct p2p_slot *s)
{
	struct smpi_req *sr = remote_address(src, (void *)(uintptr_t)s->u.rndv.req);
	uint64_t seq = s->u.rndv.buf, ctx = s->u.rndv.dt;
	struct match_ctx *m = ctx < 2 * SMPI_MAX_CTX ? p2p_ctx[ctx] : NULL;
	struct match_entry *e = m && m->nunexp ?
		match_drop(m, p2p_base + src, p2p_is_slot, &seq) : NULL;

	if (e)
		p2p_unexp_put((struct p2p_unexp *)e);
	__atomic_store_n(&sr->rv.cancel, e ? P2P_CANCEL_REMOVED : P2P_CANCEL_TOO_LATE,
			 __ATOMIC_RELEASE);
}

/*
 * The message in slot seq of src's inbox has arrived: it goes to r when
 * given (a receive nothing else competes for, which it matches), else to
 * the posted receive it matches, else to the unexpected list.  Then the
 * slot (and its ring bytes) go back to the sender.
 */
static void p2p_arrive(int src, uint64_t seq, const struct p2p_slot *s, struct smpi_req *r)
{
	struct p2p_inbox *in = &p2p_box->in[src];
	const char *data = s->u.data;

	if (__builtin_expect(s->kind == P2P_MSG_CANCEL, 0)) {
		p2p_cancel_arrive(src, s);
		__atomic_store_n(&in->consumed, seq, __ATOMIC_RELEASE);
		return;
	}
	if (s->kind == P2P_MSG_EAGER)
		data = p2p_rings + src * p2p_box->ring_bytes + s->u.off % p2p_box->ring_bytes;
	if (!r) {
		struct match_ctx *m = p2p_match(s->ctx);

		r = (struct smpi_req *)match_arrive(m, p2p_base + src, s->tag);
		if (!r)
			p2p_keep(m, src, seq, s, data);
	}
	if (r)
		p2p_deliver(r, src, s->kind, s->tag, s->len, data, &s->u.rndv);
	if (s->kind == P2P_MSG_EAGER)
		__atomic_store_n(&in->tail, s->u.off + p2p_round(s->len), __ATOMIC_RELEASE);
	__atomic_store_n(&in->consumed, seq, __ATOMIC_RELEASE);
}

/* The slot a message from src would arrive in next, or NULL if it has not. */
static inline const struct p2p_slot *p2p_next(int src)
{
	uint64_t seq = p2p_expect[src];
	const struct p2p_slot *s = &p2p_box->in[src].slot[seq & (P2P_NSLOT - 1)];

	return __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE) == (uint32_t)seq ? s : NULL;
}

/* Takes the message in s, which p2p_next(src) returned. */
static inline void p2p_take(int src, const struct p2p_slot *s, struct smpi_req *r)
{
	p2p_arrive(src, p2p_expect[src]++, s, r);
}

static void p2p_poll(int src)
{
	const struct p2p_slot *s;

	while ((s = p2p_next(src)))
		p2p_take(src, s, NULL);
}

/* Posts the queued sends that now fit, in order per destination. */
static void p2p_flush(void)
{
	struct p2p_out *o;
	struct smpi_req *r;
	int d;

	for (d = 0; d < p2p_nranks && p2p_queued; d++) {
		o = &p2p_out[d];
		while ((r = o->qhead) && p2p_post(o, r, P2P_SHORT, 1)) {
			o->qhead = r->next;
			if (!o->qhead) {
				o->qtail = NULL;
				p2p_queued--;
			}
			if (r->freed && r->state == SMPI_ST_DONE) {
				smpi_req_free(r);
			} else if (r->freed) {
				r->next = p2p_orphans;
				p2p_orphans = r;
			}
		}
	}
}

/* Freed, buffered or withdrawn sends still in flight (one of the lists
 * above): finish them in the background.  A freed send that may withdraw
 * does so in time, so it leaves MPI_Finalize nothing to wait for. */
static void p2p_reap(struct smpi_req **pp)
{
	struct smpi_req *r;

	while ((r = *pp)) {
		if (r->state == SMPI_ST_QUEUED || !smpi_req_done(r)) {
			if (r->withdraw && smpi_p2p_send_due(r)) {
				*pp = r->next;
				r->next = p2p_withdrawn;
				p2p_withdrawn = r;
				continue;
			}
			pp = &r->next;
			continue;
		}
		*pp = r->next;
		smpi_req_free(r);
	}
}

void smpi_progress(void)
{
	int s;

	for (s = 0; s < p2p_nranks; s++)
		p2p_poll(s);
	if (p2p_queued)
		p2p_flush();
	if (p2p_orphans)
		p2p_reap(&p2p_orphans);
	if (p2p_withdrawn)
		p2p_reap(&p2p_withdrawn);
	if (p2p_net)
		net_progress();
	if (smpi_nbc_active)
		smpi_nbc_progress();
	if (smpi_part_active)
		smpi_part_progress();
}

/* Hands an unexpected message to the receive r. */
static void p2p_take_unexp(struct smpi_req *r, struct p2p_unexp *u)
{
	if (u->kind == P2P_MSG_NET_EAGER || u->kind == P2P_MSG_NET_RTS)
		smpi_pnet_deliver(r, u);
	else
		p2p_deliver(r, u->m.src - p2p_base, u->kind, u->tag, u->len, u->data, &u->rndv);
	p2p_unexp_put(u);
}

static void p2p_recv_start(struct smpi_req *r)
{
	struct match_ctx *m = p2p_match(r->ctx);
	int src = r->peer == MPI_ANY_SOURCE ? MATCH_ANY : r->comm->group->world[r->peer];
	struct match_entry *e = m->nunexp ? match_find(m, src, r->tag, 1) : NULL;

	if (e) {
		p2p_take_unexp(r, (struct p2p_unexp *)e);
		return;
	}
	r->m.src = src;
	r->m.tag = r->tag;
	r->state = SMPI_ST_POSTED;
	match_post(m, &r->m);
}

static void p2p_queue(struct p2p_out *o, struct smpi_req *r)
{
	r->state = SMPI_ST_QUEUED;
	r->next = NULL;
	if (o->qtail)
		o->qtail->next = r;
	else
		o->qhead = r, p2p_queued++;
	o->qtail = r;
}

void smpi_p2p_start(struct smpi_req *r)
{
	struct p2p_out *o;

	r->cancel = P2P_CANCEL_NONE;
	if (r->peer == MPI_PROC_NULL) {
		smpi_status_set(&r->status, MPI_PROC_NULL, MPI_ANY_TAG, MPI_SUCCESS, 0);
		r->state = SMPI_ST_DONE;
		return;
	}
	if (r->kind == SMPI_REQ_RECV) {
		p2p_recv_start(r);
		return;
	}
	smpi_status_set(&r->status, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_SUCCESS, 0);
	r->lpeer = r->comm->local[r->peer];
	if (r->lpeer < 0) {
		smpi_pnet_send(r);
		return;
	}
	o = p2p_peer(r->lpeer);
	if (o->qhead || !p2p_post(o, r, P2P_SHORT, 1))
		p2p_queue(o, r);
}

/* An eager message into its queue with no request to complete: only the
 * fields p2p_post reads are set. */
static __attribute__((noinline)) int p2p_post_now(struct p2p_out *o, const void *buf,
						  int64_t count, MPI_Datatype type, int tag,
						  int ctx, int mode, uint64_t eager)
{
	struct smpi_req r;

	r.buf = buf;
	r.count = count;
	r.type = type;
	r.mode = mode;
	r.ctx = ctx;
	r.tag = tag;
	r.cancel = P2P_CANCEL_NONE;
	return p2p_post(o, &r, eager, 0);
}

/* The latency case of a send: an inline message, with room in the queue,
 * written into its slot; 0 for any other, before anything is written. */
static inline __attribute__((always_inline)) int p2p_send_inline(const void *buf, int64_t count,
								 MPI_Datatype type, int peer,
								 int tag, MPI_Comm comm, int ctx,
								 int mode)
{
	struct p2p_out *o = p2p_peer(comm->local[peer]);
	uint64_t len = count * smpi_type_size(type), seq = o->seq + 1;
	struct p2p_slot *s;

	if (len > P2P_INLINE || mode == SMPI_MODE_SYNC || o->qhead || !p2p_dense(type) ||
	    seq - o->consumed > P2P_NSLOT)
		return 0;
	s = &o->in->slot[seq & (P2P_NSLOT - 1)];
	core_copy_small(s->u.data, buf, len);
	s->ctx = ctx;
	s->kind = P2P_MSG_INLINE;
	s->tag = tag;
	s->len = len;
	__atomic_store_n(&s->seq, (uint32_t)seq, __ATOMIC_RELEASE);
	o->seq = seq;
	return 1;
}

/*
 * The eager limit of a send of len bytes to o: SMAP_MPI_EAGER while o is
 * in eager_left (its receiver made an earlier send withdraw), else
 * P2P_SHORT.  Synchronous sends never go eager.
 */
static uint64_t p2p_eager_for(struct p2p_out *o, uint64_t len, int mode)
{
	if (o->eager_left && mode != SMPI_MODE_SYNC && len > P2P_SHORT && len <= p2p_eager_max) {
		o->eager_left--;
		return p2p_eager_max;
	}
	return P2P_SHORT;
}

/* A send that is not inline but may leave at once: eager (p2p_eager_for)
 * when the queue and the ring have room. */
static __attribute__((noinline)) int p2p_send_eager(const void *buf, int64_t count,
						    MPI_Datatype type, int peer, int tag,
						    MPI_Comm comm, int ctx, int mode)
{
	struct p2p_out *o = p2p_peer(comm->local[peer]);
	uint64_t eager = p2p_eager_for(o, count * smpi_type_size(type), mode);

	return !o->qhead && p2p_post_now(o, buf, count, type, tag, ctx, mode, eager);
}

int smpi_p2p_send_now(const void *buf, int64_t count, MPI_Datatype type, int peer, int tag,
		      MPI_Comm comm, int ctx, int mode)
{
	if (comm->local[peer] < 0)
		return smpi_pnet_send_now(buf, count, type, peer, tag, comm, ctx, mode);
	if (p2p_send_inline(buf, count, type, peer, tag, comm, ctx, mode))
		return 1;
	return p2p_send_eager(buf, count, type, peer, tag, comm, ctx, mode);
}

/*
 * The blocking send r, posted and unclaimed, gives up waiting for its
 * receiver: its data goes into a copy the receiver will read instead, and
 * the claim word decides who was first (the receiver's lock cmpxchg in
 * p2p_deliver, or this one).  1 if the send is withdrawn: the caller's
 * buffer is free, and progress frees r and the copy once the receiver has
 * taken them.
 */
static int p2p_withdraw(struct smpi_req *r)
{
	uint64_t len = r->count * smpi_type_size(r->type);
	uint32_t unclaimed = P2P_UNCLAIMED;
	char *copy = malloc(len ? len : 1);

	if (!copy)
		return 0;
	p2p_pack(copy, r, len);
	r->rv.copy = (uintptr_t)copy;
	if (__atomic_compare_exchange_n(&r->rv.claim, &unclaimed, P2P_WITHDRAWN, 0,
					__ATOMIC_RELEASE, __ATOMIC_RELAXED))
		return 1;
	r->rv.copy = 0;
	free(copy);
	return 0;
}

/* A send to o withdrew: its next blocking and nonblocking sends of up to
 * SMAP_MPI_EAGER go eager, 1, 2, 4, ... up to P2P_BACKOFF_MAX of them
 * after successive withdrawals. */
static void p2p_withdrew(struct p2p_out *o)
{
	o->backoff = o->backoff ? o->backoff * 2 : 1;
	if (o->backoff > P2P_BACKOFF_MAX)
		o->backoff = P2P_BACKOFF_MAX;
	o->eager_left = o->backoff;
}

int smpi_p2p_send_due(struct smpi_req *r)
{
	uint64_t now;

	/* A queued send has not been posted yet: nothing to withdraw, and
	 * its 2 us start once it is. */
	if (r->state != SMPI_ST_POSTED)
		return 0;
	now = smap_rdtsc();
	if (!r->deadline) {
		r->deadline = now + p2p_withdraw_ticks;
		return 0;
	}
	if (now < r->deadline)
		return 0;
	r->withdraw = 0;
	if (!p2p_withdraw(r))
		return 0;
	p2p_withdrew(&p2p_out[r->lpeer]);
	r->withdrawn = 1;
	return 1;
}

/* Waits for the blocking send r to its peer's queue o; one that may
 * withdraw (r->withdraw) does so after P2P_WITHDRAW_NS unclaimed. */
static void p2p_send_wait(struct smpi_req *r, struct p2p_out *o)
{
	unsigned spins = 0;
	int may = r->withdraw;

	while (!smpi_req_done(r)) {
		smpi_progress();
		if (smpi_req_done(r))
			break;
		if (r->withdraw && smpi_p2p_send_due(r)) {
			r->next = p2p_withdrawn;
			p2p_withdrawn = r;
			return;
		}
		p2p_spin(&spins);
	}
	/* Its receiver turned up in time. */
	if (may)
		o->backoff = 0;
	smpi_req_free(r);
}

/* A blocking send that is not inline: eager while its receiver is in
 * eager_left (up to SMAP_MPI_EAGER) or when short, else on a request. */
static __attribute__((noinline)) void p2p_send_slow(const void *buf, int64_t count,
						    MPI_Datatype type, int peer, int tag,
						    MPI_Comm comm, int ctx, int mode)
{
	struct p2p_out *o = p2p_peer(comm->local[peer]);
	uint64_t len = count * smpi_type_size(type);
	struct smpi_req *r;

	if (p2p_send_eager(buf, count, type, peer, tag, comm, ctx, mode))
		return;
	/* The request outlives the call if the send withdraws. */
	r = smpi_req_alloc(SMPI_REQ_SEND, mode, buf, count, type, peer, tag, comm);
	r->ctx = ctx;
	r->withdraw = mode != SMPI_MODE_SYNC && len > P2P_SHORT && len <= p2p_eager_max;
	smpi_p2p_start(r);
	p2p_send_wait(r, o);
}

void smpi_p2p_isend(struct smpi_req *r)
{
	uint64_t len = r->count * smpi_type_size(r->type);

	r->withdraw = r->mode != SMPI_MODE_SYNC && len > P2P_SHORT && len <= p2p_eager_max &&
		      r->comm->local[r->peer] >= 0;
	smpi_p2p_start(r);
}

void smpi_p2p_send(const void *buf, int64_t count, MPI_Datatype type, int peer, int tag,
		   MPI_Comm comm, int ctx, int mode)
{
	if (comm->local[peer] < 0)
		smpi_pnet_send_blocking(buf, count, type, peer, tag, comm, ctx, mode);
	else if (!p2p_send_inline(buf, count, type, peer, tag, comm, ctx, mode))
		p2p_send_slow(buf, count, type, peer, tag, comm, ctx, mode);
}

/*
 * Waits for the next message from src, for a receive on (ctx, tag) that
 * no posted receive or unexpected message competes for: returns its slot
 * when it matches, NULL when a progress pass has moved a match to the
 * unexpected list.  Messages of other contexts or tags go where they
 * belong on the way: the next one that matches is still this receive's.
 */
static const struct p2p_slot *p2p_wait_match(int src, int ctx, int tag, struct match_ctx *m)
{
	const struct p2p_slot *s;
	unsigned spins = 0, polls = 0;

	for (;;) {
		if ((s = p2p_next(src))) {
			if (s->ctx == ctx && (tag == MPI_ANY_TAG || s->tag == tag))
				return s;
			p2p_take(src, s, NULL);
			continue;
		}
		if (++polls % P2P_POLL_ALL == 0) {
			smpi_progress();
			if (m->nunexp && match_find(m, p2p_base + src, tag, 0))
				return NULL;
		}
		p2p_spin(&spins);
	}
}

/* Whether a receive from src on (ctx, tag) may wait on src's inbox alone. */
static inline int p2p_direct(struct match_ctx *m, int src, int tag)
{
	int w = p2p_base + src;

	return match_none_posted(m, w) && !(m->nunexp && match_find(m, w, tag, 0));
}

/* An eager message's data out of the ring into buf, and the ring bytes
 * back to the sender. */
static __attribute__((noinline)) void p2p_take_ring(const struct p2p_slot *s, int src, void *buf)
{
	core_copy(buf, p2p_rings + src * p2p_box->ring_bytes + s->u.off % p2p_box->ring_bytes,
		  s->len);
	__atomic_store_n(&p2p_box->in[src].tail, s->u.off + p2p_round(s->len), __ATOMIC_RELEASE);
}

/* The latency case on the receiving side: an inline or eager message the
 * receive nothing competes for takes whole comes out of its slot (and
 * ring), no request. */
static inline __attribute__((always_inline)) int p2p_take_fast(const struct p2p_slot *s, int src,
							       void *buf, int64_t count,
							       MPI_Datatype type, int peer,
							       MPI_Status *status)
{
	/* (a length that ends inside an element goes the slow way, which
	 * reports it: p2p_complete) */
	if (s->kind == P2P_MSG_RNDV || !p2p_dense(type) ||
	    s->len > (uint64_t)(count * smpi_type_size(type)) || p2p_partial(type, s->len))
		return 0;
	if (s->kind == P2P_MSG_INLINE)
		core_copy_small(buf, s->u.data, s->len);
	else
		p2p_take_ring(s, src, buf);
	smpi_status_set(status, peer, s->tag, MPI_SUCCESS, s->len);
	__atomic_store_n(&p2p_box->in[src].consumed, p2p_expect[src]++, __ATOMIC_RELEASE);
	return 1;
}

/* A receive whose message is not there yet, or needs a request.  Same
 * arguments as smpi_p2p_recv, which can then jump here without saving
 * anything. */
static __attribute__((noinline)) int p2p_recv_wait(void *buf, int64_t count, MPI_Datatype type,
						   int peer, int tag, MPI_Comm comm, int ctx,
						   MPI_Status *status)
{
	struct match_ctx *m = p2p_match(ctx);
	const struct p2p_slot *s = NULL;
	struct smpi_req r;
	int src = peer == MPI_ANY_SOURCE ? MATCH_ANY : comm->local[peer];

	if (src >= 0 && p2p_direct(m, src, tag)) {
		s = p2p_wait_match(src, ctx, tag, m);
		if (s && p2p_take_fast(s, src, buf, count, type, peer, status))
			return MPI_SUCCESS;
	}
	smpi_req_init(&r, SMPI_REQ_RECV, SMPI_MODE_STD, buf, count, type, peer, tag, comm);
	r.ctx = ctx;
	r.cancel = P2P_CANCEL_NONE;
	if (s) {
		p2p_take(src, s, &r);
	} else {
		p2p_recv_start(&r);
		smpi_req_wait(&r);
	}
	*status = r.status;
	return r.status.MPI_ERROR;
}

int smpi_p2p_recv(void *buf, int64_t count, MPI_Datatype type, int peer, int tag,
		  MPI_Comm comm, int ctx, MPI_Status *status)
{
	struct match_ctx *m = p2p_ctx[ctx];
	const struct p2p_slot *s;
	int src;

	if (!m || peer == MPI_ANY_SOURCE || comm->local[peer] < 0)
		return p2p_recv_wait(buf, count, type, peer, tag, comm, ctx, status);
	src = comm->local[peer];
	s = p2p_next(src);
	if (!s || s->ctx != ctx || (tag != MPI_ANY_TAG && s->tag != tag) ||
	    !p2p_direct(m, src, tag) || !p2p_take_fast(s, src, buf, count, type, peer, status))
		return p2p_recv_wait(buf, count, type, peer, tag, comm, ctx, status);
	return MPI_SUCCESS;
}

/* A send whose CANCEL is out: done once the receiver answered (it writes
 * into the request, so not before), cancelled or not; a rendezvous it
 * took completes as any other (smpi_p2p_done, once the answer is in).  A
 * buffered send is done with the send of its copy. */
static int p2p_cancel_done(struct smpi_req *r)
{
	uint32_t a;

	if (r->inner) {
		if (!smpi_req_done(r->inner))
			return 0;
		r->cancel = P2P_CANCEL_OVER;
		r->status.smpi_cancelled = r->inner->status.smpi_cancelled;
		r->state = SMPI_ST_DONE;
		return 1;
	}
	if (r->cancel_rndv && __atomic_load_n(&r->rv.help, __ATOMIC_ACQUIRE) && !r->helped)
		p2p_help(r);
	a = __atomic_load_n(&r->rv.cancel, __ATOMIC_ACQUIRE);
	if (a == P2P_CANCEL_WAIT)
		return 0;
	r->cancel = P2P_CANCEL_OVER;
	if (a == P2P_CANCEL_REMOVED || !r->cancel_rndv) {
		r->status.smpi_cancelled = a == P2P_CANCEL_REMOVED;
		r->state = SMPI_ST_DONE;
		return 1;
	}
	return smpi_p2p_done(r);
}

int smpi_p2p_done(struct smpi_req *r)
{
	if (r->kind != SMPI_REQ_SEND || r->state != SMPI_ST_POSTED || r->net)
		return 0;
	if (__builtin_expect(r->cancel == P2P_CANCEL_ASKED, 0))
		return p2p_cancel_done(r);
	if (__atomic_load_n(&r->rv.help, __ATOMIC_ACQUIRE) && !r->helped)
		p2p_help(r);
	if (!__atomic_load_n(&r->rv.done, __ATOMIC_ACQUIRE))
		return 0;
	r->state = SMPI_ST_DONE;
	return 1;
}

void smpi_req_wait(struct smpi_req *r)
{
	unsigned spins = 0;

	while (!smpi_req_done(r) && !r->withdrawn) {
		smpi_progress();
		if (smpi_req_done(r) || (r->withdraw && smpi_p2p_send_due(r)))
			break;
		p2p_spin(&spins);
	}
}

/* A request nobody will wait for: finished by progress. */
void smpi_p2p_orphan(struct smpi_req *r)
{
	if (smpi_req_done(r)) {
		smpi_req_free(r);
		return;
	}
	r->freed = 1;
	if (r->withdrawn) {
		r->next = p2p_withdrawn;
		p2p_withdrawn = r;
		return;
	}
	if (r->state == SMPI_ST_QUEUED)
		return;
	if (r->kind == SMPI_REQ_RECV && r->state == SMPI_ST_POSTED)
		return;
	r->next = p2p_orphans;
	p2p_orphans = r;
}

static void p2p_unqueue(struct p2p_out *o, struct smpi_req *r)
{
	struct smpi_req **pp = &o->qhead, *prev = NULL;

	while (*pp != r)
		prev = *pp, pp = &(*pp)->next;
	*pp = r->next;
	if (o->qtail == r)
		o->qtail = prev;
	if (!o->qhead)
		p2p_queued--;
}

/* Once per start; across nodes, p2pnet.c's.  A send that withdrew is
 * complete for its caller already and completes. */
static int p2p_cancel_send(struct smpi_req *r)
{
	struct p2p_out *o;

	/* A buffered send: its copy's send is the one taken back. */
	if (r->inner) {
		if (r->cancel != P2P_CANCEL_NONE || !p2p_cancel_send(r->inner))
			return 0;
		r->cancel = P2P_CANCEL_ASKED;
		r->state = SMPI_ST_POSTED;
		return 1;
	}
	if (r->cancel != P2P_CANCEL_NONE || r->state == SMPI_ST_IDLE || r->peer == MPI_PROC_NULL ||
	    r->withdrawn)
		return 0;
	if (r->net || r->lpeer < 0)
		return smpi_pnet_cancel(r);
	o = p2p_peer(r->lpeer);
	if (r->state == SMPI_ST_QUEUED) {
		p2p_unqueue(o, r);
		r->cancel = P2P_CANCEL_OVER;
		r->status.smpi_cancelled = 1;
		r->state = SMPI_ST_DONE;
		return 1;
	}
	r->cancel_rndv = r->state == SMPI_ST_POSTED;
	r->cancel = P2P_CANCEL_ASKED;
	r->withdraw = 0;
	r->rv.cancel = P2P_CANCEL_WAIT;
	if (o->qhead || !p2p_post_cancel(o, r))
		p2p_queue(o, r);
	return 1;
}

int smpi_p2p_cancel(struct smpi_req *r)
{
	if (r->kind == SMPI_REQ_SEND)
		return p2p_cancel_send(r);
	if (r->kind != SMPI_REQ_RECV || r->state != SMPI_ST_POSTED || r->net)
		return 0;
	match_cancel(p2p_match(r->ctx), &r->m);
	smpi_status_set(&r->status, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_SUCCESS, 0);
	r->status.smpi_cancelled = 1;
	r->state = SMPI_ST_DONE;
	return 1;
}

int smpi_p2p_probe(MPI_Comm comm, int source, int tag, MPI_Status *status)
{
	int src = source == MPI_ANY_SOURCE ? MATCH_ANY : comm->group->world[source];
	struct match_entry *e;
	struct p2p_unexp *u;

	smpi_progress();
	e = match_find(p2p_match(comm->ctx), src, tag, 0);
	if (!e)
		return 0;
	u = (struct p2p_unexp *)e;
	if (status)
		smpi_status_set(status, comm->from_world[u->m.src], u->tag, MPI_SUCCESS, u->len);
	return 1;
}

int smpi_p2p_peek(int ctx, int world_src, int *tag)
{
	struct match_entry *e = match_find(p2p_match(ctx), world_src, MPI_ANY_TAG, 0);

	if (!e)
		return 0;
	*tag = ((struct p2p_unexp *)e)->tag;
	return 1;
}

/* Withdrawn sends nobody received are left: their copies stay readable
 * until the barrier that ends MPI_Finalize, after which no receive can
 * come, as eager messages nobody received stay in their rings. */
void smpi_p2p_finalize(void)
{
	unsigned spins = 0;

	while (p2p_queued || p2p_orphans) {
		smpi_progress();
		smpi_spin(&spins);
	}
	if (p2p_net)
		net_quiet();
}
