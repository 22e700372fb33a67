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

static int ic_data(MPI_Comm ic, int count, MPI_Datatype type, const char *fn)
{
	if (count < 0)
		return smpi_err(ic, MPI_ERR_COUNT, fn, "count %d is negative", count);
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

int smpi_icoll_reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
		      int root, MPI_Comm ic)
{
	MPI_Comm l = ic->inter;
	void *tmp;
	int err;

	if ((err = ic_root_check(ic, root, "MPI_Reduce")) ||
	    (root != MPI_PROC_NULL && (err = ic_data(ic, count, type, "MPI_Reduce"))))
		return err;
	if (root == MPI_ROOT) {
		ic_recv(rbuf, count, type, 0, ic);
	} else if (root != MPI_PROC_NULL) {
		/* This group reduces to its first member, who sends it over. */
		tmp = l->rank == 0 ? ic_alloc(count, type, "MPI_Reduce") : NULL;
		if ((err = PMPI_Reduce(sbuf, tmp, count, type, op, 0, l)))
			return err;
		if (l->rank == 0) {
			ic_send(tmp, count, type, root, ic);
			ic_free(tmp, count, type);
		}
	}
	return MPI_SUCCESS;
}

int smpi_icoll_allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
			 MPI_Comm ic)
{
	MPI_Comm l = ic->inter;
	void *tmp;
	int err;

	if ((err = ic_data(ic, count, type, "MPI_Allreduce")))
		return err;
	tmp = l->rank == 0 ? ic_alloc(count, type, "MPI_Allreduce") : NULL;
	/* Each group reduces its own; the leaders swap; each spreads the
	 * other group's result. */
	if ((err = PMPI_Reduce(sbuf, tmp, count, type, op, 0, l)))
		return err;
	if (l->rank == 0) {
		ic_swap(tmp, count, type, rbuf, count, type, ic);
		ic_free(tmp, count, type);
	}
	return PMPI_Bcast(rbuf, count, type, 0, l);
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

int smpi_icoll_alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
			MPI_Datatype rtype, MPI_Comm ic)
{
	struct smpi_req *rq;
	int err;

	if ((err = ic_data(ic, scount, stype, "MPI_Alltoall")) ||
	    (err = ic_data(ic, rcount, rtype, "MPI_Alltoall")))
		return err;
	if (!(rq = malloc(2 * (size_t)ic->size * sizeof(*rq))))
		smpi_fatal("MPI_Alltoall: no memory for %d requests", 2 * ic->size);
	for (int r = 0; r < ic->size; r++) {
		smpi_req_init(&rq[r], SMPI_REQ_RECV, SMPI_MODE_STD,
			      (char *)rbuf + (int64_t)r * rcount * smpi_type_extent(rtype), rcount,
			      rtype, r, IC_TAG, ic);
		rq[r].ctx = ic->ctx + SMPI_MAX_CTX;
		smpi_p2p_start(&rq[r]);
	}
	for (int r = 0; r < ic->size; r++) {
		smpi_req_init(&rq[ic->size + r], SMPI_REQ_SEND, SMPI_MODE_STD,
			      (const char *)sbuf + (int64_t)r * scount * smpi_type_extent(stype),
			      scount, stype, r, IC_TAG, ic);
		rq[ic->size + r].ctx = ic->ctx + SMPI_MAX_CTX;
		smpi_p2p_start(&rq[ic->size + r]);
	}
	for (int i = 0; i < 2 * ic->size; i++)
		smpi_req_wait(&rq[i]);
	free(rq);
	return MPI_SUCCESS;
}
