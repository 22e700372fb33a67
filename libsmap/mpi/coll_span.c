/*
 * coll_span.c - the transport of a communicator's span group (collectives
 * across nodes, libsmap/coll/span.c): MPI point-to-point between members
 * on the communicator's library context, invisible to the user's messages
 * and reaching members on this node (SMARTMAP) and on others (network).
 */
#include <stdlib.h>
#include "impl.h"
#include "../coll/coll.h"

/* The library context's tag 0 is communicator construction's. */
#define SPAN_TAG	1

static void span_send(void *ctx, int to, const void *buf, size_t len)
{
	MPI_Comm c = ctx;

	smpi_p2p_send(buf, (int64_t)len, MPI_BYTE, to, SPAN_TAG, c, c->ctx + SMPI_MAX_CTX,
		      SMPI_MODE_STD);
}

static void span_recv(void *ctx, int from, void *buf, size_t len)
{
	MPI_Comm c = ctx;
	MPI_Status st;

	smpi_p2p_recv(buf, (int64_t)len, MPI_BYTE, from, SPAN_TAG, c, c->ctx + SMPI_MAX_CTX, &st);
}

static void span_sendrecv(void *ctx, int to, const void *sbuf, size_t slen, int from, void *rbuf,
			  size_t rlen)
{
	MPI_Comm c = ctx;
	struct smpi_req s, r;

	smpi_req_init(&r, SMPI_REQ_RECV, SMPI_MODE_STD, rbuf, (int64_t)rlen, MPI_BYTE, from,
		      SPAN_TAG, c);
	smpi_req_init(&s, SMPI_REQ_SEND, SMPI_MODE_STD, sbuf, (int64_t)slen, MPI_BYTE, to,
		      SPAN_TAG, c);
	r.ctx = s.ctx = c->ctx + SMPI_MAX_CTX;
	smpi_p2p_start(&r);
	smpi_p2p_start(&s);
	smpi_req_wait(&s);
	smpi_req_wait(&r);
}

static void span_exchange(void *ctx, int n, const int *peer, const void *const *sbuf,
			  const size_t *slen, void *const *rbuf, const size_t *rlen)
{
	MPI_Comm c = ctx;
	struct smpi_req *rq = malloc(2 * (size_t)n * sizeof(*rq));

	if (!rq)
		smpi_fatal("MPI: no memory for an exchange with %d ranks across nodes", n);
	for (int i = 0; i < n; i++) {
		smpi_req_init(&rq[i], SMPI_REQ_RECV, SMPI_MODE_STD, rbuf[i], (int64_t)rlen[i],
			      MPI_BYTE, peer[i], SPAN_TAG, c);
		rq[i].ctx = c->ctx + SMPI_MAX_CTX;
		smpi_p2p_start(&rq[i]);
	}
	for (int i = 0; i < n; i++) {
		smpi_req_init(&rq[n + i], SMPI_REQ_SEND, SMPI_MODE_STD, sbuf[i], (int64_t)slen[i],
			      MPI_BYTE, peer[i], SPAN_TAG, c);
		rq[n + i].ctx = c->ctx + SMPI_MAX_CTX;
		smpi_p2p_start(&rq[n + i]);
	}
	for (int i = 0; i < 2 * n; i++)
		smpi_req_wait(&rq[i]);
	free(rq);
}

/* A started send and receive (post); either may be absent. */
struct span_pair {
	struct smpi_req rq[2];
	int n;
};

static void *span_post(void *ctx, int to, const void *sbuf, size_t slen, int from, void *rbuf,
		       size_t rlen)
{
	MPI_Comm c = ctx;
	struct span_pair *p = malloc(sizeof(*p));

	if (!p)
		smpi_fatal("MPI: no memory for a collective's exchange across nodes");
	p->n = 0;
	if (from >= 0)
		smpi_req_init(&p->rq[p->n++], SMPI_REQ_RECV, SMPI_MODE_STD, rbuf, (int64_t)rlen,
			      MPI_BYTE, from, SPAN_TAG, c);
	if (to >= 0)
		smpi_req_init(&p->rq[p->n++], SMPI_REQ_SEND, SMPI_MODE_STD, sbuf, (int64_t)slen,
			      MPI_BYTE, to, SPAN_TAG, c);
	for (int i = 0; i < p->n; i++) {
		p->rq[i].ctx = c->ctx + SMPI_MAX_CTX;
		smpi_p2p_start(&p->rq[i]);
	}
	return p;
}

static void span_complete(void *ctx, void *h)
{
	struct span_pair *p = h;

	(void)ctx;
	for (int i = 0; i < p->n; i++)
		smpi_req_wait(&p->rq[i]);
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
