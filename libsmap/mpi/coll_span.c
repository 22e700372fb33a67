/*
 * coll_span.c - the transport of a communicator's span group (collectives
 * across nodes, libsmap/coll/span.c): MPI point-to-point between members
 * on the communicator's library context, invisible to the user's messages
 * and reaching members on this node (SMARTMAP) and on others (network).
 */
#include <stdlib.h>
#include <string.h>
#include "impl.h"
#include "../coll/coll.h"
#include "../net/net.h"

/* The library context's tag 0 is communicator construction's and the
 * nonblocking collectives' are even: a call's messages take an odd tag, 1
 * when it is not described, else with its mark (coll.h). */
#define SPAN_TAG	1
#define SPAN_MASK	0x3fffffffu
/* Spins of a receive before it looks for a differently marked message. */
#define SPAN_LOOK	1024

static int span_tag(MPI_Comm c)
{
	return (int)((coll_span_mark(c->coll) & SPAN_MASK) << 1) | SPAN_TAG;
}

static int span_ctx(MPI_Comm c)
{
	return c->ctx + SMPI_MAX_CTX;
}

/* Member q's recent descriptions, through SMARTMAP or the network: 0, or
 * -1 when q's node has left (q found the disagreement too, and is ending
 * the job). */
static int span_descs(MPI_Comm c, int q, struct coll_desc *d)
{
	unsigned w = (unsigned)c->group->world[q], per = (unsigned)smap_size();
	struct net_op op = { .maylose = 1 };

	if ((int)(w / per) == smap_node()) {
		memcpy(d, remote_address(w % per, coll_span_descs), sizeof(coll_span_descs));
		return 0;
	}
	net_cmd(&op, SNOP_GETREQ, 0, 0, w, d, (uintptr_t)coll_span_descs, sizeof(coll_span_descs),
		0, 0);
	return net_wait(&op) ? -1 : 0;
}

static void span_start(MPI_Comm c, struct smpi_req *r, int kind, const void *buf, size_t len,
		       int peer)
{
	smpi_req_init(r, kind, SMPI_MODE_STD, buf, (int64_t)len, MPI_BYTE, peer, span_tag(c), c);
	r->ctx = span_ctx(c);
	smpi_p2p_start(r);
}

/*
 * The message from member q that a receive marked `tag` waits for is not
 * the next one q sent here: the two disagree on the call.  Ends the call,
 * unless they agree after all; then the receive takes the message as q
 * marked it.
 */
static int span_differs(MPI_Comm c, struct smpi_req *r, int q, int theirs)
{
	struct coll_desc d[COLL_SPAN_DESCS];
	const void *desc = NULL;

	if (span_descs(c, q, d))
		return -1;
	for (int i = 0; i < COLL_SPAN_DESCS; i++)
		if (d[i].hash && (int)((d[i].hash >> 32 & SPAN_MASK) << 1 | SPAN_TAG) == theirs)
			desc = d[i].desc;
	/* The call's other requests are in flight and nothing could wait
	 * for them after a return: a disagreement across nodes ends the job
	 * whatever the error handler. */
	smpi_p2p_cancel(r);
	smpi_coll_jump = NULL;
	coll_span_mismatch(c->coll, q, desc);
	smpi_req_init(r, SMPI_REQ_RECV, SMPI_MODE_STD, r->buf, r->count, MPI_BYTE, q, theirs, c);
	r->ctx = span_ctx(c);
	smpi_p2p_start(r);
	return 0;
}

/* Waits for r; a receive from member `from` (>= 0) meanwhile looks at what
 * from has sent, when checking. */
static void span_wait(MPI_Comm c, struct smpi_req *r, int from)
{
	unsigned spins = 0, looks = 0;
	int tag, look = 1;

	if (from < 0 || r->tag == SPAN_TAG) {
		smpi_req_wait(r);
		return;
	}
	while (!smpi_req_done(r)) {
		smpi_progress();
		if (smpi_req_done(r))
			break;
		if (look && ++looks % SPAN_LOOK == 0 &&
		    smpi_p2p_peek(span_ctx(c), c->group->world[from], &tag) &&
		    (tag & 1) && tag != r->tag)
			look = span_differs(c, r, from, tag) == 0;
		smpi_spin(&spins);
	}
}


static void span_send(void *ctx, int to, const void *buf, size_t len)
{
	MPI_Comm c = ctx;

	smpi_p2p_send(buf, (int64_t)len, MPI_BYTE, to, span_tag(c), c, span_ctx(c),
		      SMPI_MODE_STD);
}

static void span_recv(void *ctx, int from, void *buf, size_t len)
{
	MPI_Comm c = ctx;
	struct smpi_req r;

	span_start(c, &r, SMPI_REQ_RECV, buf, len, from);
	span_wait(c, &r, from);
}

static void span_sendrecv(void *ctx, int to, const void *sbuf, size_t slen, int from, void *rbuf,
			  size_t rlen)
{
	MPI_Comm c = ctx;
	struct smpi_req s, r;

	span_start(c, &r, SMPI_REQ_RECV, rbuf, rlen, from);
	span_start(c, &s, SMPI_REQ_SEND, sbuf, slen, to);
	smpi_req_wait(&s);
	span_wait(c, &r, from);
}

static void span_exchange(void *ctx, int n, const int *peer, const void *const *sbuf,
			  const size_t *slen, void *const *rbuf, const size_t *rlen)
{
	MPI_Comm c = ctx;
	struct smpi_req *rq = malloc(2 * (size_t)n * sizeof(*rq));

	if (!rq)
		smpi_fatal("MPI: no memory for an exchange with %d ranks across nodes", n);
	for (int i = 0; i < n; i++)
		span_start(c, &rq[i], SMPI_REQ_RECV, rbuf[i], rlen[i], peer[i]);
	for (int i = 0; i < n; i++)
		span_start(c, &rq[n + i], SMPI_REQ_SEND, sbuf[i], slen[i], peer[i]);
	for (int i = 0; i < n; i++)
		span_wait(c, &rq[i], peer[i]);
	for (int i = n; i < 2 * n; i++)
		smpi_req_wait(&rq[i]);
	free(rq);
}

/* A started send and receive (post); either may be absent. */
struct span_pair {
	struct smpi_req recv, send;
	int from, to;
};

static void *span_post(void *ctx, int to, const void *sbuf, size_t slen, int from, void *rbuf,
		       size_t rlen)
{
	MPI_Comm c = ctx;
	struct span_pair *p = malloc(sizeof(*p));

	if (!p)
		smpi_fatal("MPI: no memory for a collective's exchange across nodes");
	p->from = from;
	p->to = to;
	if (from >= 0)
		span_start(c, &p->recv, SMPI_REQ_RECV, rbuf, rlen, from);
	if (to >= 0)
		span_start(c, &p->send, SMPI_REQ_SEND, sbuf, slen, to);
	return p;
}

static void span_complete(void *ctx, void *h)
{
	struct span_pair *p = h;

	if (p->from >= 0)
		span_wait(ctx, &p->recv, p->from);
	if (p->to >= 0)
		smpi_req_wait(&p->send);
	free(p);
}

struct coll_group *smpi_coll_span(MPI_Comm comm)
{
	struct coll_transport t = { span_send, span_recv, span_sendrecv, comm, NULL,
				    span_exchange, span_post, span_complete };
	struct coll_group *g = NULL;
	int *host = malloc(comm->size * sizeof(int));

	if (host) {
		/* Ranks are node-major: world rank w sits on node w / smap_size(). */
		for (int i = 0; i < comm->size; i++)
			host[i] = comm->group->world[i] / smap_size();
		t.host = host;
		g = coll_span_create(comm->size, comm->rank, &t);
		free(host);
	}
	if (!g)
		smpi_fatal("MPI: no memory for a communicator of %d ranks across nodes", comm->size);
	return g;
}
