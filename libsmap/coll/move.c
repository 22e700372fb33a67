/*
 * move.c - the collectives that only move data: bcast, gather(v),
 * scatter(v), allgather(v), alltoall(v).
 *
 * Each is one pass of direct copies between the members' own buffers.
 * Whoever posts a buffer by reference waits until every reader's step says
 * COLL_DONE; a contribution of up to COLL_EAGER_MAX bytes is posted by value
 * instead and its owner leaves at once.  Every reader can tell which way a
 * contribution came from the sizes it already knows, so no flag says it.
 */
#include <stdlib.h>
#include <string.h>
#include "impl.h"

/* Block i of a gather/scatter/allgather buffer: uniform, or the v form's
 * (whose arrays a rooted call reads at the root only). */
struct blocks {
	size_t bytes;
	const size_t *counts, *displs;
	int v;
};

static size_t blk_count(const struct blocks *b, int i)
{
	return b->v ? b->counts[i] : b->bytes;
}

static size_t blk_displ(const struct blocks *b, int i)
{
	return b->v ? b->displs[i] : (size_t)i * b->bytes;
}

/* The displacement of member me's block in member q's posted layout. */
static size_t blk_remote_displ(const struct coll_group *g, int q,
			       const struct coll_post *qp, const struct blocks *b)
{
	if (!b->v)
		return (size_t)g->rank * b->bytes;
	return ((const size_t *)coll_at(g, q, qp->vec))[g->rank];
}

static void bcast_local(struct coll_group *g, uint64_t s, void *buf, size_t bytes, int root)
{
	const struct coll_post *rp;

	if (g->rank == root) {
		if (bytes <= COLL_EAGER_MAX) {
			coll_post_value(g, s, buf, bytes);
			return;
		}
		coll_claim(g, s)->buf = buf;
		coll_publish(g, s, COLL_POSTED);
		coll_wait_all(g, s, COLL_DONE);
		return;
	}
	rp = bytes <= COLL_EAGER_MAX ? coll_wait_ahead(g, root, s, COLL_POSTED) :
				       coll_wait(g, root, s, COLL_POSTED);
	coll_copy(buf, coll_at(g, root, rp->buf), bytes);
	coll_publish(g, s, bytes <= COLL_EAGER_MAX ? COLL_POSTED : COLL_DONE);
}

void coll_bcast(struct coll_group *g, void *buf, size_t bytes, int root)
{
	uint64_t s;

	if (coll_is_span(g)) {
		span_bcast(g, buf, bytes, root);
		return;
	}
	if (g->size == 1 || bytes == 0)
		return;
	s = coll_begin(g);
	bcast_local(g, s, buf, bytes, root);
	coll_anchor(g, s);
}

/* Small blocks come by value and the root pulls them; large ones are pushed
 * by their owners straight into the root's buffer. */
static void gather_blocks(struct coll_group *g, const void *sbuf, size_t sbytes,
			  void *rbuf, const struct blocks *b, int root)
{
	struct coll_post *mine;
	char *r = rbuf;
	uint64_t s;

	if (g->size == 1) {
		coll_copy(r + blk_displ(b, 0), sbuf, sbytes);
		return;
	}
	s = coll_begin(g);
	if (g->rank != root) {
		const struct coll_post *rp;

		if (sbytes <= COLL_EAGER_MAX) {
			coll_post_value(g, s, sbuf, sbytes);
			coll_anchor_root(g, s, root);
			return;
		}
		rp = coll_wait(g, root, s, COLL_POSTED);
		coll_copy((char *)coll_at(g, root, rp->buf) + blk_remote_displ(g, root, rp, b),
			  sbuf, sbytes);
		coll_publish(g, s, COLL_DONE);
		coll_anchor_root(g, s, root);
		return;
	}
	mine = coll_claim(g, s);
	mine->buf = rbuf;
	mine->vec = b->displs;
	coll_publish(g, s, COLL_POSTED);
	coll_copy(r + blk_displ(b, root), sbuf, sbytes);
	for (int q = 0; q < g->size; q++) {
		size_t c = blk_count(b, q);

		if (q == root)
			continue;
		if (c <= COLL_EAGER_MAX)
			coll_copy(r + blk_displ(b, q),
				  coll_at(g, q, coll_wait_ahead(g, q, s, COLL_POSTED)->buf), c);
		else
			coll_wait(g, q, s, COLL_DONE);
	}
	g->synced = s;
	coll_anchor_root(g, s, root);
}

void coll_gather(struct coll_group *g, const void *sbuf, void *rbuf,
		 size_t bytes, int root)
{
	struct blocks b = { bytes, NULL, NULL, 0 };

	if (coll_is_span(g)) {
		span_gatherv(g, sbuf, bytes, rbuf, NULL, NULL, bytes, root);
		return;
	}
	if (bytes)
		gather_blocks(g, sbuf, bytes, rbuf, &b, root);
}

void coll_gatherv(struct coll_group *g, const void *sbuf, size_t sbytes,
		  void *rbuf, const size_t *rcounts, const size_t *rdispls,
		  int root)
{
	struct blocks b = { 0, rcounts, rdispls, 1 };

	if (coll_is_span(g)) {
		span_gatherv(g, sbuf, sbytes, rbuf, rcounts, rdispls, 0, root);
		return;
	}
	gather_blocks(g, sbuf, sbytes, rbuf, &b, root);
}

/* Members pull their block from the root's buffer, or from its slot when
 * the whole uniform buffer is small. */
static void scatter_blocks(struct coll_group *g, const void *sbuf,
			   const struct blocks *b, void *rbuf, size_t rbytes,
			   int root)
{
	int byvalue = !b->v && b->bytes * g->size <= COLL_EAGER_MAX;
	const struct coll_post *rp;
	uint64_t s;

	if (g->size == 1) {
		coll_copy(rbuf, (const char *)sbuf + blk_displ(b, 0), rbytes);
		return;
	}
	s = coll_begin(g);
	if (g->rank == root) {
		if (byvalue) {
			coll_post_value(g, s, sbuf, b->bytes * g->size);
		} else {
			struct coll_post *mine = coll_claim(g, s);

			mine->buf = sbuf;
			mine->vec = b->displs;
			coll_publish(g, s, COLL_POSTED);
		}
		coll_copy(rbuf, (const char *)sbuf + blk_displ(b, root), blk_count(b, root));
		if (!byvalue)
			coll_wait_all(g, s, COLL_DONE);
		coll_anchor(g, s);
		return;
	}
	rp = byvalue ? coll_wait_ahead(g, root, s, COLL_POSTED) : coll_wait(g, root, s, COLL_POSTED);
	coll_copy(rbuf, (const char *)coll_at(g, root, rp->buf) + blk_remote_displ(g, root, rp, b),
		  rbytes);
	coll_publish(g, s, byvalue ? COLL_POSTED : COLL_DONE);
	coll_anchor(g, s);
}

void coll_scatter(struct coll_group *g, const void *sbuf, void *rbuf,
		  size_t bytes, int root)
{
	struct blocks b = { bytes, NULL, NULL, 0 };

	if (coll_is_span(g)) {
		span_scatterv(g, sbuf, NULL, NULL, bytes, rbuf, bytes, root);
		return;
	}
	if (bytes)
		scatter_blocks(g, sbuf, &b, rbuf, bytes, root);
}

void coll_scatterv(struct coll_group *g, const void *sbuf,
		   const size_t *scounts, const size_t *sdispls, void *rbuf,
		   size_t rbytes, int root)
{
	struct blocks b = { 0, scounts, sdispls, 1 };

	if (coll_is_span(g)) {
		span_scatterv(g, sbuf, scounts, sdispls, 0, rbuf, rbytes, root);
		return;
	}
	scatter_blocks(g, sbuf, &b, rbuf, rbytes, root);
}

/* Everyone posts its block and pulls everybody else's, starting with the
 * next member so the members do not all read the same one at once. */
static void allgather_blocks(struct coll_group *g, const void *sbuf, void *rbuf,
			     const struct blocks *b)
{
	int me = g->rank, byref = 0;
	size_t mine = blk_count(b, me);
	char *r = rbuf;
	uint64_t s;

	coll_copy(r + blk_displ(b, me), sbuf, mine);
	if (g->size == 1)
		return;
	s = coll_begin(g);
	if (mine <= COLL_EAGER_MAX) {
		coll_post_value(g, s, sbuf, mine);
	} else {
		coll_claim(g, s)->buf = sbuf;
		coll_publish(g, s, COLL_POSTED);
	}
	for (int j = 1; j < g->size; j++) {
		int q = (me + j) % g->size;
		size_t c = blk_count(b, q);

		coll_copy(r + blk_displ(b, q), coll_at(g, q, coll_wait(g, q, s, COLL_POSTED)->buf), c);
		byref |= c > COLL_EAGER_MAX;
	}
	g->synced = s;
	if (byref)
		coll_publish(g, s, COLL_DONE);
	if (mine > COLL_EAGER_MAX)
		coll_wait_all(g, s, COLL_DONE);
}

void coll_allgather(struct coll_group *g, const void *sbuf, void *rbuf,
		    size_t bytes)
{
	struct blocks b = { bytes, NULL, NULL, 0 };

	if (coll_is_span(g)) {
		span_allgatherv(g, sbuf, rbuf, NULL, NULL, bytes);
		return;
	}
	if (bytes)
		allgather_blocks(g, sbuf, rbuf, &b);
}

void coll_allgatherv(struct coll_group *g, const void *sbuf, void *rbuf,
		     const size_t *rcounts, const size_t *rdispls)
{
	struct blocks b = { 0, rcounts, rdispls, 1 };

	if (coll_is_span(g)) {
		span_allgatherv(g, sbuf, rbuf, rcounts, rdispls, 0);
		return;
	}
	allgather_blocks(g, sbuf, rbuf, &b);
}

/* In place, the send data is copied aside first (by value that copy is the
 * slot), since the caller's blocks are overwritten while peers read them. */
void coll_alltoall(struct coll_group *g, const void *sbuf, void *rbuf,
		   size_t bytes)
{
	size_t total = bytes * g->size;
	const char *src = sbuf;
	char *r = rbuf, *aside = NULL;
	int me = g->rank;
	uint64_t s;

	if (coll_is_span(g)) {
		span_alltoallv(g, sbuf, NULL, NULL, rbuf, NULL, NULL, bytes);
		return;
	}
	if (bytes == 0)
		return;
	if (g->size == 1) {
		coll_copy(rbuf, sbuf, bytes);
		return;
	}
	s = coll_begin(g);
	if (total <= COLL_EAGER_MAX) {
		coll_post_value(g, s, sbuf, total);
	} else {
		if (sbuf == rbuf) {
			aside = coll_alloc(total, "alltoall in place");
			coll_copy(aside, rbuf, total);
			src = aside;
		}
		coll_claim(g, s)->buf = src;
		coll_publish(g, s, COLL_POSTED);
	}
	if (!aside)
		coll_copy(r + (size_t)me * bytes, src + (size_t)me * bytes, bytes);
	for (int j = 1; j < g->size; j++) {
		int q = (me + j) % g->size;
		const char *qs = coll_at(g, q, coll_wait(g, q, s, COLL_POSTED)->buf);

		coll_copy(r + (size_t)q * bytes, qs + (size_t)me * bytes, bytes);
	}
	g->synced = s;
	if (total > COLL_EAGER_MAX) {
		coll_publish(g, s, COLL_DONE);
		coll_wait_all(g, s, COLL_DONE);
		free(aside);
	}
}

void coll_alltoallv(struct coll_group *g, const void *sbuf,
		    const size_t *scounts, const size_t *sdispls, void *rbuf,
		    const size_t *rcounts, const size_t *rdispls)
{
	const char *src = sbuf;
	char *r = rbuf, *aside = NULL;
	struct coll_post *mine;
	int me = g->rank;
	uint64_t s;

	if (coll_is_span(g)) {
		span_alltoallv(g, sbuf, scounts, sdispls, rbuf, rcounts, rdispls, 0);
		return;
	}
	if (sbuf == rbuf) {
		size_t extent = 0;

		if (g->size == 1)
			return;
		for (int j = 0; j < g->size; j++)
			if (rdispls[j] + rcounts[j] > extent)
				extent = rdispls[j] + rcounts[j];
		aside = coll_alloc(extent, "alltoallv in place");
		coll_copy(aside, rbuf, extent);
		src = aside;
		sdispls = rdispls;
	} else {
		coll_copy(r + rdispls[me], src + sdispls[me], scounts[me]);
		if (g->size == 1)
			return;
	}
	s = coll_begin(g);
	mine = coll_claim(g, s);
	mine->buf = src;
	mine->vec = sdispls;
	coll_publish(g, s, COLL_POSTED);
	for (int j = 1; j < g->size; j++) {
		int q = (me + j) % g->size;
		const struct coll_post *qp = coll_wait(g, q, s, COLL_POSTED);
		size_t off = ((const size_t *)coll_at(g, q, qp->vec))[me];

		coll_copy(r + rdispls[q], (const char *)coll_at(g, q, qp->buf) + off, rcounts[q]);
	}
	coll_publish(g, s, COLL_DONE);
	coll_wait_all(g, s, COLL_DONE);
	free(aside);
}
