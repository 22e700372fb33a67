/*
 * smap_bandwidth - memcpy from a peer's buffer through SMARTMAP against a
 * local memcpy, 4 KiB to 16 MiB, on rank 1 reading rank 0's buffer.  In
 * host mode a thread of rank 1's process on rank 0's CPU also fills the
 * source and the copy is timed again: the "plain threads" column.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <string.h>
#include <smap.h>
#include "smap_bench.h"

#define MIN_SIZE	(4UL << 10)
#define MAX_SIZE	(16UL << 20)
#define BYTES_PER_SIZE	(96UL << 20)

static double gbps(size_t size, unsigned reps, uint64_t ticks)
{
	return (double)size * reps / ((double)ticks / smap_tsc_hz()) / 1e9;
}

/* Best-of-3 GB/s of copying size bytes from src to dst. */
static double copy_rate(char *dst, const char *src, size_t size)
{
	unsigned reps = BYTES_PER_SIZE / size / 3, k, i;
	double best = 0, r;

	if (reps == 0)
		reps = 1;
	memcpy(dst, src, size);
	for (k = 0; k < 3; k++) {
		uint64_t t0 = smap_rdtsc();

		for (i = 0; i < reps; i++)
			memcpy(dst, src, size);
		r = gbps(size, reps, smap_rdtsc() - t0);
		best = r > best ? r : best;
	}
	return best;
}

static int owner_cpu;	/* rank 0's CPU, read by rank 1 */

struct fill {
	char *buf;
	size_t size;
};

static void *thread_fill(void *arg)
{
	struct fill *f = arg;

	memset(f->buf, 0x3c, f->size);
	return NULL;
}

int main(void)
{
	char *src, *dst, *mine;
	const char *theirs;
	size_t size;
	int cpu;

	bench_need_two("smap_bandwidth");
	smap_tsc_hz();
	src = malloc(MAX_SIZE);
	dst = malloc(MAX_SIZE);
	mine = malloc(MAX_SIZE);
	memset(src, 0x5a, MAX_SIZE);
	memset(dst, 0, MAX_SIZE);
	memset(mine, 0x33, MAX_SIZE);
	smap_publish(0, src);
	owner_cpu = smap_cpu();
	smap_barrier();
	if (smap_rank() == 1) {
		theirs = smap_lookup(0, 0);
		cpu = *(volatile int *)remote_address(0, &owner_cpu);
		printf("smap_bandwidth: rank 1 copies, GB/s (best of 3, %lu MiB per size)\n",
		       BYTES_PER_SIZE >> 20);
		printf("  %8s %14s %18s%s\n", "size", "local memcpy", "from rank 0 (smap)",
		       smap_is_host() ? "   threads, one process" : "");
		for (size = MIN_SIZE; size <= MAX_SIZE; size *= 4) {
			double local = copy_rate(dst, mine, size);
			double remote = copy_rate(dst, theirs, size);

			printf("  %6zuKiB %14.1f %18.1f", size >> 10, local, remote);
			if (smap_is_host()) {
				struct fill f = { mine, size };
				pthread_t t;

				struct bench_thread bt = { thread_fill, &f, cpu };

				bench_on_thread(&bt, &t);
				pthread_join(t, NULL);
				printf(" %22.1f", copy_rate(dst, mine, size));
			}
			printf("\n");
		}
		fflush(stdout);
	}
	smap_barrier();
	return 0;
}
