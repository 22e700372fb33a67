/*
 * rmat_sync.c - Put and Get under every synchronisation mode: fence (with
 * and without asserts), post/start/complete/wait and test, exclusive and
 * shared locks (with and without NOCHECK), a waiter on an exclusive lock
 * that others keep taking, lock_all with the flushes, the request forms,
 * load/store on a shared window with Win_sync, its memory as the buffers
 * of messages and RMA, and derived datatypes on either side.  Every rank
 * checks its own window (or what it fetched) against values it computes
 * for the peer that wrote them.
 */
#include "rmat.h"

#define N	1024

static int *base, out[N], in[N];
static MPI_Win win;

/* Window memory is read locally only inside an epoch or after Win_sync. */
static void check_window(const char *what, int from)
{
	MPI_Win_lock(MPI_LOCK_SHARED, me, 0, win);
	rmat_expect(what, base, N, from, me);
	MPI_Win_unlock(me, win);
}

static void clear_window(void)
{
	MPI_Win_lock(MPI_LOCK_EXCLUSIVE, me, 0, win);
	memset(base, 0, N * sizeof *base);
	MPI_Win_unlock(me, win);
	MPI_Barrier(MPI_COMM_WORLD);
}

static void test_fence(void)
{
	clear_window();
	rmat_fill(out, N, me, right);
	MPI_Win_fence(0, win);
	MPI_Put(out, N, MPI_INT, right, 0, N, MPI_INT, win);
	MPI_Win_fence(0, win);
	rmat_expect("window after fence", base, N, left, me);
	memset(in, 0, sizeof in);
	MPI_Get(in, N, MPI_INT, left, 0, N, MPI_INT, win);
	MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
	rmat_expect("get after fence", in, N, (left + np - 1) % np, left);
	mpit_report("rma_fence_put_and_get_around_the_ring");

	clear_window();
	MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
	MPI_Put(out, N, MPI_INT, right, 0, N, MPI_INT, win);
	MPI_Win_fence(MPI_MODE_NOSTORE, win);
	MPI_Get(in, N, MPI_INT, right, 0, N, MPI_INT, win);
	MPI_Win_fence(MPI_MODE_NOSUCCEED | MPI_MODE_NOPUT, win);
	rmat_expect("get of what we put", in, N, me, right);
	check_window("window after asserted fences", left);
	mpit_report("rma_fence_with_asserts");
}

static MPI_Group group_of(int a, int b)
{
	MPI_Group world, g;
	int r[2] = { a, b };

	MPI_Comm_group(MPI_COMM_WORLD, &world);
	MPI_Group_incl(world, a == b ? 1 : 2, r, &g);
	MPI_Group_free(&world);
	return g;
}

static void test_pscw(void)
{
	MPI_Group from = group_of(left, left), to = group_of(right, right), zero, all, world;
	int flag = 0, polls = 0, i, *ranks;

	clear_window();
	rmat_fill(out, N, me, right);
	MPI_Win_post(from, 0, win);
	MPI_Win_start(to, 0, win);
	MPI_Put(out, N, MPI_INT, right, 0, N, MPI_INT, win);
	MPI_Win_complete(win);
	MPI_Win_wait(win);
	rmat_expect("window after wait", base, N, left, me);
	mpit_report("rma_pscw_put_to_the_right");

	MPI_Win_post(from, 0, win);
	MPI_Win_start(to, 0, win);
	MPI_Get(in, N, MPI_INT, right, 0, N, MPI_INT, win);
	MPI_Win_complete(win);
	while (!flag) {
		MPI_Win_test(win, &flag);
		polls++;
	}
	mpit_expect_int("test succeeded", 1, polls >= 1);
	rmat_expect("get in a pscw epoch", in, N, me, right);
	mpit_report("rma_pscw_get_and_win_test");

	/* NOCHECK: every post is known to be done (barrier) before any start. */
	clear_window();
	MPI_Win_post(from, MPI_MODE_NOCHECK, win);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Win_start(to, MPI_MODE_NOCHECK, win);
	MPI_Put(out, N, MPI_INT, right, 0, N, MPI_INT, win);
	MPI_Win_complete(win);
	MPI_Win_wait(win);
	rmat_expect("window after nocheck epoch", base, N, left, me);
	mpit_report("rma_pscw_nocheck");

	/* Everybody into rank 0's window, one slot each. */
	clear_window();
	MPI_Comm_group(MPI_COMM_WORLD, &world);
	ranks = malloc(np * sizeof *ranks);
	for (i = 0; i < np; i++)
		ranks[i] = i;
	MPI_Group_incl(world, np, ranks, &all);
	if (me == 0)
		MPI_Win_post(all, 0, win);
	zero = group_of(0, 0);
	MPI_Win_start(zero, 0, win);
	out[0] = rmat_val(me, 0, 0);
	MPI_Put(out, 1, MPI_INT, 0, me, 1, MPI_INT, win);
	MPI_Win_complete(win);
	if (me == 0) {
		MPI_Win_wait(win);
		for (i = 0; i < np; i++)
			mpit_expect_int("slot", rmat_val(i, 0, 0), base[i]);
	}
	mpit_report("rma_pscw_all_origins_into_one_target");
	free(ranks);
	MPI_Group_free(&all);
	MPI_Group_free(&world);
	MPI_Group_free(&from);
	MPI_Group_free(&to);
	MPI_Group_free(&zero);
}

static void test_locks(void)
{
	int i, k, v;
	const int K = 50;

	clear_window();
	rmat_fill(out, N, me, right);
	MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win);
	MPI_Put(out, N, MPI_INT, right, 0, N, MPI_INT, win);
	MPI_Win_unlock(right, win);
	MPI_Barrier(MPI_COMM_WORLD);
	check_window("window after exclusive lock", left);
	MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
	MPI_Get(in, N, MPI_INT, 0, 0, N, MPI_INT, win);
	MPI_Win_unlock(0, win);
	rmat_expect("shared-lock get from rank 0", in, N, np - 1, 0);
	mpit_report("rma_lock_exclusive_put_shared_get");

	/* A read-modify-write by Get and Put is safe only if the lock excludes. */
	clear_window();
	for (k = 0; k < K; k++) {
		MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
		MPI_Get(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
		MPI_Win_flush(0, win);
		v++;
		MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
		MPI_Win_unlock(0, win);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	if (me == 0) {
		MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
		mpit_expect_int("counter", np * K, base[0]);
		MPI_Win_unlock(0, win);
	}
	mpit_report("rma_exclusive_lock_excludes_get_then_put");

	/* Ranks know (barrier) that nobody else locks the target: NOCHECK. */
	clear_window();
	MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, MPI_MODE_NOCHECK, win);
	MPI_Put(out, N, MPI_INT, right, 0, N, MPI_INT, win);
	MPI_Win_unlock(right, win);
	MPI_Barrier(MPI_COMM_WORLD);
	check_window("window after nocheck lock", left);
	mpit_report("rma_lock_nocheck");

	/* lock_all, then flushes before telling the target by a message. */
	clear_window();
	MPI_Win_lock_all(0, win);
	MPI_Put(out, N, MPI_INT, right, 0, N, MPI_INT, win);
	MPI_Win_flush(right, win);
	MPI_Send(&k, 1, MPI_INT, right, 7, MPI_COMM_WORLD);
	MPI_Recv(&k, 1, MPI_INT, left, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Win_sync(win);
	rmat_expect("window after flush and message", base, N, left, me);
	MPI_Barrier(MPI_COMM_WORLD);
	for (i = 0; i < np; i++) {
		out[0] = rmat_val(me, i, 0);
		MPI_Put(out, 1, MPI_INT, i, 1 + me, 1, MPI_INT, win);
		MPI_Win_flush_local(i, win);
	}
	MPI_Win_flush_all(win);
	MPI_Win_flush_local_all(win);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Win_sync(win);
	for (i = 0; i < np; i++)
		mpit_expect_int("slot after flush_all", rmat_val(i, me, 0), base[1 + i]);
	MPI_Win_unlock_all(win);
	mpit_report("rma_lock_all_flush_flush_local_flush_all");
}

/*
 * Every other rank takes and drops an exclusive lock on rank 0, as fast as
 * it can, until rank 0, which needs that lock too, has set a flag under it
 * (MPICH's linked_list waits this way for a peer's put).  Lockers that
 * retry faster must not starve it: across nodes, where rank 0 races
 * lockers a network round trip away, this livelocked.
 */
static void test_lock_fairness(void)
{
	int flag = 0, one = 1, rounds = 0;

	clear_window();
	if (me == 0) {
		/* Only once the others are at it. */
		double t = MPI_Wtime();
		int any;

		while (MPI_Wtime() - t < 0.05)
			MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &any, MPI_STATUS_IGNORE);
		MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
		MPI_Put(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
		MPI_Win_unlock(0, win);
	} else {
		while (!flag && rounds < 10000000) {
			MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
			MPI_Get(&flag, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
			MPI_Win_unlock(0, win);
			rounds++;
		}
		if (!flag)
			mpit_fail("the flag never came after %d rounds", rounds);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	mpit_report("rma_exclusive_lock_waiter_is_not_starved");
}

static void test_requests(void)
{
	MPI_Request rq[2];
	int own;

	clear_window();
	rmat_fill(out, N, me, right);
	MPI_Win_lock_all(0, win);
	MPI_Rput(out, N, MPI_INT, right, 0, N, MPI_INT, win, &rq[0]);
	MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
	mpit_expect_int("request released", 1, rq[0] == MPI_REQUEST_NULL);
	MPI_Win_flush(right, win);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Rget(in, N, MPI_INT, left, 0, N, MPI_INT, win, &rq[0]);
	MPI_Rget(&own, 1, MPI_INT, me, 0, 1, MPI_INT, win, &rq[1]);
	MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
	MPI_Win_unlock_all(win);
	mpit_expect_int("rget of own window", rmat_val(left, me, 0), own);
	rmat_expect("rget from the left", in, N, (left + np - 1) % np, left);
	mpit_report("rma_rput_rget_with_wait");
}

/* Every other int of the target; origin contiguous; and an indexed Get. */
static void test_datatypes(void)
{
	MPI_Datatype vec, idx;
	int blens[3] = { 1, 2, 3 }, disps[3] = { 0, 10, 20 }, i;

	clear_window();
	MPI_Type_vector(N / 2, 1, 2, MPI_INT, &vec);
	MPI_Type_commit(&vec);
	MPI_Type_indexed(3, blens, disps, MPI_INT, &idx);
	MPI_Type_commit(&idx);
	rmat_fill(out, N / 2, me, right);
	MPI_Win_fence(0, win);
	MPI_Put(out, N / 2, MPI_INT, right, 0, 1, vec, win);
	MPI_Win_fence(0, win);
	for (i = 0; i < N; i++)
		mpit_expect_int("strided put", i % 2 ? 0 : rmat_val(left, me, i / 2), base[i]);
	memset(in, 0, sizeof in);
	MPI_Get(in, 1, idx, left, 0, 1, idx, win);
	MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
	i = (left + np - 1) % np;
	mpit_expect_int("indexed get [0]", rmat_val(i, left, 0), in[0]);
	mpit_expect_int("indexed get [10]", rmat_val(i, left, 5), in[10]);
	mpit_expect_int("indexed get [11] (odd, untouched)", 0, in[11]);
	mpit_expect_int("indexed get [22]", rmat_val(i, left, 11), in[22]);
	mpit_expect_int("indexed get [23] (outside)", 0, in[23]);
	mpit_report("rma_derived_datatypes_on_both_sides");
	MPI_Type_free(&vec);
	MPI_Type_free(&idx);
}

/* Load/store through Win_shared_query pointers, ordered by Win_sync, among
 * the ranks of one node (the whole job on one node). */
static void test_shared_load_store(void)
{
	MPI_Comm node;
	MPI_Win sw;
	MPI_Aint sz;
	int *mine, *theirs, du, i, nme, nnp, nright, nleft;

	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
	MPI_Comm_rank(node, &nme);
	MPI_Comm_size(node, &nnp);
	nright = (nme + 1) % nnp;
	nleft = (nme + nnp - 1) % nnp;
	MPI_Win_allocate_shared(N * sizeof(int), sizeof(int), MPI_INFO_NULL, node, &mine, &sw);
	MPI_Win_shared_query(sw, nright, &sz, &du, &theirs);
	mpit_expect_int("queried size", N * sizeof(int), sz);
	mpit_expect_int("queried disp_unit", sizeof(int), du);
	MPI_Win_lock_all(0, sw);
	for (i = 0; i < N; i++)
		theirs[i] = rmat_val(nme, nright, i);
	MPI_Win_sync(sw);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Win_sync(sw);
	rmat_expect("stores of the left neighbour", mine, N, nleft, nme);
	MPI_Win_unlock_all(sw);
	MPI_Win_free(&sw);
	MPI_Comm_free(&node);
	mpit_report("rma_shared_window_load_store_with_win_sync");
}

/* A shared window's memory as the buffers of messages and RMA across
 * nodes (as PRK's MPISHM kernels use it): the node's member 0 owns all of
 * it and every member, the owner too, names it through the owner's
 * SMARTMAP slot.  Each member has an out and an in block of S ints (past
 * the eager limit) and of 16 (eager); a window made by Win_create over
 * its in block takes a put from a neighbour's out block and serves a get
 * into its own out block. */
static void test_shared_buffers(void)
{
	enum { S = 80000 };
	MPI_Comm node;
	MPI_Win sw, cw;
	MPI_Aint sz;
	int *seg, *outb, *inb, du, nme, nnp, i, n;

	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
	MPI_Comm_rank(node, &nme);
	MPI_Comm_size(node, &nnp);
	MPI_Win_allocate_shared(nme ? 0 : (MPI_Aint)nnp * 2 * S * sizeof(int), sizeof(int),
				MPI_INFO_NULL, node, &seg, &sw);
	MPI_Win_shared_query(sw, 0, &sz, &du, &seg);
	outb = seg + (size_t)nme * 2 * S;
	inb = outb + S;
	MPI_Win_lock_all(0, sw);
	for (n = 16; n <= S; n += S - 16) {
		rmat_fill(outb, n, me, right);
		MPI_Win_sync(sw);
		MPI_Sendrecv(outb, n, MPI_INT, right, 7, inb, n, MPI_INT, left, 7, MPI_COMM_WORLD,
			     MPI_STATUS_IGNORE);
		rmat_expect(n == S ? "long message into shared memory" :
			    "short message into shared memory", inb, n, left, me);
	}
	for (i = 0; i < S; i++)
		inb[i] = -1;
	MPI_Win_sync(sw);
	MPI_Win_create(inb, S * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &cw);
	MPI_Win_fence(0, cw);
	MPI_Put(outb, S, MPI_INT, right, 0, S, MPI_INT, cw);
	MPI_Win_fence(0, cw);
	MPI_Get(outb, S, MPI_INT, left, 0, S, MPI_INT, cw);
	MPI_Win_fence(0, cw);
	MPI_Win_sync(sw);
	rmat_expect("put into shared memory", inb, S, left, me);
	rmat_expect("get into shared memory", outb, S, (left + np - 1) % np, left);
	MPI_Win_free(&cw);
	MPI_Win_unlock_all(sw);
	MPI_Win_free(&sw);
	MPI_Comm_free(&node);
	mpit_report("shared_window_memory_as_message_and_rma_buffers");
}

static void test_large(void)
{
	const int B = 1 << 20;
	unsigned char *w, *src = malloc(B), *dst = malloc(B);
	MPI_Win lw;
	int i, bad = -1;

	MPI_Win_allocate(B, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w, &lw);
	for (i = 0; i < B; i++)
		src[i] = (unsigned char)(i * 7 + me);
	MPI_Win_fence(0, lw);
	MPI_Put(src, B, MPI_BYTE, right, 0, B, MPI_BYTE, lw);
	MPI_Win_fence(0, lw);
	MPI_Get(dst, B, MPI_BYTE, left, 0, B, MPI_BYTE, lw);
	MPI_Win_fence(0, lw);
	for (i = 0; i < B && bad < 0; i++)
		if (w[i] != (unsigned char)(i * 7 + left) ||
		    dst[i] != (unsigned char)(i * 7 + (left + np - 1) % np))
			bad = i;
	mpit_expect_int("first wrong byte of 1 MiB put and get", -1, bad);
	MPI_Win_free(&lw);
	free(src);
	free(dst);
	mpit_report("rma_one_mebibyte_put_and_get");
}

/* A matrix put transposed (the target's type is columns: runs of one int,
 * evenly spaced) and long strided puts and gets: across nodes each goes as
 * a few commands whose target side is rows, placed or gathered by the
 * target's engine over several frames. */
static void test_transpose(void)
{
	enum { M = 96, LONG = 6000 };	/* LONG <= M * M: a is the long put's source too */
	int *w, *a = malloc(M * M * sizeof *a), *got = malloc(LONG * sizeof *got), i, bad = -1;
	MPI_Datatype col, tr, every2;
	MPI_Win tw;

	MPI_Win_allocate(2 * LONG * sizeof *w, sizeof *w, MPI_INFO_NULL, MPI_COMM_WORLD, &w, &tw);
	for (i = 0; i < M * M; i++)
		a[i] = rmat_val(me, right, i);
	MPI_Type_vector(M, 1, M, MPI_INT, &col);
	MPI_Type_create_hvector(M, 1, sizeof(int), col, &tr);
	MPI_Type_commit(&tr);
	MPI_Type_vector(LONG, 1, 2, MPI_INT, &every2);
	MPI_Type_commit(&every2);
	MPI_Win_fence(0, tw);
	MPI_Put(a, M * M, MPI_INT, right, 0, 1, tr, tw);
	MPI_Win_fence(0, tw);
	for (i = 0; i < M * M && bad < 0; i++)
		if (w[i] != rmat_val(left, me, i % M * M + i / M))
			bad = i;
	mpit_expect_int("first wrong int of the transposed matrix", -1, bad);
	for (i = 0; i < 2 * LONG; i++)
		w[i] = -1;
	MPI_Win_fence(0, tw);
	MPI_Put(a, LONG, MPI_INT, right, 1, 1, every2, tw);
	MPI_Win_fence(0, tw);
	MPI_Get(got, LONG, MPI_INT, left, 1, 1, every2, tw);
	MPI_Win_fence(MPI_MODE_NOSUCCEED, tw);
	for (i = 0, bad = -1; i < 2 * LONG && bad < 0; i++)
		if (w[i] != (i % 2 ? rmat_val(left, me, i / 2) : -1))
			bad = i;
	mpit_expect_int("first wrong int after a strided put", -1, bad);
	rmat_expect("strided get", got, LONG, (left + np - 1) % np, left);
	MPI_Type_free(&col);
	MPI_Type_free(&tr);
	MPI_Type_free(&every2);
	MPI_Win_free(&tw);
	free(a);
	free(got);
	mpit_report("rma_transpose_and_long_strides");
}

int main(int argc, char **argv)
{
	rmat_init(&argc, &argv);
	base = malloc(N * sizeof *base);
	memset(base, 0, N * sizeof *base);
	MPI_Win_create(base, N * sizeof *base, sizeof *base, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
	test_fence();
	test_pscw();
	test_locks();
	test_lock_fairness();
	test_requests();
	test_datatypes();
	MPI_Win_free(&win);
	free(base);
	test_shared_load_store();
	test_shared_buffers();
	test_large();
	test_transpose();
	MPI_Finalize();
	return 0;
}
