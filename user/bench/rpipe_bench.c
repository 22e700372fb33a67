/*
 * rpipe_bench.c - rmalloc/rpipe micro-benchmarks between ranks 0 and 1
 * (libsmap only: rpipe.h).
 *
 *   rpipe_bench [quick|full]      (every power of two; quick: fewer iterations)
 *
 *   rwrite_rread_lat   ping-pong on a full-duplex pipe, one allocation per
 *                      direction reused (rwrite, then rread copying out):
 *                      half the round trip
 *   rmalloc_lat        the same with rmalloc before every rwrite and rfree
 *                      after every rread (the allocator's cost on top)
 *   rwrite_bw          rank 0 streams into 8 allocations in turn, rank 1
 *                      reads in place (rread without a buffer): what rwrite
 *                      moves
 *   rread_bw           the same, rank 1 copying out with rread: both copies
 *
 * Ranks past 1 only take part in the barriers.  Output: one
 * "csv,<test>,2,<bytes>,<value>,<unit>" line per figure.
 */
#include <rpipe.h>
#include <smap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXB	(16 << 20)
#define SLOTS	8

static int rank, full;
static char *buf;

static int iters(long bytes)
{
	int n = bytes <= 4096 ? 20000 : bytes <= (1 << 20) ? 1000 : 60;

	return full ? n * 5 : n / 10 + 5;
}

static void emit(const char *test, long bytes, double value, const char *unit)
{
	printf("csv,%s,2,%ld,%.4f,%s\n", test, bytes, value, unit);
}

/* Seconds for half a round trip of `bytes`; alloc: rmalloc/rfree each time. */
static double pingpong(rpipe_t rp, raddr_t mine, long bytes, int n, int alloc)
{
	double t0;
	raddr_t ra;
	int i;

	smap_barrier();
	t0 = smap_wtime();
	for (i = 0; i < n && rank < 2; i++) {
		if (rank == 0) {
			ra = alloc ? rmalloc(rp, bytes) : mine;
			rwrite(rp, ra, buf, bytes);
			rread(rp, &ra, buf, bytes);
			if (alloc)
				rfree(rp, ra);
		} else {
			rread(rp, &ra, buf, bytes);
			if (alloc)
				rfree(rp, ra);
			ra = alloc ? rmalloc(rp, bytes) : mine;
			rwrite(rp, ra, buf, bytes);
		}
	}
	return (smap_wtime() - t0) / n / 2;
}

/* Bytes per second of a stream; copy: the reader copies out. */
static double stream(rpipe_t rp, raddr_t *slot, long bytes, int n, int copy)
{
	double t0, t;
	raddr_t ra;
	int i;

	smap_barrier();
	t0 = smap_wtime();
	for (i = 0; i < n && rank < 2; i++) {
		if (rank == 0)
			rwrite(rp, slot[i % SLOTS], buf, bytes);
		else
			rread(rp, &ra, copy ? buf : NULL, bytes);
	}
	smap_barrier();
	t = smap_wtime() - t0;
	return (double)bytes * n / t;
}

int main(int argc, char **argv)
{
	raddr_t mine = RADDR_NULL, slot[SLOTS];
	rpipe_t rp = NULL;
	long b;
	int size, i;

	rinit(&rank, &size);
	full = argc > 1 && !strcmp(argv[1], "full");
	if (size < 2) {
		fprintf(stderr, "rpipe_bench: needs 2 ranks\n");
		return 1;
	}
	if (rank < 2) {
		buf = malloc(MAXB);
		memset(buf, 1, MAXB);
		/* mine, the slots and one block of the rmalloc round trip */
		rpipe(&rp, 1 - rank, RPIPE_DUPLEX, (SLOTS + 2) * (MAXB + 4096));
		mine = rmalloc(rp, MAXB);
		for (i = 0; i < SLOTS; i++)
			slot[i] = rank == 0 ? rmalloc(rp, MAXB) : RADDR_NULL;
	}
	/* Warm up: first touches of the heaps and the ring are not latency. */
	pingpong(rp, mine, 1, iters(1), 1);
	for (b = 1; b <= MAXB; b *= 2) {
		double lat = pingpong(rp, mine, b, iters(b), 0);
		double alat = pingpong(rp, mine, b, iters(b), 1);

		if (rank == 0) {
			emit("rwrite_rread_lat", b, lat * 1e6, "us");
			emit("rmalloc_lat", b, alat * 1e6, "us");
		}
	}
	for (b = 64; b <= MAXB; b *= 2) {
		double w = stream(rp, slot, b, iters(b) * 4, 0);
		double r = stream(rp, slot, b, iters(b) * 4, 1);

		if (rank == 0) {
			emit("rwrite_bw", b, w / 1e9, "GB/s");
			emit("rread_bw", b, r / 1e9, "GB/s");
		}
	}
	if (rank < 2)
		rclose(rp);
	rfinalize();
	return 0;
}
