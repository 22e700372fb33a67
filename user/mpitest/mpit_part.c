/*
 * mpit_part.c - MPI 4.0 partitioned point-to-point around a ring: each
 * rank sends to its right neighbour and receives from its left.  The two
 * sides cut the same buffer into different numbers of partitions;
 * partitions are marked ready out of order, with all three Pready forms;
 * pairs that share a tag match in the order of their init calls however
 * they are started; MPI_PROC_NULL and the argument errors.  MPI 4.0 only:
 * builds with mpicc.mpich (4.0), not Open MPI 4.1.
 */
#include <stdlib.h>
#include "mpit.h"

static int rank, size, right, left;

static int val(int from, int round, int i)
{
	return from * 100003 + round * 7919 + i;
}

static void expect_from(const char *what, const int *b, int n, int from, int round)
{
	for (int i = 0; i < n; i++)
		if (b[i] != val(from, round, i)) {
			mpit_fail("%s: element %d: expected %d, got %d", what, i,
				  val(from, round, i), b[i]);
			return;
		}
}

/* 8 send partitions of 1000 ints against 4 receive partitions of 2000,
 * readied last to first, three rounds on the same requests. */
static void test_ring(void)
{
	enum { SP = 8, RP = 4, N = 8000 };
	int *sb = malloc(N * sizeof *sb), *rb = malloc(N * sizeof *rb), round, i, flag;
	MPI_Request rq[2];
	MPI_Status st[2];

	MPI_Psend_init(sb, SP, N / SP, MPI_INT, right, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &rq[0]);
	MPI_Precv_init(rb, RP, N / RP, MPI_INT, left, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &rq[1]);
	for (round = 0; round < 3; round++) {
		for (i = 0; i < N; i++)
			rb[i] = -1;
		MPI_Startall(2, rq);
		for (i = SP - 1; i >= 0; i--) {
			int j;

			for (j = i * (N / SP); j < (i + 1) * (N / SP); j++)
				sb[j] = val(rank, round, j);
			MPI_Pready(i, rq[0]);
		}
		for (i = 0; i < RP; i++)
			do
				MPI_Parrived(rq[1], i, &flag);
			while (!flag);
		MPI_Waitall(2, rq, st);
		expect_from("received ring buffer", rb, N, left, round);
		mpit_expect_int("status source", left, st[1].MPI_SOURCE);
		mpit_expect_int("status tag", 5, st[1].MPI_TAG);
	}
	mpit_expect_int("persistent requests kept", 1,
			rq[0] != MPI_REQUEST_NULL && rq[1] != MPI_REQUEST_NULL);
	MPI_Request_free(&rq[0]);
	MPI_Request_free(&rq[1]);
	free(sb);
	free(rb);
	mpit_report("partitioned_ring_with_different_partitions_per_side");
}

/*
 * Pairs A (3000 ints) and B (7 ints) share tag 5; C (tag 9) is inited
 * first by the sender and last by the receiver.  The receiver starts C,
 * B, A, the sender A, B, C, and readies C, then B, then A: each pair
 * must still be the one its init order makes it.
 */
static void test_init_order(void)
{
	enum { NA = 3000, NB = 7, NC = 50 };
	static int sa[NA], sb[NB], sc[NC], ra[NA], rbb[NB], rc[NC];
	MPI_Request s[3], r[3];
	int i, list[2] = { 1, 0 };

	for (i = 0; i < NA; i++)
		sa[i] = val(rank, 10, i), ra[i] = -1;
	for (i = 0; i < NB; i++)
		sb[i] = val(rank, 11, i), rbb[i] = -1;
	for (i = 0; i < NC; i++)
		sc[i] = val(rank, 12, i), rc[i] = -1;
	MPI_Psend_init(sc, 1, NC, MPI_INT, right, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &s[2]);
	MPI_Psend_init(sa, 3, NA / 3, MPI_INT, right, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &s[0]);
	MPI_Psend_init(sb, 1, NB, MPI_INT, right, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &s[1]);
	MPI_Precv_init(ra, 1, NA, MPI_INT, left, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]);
	MPI_Precv_init(rbb, 1, NB, MPI_INT, left, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &r[1]);
	MPI_Precv_init(rc, 2, NC / 2, MPI_INT, left, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &r[2]);
	MPI_Start(&r[2]);
	MPI_Start(&r[1]);
	MPI_Start(&r[0]);
	MPI_Startall(3, s);
	MPI_Pready(0, s[2]);
	MPI_Pready_list(1, list + 1, s[1]);
	MPI_Pready_list(2, list, s[0]);
	MPI_Pready_range(2, 2, s[0]);
	MPI_Waitall(3, r, MPI_STATUSES_IGNORE);
	MPI_Waitall(3, s, MPI_STATUSES_IGNORE);
	expect_from("first pair of tag 5", ra, NA, left, 10);
	expect_from("second pair of tag 5", rbb, NB, left, 11);
	expect_from("pair of tag 9", rc, NC, left, 12);
	for (i = 0; i < 3; i++) {
		MPI_Request_free(&s[i]);
		MPI_Request_free(&r[i]);
	}
	mpit_report("partitioned_pairs_match_in_init_order");
}

static int err_class(int err)
{
	int cls = MPI_SUCCESS;

	if (err != MPI_SUCCESS)
		MPI_Error_class(err, &cls);
	return cls;
}

static void test_edges(void)
{
	MPI_Request s, r;
	int x = 1, flag = 0;

	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Psend_init(&x, 1, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &s);
	MPI_Start(&s);
	mpit_expect_int("Pready to MPI_PROC_NULL", MPI_SUCCESS, MPI_Pready(0, s));
	mpit_expect_int("Wait to MPI_PROC_NULL", MPI_SUCCESS, MPI_Wait(&s, MPI_STATUS_IGNORE));
	mpit_expect_int("Pready partition 1 of 1", MPI_ERR_ARG, err_class(MPI_Pready(1, s)));
	mpit_expect_int("Precv_init from MPI_ANY_SOURCE", MPI_ERR_RANK,
			err_class(MPI_Precv_init(&x, 1, 1, MPI_INT, MPI_ANY_SOURCE, 0,
						 MPI_COMM_WORLD, MPI_INFO_NULL, &r)));
	mpit_expect_int("Precv_init with MPI_ANY_TAG", MPI_ERR_TAG,
			err_class(MPI_Precv_init(&x, 1, 1, MPI_INT, left, MPI_ANY_TAG,
						 MPI_COMM_WORLD, MPI_INFO_NULL, &r)));
	mpit_expect_int("Psend_init with 0 partitions", MPI_ERR_ARG,
			err_class(MPI_Psend_init(&x, 0, 1, MPI_INT, right, 0, MPI_COMM_WORLD,
						 MPI_INFO_NULL, &r)));
	MPI_Precv_init(&x, 1, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
	mpit_expect_int("Pready on a receive", MPI_ERR_REQUEST, err_class(MPI_Pready(0, r)));
	MPI_Parrived(r, 0, &flag);
	mpit_expect_int("Parrived on an inactive request", 1, flag);
	mpit_expect_int("Parrived on a send", MPI_ERR_REQUEST, err_class(MPI_Parrived(s, 0, &flag)));
	MPI_Request_free(&s);
	MPI_Request_free(&r);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	mpit_report("partitioned_proc_null_and_argument_errors");
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	right = (rank + 1) % size;
	left = (rank + size - 1) % size;
	test_ring();
	test_init_order();
	test_edges();
	MPI_Finalize();
	return 0;
}
