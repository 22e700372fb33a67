/*
 * mpi_bench.c - MPI micro-benchmarks, standard MPI only, so the same source
 * builds with smapcc, mpicc.mpich and mpicc.openmpi.
 *
 *   mpi_bench [quick|full|emu] [test...]
 *
 * Tests (all when none is named): pingpong, pingping, exchange (Isend/Irecv
 * both ways), sendrecv, between ranks 0 and 1; rate (every even rank
 * streams windows of 8-byte messages to the next odd one); memcpy (rank 0
 * copies between its own two buffers, the ceiling a transfer between ranks
 * is measured against: the memcpy of whichever C library the program was
 * linked with); floor (one cache line each way between ranks 0 and 1, by
 * plain loads and stores in an MPI-3 shared window: what a 0-byte
 * ping-pong cannot beat, measured through the same library); coll (barrier, bcast, reduce, allreduce, alltoall, gather,
 * scatter on MPI_COMM_WORLD); overlap (an MPI_Iallreduce alone, then with
 * as much computation as it took between the call and its MPI_Wait, with
 * and without MPI_Test every 10 us of it: overlap_pct is how much of the
 * Iallreduce's time the computation hid, 100 when the pair took only the
 * computation's time, 0 when it took the sum); collcheck (libsmap only: a
 * barrier and an 8-byte allreduce, gather and reduce (to rank 0) with the
 * collective argument check on and off by turns in one run, through the
 * MPI_T control variable
 * smap_coll_check, so that both see the same placement of the ranks;
 * <call>_check_cost is the median of the pairs' differences, in percent;
 * its "best" the best checked trial against the best unchecked one; not
 * run by default); poll (a token around the ring of all ranks, each
 * waiting for it in a loop of MPI_Iprobe, then of MPI_Test on an Irecv, as
 * HPL's panel broadcasts and overlapping codes wait: us per hop; what it
 * shows is how a polling rank shares a CPU, so run it with more ranks than
 * CPUs; not run by default).  SMAP_REDUCE (serial|parallel) picks
 * libsmap's reduce algorithm; run twice to compare.
 *
 * Every figure is timed in several trials (quick 7, full 21, emu 3) after
 * a warm-up; a trial is the mean over a run of iterations.  On a shared
 * machine the best trial measures the library and the median how it fares
 * among the neighbours, so both are printed.  Latency is one way (half a
 * ping-pong round trip; a whole round for the other patterns), bandwidth is
 * message bytes over that time.
 *
 * Output: one "csv,<test>,<ranks>,<bytes>,<best>,<median>,<unit>" line per
 * figure (rank 0), then a readable table of the same figures.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXB		(16L << 20)
#define ROWS		512
#define MAXTRIALS	21
/* Iterations of a trial: about this many bytes, within the bounds. */
#define TRIAL_BYTES	(8L << 20)
#define TRIAL_MIN	4
#define TRIAL_MAX	4000

enum {
	PINGPONG, PINGPING, EXCHANGE, SENDRECV, RATE, MEMCPY, FLOOR, COLL, OVERLAP, COLLCHECK,
	POLL, NTESTS
};

static const char *const test_names[NTESTS] = {
	"pingpong", "pingping", "exchange", "sendrecv", "rate", "memcpy", "floor", "coll",
	"overlap", "collcheck", "poll"
};

/* Sizes of the quick run: the ones the targets name, and the protocol
 * limits of the libraries (inline, eager) on both sides. */
static const long quick_sizes[] = {
	0, 8, 64, 512, 4096, 16384, 65536, 262144, 1L << 20, 4L << 20, 16L << 20
};

/* The emu run times an emulator (QEMU TCG nodes), where a round trip takes
 * milliseconds: the sizes the targets name, few iterations. */
static const long emu_sizes[] = { 0, 8, 4096, 65536, 1L << 20, 4L << 20 };
#define EMU_DIV		64
#define EMU_MAX		40

static int rank, size, full, emu, trials;
static char *sbuf, *rbuf;
static struct {
	char test[24];
	long bytes;
	double best, median;
	const char *unit;
} rows[ROWS];
static int nrows;

static void emit(const char *test, long bytes, double best, double median, const char *unit)
{
	if (rank != 0 || nrows >= ROWS)
		return;
	printf("csv,%s,%d,%ld,%.4f,%.4f,%s\n", test, size, bytes, best, median, unit);
	snprintf(rows[nrows].test, sizeof rows[nrows].test, "%s", test);
	rows[nrows].bytes = bytes;
	rows[nrows].best = best;
	rows[nrows].median = median;
	rows[nrows].unit = unit;
	nrows++;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Sorts t[0..trials) and returns the median; t[0] is then the best. */
static double median(double *t)
{
	qsort(t, trials, sizeof *t, cmp_double);
	return t[trials / 2];
}

/* Times (seconds per unit) to latency in us, and to bandwidth in GB/s
 * from 1 KiB up, under the test's name. */
static void emit_times(const char *test, long bytes, double *t)
{
	char name[32];
	double med = median(t);

	snprintf(name, sizeof name, "%s_lat", test);
	emit(name, bytes, t[0] * 1e6, med * 1e6, "us");
	if (bytes >= 1024) {
		snprintf(name, sizeof name, "%s_bw", test);
		emit(name, bytes, bytes / t[0] / 1e9, bytes / med / 1e9, "GB/s");
	}
}

static int iters(long bytes)
{
	long n = TRIAL_BYTES / (bytes > 2048 ? bytes : 2048);

	n = n < TRIAL_MIN ? TRIAL_MIN : n > TRIAL_MAX ? TRIAL_MAX : n;
	if (emu)
		return n / EMU_DIV < 2 ? 2 : n / EMU_DIV > EMU_MAX ? EMU_MAX : n / EMU_DIV;
	return full ? n * 4 : n;
}

/* n rounds of pattern k at `bytes` between ranks 0 and 1. */
static void p2p_run(int k, long bytes, int n)
{
	MPI_Request rq[2];
	int i, peer = rank ^ 1;

	for (i = 0; i < n; i++) {
		switch (k) {
		case PINGPONG:
			if (rank == 0) {
				MPI_Send(sbuf, bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
				MPI_Recv(rbuf, bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			} else {
				MPI_Recv(rbuf, bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
				MPI_Send(sbuf, bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
			}
			break;
		case PINGPING:
			MPI_Isend(sbuf, bytes, MPI_BYTE, peer, 2, MPI_COMM_WORLD, &rq[0]);
			MPI_Recv(rbuf, bytes, MPI_BYTE, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
			break;
		case EXCHANGE:
			MPI_Irecv(rbuf, bytes, MPI_BYTE, peer, 3, MPI_COMM_WORLD, &rq[0]);
			MPI_Isend(sbuf, bytes, MPI_BYTE, peer, 3, MPI_COMM_WORLD, &rq[1]);
			MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
			break;
		default:
			MPI_Sendrecv(sbuf, bytes, MPI_BYTE, peer, 4, rbuf, bytes, MPI_BYTE, peer, 4,
				     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		}
	}
}

/* Trials of pattern k at `bytes`: seconds per round, rank 0's clock. */
static void p2p_time(int k, long bytes, double *t)
{
	int n = iters(bytes), j;
	double t0;

	if (rank <= 1)
		p2p_run(k, bytes, 1);
	for (j = 0; j < trials; j++) {
		MPI_Barrier(MPI_COMM_WORLD);
		t0 = MPI_Wtime();
		if (rank <= 1)
			p2p_run(k, bytes, n);
		t[j] = (MPI_Wtime() - t0) / n;
	}
	MPI_Barrier(MPI_COMM_WORLD);
}

static long next_size(long b, int *i)
{
	if (emu)
		return ++*i < (int)(sizeof emu_sizes / sizeof *emu_sizes) ? emu_sizes[*i] : -1;
	if (!full)
		return ++*i < (int)(sizeof quick_sizes / sizeof *quick_sizes) ? quick_sizes[*i] : -1;
	b = b ? b * 2 : 1;
	return b <= MAXB ? b : -1;
}

static void bench_p2p(int k)
{
	double t[MAXTRIALS];
	long b;
	int i = 0;

	for (b = 0; b >= 0; b = next_size(b, &i)) {
		p2p_time(k, b, t);
		/* One way is half a ping-pong round trip. */
		if (k == PINGPONG)
			for (int j = 0; j < trials; j++)
				t[j] /= 2;
		emit_times(test_names[k], b, t);
	}
}

/* The local copy a transfer of the same size is measured against. */
static void bench_memcpy(void)
{
	double t[MAXTRIALS], t0;
	long b;
	int i = 0, j, r, n;

	for (b = 1024; b >= 0; b = next_size(b, &i)) {
		if (b < 1024)
			continue;
		n = iters(b) * 2;
		if (rank == 0)
			memcpy(rbuf, sbuf, b);
		for (j = 0; j < trials; j++) {
			MPI_Barrier(MPI_COMM_WORLD);
			t0 = MPI_Wtime();
			if (rank == 0)
				for (r = 0; r < n; r++) {
					memcpy(rbuf, sbuf, b);
					/* Keeps the compiler from merging the copies. */
					__asm__ volatile("" : : "r"(rbuf) : "memory");
				}
			t[j] = (MPI_Wtime() - t0) / n;
		}
		median(t);
		emit("memcpy_bw", b, b / t[0] / 1e9, b / t[trials / 2] / 1e9, "GB/s");
	}
	MPI_Barrier(MPI_COMM_WORLD);
}

/* Ranks 0 and 1 bounce a counter through two cache lines of a shared
 * window (rank 0's memory): each waits for the other's value, then stores
 * its own. */
static void floor_run(volatile long *mine, volatile long *theirs, long *v, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		++*v;
		if (rank == 0)
			*mine = *v;
		while (*theirs != *v)
			;
		if (rank == 1)
			*mine = *v;
	}
}

static void bench_floor(void)
{
	volatile long *base, *mine, *theirs;
	double t[MAXTRIALS], t0;
	int n = iters(0), j, du;
	MPI_Aint bytes;
	long v = 0;
	MPI_Win win;

	MPI_Win_allocate_shared(rank == 0 ? 256 : 0, 1, MPI_INFO_NULL, MPI_COMM_WORLD,
				(void *)&base, &win);
	MPI_Win_shared_query(win, 0, &bytes, &du, (void *)&base);
	MPI_Win_lock_all(0, win);
	mine = base + 16 * rank;
	theirs = base + 16 * (rank ^ 1);
	if (rank <= 1)
		*mine = 0;
	MPI_Win_sync(win);
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank <= 1)
		floor_run(mine, theirs, &v, n);
	for (j = 0; j < trials; j++) {
		MPI_Barrier(MPI_COMM_WORLD);
		t0 = MPI_Wtime();
		if (rank <= 1)
			floor_run(mine, theirs, &v, n);
		t[j] = (MPI_Wtime() - t0) / n / 2;
	}
	MPI_Win_unlock_all(win);
	MPI_Win_free(&win);
	emit("floor_lat", 64, t[0] * 1e6, median(t) * 1e6, "us");
}

/* Even ranks stream windows of small messages to the next odd rank. */
static void bench_rate(void)
{
	enum { WIN = 64 };
	MPI_Request rq[WIN];
	int n = full ? 400 : emu ? 4 : 100, i, w, j, peer = rank ^ 1, ack = 0;
	double t[MAXTRIALS], t0, mine;

	for (j = -1; j < trials; j++) {
		MPI_Barrier(MPI_COMM_WORLD);
		t0 = MPI_Wtime();
		for (i = 0; i < n && peer < size; i++) {
			for (w = 0; w < WIN; w++) {
				if (rank % 2 == 0)
					MPI_Isend(sbuf, 8, MPI_BYTE, peer, 5, MPI_COMM_WORLD, &rq[w]);
				else
					MPI_Irecv(rbuf + 8 * w, 8, MPI_BYTE, peer, 5, MPI_COMM_WORLD, &rq[w]);
			}
			MPI_Waitall(WIN, rq, MPI_STATUSES_IGNORE);
			if (rank % 2)
				MPI_Send(&ack, 1, MPI_INT, peer, 6, MPI_COMM_WORLD);
			else
				MPI_Recv(&ack, 1, MPI_INT, peer, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		}
		mine = MPI_Wtime() - t0;
		MPI_Allreduce(&mine, &t0, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
		if (j >= 0)
			t[j] = t0;
	}
	median(t);
	emit("msgrate_pairs", 8, (size / 2) * (double)n * WIN / t[0] / 1e6,
	     (size / 2) * (double)n * WIN / t[trials / 2] / 1e6, "Mmsg/s");
}

/* Trials of `call` on every rank; each trial counts for its slowest rank. */
#define COLL_TIME(name, bytes, n, call) do { \
		double t_[MAXTRIALS], t0_, mine_; \
		int i_, j_; \
		for (j_ = -1; j_ < trials; j_++) { \
			MPI_Barrier(MPI_COMM_WORLD); \
			t0_ = MPI_Wtime(); \
			for (i_ = 0; i_ < (n); i_++) \
				call; \
			mine_ = (MPI_Wtime() - t0_) / (n); \
			MPI_Allreduce(&mine_, &t0_, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD); \
			if (j_ >= 0) \
				t_[j_] = t0_ * 1e6; \
		} \
		emit(name, bytes, t_[0], median(t_), "us"); \
	} while (0)

static void bench_coll(void)
{
	static const long sizes[] = { 8, 1024, 65536, 1 << 20 };
	int k, n;

	COLL_TIME("barrier", 0, iters(0), MPI_Barrier(MPI_COMM_WORLD));
	for (k = 0; k < 4; k++) {
		long b = sizes[k], per = b / size ? b / size : 1;

		n = iters(b) / 4 + 2;
		COLL_TIME("bcast", b, n, MPI_Bcast(sbuf, b, MPI_BYTE, 0, MPI_COMM_WORLD));
		COLL_TIME("reduce", b, n,
			  MPI_Reduce(sbuf, rbuf, b / 8, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD));
		COLL_TIME("allreduce", b, n,
			  MPI_Allreduce(sbuf, rbuf, b / 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
		COLL_TIME("alltoall", b, n,
			  MPI_Alltoall(sbuf, per, MPI_BYTE, rbuf, per, MPI_BYTE, MPI_COMM_WORLD));
		COLL_TIME("gather", b, n,
			  MPI_Gather(sbuf, per, MPI_BYTE, rbuf, per, MPI_BYTE, 0, MPI_COMM_WORLD));
		COLL_TIME("scatter", b, n,
			  MPI_Scatter(sbuf, per, MPI_BYTE, rbuf, per, MPI_BYTE, 0, MPI_COMM_WORLD));
	}
}

/* Computes (spins on the clock) for sec seconds; with req, calls MPI_Test
 * on it every 10 us of that, as an application that polls would. */
static void compute(double sec, MPI_Request *req)
{
	double t0 = MPI_Wtime(), next = t0, t;
	int flag = 0;

	while ((t = MPI_Wtime()) - t0 < sec)
		if (req && !flag && t >= next) {
			MPI_Test(req, &flag, MPI_STATUS_IGNORE);
			next = t + 10e-6;
		}
}

/* Trials (seconds per round, for the slowest rank) of n rounds of an
 * Iallreduce of `bytes`, c seconds of computation, and its Wait. */
static void overlap_time(long bytes, int n, double c, int poll, double *t)
{
	MPI_Request r;
	double t0, mine;
	int i, j;

	for (j = -1; j < trials; j++) {
		MPI_Barrier(MPI_COMM_WORLD);
		t0 = MPI_Wtime();
		for (i = 0; i < n; i++) {
			MPI_Iallreduce(sbuf, rbuf, bytes / 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &r);
			if (c > 0)
				compute(c, poll ? &r : NULL);
			MPI_Wait(&r, MPI_STATUS_IGNORE);
		}
		mine = (MPI_Wtime() - t0) / n;
		MPI_Allreduce(&mine, &t0, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
		if (j >= 0)
			t[j] = t0;
	}
}

static double overlap_pct(double total, double pure)
{
	double p = 100 * (1 - (total - pure) / pure);

	return p < 0 ? 0 : p > 100 ? 100 : p;
}

static void bench_overlap(void)
{
	static const long sizes[] = { 8, 65536, 1 << 20 };
	double pure[MAXTRIALS], tot[MAXTRIALS], c, med;
	int k, poll, n;

	for (k = 0; k < 3; k++) {
		long b = sizes[k];

		n = iters(b) / 4 + 2;
		overlap_time(b, n, 0, 0, pure);
		c = median(pure);
		emit("iallreduce", b, pure[0] * 1e6, c * 1e6, "us");
		for (poll = 0; poll < 2; poll++) {
			overlap_time(b, n, c, poll, tot);
			med = median(tot);
			emit(poll ? "iallreduce+compute_test" : "iallreduce+compute", b, tot[0] * 1e6,
			     med * 1e6, "us");
			emit(poll ? "overlap_test_pct" : "overlap_pct", b, overlap_pct(tot[0], c),
			     overlap_pct(med, c), "%");
		}
	}
}

/* Pairs of trials, checked and not, of the collective check's cost. */
#define CHECK_PAIRS	40

/* Sets smap_coll_check on every rank; 0 when this MPI has no such variable. */
static int set_coll_check(MPI_T_cvar_handle h, unsigned long long on)
{
	int ok = h && MPI_T_cvar_write(h, &on) == MPI_SUCCESS;

	MPI_Barrier(MPI_COMM_WORLD);
	return ok;
}

static void check_cost(const char *call, MPI_T_cvar_handle h, int n)
{
	double t[2][CHECK_PAIRS], cost[CHECK_PAIRS], t0, mine, one = 1, sum;
	char name[32];
	int i, j, k, on;

	/* Odd pairs run the checked trial first: a drift over the run (the
	 * clock, the other vCPU's placement) then weighs on both halves
	 * alike, where a fixed order charged it to the second. */
	for (j = -1; j < CHECK_PAIRS; j++)
		for (k = 0; k < 2; k++) {
			on = k ^ (j & 1);
			set_coll_check(h, on);
			t0 = MPI_Wtime();
			for (i = 0; i < n; i++)
				switch (call[0]) {
				case 'b':
					MPI_Barrier(MPI_COMM_WORLD);
					break;
				case 'a':
					MPI_Allreduce(&one, &sum, 1, MPI_DOUBLE, MPI_SUM,
						      MPI_COMM_WORLD);
					break;
				case 'g':
					MPI_Gather(&one, 1, MPI_DOUBLE, rbuf, 1, MPI_DOUBLE, 0,
						   MPI_COMM_WORLD);
					break;
				default:
					MPI_Reduce(&one, &sum, 1, MPI_DOUBLE, MPI_SUM, 0,
						   MPI_COMM_WORLD);
				}
			mine = (MPI_Wtime() - t0) / n;
			MPI_Allreduce(&mine, &t0, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
			if (j >= 0)
				t[on][j] = t0;
		}
	for (j = 0; j < CHECK_PAIRS; j++)
		cost[j] = 100 * (t[1][j] / t[0][j] - 1);
	qsort(cost, CHECK_PAIRS, sizeof *cost, cmp_double);
	qsort(t[0], CHECK_PAIRS, sizeof *t[0], cmp_double);
	qsort(t[1], CHECK_PAIRS, sizeof *t[1], cmp_double);
	snprintf(name, sizeof name, "%s_check", call);
	emit(name, call[0] == 'b' ? 0 : 8, t[1][0] * 1e6, t[1][CHECK_PAIRS / 2] * 1e6, "us");
	snprintf(name, sizeof name, "%s_nocheck", call);
	emit(name, call[0] == 'b' ? 0 : 8, t[0][0] * 1e6, t[0][CHECK_PAIRS / 2] * 1e6, "us");
	snprintf(name, sizeof name, "%s_check_cost", call);
	emit(name, call[0] == 'b' ? 0 : 8, 100 * (t[1][0] / t[0][0] - 1), cost[CHECK_PAIRS / 2],
	     "%");
}

static void bench_collcheck(void)
{
	MPI_T_cvar_handle h = NULL;
	int provided, idx, count;

	if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS ||
	    MPI_T_cvar_get_index("smap_coll_check", &idx) != MPI_SUCCESS ||
	    MPI_T_cvar_handle_alloc(idx, NULL, &h, &count) != MPI_SUCCESS || !set_coll_check(h, 1)) {
		if (rank == 0)
			printf("# collcheck: this MPI has no smap_coll_check control variable\n");
		return;
	}
	/* Trials long enough (a few ms) that a pair sees the same machine. */
	check_cost("barrier", h, 10 * iters(0));
	check_cost("allreduce", h, 10 * iters(8));
	check_cost("gather", h, 10 * iters(8));
	check_cost("reduce", h, 10 * iters(8));
	set_coll_check(h, 1);
	MPI_T_cvar_handle_free(&h);
	MPI_T_finalize();
}

/* One pass of the token around the ring; each rank waits by polling. */
static void poll_round(int test)
{
	int left = (rank + size - 1) % size, right = (rank + 1) % size, flag = 0;
	MPI_Request r;

	if (rank == 0)
		MPI_Send(sbuf, 1, MPI_INT, right, 0, MPI_COMM_WORLD);
	if (test) {
		MPI_Irecv(rbuf, 1, MPI_INT, left, 0, MPI_COMM_WORLD, &r);
		while (!flag)
			MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
	} else {
		while (!flag)
			MPI_Iprobe(left, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
		MPI_Recv(rbuf, 1, MPI_INT, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	if (rank != 0)
		MPI_Send(sbuf, 1, MPI_INT, right, 0, MPI_COMM_WORLD);
}

static void bench_poll(void)
{
	double t[MAXTRIALS];
	int n = emu ? 20 : 200, test, k, i;

	for (test = 0; test < 2; test++) {
		for (i = 0; i < n / 10; i++)
			poll_round(test);
		for (k = 0; k < trials; k++) {
			double t0;

			MPI_Barrier(MPI_COMM_WORLD);
			t0 = MPI_Wtime();
			for (i = 0; i < n; i++)
				poll_round(test);
			t[k] = (MPI_Wtime() - t0) / n / size;
		}
		median(t);
		emit(test ? "poll_test_hop" : "poll_iprobe_hop", 4, t[0] * 1e6, t[trials / 2] * 1e6,
		     "us");
	}
}

/* Which tests argv names (all when it names none); -1 for an unknown one. */
static int parse(int argc, char **argv, int *want)
{
	int i, k, any = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "quick") || !strcmp(argv[i], "full") ||
		    !strcmp(argv[i], "emu")) {
			full = !strcmp(argv[i], "full");
			emu = !strcmp(argv[i], "emu");
			continue;
		}
		for (k = 0; k < NTESTS && strcmp(argv[i], test_names[k]); k++)
			;
		if (k == NTESTS) {
			if (rank == 0)
				fprintf(stderr, "mpi_bench: unknown test %s\n", argv[i]);
			return -1;
		}
		want[k] = any = 1;
	}
	for (k = 0; k < NTESTS && !any; k++)
		want[k] = k != COLLCHECK && k != POLL;
	return 0;
}

int main(int argc, char **argv)
{
	char lib[MPI_MAX_LIBRARY_VERSION_STRING];
	const char *red = getenv("SMAP_REDUCE");
	int want[NTESTS] = { 0 }, len, i, k;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (parse(argc, argv, want))
		MPI_Abort(MPI_COMM_WORLD, 2);
	trials = full ? MAXTRIALS : emu ? 3 : 7;
	if (size < 2) {
		if (rank == 0)
			fprintf(stderr, "mpi_bench: needs at least 2 ranks\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	sbuf = malloc(MAXB);
	rbuf = malloc(MAXB);
	memset(sbuf, 1, MAXB);
	memset(rbuf, 0, MAXB);
	MPI_Get_library_version(lib, &len);
	/* The first line of the version is enough to tell the libraries apart. */
	lib[strcspn(lib, "\n")] = 0;
	if (rank == 0)
		printf("# mpi_bench on %d ranks, %s (%d trials), SMAP_REDUCE=%s\n# %s\n", size,
		       full ? "full" : emu ? "emu" : "quick", trials, red ? red : "(default)", lib);
	for (k = PINGPONG; k <= SENDRECV; k++)
		if (want[k])
			bench_p2p(k);
	if (want[RATE])
		bench_rate();
	if (want[MEMCPY])
		bench_memcpy();
	if (want[FLOOR])
		bench_floor();
	if (want[COLL])
		bench_coll();
	if (want[OVERLAP])
		bench_overlap();
	if (want[COLLCHECK])
		bench_collcheck();
	if (want[POLL])
		bench_poll();
	if (rank == 0) {
		printf("\n%-16s %10s %12s %12s\n", "test", "bytes", "best", "median");
		for (i = 0; i < nrows; i++)
			printf("%-16s %10ld %12.3f %12.3f %s\n", rows[i].test, rows[i].bytes,
			       rows[i].best, rows[i].median, rows[i].unit);
	}
	free(sbuf);
	free(rbuf);
	MPI_Finalize();
	return 0;
}
