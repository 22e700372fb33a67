/*
 * mpit_dt.c - derived datatypes: every constructor's layout, bounds and
 * size, checked against data packed by hand, sent between ranks in both
 * protocols (eager and the remote-to-local rendezvous copy); datatypes of
 * absolute addresses used from MPI_BOTTOM in point-to-point calls and in
 * collectives.
 */
#include <stddef.h>
#include <stdlib.h>
#include "mpit.h"

#define N 64

static int rank, size;
static int src[N * N];

/* Sends count elements of stype from rank 0's src; rank 1 receives them as
 * plain ints and compares with want[0..n). */
static void check_layout(MPI_Datatype t, int count, const int *want, int n)
{
	int *got = calloc(n + 1, sizeof *got), k;
	MPI_Status st;

	if (rank == 0) {
		MPI_Send(src, count, t, 1, 1, MPI_COMM_WORLD);
	} else if (rank == 1) {
		MPI_Recv(got, n + 1, MPI_INT, 0, 1, MPI_COMM_WORLD, &st);
		MPI_Get_count(&st, MPI_INT, &k);
		mpit_expect_int("ints received", n, k);
		for (k = 0; k < n; k++)
			if (got[k] != want[k]) {
				mpit_fail("element %d: expected %d, got %d", k, want[k], got[k]);
				break;
			}
	}
	free(got);
}

static void test_vector(void)
{
	MPI_Datatype v;
	MPI_Aint lb, ext;
	int want[3 * 2], i, sz;

	MPI_Type_vector(3, 2, 5, MPI_INT, &v);
	MPI_Type_commit(&v);
	MPI_Type_size(v, &sz);
	MPI_Type_get_extent(v, &lb, &ext);
	mpit_expect_int("vector size", 24, sz);
	mpit_expect_int("vector extent", 48, ext);
	for (i = 0; i < 6; i++)
		want[i] = (i / 2) * 5 + i % 2;
	check_layout(v, 1, want, 6);
	MPI_Type_free(&v);
	mpit_report("dt_vector_layout_and_extent");
}

static void test_indexed_struct(void)
{
	int bl[3] = { 2, 1, 3 }, disp[3] = { 10, 0, 20 }, want[6] = { 10, 11, 0, 20, 21, 22 };
	MPI_Datatype x;

	MPI_Type_indexed(3, bl, disp, MPI_INT, &x);
	MPI_Type_commit(&x);
	check_layout(x, 1, want, 6);
	MPI_Type_free(&x);
	mpit_report("dt_indexed_layout");
}

struct rec {
	double d;
	char c;
	int i[2];
};

static void test_struct(void)
{
	struct rec in[3], out[3];
	int bl[3] = { 1, 1, 2 }, i;
	MPI_Aint disp[3], lb, ext;
	MPI_Datatype types[3] = { MPI_DOUBLE, MPI_CHAR, MPI_INT }, t;

	disp[0] = offsetof(struct rec, d);
	disp[1] = offsetof(struct rec, c);
	disp[2] = offsetof(struct rec, i);
	MPI_Type_create_struct(3, bl, disp, types, &t);
	MPI_Type_commit(&t);
	MPI_Type_get_extent(t, &lb, &ext);
	mpit_expect_int("struct extent = sizeof", sizeof(struct rec), ext);
	for (i = 0; i < 3; i++) {
		in[i].d = i + 0.5;
		in[i].c = 'a' + i;
		in[i].i[0] = i * 7;
		in[i].i[1] = -i;
	}
	memset(out, 0, sizeof out);
	if (rank == 0)
		MPI_Send(in, 3, t, 1, 2, MPI_COMM_WORLD);
	else if (rank == 1) {
		MPI_Recv(out, 3, t, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		for (i = 0; i < 3; i++)
			if (out[i].d != i + 0.5 || out[i].c != 'a' + i || out[i].i[0] != i * 7 ||
			    out[i].i[1] != -i)
				mpit_fail("record %d differs", i);
	}
	MPI_Type_free(&t);
	mpit_report("dt_struct_round_trip");
}

/* A 2-D subarray sent large enough for the rendezvous path, received into
 * a different layout (a column-block vector): remote-to-local copy with
 * both sides non-contiguous. */
static void test_subarray_rendezvous(void)
{
	int sizes[2] = { N, N }, sub[2] = { 40, 30 }, start[2] = { 5, 7 }, r, c, bad = 0;
	int *dst = calloc(40 * 64, sizeof *dst);
	MPI_Datatype s, v;

	MPI_Type_create_subarray(2, sizes, sub, start, MPI_ORDER_C, MPI_INT, &s);
	MPI_Type_vector(40, 30, 64, MPI_INT, &v);
	MPI_Type_commit(&s);
	MPI_Type_commit(&v);
	if (rank == 0) {
		MPI_Send(src, 1, s, 1, 3, MPI_COMM_WORLD);
		MPI_Ssend(src, 1, s, 1, 4, MPI_COMM_WORLD);
	} else if (rank == 1) {
		MPI_Recv(dst, 1, v, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		for (r = 0; r < 40; r++)
			for (c = 0; c < 30; c++)
				bad += dst[r * 64 + c] != (r + 5) * N + c + 7;
		memset(dst, 0, 40 * 64 * sizeof *dst);
		MPI_Recv(dst, 1, v, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		for (r = 0; r < 40; r++)
			for (c = 0; c < 30; c++)
				bad += dst[r * 64 + c] != (r + 5) * N + c + 7;
		mpit_expect_int("misplaced elements", 0, bad);
	}
	MPI_Type_free(&s);
	MPI_Type_free(&v);
	free(dst);
	mpit_report("dt_subarray_to_vector_both_protocols");
}

/* Columns (every other double) between rank 0 and the last rank - on
 * another node when there are several - large enough for the rendezvous,
 * as columns on both sides, on one side only, and small and synchronous:
 * across nodes the engines gather and place the rows, nothing is packed. */
static void test_columns_between_ranks(void)
{
	enum { COUNT = 50000, SMALL = 10 };
	double *col = calloc(2 * COUNT, sizeof *col), *flat = calloc(COUNT, sizeof *flat);
	int last = size - 1, bad = 0, k, i;
	MPI_Datatype v, vs;

	MPI_Type_vector(COUNT, 1, 2, MPI_DOUBLE, &v);
	MPI_Type_vector(SMALL, 1, 2, MPI_DOUBLE, &vs);
	MPI_Type_commit(&v);
	MPI_Type_commit(&vs);
	if (rank == 0) {
		for (i = 0; i < COUNT; i++) {
			col[2 * i] = i + 0.5;
			col[2 * i + 1] = -1;
			flat[i] = i + 0.25;
		}
		MPI_Send(col, 1, v, last, 7, MPI_COMM_WORLD);
		MPI_Send(flat, COUNT, MPI_DOUBLE, last, 8, MPI_COMM_WORLD);
		MPI_Send(col, 1, v, last, 9, MPI_COMM_WORLD);
		MPI_Ssend(col, 1, vs, last, 10, MPI_COMM_WORLD);
	} else if (rank == last) {
		for (k = 0; k < 2; k++) {
			memset(col, 0, 2 * COUNT * sizeof *col);
			MPI_Recv(col, 1, v, 0, 7 + k, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			for (i = 0; i < COUNT; i++)
				bad += col[2 * i] != i + (k ? 0.25 : 0.5) || col[2 * i + 1] != 0;
		}
		MPI_Recv(flat, COUNT, MPI_DOUBLE, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		for (i = 0; i < COUNT; i++)
			bad += flat[i] != i + 0.5;
		memset(col, 0, 2 * SMALL * sizeof *col);
		MPI_Recv(col, 1, vs, 0, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		for (i = 0; i < SMALL; i++)
			bad += col[2 * i] != i + 0.5 || col[2 * i + 1] != 0;
		mpit_expect_int("misplaced doubles", 0, bad);
	}
	MPI_Type_free(&v);
	MPI_Type_free(&vs);
	free(col);
	free(flat);
	mpit_report("dt_columns_between_first_and_last_rank");
}

/* Layouts the row walks do not take, as copies use their segments: an
 * irregular indexed block of doubles (adjacent ones among them) and a
 * struct of a header and a column, from rank 0 to the last rank's
 * contiguous buffer and back into the layouts, large enough to go by
 * rendezvous, and packed. */
static void test_segment_layouts(void)
{
	enum { COUNT = 20000 };
	double *spread = calloc(3 * COUNT + 3, sizeof *spread), *flat = calloc(COUNT + 2, sizeof *flat);
	int *disp = malloc(COUNT * sizeof *disp), last = size - 1, bad = 0, i, pos = 0;
	int hdr[2] = { 7, 8 }, blen[2] = { 2, 1 };
	MPI_Aint adisp[2];
	MPI_Datatype idx, col, st, types[2];

	for (i = 0; i < COUNT; i++)
		disp[i] = i * 3 + i % 3;
	MPI_Type_create_indexed_block(COUNT, 1, disp, MPI_DOUBLE, &idx);
	MPI_Type_vector(COUNT, 1, 3, MPI_DOUBLE, &col);
	MPI_Get_address(hdr, &adisp[0]);
	MPI_Get_address(spread, &adisp[1]);
	types[0] = MPI_INT;
	types[1] = col;
	MPI_Type_create_struct(2, blen, adisp, types, &st);
	MPI_Type_commit(&idx);
	MPI_Type_commit(&st);
	for (i = 0; i < 3 * COUNT + 3; i++)
		spread[i] = rank == 0 ? i + 0.5 : 0;
	if (rank == 0 && size > 1) {
		MPI_Send(spread, 1, idx, last, 11, MPI_COMM_WORLD);
		MPI_Send(MPI_BOTTOM, 1, st, last, 12, MPI_COMM_WORLD);
		MPI_Recv(spread, 1, idx, last, 13, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		for (i = 0; i < COUNT; i++)
			bad += spread[disp[i]] != -i;
		mpit_expect_int("indexed back from contiguous", 0, bad);
	} else if (rank == last && size > 1) {
		MPI_Recv(flat, COUNT, MPI_DOUBLE, 0, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		for (i = 0; i < COUNT; i++)
			bad += flat[i] != disp[i] + 0.5;
		MPI_Recv(flat, (int)(sizeof hdr + COUNT * sizeof(double)), MPI_BYTE, 0, 12,
			 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		bad += memcmp(flat, hdr, sizeof hdr) != 0;
		for (i = 0; i < COUNT; i++) {
			double d;

			memcpy(&d, (char *)flat + sizeof hdr + i * sizeof d, sizeof d);
			bad += d != 3 * i + 0.5;
		}
		for (i = 0; i < COUNT; i++)
			flat[i] = -i;
		MPI_Send(flat, COUNT, MPI_DOUBLE, 0, 13, MPI_COMM_WORLD);
		mpit_expect_int("indexed and struct to contiguous", 0, bad);
	}
	MPI_Pack(MPI_BOTTOM, 1, st, flat, (int)((COUNT + 2) * sizeof *flat), &pos, MPI_COMM_WORLD);
	mpit_expect_int("packed bytes", (int)(sizeof hdr + COUNT * sizeof(double)), pos);
	MPI_Type_free(&idx);
	MPI_Type_free(&col);
	MPI_Type_free(&st);
	free(spread);
	free(flat);
	free(disp);
	mpit_report("dt_segment_layouts_to_and_from_contiguous");
}

static void test_resized(void)
{
	MPI_Datatype pair, r;
	MPI_Aint lb, ext;
	int want[8];

	/* Every 4th int taken twice as far apart: an interleaving. */
	MPI_Type_vector(2, 1, 4, MPI_INT, &pair);
	MPI_Type_create_resized(pair, 0, sizeof(int), &r);
	MPI_Type_commit(&r);
	MPI_Type_get_extent(r, &lb, &ext);
	mpit_expect_int("resized extent", sizeof(int), ext);
	for (int i = 0; i < 4; i++) {
		want[2 * i] = i;
		want[2 * i + 1] = i + 4;
	}
	check_layout(r, 4, want, 8);
	MPI_Type_free(&pair);
	MPI_Type_free(&r);
	mpit_report("dt_resized_interleaves");
}

static void test_pack(void)
{
	MPI_Datatype v;
	char buf[256];
	int pos = 0, out[12] = { 0 }, sz, i, x = 99, y = 0;

	MPI_Type_vector(3, 2, 4, MPI_INT, &v);
	MPI_Type_commit(&v);
	MPI_Pack_size(1, v, MPI_COMM_WORLD, &sz);
	mpit_expect_int("Pack_size", 24, sz);
	MPI_Pack(src, 1, v, buf, sizeof buf, &pos, MPI_COMM_WORLD);
	MPI_Pack(&x, 1, MPI_INT, buf, sizeof buf, &pos, MPI_COMM_WORLD);
	mpit_expect_int("position after two packs", 28, pos);
	pos = 0;
	MPI_Unpack(buf, sizeof buf, &pos, out, 1, v, MPI_COMM_WORLD);
	MPI_Unpack(buf, sizeof buf, &pos, &y, 1, MPI_INT, MPI_COMM_WORLD);
	for (i = 0; i < 12; i++)
		if (out[i] != (i % 4 < 2 ? i : 0))
			mpit_fail("unpacked element %d is %d", i, out[i]);
	mpit_expect_int("second item", 99, y);
	MPI_Type_free(&v);
	mpit_report("dt_pack_unpack_round_trip");
}

static void test_get_elements(void)
{
	MPI_Datatype t;
	MPI_Status st;
	int bl[2] = { 1, 2 }, n = 0, cnt = 0;
	MPI_Aint disp[2] = { 0, 8 };
	MPI_Datatype ty[2] = { MPI_DOUBLE, MPI_INT };
	char buf[64] = { 0 };

	MPI_Type_create_struct(2, bl, disp, ty, &t);
	MPI_Type_commit(&t);
	if (rank == 0) {
		MPI_Send(buf, 8 + 4, MPI_BYTE, 1, 5, MPI_COMM_WORLD);
	} else if (rank == 1) {
		MPI_Recv(buf, 2, t, 0, 5, MPI_COMM_WORLD, &st);
		MPI_Get_elements(&st, t, &n);
		MPI_Get_count(&st, t, &cnt);
		mpit_expect_int("basic elements in a double and an int", 2, n);
		mpit_expect_int("whole elements", MPI_UNDEFINED, cnt);
	}
	MPI_Type_free(&t);
	mpit_report("dt_get_elements_counts_partial_elements");
}

static void test_true_extent_dup_name(void)
{
	MPI_Datatype t, d;
	MPI_Aint tlb, text;
	char name[MPI_MAX_OBJECT_NAME];
	int len;

	MPI_Type_create_resized(MPI_INT, -4, 16, &t);
	MPI_Type_get_true_extent(t, &tlb, &text);
	mpit_expect_int("true lb", 0, tlb);
	mpit_expect_int("true extent", 4, text);
	MPI_Type_dup(MPI_DOUBLE, &d);
	MPI_Type_get_name(MPI_DOUBLE, name, &len);
	if (strcmp(name, "MPI_DOUBLE"))
		mpit_fail("name of MPI_DOUBLE: got '%s'", name);
	MPI_Type_free(&t);
	MPI_Type_free(&d);
	mpit_report("dt_true_extent_and_names");
}

/*
 * Three pieces of memory that have nothing to do with each other - a
 * static array, a heap block and an array on main's stack - named by
 * their absolute addresses (MPI_Get_address) in one struct type, so the
 * data is reached from MPI_BOTTOM.  Element j of the pieces together holds
 * seed * 100000 + j.
 */
static int bottom_static[3];

struct bottom {
	int *heap, *stack;
	int nheap;
	MPI_Datatype t;
};

static void bottom_make(struct bottom *b, int *stack, int nheap)
{
	int bl[3] = { 3, nheap, 2 };
	MPI_Aint d[3];
	MPI_Datatype ty[3] = { MPI_INT, MPI_INT, MPI_INT };

	b->heap = calloc(nheap, sizeof *b->heap);
	b->stack = stack;
	b->nheap = nheap;
	MPI_Get_address(bottom_static, &d[0]);
	MPI_Get_address(b->heap, &d[1]);
	MPI_Get_address(stack, &d[2]);
	MPI_Type_create_struct(3, bl, d, ty, &b->t);
	MPI_Type_commit(&b->t);
}

static int *bottom_at(struct bottom *b, int j)
{
	if (j < 3)
		return &bottom_static[j];
	if (j < 3 + b->nheap)
		return &b->heap[j - 3];
	return &b->stack[j - 3 - b->nheap];
}

static void bottom_fill(struct bottom *b, int seed)
{
	for (int j = 0; j < 5 + b->nheap; j++)
		*bottom_at(b, j) = seed < 0 ? 0 : seed * 100000 + j;
}

/* The first element that is not want(j), or -1; want = seed * 100000 + j
 * times mul plus add. */
static int bottom_bad(struct bottom *b, long long mul, long long add)
{
	for (int j = 0; j < 5 + b->nheap; j++)
		if (*bottom_at(b, j) != (int)(mul * j + add))
			return j;
	return -1;
}

static void bottom_free(struct bottom *b)
{
	MPI_Type_free(&b->t);
	free(b->heap);
}

/* Rank 0 sends from MPI_BOTTOM with its absolute type, rank 1 receives
 * into MPI_BOTTOM with its own, in every protocol and with Isend/Irecv. */
static void test_bottom_p2p(void)
{
	static const int nheap[] = { 1, 40, 3000, 100000 };
	int stack[2], k, way, bad;
	struct bottom b;
	MPI_Request rq;

	for (k = 0; k < 4; k++)
		for (way = 0; way < 3; way++) {
			int seed = 1 + k * 3 + way;

			bottom_make(&b, stack, nheap[k]);
			if (rank == 0) {
				bottom_fill(&b, seed);
				if (way == 0)
					MPI_Send(MPI_BOTTOM, 1, b.t, 1, 20, MPI_COMM_WORLD);
				else if (way == 1)
					MPI_Ssend(MPI_BOTTOM, 1, b.t, 1, 20, MPI_COMM_WORLD);
				else {
					MPI_Isend(MPI_BOTTOM, 1, b.t, 1, 20, MPI_COMM_WORLD, &rq);
					MPI_Wait(&rq, MPI_STATUS_IGNORE);
				}
			} else if (rank == 1) {
				bottom_fill(&b, -1);
				if (way < 2) {
					MPI_Recv(MPI_BOTTOM, 1, b.t, 0, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
				} else {
					MPI_Irecv(MPI_BOTTOM, 1, b.t, 0, 20, MPI_COMM_WORLD, &rq);
					MPI_Wait(&rq, MPI_STATUS_IGNORE);
				}
				if ((bad = bottom_bad(&b, 1, seed * 100000LL)) >= 0)
					mpit_fail("%d heap ints, way %d: element %d is %d", nheap[k], way,
						  bad, *bottom_at(&b, bad));
			}
			bottom_free(&b);
		}
	mpit_report("dt_absolute_addresses_from_mpi_bottom_send_and_receive");
}

/* The same types in Bcast (root and receivers), Gather (sending from
 * MPI_BOTTOM) and Scatter (receiving into it).  Reductions are left out:
 * predefined ops on derived types are beyond MPI (MPICH refuses them) and
 * user ops see the type's layout. */
static void test_bottom_coll(void)
{
	int stack[2], n = 5 + 1000, bad, r, j;
	int *all = malloc((size_t)n * size * sizeof *all);
	struct bottom b;

	bottom_make(&b, stack, 1000);
	bottom_fill(&b, rank == 0 ? 7 : -1);
	MPI_Bcast(MPI_BOTTOM, 1, b.t, 0, MPI_COMM_WORLD);
	if ((bad = bottom_bad(&b, 1, 700000)) >= 0)
		mpit_fail("Bcast: element %d is %d", bad, *bottom_at(&b, bad));
	bottom_fill(&b, rank);
	MPI_Gather(MPI_BOTTOM, 1, b.t, all, n, MPI_INT, 0, MPI_COMM_WORLD);
	for (r = 0; rank == 0 && r < size; r++)
		for (j = 0; j < n; j++)
			if (all[r * n + j] != r * 100000 + j) {
				mpit_fail("Gather: rank %d element %d is %d", r, j, all[r * n + j]);
				r = size;
				break;
			}
	for (r = 0; r < size; r++)
		for (j = 0; j < n; j++)
			all[r * n + j] = (r + 10) * 100000 + j;
	bottom_fill(&b, -1);
	MPI_Scatter(all, n, MPI_INT, MPI_BOTTOM, 1, b.t, 0, MPI_COMM_WORLD);
	if ((bad = bottom_bad(&b, 1, (rank + 10) * 100000LL)) >= 0)
		mpit_fail("Scatter: element %d is %d", bad, *bottom_at(&b, bad));
	bottom_free(&b);
	free(all);
	mpit_report("dt_absolute_addresses_from_mpi_bottom_in_collectives");
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (int i = 0; i < N * N; i++)
		src[i] = i;
	test_vector();
	test_indexed_struct();
	test_struct();
	test_subarray_rendezvous();
	test_columns_between_ranks();
	test_segment_layouts();
	test_resized();
	test_pack();
	test_get_elements();
	test_true_extent_dup_name();
	test_bottom_p2p();
	test_bottom_coll();
	MPI_Finalize();
	return 0;
}
