/*
 * nbc_coll.c - the nonblocking collectives (MPI_Ibarrier ... MPI_Iexscan),
 * their persistent forms (MPI 4.0's MPI_Barrier_init ... MPI_Exscan_init)
 * and MPI_Isendrecv(_replace): argument checks as the blocking calls make
 * them, then a schedule (nbc.c) that progress runs.
 *
 * Algorithms: barrier by dissemination, broadcast and reduce by binomial
 * trees (the reduce in member order for any op), allreduce as a reduce to
 * rank 0 followed by a broadcast, reduce_scatter as one followed by a
 * scatter; from 64 KiB of vector per member the three fold by blocks
 * instead (fold_blocks: each member folds its block of everybody's
 * vector, then the blocks go to the root, to all, or stay).  Scan and
 * exscan by recursive doubling, and the gathers, scatters and all-to-alls
 * as one round of direct messages, which the transport delivers straight
 * between the members' buffers, derived datatypes included.
 *
 * On an intercommunicator (MPI 3.1 5.2.2: data goes from one group to the
 * other) every call is one round of direct messages between the groups:
 * a schedule runs on one communicator, and the intercommunicator reaches
 * only the remote group, so the members of a group do not combine their
 * parts first as the blocking forms (intercoll.c) do through their
 * leaders.  A reduction's member receives every remote contribution and
 * folds them in rank order.  Scans have no intercommunicator form.
 */
#include <stdlib.h>
#include "nbc.h"

static int nbc_count(MPI_Comm comm, int64_t count, MPI_Datatype type, const char *fn)
{
	if (count < 0)
		return smpi_err(comm, MPI_ERR_COUNT, fn, "count %lld is negative", (long long)count);
	return smpi_type_check(comm, type, fn);
}

static int nbc_counts(MPI_Comm comm, struct smpi_ints counts, MPI_Datatype type, const char *fn)
{
	int i, err;

	if (!counts.p)
		return smpi_err(comm, MPI_ERR_ARG, fn, "an array of counts is NULL");
	for (i = 0; i < comm->size; i++)
		if ((err = nbc_count(comm, smpi_at(counts, i), type, fn)))
			return err;
	return MPI_SUCCESS;
}

static int nbc_root(MPI_Comm comm, int root, const char *fn)
{
	if (root < 0 || root >= comm->size)
		return smpi_err(comm, MPI_ERR_ROOT, fn, "root %d is not in a communicator of %d",
				root, comm->size);
	return MPI_SUCCESS;
}

/* A gather's or scatter's root, and the member's own buffer `one` against
 * the root's buffer of all blocks `all` (its own block there: at
 * displs[root] in a v form, else block root of count elements). */
static int nbc_rooted(MPI_Comm comm, int root, const void *one, const void *all, int v,
		      int64_t count, struct smpi_ints displs, MPI_Datatype type, const char *fn)
{
	const void *own = NULL;
	int err;

	if ((err = nbc_root(comm, root, fn)))
		return err;
	if (comm->rank == root)
		own = v ? (displs.p ? smpi_coll_block(all, smpi_at(displs, root), type) : NULL)
			: smpi_coll_block(all, (int64_t)root * count, type);
	return smpi_coll_alias(comm, one, all, own, comm->rank == root, fn);
}

static int nbc_same(MPI_Comm comm, int64_t sbytes, int64_t rbytes, const char *fn)
{
	if (sbytes != rbytes)
		return smpi_err(comm, MPI_ERR_TRUNCATE, fn,
				"send data of %lld bytes does not match receive data of %lld bytes",
				(long long)sbytes, (long long)rbytes);
	return MPI_SUCCESS;
}

static int nbc_red(MPI_Comm comm, int64_t count, MPI_Datatype type, MPI_Op op, const char *fn)
{
	int err;

	if ((err = nbc_count(comm, count, type, fn)))
		return err;
	return smpi_red_check(comm, op, type, fn);
}

/* Block i of a buffer of blocks of count elements of type. */
static void *nbc_block(const void *buf, int64_t i, int64_t count, MPI_Datatype type)
{
	return (char *)buf + i * count * smpi_type_extent(type);
}

/* An intercommunicator's calls take no MPI_IN_PLACE. */
static int nbc_ic_no_in_place(MPI_Comm ic, const void *sbuf, const void *rbuf, const char *fn)
{
	if (sbuf == MPI_IN_PLACE || rbuf == MPI_IN_PLACE)
		return smpi_err(ic, MPI_ERR_BUFFER, fn,
				"MPI_IN_PLACE is not allowed on an intercommunicator");
	return MPI_SUCCESS;
}

/* ---- builders: check the arguments, then make the schedule ---- */

static int b_barrier(MPI_Comm comm, struct smpi_nbc **out, const char *fn)
{
	struct smpi_nbc *s;
	int p = comm->size, k;

	s = nbc_new(comm);
	for (k = 1; k < p; k <<= 1) {
		nbc_send(s, NULL, 0, MPI_BYTE, (comm->rank + k) % p, 0);
		nbc_recv(s, NULL, 0, MPI_BYTE, (comm->rank - k + p) % p, 0);
		nbc_round(s);
	}
	(void)fn;
	*out = s;
	return MPI_SUCCESS;
}

static int b_bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm,
		   struct smpi_nbc **out, const char *fn)
{
	int err;

	if ((err = nbc_count(comm, count, type, fn)) || (err = nbc_root(comm, root, fn)))
		return err;
	*out = nbc_new(comm);
	nbc_build_bcast(*out, buf, count, type, root);
	return MPI_SUCCESS;
}

/* Gather, or gatherv (v set: rcounts and displs, read at the root). */
static int b_gather(const void *sbuf, int64_t scount, MPI_Datatype stype, void *rbuf,
		    int64_t rcount, int v, struct smpi_ints rcounts, struct smpi_ints displs,
		    MPI_Datatype rtype, int root, MPI_Comm comm, struct smpi_nbc **out,
		    const char *fn)
{
	int me = comm->rank, in_place = sbuf == MPI_IN_PLACE && me == root, i, err;
	struct smpi_nbc *s;

	if ((err = nbc_rooted(comm, root, sbuf, rbuf, v, rcount, displs, rtype, fn)))
		return err;
	if (!in_place && (err = nbc_count(comm, scount, stype, fn)))
		return err;
	if (me == root) {
		if (v && !displs.p)
			return smpi_err(comm, MPI_ERR_ARG, fn, "displs is NULL");
		if ((err = v ? nbc_counts(comm, rcounts, rtype, fn)
			     : nbc_count(comm, rcount, rtype, fn)))
			return err;
		if (!in_place && (err = nbc_same(comm, scount * smpi_type_size(stype),
						 (v ? smpi_at(rcounts, me) : rcount) *
						 smpi_type_size(rtype), fn)))
			return err;
	}
	s = nbc_new(comm);
	if (me != root) {
		nbc_send(s, sbuf, scount, stype, root, 0);
	} else {
		for (i = 0; i < comm->size; i++) {
			int64_t c = v ? smpi_at(rcounts, i) : rcount;
			void *b = v ? nbc_block(rbuf, smpi_at(displs, i), 1, rtype)
				    : nbc_block(rbuf, i, rcount, rtype);

			if (i != me)
				nbc_recv(s, b, c, rtype, i, 0);
			else if (!in_place)
				nbc_copy(s, b, c, rtype, sbuf, scount, stype);
		}
	}
	*out = s;
	return MPI_SUCCESS;
}

/* Scatter, or scatterv (v set: scounts and displs, read at the root). */
static int b_scatter(const void *sbuf, int64_t scount, int v, struct smpi_ints scounts,
		     struct smpi_ints displs, MPI_Datatype stype, void *rbuf, int64_t rcount,
		     MPI_Datatype rtype, int root, MPI_Comm comm, struct smpi_nbc **out,
		     const char *fn)
{
	int me = comm->rank, in_place = rbuf == MPI_IN_PLACE && me == root, i, err;
	struct smpi_nbc *s;

	if ((err = nbc_rooted(comm, root, rbuf, sbuf, v, scount, displs, stype, fn)))
		return err;
	if (!in_place && (err = nbc_count(comm, rcount, rtype, fn)))
		return err;
	if (me == root) {
		if (v && !displs.p)
			return smpi_err(comm, MPI_ERR_ARG, fn, "displs is NULL");
		if ((err = v ? nbc_counts(comm, scounts, stype, fn)
			     : nbc_count(comm, scount, stype, fn)))
			return err;
		if (!in_place && (err = nbc_same(comm, (v ? smpi_at(scounts, me) : scount) *
						 smpi_type_size(stype),
						 rcount * smpi_type_size(rtype), fn)))
			return err;
	}
	s = nbc_new(comm);
	if (me != root) {
		nbc_recv(s, rbuf, rcount, rtype, root, 0);
	} else {
		for (i = 0; i < comm->size; i++) {
			int64_t c = v ? smpi_at(scounts, i) : scount;
			const void *b = v ? nbc_block(sbuf, smpi_at(displs, i), 1, stype)
					  : nbc_block(sbuf, i, scount, stype);

			if (i != me)
				nbc_send(s, b, c, stype, i, 0);
			else if (!in_place)
				nbc_copy(s, rbuf, rcount, rtype, b, c, stype);
		}
	}
	*out = s;
	return MPI_SUCCESS;
}

/* Allgather, or allgatherv (v set: rcounts and displs). */
static int b_allgather(const void *sbuf, int64_t scount, MPI_Datatype stype, void *rbuf,
		       int64_t rcount, int v, struct smpi_ints rcounts, struct smpi_ints displs,
		       MPI_Datatype rtype, MPI_Comm comm, struct smpi_nbc **out, const char *fn)
{
	/* On an intercommunicator the blocks are the remote group's, none
	 * of them this member's (me -1). */
	int ic = comm->inter != NULL, me = ic ? -1 : comm->rank, in_place = sbuf == MPI_IN_PLACE;
	int i, err;
	struct smpi_nbc *s;
	void *mine = NULL;

	if ((ic && (err = nbc_ic_no_in_place(comm, sbuf, rbuf, fn))) ||
	    (err = smpi_coll_alias(comm, sbuf, rbuf,
				   ic ? NULL : v ? (displs.p ? smpi_coll_block(rbuf, smpi_at(displs, me),
									       rtype) : NULL)
				   : smpi_coll_block(rbuf, (int64_t)me * rcount, rtype), 1, fn)))
		return err;
	if (v && !displs.p)
		return smpi_err(comm, MPI_ERR_ARG, fn, "displs is NULL");
	if ((err = v ? nbc_counts(comm, rcounts, rtype, fn) : nbc_count(comm, rcount, rtype, fn)))
		return err;
	if (!in_place && ((err = nbc_count(comm, scount, stype, fn)) ||
			  (!ic && (err = nbc_same(comm, scount * smpi_type_size(stype),
						  (v ? smpi_at(rcounts, me) : rcount) *
						  smpi_type_size(rtype), fn)))))
		return err;
	if (!ic)
		mine = v ? nbc_block(rbuf, smpi_at(displs, me), 1, rtype)
			 : nbc_block(rbuf, me, rcount, rtype);
	s = nbc_new(comm);
	for (i = 0; i < comm->size; i++) {
		int64_t c = v ? smpi_at(rcounts, i) : rcount;

		if (i == me) {
			if (!in_place)
				nbc_copy(s, mine, c, rtype, sbuf, scount, stype);
			continue;
		}
		if (in_place)
			nbc_send(s, mine, v ? smpi_at(rcounts, me) : rcount, rtype, i, 0);
		else
			nbc_send(s, sbuf, scount, stype, i, 0);
		nbc_recv(s, v ? nbc_block(rbuf, smpi_at(displs, i), 1, rtype)
			      : nbc_block(rbuf, i, rcount, rtype), c, rtype, i, 0);
	}
	*out = s;
	return MPI_SUCCESS;
}

/*
 * The all-to-alls: block i of the send side is scounts[i] elements of
 * stypes[i] (or stype) at sdispls[i] (units of its extent, or bytes when
 * bytes is set: the w form, with its arrays of types); the same for the
 * receive side.  In place, the blocks to
 * send are first packed aside, since the receives overwrite them.
 */
static int b_alltoall(const void *sbuf, struct smpi_ints scounts, struct smpi_ints sdispls,
		      const MPI_Datatype *stypes, MPI_Datatype stype, void *rbuf,
		      struct smpi_ints rcounts, struct smpi_ints rdispls, const MPI_Datatype *rtypes,
		      MPI_Datatype rtype, int bytes, MPI_Comm comm, struct smpi_nbc **out,
		      const char *fn)
{
	int ic = comm->inter != NULL, p = comm->size, me = ic ? -1 : comm->rank;
	int in_place = sbuf == MPI_IN_PLACE, i, err;
	struct smpi_nbc *s;
	int64_t total = 0, *off;
	char *packed = NULL;

	if ((ic && (err = nbc_ic_no_in_place(comm, sbuf, rbuf, fn))) ||
	    (err = smpi_coll_alias(comm, sbuf, rbuf, NULL, 1, fn)))
		return err;
	if (!rcounts.p || !rdispls.p || (!in_place && (!scounts.p || !sdispls.p)))
		return smpi_err(comm, MPI_ERR_ARG, fn, "an array of counts or displacements is NULL");
	if (bytes && (!rtypes || (!in_place && !stypes)))
		return smpi_err(comm, MPI_ERR_ARG, fn, "an array of datatypes is NULL");
	for (i = 0; i < p; i++) {
		if ((err = nbc_count(comm, smpi_at(rcounts, i), rtypes ? rtypes[i] : rtype, fn)))
			return err;
		if (!in_place && (err = nbc_count(comm, smpi_at(scounts, i),
						  stypes ? stypes[i] : stype, fn)))
			return err;
	}
	s = nbc_new(comm);
	off = nbc_tmp(s, p, MPI_INT64_T);
	if (in_place) {
		for (i = 0; i < p; i++) {
			off[i] = total;
			if (i != me)
				total += smpi_at(rcounts, i) * smpi_type_size(rtypes ? rtypes[i] : rtype);
		}
		packed = nbc_tmp(s, total, MPI_BYTE);
		for (i = 0; i < p; i++) {
			MPI_Datatype t = rtypes ? rtypes[i] : rtype;
			int64_t c = smpi_at(rcounts, i);
			int64_t d = smpi_at(rdispls, i) * (bytes ? 1 : smpi_type_extent(t));

			if (i != me)
				nbc_copy(s, packed + off[i], c * smpi_type_size(t), MPI_BYTE,
					 (char *)rbuf + d, c, t);
		}
		nbc_round(s);
	}
	for (i = 0; i < p; i++) {
		MPI_Datatype rt = rtypes ? rtypes[i] : rtype;
		int64_t rc = smpi_at(rcounts, i);
		void *rb = (char *)rbuf + smpi_at(rdispls, i) * (bytes ? 1 : smpi_type_extent(rt));
		MPI_Datatype st;
		const void *sb;

		if (in_place) {
			if (i != me)
				nbc_send(s, packed + off[i], rc * smpi_type_size(rt), MPI_BYTE, i, 0);
		} else {
			st = stypes ? stypes[i] : stype;
			sb = (const char *)sbuf +
			     smpi_at(sdispls, i) * (bytes ? 1 : smpi_type_extent(st));
			if (i == me)
				nbc_copy(s, rb, rc, rt, sb, smpi_at(scounts, i), st);
			else
				nbc_send(s, sb, smpi_at(scounts, i), st, i, 0);
		}
		if (i != me)
			nbc_recv(s, rb, rc, rt, i, 0);
	}
	*out = s;
	return MPI_SUCCESS;
}

/* Alltoall: equal blocks, laid out as the v form with computed arrays. */
static int b_alltoall_eq(const void *sbuf, int64_t scount, MPI_Datatype stype, void *rbuf,
			 int64_t rcount, MPI_Datatype rtype, MPI_Comm comm, struct smpi_nbc **out,
			 const char *fn)
{
	int p = comm->size, i, err;
	int64_t *a;

	if ((err = nbc_count(comm, rcount, rtype, fn)) ||
	    (err = smpi_coll_alias(comm, sbuf, rbuf, NULL, 1, fn)))
		return err;
	/* Across an intercommunicator the sizes pair with the remote side's. */
	if (sbuf != MPI_IN_PLACE &&
	    ((err = nbc_count(comm, scount, stype, fn)) ||
	     (!comm->inter && (err = nbc_same(comm, scount * smpi_type_size(stype),
					      rcount * smpi_type_size(rtype), fn)))))
		return err;
	a = malloc(4 * p * sizeof *a);
	if (!a)
		smpi_fatal("%s: no memory for %d counts", fn, p);
	for (i = 0; i < p; i++) {
		a[i] = scount;
		a[p + i] = i * scount;
		a[2 * p + i] = rcount;
		a[3 * p + i] = i * rcount;
	}
	err = b_alltoall(sbuf, SMPI_WIDE(a), SMPI_WIDE(a + p), NULL, stype, rbuf,
			 SMPI_WIDE(a + 2 * p), SMPI_WIDE(a + 3 * p), NULL, rtype, 0, comm, out, fn);
	free(a);
	return err;
}

/* From this many bytes of vector per member's block, a reduce, allreduce
 * or reduce_scatter folds by blocks (fold_blocks) instead of reducing
 * to rank 0 (and broadcasting or scattering), which funnels the whole
 * vector through rank 0.
 * Below it the extra round costs more than it saves: 64 KiB on 2 ranks
 * polled with MPI_Test took 16 us by blocks against 10.7 the old way
 * (docs/performance/iallreduce-blocks-2026-11-29.txt). */
#define NBC_AR_BLOCK_MIN	(64 * 1024)

/* Where the members' blocks of count elements start, and lo[n] = count
 * (blocks differ by at most one element); scratch of s. */
static int64_t *block_bounds(struct smpi_nbc *s, int64_t count, int n)
{
	int64_t *lo = nbc_tmp(s, n + 1, MPI_INT64_T), r = count % n;

	for (int p = 0; p <= n; p++)
		lo[p] = p * (count / n) + (p < r ? p : r);
	return lo;
}

/*
 * Block p, [lo[p], lo[p + 1]) elements, of every member's vector goes to
 * member p (round 1), which folds them in member order as the blocking
 * engine does, x0 op (x1 op (... op x(n-1))), so both give the same bits,
 * into dst.  In place (sbuf == dst's buffer, whose block the fold would
 * overwrite while reading it) the member's own block is copied aside
 * first.  Each member sends and receives about the vector once, however
 * many members there are; the reduce to rank 0 funnels it all through
 * rank 0.
 */
static void fold_blocks(struct smpi_nbc *s, const void *sbuf, void *dst, const int64_t *lo,
			MPI_Datatype type, MPI_Op op, int in_place)
{
	MPI_Comm comm = smpi_nbc_comm(s);
	int n = comm->size, p = comm->rank, q;
	MPI_Aint ext = smpi_type_extent(type);
	int64_t len = lo[p + 1] - lo[p];
	const void **x = malloc((size_t)n * sizeof *x);

	if (!x) {
		nbc_fail(s, MPI_ERR_NO_MEM);
		return;
	}
	for (q = 0; q < n; q++) {
		if (q == p) {
			x[q] = in_place ? nbc_tmp(s, len, type) : (const char *)sbuf + lo[p] * ext;
			continue;
		}
		x[q] = nbc_tmp(s, len, type);
		nbc_recv(s, (void *)x[q], len, type, q, 0);
		nbc_send(s, (const char *)sbuf + lo[q] * ext, lo[q + 1] - lo[q], type, q, 0);
	}
	if (in_place)
		nbc_copy(s, (void *)x[p], len, type, (const char *)sbuf + lo[p] * ext, len, type);
	nbc_copy(s, dst, len, type, x[n - 1], len, type);
	for (q = n - 2; q >= 0; q--)
		nbc_reduce(s, x[q], dst, len, type, op);
	nbc_round(s);
	free(x);
}

/* Whether a vector of total elements goes by blocks: 64 KiB a member. */
static int by_blocks(MPI_Comm comm, int64_t total, MPI_Datatype type)
{
	return comm->size > 1 && total / comm->size * smpi_type_size(type) >= NBC_AR_BLOCK_MIN;
}

/* Allreduce by blocks: fold_blocks into rbuf's own block, then every
 * member sends it to all (round 2). */
static void allreduce_blocks(struct smpi_nbc *s, const void *sbuf, void *rbuf, int64_t count,
			     MPI_Datatype type, MPI_Op op)
{
	MPI_Comm comm = smpi_nbc_comm(s);
	int n = comm->size, p = comm->rank, q;
	MPI_Aint ext = smpi_type_extent(type);
	int64_t *lo = block_bounds(s, count, n);
	char *mine = (char *)rbuf + lo[p] * ext;

	fold_blocks(s, sbuf, mine, lo, type, op, sbuf == rbuf);
	for (q = 0; q < n; q++) {
		if (q == p)
			continue;
		nbc_recv(s, (char *)rbuf + lo[q] * ext, lo[q + 1] - lo[q], type, q, 1);
		nbc_send(s, mine, lo[p + 1] - lo[p], type, q, 1);
	}
	nbc_round(s);
}

/* Reduce by blocks: fold_blocks (at the root straight into its rbuf's
 * block), then every member sends its block to the root (round 2). */
static void reduce_blocks(struct smpi_nbc *s, const void *sbuf, void *rbuf, int64_t count,
			  MPI_Datatype type, MPI_Op op, int root)
{
	MPI_Comm comm = smpi_nbc_comm(s);
	int n = comm->size, p = comm->rank, q;
	MPI_Aint ext = smpi_type_extent(type);
	int64_t *lo = block_bounds(s, count, n), len = lo[p + 1] - lo[p];
	void *mine = p == root ? (char *)rbuf + lo[p] * ext : nbc_tmp(s, len, type);

	fold_blocks(s, sbuf, mine, lo, type, op, p == root && sbuf == rbuf);
	if (p != root)
		nbc_send(s, mine, len, type, root, 1);
	else
		for (q = 0; q < n; q++)
			if (q != p)
				nbc_recv(s, (char *)rbuf + lo[q] * ext, lo[q + 1] - lo[q], type, q,
					 1);
	nbc_round(s);
}

static int b_reduce(const void *sbuf, void *rbuf, int64_t count, MPI_Datatype type, MPI_Op op,
		    int root, MPI_Comm comm, struct smpi_nbc **out, const char *fn)
{
	int err;

	if ((err = nbc_root(comm, root, fn)) || (err = nbc_red(comm, count, type, op, fn)) ||
	    (err = smpi_coll_alias(comm, sbuf, rbuf, NULL, comm->rank == root, fn)))
		return err;
	if (sbuf == MPI_IN_PLACE && comm->rank == root)
		sbuf = rbuf;
	*out = nbc_new(comm);
	if (by_blocks(comm, count, type)) {
		reduce_blocks(*out, sbuf, rbuf, count, type, op, root);
		return MPI_SUCCESS;
	}
	nbc_build_reduce(*out, sbuf, rbuf, count, type, op, root);
	return MPI_SUCCESS;
}

static int b_allreduce(const void *sbuf, void *rbuf, int64_t count, MPI_Datatype type, MPI_Op op,
		       MPI_Comm comm, struct smpi_nbc **out, const char *fn)
{
	int err;

	if ((err = nbc_red(comm, count, type, op, fn)) ||
	    (err = smpi_coll_alias(comm, sbuf, rbuf, NULL, 1, fn)))
		return err;
	if (sbuf == MPI_IN_PLACE)
		sbuf = rbuf;
	*out = nbc_new(comm);
	if (by_blocks(comm, count, type)) {
		allreduce_blocks(*out, sbuf, rbuf, count, type, op);
		return MPI_SUCCESS;
	}
	nbc_build_reduce(*out, sbuf, rbuf, count, type, op, 0);
	nbc_build_bcast(*out, rbuf, count, type, 0);
	return MPI_SUCCESS;
}

/* Reduce_scatter (rcounts) or its block form (every count rcount). */
static int b_reduce_scatter(const void *sbuf, void *rbuf, struct smpi_ints rcounts,
			    int64_t rcount, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
			    struct smpi_nbc **out, const char *fn)
{
	int p = comm->size, me = comm->rank, i, err;
	int64_t total = 0, at = 0;
	struct smpi_nbc *s;
	void *res = NULL;

	if ((err = smpi_coll_alias(comm, sbuf, rbuf, NULL, 1, fn)))
		return err;
	if (rcounts.p) {
		if ((err = nbc_counts(comm, rcounts, type, fn)))
			return err;
	} else if ((err = nbc_count(comm, rcount, type, fn))) {
		return err;
	}
	for (i = 0; i < p; i++)
		total += rcounts.p ? smpi_at(rcounts, i) : rcount;
	if ((err = smpi_red_check(comm, op, type, fn)))
		return err;
	if (sbuf == MPI_IN_PLACE)
		sbuf = rbuf;
	s = nbc_new(comm);
	if (by_blocks(comm, total, type)) {
		int64_t *lo = nbc_tmp(s, p + 1, MPI_INT64_T);

		for (lo[0] = 0, i = 0; i < p; i++)
			lo[i + 1] = lo[i] + (rcounts.p ? smpi_at(rcounts, i) : rcount);
		fold_blocks(s, sbuf, rbuf, lo, type, op, sbuf == rbuf);
		*out = s;
		return MPI_SUCCESS;
	}
	if (me == 0)
		res = nbc_tmp(s, total, type);
	nbc_build_reduce(s, sbuf, res, total, type, op, 0);
	if (me != 0) {
		nbc_recv(s, rbuf, rcounts.p ? smpi_at(rcounts, me) : rcount, type, 0, 0);
	} else {
		for (i = 0; i < p; i++) {
			int64_t c = rcounts.p ? smpi_at(rcounts, i) : rcount;
			void *b = nbc_block(res, at, 1, type);

			if (i == 0)
				nbc_copy(s, rbuf, c, type, b, c, type);
			else
				nbc_send(s, b, c, type, i, 0);
			at += c;
		}
	}
	*out = s;
	return MPI_SUCCESS;
}

/*
 * Scan and exscan by recursive doubling: at distance mask, partners swap
 * partial, the fold of the block of members each knows so far; a member
 * folds what comes from below into its result and both fold it into
 * partial on the correct side, so any op keeps member order.
 */
static int b_scan(const void *sbuf, void *rbuf, int64_t count, MPI_Datatype type, MPI_Op op,
		  MPI_Comm comm, int ex, struct smpi_nbc **out, const char *fn)
{
	int p = comm->size, me = comm->rank, mask, have = !ex, err;
	struct smpi_nbc *s;
	void *partial, *tmp;

	if ((err = smpi_intra_check(comm, fn)) || (err = nbc_red(comm, count, type, op, fn)) ||
	    (err = smpi_coll_alias(comm, sbuf, rbuf, NULL, 1, fn)))
		return err;
	s = nbc_new(comm);
	partial = nbc_tmp(s, count, type);
	tmp = nbc_tmp(s, count, type);
	if (sbuf == MPI_IN_PLACE) {
		nbc_copy(s, partial, count, type, rbuf, count, type);
	} else {
		nbc_copy(s, partial, count, type, sbuf, count, type);
		if (!ex)
			nbc_copy(s, rbuf, count, type, sbuf, count, type);
	}
	nbc_round(s);
	for (mask = 1; mask < p; mask <<= 1) {
		int peer = me ^ mask;

		if (peer >= p)
			continue;
		nbc_send(s, partial, count, type, peer, 0);
		nbc_recv(s, tmp, count, type, peer, 0);
		if (peer < me) {
			nbc_reduce(s, tmp, partial, count, type, op);
			if (have)
				nbc_reduce(s, tmp, rbuf, count, type, op);
			else
				nbc_copy(s, rbuf, count, type, tmp, count, type);
			have = 1;
		} else {
			nbc_reduce(s, partial, tmp, count, type, op);
			nbc_copy(s, partial, count, type, tmp, count, type);
		}
		nbc_round(s);
	}
	*out = s;
	return MPI_SUCCESS;
}

/* ---- on an intercommunicator ---- */

/* MPI_ROOT, MPI_PROC_NULL or a rank of the remote group. */
static int nbc_ic_root(MPI_Comm ic, int root, const char *fn)
{
	if (root == MPI_ROOT || root == MPI_PROC_NULL || (root >= 0 && root < ic->size))
		return MPI_SUCCESS;
	return smpi_err(ic, MPI_ERR_ROOT, fn, "root %d: MPI_ROOT, MPI_PROC_NULL or a rank of the "
			"remote group of %d", root, ic->size);
}

/* Every member of each group has entered once it heard from every member
 * of the other. */
static int ic_barrier(MPI_Comm ic, struct smpi_nbc **out)
{
	struct smpi_nbc *s = nbc_new(ic);

	for (int i = 0; i < ic->size; i++) {
		nbc_send(s, NULL, 0, MPI_BYTE, i, 0);
		nbc_recv(s, NULL, 0, MPI_BYTE, i, 0);
	}
	*out = s;
	return MPI_SUCCESS;
}

static int ic_bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm ic,
		    struct smpi_nbc **out, const char *fn)
{
	struct smpi_nbc *s;
	int err;

	if ((err = nbc_ic_root(ic, root, fn)) ||
	    (root != MPI_PROC_NULL && (err = nbc_count(ic, count, type, fn))))
		return err;
	s = nbc_new(ic);
	for (int i = 0; root == MPI_ROOT && i < ic->size; i++)
		nbc_send(s, buf, count, type, i, 0);
	if (root >= 0)
		nbc_recv(s, buf, count, type, root, 0);
	*out = s;
	return MPI_SUCCESS;
}

/* Gather(v) and scatter(v): the root's blocks are the remote group's. */
static int ic_rooted(const void *sbuf, int64_t scount, MPI_Datatype stype, void *rbuf,
		     int64_t rcount, MPI_Datatype rtype, int v, struct smpi_ints counts,
		     struct smpi_ints displs, int root, int scatter, MPI_Comm ic,
		     struct smpi_nbc **out, const char *fn)
{
	MPI_Datatype bt = scatter ? stype : rtype;
	int64_t bc = scatter ? scount : rcount;
	int err;
	struct smpi_nbc *s;

	if ((err = nbc_ic_root(ic, root, fn)) || (err = nbc_ic_no_in_place(ic, sbuf, rbuf, fn)))
		return err;
	if (root == MPI_ROOT) {
		if (v && !displs.p)
			return smpi_err(ic, MPI_ERR_ARG, fn, "displs is NULL");
		if ((err = v ? nbc_counts(ic, counts, bt, fn) : nbc_count(ic, bc, bt, fn)))
			return err;
	} else if (root >= 0 && (err = scatter ? nbc_count(ic, rcount, rtype, fn)
					       : nbc_count(ic, scount, stype, fn))) {
		return err;
	}
	s = nbc_new(ic);
	for (int i = 0; root == MPI_ROOT && i < ic->size; i++) {
		void *b = v ? nbc_block(scatter ? sbuf : rbuf, smpi_at(displs, i), 1, bt)
			    : nbc_block(scatter ? sbuf : rbuf, i, bc, bt);

		if (scatter)
			nbc_send(s, b, v ? smpi_at(counts, i) : bc, bt, i, 0);
		else
			nbc_recv(s, b, v ? smpi_at(counts, i) : bc, bt, i, 0);
	}
	if (root >= 0 && scatter)
		nbc_recv(s, rbuf, rcount, rtype, root, 0);
	else if (root >= 0)
		nbc_send(s, sbuf, scount, stype, root, 0);
	*out = s;
	return MPI_SUCCESS;
}

/* Receives every remote member's count elements (into scratch, the last
 * one into acc), then folds them into acc in member order, for any op:
 * acc = x0 op (x1 op (... op x(n-1))). */
static void ic_fold(struct smpi_nbc *s, MPI_Comm ic, void *acc, int64_t count,
		    MPI_Datatype type, MPI_Op op)
{
	int n = ic->size;
	void *in = nbc_tmp(s, count * (n - 1), type);

	for (int i = 0; i < n; i++)
		nbc_recv(s, i == n - 1 ? acc : nbc_block(in, i, count, type), count, type, i, 0);
	nbc_round(s);
	for (int i = n - 2; i >= 0; i--)
		nbc_reduce(s, nbc_block(in, i, count, type), acc, count, type, op);
}

static int ic_reduce(const void *sbuf, void *rbuf, int64_t count, MPI_Datatype type, MPI_Op op,
		     int root, MPI_Comm ic, struct smpi_nbc **out, const char *fn)
{
	struct smpi_nbc *s;
	int err;

	if ((err = nbc_ic_root(ic, root, fn)) || (err = nbc_ic_no_in_place(ic, sbuf, rbuf, fn)) ||
	    (root != MPI_PROC_NULL && (err = nbc_red(ic, count, type, op, fn))))
		return err;
	s = nbc_new(ic);
	if (root == MPI_ROOT)
		ic_fold(s, ic, rbuf, count, type, op);
	else if (root >= 0)
		nbc_send(s, sbuf, count, type, root, 0);
	*out = s;
	return MPI_SUCCESS;
}

/* Each group gets the fold of the other's contributions. */
static int ic_allreduce(const void *sbuf, void *rbuf, int64_t count, MPI_Datatype type, MPI_Op op,
			MPI_Comm ic, struct smpi_nbc **out, const char *fn)
{
	struct smpi_nbc *s;
	int err;

	if ((err = nbc_ic_no_in_place(ic, sbuf, rbuf, fn)) ||
	    (err = nbc_red(ic, count, type, op, fn)))
		return err;
	s = nbc_new(ic);
	for (int i = 0; i < ic->size; i++)
		nbc_send(s, sbuf, count, type, i, 0);
	ic_fold(s, ic, rbuf, count, type, op);
	*out = s;
	return MPI_SUCCESS;
}

/* The fold of the other group's vectors (rcounts summed over this group:
 * MPI requires the same total of both), this member's piece of it. */
static int ic_reduce_scatter(const void *sbuf, void *rbuf, struct smpi_ints rcounts,
			     int64_t rcount, MPI_Datatype type, MPI_Op op, MPI_Comm ic,
			     struct smpi_nbc **out, const char *fn)
{
	int n = ic->inter->size, me = ic->inter->rank, err;
	int64_t total = 0, at = 0;
	struct smpi_nbc *s;
	void *acc;

	if ((err = nbc_ic_no_in_place(ic, sbuf, rbuf, fn)) ||
	    (err = nbc_red(ic, rcounts.p ? 0 : rcount, type, op, fn)))
		return err;
	for (int i = 0; i < n; i++) {
		int64_t c = rcounts.p ? smpi_at(rcounts, i) : rcount;

		if (c < 0)
			return smpi_err(ic, MPI_ERR_COUNT, fn, "count %lld is negative", (long long)c);
		if (i < me)
			at += c;
		total += c;
	}
	s = nbc_new(ic);
	acc = nbc_tmp(s, total, type);
	for (int i = 0; i < ic->size; i++)
		nbc_send(s, sbuf, total, type, i, 0);
	ic_fold(s, ic, acc, total, type, op);
	nbc_copy(s, rbuf, rcounts.p ? smpi_at(rcounts, me) : rcount, type,
		 nbc_block(acc, at, 1, type), rcounts.p ? smpi_at(rcounts, me) : rcount, type);
	*out = s;
	return MPI_SUCCESS;
}

/* ---- the calls: MPI_I<name> starts the schedule, MPI_<name>_init keeps it ---- */

/* MPI 4.0's persistent collectives: no info key changes what they do. */
#define NBC_BOTH(iname, pname, params, build) \
	NBC_ENTRY(iname, (params, MPI_Request *request), build, nbc_post) \
	NBC_ENTRY(pname##_init, (params, MPI_Info info, MPI_Request *request), build, \
		  (void)info; nbc_persist)
/* The calls with 64-bit forms (the other _c calls: bigcount.c), both
 * widths: params(C, A) lists the parameters with counts of type C and
 * displacements of type A, build(W) reads arrays through W. */
#define NBC_BOTH_C(iname, pname, params, build) \
	NBC_ENTRY(iname##_c, (params, MPI_Request *request), build, nbc_post) \
	NBC_ENTRY(pname##_init_c, (params, MPI_Info info, MPI_Request *request), build, \
		  (void)info; nbc_persist)
#define NBC_WIDTHS(iname, pname, params, build) \
	NBC_BOTH(iname, pname, params(int, int), build(SMPI_INTS)) \
	NBC_BOTH_C(iname, pname, params(MPI_Count, MPI_Aint), build(SMPI_WIDE))
#define NO_INTS	SMPI_INTS(NULL)

NBC_BOTH(Ibarrier, Barrier, MPI_Comm comm,
	 comm->inter ? ic_barrier(comm, &s) : b_barrier(comm, &s, fn))

#define BCAST_P void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm
NBC_BOTH(Ibcast, Bcast, BCAST_P,
	 comm->inter ? ic_bcast(buf, count, type, root, comm, &s, fn)
		     : b_bcast(buf, count, type, root, comm, &s, fn))

#define GATHER_P const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, \
	MPI_Datatype rtype, int root, MPI_Comm comm
NBC_BOTH(Igather, Gather, GATHER_P,
	 comm->inter ? ic_rooted(sbuf, scount, stype, rbuf, rcount, rtype, 0, NO_INTS, NO_INTS,
				 root, 0, comm, &s, fn)
		     : b_gather(sbuf, scount, stype, rbuf, rcount, 0, NO_INTS, NO_INTS, rtype, root,
				comm, &s, fn))

/* The v and w forms: C the count's type, A the displacement's, W how
 * the arrays are read. */
#define GATHERV_P(C, A) const void *sbuf, C scount, MPI_Datatype stype, void *rbuf, \
	const C rcounts[], const A displs[], MPI_Datatype rtype, int root, MPI_Comm comm
#define GATHERV_B(W) \
	comm->inter ? ic_rooted(sbuf, scount, stype, rbuf, 0, rtype, 1, W(rcounts), W(displs), root, \
				0, comm, &s, fn) \
		    : b_gather(sbuf, scount, stype, rbuf, 0, 1, W(rcounts), W(displs), rtype, root, \
			       comm, &s, fn)
NBC_WIDTHS(Igatherv, Gatherv, GATHERV_P, GATHERV_B)

#define SCATTER_P const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, \
	MPI_Datatype rtype, int root, MPI_Comm comm
NBC_BOTH(Iscatter, Scatter, SCATTER_P,
	 comm->inter ? ic_rooted(sbuf, scount, stype, rbuf, rcount, rtype, 0, NO_INTS, NO_INTS,
				 root, 1, comm, &s, fn)
		     : b_scatter(sbuf, scount, 0, NO_INTS, NO_INTS, stype, rbuf, rcount, rtype, root,
				 comm, &s, fn))

#define SCATTERV_P(C, A) const void *sbuf, const C scounts[], const A displs[], \
	MPI_Datatype stype, void *rbuf, C rcount, MPI_Datatype rtype, int root, MPI_Comm comm
#define SCATTERV_B(W) \
	comm->inter ? ic_rooted(sbuf, 0, stype, rbuf, rcount, rtype, 1, W(scounts), W(displs), root, \
				1, comm, &s, fn) \
		    : b_scatter(sbuf, 0, 1, W(scounts), W(displs), stype, rbuf, rcount, rtype, root, \
				comm, &s, fn)
NBC_WIDTHS(Iscatterv, Scatterv, SCATTERV_P, SCATTERV_B)

#define ALLGATHER_P const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, \
	MPI_Datatype rtype, MPI_Comm comm
NBC_BOTH(Iallgather, Allgather, ALLGATHER_P,
	 b_allgather(sbuf, scount, stype, rbuf, rcount, 0, NO_INTS, NO_INTS, rtype, comm, &s, fn))

#define ALLGATHERV_P(C, A) const void *sbuf, C scount, MPI_Datatype stype, void *rbuf, \
	const C rcounts[], const A displs[], MPI_Datatype rtype, MPI_Comm comm
#define ALLGATHERV_B(W) \
	b_allgather(sbuf, scount, stype, rbuf, 0, 1, W(rcounts), W(displs), rtype, comm, &s, fn)
NBC_WIDTHS(Iallgatherv, Allgatherv, ALLGATHERV_P, ALLGATHERV_B)

#define ALLTOALL_P const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, \
	MPI_Datatype rtype, MPI_Comm comm
NBC_BOTH(Ialltoall, Alltoall, ALLTOALL_P,
	 b_alltoall_eq(sbuf, scount, stype, rbuf, rcount, rtype, comm, &s, fn))

#define ALLTOALLV_P(C, A) const void *sbuf, const C scounts[], const A sdispls[], \
	MPI_Datatype stype, void *rbuf, const C rcounts[], const A rdispls[], MPI_Datatype rtype, \
	MPI_Comm comm
#define ALLTOALLV_B(W) \
	b_alltoall(sbuf, W(scounts), W(sdispls), NULL, stype, rbuf, W(rcounts), W(rdispls), NULL, \
		   rtype, 0, comm, &s, fn)
NBC_WIDTHS(Ialltoallv, Alltoallv, ALLTOALLV_P, ALLTOALLV_B)

#define ALLTOALLW_P(C, A) const void *sbuf, const C scounts[], const A sdispls[], \
	const MPI_Datatype stypes[], void *rbuf, const C rcounts[], const A rdispls[], \
	const MPI_Datatype rtypes[], MPI_Comm comm
#define ALLTOALLW_B(W) \
	b_alltoall(sbuf, W(scounts), W(sdispls), stypes, MPI_BYTE, rbuf, W(rcounts), W(rdispls), \
		   rtypes, NULL, 1, comm, &s, fn)
NBC_WIDTHS(Ialltoallw, Alltoallw, ALLTOALLW_P, ALLTOALLW_B)

/* The reductions: counts only (A and W unused). */
#define REDUCE_P(C, A) const void *sbuf, void *rbuf, C count, MPI_Datatype type, MPI_Op op, \
	int root, MPI_Comm comm
#define REDUCE_B(W) \
	comm->inter ? ic_reduce(sbuf, rbuf, count, type, op, root, comm, &s, fn) \
		    : b_reduce(sbuf, rbuf, count, type, op, root, comm, &s, fn)
NBC_WIDTHS(Ireduce, Reduce, REDUCE_P, REDUCE_B)

#define RED_P(C, A) const void *sbuf, void *rbuf, C count, MPI_Datatype type, MPI_Op op, \
	MPI_Comm comm
#define ALLREDUCE_B(W) \
	comm->inter ? ic_allreduce(sbuf, rbuf, count, type, op, comm, &s, fn) \
		    : b_allreduce(sbuf, rbuf, count, type, op, comm, &s, fn)
NBC_WIDTHS(Iallreduce, Allreduce, RED_P, ALLREDUCE_B)

#define RS_P(C, A) const void *sbuf, void *rbuf, const C rcounts[], MPI_Datatype type, \
	MPI_Op op, MPI_Comm comm
#define RS_B(W) \
	!rcounts ? smpi_err(comm, MPI_ERR_ARG, fn, "recvcounts is NULL") \
	: comm->inter ? ic_reduce_scatter(sbuf, rbuf, W(rcounts), 0, type, op, comm, &s, fn) \
	: b_reduce_scatter(sbuf, rbuf, W(rcounts), 0, type, op, comm, &s, fn)
NBC_WIDTHS(Ireduce_scatter, Reduce_scatter, RS_P, RS_B)

#define RSB_P(C, A) const void *sbuf, void *rbuf, C rcount, MPI_Datatype type, MPI_Op op, \
	MPI_Comm comm
#define RSB_B(W) \
	comm->inter ? ic_reduce_scatter(sbuf, rbuf, NO_INTS, rcount, type, op, comm, &s, fn) \
		    : b_reduce_scatter(sbuf, rbuf, NO_INTS, rcount, type, op, comm, &s, fn)
NBC_WIDTHS(Ireduce_scatter_block, Reduce_scatter_block, RSB_P, RSB_B)

#define SCAN_B(W) b_scan(sbuf, rbuf, count, type, op, comm, 0, &s, fn)
#define EXSCAN_B(W) b_scan(sbuf, rbuf, count, type, op, comm, 1, &s, fn)
NBC_WIDTHS(Iscan, Scan, RED_P, SCAN_B)
NBC_WIDTHS(Iexscan, Exscan, RED_P, EXSCAN_B)

/* ---- MPI_Isendrecv(_replace): a schedule of the user's own messages ---- */

static int nbc_p2p_check(MPI_Comm comm, int count, MPI_Datatype type, int peer, int tag,
			 int recv, const char *fn)
{
	int err;

	if ((err = nbc_count(comm, count, type, fn)))
		return err;
	if (tag > SMPI_TAG_UB || (tag < 0 && !(recv && tag == MPI_ANY_TAG)))
		return smpi_err(comm, MPI_ERR_TAG, fn, "tag %d is not valid", tag);
	return smpi_rank_check(comm, peer, recv, fn);
}

int PMPI_Isendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag,
		   void *rbuf, int rcount, MPI_Datatype rtype, int source, int rtag, MPI_Comm comm,
		   MPI_Request *request)
{
	const char *fn = "MPI_Isendrecv";
	struct smpi_nbc *s;
	int err;

	if ((err = nbc_check(comm, request, fn)) ||
	    (err = nbc_p2p_check(comm, scount, stype, dest, stag, 0, fn)) ||
	    (err = nbc_p2p_check(comm, rcount, rtype, source, rtag, 1, fn)))
		return err;
	s = nbc_new_p2p(comm);
	nbc_recv(s, rbuf, rcount, rtype, source, rtag);
	nbc_recv_status(s);
	nbc_send(s, sbuf, scount, stype, dest, stag);
	nbc_post(s, request);
	return MPI_SUCCESS;
}

int PMPI_Isendrecv_replace(void *buf, int count, MPI_Datatype type, int dest, int stag,
			   int source, int rtag, MPI_Comm comm, MPI_Request *request)
{
	const char *fn = "MPI_Isendrecv_replace";
	struct smpi_nbc *s;
	int64_t bytes;
	void *copy;
	int err;

	if ((err = nbc_check(comm, request, fn)) ||
	    (err = nbc_p2p_check(comm, count, type, dest, stag, 0, fn)) ||
	    (err = nbc_p2p_check(comm, count, type, source, rtag, 1, fn)))
		return err;
	s = nbc_new_p2p(comm);
	bytes = count * smpi_type_size(type);
	copy = nbc_tmp(s, bytes, MPI_BYTE);
	nbc_copy(s, copy, bytes, MPI_BYTE, buf, count, type);
	nbc_round(s);
	nbc_recv(s, buf, count, type, source, rtag);
	nbc_recv_status(s);
	nbc_send(s, copy, bytes, MPI_BYTE, dest, stag);
	nbc_post(s, request);
	return MPI_SUCCESS;
}

SMPI_ALIAS(Isendrecv)
SMPI_ALIAS(Isendrecv_replace)
