/*
 * coll.c - MPI's collectives: the face over libsmap's collective engine
 * (libsmap/coll), which moves contiguous bytes and reduces elements
 * through SMARTMAP.  This file maps communicators to engine groups, MPI
 * datatypes to byte counts (or to packed copies when a layout is not one
 * contiguous run), ops and types to element callbacks, and MPI_IN_PLACE to
 * the engine's pointer identity.
 *
 * The common case - MPI running, an on-node communicator, a predefined
 * type, a predefined op that applies to it - is a few compares and one
 * call into the engine (coll_fast and the top of Barrier, Bcast, Gather,
 * Scatter, Reduce and Allreduce); everything else takes the full path,
 * which checks every argument and says what it turns down.
 *
 * A communicator spanning nodes has a span group (libsmap/coll/span.c):
 * the same engine calls, run as messages over point-to-point; the whole
 * job's barrier takes smap_barrier (the wire, or the network).
 */
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include "impl.h"
#include "../coll/coll.h"
#include "nbc.h"

static const size_t coll_vform[1];

/* The arguments every call shares are those of the common case: no check
 * that could fail is left for the engine's view of comm and type. */
static inline int coll_fast(MPI_Comm comm, int count, MPI_Datatype type, const char *fn)
{
	core_call = fn;
	return __builtin_expect(smpi_active && smpi_live(comm, SMPI_LIVE_COMM) && comm->coll &&
				comm->errh->fatal && count >= 0 && smpi_live(type, SMPI_LIVE_TYPE) &&
				type->predefined, 1);
}

/* The engine's operator for op on the predefined type, or NULL. */
static inline const struct coll_op *coll_engine_op(MPI_Op op, MPI_Datatype type)
{
	return smpi_live(op, SMPI_LIVE_OP) && op->engine && op->engine[type->kind].fn ?
		&op->engine[type->kind] : NULL;
}

/* ---- what the members must agree on (docs/mpi.md, "Collective arguments") ---- */

_Static_assert(sizeof(struct smpi_coll_desc) == COLL_DESC_MAX, "the engine copies COLL_DESC_MAX bytes");

/*
 * Describes the next engine call on comm to the engine, which compares it
 * across the members: the call, root (-1: none), op (NULL: none) and the
 * signature of count elements of type (NULL: none) - per block for the
 * calls that move blocks.  A user op is known by its function.
 */
static inline void coll_expect_args(MPI_Comm comm, const char *call, int root, MPI_Op op,
				    MPI_Datatype type, int64_t count)
{
	int32_t kind;
	int64_t basics, bytes;
	uint64_t h, m;

	if (__builtin_expect(smpi_coll_checking <= 0, 0) &&
	    (smpi_coll_checking == 0 || !smpi_coll_check_setup()))
		return;
	kind = type ? type->kind : -1;
	basics = type ? count * dt_root(type->dt)->nbasic : 0;
	bytes = type ? count * smpi_type_size(type) : 0;
	/* Independent products, so the hash costs one multiply's latency.
	 * The mark leaves the signature out, which untyped data need not
	 * share, except for a reduction, where it must. */
	m = (uintptr_t)call * 0x9e3779b97f4a7c15ull ^
	    (uint64_t)(uint32_t)root * 0xc2b2ae3d27d4eb4full ^
	    (op ? (op->user ? (uintptr_t)op->user : (uintptr_t)op) : 0) * 0x165667b19e3779f9ull ^
	    (uint64_t)bytes * 0xc4ceb9fe1a85ec53ull;
	h = m ^ (uint64_t)(uint32_t)kind * 0xd6e8feb86659fd93ull ^
	    (uint64_t)basics * 0xff51afd7ed558ccdull;
	if (op)
		m = h;
	if (__builtin_expect(coll_expect(comm->coll, (uint32_t)(h ^ h >> 32) | 1,
					 (uint32_t)(m ^ m >> 32) | 1, comm), 0)) {
		struct smpi_coll_desc d;

		d.call = call;
		d.op = op ? op->name : NULL;
		d.root_kind = (uint32_t)root | (uint64_t)(uint32_t)kind << 32;
		d.count = basics;
		d.bytes = bytes;
		coll_describe(comm->coll, &d);
	}
}

/*
 * Runs an engine call so that a disagreement it finds returns the error
 * its handler gave from the calling function (under MPI_ERRORS_ARE_FATAL
 * the job has ended already).  Temporaries of the call are not freed then:
 * the communicator's collectives are unusable after such an error anyway.
 * After the jump the function reads no local variable, only returns
 * smpi_coll_err: what -Wclobbered warns of cannot happen here.
 */
#pragma GCC diagnostic ignored "-Wclobbered"
#define COLL_RUN(engine_call) do { \
	jmp_buf jb_; \
	if (setjmp(jb_)) { \
		smpi_coll_jump = NULL; \
		return smpi_coll_err; \
	} \
	smpi_coll_jump = &jb_; \
	engine_call; \
	smpi_coll_jump = NULL; \
} while (0)

/* An intercommunicator's collectives are intercoll.c's. */
#define COLL_INTER(comm, call) do { \
	if (smpi_active && smpi_live(comm, SMPI_LIVE_COMM) && (comm)->inter) \
		return call; \
} while (0)

static int coll_check(MPI_Comm comm, const char *fn)
{
	int err;

	if ((err = smpi_check_init(fn)) || (err = smpi_comm_check(comm, fn)) ||
	    (err = smpi_intra_check(comm, fn)))
		return err;
	/* Makes the engine's group of a communicator that deferred it. */
	smpi_comm_coll(comm);
	return MPI_SUCCESS;
}

static int coll_count(MPI_Comm comm, int64_t count, MPI_Datatype type, const char *fn)
{
	if (count < 0)
		return smpi_err(comm, MPI_ERR_COUNT, fn, "count %lld is negative", (long long)count);
	return smpi_type_check(comm, type, fn);
}

/* coll_count, and a buffer that can hold the data. */
static int coll_data(MPI_Comm comm, const void *buf, int64_t count, MPI_Datatype type,
		     const char *fn)
{
	int err;

	if ((err = coll_count(comm, count, type, fn)))
		return err;
	return smpi_buf_check(comm, buf, count, type, fn);
}

static int coll_root(MPI_Comm comm, int root, const char *fn)
{
	if (root < 0 || root >= comm->size)
		return smpi_err(comm, MPI_ERR_ROOT, fn, "root %d is not in a communicator of %d",
				root, comm->size);
	return MPI_SUCCESS;
}

/* One contiguous run of count elements starting at buf itself. */
static int coll_dense(MPI_Datatype t)
{
	return dt_is_dense(t->dt);
}

static void *coll_alloc(int64_t bytes, const char *fn)
{
	void *p = malloc(bytes ? bytes : 1);

	if (!p)
		smpi_fatal("%s: no memory for a packed copy of %lld bytes", fn, (long long)bytes);
	return p;
}

/* A packed copy of count elements of t at buf (free it). */
static void *coll_pack(const void *buf, int64_t count, MPI_Datatype t, const char *fn)
{
	int64_t bytes = count * smpi_type_size(t);
	void *p = coll_alloc(bytes, fn);

	smpi_type_copy(p, bytes, MPI_BYTE, buf, count, t);
	return p;
}

static void coll_unpack(void *buf, int64_t count, MPI_Datatype t, const void *packed)
{
	smpi_type_copy(buf, count, t, packed, count * smpi_type_size(t), MPI_BYTE);
}

/*
 * The end of a collective that went through packed copies: the packed
 * result r (if any) into buf, then both copies freed; s only when it was
 * allocated here rather than pointing into the receive buffer.
 */
static int coll_finish(void *buf, int64_t count, MPI_Datatype t, void *r, void *s, int s_owned)
{
	if (r) {
		coll_unpack(buf, count, t, r);
		free(r);
	}
	if (s_owned)
		free(s);
	return MPI_SUCCESS;
}

static __attribute__((noinline)) int coll_barrier_full(MPI_Comm comm)
{
	int err;

	COLL_INTER(comm, smpi_icoll_barrier(comm));
	if ((err = coll_check(comm, "MPI_Barrier")))
		return err;
	if (comm->whole) {
		/* Across nodes messages must move while the rank waits. */
		if (smap_nnodes() > 1)
			core_barrier_progress(smpi_progress);
		else
			smap_barrier();
		return MPI_SUCCESS;
	}
	coll_expect_args(comm, "MPI_Barrier", -1, NULL, NULL, 0);
	COLL_RUN(coll_barrier(comm->coll));
	return MPI_SUCCESS;
}

int PMPI_Barrier(MPI_Comm comm)
{
	core_call = "MPI_Barrier";
	if (__builtin_expect(smpi_active && smpi_live(comm, SMPI_LIVE_COMM) && comm->coll &&
			     !comm->whole && comm->errh->fatal, 1)) {
		coll_expect_args(comm, "MPI_Barrier", -1, NULL, NULL, 0);
		coll_barrier(comm->coll);
		return MPI_SUCCESS;
	}
	return coll_barrier_full(comm);
}

static __attribute__((noinline)) int coll_bcast_full(void *buf, int count, MPI_Datatype type,
						     int root, MPI_Comm comm)
{
	const char *fn = "MPI_Bcast";
	int err;
	void *tmp;

	COLL_INTER(comm, smpi_icoll_bcast(buf, count, type, root, comm));
	if ((err = coll_check(comm, fn)) || (err = coll_data(comm, buf, count, type, fn)) ||
	    (err = coll_root(comm, root, fn)))
		return err;
	coll_expect_args(comm, fn, root, NULL, type, count);
	if (coll_dense(type)) {
		COLL_RUN(coll_bcast(comm->coll, buf, count * smpi_type_size(type), root));
		return MPI_SUCCESS;
	}
	tmp = comm->rank == root ? coll_pack(buf, count, type, fn)
				 : coll_alloc(count * smpi_type_size(type), fn);
	COLL_RUN(coll_bcast(comm->coll, tmp, count * smpi_type_size(type), root));
	if (comm->rank != root)
		coll_unpack(buf, count, type, tmp);
	free(tmp);
	return MPI_SUCCESS;
}

int PMPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
	if (coll_fast(comm, count, type, "MPI_Bcast") && (buf || !count) &&
	    (unsigned)root < (unsigned)comm->size && coll_dense(type)) {
		coll_expect_args(comm, "MPI_Bcast", root, NULL, type, count);
		coll_bcast(comm->coll, buf, count * smpi_type_size(type), root);
		return MPI_SUCCESS;
	}
	return coll_bcast_full(buf, count, type, root, comm);
}

/* ---- data movement: gather, scatter, allgather, alltoall and v/w ---- */

/* Checks that a member's send and receive signatures carry the same bytes. */
static int coll_same(MPI_Comm comm, int64_t sbytes, int64_t rbytes, const char *fn)
{
	if (sbytes != rbytes)
		return smpi_err(comm, MPI_ERR_TRUNCATE, fn,
				"send data of %lld bytes does not match receive data of %lld bytes",
				(long long)sbytes, (long long)rbytes);
	return MPI_SUCCESS;
}

/*
 * Gather's and scatter's common case, as this member sees it: its own
 * block (mine: gather's send, scatter's receive) and, at the root, the
 * whole buffer (all) of dense predefined data, the same bytes, no
 * MPI_IN_PLACE and no block that aliases the other.  Everything the
 * full path would check holds; then the call is described (per block:
 * the root's whole buffer's, the others' own).
 */
static inline int coll_fast_blocks(MPI_Comm comm, const void *mine, int mcount, MPI_Datatype mtype,
				   const void *all, int acount, MPI_Datatype atype, int root,
				   const char *fn)
{
	if (!coll_fast(comm, mcount, mtype, fn) || (unsigned)root >= (unsigned)comm->size ||
	    mine == MPI_IN_PLACE || (!mine && mcount) || !coll_dense(mtype))
		return 0;
	if (comm->rank != root) {
		coll_expect_args(comm, fn, root, NULL, mtype, mcount);
		return 1;
	}
	if (acount < 0 || !smpi_live(atype, SMPI_LIVE_TYPE) || !atype->predefined ||
	    !coll_dense(atype) || all == MPI_IN_PLACE || (!all && acount) ||
	    (int64_t)mcount * smpi_type_size(mtype) != (int64_t)acount * smpi_type_size(atype) ||
	    mine == all || mine == (const char *)all + (int64_t)root * acount * smpi_type_size(atype))
		return 0;
	coll_expect_args(comm, fn, root, NULL, atype, acount);
	return 1;
}

static __attribute__((noinline)) int coll_gather_full(const void *sbuf, int scount,
						      MPI_Datatype stype, void *rbuf, int rcount,
						      MPI_Datatype rtype, int root, MPI_Comm comm)
{
	const char *fn = "MPI_Gather";
	int in_place = sbuf == MPI_IN_PLACE && comm && comm->rank == root;
	int64_t bytes;
	void *s = NULL, *r = NULL;
	int err;

	COLL_INTER(comm, smpi_icoll_gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm));
	if ((err = coll_check(comm, fn)) || (err = coll_root(comm, root, fn)) ||
	    (err = smpi_coll_alias(comm, sbuf, rbuf, comm->rank == root ?
				     smpi_coll_block(rbuf, (int64_t)root * rcount, rtype) : NULL,
				     comm->rank == root, fn)))
		return err;
	if (comm->rank == root && (err = coll_data(comm, rbuf, rcount, rtype, fn)))
		return err;
	if (!in_place && (err = coll_data(comm, sbuf, scount, stype, fn)))
		return err;
	bytes = in_place ? rcount * smpi_type_size(rtype) : scount * smpi_type_size(stype);
	if (comm->rank == root && (err = coll_same(comm, bytes, rcount * smpi_type_size(rtype), fn)))
		return err;
	if (comm->rank == root && !coll_dense(rtype)) {
		r = coll_alloc(bytes * comm->size, fn);
		if (in_place)
			smpi_type_copy((char *)r + bytes * root, bytes, MPI_BYTE,
				       (char *)rbuf + root * rcount * smpi_type_extent(rtype), rcount,
				       rtype);
	}
	if (in_place)
		s = r ? (char *)r + bytes * root
		      : (char *)rbuf + (int64_t)root * rcount * smpi_type_extent(rtype);
	else if (!coll_dense(stype))
		s = coll_pack(sbuf, scount, stype, fn);
	if (comm->rank == root)
		coll_expect_args(comm, fn, root, NULL, rtype, rcount);
	else
		coll_expect_args(comm, fn, root, NULL, stype, scount);
	COLL_RUN(coll_gather(comm->coll, s ? s : sbuf, r ? r : rbuf, bytes, root));
	return coll_finish(rbuf, (int64_t)rcount * comm->size, rtype, r, s, !in_place);
}

int PMPI_Gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
		MPI_Datatype rtype, int root, MPI_Comm comm)
{
	if (coll_fast_blocks(comm, sbuf, scount, stype, rbuf, rcount, rtype, root, "MPI_Gather")) {
		coll_gather(comm->coll, sbuf, rbuf, scount * smpi_type_size(stype), root);
		return MPI_SUCCESS;
	}
	return coll_gather_full(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
}

static __attribute__((noinline)) int coll_scatter_full(const void *sbuf, int scount,
						       MPI_Datatype stype, void *rbuf, int rcount,
						       MPI_Datatype rtype, int root, MPI_Comm comm)
{
	const char *fn = "MPI_Scatter";
	int in_place = rbuf == MPI_IN_PLACE && comm && comm->rank == root;
	void *s = NULL, *r = NULL, *rdst;
	int64_t bytes;
	int err;

	COLL_INTER(comm, smpi_icoll_scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm));
	if ((err = coll_check(comm, fn)) || (err = coll_root(comm, root, fn)) ||
	    (err = smpi_coll_alias(comm, rbuf, sbuf, comm->rank == root ?
				     smpi_coll_block(sbuf, (int64_t)root * scount, stype) : NULL,
				     comm->rank == root, fn)))
		return err;
	if (comm->rank == root && (err = coll_data(comm, sbuf, scount, stype, fn)))
		return err;
	if (!in_place && (err = coll_data(comm, rbuf, rcount, rtype, fn)))
		return err;
	bytes = in_place ? scount * smpi_type_size(stype) : rcount * smpi_type_size(rtype);
	if (comm->rank == root && (err = coll_same(comm, scount * smpi_type_size(stype), bytes, fn)))
		return err;
	if (comm->rank == root && !coll_dense(stype))
		s = coll_pack(sbuf, (int64_t)scount * comm->size, stype, fn);
	if (in_place)
		rdst = (s ? (char *)s : (char *)sbuf) + bytes * root;
	else if (!coll_dense(rtype))
		rdst = r = coll_alloc(bytes, fn);
	else
		rdst = rbuf;
	if (comm->rank == root)
		coll_expect_args(comm, fn, root, NULL, stype, scount);
	else
		coll_expect_args(comm, fn, root, NULL, rtype, rcount);
	COLL_RUN(coll_scatter(comm->coll, s ? s : sbuf, rdst, bytes, root));
	return coll_finish(rbuf, rcount, rtype, r, s, 1);
}

int PMPI_Scatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
		 MPI_Datatype rtype, int root, MPI_Comm comm)
{
	if (coll_fast_blocks(comm, rbuf, rcount, rtype, sbuf, scount, stype, root, "MPI_Scatter")) {
		coll_scatter(comm->coll, sbuf, rbuf, rcount * smpi_type_size(rtype), root);
		return MPI_SUCCESS;
	}
	return coll_scatter_full(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
}

int PMPI_Allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
		   MPI_Datatype rtype, MPI_Comm comm)
{
	const char *fn = "MPI_Allgather";
	int in_place = sbuf == MPI_IN_PLACE;
	void *s = NULL, *r = NULL;
	int64_t bytes;
	int err;

	COLL_INTER(comm, smpi_icoll_allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm));
	if ((err = coll_check(comm, fn)) || (err = smpi_coll_alias(comm, sbuf, rbuf,
				     smpi_coll_block(rbuf, (int64_t)comm->rank * rcount, rtype), 1, fn)) ||
	    (err = coll_data(comm, rbuf, rcount, rtype, fn)))
		return err;
	if (!in_place && (err = coll_data(comm, sbuf, scount, stype, fn)))
		return err;
	bytes = rcount * smpi_type_size(rtype);
	if (!in_place && (err = coll_same(comm, scount * smpi_type_size(stype), bytes, fn)))
		return err;
	if (!coll_dense(rtype)) {
		r = coll_alloc(bytes * comm->size, fn);
		if (in_place)
			smpi_type_copy((char *)r + bytes * comm->rank, bytes, MPI_BYTE,
				       (char *)rbuf + (int64_t)comm->rank * rcount * smpi_type_extent(rtype),
				       rcount, rtype);
	}
	if (in_place)
		s = r ? (char *)r + bytes * comm->rank
		      : (char *)rbuf + (int64_t)comm->rank * rcount * smpi_type_extent(rtype);
	else if (!coll_dense(stype))
		s = coll_pack(sbuf, scount, stype, fn);
	coll_expect_args(comm, fn, -1, NULL, rtype, rcount);
	COLL_RUN(coll_allgather(comm->coll, s ? s : sbuf, r ? r : rbuf, bytes));
	return coll_finish(rbuf, (int64_t)rcount * comm->size, rtype, r, s, !in_place);
}

int PMPI_Alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
		  MPI_Datatype rtype, MPI_Comm comm)
{
	const char *fn = "MPI_Alltoall";
	int in_place = sbuf == MPI_IN_PLACE;
	void *s = NULL, *r = NULL;
	int64_t bytes, n;
	int err;

	COLL_INTER(comm, smpi_icoll_alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm));
	if ((err = coll_check(comm, fn)) || (err = smpi_coll_alias(comm, sbuf, rbuf, NULL, 1, fn)) ||
	    (err = coll_data(comm, rbuf, rcount, rtype, fn)))
		return err;
	if (!in_place && (err = coll_data(comm, sbuf, scount, stype, fn)))
		return err;
	bytes = rcount * smpi_type_size(rtype);
	if (!in_place && (err = coll_same(comm, scount * smpi_type_size(stype), bytes, fn)))
		return err;
	n = (int64_t)rcount * comm->size;
	if (!coll_dense(rtype))
		r = in_place ? coll_pack(rbuf, n, rtype, fn) : coll_alloc(bytes * comm->size, fn);
	if (in_place)
		s = r ? r : rbuf;
	else if (!coll_dense(stype))
		s = coll_pack(sbuf, (int64_t)scount * comm->size, stype, fn);
	coll_expect_args(comm, fn, -1, NULL, rtype, rcount);
	COLL_RUN(coll_alltoall(comm->coll, s ? s : sbuf, r ? r : rbuf, bytes));
	return coll_finish(rbuf, n, rtype, r, s, !in_place);
}

/*
 * The v and w forms: per-member counts and displacements.  Dense types go
 * straight to the engine with byte counts and displacements; other layouts
 * are packed block by block into a contiguous copy first.
 */
struct coll_blocks {
	size_t *counts, *displs;	/* bytes, for the engine */
	char *packed;			/* NULL when the user's buffer is used */
};

static void coll_blocks_free(struct coll_blocks *b)
{
	free(b->counts);
	free(b->packed);
}

/* Describes n blocks (count[i] elements of type[i] at disp[i] units of
 * dispunit(i)) for the engine; packs them when pack is set and a layout
 * is not dense, or only lays out the packed space when fill is clear. */
static void coll_blocks_make(struct coll_blocks *b, int n, const void *buf,
			     struct smpi_ints count, struct smpi_ints disp,
			     const MPI_Datatype *types, MPI_Datatype one, int byte_disps, int fill,
			     const char *fn)
{
	int64_t off = 0;
	int i, dense = 1;

	b->counts = coll_alloc(2 * n * sizeof(size_t), fn);
	b->displs = b->counts + n;
	b->packed = NULL;
	for (i = 0; i < n; i++)
		if (!coll_dense(types ? types[i] : one))
			dense = 0;
	for (i = 0; i < n; i++) {
		MPI_Datatype t = types ? types[i] : one;

		b->counts[i] = smpi_at(count, i) * smpi_type_size(t);
		b->displs[i] = smpi_at(disp, i) * (byte_disps ? 1 : smpi_type_extent(t));
		off += b->counts[i];
	}
	if (dense)
		return;
	b->packed = coll_alloc(off, fn);
	off = 0;
	for (i = 0; i < n; i++) {
		MPI_Datatype t = types ? types[i] : one;

		if (fill)
			smpi_type_copy(b->packed + off, b->counts[i], MPI_BYTE,
				       (const char *)buf + b->displs[i], smpi_at(count, i), t);
		b->displs[i] = off;
		off += b->counts[i];
	}
}

static void coll_blocks_unpack(struct coll_blocks *b, int n, void *buf, struct smpi_ints count,
			       struct smpi_ints disp, const MPI_Datatype *types, MPI_Datatype one,
			       int byte_disps)
{
	int i;

	if (!b->packed)
		return;
	for (i = 0; i < n; i++) {
		MPI_Datatype t = types ? types[i] : one;
		int64_t d = smpi_at(disp, i) * (byte_disps ? 1 : smpi_type_extent(t));

		smpi_type_copy((char *)buf + d, smpi_at(count, i), t, b->packed + b->displs[i],
			       b->counts[i], MPI_BYTE);
	}
}

/* A v form's arrays, where they are read: there, with no negative count. */
static int coll_vec_check(MPI_Comm comm, struct smpi_ints counts, struct smpi_ints displs,
			  const char *fn)
{
	if (!counts.p || !displs.p)
		return smpi_err(comm, MPI_ERR_ARG, fn, "an array of counts or displacements is NULL");
	for (int i = 0; i < comm->size; i++)
		if (smpi_at(counts, i) < 0)
			return smpi_err(comm, MPI_ERR_COUNT, fn, "count %lld for rank %d is negative",
					(long long)smpi_at(counts, i), i);
	return MPI_SUCCESS;
}

static int coll_gatherv_any(const void *sbuf, int64_t scount, MPI_Datatype stype, void *rbuf,
			    struct smpi_ints rcounts, struct smpi_ints displs, MPI_Datatype rtype,
			    int root, MPI_Comm comm, const char *fn)
{
	int in_place = sbuf == MPI_IN_PLACE && comm && comm->rank == root;
	struct coll_blocks rb = { 0 };
	const void *s = sbuf;
	void *spack = NULL;
	int64_t sbytes;
	int err;

	COLL_INTER(comm, smpi_icoll_gatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root,
					    comm, fn));
	if ((err = coll_check(comm, fn)) || (err = coll_root(comm, root, fn)) ||
	    (err = smpi_coll_alias(comm, sbuf, rbuf,
				     displs.p && comm->rank == root ?
				     smpi_coll_block(rbuf, smpi_at(displs, root), rtype) : NULL,
				     comm->rank == root, fn)))
		return err;
	if (comm->rank == root && ((err = smpi_type_check(comm, rtype, fn)) ||
				   (err = coll_vec_check(comm, rcounts, displs, fn))))
		return err;
	if (!in_place && (err = coll_count(comm, scount, stype, fn)))
		return err;
	if (comm->rank == root)
		coll_blocks_make(&rb, comm->size, rbuf, rcounts, displs, NULL, rtype, 0, in_place, fn);
	if (in_place) {
		sbytes = rb.counts[root];
		s = (rb.packed ? rb.packed : (char *)rbuf) + rb.displs[root];
	} else {
		sbytes = scount * smpi_type_size(stype);
		if (comm->rank == root && (err = coll_same(comm, sbytes, rb.counts[root], fn))) {
			coll_blocks_free(&rb);
			return err;
		}
		if (!coll_dense(stype))
			s = spack = coll_pack(sbuf, scount, stype, fn);
	}
	coll_expect_args(comm, fn, root, NULL, NULL, 0);
	COLL_RUN(coll_gatherv(comm->coll, s, sbytes, rb.packed ? rb.packed : rbuf, rb.counts,
			      rb.displs, root));
	if (comm->rank == root)
		coll_blocks_unpack(&rb, comm->size, rbuf, rcounts, displs, NULL, rtype, 0);
	coll_blocks_free(&rb);
	free(spack);
	return MPI_SUCCESS;
}

int PMPI_Gatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
		 const int rcounts[], const int displs[], MPI_Datatype rtype, int root, MPI_Comm comm)
{
	return coll_gatherv_any(sbuf, scount, stype, rbuf, SMPI_INTS(rcounts), SMPI_INTS(displs),
				rtype, root, comm, "MPI_Gatherv");
}

int PMPI_Gatherv_c(const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
		   const MPI_Count rcounts[], const MPI_Aint displs[], MPI_Datatype rtype, int root,
		   MPI_Comm comm)
{
	return coll_gatherv_any(sbuf, scount, stype, rbuf, SMPI_WIDE(rcounts), SMPI_WIDE(displs),
				rtype, root, comm, "MPI_Gatherv_c");
}

int smpi_scatterv(const void *sbuf, struct smpi_ints scounts, struct smpi_ints displs,
		  MPI_Datatype stype, void *rbuf, int64_t rcount, MPI_Datatype rtype, int root,
		  MPI_Comm comm, const char *fn)
{
	int in_place = rbuf == MPI_IN_PLACE && comm && comm->rank == root;
	struct coll_blocks sb = { 0 };
	void *r = rbuf, *rpack = NULL;
	int64_t rbytes;
	int err;

	COLL_INTER(comm, smpi_icoll_scatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root,
					     comm, fn));
	if ((err = coll_check(comm, fn)) || (err = coll_root(comm, root, fn)) ||
	    (err = smpi_coll_alias(comm, rbuf, sbuf,
				     displs.p && comm->rank == root ?
				     smpi_coll_block(sbuf, smpi_at(displs, root), stype) : NULL,
				     comm->rank == root, fn)))
		return err;
	if (comm->rank == root && ((err = smpi_type_check(comm, stype, fn)) ||
				   (err = coll_vec_check(comm, scounts, displs, fn))))
		return err;
	if (!in_place && (err = coll_count(comm, rcount, rtype, fn)))
		return err;
	if (comm->rank == root)
		coll_blocks_make(&sb, comm->size, sbuf, scounts, displs, NULL, stype, 0, 1, fn);
	if (in_place) {
		rbytes = sb.counts[root];
		r = (sb.packed ? sb.packed : (char *)sbuf) + sb.displs[root];
	} else {
		rbytes = rcount * smpi_type_size(rtype);
		if (comm->rank == root && (err = coll_same(comm, sb.counts[root], rbytes, fn))) {
			coll_blocks_free(&sb);
			return err;
		}
		if (!coll_dense(rtype))
			r = rpack = coll_alloc(rbytes, fn);
	}
	/* The engine reads the counts at the root only, but tells the v form
	 * from the uniform one by the pointer on every member. */
	coll_expect_args(comm, fn, root, NULL, NULL, 0);
	COLL_RUN(coll_scatterv(comm->coll, sb.packed ? sb.packed : sbuf,
			       sb.counts ? sb.counts : coll_vform, sb.displs ? sb.displs : coll_vform,
			       r, rbytes, root));
	coll_blocks_free(&sb);
	return coll_finish(rbuf, rcount, rtype, rpack, NULL, 0);
}

int PMPI_Scatterv(const void *sbuf, const int scounts[], const int displs[], MPI_Datatype stype,
		  void *rbuf, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm)
{
	return smpi_scatterv(sbuf, SMPI_INTS(scounts), SMPI_INTS(displs), stype, rbuf, rcount,
			     rtype, root, comm, "MPI_Scatterv");
}

int PMPI_Scatterv_c(const void *sbuf, const MPI_Count scounts[], const MPI_Aint displs[],
		    MPI_Datatype stype, void *rbuf, MPI_Count rcount, MPI_Datatype rtype, int root,
		    MPI_Comm comm)
{
	return smpi_scatterv(sbuf, SMPI_WIDE(scounts), SMPI_WIDE(displs), stype, rbuf, rcount,
			     rtype, root, comm, "MPI_Scatterv_c");
}

static int coll_allgatherv_any(const void *sbuf, int64_t scount, MPI_Datatype stype, void *rbuf,
			       struct smpi_ints rcounts, struct smpi_ints displs,
			       MPI_Datatype rtype, MPI_Comm comm, const char *fn)
{
	int in_place = sbuf == MPI_IN_PLACE;
	struct coll_blocks rb;
	const void *s = sbuf;
	void *spack = NULL;
	int err;

	COLL_INTER(comm, smpi_icoll_allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype,
					       comm, fn));
	if ((err = coll_check(comm, fn)) || (err = smpi_coll_alias(comm, sbuf, rbuf,
				     displs.p ? smpi_coll_block(rbuf, smpi_at(displs, comm->rank),
								rtype) : NULL,
				     1, fn)) ||
	    (err = smpi_type_check(comm, rtype, fn)) ||
	    (err = coll_vec_check(comm, rcounts, displs, fn)))
		return err;
	if (!in_place && (err = coll_count(comm, scount, stype, fn)))
		return err;
	coll_blocks_make(&rb, comm->size, rbuf, rcounts, displs, NULL, rtype, 0, in_place, fn);
	if (in_place) {
		s = (rb.packed ? rb.packed : (char *)rbuf) + rb.displs[comm->rank];
	} else {
		if ((err = coll_same(comm, scount * smpi_type_size(stype), rb.counts[comm->rank], fn))) {
			coll_blocks_free(&rb);
			return err;
		}
		if (!coll_dense(stype))
			s = spack = coll_pack(sbuf, scount, stype, fn);
	}
	coll_expect_args(comm, fn, -1, NULL, NULL, 0);
	COLL_RUN(coll_allgatherv(comm->coll, s, rb.packed ? rb.packed : rbuf, rb.counts, rb.displs));
	coll_blocks_unpack(&rb, comm->size, rbuf, rcounts, displs, NULL, rtype, 0);
	coll_blocks_free(&rb);
	free(spack);
	return MPI_SUCCESS;
}

int PMPI_Allgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
		    const int rcounts[], const int displs[], MPI_Datatype rtype, MPI_Comm comm)
{
	return coll_allgatherv_any(sbuf, scount, stype, rbuf, SMPI_INTS(rcounts), SMPI_INTS(displs),
				   rtype, comm, "MPI_Allgatherv");
}

int PMPI_Allgatherv_c(const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
		      const MPI_Count rcounts[], const MPI_Aint displs[], MPI_Datatype rtype,
		      MPI_Comm comm)
{
	return coll_allgatherv_any(sbuf, scount, stype, rbuf, SMPI_WIDE(rcounts), SMPI_WIDE(displs),
				   rtype, comm, "MPI_Allgatherv_c");
}

/* The all-to-alls with arrays: rtypes NULL, the v form (every block of
 * stype or rtype, displacements in its extent); else the w form (byte
 * displacements). */
static int coll_alltoallw_any(const void *sbuf, struct smpi_ints scounts,
			      struct smpi_ints sdispls, const MPI_Datatype stypes[],
			      MPI_Datatype stype, void *rbuf, struct smpi_ints rcounts,
			      struct smpi_ints rdispls, const MPI_Datatype rtypes[],
			      MPI_Datatype rtype, MPI_Comm comm, const char *fn)
{
	int byte_disps = rtypes != NULL;
	int in_place = sbuf == MPI_IN_PLACE;
	struct coll_blocks sb, rb;
	int i, err;

	COLL_INTER(comm, smpi_icoll_alltoallw(sbuf, scounts, sdispls, stypes, stype, rbuf, rcounts,
					      rdispls, rtypes, rtype, byte_disps, comm, fn));
	if ((err = coll_check(comm, fn)) || (err = smpi_coll_alias(comm, sbuf, rbuf, NULL, 1, fn)))
		return err;
	if ((err = coll_vec_check(comm, rcounts, rdispls, fn)) ||
	    (!in_place && (err = coll_vec_check(comm, scounts, sdispls, fn))))
		return err;
	for (i = 0; i < comm->size; i++) {
		if ((err = smpi_type_check(comm, rtypes ? rtypes[i] : rtype, fn)))
			return err;
		if (!in_place && (err = smpi_type_check(comm, stypes ? stypes[i] : stype, fn)))
			return err;
	}
	coll_blocks_make(&rb, comm->size, rbuf, rcounts, rdispls, rtypes, rtype, byte_disps,
			 in_place, fn);
	coll_expect_args(comm, fn, -1, NULL, NULL, 0);
	if (in_place) {
		COLL_RUN(coll_alltoallv(comm->coll, rb.packed ? rb.packed : rbuf, rb.counts,
					rb.displs, rb.packed ? rb.packed : rbuf, rb.counts,
					rb.displs));
	} else {
		coll_blocks_make(&sb, comm->size, sbuf, scounts, sdispls, stypes, stype, byte_disps,
				 1, fn);
		COLL_RUN(coll_alltoallv(comm->coll, sb.packed ? sb.packed : sbuf, sb.counts,
					sb.displs, rb.packed ? rb.packed : rbuf, rb.counts,
					rb.displs));
		coll_blocks_free(&sb);
	}
	coll_blocks_unpack(&rb, comm->size, rbuf, rcounts, rdispls, rtypes, rtype, byte_disps);
	coll_blocks_free(&rb);
	return MPI_SUCCESS;
}

int PMPI_Alltoallv(const void *sbuf, const int scounts[], const int sdispls[], MPI_Datatype stype,
		   void *rbuf, const int rcounts[], const int rdispls[], MPI_Datatype rtype,
		   MPI_Comm comm)
{
	return coll_alltoallw_any(sbuf, SMPI_INTS(scounts), SMPI_INTS(sdispls), NULL, stype, rbuf,
				  SMPI_INTS(rcounts), SMPI_INTS(rdispls), NULL, rtype, comm,
				  "MPI_Alltoallv");
}

int PMPI_Alltoallv_c(const void *sbuf, const MPI_Count scounts[], const MPI_Aint sdispls[],
		     MPI_Datatype stype, void *rbuf, const MPI_Count rcounts[],
		     const MPI_Aint rdispls[], MPI_Datatype rtype, MPI_Comm comm)
{
	return coll_alltoallw_any(sbuf, SMPI_WIDE(scounts), SMPI_WIDE(sdispls), NULL, stype, rbuf,
				  SMPI_WIDE(rcounts), SMPI_WIDE(rdispls), NULL, rtype, comm,
				  "MPI_Alltoallv_c");
}

int PMPI_Alltoallw(const void *sbuf, const int scounts[], const int sdispls[],
		   const MPI_Datatype stypes[], void *rbuf, const int rcounts[], const int rdispls[],
		   const MPI_Datatype rtypes[], MPI_Comm comm)
{
	return coll_alltoallw_any(sbuf, SMPI_INTS(scounts), SMPI_INTS(sdispls), stypes, MPI_BYTE,
				  rbuf, SMPI_INTS(rcounts), SMPI_INTS(rdispls), rtypes, NULL, comm,
				  "MPI_Alltoallw");
}

int PMPI_Alltoallw_c(const void *sbuf, const MPI_Count scounts[], const MPI_Aint sdispls[],
		     const MPI_Datatype stypes[], void *rbuf, const MPI_Count rcounts[],
		     const MPI_Aint rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm)
{
	return coll_alltoallw_any(sbuf, SMPI_WIDE(scounts), SMPI_WIDE(sdispls), stypes, MPI_BYTE,
				  rbuf, SMPI_WIDE(rcounts), SMPI_WIDE(rdispls), rtypes, NULL, comm,
				  "MPI_Alltoallw_c");
}

/* ---- reductions ---- */

/*
 * How an (op, type) pair reaches the engine, which reduces runs of
 * elements of cop.size bytes and copies results as bytes: the user's
 * buffers when their bytes are all data, otherwise copies laid out for
 * it, so a hole of the user's receive buffer (a pair's padding too) is
 * never written.  Predefined ops on basic kinds reduce basic
 * elements (BASIC: packed bytes); the MINLOC/MAXLOC pairs reduce pairs
 * (PAIRS: an array of the predefined pair); a user op sees the user's own
 * type (SHAPED: a copy with the type's layout, the engine's runs starting
 * at the first element's data).  Elements that interleave (a matrix
 * column resized to one int) cannot be split into runs: the engine then
 * reduces all count of them as one element (whole).
 */
enum { RED_DIRECT, RED_BASIC, RED_PAIRS, RED_SHAPED };
#define COLL_RED_SMALL	256

struct coll_red {
	MPI_Op op;
	MPI_Datatype type;
	int kind;
	int view;		/* RED_*: where the engine's bytes are */
	MPI_Datatype vtype;	/* a copy's elements: MPI_BYTE, the pair, or type */
	int64_t per;		/* engine elements per MPI element */
	int64_t shift;		/* SHAPED: the first data byte's offset from the origin */
	int64_t whole;		/* SHAPED: count, all reduced as one engine element; else 0 */
	struct coll_op cop;
	/* Small copies live here, not in malloc's memory (a MINLOC on one
	 * DOUBLE_INT): on the stack, which peers reach through SMARTMAP. */
	int nsmall;
	_Alignas(64) unsigned char small[2][COLL_RED_SMALL];
};

/* The engine's count for count MPI elements. */
static int64_t coll_red_ecount(const struct coll_red *r, int64_t count)
{
	return r->whole ? count > 0 : count * r->per;
}

static void coll_red_fn(void *inout, const void *in, size_t count, void *ctx)
{
	struct coll_red *r = ctx;

	if (r->op->user) {
		smpi_op_apply(r->op, (const char *)in - r->shift, (char *)inout - r->shift,
			      r->whole ? r->whole : (int64_t)count, r->type);
		return;
	}
	r->op->fn(in, inout, count, r->kind);
}

/* [*lo, *hi): the bytes of count elements of r's type, from their origin. */
static void coll_red_span(const struct coll_red *r, int64_t count, int64_t *lo, int64_t *hi)
{
	const struct dt_node *t = dt_root(r->type->dt);
	int64_t last = count > 0 ? (count - 1) * t->extent : 0;

	*lo = (last < 0 ? last : 0) + t->true_lb;
	*hi = (last > 0 ? last : 0) + t->true_ub;
}

static int coll_red_setup(struct coll_red *r, MPI_Comm comm, MPI_Op op, MPI_Datatype type,
			  int64_t count, const char *fn)
{
	const struct dt_node *root;
	int64_t lo, hi;
	int err;

	if ((err = coll_count(comm, count, type, fn)) || (err = smpi_op_check(comm, op, type, fn)))
		return err;
	root = dt_root(type->dt);
	r->op = op;
	r->type = type;
	r->kind = type->kind;
	r->view = RED_DIRECT;
	r->shift = 0;
	r->whole = 0;
	r->nsmall = 0;
	r->cop = (struct coll_op){ .fn = coll_red_fn, .ctx = r, .commute = op->commute };
	if (op->user) {
		r->per = 1;
		r->cop.size = root->extent;
		if (smpi_type_padless(type) || coll_dense(type))
			return MPI_SUCCESS;
		r->view = RED_SHAPED;
		r->vtype = type;
		r->shift = root->true_lb;
		if (root->extent > 0 && root->true_ub - root->true_lb <= root->extent)
			return MPI_SUCCESS;
		coll_red_span(r, count, &lo, &hi);
		r->whole = count;
		r->shift = lo;
		r->cop.size = count > 0 ? (size_t)(hi - lo) : 1;
		return MPI_SUCCESS;
	}
	if (r->kind >= SMPI_K_FLOAT_INT) {
		r->vtype = smpi_type_of_kind(r->kind);
		r->per = root->nbasic / 2;
		r->cop.size = smpi_type_extent(r->vtype);
		if (!smpi_type_padless(type))
			r->view = RED_PAIRS;
		return MPI_SUCCESS;
	}
	r->cop.size = root->nbasic ? root->size / root->nbasic : 1;
	r->per = root->nbasic;
	r->vtype = MPI_BYTE;
	if (!coll_dense(type))
		r->view = RED_BASIC;
	return MPI_SUCCESS;
}

/* The buffers of a reduction: sbuf (unless in place) and, where results
 * land, rbuf hold count elements. */
static int coll_red_bufs(MPI_Comm comm, const void *sbuf, void *rbuf, int64_t scount,
			 int64_t rcount, MPI_Datatype type, int result, const char *fn)
{
	int err;

	if ((err = smpi_coll_alias(comm, sbuf, rbuf, NULL, result && rcount > 0, fn)))
		return err;
	if (sbuf != MPI_IN_PLACE && (err = smpi_buf_check(comm, sbuf, scount, type, fn)))
		return err;
	return result ? smpi_buf_check(comm, rbuf, rcount, type, fn) : MPI_SUCCESS;
}

int smpi_red_check(MPI_Comm comm, MPI_Op op, MPI_Datatype type, const char *fn)
{
	struct coll_red r;

	return coll_red_setup(&r, comm, op, type, 0, fn);
}

/* Elements of r->vtype in a copy of count elements. */
static int64_t coll_red_vcount(const struct coll_red *r, int64_t count)
{
	return r->view == RED_SHAPED ? count : r->view == RED_PAIRS ? count * r->per :
	       coll_red_ecount(r, count) * (int64_t)r->cop.size;
}

/* Room for the engine's view of count elements: buf itself, or a copy's. */
static void *coll_red_buf(struct coll_red *r, void *buf, int64_t count, const char *fn)
{
	int64_t bytes = coll_red_ecount(r, count) * (int64_t)r->cop.size;

	if (r->view == RED_DIRECT)
		return buf;
	if (bytes <= COLL_RED_SMALL && r->nsmall < 2)
		return r->small[r->nsmall++];
	return coll_alloc(bytes, fn);
}

static void coll_red_free(struct coll_red *r, void *tmp)
{
	if (tmp != r->small[0] && tmp != r->small[1])
		free(tmp);
}

/* The engine's view of count elements at buf: buf itself or a copy.  A
 * SHAPED copy takes the holes between the first and the last data byte
 * too, a predefined pair's its padding: one memcpy, and the engine never
 * hands a hole to the user. */
static void *coll_red_in(struct coll_red *r, const void *buf, int64_t count, const char *fn)
{
	char *v = coll_red_buf(r, (void *)buf, count, fn);
	int64_t lo, hi;

	if (r->view == RED_SHAPED && count > 0) {
		coll_red_span(r, count, &lo, &hi);
		memcpy(v + lo - r->shift, (const char *)buf + lo, hi - lo);
	} else if (r->view == RED_PAIRS && r->type->predefined) {
		memcpy(v, buf, count * smpi_type_extent(r->type));
	} else if (r->view != RED_DIRECT)
		smpi_type_copy(v - r->shift, coll_red_vcount(r, count), r->vtype, buf, count,
			       r->type);
	return v;
}

/* Frees the engine's view tmp of count elements, after copying it into
 * buf when `result` is set (buf may be MPI_BOTTOM, address 0). */
static void coll_red_out(struct coll_red *r, void *buf, int64_t count, void *tmp, int result)
{
	if (r->view == RED_DIRECT)
		return;
	if (result)
		smpi_type_copy(buf, count, r->type, (char *)tmp - r->shift,
			       coll_red_vcount(r, count), r->vtype);
	coll_red_free(r, tmp);
}

__attribute__((noinline)) int smpi_reduce(const void *sbuf, void *rbuf, int64_t count,
					 MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm,
					 const char *fn)
{
	struct coll_red r;
	void *s, *d = NULL;
	int err, me;

	COLL_INTER(comm, smpi_icoll_reduce(sbuf, rbuf, count, type, op, root, comm, fn));
	if ((err = coll_check(comm, fn)) || (err = coll_root(comm, root, fn)) ||
	    (err = coll_red_setup(&r, comm, op, type, count, fn)))
		return err;
	me = comm->rank == root;
	if ((err = coll_red_bufs(comm, sbuf, rbuf, count, count, type, me, fn)))
		return err;
	if (sbuf == MPI_IN_PLACE && me)
		sbuf = rbuf;
	s = coll_red_in(&r, sbuf, count, fn);
	if (me)
		d = sbuf == rbuf ? s : coll_red_buf(&r, rbuf, count, fn);
	coll_expect_args(comm, fn, root, op, type, count);
	COLL_RUN(coll_reduce(comm->coll, s, d, coll_red_ecount(&r, count), &r.cop, root));
	if (me && d != s)
		coll_red_out(&r, rbuf, count, d, 1);
	coll_red_out(&r, rbuf, count, s, me && d == s);
	return MPI_SUCCESS;
}

int PMPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, int root,
		MPI_Comm comm)
{
	const struct coll_op *e;

	if (coll_fast(comm, count, type, "MPI_Reduce") && (unsigned)root < (unsigned)comm->size &&
	    (e = coll_engine_op(op, type)) && (sbuf != MPI_IN_PLACE || comm->rank == root) &&
	    (!count || (sbuf && (rbuf || comm->rank != root))) &&
	    (sbuf != rbuf || comm->rank != root)) {
		coll_expect_args(comm, "MPI_Reduce", root, op, type, count);
		coll_reduce(comm->coll, sbuf == MPI_IN_PLACE ? rbuf : sbuf, rbuf, count, e, root);
		return MPI_SUCCESS;
	}
	return smpi_reduce(sbuf, rbuf, count, type, op, root, comm, "MPI_Reduce");
}

int PMPI_Reduce_c(const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype type, MPI_Op op,
		  int root, MPI_Comm comm)
{
	return smpi_reduce(sbuf, rbuf, count, type, op, root, comm, "MPI_Reduce_c");
}

static __attribute__((noinline)) int coll_allreduce_full(const void *sbuf, void *rbuf,
							 int64_t count, MPI_Datatype type,
							 MPI_Op op, MPI_Comm comm, const char *fn)
{
	struct coll_red r;
	void *s, *d;
	int err;

	COLL_INTER(comm, smpi_icoll_allreduce(sbuf, rbuf, count, type, op, comm, fn));
	if ((err = coll_check(comm, fn)) || (err = coll_red_setup(&r, comm, op, type, count, fn)) ||
	    (err = coll_red_bufs(comm, sbuf, rbuf, count, count, type, 1, fn)))
		return err;
	if (sbuf == MPI_IN_PLACE)
		sbuf = rbuf;
	s = coll_red_in(&r, sbuf, count, fn);
	d = sbuf == rbuf ? s : coll_red_buf(&r, rbuf, count, fn);
	coll_expect_args(comm, fn, -1, op, type, count);
	COLL_RUN(coll_allreduce(comm->coll, s, d, coll_red_ecount(&r, count), &r.cop));
	if (d != s)
		coll_red_out(&r, rbuf, count, d, 1);
	coll_red_out(&r, rbuf, count, s, d == s);
	return MPI_SUCCESS;
}

int PMPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
		   MPI_Comm comm)
{
	const struct coll_op *e;

	if (coll_fast(comm, count, type, "MPI_Allreduce") && (e = coll_engine_op(op, type)) &&
	    (!count || (sbuf && rbuf)) && sbuf != rbuf) {
		coll_expect_args(comm, "MPI_Allreduce", -1, op, type, count);
		coll_allreduce(comm->coll, sbuf == MPI_IN_PLACE ? rbuf : sbuf, rbuf, count, e);
		return MPI_SUCCESS;
	}
	return coll_allreduce_full(sbuf, rbuf, count, type, op, comm, "MPI_Allreduce");
}

int PMPI_Allreduce_c(const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype type, MPI_Op op,
		     MPI_Comm comm)
{
	return coll_allreduce_full(sbuf, rbuf, count, type, op, comm, "MPI_Allreduce_c");
}

/* Scan (exclusive or not): every member's rbuf gets its prefix. */
static int coll_scan_any(const void *sbuf, void *rbuf, int64_t count, MPI_Datatype type,
			 MPI_Op op, MPI_Comm comm, int ex, const char *fn)
{
	struct coll_red r;
	void *s, *d;
	int err;

	if ((err = coll_check(comm, fn)) || (err = coll_red_setup(&r, comm, op, type, count, fn)) ||
	    (err = coll_red_bufs(comm, sbuf, rbuf, count, count, type, 1, fn)))
		return err;
	if (sbuf == MPI_IN_PLACE)
		sbuf = rbuf;
	s = coll_red_in(&r, sbuf, count, fn);
	d = sbuf == rbuf ? s : coll_red_in(&r, rbuf, count, fn);
	coll_expect_args(comm, fn, -1, op, type, count);
	if (ex)
		COLL_RUN(coll_exscan(comm->coll, s, d, coll_red_ecount(&r, count), &r.cop));
	else
		COLL_RUN(coll_scan(comm->coll, s, d, coll_red_ecount(&r, count), &r.cop));
	if (d != s)
		coll_red_out(&r, rbuf, count, d, 1);
	coll_red_out(&r, rbuf, count, s, d == s);
	return MPI_SUCCESS;
}

int PMPI_Scan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
	return coll_scan_any(sbuf, rbuf, count, type, op, comm, 0, "MPI_Scan");
}

int PMPI_Exscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
		MPI_Comm comm)
{
	return coll_scan_any(sbuf, rbuf, count, type, op, comm, 1, "MPI_Exscan");
}

int PMPI_Scan_c(const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype type, MPI_Op op,
		MPI_Comm comm)
{
	return coll_scan_any(sbuf, rbuf, count, type, op, comm, 0, "MPI_Scan_c");
}

int PMPI_Exscan_c(const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype type, MPI_Op op,
		  MPI_Comm comm)
{
	return coll_scan_any(sbuf, rbuf, count, type, op, comm, 1, "MPI_Exscan_c");
}

/* Reduce_scatter with per-member counts (none: block elements each). */
static int coll_rs_any(const void *sbuf, void *rbuf, struct smpi_ints rcounts, int64_t block,
		       MPI_Datatype type, MPI_Op op, MPI_Comm comm, const char *fn)
{
	struct coll_red r;
	size_t *counts;
	int64_t total = 0, mine;
	int i, err;
	void *s, *d;

	COLL_INTER(comm, smpi_icoll_reduce_scatter(sbuf, rbuf, rcounts, block, type, op, comm, fn));
	if ((err = coll_check(comm, fn)))
		return err;
	for (i = 0; i < comm->size; i++) {
		int64_t c = rcounts.p ? smpi_at(rcounts, i) : block;

		if (c < 0)
			return smpi_err(comm, MPI_ERR_COUNT, fn, "count %lld for rank %d is negative",
					(long long)c, i);
		total += c;
	}
	mine = rcounts.p ? smpi_at(rcounts, comm->rank) : block;
	if ((err = coll_red_setup(&r, comm, op, type, total, fn)) ||
	    (err = coll_red_bufs(comm, sbuf, rbuf, total, mine, type, 1, fn)))
		return err;
	if (r.whole) {
		/* Interleaved elements cannot be split: fold them all, keep
		 * this member's block. */
		int64_t at = 0;

		for (i = 0; i < comm->rank; i++)
			at += rcounts.p ? smpi_at(rcounts, i) : block;
		s = coll_red_in(&r, sbuf == MPI_IN_PLACE ? rbuf : sbuf, total, fn);
		coll_expect_args(comm, fn, -1, op, type, total);
		COLL_RUN(coll_allreduce(comm->coll, s, s, coll_red_ecount(&r, total), &r.cop));
		smpi_type_copy(rbuf, mine, type, (char *)s - r.shift + at * smpi_type_extent(type),
			       mine, type);
		coll_red_free(&r, s);
		return MPI_SUCCESS;
	}
	counts = coll_alloc(comm->size * sizeof *counts, fn);
	for (i = 0; i < comm->size; i++)
		counts[i] = (rcounts.p ? smpi_at(rcounts, i) : block) * r.per;
	if (sbuf == MPI_IN_PLACE) {
		s = coll_red_in(&r, rbuf, total, fn);
		d = s;
	} else {
		s = coll_red_in(&r, sbuf, total, fn);
		d = coll_red_buf(&r, rbuf, mine, fn);
	}
	coll_expect_args(comm, fn, -1, op, type, total);
	COLL_RUN(coll_reduce_scatter(comm->coll, s, d, counts, &r.cop));
	if (d != s)
		coll_red_out(&r, rbuf, mine, d, 1);
	coll_red_out(&r, rbuf, mine, s, d == s);
	free(counts);
	return MPI_SUCCESS;
}

static int coll_rs_counts(const void *sbuf, void *rbuf, struct smpi_ints rcounts,
			  MPI_Datatype type, MPI_Op op, MPI_Comm comm, const char *fn)
{
	if (!rcounts.p)
		return smpi_err(comm, MPI_ERR_ARG, fn, "recvcounts is NULL");
	return coll_rs_any(sbuf, rbuf, rcounts, 0, type, op, comm, fn);
}

int PMPI_Reduce_scatter(const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype type,
			MPI_Op op, MPI_Comm comm)
{
	return coll_rs_counts(sbuf, rbuf, SMPI_INTS(rcounts), type, op, comm, "MPI_Reduce_scatter");
}

int PMPI_Reduce_scatter_c(const void *sbuf, void *rbuf, const MPI_Count rcounts[],
			  MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
	return coll_rs_counts(sbuf, rbuf, SMPI_WIDE(rcounts), type, op, comm,
			      "MPI_Reduce_scatter_c");
}

int PMPI_Reduce_scatter_block(const void *sbuf, void *rbuf, int rcount, MPI_Datatype type,
			      MPI_Op op, MPI_Comm comm)
{
	return coll_rs_any(sbuf, rbuf, SMPI_INTS(NULL), rcount, type, op, comm,
			   "MPI_Reduce_scatter_block");
}

int PMPI_Reduce_scatter_block_c(const void *sbuf, void *rbuf, MPI_Count rcount, MPI_Datatype type,
				MPI_Op op, MPI_Comm comm)
{
	return coll_rs_any(sbuf, rbuf, SMPI_INTS(NULL), rcount, type, op, comm,
			   "MPI_Reduce_scatter_block_c");
}

static int coll_reduce_local(const void *inbuf, void *inoutbuf, int64_t count, MPI_Datatype type,
			     MPI_Op op, const char *fn)
{
	struct coll_red r;
	void *a, *b;
	int err;

	if ((err = smpi_check_init(fn)) || (err = coll_red_setup(&r, NULL, op, type, count, fn)))
		return err;
	/* Both buffers are data here: neither can be MPI_IN_PLACE, nor the other. */
	if (inbuf == MPI_IN_PLACE || inoutbuf == MPI_IN_PLACE || (count && inbuf == inoutbuf))
		return smpi_err(NULL, MPI_ERR_BUFFER, fn, "a buffer is MPI_IN_PLACE, or both are %p",
				inbuf);
	if ((err = smpi_buf_check(NULL, inbuf, count, type, fn)) ||
	    (err = smpi_buf_check(NULL, inoutbuf, count, type, fn)))
		return err;
	/* A user op works on the user's buffers as they are laid out. */
	if (op->user) {
		smpi_op_apply(op, inbuf, inoutbuf, count, type);
		return MPI_SUCCESS;
	}
	a = coll_red_in(&r, inbuf, count, fn);
	b = coll_red_in(&r, inoutbuf, count, fn);
	coll_red_fn(b, a, coll_red_ecount(&r, count), &r);
	coll_red_out(&r, NULL, count, a, 0);
	coll_red_out(&r, inoutbuf, count, b, 1);
	return MPI_SUCCESS;
}

int PMPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype type, MPI_Op op)
{
	return coll_reduce_local(inbuf, inoutbuf, count, type, op, "MPI_Reduce_local");
}

int PMPI_Reduce_local_c(const void *inbuf, void *inoutbuf, MPI_Count count, MPI_Datatype type,
			MPI_Op op)
{
	return coll_reduce_local(inbuf, inoutbuf, count, type, op, "MPI_Reduce_local_c");
}

SMPI_ALIAS(Barrier)
SMPI_ALIAS(Bcast)
SMPI_ALIAS(Gather)
SMPI_ALIAS(Gatherv)
SMPI_ALIAS(Gatherv_c)
SMPI_ALIAS(Scatter)
SMPI_ALIAS(Scatterv)
SMPI_ALIAS(Scatterv_c)
SMPI_ALIAS(Allgather)
SMPI_ALIAS(Allgatherv)
SMPI_ALIAS(Allgatherv_c)
SMPI_ALIAS(Alltoall)
SMPI_ALIAS(Alltoallv)
SMPI_ALIAS(Alltoallv_c)
SMPI_ALIAS(Alltoallw)
SMPI_ALIAS(Alltoallw_c)
SMPI_ALIAS(Reduce)
SMPI_ALIAS(Reduce_c)
SMPI_ALIAS(Allreduce)
SMPI_ALIAS(Allreduce_c)
SMPI_ALIAS(Scan)
SMPI_ALIAS(Scan_c)
SMPI_ALIAS(Exscan)
SMPI_ALIAS(Exscan_c)
SMPI_ALIAS(Reduce_scatter)
SMPI_ALIAS(Reduce_scatter_c)
SMPI_ALIAS(Reduce_scatter_block)
SMPI_ALIAS(Reduce_scatter_block_c)
SMPI_ALIAS(Reduce_local)
SMPI_ALIAS(Reduce_local_c)
