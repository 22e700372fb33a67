/*
 * rma_bench.c - MPI one-sided micro-benchmarks in the manner of OSU's
 * osu_put_latency, osu_get_latency, osu_put_bw, osu_get_bw, osu_acc_latency,
 * osu_fop_latency and osu_cas_latency.  Standard MPI only: the same source
 * builds with smapcc, mpicc.mpich and mpicc.openmpi.
 *
 *   rma_bench [quick|full]      (quick: fewer sizes and iterations)
 *
 * Rank 0 is the origin and rank 1 the target of a window made by
 * MPI_Win_allocate; other ranks only take part in the collectives.
 * Latency is the time of one synchronised operation, per mode:
 *   fence       fence, op, fence (both ranks)
 *   pscw        target posts and waits, origin starts, op, completes
 *   lock        lock, op, unlock (exclusive)
 *   flush       inside one lock_all epoch: op, flush
 *   flush_local inside one lock_all epoch: op, flush_local
 * Bandwidth: 64 back-to-back operations per epoch (lock_all .. flush).
 * Strided: put and get of doubles to every other double of the target (a
 * vector type on the target, contiguous at the origin: a matrix column, a
 * halo), one operation per flush.
 *
 * Output: one "csv,<test>,<ranks>,<bytes>,<value>,<unit>" line per figure
 * (rank 0), then a readable table of the same figures.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXB	(4 << 20)
#define ROWS	512
#define BURST	64

enum { FENCE, PSCW, LOCK, FLUSH, FLUSH_LOCAL, NMODES };
static const char *mode_name[NMODES] = { "fence", "pscw", "lock", "flush", "flush_local" };

static int rank, size, full;
static char *buf, *base;
static MPI_Win win;
static MPI_Group origin_g, target_g;
static struct { char test[32]; long bytes; double value; const char *unit; } rows[ROWS];
static int nrows;

static void emit(const char *test, long bytes, double value, const char *unit)
{
	if (rank != 0 || nrows >= ROWS)
		return;
	printf("csv,%s,%d,%ld,%.4f,%s\n", test, size, bytes, value, unit);
	snprintf(rows[nrows].test, sizeof rows[nrows].test, "%s", test);
	rows[nrows].bytes = bytes;
	rows[nrows].value = value;
	rows[nrows].unit = unit;
	nrows++;
}

/* The next size: every power of two (full), or the sizes the performance
 * report tabulates and the ends of the range (quick). */
static long next_size(long b)
{
	static const long quick[] = { 8, 64, 512, 4096, 65536, 1 << 20, MAXB };
	unsigned i;

	if (full)
		return b * 2;
	for (i = 0; i < sizeof quick / sizeof quick[0] && quick[i] <= b; i++)
		;
	return i < sizeof quick / sizeof quick[0] ? quick[i] : MAXB + 1;
}

static int iters(long bytes)
{
	int n = bytes <= 4096 ? 10000 : bytes <= (256 << 10) ? 1000 : 100;

	return full ? n * 5 : n / 10 + 5;
}

/* The operation under test, rank 0 to rank 1. */
enum { PUT, GET, ACC, FOP, CAS, PUTV, GETV };
static MPI_Datatype every2;	/* PUTV, GETV: bytes / 8 doubles, every other one */

static void op(int kind, long bytes)
{
	static long one = 1, cmp, res;

	switch (kind) {
	case PUT: MPI_Put(buf, bytes, MPI_BYTE, 1, 0, bytes, MPI_BYTE, win); break;
	case GET: MPI_Get(buf, bytes, MPI_BYTE, 1, 0, bytes, MPI_BYTE, win); break;
	case ACC: MPI_Accumulate(buf, bytes / 8, MPI_LONG, 1, 0, bytes / 8, MPI_LONG, MPI_SUM, win); break;
	case FOP: MPI_Fetch_and_op(&one, &res, MPI_LONG, 1, 0, MPI_SUM, win); break;
	case CAS: MPI_Compare_and_swap(&one, &cmp, &res, MPI_LONG, 1, 0, win); break;
	case PUTV: MPI_Put(buf, bytes / 8, MPI_DOUBLE, 1, 0, 1, every2, win); break;
	case GETV: MPI_Get(buf, bytes / 8, MPI_DOUBLE, 1, 0, 1, every2, win); break;
	}
}

/* Seconds per synchronised operation in `mode`, or per operation of a
 * burst when burst > 1 (bandwidth). */
static double run(int kind, int mode, long bytes, int n, int burst)
{
	double t = 0;
	int i, b;

	if (mode == FLUSH || mode == FLUSH_LOCAL)
		MPI_Win_lock_all(0, win);
	MPI_Barrier(MPI_COMM_WORLD);
	t = MPI_Wtime();
	for (i = 0; i < n; i++) {
		switch (mode) {
		case FENCE:
			MPI_Win_fence(0, win);
			if (rank == 0)
				for (b = 0; b < burst; b++)
					op(kind, bytes);
			MPI_Win_fence(0, win);
			break;
		case PSCW:
			if (rank == 1) {
				MPI_Win_post(origin_g, 0, win);
				MPI_Win_wait(win);
			} else if (rank == 0) {
				MPI_Win_start(target_g, 0, win);
				for (b = 0; b < burst; b++)
					op(kind, bytes);
				MPI_Win_complete(win);
			}
			break;
		case LOCK:
			if (rank == 0) {
				MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
				for (b = 0; b < burst; b++)
					op(kind, bytes);
				MPI_Win_unlock(1, win);
			}
			break;
		default:
			if (rank == 0) {
				for (b = 0; b < burst; b++)
					op(kind, bytes);
				if (mode == FLUSH)
					MPI_Win_flush(1, win);
				else
					MPI_Win_flush_local(1, win);
			}
		}
	}
	t = (MPI_Wtime() - t) / n / burst;
	if (mode == FLUSH || mode == FLUSH_LOCAL)
		MPI_Win_unlock_all(win);
	/* Rank 0's figure is the one reported; everyone agrees on it. */
	MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
	return t;
}

static void bench_latency(int kind, const char *name)
{
	char test[32];
	long b;
	int m;

	for (m = 0; m < NMODES; m++)
		for (b = kind == ACC ? 8 : 1; b <= MAXB; b = next_size(b)) {
			snprintf(test, sizeof test, "%s_lat_%s", name, mode_name[m]);
			emit(test, b, run(kind, m, b, iters(b), 1) * 1e6, "us");
		}
}

static void bench_bandwidth(int kind, const char *name)
{
	char test[32];
	double t;
	long b;

	snprintf(test, sizeof test, "%s_bw_flush", name);
	for (b = 1; b <= MAXB; b = next_size(b)) {
		t = run(kind, FLUSH, b, iters(b) / 4 + 1, BURST);
		emit(test, b, b / t / 1e9, "GB/s");
	}
}

static void bench_strided(int kind, const char *name)
{
	char test[32];
	long b;

	snprintf(test, sizeof test, "%s_lat_flush", name);
	for (b = 8; b <= MAXB / 2; b = next_size(b)) {
		MPI_Type_vector((int)(b / 8), 1, 2, MPI_DOUBLE, &every2);
		MPI_Type_commit(&every2);
		emit(test, b, run(kind, FLUSH, b, iters(b), 1) * 1e6, "us");
		MPI_Type_free(&every2);
	}
}

static void bench_atomics(void)
{
	static const struct { int kind; const char *name; } a[] = {
		{ FOP, "fetch_and_op_lat" }, { CAS, "compare_and_swap_lat" },
	};
	int i, m;

	for (i = 0; i < 2; i++)
		for (m = LOCK; m < NMODES; m++) {
			char test[40];

			snprintf(test, sizeof test, "%s_%s", a[i].name, mode_name[m]);
			emit(test, 8, run(a[i].kind, m, 8, iters(8), 1) * 1e6, "us");
		}
}

static void table(void)
{
	int i;

	if (rank != 0)
		return;
	printf("\n%-32s %10s %12s\n", "test", "bytes", "value");
	for (i = 0; i < nrows; i++)
		printf("%-32s %10ld %12.3f %s\n", rows[i].test, rows[i].bytes, rows[i].value,
		       rows[i].unit);
}

int main(int argc, char **argv)
{
	MPI_Group world;
	int one = 1, zero = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	full = argc > 1 && !strcmp(argv[1], "full");
	if (size < 2) {
		if (rank == 0)
			fprintf(stderr, "rma_bench: needs at least 2 ranks\n");
		MPI_Finalize();
		return 1;
	}
	buf = malloc(MAXB);
	memset(buf, 1, MAXB);
	MPI_Win_allocate(MAXB, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
	memset(base, 0, MAXB);
	MPI_Comm_group(MPI_COMM_WORLD, &world);
	MPI_Group_incl(world, 1, &zero, &origin_g);
	MPI_Group_incl(world, 1, &one, &target_g);
	MPI_Group_free(&world);
	/* Warm up: first touches of the window and the buffers are not latency. */
	run(PUT, FENCE, MAXB, 2, 1);
	run(PUT, LOCK, 1, iters(1), 1);
	bench_latency(PUT, "put");
	bench_latency(GET, "get");
	bench_latency(ACC, "acc");
	bench_bandwidth(PUT, "put");
	bench_bandwidth(GET, "get");
	bench_strided(PUTV, "putv");
	bench_strided(GETV, "getv");
	bench_atomics();
	table();
	MPI_Group_free(&origin_g);
	MPI_Group_free(&target_g);
	MPI_Win_free(&win);
	free(buf);
	MPI_Finalize();
	return 0;
}
