/*
 * coll_bench - micro-benchmarks of the collective engine itself (no MPI or
 * SHMEM face): barrier, and allreduce, reduce and bcast of doubles by size,
 * on every rank of the node.
 *
 *   lwkrun --host -n 2 build/user/coll_bench [max_bytes]
 *   lwkrun --host -n 2 -e SMAP_REDUCE=serial build/user/coll_bench
 *
 * Every call is timed on its own, back to back after a warm-up.  A line
 * gives the median call (averaged over the ranks), the mean call, and the
 * slowest rank's median: on a shared machine the median shows the engine,
 * the mean also the neighbours that preempted it.  The algorithms come
 * from SMAP_BARRIER and SMAP_REDUCE (docs/collectives.md), printed in the
 * header.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <smap.h>
#include "coll.h"

/* Calls per size: about this many bytes moved, within the bounds. */
#define BENCH_VOLUME	(64UL << 20)
#define BENCH_MIN	20
#define BENCH_MAX	50000

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

/* The fused forms, as libsmap's predefined operators have them. */
static void dsum3(void *out, const void *in, const void *b, size_t count, void *ctx)
{
	double *o = out;
	const double *l = in, *r = b;

	(void)ctx;
	for (size_t i = 0; i < count; i++)
		o[i] = l[i] + r[i];
}

static void dmax3(void *out, const void *in, const void *b, size_t count, void *ctx)
{
	double *o = out;
	const double *l = in, *r = b;

	(void)ctx;
	for (size_t i = 0; i < count; i++)
		o[i] = l[i] > r[i] ? l[i] : r[i];
}

static const struct coll_op bench_sum = { dsum, NULL, sizeof(double), 1, dsum3 };
static const struct coll_op bench_max = { dmax, NULL, sizeof(double), 1, dmax3 };

static void call(struct coll_group *g, enum kind k, double *sb, double *rb, size_t bytes)
{
	size_t count = bytes / sizeof(double);

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

static int cmp_ticks(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static void measure(struct coll_group *g, const char *name, enum kind k, double *sb,
		    double *rb, size_t bytes)
{
	static uint64_t ticks[BENCH_MAX];
	long iters = (long)(BENCH_VOLUME / (bytes + 1024));
	double per_us = 1e6 / (double)smap_tsc_hz(), total = 0, t[2], sum[2], slowest;

	if (iters < BENCH_MIN)
		iters = BENCH_MIN;
	if (iters > BENCH_MAX)
		iters = BENCH_MAX;
	for (long i = 0; i < iters / 10 + 1; i++)
		call(g, k, sb, rb, bytes);
	coll_barrier(g);
	for (long i = 0; i < iters; i++) {
		uint64_t t0 = smap_rdtsc();

		call(g, k, sb, rb, bytes);
		ticks[i] = smap_rdtsc() - t0;
		total += (double)ticks[i];
	}
	qsort(ticks, (size_t)iters, sizeof *ticks, cmp_ticks);
	t[0] = (double)ticks[iters / 2] * per_us;
	t[1] = total * per_us / (double)iters;
	coll_allreduce(g, t, sum, 2, &bench_sum);
	coll_allreduce(g, t, &slowest, 1, &bench_max);
	if (coll_rank(g) == 0)
		printf("%-10s %9zu %7ld %10.3f %10.3f %10.3f\n", name, bytes, iters,
		       sum[0] / coll_size(g), sum[1] / coll_size(g), slowest);
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
		       "# %-8s %9s %7s %10s %10s %10s\n", coll_size(world),
		       smap_is_host() ? "host mode" : "smapos", bar ? bar : "auto", red ? red : "auto",
		       "call", "bytes", "calls", "median_us", "mean_us", "slowest_us");
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
