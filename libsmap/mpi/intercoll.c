/*
 * intercoll.c - the blocking collectives on an intercommunicator (MPI 3.1
 * section 5.2.2): data goes from one group to the other.  Each is built
 * from the local group's collectives on its private communicator
 * (comm->inter) and point-to-point with the remote group on the
 * intercommunicator's library context, so it works wherever the members
 * are.  A rooted call's root passes MPI_ROOT, its group's others
 * MPI_PROC_NULL, and the other group the root's rank in the root's group.
 */
#include <stdlib.h>
#include "impl.h"

#define IC_TAG	1	/* the library context's tag 0 is communicator construction's */

static void ic_send(const void *buf, int64_t count, MPI_Datatype type, int peer, MPI_Comm ic)
{
	smpi_p2p_send(buf, count, type, peer, IC_TAG, ic, ic->ctx + SMPI_MAX_CTX, SMPI_MODE_STD);
}

static void ic_recv(void *buf, int64_t count, MPI_Datatype type, int peer, MPI_Comm ic)
{
	MPI_Status st;

	smpi_p2p_recv(buf, count, type, peer, IC_TAG, ic, ic->ctx + SMPI_MAX_CTX, &st);
}

/* The two leaders swap: mine out, theirs in (receive posted first). */
static void ic_swap(const void *sbuf, int64_t scount, MPI_Datatype stype, void *rbuf,
		    int64_t rcount, MPI_Datatype rtype, MPI_Comm ic)
{
	struct smpi_req s, r;

	smpi_req_init(&r, SMPI_REQ_RECV, SMPI_MODE_STD, rbuf, rcount, rtype, 0, IC_TAG, ic);
	smpi_req_init(&s, SMPI_REQ_SEND, SMPI_MODE_STD, sbuf, scount, stype, 0, IC_TAG, ic);
	r.ctx = s.ctx = ic->ctx + SMPI_MAX_CTX;
	smpi_p2p_start(&r);
	smpi_p2p_start(&s);
	smpi_req_wait(&s);
	smpi_req_wait(&r);
}

/* Room for n elements of type t, contiguous by its extent. */
static void *ic_alloc(int64_t n, MPI_Datatype t, const char *fn)
{
	int64_t b = n * smpi_type_extent(t);
	void *p = malloc(b > 0 ? (size_t)b : 1);

	if (!p)
		smpi_fatal("%s: no memory for %lld bytes", fn, (long long)b);
	/* Derived types may start below their origin: point at it. */
	return (char *)p - (n ? dt_root(t->dt)->lb : 0);
}

static void ic_free(void *p, int64_t n, MPI_Datatype t)
{
	free((char *)p + (n ? dt_root(t->dt)->lb : 0));
}

static int ic_data(MPI_Comm ic, int64_t count, MPI_Datatype type, const char *fn)
{
	if (count < 0)
		return smpi_err(ic, MPI_ERR_COUNT, fn, "count %lld is negative", (long long)count);
	return smpi_type_check(ic, type, fn);
}

static int ic_root_check(MPI_Comm ic, int root, const char *fn)
{
	if (root == MPI_ROOT || root == MPI_PROC_NULL || (root >= 0 && root < ic->size))
		return MPI_SUCCESS;
	return smpi_err(ic, MPI_ERR_ROOT, fn, "root %d: MPI_ROOT, MPI_PROC_NULL or a rank of the "
			"remote group of %d", root, ic->size);
}

int smpi_icoll_barrier(MPI_Comm ic)
{
	MPI_Comm l = ic->inter;

	/* Everyone here has arrived; the leaders tell each other; then
	 * everyone here may leave. */
	PMPI_Barrier(l);
	if (l->rank == 0)
		ic_swap(NULL, 0, MPI_BYTE, NULL, 0, MPI_BYTE, ic);
	PMPI_Barrier(l);
	return MPI_SUCCESS;
}

int smpi_icoll_bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm ic)
{
	MPI_Comm l = ic->inter;
	int err;

	if ((err = ic_root_check(ic, root, "MPI_Bcast")) ||
	    (root != MPI_PROC_NULL && (err = ic_data(ic, count, type, "MPI_Bcast"))))
		return err;
	if (root == MPI_ROOT)
		ic_send(buf, count, type, 0, ic);
	else if (root != MPI_PROC_NULL) {
		if (l->rank == 0)
			ic_recv(buf, count, type, root, ic);
		PMPI_Bcast(buf, count, type, 0, l);
	}
	return MPI_SUCCESS;
}

int smpi_icoll_gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
		      MPI_Datatype rtype, int root, MPI_Comm ic)
{
	int err;

	if ((err = ic_root_check(ic, root, "MPI_Gather")) ||
	    (root == MPI_ROOT && (err = ic_data(ic, rcount, rtype, "MPI_Gather"))) ||
	    (root >= 0 && (err = ic_data(ic, scount, stype, "MPI_Gather"))))
		return err;
	if (root == MPI_ROOT) {
		for (int r = 0; r < ic->size; r++)
			ic_recv((char *)rbuf + (int64_t)r * rcount * smpi_type_extent(rtype), rcount,
				rtype, r, ic);
	} else if (root != MPI_PROC_NULL) {
		ic_send(sbuf, scount, stype, root, ic);
	}
	return MPI_SUCCESS;
}

int smpi_icoll_scatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
		       MPI_Datatype rtype, int root, MPI_Comm ic)
{
	int err;

	if ((err = ic_root_check(ic, root, "MPI_Scatter")) ||
	    (root == MPI_ROOT && (err = ic_data(ic, scount, stype, "MPI_Scatter"))) ||
	    (root >= 0 && (err = ic_data(ic, rcount, rtype, "MPI_Scatter"))))
		return err;
	if (root == MPI_ROOT) {
		for (int r = 0; r < ic->size; r++)
			ic_send((const char *)sbuf + (int64_t)r * scount * smpi_type_extent(stype),
				scount, stype, r, ic);
	} else if (root != MPI_PROC_NULL) {
		ic_recv(rbuf, rcount, rtype, root, ic);
	}
	return MPI_SUCCESS;
}

int smpi_icoll_reduce(const void *sbuf, void *rbuf, int64_t count, MPI_Datatype type, MPI_Op op,
		      int root, MPI_Comm ic, const char *fn)
{
	MPI_Comm l = ic->inter;
	void *tmp;
	int err;

	if ((err = ic_root_check(ic, root, fn)) ||
	    (root != MPI_PROC_NULL && (err = ic_data(ic, count, type, fn))))
		return err;
	if (root == MPI_ROOT) {
		ic_recv(rbuf, count, type, 0, ic);
	} else if (root != MPI_PROC_NULL) {
		/* This group reduces to its first member, who sends it over. */
		tmp = l->rank == 0 ? ic_alloc(count, type, fn) : NULL;
		if ((err = smpi_reduce(sbuf, tmp, count, type, op, 0, l, fn)))
			return err;
		if (l->rank == 0) {
			ic_send(tmp, count, type, root, ic);
			ic_free(tmp, count, type);
		}
	}
	return MPI_SUCCESS;
}

int smpi_icoll_allreduce(const void *sbuf, void *rbuf, int64_t count, MPI_Datatype type,
			 MPI_Op op, MPI_Comm ic, const char *fn)
{
	MPI_Comm l = ic->inter;
	void *tmp;
	int err;

	if ((err = ic_data(ic, count, type, fn)))
		return err;
	tmp = l->rank == 0 ? ic_alloc(count, type, fn) : NULL;
	/* Each group reduces its own; the leaders swap; each spreads the
	 * other group's result. */
	if ((err = smpi_reduce(sbuf, tmp, count, type, op, 0, l, fn)))
		return err;
	if (l->rank == 0) {
		ic_swap(tmp, count, type, rbuf, count, type, ic);
		ic_free(tmp, count, type);
	}
	return PMPI_Bcast_c(rbuf, count, type, 0, l);
}

int smpi_icoll_allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
			 int rcount, MPI_Datatype rtype, MPI_Comm ic)
{
	MPI_Comm l = ic->inter;
	int64_t n = (int64_t)l->size * scount;
	void *tmp;
	int err;

	if ((err = ic_data(ic, scount, stype, "MPI_Allgather")) ||
	    (err = ic_data(ic, rcount, rtype, "MPI_Allgather")))
		return err;
	tmp = l->rank == 0 ? ic_alloc(n, stype, "MPI_Allgather") : NULL;
	if ((err = PMPI_Gather(sbuf, scount, stype, tmp, scount, stype, 0, l)))
		return err;
	if (l->rank == 0) {
		ic_swap(tmp, n, stype, rbuf, (int64_t)ic->size * rcount, rtype, ic);
		ic_free(tmp, n, stype);
	}
	return PMPI_Bcast(rbuf, ic->size * rcount, rtype, 0, l);
}

/* One block to and one from each member of the remote group: block r
 * goes out from sb[r] (sc[r] elements of st[r]) and comes in at rb[r]. */
struct ic_block {
	const void *sb;
	void *rb;
	int64_t sc, rc;
	MPI_Datatype st, rt;
};

static void ic_exchange(const struct ic_block *b, MPI_Comm ic, const char *fn)
{
	struct smpi_req *rq = malloc(2 * (size_t)ic->size * sizeof(*rq));

	if (!rq)
		smpi_fatal("%s: no memory for %d requests", fn, 2 * ic->size);
	for (int r = 0; r < ic->size; r++) {
		smpi_req_init(&rq[r], SMPI_REQ_RECV, SMPI_MODE_STD, b[r].rb, b[r].rc, b[r].rt, r,
			      IC_TAG, ic);
		rq[r].ctx = ic->ctx + SMPI_MAX_CTX;
		smpi_p2p_start(&rq[r]);
	}
	for (int r = 0; r < ic->size; r++) {
		smpi_req_init(&rq[ic->size + r], SMPI_REQ_SEND, SMPI_MODE_STD, b[r].sb, b[r].sc,
			      b[r].st, r, IC_TAG, ic);
		rq[ic->size + r].ctx = ic->ctx + SMPI_MAX_CTX;
		smpi_p2p_start(&rq[ic->size + r]);
	}
	for (int i = 0; i < 2 * ic->size; i++)
		smpi_req_wait(&rq[i]);
	free(rq);
}

static struct ic_block *ic_blocks(MPI_Comm ic, const char *fn)
{
	struct ic_block *b = calloc((size_t)ic->size, sizeof(*b));

	if (!b)
		smpi_fatal("%s: no memory for %d blocks", fn, ic->size);
	return b;
}

/* MPI 3.1 5.2.2: no MPI_IN_PLACE on an intercommunicator. */
static int ic_no_in_place(MPI_Comm ic, const void *sbuf, const void *rbuf, const char *fn)
{
	if (sbuf == MPI_IN_PLACE || rbuf == MPI_IN_PLACE)
		return smpi_err(ic, MPI_ERR_BUFFER, fn,
				"MPI_IN_PLACE is not allowed on an intercommunicator");
	return MPI_SUCCESS;
}

/* Counts of n members, checked; displacements scale by unit bytes. */
static int ic_counts(MPI_Comm ic, int n, struct smpi_ints counts, struct smpi_ints displs,
		     const MPI_Datatype types[], MPI_Datatype type, const char *fn)
{
	if (!counts.p || !displs.p)
		return smpi_err(ic, MPI_ERR_ARG, fn, "a counts or displacements array is NULL");
	for (int r = 0; r < n; r++) {
		int err;

		if (smpi_at(counts, r) < 0)
			return smpi_err(ic, MPI_ERR_COUNT, fn, "count %lld for rank %d is negative",
					(long long)smpi_at(counts, r), r);
		if ((err = smpi_type_check(ic, types ? types[r] : type, fn)))
			return err;
	}
	return MPI_SUCCESS;
}

int smpi_icoll_alltoallw(const void *sbuf, struct smpi_ints scounts, struct smpi_ints sdispls,
			 const MPI_Datatype stypes[], MPI_Datatype stype, void *rbuf,
			 struct smpi_ints rcounts, struct smpi_ints rdispls,
			 const MPI_Datatype rtypes[], MPI_Datatype rtype, int byte_disps, MPI_Comm ic,
			 const char *fn)
{
	struct ic_block *b;
	int err;

	if ((err = ic_no_in_place(ic, sbuf, rbuf, fn)) ||
	    (err = ic_counts(ic, ic->size, scounts, sdispls, stypes, stype, fn)) ||
	    (err = ic_counts(ic, ic->size, rcounts, rdispls, rtypes, rtype, fn)))
		return err;
	b = ic_blocks(ic, fn);
	for (int r = 0; r < ic->size; r++) {
		MPI_Datatype st = stypes ? stypes[r] : stype, rt = rtypes ? rtypes[r] : rtype;

		b[r] = (struct ic_block){
			.sb = (const char *)sbuf + smpi_at(sdispls, r) *
			      (byte_disps ? 1 : smpi_type_extent(st)),
			.rb = (char *)rbuf + smpi_at(rdispls, r) *
			      (byte_disps ? 1 : smpi_type_extent(rt)),
			.sc = smpi_at(scounts, r), .rc = smpi_at(rcounts, r), .st = st, .rt = rt };
	}
	ic_exchange(b, ic, fn);
	free(b);
	return MPI_SUCCESS;
}

int smpi_icoll_alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
			MPI_Datatype rtype, MPI_Comm ic)
{
	const char *fn = "MPI_Alltoall";
	struct ic_block *b;
	int err;

	if ((err = ic_no_in_place(ic, sbuf, rbuf, fn)) || (err = ic_data(ic, scount, stype, fn)) ||
	    (err = ic_data(ic, rcount, rtype, fn)))
		return err;
	b = ic_blocks(ic, fn);
	for (int r = 0; r < ic->size; r++)
		b[r] = (struct ic_block){
			.sb = (const char *)sbuf + (int64_t)r * scount * smpi_type_extent(stype),
			.rb = (char *)rbuf + (int64_t)r * rcount * smpi_type_extent(rtype),
			.sc = scount, .rc = rcount, .st = stype, .rt = rtype };
	ic_exchange(b, ic, fn);
	free(b);
	return MPI_SUCCESS;
}

/* Every member sends its block to every member of the other group. */
int smpi_icoll_allgatherv(const void *sbuf, int64_t scount, MPI_Datatype stype, void *rbuf,
			  struct smpi_ints rcounts, struct smpi_ints displs, MPI_Datatype rtype,
			  MPI_Comm ic, const char *fn)
{
	struct ic_block *b;
	int err;

	if ((err = ic_no_in_place(ic, sbuf, rbuf, fn)) || (err = ic_data(ic, scount, stype, fn)) ||
	    (err = ic_counts(ic, ic->size, rcounts, displs, NULL, rtype, fn)))
		return err;
	b = ic_blocks(ic, fn);
	for (int r = 0; r < ic->size; r++)
		b[r] = (struct ic_block){
			.sb = sbuf, .sc = scount, .st = stype,
			.rb = (char *)rbuf + smpi_at(displs, r) * smpi_type_extent(rtype),
			.rc = smpi_at(rcounts, r), .rt = rtype };
	ic_exchange(b, ic, fn);
	free(b);
	return MPI_SUCCESS;
}

int smpi_icoll_gatherv(const void *sbuf, int64_t scount, MPI_Datatype stype, void *rbuf,
		       struct smpi_ints rcounts, struct smpi_ints displs, MPI_Datatype rtype,
		       int root, MPI_Comm ic, const char *fn)
{
	int err;

	if ((err = ic_root_check(ic, root, fn)) ||
	    (root == MPI_ROOT && (err = ic_counts(ic, ic->size, rcounts, displs, NULL, rtype, fn))) ||
	    (root >= 0 && (err = ic_data(ic, scount, stype, fn))))
		return err;
	if (root == MPI_ROOT) {
		for (int r = 0; r < ic->size; r++)
			ic_recv((char *)rbuf + smpi_at(displs, r) * smpi_type_extent(rtype),
				smpi_at(rcounts, r), rtype, r, ic);
	} else if (root != MPI_PROC_NULL) {
		ic_send(sbuf, scount, stype, root, ic);
	}
	return MPI_SUCCESS;
}

int smpi_icoll_scatterv(const void *sbuf, struct smpi_ints scounts, struct smpi_ints displs,
			MPI_Datatype stype, void *rbuf, int64_t rcount, MPI_Datatype rtype, int root,
			MPI_Comm ic, const char *fn)
{
	int err;

	if ((err = ic_root_check(ic, root, fn)) ||
	    (root == MPI_ROOT && (err = ic_counts(ic, ic->size, scounts, displs, NULL, stype, fn))) ||
	    (root >= 0 && (err = ic_data(ic, rcount, rtype, fn))))
		return err;
	if (root == MPI_ROOT) {
		for (int r = 0; r < ic->size; r++)
			ic_send((const char *)sbuf + smpi_at(displs, r) * smpi_type_extent(stype),
				smpi_at(scounts, r), stype, r, ic);
	} else if (root != MPI_PROC_NULL) {
		ic_recv(rbuf, rcount, rtype, root, ic);
	}
	return MPI_SUCCESS;
}

/*
 * MPI 3.1 5.10: each group reduces its vectors of sum(rcounts) elements
 * (the same sum in both groups) and the result scatters over the other
 * group by its rcounts: each group reduces to its first member, the
 * leaders swap, and each leader scatters what it got.  rcounts NULL: block
 * elements each.
 */
int smpi_icoll_reduce_scatter(const void *sbuf, void *rbuf, struct smpi_ints rcounts,
			      int64_t block, MPI_Datatype type, MPI_Op op, MPI_Comm ic,
			      const char *fn)
{
	MPI_Comm l = ic->inter;
	int64_t total = 0;
	int64_t *counts, *displs;
	int err;
	void *mine = NULL, *theirs = NULL;

	if ((err = ic_no_in_place(ic, sbuf, rbuf, fn)) || (err = smpi_type_check(ic, type, fn)))
		return err;
	if (!(counts = malloc(2 * (size_t)l->size * sizeof(*counts))))
		smpi_fatal("%s: no memory for %d counts", fn, l->size);
	displs = counts + l->size;
	for (int r = 0; r < l->size; r++) {
		counts[r] = rcounts.p ? smpi_at(rcounts, r) : block;
		if (counts[r] < 0) {
			free(counts);
			return smpi_err(ic, MPI_ERR_COUNT, fn, "count %lld for rank %d is negative",
					(long long)counts[r], r);
		}
		displs[r] = total;
		total += counts[r];
	}
	if (l->rank == 0) {
		mine = ic_alloc(total, type, fn);
		theirs = ic_alloc(total, type, fn);
	}
	err = smpi_reduce(sbuf, mine, total, type, op, 0, l, fn);
	if (!err && l->rank == 0)
		ic_swap(mine, total, type, theirs, total, type, ic);
	if (!err)
		err = smpi_scatterv(theirs, SMPI_WIDE(counts), SMPI_WIDE(displs), type, rbuf,
				    counts[l->rank], type, 0, l, fn);
	if (l->rank == 0) {
		ic_free(mine, total, type);
		ic_free(theirs, total, type);
	}
	free(counts);
	return err;
}
