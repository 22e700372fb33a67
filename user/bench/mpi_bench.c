/*
 * mpi_bench.c - MPI micro-benchmarks, standard MPI only, so the same source
 * builds with smapcc, mpicc.mpich and mpicc.openmpi.
 *
 *   mpi_bench [quick|full]      (quick: fewer sizes and iterations)
 *
 * Point-to-point between ranks 0 and 1: ping-pong latency and bandwidth
 * (0 B .. 16 MiB), ping-ping, exchange (Isend/Irecv both ways), Sendrecv;
 * message rate with every even rank streaming to the next odd one;
 * collectives on MPI_COMM_WORLD: barrier, bcast, reduce, allreduce,
 * alltoall, gather, scatter.  SMAP_REDUCE (serial|parallel) picks libsmap's
 * reduce algorithm; run twice to compare.
 *
 * Output: one "csv,<test>,<ranks>,<bytes>,<value>,<unit>" line per figure
 * (rank 0), then a readable table of the same figures.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXB	(16 << 20)
#define ROWS	512

static int rank, size, full;
static char *sbuf, *rbuf;
static struct { char test[24]; long bytes; double value; const char *unit; } rows[ROWS];
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

static int iters(long bytes)
{
	int n = bytes <= 4096 ? 20000 : bytes <= (1 << 20) ? 2000 : 100;

	return full ? n * 5 : n / 10 + 2;
}

/* Seconds for one round of `kind` at `bytes` between ranks 0 and 1. */
static double p2p_round(const char *kind, long bytes, int n)
{
	MPI_Request rq[2];
	double t0;
	int i, peer = rank ^ 1;

	if (rank > 1) {
		MPI_Barrier(MPI_COMM_WORLD);
		MPI_Barrier(MPI_COMM_WORLD);
		return 0;
	}
	MPI_Barrier(MPI_COMM_WORLD);
	t0 = MPI_Wtime();
	for (i = 0; i < n; i++) {
		if (!strcmp(kind, "pingpong")) {
			if (rank == 0) {
				MPI_Send(sbuf, bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
				MPI_Recv(rbuf, bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			} else {
				MPI_Recv(rbuf, bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
				MPI_Send(sbuf, bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
			}
		} else if (!strcmp(kind, "pingping")) {
			MPI_Isend(sbuf, bytes, MPI_BYTE, peer, 2, MPI_COMM_WORLD, &rq[0]);
			MPI_Recv(rbuf, bytes, MPI_BYTE, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
		} else if (!strcmp(kind, "exchange")) {
			MPI_Irecv(rbuf, bytes, MPI_BYTE, peer, 3, MPI_COMM_WORLD, &rq[0]);
			MPI_Isend(sbuf, bytes, MPI_BYTE, peer, 3, MPI_COMM_WORLD, &rq[1]);
			MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
		} else {
			MPI_Sendrecv(sbuf, bytes, MPI_BYTE, peer, 4, rbuf, bytes, MPI_BYTE, peer, 4,
				     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		}
	}
	t0 = (MPI_Wtime() - t0) / n;
	MPI_Barrier(MPI_COMM_WORLD);
	return t0;
}

static void bench_p2p(void)
{
	static const char *kinds[] = { "pingpong", "pingping", "exchange", "sendrecv" };
	long b;
	int k;

	for (k = 0; k < 4; k++)
		for (b = 0; b <= MAXB; b = b ? b * (full ? 2 : 4) : 1) {
			double t = p2p_round(kinds[k], b, iters(b));
			char name[32];

			/* Ping-pong: one way is half a round trip. */
			if (k == 0)
				t /= 2;
			snprintf(name, sizeof name, "%s_lat", kinds[k]);
			emit(name, b, t * 1e6, "us");
			if (b >= 1024) {
				snprintf(name, sizeof name, "%s_bw", kinds[k]);
				emit(name, b, b / t / 1e9, "GB/s");
			}
			if (k > 0 && b >= (1 << 20) && !full)
				break;
		}
}

/* Even ranks stream windows of small messages to the next odd rank. */
static void bench_rate(void)
{
	enum { WIN = 64 };
	MPI_Request rq[WIN];
	int n = full ? 2000 : 200, i, w, peer = rank ^ 1, ack = 0;
	double t0, t;

	MPI_Barrier(MPI_COMM_WORLD);
	t0 = MPI_Wtime();
	if (peer < size) {
		for (i = 0; i < n; i++) {
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
	}
	t = MPI_Wtime() - t0;
	MPI_Barrier(MPI_COMM_WORLD);
	emit("msgrate_pairs", 8, (size / 2) * (double)n * WIN / t / 1e6, "Mmsg/s");
}

static void bench_coll(void)
{
	static const long sizes[] = { 8, 1024, 65536, 1 << 20 };
	int k, i, n;
	double t0, t;

	n = iters(0);
	MPI_Barrier(MPI_COMM_WORLD);
	t0 = MPI_Wtime();
	for (i = 0; i < n; i++)
		MPI_Barrier(MPI_COMM_WORLD);
	emit("barrier", 0, (MPI_Wtime() - t0) / n * 1e6, "us");
	for (k = 0; k < 4; k++) {
		long b = sizes[k], per = b / size ? b / size : 1;

		n = iters(b) / 4 + 2;
#define TIME(name, call) do { \
		MPI_Barrier(MPI_COMM_WORLD); \
		t0 = MPI_Wtime(); \
		for (i = 0; i < n; i++) \
			call; \
		t = (MPI_Wtime() - t0) / n; \
		MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD); \
		emit(name, b, t * 1e6, "us"); \
	} while (0)
		TIME("bcast", MPI_Bcast(sbuf, b, MPI_BYTE, 0, MPI_COMM_WORLD));
		TIME("reduce", MPI_Reduce(sbuf, rbuf, b / 8, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD));
		TIME("allreduce", MPI_Allreduce(sbuf, rbuf, b / 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
		TIME("alltoall", MPI_Alltoall(sbuf, per, MPI_BYTE, rbuf, per, MPI_BYTE, MPI_COMM_WORLD));
		TIME("gather", MPI_Gather(sbuf, per, MPI_BYTE, rbuf, per, MPI_BYTE, 0, MPI_COMM_WORLD));
		TIME("scatter", MPI_Scatter(sbuf, per, MPI_BYTE, rbuf, per, MPI_BYTE, 0, MPI_COMM_WORLD));
#undef TIME
	}
}

int main(int argc, char **argv)
{
	char lib[MPI_MAX_LIBRARY_VERSION_STRING];
	const char *red = getenv("SMAP_REDUCE");
	int len, i;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	full = argc > 1 && !strcmp(argv[1], "full");
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
	if (rank == 0)
		printf("# mpi_bench on %d ranks, %s, SMAP_REDUCE=%s\n# %.*s\n", size,
		       full ? "full" : "quick", red ? red : "(default)", len, lib);
	bench_p2p();
	bench_rate();
	bench_coll();
	if (rank == 0) {
		printf("\n%-16s %10s %12s\n", "test", "bytes", "value");
		for (i = 0; i < nrows; i++)
			printf("%-16s %10ld %12.3f %s\n", rows[i].test, rows[i].bytes, rows[i].value,
			       rows[i].unit);
	}
	free(sbuf);
	free(rbuf);
	MPI_Finalize();
	return 0;
}
