/*
 * demo.c - what `make run` shows: every rank reports where it runs and
 * where its memory physically lives, then reads its neighbour's memory
 * through SMARTMAP and checks the answer, and all ranks add to one counter
 * in rank 0's memory with plain lock-prefixed instructions.
 */
#include <stdio.h>
#include <stdint.h>
#include <smap.h>
#include <smapos_abi.h>

/* Same address in every rank (same binary): what a neighbour reads. */
static volatile uint64_t signature;
static volatile uint64_t counter;

int main(void)
{
	const struct smapos_jobinfo *ji = smap_jobinfo();
	int me = smap_rank(), n = smap_size(), right = (me + 1) % n;
	uint64_t expect, got = 0, total, best = UINT64_MAX;

	signature = 0x5AA5000000000000ull | (uint64_t)me << 16 | (uint64_t)smap_cpu();
	smap_barrier();
	for (int r = 0; r < n; r++) {
		if (r == me)
			printf("rank %d/%d on cpu %d: region %#lx-%#lx (%lu MiB) at physical %#lx\n",
			       me, n, smap_cpu(), (unsigned long)ji->region_base,
			       (unsigned long)(ji->region_base + ji->region_size - 1),
			       (unsigned long)(ji->region_size >> 20), (unsigned long)ji->region_phys);
		fflush(stdout);
		smap_barrier();
	}

	/* A load through PML4 slot right+1: no system call, no copy.  The
	 * best of 100 leaves out the first touch (TLB and cache misses). */
	for (int i = 0; i < 100; i++) {
		uint64_t t0 = smap_rdtsc();

		got = *(volatile uint64_t *)remote_address(right, &signature);
		uint64_t t = smap_rdtsc() - t0;

		if (t < best)
			best = t;
	}
	expect = 0x5AA5000000000000ull | (uint64_t)right << 16;
	printf("rank %d read rank %d's signature %#lx at %p in %.0f ns: %s\n", me, right,
	       (unsigned long)got, remote_address(right, &signature),
	       best * 1e9 / (double)smap_tsc_hz(),
	       (got & ~0xFFFFull) == expect ? "correct" : "WRONG");

	for (int i = 0; i < 1000; i++)
		__atomic_fetch_add((uint64_t *)remote_address(0, &counter), 1, __ATOMIC_RELAXED);
	smap_barrier();
	total = *(volatile uint64_t *)remote_address(0, &counter);
	if (me == 0)
		printf("%d ranks x 1000 atomic increments in rank 0's memory: %lu (%s)\n", n,
		       (unsigned long)total, total == (uint64_t)n * 1000 ? "correct" : "WRONG");
	return (got & ~0xFFFFull) == expect && total == (uint64_t)n * 1000 ? 0 : 1;
}
