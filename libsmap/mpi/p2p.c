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
 * Three protocols, by size (SMAP_MPI_EAGER tunes the limit):
 *   inline  <= 40 B    payload inside the slot;
 *   eager   <= limit   payload copied once into the data ring;
 *   rendezvous         the slot carries the sender's buffer and layout;
 *                      the receiver copies straight out of the sender's
 *                      memory into its own buffer (any layouts, dt.c) and
 *                      then sets the sender's done flag.  Synchronous sends
 *                      always take this path: done means matched.
 *
 * Flow control: the receiver publishes how far it has consumed (slots and
 * ring bytes) in its own memory; a sender rereads that only when its cached
 * copy says the queue is full.  A send that finds no room is queued on its
 * request (in order behind earlier ones to the same peer) and posted by a
 * later progress pass, so nonblocking sends never block.  Progress drains
 * every inbox, moving unmatched messages to the unexpected lists (a copy
 * for eager data), which is what keeps a full queue from deadlocking the
 * exchanges MPI programs rely on (both ranks send, then receive).
 */
#include <stdlib.h>
#include <string.h>
#include "impl.h"

#define P2P_NSLOT	64
#define P2P_INLINE	40
#define P2P_LINE	64
#define P2P_EAGER_DEFAULT	(16 << 10)

enum { P2P_MSG_INLINE = 1, P2P_MSG_EAGER, P2P_MSG_RNDV };

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
		struct {
			uint64_t buf, dt, count, done;	/* sender's addresses */
		} rndv;
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
};

/* An unexpected message, waiting for its receive. */
struct p2p_unexp {
	struct match_entry m;
	struct p2p_unexp *next;
	int kind, tag;
	uint64_t len;
	char *data;		/* inline: idata; eager: a malloc'd copy */
	uint64_t buf, dt, count, done;
	char idata[P2P_INLINE];
};

/* What a delivery reads, from a slot or an unexpected message. */
struct p2p_msg {
	int kind, tag;
	uint64_t len;
	const char *data;
	uint64_t buf, dt, count, done;
};

static struct p2p_box *p2p_box;
static struct p2p_out *p2p_out;
static uint64_t *p2p_expect;
static char *p2p_rings;
static int p2p_nranks, p2p_me, p2p_queued;
static uint64_t p2p_eager_max;
static struct match_ctx *p2p_ctx[2 * SMPI_MAX_CTX];
static struct p2p_unexp *p2p_unexp_free;
static struct smpi_req *p2p_orphans;

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
	/* Enough ring for several eager messages per peer, within a budget
	 * that stays modest for 254 ranks. */
	ring = (16ULL << 20) / n;
	if (ring > (256 << 10))
		ring = 256 << 10;
	if (ring < (32 << 10))
		ring = 32 << 10;
	ring = p2p_env("SMAP_MPI_RING", ring);
	ring = p2p_round(ring);
	p2p_eager_max = p2p_env("SMAP_MPI_EAGER", P2P_EAGER_DEFAULT);
	if (p2p_eager_max > ring / 2)
		p2p_eager_max = ring / 2;
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

/* Finds my inbox at dest the first time I send there: dest's p2p_box is
 * set once its MPI_Init passed the start-up barrier. */
static struct p2p_out *p2p_peer(int dest)
{
	struct p2p_out *o = &p2p_out[dest];
	struct p2p_box *box;
	size_t inboxes;

	if (o->in)
		return o;
	box = *(struct p2p_box **)remote_address(dest, &p2p_box);
	box = remote_address(dest, box);
	inboxes = p2p_round(sizeof(struct p2p_box) + p2p_nranks * sizeof(struct p2p_inbox));
	o->ring_bytes = box->ring_bytes;
	o->in = &box->in[p2p_me];
	o->ring = (char *)box + inboxes + p2p_me * o->ring_bytes;
	return o;
}

static struct match_ctx *p2p_match(int ctx)
{
	struct match_ctx *m = p2p_ctx[ctx];

	if (m)
		return m;
	m = malloc(sizeof *m);
	if (!m || match_init(m, p2p_nranks) < 0)
		smpi_fatal("MPI: no memory for the matching lists of context %d", ctx);
	p2p_ctx[ctx] = m;
	return m;
}

/* Packs r's data into dst (len bytes). */
static void p2p_pack(char *dst, const struct smpi_req *r, uint64_t len)
{
	if (dt_is_dense(r->type->dt))
		memcpy(dst, r->buf, len);
	else
		smpi_type_copy(dst, len, MPI_BYTE, r->buf, r->count, r->type);
}

/* Writes r's header (and data) into the next slot at its destination;
 * 0 when the queue or the ring has no room. */
static int p2p_post(struct smpi_req *r)
{
	struct p2p_out *o = p2p_peer(r->lpeer);
	uint64_t seq = o->seq + 1, len = r->count * smpi_type_size(r->type);
	struct p2p_slot *s;
	int kind;

	if (seq - o->consumed > P2P_NSLOT) {
		o->consumed = __atomic_load_n(&o->in->consumed, __ATOMIC_ACQUIRE);
		if (seq - o->consumed > P2P_NSLOT)
			return 0;
	}
	s = &o->in->slot[seq & (P2P_NSLOT - 1)];
	if (r->mode == SMPI_MODE_SYNC || len > p2p_eager_max) {
		kind = P2P_MSG_RNDV;
		r->rdone = 0;
		s->u.rndv.buf = (uintptr_t)r->buf;
		s->u.rndv.dt = dt_is_dense(r->type->dt) ? 0 : (uintptr_t)r->type->dt;
		s->u.rndv.count = r->count;
		s->u.rndv.done = (uintptr_t)&r->rdone;
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
	r->state = kind == P2P_MSG_RNDV ? SMPI_ST_POSTED : SMPI_ST_DONE;
	return 1;
}

/* Copies a message into the receive r and completes it. */
static void p2p_deliver(struct smpi_req *r, int src, const struct p2p_msg *msg)
{
	uint64_t cap = r->count * smpi_type_size(r->type), n = msg->len;
	int err = MPI_SUCCESS;

	if (n > cap) {
		n = cap;
		err = MPI_ERR_TRUNCATE;
	}
	if (msg->kind == P2P_MSG_RNDV) {
		char *sbuf = remote_address(src, (void *)(uintptr_t)msg->buf);
		struct dt_cursor a, b;

		if (!msg->dt) {
			if (dt_is_dense(r->type->dt)) {
				memcpy((void *)r->buf, sbuf, n);
			} else {
				dt_cursor_bytes(&a, sbuf, n);
				dt_cursor_init(&b, r->type->dt, r->buf, r->count);
				dt_copy(&b, &a, n);
			}
		} else {
			dt_cursor_init(&a, remote_address(src, (void *)(uintptr_t)msg->dt), sbuf,
				       msg->count);
			dt_cursor_init(&b, r->type->dt, r->buf, r->count);
			dt_copy(&b, &a, n);
		}
		__atomic_store_n((uint32_t *)remote_address(src, (void *)(uintptr_t)msg->done), 1,
				 __ATOMIC_RELEASE);
	} else if (n) {
		if (dt_is_dense(r->type->dt))
			memcpy((void *)r->buf, msg->data, n);
		else
			smpi_type_copy((void *)r->buf, r->count, r->type, msg->data, n, MPI_BYTE);
	}
	smpi_status_set(&r->status, r->comm->from_local[src], msg->tag, err, n);
	r->state = SMPI_ST_DONE;
	if (r->freed)
		smpi_req_free(r);
}

static struct p2p_unexp *p2p_unexp_get(void)
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

static void p2p_unexp_put(struct p2p_unexp *u)
{
	if (u->kind == P2P_MSG_EAGER)
		free(u->data);
	u->next = p2p_unexp_free;
	p2p_unexp_free = u;
}

/* The message in slot s from src has arrived. */
static void p2p_arrive(int src, const struct p2p_slot *s)
{
	struct match_ctx *m = p2p_match(s->ctx);
	struct match_entry *e = match_arrive(m, src, s->tag);
	struct p2p_inbox *in = &p2p_box->in[src];
	const char *data = s->u.data;
	struct p2p_msg msg;
	struct p2p_unexp *u;

	if (s->kind == P2P_MSG_EAGER)
		data = p2p_rings + src * p2p_box->ring_bytes + s->u.off % p2p_box->ring_bytes;
	if (e) {
		msg.kind = s->kind;
		msg.tag = s->tag;
		msg.len = s->len;
		msg.data = data;
		if (s->kind == P2P_MSG_RNDV) {
			msg.buf = s->u.rndv.buf;
			msg.dt = s->u.rndv.dt;
			msg.count = s->u.rndv.count;
			msg.done = s->u.rndv.done;
		}
		p2p_deliver((struct smpi_req *)e, src, &msg);
	} else {
		u = p2p_unexp_get();
		u->m.src = src;
		u->m.tag = s->tag;
		u->kind = s->kind;
		u->tag = s->tag;
		u->len = s->len;
		u->data = u->idata;
		if (s->kind == P2P_MSG_INLINE) {
			memcpy(u->idata, s->u.data, s->len);
		} else if (s->kind == P2P_MSG_EAGER) {
			u->data = malloc(s->len);
			if (!u->data)
				smpi_fatal("MPI: no memory for an unexpected message of %llu bytes",
					   (unsigned long long)s->len);
			memcpy(u->data, data, s->len);
		} else {
			u->buf = s->u.rndv.buf;
			u->dt = s->u.rndv.dt;
			u->count = s->u.rndv.count;
			u->done = s->u.rndv.done;
		}
		match_keep(m, &u->m);
	}
	if (s->kind == P2P_MSG_EAGER)
		__atomic_store_n(&in->tail, s->u.off + p2p_round(s->len), __ATOMIC_RELEASE);
}

static void p2p_poll(int src)
{
	struct p2p_inbox *in = &p2p_box->in[src];
	uint64_t seq = p2p_expect[src];
	struct p2p_slot *s;

	for (;;) {
		s = &in->slot[seq & (P2P_NSLOT - 1)];
		if (__atomic_load_n(&s->seq, __ATOMIC_ACQUIRE) != (uint32_t)seq)
			break;
		p2p_arrive(src, s);
		__atomic_store_n(&in->consumed, seq, __ATOMIC_RELEASE);
		seq++;
	}
	p2p_expect[src] = seq;
}

/* Posts the queued sends that now fit, in order per destination. */
static void p2p_flush(void)
{
	struct p2p_out *o;
	struct smpi_req *r;
	int d;

	for (d = 0; d < p2p_nranks && p2p_queued; d++) {
		o = &p2p_out[d];
		while ((r = o->qhead) && p2p_post(r)) {
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

/* Freed or buffered sends still in flight: finish them in the background. */
static void p2p_reap(void)
{
	struct smpi_req **pp = &p2p_orphans, *r;

	while ((r = *pp)) {
		if (r->state == SMPI_ST_QUEUED || !smpi_req_done(r)) {
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
		p2p_reap();
}

static void p2p_recv_start(struct smpi_req *r)
{
	struct match_ctx *m = p2p_match(r->ctx);
	int src = r->peer == MPI_ANY_SOURCE ? MATCH_ANY : r->comm->local[r->peer];
	struct match_entry *e = match_find(m, src, r->tag, 1);
	struct p2p_unexp *u;
	struct p2p_msg msg;

	if (!e) {
		r->m.src = src;
		r->m.tag = r->tag;
		r->state = SMPI_ST_POSTED;
		match_post(m, &r->m);
		return;
	}
	u = (struct p2p_unexp *)e;
	msg.kind = u->kind;
	msg.tag = u->tag;
	msg.len = u->len;
	msg.data = u->data;
	msg.buf = u->buf;
	msg.dt = u->dt;
	msg.count = u->count;
	msg.done = u->done;
	p2p_deliver(r, u->m.src, &msg);
	p2p_unexp_put(u);
}

void smpi_p2p_start(struct smpi_req *r)
{
	struct p2p_out *o;

	r->cancelled = 0;
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
	o = &p2p_out[r->lpeer];
	if (!o->qhead && p2p_post(r))
		return;
	r->state = SMPI_ST_QUEUED;
	r->next = NULL;
	if (o->qtail)
		o->qtail->next = r;
	else
		o->qhead = r, p2p_queued++;
	o->qtail = r;
}

int smpi_req_done(struct smpi_req *r)
{
	if (r->state == SMPI_ST_DONE)
		return 1;
	if (r->kind == SMPI_REQ_SEND && r->state == SMPI_ST_POSTED &&
	    __atomic_load_n(&r->rdone, __ATOMIC_ACQUIRE)) {
		r->state = SMPI_ST_DONE;
		return 1;
	}
	return 0;
}

void smpi_req_wait(struct smpi_req *r)
{
	unsigned spins = 0;

	while (!smpi_req_done(r)) {
		smpi_progress();
		if (smpi_req_done(r))
			break;
		smpi_spin(&spins);
	}
}

/* A request nobody will wait for: finished by progress. */
void smpi_p2p_orphan(struct smpi_req *r)
{
	r->freed = 1;
	if (r->state == SMPI_ST_QUEUED)
		return;
	if (r->kind == SMPI_REQ_RECV && r->state == SMPI_ST_POSTED)
		return;
	if (smpi_req_done(r)) {
		smpi_req_free(r);
		return;
	}
	r->next = p2p_orphans;
	p2p_orphans = r;
}

int smpi_p2p_cancel(struct smpi_req *r)
{
	if (r->kind != SMPI_REQ_RECV || r->state != SMPI_ST_POSTED)
		return 0;
	match_cancel(p2p_match(r->ctx), &r->m);
	smpi_status_set(&r->status, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_SUCCESS, 0);
	r->status.smpi_cancelled = 1;
	r->state = SMPI_ST_DONE;
	return 1;
}

int smpi_p2p_probe(MPI_Comm comm, int source, int tag, MPI_Status *status)
{
	int src = source == MPI_ANY_SOURCE ? MATCH_ANY : comm->local[source];
	struct match_entry *e;
	struct p2p_unexp *u;

	smpi_progress();
	e = match_find(p2p_match(comm->ctx), src, tag, 0);
	if (!e)
		return 0;
	u = (struct p2p_unexp *)e;
	if (status)
		smpi_status_set(status, comm->from_local[u->m.src], u->tag, MPI_SUCCESS, u->len);
	return 1;
}

void smpi_p2p_finalize(void)
{
	unsigned spins = 0;

	while (p2p_queued || p2p_orphans) {
		smpi_progress();
		smpi_spin(&spins);
	}
}
