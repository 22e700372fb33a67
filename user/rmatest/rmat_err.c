/*
 * rmat_err.c - misuse of the one-sided calls: each error class libsmap
 * reports (the standard names the classes; which misuses an MPI detects is
 * its own choice, so this program is libsmap's), through MPI_ERRORS_RETURN
 * and through a user window handler, and the window still works after.
 *
 *   rmat_err            the checks, one TAP line each
 *   rmat_err fatal      an out-of-range Put under the default handler,
 *                       which must end the job naming the call
 *   rmat_err nodes      a window over every rank of a multi-node job: put,
 *                       accumulate, fetch-and-op and compare-and-swap
 *                       reach every rank, whichever node it is on
 */
#include "rmat.h"

#define N	16

static int buf[N];
static MPI_Win win;

#define EXPECT_CLASS(what, want, call) do { \
	int e_ = (call), c_ = -1; \
	MPI_Error_class(e_, &c_); \
	if (c_ != (want)) \
		mpit_fail("%s: expected class %d, got %d", what, (want), c_); \
} while (0)

static void test_sync_errors(void)
{
	int v = 0, big[2 * N] = { 0 };

	EXPECT_CLASS("put outside an epoch", MPI_ERR_RMA_SYNC,
		     MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win));
	EXPECT_CLASS("complete without start", MPI_ERR_RMA_SYNC, MPI_Win_complete(win));
	EXPECT_CLASS("wait without post", MPI_ERR_RMA_SYNC, MPI_Win_wait(win));
	EXPECT_CLASS("unlock without lock", MPI_ERR_RMA_SYNC, MPI_Win_unlock(right, win));
	EXPECT_CLASS("flush without lock", MPI_ERR_RMA_SYNC, MPI_Win_flush(right, win));
	EXPECT_CLASS("flush_all without lock", MPI_ERR_RMA_SYNC, MPI_Win_flush_all(win));
	EXPECT_CLASS("fence with a lock's assert", MPI_ERR_ASSERT, MPI_Win_fence(MPI_MODE_NOCHECK, win));
	EXPECT_CLASS("lock type 99", MPI_ERR_LOCKTYPE, MPI_Win_lock(99, right, 0, win));
	MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
	EXPECT_CLASS("second lock of a target", MPI_ERR_RMA_SYNC,
		     MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
	EXPECT_CLASS("lock_all while locked", MPI_ERR_RMA_SYNC, MPI_Win_lock_all(0, win));
	EXPECT_CLASS("fence while locked", MPI_ERR_RMA_SYNC, MPI_Win_fence(0, win));
	EXPECT_CLASS("free while locked", MPI_ERR_RMA_SYNC, MPI_Win_free(&win));
	MPI_Win_unlock(right, win);
	MPI_Win_fence(0, win);
	EXPECT_CLASS("rput in a fence epoch", MPI_ERR_RMA_SYNC,
		     MPI_Rput(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win, &(MPI_Request){ 0 }));
	EXPECT_CLASS("put past the window", MPI_ERR_RMA_RANGE,
		     MPI_Put(big, 2 * N, MPI_INT, right, 0, 2 * N, MPI_INT, win));
	EXPECT_CLASS("put at a negative displacement", MPI_ERR_RMA_RANGE,
		     MPI_Put(&v, 1, MPI_INT, right, -1, 1, MPI_INT, win));
	EXPECT_CLASS("put to rank np", MPI_ERR_RANK, MPI_Put(&v, 1, MPI_INT, np, 0, 1, MPI_INT, win));
	EXPECT_CLASS("origin and target sizes differ", MPI_ERR_TYPE,
		     MPI_Put(big, 2, MPI_INT, right, 0, 1, MPI_INT, win));
	EXPECT_CLASS("put to MPI_PROC_NULL", MPI_SUCCESS,
		     MPI_Put(&v, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win));
	MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
	mpit_report("rma_errors_synchronisation_range_rank_size");
}

static void swap_ints(void *in, void *inout, int *len, MPI_Datatype *t)
{
	(void)in;
	(void)inout;
	(void)len;
	(void)t;
}

static void test_op_errors(void)
{
	int v = 1, r;
	double d = 1, dr;
	MPI_Op user;

	MPI_Op_create(swap_ints, 1, &user);
	MPI_Win_lock_all(0, win);
	EXPECT_CLASS("accumulate with a user op", MPI_ERR_OP,
		     MPI_Accumulate(&v, 1, MPI_INT, right, 0, 1, MPI_INT, user, win));
	EXPECT_CLASS("accumulate with MPI_NO_OP", MPI_ERR_OP,
		     MPI_Accumulate(&v, 1, MPI_INT, right, 0, 1, MPI_INT, MPI_NO_OP, win));
	EXPECT_CLASS("MPI_LAND on doubles", MPI_ERR_OP,
		     MPI_Fetch_and_op(&d, &dr, MPI_DOUBLE, right, 0, MPI_LAND, win));
	EXPECT_CLASS("origin int, target float", MPI_ERR_TYPE,
		     MPI_Accumulate(&v, 1, MPI_INT, right, 0, 1, MPI_FLOAT, MPI_SUM, win));
	EXPECT_CLASS("compare_and_swap on a double", MPI_ERR_TYPE,
		     MPI_Compare_and_swap(&d, &d, &dr, MPI_DOUBLE, right, 0, win));
	EXPECT_CLASS("get_accumulate result type differs", MPI_ERR_TYPE,
		     MPI_Get_accumulate(&v, 1, MPI_INT, &dr, 1, MPI_DOUBLE, right, 0, 1, MPI_INT, MPI_SUM,
					win));
	EXPECT_CLASS("a valid fetch_and_op still works", MPI_SUCCESS,
		     MPI_Fetch_and_op(&v, &r, MPI_INT, me, 0, MPI_NO_OP, win));
	MPI_Win_unlock_all(win);
	MPI_Op_free(&user);
	mpit_report("rma_errors_accumulate_ops_and_types");
}

static void test_flavour_errors(void)
{
	MPI_Aint size;
	int du, *p, x = 0;
	MPI_Info info;
	MPI_Win dyn, w;

	/* Every window's memory is shared on a node (MPI 4.0 lets any flavour
	 * answer): this rank's own segment comes back as it was given. */
	EXPECT_CLASS("shared_query of a Win_create window", MPI_SUCCESS,
		     MPI_Win_shared_query(win, me, &size, &du, &p));
	mpit_expect_int("shared_query gives the segment", 1, p == buf && size == sizeof buf);
	EXPECT_CLASS("attach to a Win_create window", MPI_ERR_RMA_FLAVOR,
		     MPI_Win_attach(win, &x, sizeof x));
	EXPECT_CLASS("set_info(MPI_INFO_NULL)", MPI_SUCCESS, MPI_Win_set_info(win, MPI_INFO_NULL));
	EXPECT_CLASS("get_info", MPI_SUCCESS, MPI_Win_get_info(win, &info));
	MPI_Info_free(&info);
	MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &dyn);
	MPI_Win_set_errhandler(dyn, MPI_ERRORS_RETURN);
	EXPECT_CLASS("detach of memory never attached", MPI_ERR_RMA_ATTACH, MPI_Win_detach(dyn, &x));
	MPI_Win_attach(dyn, &x, sizeof x);
	EXPECT_CLASS("overlapping attach", MPI_ERR_RMA_ATTACH, MPI_Win_attach(dyn, &x, sizeof x));
	MPI_Win_lock(MPI_LOCK_SHARED, right, 0, dyn);
	EXPECT_CLASS("get from an address outside the target", MPI_ERR_RMA_RANGE,
		     MPI_Get(&du, 1, MPI_INT, right, 4096, 1, MPI_INT, dyn));
	MPI_Win_unlock(right, dyn);
	MPI_Win_detach(dyn, &x);
	MPI_Win_free(&dyn);
	/* Creation errors are raised on the communicator. */
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	EXPECT_CLASS("negative size", MPI_ERR_SIZE,
		     MPI_Win_create(buf, -1, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w));
	EXPECT_CLASS("disp_unit 0", MPI_ERR_DISP,
		     MPI_Win_allocate(4, 0, MPI_INFO_NULL, MPI_COMM_WORLD, &p, &w));
	EXPECT_CLASS("memory peers cannot reach", MPI_ERR_BASE,
		     MPI_Win_create((void *)4096, 4096, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w));
	EXPECT_CLASS("MPI_WIN_NULL", MPI_ERR_WIN, MPI_Win_fence(0, MPI_WIN_NULL));
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	mpit_report("rma_errors_flavours_attach_and_creation");
}

static int handled, handled_code;
static MPI_Win handled_win;

static void on_error(MPI_Win *w, int *code, ...)
{
	handled++;
	handled_code = *code;
	handled_win = *w;
}

static void test_user_handler(void)
{
	MPI_Errhandler h, got;
	int v = 0;

	MPI_Win_create_errhandler(on_error, &h);
	MPI_Win_set_errhandler(win, h);
	MPI_Win_get_errhandler(win, &got);
	mpit_expect_int("get_errhandler returns it", 1, got == h);
	MPI_Errhandler_free(&got);
	MPI_Errhandler_free(&h);
	MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win);
	mpit_expect_int("handler calls", 1, handled);
	mpit_expect_int("handler's code", MPI_ERR_RMA_SYNC, handled_code);
	mpit_expect_int("handler's window", 1, handled_win == win);
	MPI_Win_call_errhandler(win, MPI_ERR_OTHER);
	mpit_expect_int("handler calls after call_errhandler", 2, handled);
	mpit_expect_int("code passed by call_errhandler", MPI_ERR_OTHER, handled_code);
	MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
	mpit_report("rma_errors_user_window_handler");
}

/* After all that, the window still moves data. */
static void test_still_works(void)
{
	int v = rmat_val(me, right, 0);

	MPI_Win_fence(0, win);
	MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win);
	MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
	mpit_expect_int("value put after the errors", rmat_val(left, me, 0), buf[0]);
	mpit_report("rma_errors_leave_the_window_usable");
}

/* One TAP line from rank 0, for checks that need no collective. */
static void nodes_report(const char *name)
{
	char why[MPIT_MSG + 32] = "";
	int r, bad = 0;

	if (me != 0) {
		MPI_Send(mpit_failed ? mpit_why : "", MPIT_MSG, MPI_CHAR, 0, 9, MPI_COMM_WORLD);
		return;
	}
	if (mpit_failed)
		snprintf(why, sizeof why, "rank 0: %s", mpit_why), bad = 1;
	for (r = 1; r < np; r++) {
		char m[MPIT_MSG];

		MPI_Recv(m, MPIT_MSG, MPI_CHAR, r, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		if (m[0] && !bad)
			snprintf(why, sizeof why, "rank %d: %.150s", r, m), bad = 1;
	}
	if (bad)
		printf("not ok %s - %s\n", name, why);
	else
		printf("ok %s\n", name);
}

/* Runs of doubles accumulated from every rank: across nodes the target's
 * engine combines them (in the kernel, the one place it uses SSE). */
static void nodes_runs(void)
{
	double src[64], *base, want, max;
	MPI_Win w;
	int i, bad = -1;

	MPI_Win_allocate(128 * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD,
			 &base, &w);
	for (i = 0; i < 128; i++)
		base[i] = i < 64 ? 0 : -1;
	for (i = 0; i < 64; i++)
		src[i] = 0.25 * i + me;
	MPI_Win_fence(0, w);
	MPI_Accumulate(src, 64, MPI_DOUBLE, 0, 0, 64, MPI_DOUBLE, MPI_SUM, w);
	MPI_Accumulate(src, 64, MPI_DOUBLE, np - 1, 64, 64, MPI_DOUBLE, MPI_MAX, w);
	MPI_Win_fence(0, w);
	for (i = 0; i < 64 && bad < 0; i++) {
		want = 0.25 * i * np + np * (np - 1) / 2.0;
		max = 0.25 * i + np - 1;
		if ((me == 0 && base[i] != want) || (me == np - 1 && base[64 + i] != max))
			bad = i;
	}
	mpit_expect_int("first wrong element of accumulated runs of doubles (-1: none)", -1, bad);
	MPI_Win_free(&w);
}

static void nodes_window(void)
{
	int one = 1, old = -1, cmp, mine = me + 1, got = -1;

	MPI_Win_create(buf, sizeof buf, sizeof buf[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
	MPI_Win_fence(0, win);
	MPI_Put(&mine, 1, MPI_INT, right, 0, 1, MPI_INT, win);
	MPI_Accumulate(&one, 1, MPI_INT, 0, 1, 1, MPI_INT, MPI_SUM, win);
	MPI_Win_fence(0, win);
	mpit_expect_int("buf[0] put by the left neighbour", left + 1, buf[0]);
	if (me == 0)
		mpit_expect_int("buf[1] after every rank's accumulate", np, buf[1]);
	MPI_Get(&got, 1, MPI_INT, left, 0, 1, MPI_INT, win);
	MPI_Win_fence(0, win);
	mpit_expect_int("get of the left neighbour's buf[0]", (left + np - 1) % np + 1, got);
	MPI_Win_lock(MPI_LOCK_EXCLUSIVE, np - 1, 0, win);
	MPI_Fetch_and_op(&one, &old, MPI_INT, np - 1, 2, MPI_SUM, win);
	MPI_Win_unlock(np - 1, win);
	mpit_expect_int("fetch-and-op sees a count below the ranks", old < np, 1);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Win_lock(MPI_LOCK_SHARED, np - 1, 0, win);
	cmp = np;
	MPI_Compare_and_swap(&mine, &cmp, &old, MPI_INT, np - 1, 2, win);
	MPI_Win_unlock(np - 1, win);
	MPI_Barrier(MPI_COMM_WORLD);
	if (me == np - 1)
		mpit_expect_int("compare-and-swap by exactly one rank", 1,
				buf[2] >= 1 && buf[2] <= np);
	MPI_Win_free(&win);
	nodes_runs();
	nodes_report("rma_window_across_nodes_moves_data");
}

int main(int argc, char **argv)
{
	int v = 0;

	rmat_init(&argc, &argv);
	if (argc > 1 && !strcmp(argv[1], "nodes")) {
		nodes_window();
		MPI_Finalize();
		return mpit_failed;
	}
	MPI_Win_create(buf, sizeof buf, sizeof buf[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
	if (argc > 1 && !strcmp(argv[1], "fatal")) {
		MPI_Win_fence(0, win);
		MPI_Put(&v, 1, MPI_INT, right, N, 1, MPI_INT, win);
		MPI_Win_fence(0, win);
		printf("not ok rma_errors_are_fatal_by_default - the put returned\n");
		MPI_Finalize();
		return 0;
	}
	MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
	test_sync_errors();
	test_op_errors();
	test_flavour_errors();
	test_user_handler();
	test_still_works();
	MPI_Win_free(&win);
	MPI_Finalize();
	return 0;
}
