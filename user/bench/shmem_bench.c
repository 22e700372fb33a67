/*
 * shmem_bench - OpenSHMEM micro-benchmarks of libsmap between PE 0 and
 * PE 1 (further PEs only join the barriers):
 *
 *   put+quiet	8-byte shmem_putmem followed by shmem_quiet, back to back
 *   put one-way	half the round trip of shmem_long_p + wait_until ping-pong
 *   get		8-byte shmem_getmem, back to back
 *   fetch-add	shmem_long_atomic_fetch_add on PE 1's word, alone and with
 *			PE 1 adding to the same word at the same time
 *   message rate	8-byte puts issued back to back, one quiet at the end
 *   barrier_all	shmem_barrier_all over every PE
 *   put bandwidth	shmem_putmem of 8 B .. 4 MiB next to a local memcpy of
 *			the same size (same source, a local destination)
 *
 * Every figure is the best of 3 runs.  Lines "shmem_bench METRIC SIZE VALUE"
 * are for scripts; the rest is the readable table.
 *
 * usage: lwkrun [--host] -n 2 shmem_bench
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <shmem.h>
#include <smap.h>

#define LAT_ITERS	200000
#define PINGPONG_ITERS	20000
#define BARRIER_ITERS	5000
#define MAX_SIZE	(4UL << 20)
#define BYTES_PER_SIZE	(64UL << 20)
#define RUNS		3

static int me, npes;
static long counter, ping, pong;
static char *heap;		/* MAX_SIZE symmetric bytes */
static char *src, *local;	/* PE 0's private buffers */

static double ns_per(uint64_t ticks, unsigned long n)
{
	return (double)ticks * 1e9 / (double)smap_tsc_hz() / (double)n;
}

static void report(const char *metric, const char *label, size_t size, double v,
		   const char *unit)
{
	if (me != 0)
		return;
	printf("  %-34s %10.1f %s\n", label, v, unit);
	printf("shmem_bench %s %zu %.2f\n", metric, size, v);
	fflush(stdout);
}

static double best(double a, double b, int lower)
{
	return (lower ? a < b : a > b) ? a : b;
}

static double bench_put_quiet(void)
{
	uint64_t t0 = smap_rdtsc();
	int i;

	for (i = 0; i < LAT_ITERS; i++) {
		shmem_putmem(heap, src, 8, 1);
		shmem_quiet();
	}
	return ns_per(smap_rdtsc() - t0, LAT_ITERS);
}

static double bench_get(void)
{
	uint64_t t0 = smap_rdtsc();
	int i;

	for (i = 0; i < LAT_ITERS; i++)
		shmem_getmem(local, heap, 8, 1);
	return ns_per(smap_rdtsc() - t0, LAT_ITERS);
}

static double bench_fadd(void)
{
	uint64_t t0 = smap_rdtsc();
	int i;

	for (i = 0; i < LAT_ITERS; i++)
		shmem_long_atomic_fetch_add(&counter, 1, 1);
	return ns_per(smap_rdtsc() - t0, LAT_ITERS);
}

static double bench_rate(void)
{
	uint64_t t0 = smap_rdtsc();
	int i;

	for (i = 0; i < LAT_ITERS; i++)
		shmem_putmem(heap + (i & 63) * 8, src, 8, 1);
	shmem_quiet();
	return 1e3 / ns_per(smap_rdtsc() - t0, LAT_ITERS);
}

/* PE 0 and PE 1 bounce a counter; both time it, PE 0 reports. */
static double bench_pingpong(void)
{
	uint64_t t0;
	long i;

	shmem_barrier_all();
	t0 = smap_rdtsc();
	for (i = 1; i <= PINGPONG_ITERS && me < 2; i++) {
		if (me == 0) {
			shmem_long_p(&ping, i, 1);
			shmem_long_wait_until(&pong, SHMEM_CMP_EQ, i);
		} else {
			shmem_long_wait_until(&ping, SHMEM_CMP_EQ, i);
			shmem_long_p(&pong, i, 0);
		}
	}
	t0 = smap_rdtsc() - t0;
	shmem_barrier_all();
	ping = pong = 0;
	shmem_barrier_all();
	return ns_per(t0, 2UL * PINGPONG_ITERS);
}

/* PE 1 adds to its own word while PE 0 times its adds to the same word. */
static double bench_fadd_contended(void)
{
	static long go;
	double ns = 0;
	int i;

	shmem_barrier_all();
	if (me == 0) {
		shmem_long_p(&go, 1, 1);
		ns = bench_fadd();
		shmem_long_p(&go, 2, 1);
	} else if (me == 1) {
		shmem_long_wait_until(&go, SHMEM_CMP_GE, 1);
		while (__atomic_load_n(&go, __ATOMIC_RELAXED) == 1)
			for (i = 0; i < 64; i++)
				shmem_long_atomic_fetch_add(&counter, 1, 1);
	}
	shmem_barrier_all();
	go = 0;
	return ns;
}

static double bench_barrier(void)
{
	uint64_t t0;
	int i;

	shmem_barrier_all();
	t0 = smap_rdtsc();
	for (i = 0; i < BARRIER_ITERS; i++)
		shmem_barrier_all();
	return ns_per(smap_rdtsc() - t0, BARRIER_ITERS);
}

/* GB/s of copying size bytes with put (remote) or memcpy (local). */
static double bench_copy(size_t size, int remote)
{
	unsigned long reps = BYTES_PER_SIZE / size, i;
	uint64_t t0;

	if (remote)
		shmem_putmem(heap, src, size, 1);
	else
		memcpy(local, src, size);
	t0 = smap_rdtsc();
	for (i = 0; i < reps; i++) {
		if (remote)
			shmem_putmem(heap, src, size, 1);
		else
			memcpy(local, src, size);
	}
	shmem_quiet();
	return (double)size * reps / ns_per(smap_rdtsc() - t0, 1);
}

/* Best of RUNS of a PE 0 measurement (lower: latency, else rate). */
#define BEST_OF(expr, lower)						\
	({ double b_ = (expr); int r_;					\
	   for (r_ = 1; r_ < RUNS; r_++) b_ = best(b_, (expr), lower);	\
	   b_; })

int main(void)
{
	double v, put, cpy, ratio_min = 1e9;
	size_t size;

	shmem_init();
	me = shmem_my_pe();
	npes = shmem_n_pes();
	if (npes < 2) {
		fprintf(stderr, "shmem_bench: needs 2 PEs (lwkrun --host -n 2 shmem_bench)\n");
		shmem_finalize();
		return 2;
	}
	heap = shmem_malloc(MAX_SIZE);
	/* Source and destinations at different addresses modulo 4 KiB: when
	 * they match, every small copy's load waits for the previous copy's
	 * store (4K aliasing), which measures the store buffer, not the put. */
	src = malloc(MAX_SIZE + 4096);
	local = malloc(MAX_SIZE + 4096);
	if (!heap || !src || !local) {
		fprintf(stderr, "shmem_bench: out of memory for %lu-byte buffers\n", MAX_SIZE);
		shmem_global_exit(1);
	}
	src += 2048;
	local += 1024;
	memset(src, 0x5a, MAX_SIZE);
	memset(local, 0, MAX_SIZE);
	smap_tsc_hz();
	if (me == 0)
		printf("shmem_bench: PE 0 -> PE 1 of %d (%s), best of %d\n", npes,
		       smap_is_host() ? "host mode" : "smapos", RUNS);
	shmem_barrier_all();

	if (me == 0) {
		report("put_quiet_ns", "8 B put + quiet", 8, BEST_OF(bench_put_quiet(), 1), "ns");
		report("get_ns", "8 B get", 8, BEST_OF(bench_get(), 1), "ns");
		report("fadd_ns", "fetch-add (alone)", 8, BEST_OF(bench_fadd(), 1), "ns");
		report("msgrate_mps", "8 B put message rate", 8, BEST_OF(bench_rate(), 0),
		       "Mmsg/s");
	}
	v = BEST_OF(bench_pingpong(), 1);
	report("put_oneway_ns", "8 B put one-way (ping-pong / 2)", 8, v, "ns");
	v = bench_fadd_contended();
	report("fadd_contended_ns", "fetch-add (PE 1 adding too)", 8, v, "ns");
	v = BEST_OF(bench_barrier(), 1);
	report("barrier_all_ns", "barrier_all", 0, v, "ns");

	if (me == 0) {
		printf("  %10s %12s %12s %8s\n", "size", "put GB/s", "memcpy GB/s", "put/cpy");
		for (size = 8; size <= MAX_SIZE; size *= (size < 4096 ? 8 : 2)) {
			put = BEST_OF(bench_copy(size, 1), 0);
			cpy = BEST_OF(bench_copy(size, 0), 0);
			printf("  %10zu %12.2f %12.2f %7.0f%%\n", size, put, cpy, 100 * put / cpy);
			printf("shmem_bench put_gbps %zu %.3f\n", size, put);
			printf("shmem_bench memcpy_gbps %zu %.3f\n", size, cpy);
			if (size >= (1UL << 20))
				ratio_min = best(ratio_min, put / cpy, 1);
		}
		report("put_memcpy_ratio_1m_4m_pct", "put / memcpy at 1-4 MiB (worst)", 0,
		       100 * ratio_min, "%");
	}
	shmem_barrier_all();
	shmem_free(heap);
	shmem_finalize();
	return 0;
}
