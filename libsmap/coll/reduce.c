/*
 * reduce.c - the reductions: reduce (by value, parallel, serial chain),
 * allreduce, reduce_scatter, scan and exscan.
 *
 * Every fold evaluates x0 op (x1 op (... op xk)) with the operator's left
 * operand as `in` (coll.h), so results are the same on every member and in
 * every run.  Large vectors go in chunks of COLL_CHUNK bytes: folds run
 * straight into the result (through a cache-resident accumulator when the
 * result is an input too), and chains hand partial results on chunk by
 * chunk so their members work at the same time.
 */
#include <stdlib.h>
#include <string.h>
#include "impl.h"

#define COLL_CHUNK_BYTES	(16 * 1024)
/* An allreduce's members announce their results in larger chunks: each
 * announcement is a cache line the others poll, and 2 ranks' 1 MiB
 * allreduce took 62 us in 16 KiB chunks, 52 in 64 KiB, no less beyond
 * (docs/performance/allreduce-fused-2026-11-29.txt). */
#define COLL_AR_CHUNK_BYTES	(64 * 1024)
/* Chunks of partial results a chain member keeps for its successor. */
#define COLL_RING	4

static size_t elems_in(size_t bytes, const struct coll_op *op)
{
	size_t n = bytes / op->size;

	return n ? n : 1;
}

static size_t chunk_elems(const struct coll_op *op)
{
	return elems_in(COLL_CHUNK_BYTES, op);
}

static size_t chunks(size_t count, size_t per)
{
	return (count + per - 1) / per;
}

/* Member p's share of count elements starts here; the shares differ by at
 * most one element. */
static size_t slice_lo(size_t count, int n, int p)
{
	size_t r = count % (size_t)n;

	return (size_t)p * (count / (size_t)n) + ((size_t)p < r ? (size_t)p : r);
}

/* acc = src[0] op (src[1] op (... op src[n-1])) over elements [off, off+cnt). */
static void fold(void *acc, const void *const *src, int n, size_t off, size_t cnt,
		 const struct coll_op *op)
{
	size_t sz = op->size;
	int j = n - 2;

	if (n == 1) {
		coll_copy(acc, (const char *)src[0] + off * sz, cnt * sz);
		return;
	}
	coll_apply3(op, acc, (const char *)src[j] + off * sz, (const char *)src[n - 1] + off * sz,
		    cnt);
	while (j-- > 0)
		op->fn(acc, (const char *)src[j] + off * sz, cnt, op->ctx);
}

/* dst gets the fold of elements [lo, hi), one chunk at a time: straight
 * into dst, or through the accumulator when dst overlaps a source's
 * elements (in place), which the fold still reads after its first copy. */
static void fold_range(void *dst, const void *const *src, int n, size_t lo, size_t hi,
		       const struct coll_op *op)
{
	size_t per = chunk_elems(op), sz = op->size;
	uintptr_t d = (uintptr_t)dst, len = (hi - lo) * sz;
	void *acc = NULL;

	for (int j = 0; j < n && !acc; j++) {
		uintptr_t a = (uintptr_t)src[j] + lo * sz;

		if (a < d + len && d < a + len)
			acc = coll_scratch(COLL_SCRATCH_ACC, per * sz);
	}
	for (size_t off = lo; off < hi; off += per) {
		size_t cnt = hi - off < per ? hi - off : per;
		char *at = (char *)dst + (off - lo) * sz;

		fold(acc ? acc : at, src, n, off, cnt, op);
		if (acc)
			coll_copy(at, acc, cnt * sz);
	}
}

/* Posts sbuf by value, then learns where members 0..upto-1 put theirs. */
static void post_values(struct coll_group *g, uint64_t s, const void *sbuf, size_t bytes,
			int upto)
{
	coll_post_value(g, s, sbuf, bytes);
	for (int q = 0; q < upto; q++)
		g->src[q] = q == g->rank ? sbuf :
			coll_at(g, q, coll_wait(g, q, s, COLL_POSTED)->buf);
	if (upto == g->size)
		g->synced = s;
}

/* Posts buf and aux by reference and learns every member's. */
static void post_refs(struct coll_group *g, uint64_t s, const void *buf, const void *aux)
{
	struct coll_post *mine = coll_claim(g, s);

	mine->buf = buf;
	mine->aux = aux;
	coll_publish(g, s, COLL_POSTED);
	for (int q = 0; q < g->size; q++) {
		const struct coll_post *qp;

		if (q == g->rank) {
			g->src[q] = buf;
			g->res[q] = aux;
			continue;
		}
		qp = coll_wait(g, q, s, COLL_POSTED);
		g->src[q] = coll_at(g, q, qp->buf);
		g->res[q] = qp->aux ? coll_at(g, q, qp->aux) : NULL;
	}
	g->synced = s;
}

/* Ends a call whose buffers went by reference: nobody reads them after. */
static void finish_refs(struct coll_group *g, uint64_t s)
{
	coll_publish(g, s, COLL_DONE);
	coll_wait_all(g, s, COLL_DONE);
}

/* ---- reduce ---- */

/* Non-roots leave their data in their slot and go; the root folds. */
static void reduce_value(struct coll_group *g, uint64_t s, const void *sbuf, void *rbuf,
			 size_t count, const struct coll_op *op, int root)
{
	size_t bytes = count * op->size;
	void *acc;

	if (g->rank != root) {
		coll_post_value(g, s, sbuf, bytes);
		return;
	}
	coll_publish(g, s, COLL_POSTED);
	for (int q = 0; q < g->size; q++)
		g->src[q] = q == root ? sbuf :
			coll_at(g, q, coll_wait_ahead(g, q, s, COLL_POSTED)->buf);
	g->synced = s;
	acc = coll_scratch(COLL_SCRATCH_ACC, bytes);
	fold(acc, g->src, g->size, 0, count, op);
	coll_copy(rbuf, acc, bytes);
}

/* Member p folds slice p across everybody's sbuf into the root's rbuf.
 * In place is safe: slice p of the root's buffer is read and written by
 * member p only, one chunk after the other. */
static void reduce_parallel(struct coll_group *g, uint64_t s, const void *sbuf, void *rbuf,
			    size_t count, const struct coll_op *op, int root)
{
	size_t lo = slice_lo(count, g->size, g->rank);
	size_t hi = slice_lo(count, g->size, g->rank + 1);

	post_refs(g, s, sbuf, g->rank == root ? rbuf : NULL);
	fold_range((char *)g->res[root] + lo * op->size, g->src, g->size, lo, hi, op);
	finish_refs(g, s);
}

/* Chain position k holds this member: n-1 down to 0, so each folds its own
 * data as the left operand of what came before; a commutative operator
 * may start after the root and end at it, making the last fold local. */
static int chain_member(const struct coll_group *g, const struct coll_op *op, int root, int k)
{
	return op->commute ? (root + 1 + k) % g->size : g->size - 1 - k;
}

/*
 * The chain's head exposes its sbuf; every other member waits for chunk c
 * of its predecessor, folds its own chunk c onto it and exposes the result
 * in its ring (the last member writes the root's rbuf instead).  A member
 * reuses a ring slot only once its successor is past the chunk in it, and
 * leaves once the successor has taken everything.
 */
static void reduce_serial(struct coll_group *g, uint64_t s, const void *sbuf, void *rbuf,
			  size_t count, const struct coll_op *op, int root)
{
	int n = g->size, me = g->rank, pos;
	size_t per = chunk_elems(op), sz = op->size, cb = per * sz;
	size_t nc = chunks(count, per);
	int last = chain_member(g, op, root, n - 1);
	char *ring = NULL, *acc, *dst = NULL;
	const char *in, *mydata = sbuf;
	struct coll_post *mine;

	for (pos = 0; chain_member(g, op, root, pos) != me; pos++)
		;
	if (pos > 0 && me != last)
		ring = coll_scratch(COLL_SCRATCH_RING, COLL_RING * cb);
	mine = coll_claim(g, s);
	mine->buf = pos == 0 ? sbuf : ring;
	mine->aux = me == root ? rbuf : NULL;
	coll_publish(g, s, pos == 0 ? COLL_CHUNK + (unsigned)nc : COLL_POSTED);
	if (pos > 0) {
		int pred = chain_member(g, op, root, pos - 1);
		int succ = me == last ? -1 : chain_member(g, op, root, pos + 1);

		in = coll_at(g, pred, coll_wait(g, pred, s, COLL_POSTED)->buf);
		if (me == last)
			dst = coll_at(g, root, coll_wait(g, root, s, COLL_POSTED)->aux);
		acc = coll_scratch(COLL_SCRATCH_ACC, cb);
		for (size_t c = 0; c < nc; c++) {
			size_t off = c * per, cnt = count - off < per ? count - off : per;
			const char *pc = in + (pos == 1 ? off * sz : (c % COLL_RING) * cb);
			char *out = acc;

			coll_wait(g, pred, s, COLL_CHUNK + (unsigned)c + 1);
			if (ring) {
				if (c >= COLL_RING)
					coll_wait(g, succ, s, COLL_CHUNK + (unsigned)(c - COLL_RING) + 1);
				out = ring + (c % COLL_RING) * cb;
			}
			coll_apply3(op, out, mydata + off * sz, pc, cnt);
			if (!ring)
				coll_copy(dst + off * sz, acc, cnt * sz);
			coll_publish(g, s, COLL_CHUNK + (unsigned)c + 1);
		}
	}
	if (me != last)
		coll_wait(g, chain_member(g, op, root, pos + 1), s, COLL_CHUNK + (unsigned)nc);
	if (me == root && me != last)
		coll_wait(g, last, s, COLL_CHUNK + (unsigned)nc);
}

enum { REDUCE_AUTO, REDUCE_SERIAL, REDUCE_PARALLEL };

void coll_reduce(struct coll_group *g, const void *sbuf, void *rbuf,
		 size_t count, const struct coll_op *op, int root)
{
	static const char *const names[] = { "auto", "serial", "parallel" };
	static int algo = -1;
	size_t bytes = count * op->size;
	uint64_t s;

	if (coll_is_span(g)) {
		span_reduce(g, sbuf, rbuf, count, op, root);
		return;
	}
	if (count == 0)
		return;
	if (g->size == 1) {
		coll_copy(rbuf, sbuf, bytes);
		return;
	}
	if (algo < 0)
		algo = coll_env_choice("SMAP_REDUCE", names, 3);
	s = coll_begin(g);
	if (algo == REDUCE_SERIAL)
		reduce_serial(g, s, sbuf, rbuf, count, op, root);
	else if (algo == REDUCE_PARALLEL || bytes > COLL_EAGER_MAX)
		reduce_parallel(g, s, sbuf, rbuf, count, op, root);
	else
		reduce_value(g, s, sbuf, rbuf, count, op, root);
	coll_anchor_root(g, s, root);
}

/* ---- allreduce ---- */

/* Copies the chunks of the other members' slices that are ready (all of
 * them when wait is set) from their rbuf into ours. */
static void allreduce_collect(struct coll_group *g, uint64_t s, char *r, size_t count,
			      const struct coll_op *op, int wait)
{
	size_t per = elems_in(COLL_AR_CHUNK_BYTES, op), sz = op->size;

	for (int j = 1; j < g->size; j++) {
		int q = (g->rank + j) % g->size;
		size_t lo = slice_lo(count, g->size, q), hi = slice_lo(count, g->size, q + 1);
		size_t nc = chunks(hi - lo, per);

		for (size_t c = g->cursor[q]; c < nc; c = ++g->cursor[q]) {
			size_t off = lo + c * per, cnt = hi - off < per ? hi - off : per;

			if (wait)
				coll_wait(g, q, s, COLL_CHUNK + (unsigned)c + 1);
			else if (!coll_ready(g, q, s, COLL_CHUNK + (unsigned)c + 1))
				break;
			coll_copy(r + off * sz, (const char *)g->res[q] + off * sz, cnt * sz);
		}
	}
}

/*
 * Reduce-scatter into each member's own rbuf, then everybody copies every
 * slice, chunk by chunk as they become ready so a chunk is copied while it
 * is still in its owner's cache.  In place is safe: a member overwrites its
 * copy of slice q, chunk c only after member q announced that chunk, by
 * which time q has read every input of it.
 */
static void allreduce_large(struct coll_group *g, uint64_t s, const void *sbuf, void *rbuf,
			    size_t count, const struct coll_op *op)
{
	size_t per = elems_in(COLL_AR_CHUNK_BYTES, op), sz = op->size;
	size_t lo = slice_lo(count, g->size, g->rank);
	size_t hi = slice_lo(count, g->size, g->rank + 1);
	char *r = rbuf;

	post_refs(g, s, sbuf, rbuf);
	memset(g->cursor, 0, (size_t)g->size * sizeof *g->cursor);
	for (size_t c = 0, off = lo; off < hi; c++, off += per) {
		size_t cnt = hi - off < per ? hi - off : per;

		fold_range(r + off * sz, g->src, g->size, off, off + cnt, op);
		coll_publish(g, s, COLL_CHUNK + (unsigned)c + 1);
		allreduce_collect(g, s, r, count, op, 0);
	}
	allreduce_collect(g, s, r, count, op, 1);
	finish_refs(g, s);
}

void coll_allreduce(struct coll_group *g, const void *sbuf, void *rbuf,
		    size_t count, const struct coll_op *op)
{
	size_t bytes = count * op->size;
	uint64_t s;
	void *acc;

	if (coll_is_span(g)) {
		span_allreduce(g, sbuf, rbuf, count, op);
		return;
	}
	if (count == 0)
		return;
	if (g->size == 1) {
		coll_copy(rbuf, sbuf, bytes);
		return;
	}
	s = coll_begin(g);
	if (bytes > COLL_EAGER_MAX) {
		allreduce_large(g, s, sbuf, rbuf, count, op);
		return;
	}
	post_values(g, s, sbuf, bytes, g->size);
	acc = coll_scratch(COLL_SCRATCH_ACC, bytes);
	fold(acc, g->src, g->size, 0, count, op);
	coll_copy(rbuf, acc, bytes);
}

/* ---- reduce_scatter ---- */

/*
 * Member p folds its own block across everybody's input.  By value, in
 * place needs nothing more: peers read the slot, and the result, written
 * chunk by chunk below the input still to be read, never overtakes it.  By
 * reference the peers read our rbuf until the end, so the result waits in
 * a temporary.
 */
static void reduce_scatter_any(struct coll_group *g, const void *sbuf, void *rbuf,
			       size_t lo, size_t hi, size_t total,
			       const struct coll_op *op)
{
	size_t sz = op->size;
	void *dst = rbuf;
	uint64_t s;

	if (total == 0)
		return;
	if (g->size == 1) {
		coll_copy(rbuf, sbuf, total * sz);
		return;
	}
	s = coll_begin(g);
	if (total * sz <= COLL_EAGER_MAX) {
		post_values(g, s, sbuf, total * sz, g->size);
		fold_range(rbuf, g->src, g->size, lo, hi, op);
		return;
	}
	post_refs(g, s, sbuf, NULL);
	if (sbuf == rbuf)
		dst = coll_alloc((hi - lo) * sz, "reduce_scatter in place");
	fold_range(dst, g->src, g->size, lo, hi, op);
	finish_refs(g, s);
	if (dst != rbuf) {
		coll_copy(rbuf, dst, (hi - lo) * sz);
		free(dst);
	}
}

void coll_reduce_scatter(struct coll_group *g, const void *sbuf, void *rbuf,
			 const size_t *counts, const struct coll_op *op)
{
	size_t lo = 0, total = 0;

	if (coll_is_span(g)) {
		span_reduce_scatter(g, sbuf, rbuf, counts, 0, op);
		return;
	}
	for (int i = 0; i < g->size; i++) {
		if (i == g->rank)
			lo = total;
		total += counts[i];
	}
	reduce_scatter_any(g, sbuf, rbuf, lo, lo + counts[g->rank], total, op);
}

void coll_reduce_scatter_block(struct coll_group *g, const void *sbuf,
			       void *rbuf, size_t count,
			       const struct coll_op *op)
{
	size_t lo = count * (size_t)g->rank;

	if (coll_is_span(g)) {
		span_reduce_scatter(g, sbuf, rbuf, NULL, count, op);
		return;
	}
	reduce_scatter_any(g, sbuf, rbuf, lo, lo + count, count * (size_t)g->size, op);
}

/* ---- scan, exscan ---- */

/*
 * Small: member p folds the slots of members 0..p (0..p-1).  Large: a
 * chain 0 -> n-1 handing prefixes on chunk by chunk.  Member 0 exposes its
 * sbuf; for scan member p > 0 exposes its rbuf, where its prefix lands;
 * for exscan the rbuf holds the prefix without p's own data, so the
 * inclusive one p must pass on goes through p's ring.
 */
static void scan_chain(struct coll_group *g, uint64_t s, const void *sbuf, void *rbuf,
		       size_t count, const struct coll_op *op, int excl)
{
	int me = g->rank, last = me == g->size - 1;
	size_t per = chunk_elems(op), sz = op->size, cb = per * sz;
	size_t nc = chunks(count, per);
	char *r = rbuf, *ring = NULL;
	const char *sb = sbuf, *in;
	struct coll_post *mine;

	if (excl && me > 0 && !last)
		ring = coll_scratch(COLL_SCRATCH_RING, COLL_RING * cb);
	mine = coll_claim(g, s);
	mine->buf = me == 0 ? sbuf : excl ? ring : rbuf;
	coll_publish(g, s, me == 0 ? COLL_CHUNK + (unsigned)nc : COLL_POSTED);
	if (me == 0) {
		if (!excl)
			coll_copy(rbuf, sbuf, count * sz);
	} else {
		in = coll_at(g, me - 1, coll_wait(g, me - 1, s, COLL_POSTED)->buf);
		for (size_t c = 0; c < nc; c++) {
			size_t off = c * per, cnt = count - off < per ? count - off : per;
			const char *pc = in + (me == 1 || !excl ? off * sz : (c % COLL_RING) * cb);

			coll_wait(g, me - 1, s, COLL_CHUNK + (unsigned)c + 1);
			if (!excl) {
				coll_apply3(op, r + off * sz, pc, sb + off * sz, cnt);
			} else {
				if (ring) {
					char *slot = ring + (c % COLL_RING) * cb;

					if (c >= COLL_RING)
						coll_wait(g, me + 1, s, COLL_CHUNK + (unsigned)(c - COLL_RING) + 1);
					coll_apply3(op, slot, pc, sb + off * sz, cnt);
				}
				coll_copy(r + off * sz, pc, cnt * sz);
			}
			coll_publish(g, s, COLL_CHUNK + (unsigned)c + 1);
		}
	}
	if (!last)
		coll_wait(g, me + 1, s, COLL_CHUNK + (unsigned)nc);
}

static void scan_any(struct coll_group *g, const void *sbuf, void *rbuf, size_t count,
		     const struct coll_op *op, int excl)
{
	size_t bytes = count * op->size;
	int upto = g->rank + !excl;
	uint64_t s;
	void *acc;

	if (count == 0)
		return;
	if (g->size == 1) {
		if (!excl)
			coll_copy(rbuf, sbuf, bytes);
		return;
	}
	s = coll_begin(g);
	if (bytes > COLL_EAGER_MAX) {
		scan_chain(g, s, sbuf, rbuf, count, op, excl);
		return;
	}
	post_values(g, s, sbuf, bytes, upto);
	if (upto == 0)
		return;
	acc = coll_scratch(COLL_SCRATCH_ACC, bytes);
	fold(acc, g->src, upto, 0, count, op);
	coll_copy(rbuf, acc, bytes);
}

void coll_scan(struct coll_group *g, const void *sbuf, void *rbuf,
	       size_t count, const struct coll_op *op)
{
	if (coll_is_span(g)) {
		span_scan(g, sbuf, rbuf, count, op, 0);
		return;
	}
	scan_any(g, sbuf, rbuf, count, op, 0);
}

void coll_exscan(struct coll_group *g, const void *sbuf, void *rbuf,
		 size_t count, const struct coll_op *op)
{
	if (coll_is_span(g)) {
		span_scan(g, sbuf, rbuf, count, op, 1);
		return;
	}
	scan_any(g, sbuf, rbuf, count, op, 1);
}
