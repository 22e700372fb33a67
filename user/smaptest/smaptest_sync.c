/*
 * smaptest_sync - barriers, time and symmetric reservations across the
 * ranks of a node.  Runs unchanged on the kernel and in host mode.
 */
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <smap.h>
#include "tap.h"

#define ROUNDS		2000
#define SYM_SIZE	(3 << 20)
#define SYM_ALIGN	(2 << 20)

static uint64_t arrived;			/* rank 0's */
static uintptr_t sym_seen[SMAP_MAX_RANKS];	/* rank 0's */

static double clock_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static void test_barrier(int me, int n)
{
	uint64_t *count = remote_address(0, &arrived);
	char name[96];
	int k, early = -1;
	uint64_t seen = 0;

	for (k = 0; k < ROUNDS; k++) {
		__atomic_fetch_add(count, 1, __ATOMIC_RELAXED);
		smap_barrier();
		seen = __atomic_load_n(count, __ATOMIC_RELAXED);
		if (seen < (uint64_t)n * (k + 1)) {
			early = k;
			break;
		}
	}
	snprintf(name, sizeof name, "rank%d: nobody leaves barrier k before all %d ranks entered it (%d rounds)",
		 me, n, ROUNDS);
	tap(early < 0, name, "expected >= %llu arrivals after barrier %d, got %llu",
	    (unsigned long long)n * (early + 1), early, (unsigned long long)seen);

	for (k = 0; k < ROUNDS; k++) {
		__atomic_fetch_add(count, 1, __ATOMIC_RELAXED);
		smap_node_barrier();
		seen = __atomic_load_n(count, __ATOMIC_RELAXED);
		if (seen < (uint64_t)n * (ROUNDS + k + 1)) {
			early = k;
			break;
		}
	}
	snprintf(name, sizeof name, "rank%d: smap_node_barrier holds every rank too", me);
	tap(early < 0, name, "expected >= %llu arrivals after node barrier %d, got %llu",
	    (unsigned long long)n * (ROUNDS + early + 1), early, (unsigned long long)seen);
}

static void test_time(int me)
{
	char name[96];
	double w0, w1, c0, c0b, c1, c1b, prev, dw, dc;
	struct timespec nap = { 0, 50000000 };
	int i, backwards = 0;

	prev = smap_wtime();
	for (i = 0; i < 100000; i++) {
		double w = smap_wtime();

		if (w < prev)
			backwards++;
		prev = w;
	}
	snprintf(name, sizeof name, "rank%d: smap_wtime never goes backwards", me);
	tap(backwards == 0, name, "expected 0 backward steps in 100000 calls, got %d", backwards);

	/* Each smap_wtime reading is bracketed by two clock readings: a
	 * vCPU that loses its core between a pair (QEMU under load) widens
	 * the bracket, not the comparison. */
	c0 = clock_now();
	w0 = smap_wtime();
	c0b = clock_now();
	nanosleep(&nap, NULL);
	c1 = clock_now();
	w1 = smap_wtime();
	c1b = clock_now();
	dw = w1 - w0;
	dc = c1 - c0b;
	snprintf(name, sizeof name, "rank%d: smap_wtime agrees with clock_gettime within 1%%", me);
	tap(dw > dc * 0.99 && dw < (c1b - c0) * 1.01, name, "expected %.6f..%.6f s, got %.6f s",
	    dc, c1b - c0, dw);
	snprintf(name, sizeof name, "rank%d: smap_tsc_hz is a plausible clock rate", me);
	tap(smap_tsc_hz() > 100000000ULL && smap_tsc_hz() < 10000000000ULL, name,
	    "expected 0.1..10 GHz, got %llu Hz", (unsigned long long)smap_tsc_hz());
}

/* Every rank's address lands in rank 0's table; all must be equal. */
static int same_everywhere(void *p, int me, int n)
{
	int r;

	((volatile uintptr_t *)remote_address(0, sym_seen))[me] = (uintptr_t)p;
	smap_barrier();
	for (r = 0; r < n; r++)
		if (((volatile uintptr_t *)remote_address(0, sym_seen))[r] != (uintptr_t)p)
			return 0;
	smap_barrier();
	return 1;
}

static void test_sym(int me, int n)
{
	char name[112];
	unsigned char *a = smap_sym_reserve(SYM_SIZE, SYM_ALIGN), *b, *c;
	int peer = (me + 1) % n, from = (me + n - 1) % n;
	size_t i, bad = SYM_SIZE;

	snprintf(name, sizeof name, "rank%d: smap_sym_reserve returns one address on every rank", me);
	tap(a && same_everywhere(a, me, n), name, "expected the same non-NULL address, got %p", (void *)a);
	snprintf(name, sizeof name, "rank%d: smap_sym_reserve honours the alignment", me);
	tap(((uintptr_t)a & (SYM_ALIGN - 1)) == 0, name, "expected %#x-aligned, got %p",
	    SYM_ALIGN, (void *)a);

	memset(remote_address(peer, a), 0xa0 + me, SYM_SIZE);
	smap_barrier();
	for (i = 0; i < SYM_SIZE && bad == SYM_SIZE; i++)
		if (a[i] != (unsigned char)(0xa0 + from))
			bad = i;
	snprintf(name, sizeof name, "rank%d: a peer fills my reservation through remote_address", me);
	tap(bad == SYM_SIZE, name, "expected byte %#x everywhere, got %#x at offset %zu",
	    0xa0 + from, bad < SYM_SIZE ? a[bad] : 0, bad);

	/* Rank 0 alone gives back an extra reservation: the fits disagree. */
	b = smap_sym_reserve(8192, 4096);
	c = smap_sym_reserve(8192, 4096);
	if (me == 0)
		smap_sym_release(b, 8192);
	smap_barrier();
	b = smap_sym_reserve(16384, 4096);
	snprintf(name, sizeof name, "rank%d: smap_sym_reserve still agrees after one rank released", me);
	tap(b && c && same_everywhere(b, me, n), name, "expected one non-NULL address, got %p", (void *)b);

	c = smap_sym_reserve((size_t)1 << 46, 4096);
	snprintf(name, sizeof name, "rank%d: smap_sym_reserve beyond the region is NULL on every rank", me);
	tap(c == NULL && same_everywhere(c, me, n), name, "expected NULL everywhere, got %p", (void *)c);
}

int main(void)
{
	int me = smap_rank(), n = smap_size();

	test_barrier(me, n);
	test_time(me);
	test_sym(me, n);
	smap_barrier();
	return tap_failed;
}
