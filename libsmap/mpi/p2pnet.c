/*
 * p2pnet.c - point-to-point with ranks on other nodes, through the node's
 * network engine (libsmap/net, docs/network.md).
 *
 * Two protocols (seeds/001):
 *   eager       up to net_eager_max() bytes (one frame's payload): the
 *               message is copied once into the bounce ring and is
 *               complete for its sender at once; the engine puts it in
 *               the receiver's inbox, from where it is matched, and copied
 *               into the receive buffer (or kept, unexpected);
 *   rendezvous  larger messages and every synchronous send: an announce
 *               (RTS) goes to the receiver's inbox; once matched, the
 *               receiver's engine fetches the data straight from the
 *               sender's buffer into the posted one, and the sender's send
 *               completes when its engine has served that fetch.
 * Incoming messages meet the same matching engine as on-node ones, with
 * sources named by world rank: MPI_ANY_SOURCE sees both, and per-source
 * order holds because each sender's messages come through one ordered
 * channel.  Derived datatypes are packed (sender) or unpacked (receiver)
 * around the network, which moves contiguous bytes.
 *
 * MPI_Cancel of a rendezvous: the sender asks the receiver in a message on
 * a context no communicator has (the RTS carries the sender's name for
 * the send: a number it never reuses, where a request's address comes
 * back for the next send); the receiver, taking its inbox in
 * order, finds the announce unexpected or matched already.  If unexpected
 * it drops it and fetches none of it, which completes the sender's RTS
 * as usual (the engine is then done with the buffer); either way it
 * answers in another such message.  The send completes once both the
 * answer and the RTS's end have come, cancelled or not.  An eager send
 * sent on a request (its name) is asked back the same way: complete for
 * its caller when it left, it is not again until the answer comes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "impl.h"
#include "p2p.h"

static int pnet_dense(MPI_Datatype type)
{
	return dt_is_dense(type->dt);
}

/* The message as contiguous bytes: buf itself, or a malloc'd packing. */
static const void *pnet_pack(const void *buf, int64_t count, MPI_Datatype type, uint64_t len,
			     void **packed)
{
	*packed = NULL;
	if (pnet_dense(type) || !len)
		return buf;
	*packed = malloc(len);
	if (!*packed)
		smpi_fatal("MPI: no memory to pack a message of %llu bytes", (unsigned long long)len);
	smpi_type_copy(*packed, len, MPI_BYTE, buf, count, type);
	return *packed;
}

/* Whether the n bytes of count elements of type at buf are rows the
 * engine can gather or place itself (dt_rows: the first at *at), so a
 * rendezvous moves them with no packing on that side. */
static int pnet_rows(const void *buf, MPI_Datatype type, int64_t count, uint64_t n,
		     uint64_t *row, uint64_t *stride, void **at)
{
	uint64_t rows;
	int64_t first;

	if (!n || !dt_rows(type->dt, count, row, stride, &rows, &first) || n % *row ||
	    *stride >= (1ull << 32))
		return 0;
	*at = (char *)buf + first;
	return 1;
}

static void pnet_inbox(const struct snet_inrec *rec, const void *payload);

/* The contexts of MPI_Cancel's messages: no communicator's (those are
 * below 2 * SMPI_MAX_CTX). */
enum { PNET_CTX_CANCEL = 0xfff0, PNET_CTX_ANSWER = 0xfff1 };
_Static_assert(2 * SMPI_MAX_CTX <= PNET_CTX_CANCEL, "cancel contexts are no communicator's");

struct pnet_cancel {
	uint64_t req;		/* the sender's request */
	uint64_t name;		/* the send's name, as its message carried it */
	uint64_t arg;		/* CANCEL: the message's context; ANSWER: P2P_CANCEL_* */
};

/* Names of this rank's sends on requests (0: none). */
static uint64_t pnet_names;

int smpi_pnet_init(void)
{
	if (smap_nnodes() < 2 || net_init() < 0)
		return -1;
	net_set_inbox(pnet_inbox);
	return 0;
}

static int pnet_eager(uint64_t len, int mode)
{
	return mode != SMPI_MODE_SYNC && len <= net_eager_max();
}

/* Where an eager message is packed: one buffer kept for the rank's life,
 * as large as the largest so far (a fresh heap block per message would
 * fault its pages in again each time in host mode), or a block of its
 * own while that one is in use (a send from inside progress). */
static struct {
	char *buf;
	uint64_t len;
	int busy;
} pnet_scratch;

/* name: the sender's for it (its request), or 0 (none: never cancelled). */
static void pnet_send_eager(const void *buf, int64_t count, MPI_Datatype type, uint64_t len,
			    uint32_t dst, int tag, int ctx, uint64_t name)
{
	void *packed = NULL;
	const void *data = buf;

	if (!pnet_dense(type) && len && !pnet_scratch.busy) {
		if (len > pnet_scratch.len) {
			free(pnet_scratch.buf);
			pnet_scratch.buf = malloc(len);
			pnet_scratch.len = pnet_scratch.buf ? len : 0;
			if (!pnet_scratch.buf)
				smpi_fatal("MPI: no memory to pack a message of %llu bytes",
					   (unsigned long long)len);
		}
		smpi_type_copy(pnet_scratch.buf, len, MPI_BYTE, buf, count, type);
		data = pnet_scratch.buf;
		pnet_scratch.busy = 1;
	} else {
		data = pnet_pack(buf, count, type, len, &packed);
	}
	net_cmd_async(SNOP_MSG, 0, (uint32_t)ctx, dst, data, 0, len, tag, (int64_t)name,
		      "an MPI message");
	if (data == pnet_scratch.buf)
		pnet_scratch.busy = 0;
	free(packed);
}

/* A cancelled send's answer and its RTS's end have both come. */
static void pnet_cancel_over(struct smpi_req *r)
{
	r->cancel = P2P_CANCEL_OVER;
	r->status.smpi_cancelled = r->rv.cancel == P2P_CANCEL_REMOVED;
	r->state = SMPI_ST_DONE;
}

static void pnet_send_done(struct net_op *op)
{
	struct smpi_req *r = op->arg;

	free(r->packed);
	r->packed = NULL;
	if (op->status < 0)
		r->status.MPI_ERROR = MPI_ERR_OTHER;
	r->rts_served = 1;
	if (r->cancel != P2P_CANCEL_ASKED)
		r->state = SMPI_ST_DONE;
	else if (r->rv.cancel != P2P_CANCEL_WAIT)
		pnet_cancel_over(r);
}

/* A rendezvous not fetched yet, or an eager send (done for its caller, and
 * now not until the answer comes). */
int smpi_pnet_cancel(struct smpi_req *r)
{
	struct pnet_cancel c = { (uintptr_t)r, r->sseq, (uint64_t)r->ctx };

	if (r->state == SMPI_ST_POSTED ? r->rts_served : r->state != SMPI_ST_DONE)
		return 0;
	r->cancel = P2P_CANCEL_ASKED;
	r->rv.cancel = P2P_CANCEL_WAIT;
	r->net = 1;
	r->state = SMPI_ST_POSTED;
	net_cmd_async(SNOP_MSG, 0, PNET_CTX_CANCEL, (uint32_t)r->comm->group->world[r->peer], &c, 0,
		      sizeof(c), 0, 0, "MPI_Cancel");
	return 1;
}

void smpi_pnet_send(struct smpi_req *r)
{
	uint64_t len = r->count * smpi_type_size(r->type);
	uint32_t dst = (uint32_t)r->comm->group->world[r->peer];
	const void *data;
	uint64_t row, stride;
	void *at;

	r->withdraw = 0;
	r->rts_served = 0;
	r->sseq = ++pnet_names;
	if (pnet_eager(len, r->mode)) {
		pnet_send_eager(r->buf, r->count, r->type, len, dst, r->tag, r->ctx, r->sseq);
		r->rts_served = 1;	/* no RTS to wait for, if cancelled */
		r->state = SMPI_ST_DONE;
		return;
	}
	r->net = 1;
	r->state = SMPI_ST_POSTED;
	memset(&r->nop, 0, sizeof(r->nop));
	r->nop.done = pnet_send_done;
	r->nop.arg = r;
	/* Its name for the receiver, should MPI_Cancel ask for it back. */
	if (!pnet_dense(r->type) && pnet_rows(r->buf, r->type, r->count, len, &row, &stride, &at)) {
		r->packed = NULL;
		net_cmd_local_rows(&r->nop, SNOP_RTS, (uint32_t)r->ctx, dst, at, len, r->tag,
				   (int64_t)r->sseq, row, stride);
		return;
	}
	data = pnet_pack(r->buf, r->count, r->type, len, &r->packed);
	net_cmd(&r->nop, SNOP_RTS, 0, (uint32_t)r->ctx, dst, data, 0, len, r->tag,
		(int64_t)r->sseq);
}

int smpi_pnet_send_now(const void *buf, int64_t count, MPI_Datatype type, int peer, int tag,
		       MPI_Comm comm, int ctx, int mode)
{
	uint64_t len = count * smpi_type_size(type);

	if (!pnet_eager(len, mode))
		return 0;
	pnet_send_eager(buf, count, type, len, (uint32_t)comm->group->world[peer], tag, ctx, 0);
	return 1;
}

void smpi_pnet_send_blocking(const void *buf, int64_t count, MPI_Datatype type, int peer,
			     int tag, MPI_Comm comm, int ctx, int mode)
{
	struct smpi_req r;

	if (smpi_pnet_send_now(buf, count, type, peer, tag, comm, ctx, mode))
		return;
	smpi_req_init(&r, SMPI_REQ_SEND, mode, buf, count, type, peer, tag, comm);
	r.ctx = ctx;
	smpi_pnet_send(&r);
	smpi_req_wait(&r);
}

/* ---- receiving ---- */

/* Fetching none of world rank src's RTS completes its send. */
static void pnet_serve_nothing(uint32_t src, uint64_t rts, const char *what)
{
	static char nothing;

	net_cmd_async(SNOP_GETREQ, 0, 0, src, &nothing, 0, 0, (int64_t)rts, 0, what);
}

static void pnet_recv_done(struct net_op *op)
{
	struct smpi_req *r = op->arg;
	int err = r->status.MPI_ERROR;

	/* The engine refused the fetch before asking for anything (a buffer
	 * this rank cannot write): the receive fails, and the sender, which
	 * would wait for a fetch forever, is released. */
	if (op->status == -EFAULT || op->status == -EINVAL) {
		err = op->status == -EFAULT ? MPI_ERR_BUFFER : MPI_ERR_OTHER;
		pnet_serve_nothing((uint32_t)r->status.MPI_SOURCE, r->sseq, "MPI_Recv");
	} else if (op->status < 0) {
		err = MPI_ERR_OTHER;
	}
	if (r->packed) {
		smpi_type_copy((void *)r->buf, r->count, r->type, r->packed, op->len, MPI_BYTE);
		free(r->packed);
		r->packed = NULL;
	}
	r->net = 0;
	p2p_complete(r, r->status.MPI_SOURCE, r->status.MPI_TAG, err, op->len);
}

/* A message from world rank src meets the receive r. */
static void pnet_take(struct smpi_req *r, int kind, int src, int tag, uint64_t len,
		      const void *data, uint64_t rts)
{
	uint64_t cap = r->count * smpi_type_size(r->type), n = len, row, stride;
	int err = MPI_SUCCESS, rows;
	void *dst;

	if (n > cap) {
		n = cap;
		err = MPI_ERR_TRUNCATE;
	}
	if (kind == P2P_MSG_NET_EAGER) {
		if (pnet_dense(r->type))
			memcpy((void *)r->buf, data, n);
		else if (n)
			smpi_type_copy((void *)r->buf, r->count, r->type, data, n, MPI_BYTE);
		p2p_complete(r, src, tag, err, n);
		return;
	}
	/* Rendezvous: the engine fetches the data, even none, which is what
	 * completes the sender. */
	dst = (void *)r->buf;
	r->packed = NULL;
	rows = !pnet_dense(r->type) && pnet_rows(r->buf, r->type, r->count, n, &row, &stride, &dst);
	if (!pnet_dense(r->type) && n && !rows) {
		r->packed = malloc(n);
		if (!r->packed)
			smpi_fatal("MPI: no memory to unpack a message of %llu bytes",
				   (unsigned long long)n);
		dst = r->packed;
	}
	r->status.MPI_SOURCE = src;	/* world rank until p2p_complete */
	r->status.MPI_TAG = tag;
	r->status.MPI_ERROR = err;
	/* A receive that met the RTS as it started is pending until then. */
	r->state = SMPI_ST_POSTED;
	r->net = 1;
	memset(&r->nop, 0, sizeof(r->nop));
	r->nop.done = pnet_recv_done;
	r->nop.arg = r;
	r->sseq = rts;
	if (rows)
		net_cmd_local_rows(&r->nop, SNOP_GETREQ, 0, (uint32_t)src, dst, n, (int64_t)rts, 0,
				   row, stride);
	else
		net_cmd(&r->nop, SNOP_GETREQ, 0, 0, (uint32_t)src, dst, 0, n, (int64_t)rts, 0);
}

void smpi_pnet_deliver(struct smpi_req *r, struct p2p_unexp *u)
{
	pnet_take(r, u->kind, u->m.src, u->tag, u->len, u->data, u->rts);
}

static int pnet_is_sent(const struct match_entry *e, const void *name)
{
	const struct p2p_unexp *u = (const struct p2p_unexp *)e;

	return (u->kind == P2P_MSG_NET_RTS || u->kind == P2P_MSG_NET_EAGER) &&
	       u->seq == *(const uint64_t *)name;
}

/* World rank src asks for its message back (c: its request and the
 * context). */
static void pnet_cancel_asked(uint32_t src, const struct pnet_cancel *c)
{
	struct pnet_cancel a = { c->req, c->name, P2P_CANCEL_TOO_LATE };
	struct match_entry *e = NULL;
	struct p2p_unexp *u;

	if (c->arg < 2 * SMPI_MAX_CTX && p2p_match((int)c->arg)->nunexp)
		e = match_drop(p2p_match((int)c->arg), (int)src, pnet_is_sent, &c->name);
	if (e) {
		u = (struct p2p_unexp *)e;
		/* Fetching none of an RTS completes the sender's. */
		if (u->kind == P2P_MSG_NET_RTS)
			pnet_serve_nothing(src, u->rts, "MPI_Cancel");
		p2p_unexp_put(u);
		a.arg = P2P_CANCEL_REMOVED;
	}
	net_cmd_async(SNOP_MSG, 0, PNET_CTX_ANSWER, src, &a, 0, sizeof(a), 0, 0, "MPI_Cancel");
}

/* The answer to this rank's MPI_Cancel of a request still waiting for it. */
static void pnet_cancel_answer(const struct pnet_cancel *a)
{
	struct smpi_req *r = (struct smpi_req *)(uintptr_t)a->req;

	if (!smpi_live(r, SMPI_LIVE_REQ) || r->cancel != P2P_CANCEL_ASKED || r->sseq != a->name ||
	    (a->arg != P2P_CANCEL_REMOVED && a->arg != P2P_CANCEL_TOO_LATE))
		return;
	r->rv.cancel = (uint32_t)a->arg;
	if (r->rts_served)
		pnet_cancel_over(r);
}

static void pnet_inbox(const struct snet_inrec *rec, const void *payload)
{
	int kind = rec->op == SNOP_MSG ? P2P_MSG_NET_EAGER : P2P_MSG_NET_RTS;
	struct pnet_cancel c;
	struct match_ctx *m;
	struct smpi_req *r;
	struct p2p_unexp *u;

	if ((rec->ctx == PNET_CTX_CANCEL || rec->ctx == PNET_CTX_ANSWER) &&
	    kind == P2P_MSG_NET_EAGER && rec->len == sizeof(c)) {
		memcpy(&c, payload, sizeof(c));
		if (rec->ctx == PNET_CTX_CANCEL)
			pnet_cancel_asked(rec->src, &c);
		else
			pnet_cancel_answer(&c);
		return;
	}
	if (rec->ctx >= 2 * SMPI_MAX_CTX)
		return;
	m = p2p_match((int)rec->ctx);
	r = (struct smpi_req *)match_arrive(m, (int)rec->src, (int)rec->tag);
	if (r) {
		pnet_take(r, kind, (int)rec->src, (int)rec->tag, rec->len, payload, rec->id);
		return;
	}
	u = p2p_unexp_get();
	u->m.src = (int)rec->src;
	u->m.tag = (int)rec->tag;
	u->kind = kind;
	u->tag = (int)rec->tag;
	u->len = rec->len;
	u->data = NULL;
	u->seq = (uint64_t)rec->seq;
	u->rts = rec->id;
	if (kind == P2P_MSG_NET_EAGER) {
		u->data = malloc(rec->len ? rec->len : 1);
		if (!u->data)
			smpi_fatal("MPI: no memory for an unexpected message of %llu bytes",
				   (unsigned long long)rec->len);
		memcpy(u->data, payload, rec->len);
	}
	match_keep(m, &u->m);
}
