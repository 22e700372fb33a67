/*
 * coll_bench - micro-benchmarks of the collective engine itself (no MPI or
 * SHMEM face): barrier, bcast, reduce and allreduce of doubles by size, on
 * every rank of the node.
 *
 *   lwkrun --host -n 2 build/user/coll_bench [max_bytes]
 *   lwkrun --host -n 2 -e SMAP_REDUCE=serial build/user/coll_bench
 *
 * Each line is the time of one call, back to back after a warm-up: the
 * mean over a timed run, best of 5 runs, averaged over the ranks, and the
 * slowest rank's.  The algorithms come from
 * SMAP_BARRIER and SMAP_REDUCE (docs/collectives.md), printed in the header.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <smap.h>
#include "coll.h"

/* Calls per timed run: about this many bytes moved, within the bounds. */
#define BENCH_VOLUME	(16UL << 20)
#define BENCH_MIN	10
#define BENCH_MAX	20000
#define BENCH_REPS	5

enum kind { BARRIER, BCAST, REDUCE, ALLREDUCE };

static void dsum(void *inout, const void *in, size_t count, void *ctx)
{
	double *io = inout;
	const double *l = in;

	(void)ctx;
	for (size_t i = 0; i < count; i++)
		io[i] = l[i] + io[i];
}

static void dmax(void *inout, const void *in, size_t count, void *ctx)
{
	double *io = inout;
	const double *l = in;

	(void)ctx;
	for (size_t i = 0; i < count; i++)
		io[i] = l[i] > io[i] ? l[i] : io[i];
}

static const struct coll_op bench_sum = { dsum, NULL, sizeof(double), 1 };
static const struct coll_op bench_max = { dmax, NULL, sizeof(double), 1 };

static void run(struct coll_group *g, enum kind k, double *sb, double *rb, size_t bytes,
		long iters)
{
	size_t count = bytes / sizeof(double);

	for (long i = 0; i < iters; i++)
		switch (k) {
		case BARRIER:
			coll_barrier(g);
			break;
		case BCAST:
			coll_bcast(g, sb, bytes, 0);
			break;
		case REDUCE:
			coll_reduce(g, sb, rb, count, &bench_sum, 0);
			break;
		case ALLREDUCE:
			coll_allreduce(g, sb, rb, count, &bench_sum);
			break;
		}
}

/* Best of BENCH_REPS timed runs: on a shared machine the quietest run is
 * the one that measures the engine rather than the neighbours. */
static void measure(struct coll_group *g, const char *name, enum kind k, double *sb,
		    double *rb, size_t bytes)
{
	long iters = (long)(BENCH_VOLUME / (bytes + 256));
	double us = 0, sum, max;

	if (iters < BENCH_MIN)
		iters = BENCH_MIN;
	if (iters > BENCH_MAX)
		iters = BENCH_MAX;
	run(g, k, sb, rb, bytes, iters / 10 + 1);
	for (int rep = 0; rep < BENCH_REPS; rep++) {
		uint64_t t0;
		double t;

		coll_barrier(g);
		t0 = smap_rdtsc();
		run(g, k, sb, rb, bytes, iters);
		t = (double)(smap_rdtsc() - t0) * 1e6 / (double)smap_tsc_hz() / (double)iters;
		if (rep == 0 || t < us)
			us = t;
	}
	coll_allreduce(g, &us, &sum, 1, &bench_sum);
	coll_allreduce(g, &us, &max, 1, &bench_max);
	if (coll_rank(g) == 0)
		printf("%-10s %9zu %7ld %10.3f %10.3f\n", name, bytes, iters, sum / coll_size(g), max);
}

int main(int argc, char **argv)
{
	struct coll_group *world = coll_world();
	size_t max = argc > 1 ? strtoul(argv[1], NULL, 0) : 4UL << 20;
	const char *bar = getenv("SMAP_BARRIER"), *red = getenv("SMAP_REDUCE");
	double *sb = malloc(max + 8), *rb = malloc(max + 8);

	if (!sb || !rb) {
		fprintf(stderr, "coll_bench: no memory for two %zu-byte buffers\n", max);
		return 1;
	}
	for (size_t i = 0; i < max / sizeof(double) + 1; i++)
		sb[i] = rb[i] = (double)i;
	if (coll_rank(world) == 0)
		printf("# coll_bench: %d ranks, %s, SMAP_BARRIER=%s SMAP_REDUCE=%s\n"
		       "# %-8s %9s %7s %10s %10s\n", coll_size(world),
		       smap_is_host() ? "host mode" : "smapos", bar ? bar : "auto", red ? red : "auto",
		       "call", "bytes", "iters", "best_us", "slowest_us");
	measure(world, "barrier", BARRIER, sb, rb, 0);
	for (size_t b = 8; b <= max; b *= 4)
		measure(world, "allreduce", ALLREDUCE, sb, rb, b);
	for (size_t b = 8; b <= max; b *= 4)
		measure(world, "reduce", REDUCE, sb, rb, b);
	for (size_t b = 8; b <= max; b *= 4)
		measure(world, "bcast", BCAST, sb, rb, b);
	/* The figure SMAP_REDUCE=serial and parallel are compared at. */
	if (max >= 1 << 20)
		measure(world, "reduce", REDUCE, sb, rb, 1 << 20);
	return 0;
}
