/*
 * mpit_bigc.c - MPI 4.0's large-count bindings (MPI_Send_c ...).
 *
 * At small counts every family against what its int form does: point-to-
 * point (blocking, nonblocking, persistent, Sendrecv, Get_count_c),
 * collectives (one count, reductions with a predefined op and with an op
 * from MPI_Op_create_c, the v and w forms, nonblocking and persistent),
 * datatype constructors and queries, Pack_c/Unpack_c, one-sided.
 *
 *   mpit_bigc big     also moves INT_MAX + 64 bytes: Send_c/Recv_c between
 *                     ranks 0 and 1 with Get_count_c, Bcast_c and a
 *                     Reduce_c of as many signed chars (two 2.1 GiB
 *                     buffers per rank), the v and w forms with such a
 *                     count, or a displacement past INT_MAX, blocking and
 *                     nonblocking, and an Allreduce_c with a user op.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include "mpit.h"

#define N	100
#define MAXRANKS	16

static void p2p(int rank, int size)
{
	int buf[N], i, peer = (rank + 1) % size, from = (rank + size - 1) % size;
	MPI_Request rq[2];
	MPI_Status st;
	MPI_Count c = -1;

	for (i = 0; i < N; i++)
		buf[i] = rank * 1000 + i;
	if (rank == 0) {
		MPI_Send_c(buf, N, MPI_INT, 1, 5, MPI_COMM_WORLD);
	} else if (rank == 1) {
		MPI_Recv_c(buf, N, MPI_INT, 0, 5, MPI_COMM_WORLD, &st);
		MPI_Get_count_c(&st, MPI_INT, &c);
		mpit_expect_int("Get_count_c", N, c);
		mpit_expect_int("Recv_c data", 99, buf[99]);
	}
	{
		int out[N], in[N];

		for (i = 0; i < N; i++)
			out[i] = rank * 1000 + i;
		MPI_Irecv_c(in, N, MPI_INT, from, 6, MPI_COMM_WORLD, &rq[0]);
		MPI_Isend_c(out, N, MPI_INT, peer, 6, MPI_COMM_WORLD, &rq[1]);
		MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
		mpit_expect_int("Isend_c/Irecv_c", from * 1000 + 7, in[7]);
		MPI_Sendrecv_c(out, N, MPI_INT, peer, 7, in, N, MPI_INT, from, 7, MPI_COMM_WORLD, &st);
		mpit_expect_int("Sendrecv_c", from * 1000 + 8, in[8]);
		MPI_Recv_init_c(in, N, MPI_INT, from, 8, MPI_COMM_WORLD, &rq[0]);
		MPI_Send_init_c(out, N, MPI_INT, peer, 8, MPI_COMM_WORLD, &rq[1]);
		MPI_Startall(2, rq);
		MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
		MPI_Request_free(&rq[0]);
		MPI_Request_free(&rq[1]);
		mpit_expect_int("Send_init_c/Recv_init_c", from * 1000 + 9, in[9]);
	}
}

static void add_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *t)
{
	(void)t;
	for (MPI_Count i = 0; i < *len; i++)
		((int *)inout)[i] += ((int *)in)[i];
}

static void colls(int rank, int size)
{
	int v[N], r[N], *all = malloc(sizeof(int) * N * size), i;
	MPI_Count *counts = malloc(sizeof(MPI_Count) * size);
	MPI_Aint *displs = malloc(sizeof(MPI_Aint) * size);
	MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * size);
	MPI_Request rq;
	MPI_Op op;

	for (i = 0; i < N; i++)
		v[i] = rank == 0 ? i : -1;
	MPI_Bcast_c(v, N, MPI_INT, 0, MPI_COMM_WORLD);
	mpit_expect_int("Bcast_c", 42, v[42]);
	for (i = 0; i < N; i++)
		v[i] = rank + i;
	MPI_Allreduce_c(v, r, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	mpit_expect_int("Allreduce_c", size * (size - 1) / 2 + 3 * size, r[3]);
	MPI_Iallreduce_c(v, r, N, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	mpit_expect_int("Iallreduce_c", size - 1 + 4, r[4]);
	MPI_Allreduce_init_c(v, r, N, MPI_INT, MPI_MIN, MPI_COMM_WORLD, MPI_INFO_NULL, &rq);
	MPI_Start(&rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	MPI_Request_free(&rq);
	mpit_expect_int("Allreduce_init_c", 5, r[5]);
	MPI_Op_create_c(add_c, 1, &op);
	MPI_Reduce_c(v, r, N, MPI_INT, op, 0, MPI_COMM_WORLD);
	if (rank == 0)
		mpit_expect_int("Op_create_c", size * (size - 1) / 2 + 3 * size, r[3]);
	MPI_Op_free(&op);
	for (i = 0; i < size; i++) {
		counts[i] = i + 1;
		displs[i] = (MPI_Aint)i * N;
	}
	v[0] = rank;
	v[rank] = rank;
	MPI_Allgatherv_c(v, rank + 1, MPI_INT, all, counts, displs, MPI_INT, MPI_COMM_WORLD);
	/* A rooted v form's arrays matter at the root only. */
	MPI_Gatherv_c(v, rank + 1, MPI_INT, all, rank == 1 ? counts : NULL, rank == 1 ? displs : NULL,
		      MPI_INT, 1, MPI_COMM_WORLD);
	if (rank == 1 && all[(size - 1) * N] != size - 1)
		mpit_fail("Gatherv_c: block %d is %d", size - 1, all[(size - 1) * N]);
	for (i = 0; i < size; i++)
		if (all[i * N] != i || all[i * N + i] != i) {
			mpit_fail("Allgatherv_c: block %d is %d .. %d", i, all[i * N], all[i * N + i]);
			break;
		}
	for (i = 0; i < size; i++) {
		counts[i] = 1;
		displs[i] = i;
		v[i] = rank * 100 + i;
	}
	MPI_Alltoallv_c(v, counts, displs, MPI_INT, r, counts, displs, MPI_INT, MPI_COMM_WORLD);
	for (i = 0; i < size; i++)
		if (r[i] != i * 100 + rank) {
			mpit_fail("Alltoallv_c: from %d got %d", i, r[i]);
			break;
		}
	for (i = 0; i < size; i++) {
		displs[i] = (MPI_Aint)(i * sizeof(int));
		types[i] = MPI_INT;
	}
	MPI_Alltoallw_c(v, counts, displs, types, r, counts, displs, types, MPI_COMM_WORLD);
	for (i = 0; i < size; i++)
		if (r[i] != i * 100 + rank) {
			mpit_fail("Alltoallw_c: from %d got %d", i, r[i]);
			break;
		}
	for (i = 0; i < size; i++)
		v[i] = i;
	MPI_Reduce_scatter_c(v, r, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	mpit_expect_int("Reduce_scatter_c", rank * size, r[0]);
	MPI_Reduce_scatter_block_c(v, r, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	mpit_expect_int("Reduce_scatter_block_c", rank * size, r[0]);
	free(all);
	free(counts);
	free(displs);
	free(types);
}

/* The neighborhood v and w forms on a periodic ring: block 0 is the left
 * neighbor's, block 1 the right one's (the same rank on 2 ranks). */
static void nbrs(int rank, int size)
{
	int dims[1] = { size }, periods[1] = { 1 }, left = (rank + size - 1) % size;
	int right = (rank + 1) % size, mine = 100 + rank, got[2] = { -1, -1 }, out[2];
	MPI_Count nc[2] = { 1, 1 };
	MPI_Aint nd[2] = { 0, 1 }, bd[2] = { 0, sizeof(int) };
	MPI_Datatype nt[2] = { MPI_INT, MPI_INT };
	MPI_Request rq;
	MPI_Comm ring;

	MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
	MPI_Neighbor_allgatherv_c(&mine, 1, MPI_INT, got, nc, nd, MPI_INT, ring);
	mpit_expect_int("Neighbor_allgatherv_c from the left", 100 + left, got[0]);
	mpit_expect_int("Neighbor_allgatherv_c from the right", 100 + right, got[1]);
	out[0] = 10 * rank;
	out[1] = 10 * rank + 1;
	MPI_Ineighbor_alltoallw_c(out, nc, bd, nt, got, nc, bd, nt, ring, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	mpit_expect_int("Ineighbor_alltoallw_c from the left", 10 * left + 1, got[0]);
	mpit_expect_int("Ineighbor_alltoallw_c from the right", 10 * right, got[1]);
	got[0] = got[1] = -1;
	MPI_Neighbor_alltoallv_init_c(out, nc, nd, MPI_INT, got, nc, nd, MPI_INT, ring,
				      MPI_INFO_NULL, &rq);
	MPI_Start(&rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	MPI_Request_free(&rq);
	mpit_expect_int("Neighbor_alltoallv_init_c from the left", 10 * left + 1, got[0]);
	mpit_expect_int("Neighbor_alltoallv_init_c from the right", 10 * right, got[1]);
	MPI_Comm_free(&ring);
}

static void types_and_pack(int rank)
{
	MPI_Datatype t, s;
	MPI_Count size = 0, lb = -1, ext = 0, blens[2] = { 1, 2 }, ds[2] = { 0, 8 };
	MPI_Datatype ts[2] = { MPI_INT, MPI_DOUBLE };
	int in[6] = { 1, 2, 3, 4, 5, 6 }, out[6] = { 0 };
	char buf[64];
	MPI_Count pos = 0;

	MPI_Type_vector_c(3, 1, 2, MPI_INT, &t);
	MPI_Type_commit(&t);
	MPI_Type_size_c(t, &size);
	MPI_Type_get_extent_c(t, &lb, &ext);
	mpit_expect_int("Type_vector_c size", 12, size);
	mpit_expect_int("Type_get_extent_c", 20, ext);
	MPI_Pack_c(in, 1, t, buf, sizeof buf, &pos, MPI_COMM_WORLD);
	mpit_expect_int("Pack_c position", 12, pos);
	pos = 0;
	MPI_Unpack_c(buf, sizeof buf, &pos, out, 3, MPI_INT, MPI_COMM_WORLD);
	mpit_expect_int("Unpack_c", 5, out[2]);
	MPI_Type_free(&t);
	MPI_Type_create_struct_c(2, blens, ds, ts, &s);
	MPI_Type_commit(&s);
	MPI_Type_size_c(s, &size);
	mpit_expect_int("Type_create_struct_c size", 20, size);
	MPI_Type_free(&s);
	/* A block past INT_MAX elements: no memory needed to build it. */
	{
		MPI_Count big_len[1] = { 3000000000ll }, at[1] = { 16 };

		MPI_Type_create_hindexed_c(1, big_len, at, MPI_CHAR, &t);
		MPI_Type_commit(&t);
		MPI_Type_size_c(t, &size);
		MPI_Type_get_true_extent_c(t, &lb, &ext);
		mpit_expect_int("Type_create_hindexed_c size past INT_MAX", 3000000000ll, size);
		mpit_expect_int("its true lower bound", 16, lb);
		MPI_Type_free(&t);
	}
	MPI_Type_contiguous_c(5, MPI_INT, &t);
	MPI_Type_commit(&t);
	MPI_Type_size_c(t, &size);
	mpit_expect_int("Type_contiguous_c size", 20, size);
	MPI_Type_free(&t);
	(void)rank;
}

static void rma(int rank, int size)
{
	int *base, v = rank + 1, got = -1;
	MPI_Win win;

	MPI_Win_allocate_c(sizeof(int) * 4, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base,
			   &win);
	base[0] = base[1] = 0;
	MPI_Win_fence(0, win);
	MPI_Accumulate_c(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win);
	MPI_Put_c(&v, 1, MPI_INT, (rank + 1) % size, 1, 1, MPI_INT, win);
	MPI_Win_fence(0, win);
	MPI_Get_c(&got, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
	MPI_Win_fence(0, win);
	mpit_expect_int("Accumulate_c/Get_c", size * (size + 1) / 2, got);
	mpit_expect_int("Put_c", (rank + size - 1) % size + 1, base[1]);
	MPI_Win_free(&win);
}

/* The last rank's block of n bytes goes to rank 0 and back, in the v and
 * w forms, with each count and displacement array in 64 bits: the
 * blocking calls, then the nonblocking ones. */
static void big_v(int rank, int size, signed char *b, signed char *r, MPI_Count n, int nb)
{
	MPI_Count c[MAXRANKS] = { 0 }, c64[MAXRANKS], zc[MAXRANKS] = { 0 };
	MPI_Aint d[MAXRANKS] = { 0 }, d64[MAXRANKS];
	MPI_Datatype t[MAXRANKS];
	MPI_Request rq = MPI_REQUEST_NULL;
	int last = size - 1, i;
	char what[64];

#define BIG_RUN(name, blocking, nonblocking) do { \
		if (nb) { \
			nonblocking; \
			MPI_Wait(&rq, MPI_STATUS_IGNORE); \
		} else { \
			blocking; \
		} \
		snprintf(what, sizeof what, "%s%s_c past INT_MAX", nb ? "I" : "", name); \
	} while (0)
	for (i = 0; i < size; i++) {
		c64[i] = 64;
		d64[i] = i == last ? n - 64 : i * 64;
		t[i] = MPI_SIGNED_CHAR;
	}
	c[last] = n;
	/* Gatherv: the last rank's n bytes into rank 0's r. */
	b[n - 1] = 11;
	r[n - 1] = 0;
	BIG_RUN("Gatherv",
		MPI_Gatherv_c(b, rank == last ? n : 0, MPI_SIGNED_CHAR, r, c, d, MPI_SIGNED_CHAR, 0,
			      MPI_COMM_WORLD),
		MPI_Igatherv_c(b, rank == last ? n : 0, MPI_SIGNED_CHAR, r, c, d, MPI_SIGNED_CHAR, 0,
			       MPI_COMM_WORLD, &rq));
	if (rank == 0)
		mpit_expect_int(what, 11, r[n - 1]);
	/* Scatterv: back from rank 0's r into the last rank's b. */
	r[n - 1] = 12;
	b[n - 1] = 0;
	BIG_RUN("Scatterv",
		MPI_Scatterv_c(r, c, d, MPI_SIGNED_CHAR, b, rank == last ? n : 0, MPI_SIGNED_CHAR, 0,
			       MPI_COMM_WORLD),
		MPI_Iscatterv_c(r, c, d, MPI_SIGNED_CHAR, b, rank == last ? n : 0, MPI_SIGNED_CHAR,
				0, MPI_COMM_WORLD, &rq));
	if (rank == last)
		mpit_expect_int(what, 12, b[n - 1]);
	/* Allgatherv: 64 bytes each, the last rank's at n - 64 (past INT_MAX). */
	b[63] = (signed char)(20 + rank);
	r[n - 1] = 0;
	BIG_RUN("Allgatherv",
		MPI_Allgatherv_c(b, 64, MPI_SIGNED_CHAR, r, c64, d64, MPI_SIGNED_CHAR,
				 MPI_COMM_WORLD),
		MPI_Iallgatherv_c(b, 64, MPI_SIGNED_CHAR, r, c64, d64, MPI_SIGNED_CHAR,
				  MPI_COMM_WORLD, &rq));
	mpit_expect_int(what, 20 + last, r[n - 1]);
	/* Alltoallv: rank 0 and the last rank swap n bytes (b into r). */
	if (rank == 0 || rank == last) {
		zc[rank == 0 ? last : 0] = n;
	}
	b[n - 1] = (signed char)(30 + rank);
	r[n - 1] = 0;
	BIG_RUN("Alltoallv",
		MPI_Alltoallv_c(b, zc, d, MPI_SIGNED_CHAR, r, zc, d, MPI_SIGNED_CHAR, MPI_COMM_WORLD),
		MPI_Ialltoallv_c(b, zc, d, MPI_SIGNED_CHAR, r, zc, d, MPI_SIGNED_CHAR, MPI_COMM_WORLD,
				 &rq));
	if (rank == 0)
		mpit_expect_int(what, 30 + last, r[n - 1]);
	if (rank == last)
		mpit_expect_int(what, 30, r[n - 1]);
	/* Alltoallw: the same, back from r into b. */
	r[n - 1] = (signed char)(40 + rank);
	b[n - 1] = 0;
	BIG_RUN("Alltoallw",
		MPI_Alltoallw_c(r, zc, d, t, b, zc, d, t, MPI_COMM_WORLD),
		MPI_Ialltoallw_c(r, zc, d, t, b, zc, d, t, MPI_COMM_WORLD, &rq));
	if (rank == 0)
		mpit_expect_int(what, 40 + last, b[n - 1]);
	if (rank == last)
		mpit_expect_int(what, 40, b[n - 1]);
#undef BIG_RUN
}

/* A user op with an int count: MPI hands it a count past INT_MAX in
 * pieces, each with the program's own datatype. */
static int pieces;

static void sum_chars(void *in, void *inout, int *len, MPI_Datatype *type)
{
	const signed char *a = in;
	signed char *b = inout;

	if (*type != MPI_SIGNED_CHAR || *len < 0)
		mpit_fail("user op: called with another datatype or a count of %d", *len);
	for (int i = 0; i < *len; i++)
		b[i] += a[i];
	pieces++;
}

/* INT_MAX + 64 bytes, where an int count cannot say it. */
static void big(int rank, int size)
{
	MPI_Count n = (MPI_Count)INT_MAX + 64, c = 0;
	signed char *b = malloc((size_t)n), *r = malloc((size_t)n);
	MPI_Status st;
	MPI_Op op;

	if (!b || !r || size > MAXRANKS) {
		fprintf(stderr, "mpit_bigc: rank %d: no memory for 2 x %lld bytes (give --mem 5G)"
			" or more than %d ranks\n", rank, (long long)n, MAXRANKS);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	b[0] = (signed char)rank;
	b[n - 1] = (signed char)(rank + 1);
	if (rank == 0) {
		MPI_Send_c(b, n, MPI_SIGNED_CHAR, 1, 9, MPI_COMM_WORLD);
	} else if (rank == 1) {
		MPI_Recv_c(b, n, MPI_SIGNED_CHAR, 0, 9, MPI_COMM_WORLD, &st);
		MPI_Get_count_c(&st, MPI_SIGNED_CHAR, &c);
		mpit_expect_int("Get_count_c past INT_MAX", n, c);
		mpit_expect_int("last byte received", 1, b[n - 1]);
	}
	MPI_Bcast_c(b, n, MPI_SIGNED_CHAR, 0, MPI_COMM_WORLD);
	mpit_expect_int("Bcast_c past INT_MAX", 1, b[n - 1]);
	b[n - 1] = 1;
	MPI_Reduce_c(b, r, n, MPI_SIGNED_CHAR, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0)
		mpit_expect_int("Reduce_c past INT_MAX", size, r[n - 1]);
	big_v(rank, size, b, r, n, 0);
	big_v(rank, size, b, r, n, 1);
	MPI_Op_create(sum_chars, 1, &op);
	b[0] = 2;
	b[n - 1] = 3;
	MPI_Allreduce_c(b, r, n, MPI_SIGNED_CHAR, op, MPI_COMM_WORLD);
	mpit_expect_int("user op Allreduce_c past INT_MAX, first", 2 * size, r[0]);
	mpit_expect_int("user op Allreduce_c past INT_MAX, last", 3 * size, r[n - 1]);
	if (size > 1 && pieces < 2)
		mpit_fail("user op: %d calls for %lld elements", pieces, (long long)n);
	MPI_Op_free(&op);
	free(b);
	free(r);
}

int main(int argc, char **argv)
{
	int rank, size, bad = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	p2p(rank, size);
	bad |= mpit_report("p2p_c_blocking_nonblocking_persistent");
	colls(rank, size);
	bad |= mpit_report("collectives_c_one_count_reductions_v_w");
	nbrs(rank, size);
	bad |= mpit_report("neighborhood_c_v_w");
	types_and_pack(rank);
	bad |= mpit_report("types_and_pack_c");
	rma(rank, size);
	bad |= mpit_report("rma_c");
	if (argc > 1 && !strcmp(argv[1], "big")) {
		big(rank, size);
		bad |= mpit_report("counts_past_int_max");
	}
	MPI_Finalize();
	return bad;
}
