/*
 * smap_latency - one cache line bounced between rank 0 and rank 1 through
 * SMARTMAP (a load/store ping-pong); one-way latency is half a round trip.
 * In host mode the same loop also runs between two threads of one process
 * on the same two CPUs, printed alongside: SMARTMAP emulation adds nothing
 * to a load or a store.  Then the time of one smap_barrier on all ranks.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <smap.h>
#include "smap_bench.h"

#define TRIPS	200000
#define REPEAT	5
#define BARRIERS	100000

static _Alignas(64) volatile uint64_t ball;	/* rank 0's */
static int peer_cpu;				/* rank 1's CPU */

static void serve(volatile uint64_t *b)
{
	uint64_t i;

	for (i = 1; i <= TRIPS; i++) {
		while (*b != 2 * i - 1)
			__builtin_ia32_pause();
		*b = 2 * i;
	}
}

static double play(volatile uint64_t *b)
{
	uint64_t i, t0 = smap_rdtsc();

	for (i = 1; i <= TRIPS; i++) {
		*b = 2 * i - 1;
		while (*b != 2 * i)
			__builtin_ia32_pause();
	}
	return (double)(smap_rdtsc() - t0) / smap_tsc_hz() / TRIPS / 2 * 1e9;
}

static void *thread_serve(void *arg)
{
	serve(arg);
	return NULL;
}

int main(void)
{
	volatile uint64_t *b = remote_address(0, &ball);
	double best = 1e9, tbest = 1e9, ns;
	uint64_t bar;
	int k;

	bench_need_two("smap_latency");
	smap_tsc_hz();
	if (smap_rank() == 1)
		*(volatile int *)remote_address(0, &peer_cpu) = smap_cpu();
	for (k = 0; k < REPEAT; k++) {
		smap_barrier();
		*b = 0;
		smap_barrier();
		if (smap_rank() == 0) {
			ns = play(b);
			best = ns < best ? ns : best;
		} else if (smap_rank() == 1) {
			serve(b);
		}
	}
	smap_barrier();
	bar = smap_rdtsc();
	for (k = 0; k < BARRIERS; k++)
		smap_barrier();
	bar = smap_rdtsc() - bar;
	if (smap_rank() != 0)
		return 0;
	printf("smap_latency: cache-line ping-pong, one way, best of %d x %d round trips\n",
	       REPEAT, TRIPS);
	printf("  SMARTMAP rank 0 <-> rank 1 (cpu %d <-> %d): %7.1f ns\n", smap_cpu(), peer_cpu, best);
	if (smap_is_host()) {
		for (k = 0; k < REPEAT; k++) {
			pthread_t t;
			struct bench_thread bt = { thread_serve, (void *)&ball, peer_cpu };

			ball = 0;
			bench_on_thread(&bt, &t);
			ns = play(&ball);
			pthread_join(t, NULL);
			tbest = ns < tbest ? ns : tbest;
		}
		printf("  two threads, one process (same cpus):   %7.1f ns\n", tbest);
	}
	printf("  smap_barrier, %d ranks:                  %7.1f ns\n", smap_size(),
	       (double)bar / smap_tsc_hz() / BARRIERS * 1e9);
	return 0;
}
