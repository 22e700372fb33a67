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
 */
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

static void pnet_inbox(const struct snet_inrec *rec, const void *payload);

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

static void pnet_send_eager(const void *buf, int64_t count, MPI_Datatype type, uint64_t len,
			    uint32_t dst, int tag, int ctx)
{
	void *packed;
	const void *data = pnet_pack(buf, count, type, len, &packed);

	net_cmd_async(SNOP_MSG, 0, (uint32_t)ctx, dst, data, 0, len, tag, 0, "an MPI message");
	free(packed);
}

static void pnet_send_done(struct net_op *op)
{
	struct smpi_req *r = op->arg;

	free(r->packed);
	r->packed = NULL;
	if (op->status < 0)
		r->status.MPI_ERROR = MPI_ERR_OTHER;
	r->state = SMPI_ST_DONE;
}

void smpi_pnet_send(struct smpi_req *r)
{
	uint64_t len = r->count * smpi_type_size(r->type);
	uint32_t dst = (uint32_t)r->comm->group->world[r->peer];
	const void *data;

	r->withdraw = 0;
	if (pnet_eager(len, r->mode)) {
		pnet_send_eager(r->buf, r->count, r->type, len, dst, r->tag, r->ctx);
		r->state = SMPI_ST_DONE;
		return;
	}
	data = pnet_pack(r->buf, r->count, r->type, len, &r->packed);
	r->net = 1;
	r->state = SMPI_ST_POSTED;
	memset(&r->nop, 0, sizeof(r->nop));
	r->nop.done = pnet_send_done;
	r->nop.arg = r;
	net_cmd(&r->nop, SNOP_RTS, 0, (uint32_t)r->ctx, dst, data, 0, len, r->tag, 0);
}

int smpi_pnet_send_now(const void *buf, int64_t count, MPI_Datatype type, int peer, int tag,
		       MPI_Comm comm, int ctx, int mode)
{
	uint64_t len = count * smpi_type_size(type);

	if (!pnet_eager(len, mode))
		return 0;
	pnet_send_eager(buf, count, type, len, (uint32_t)comm->group->world[peer], tag, ctx);
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

static void pnet_recv_done(struct net_op *op)
{
	struct smpi_req *r = op->arg;
	int err = r->status.MPI_ERROR;

	if (op->status < 0)
		err = MPI_ERR_OTHER;
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
	uint64_t cap = r->count * smpi_type_size(r->type), n = len;
	int err = MPI_SUCCESS;
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
	if (!pnet_dense(r->type) && n) {
		r->packed = malloc(n);
		if (!r->packed)
			smpi_fatal("MPI: no memory to unpack a message of %llu bytes",
				   (unsigned long long)n);
		dst = r->packed;
	}
	r->status.MPI_SOURCE = src;	/* world rank until p2p_complete */
	r->status.MPI_TAG = tag;
	r->status.MPI_ERROR = err;
	r->net = 1;
	memset(&r->nop, 0, sizeof(r->nop));
	r->nop.done = pnet_recv_done;
	r->nop.arg = r;
	net_cmd(&r->nop, SNOP_GETREQ, 0, 0, (uint32_t)src, dst, 0, n, (int64_t)rts, 0);
}

void smpi_pnet_deliver(struct smpi_req *r, struct p2p_unexp *u)
{
	pnet_take(r, u->kind, u->m.src, u->tag, u->len, u->data, u->rts);
}

static void pnet_inbox(const struct snet_inrec *rec, const void *payload)
{
	int kind = rec->op == SNOP_MSG ? P2P_MSG_NET_EAGER : P2P_MSG_NET_RTS;
	struct match_ctx *m;
	struct smpi_req *r;
	struct p2p_unexp *u;

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
