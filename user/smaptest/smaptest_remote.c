/*
 * smaptest_remote - SMARTMAP data access between ranks: static, heap and
 * stack memory written by every peer, a rank reaching itself, cross-rank
 * atomics, pointer exchange and the bounds check.  Runs unchanged on the
 * kernel and in host mode, on any number of ranks.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <smap.h>
#include <smapos_abi.h>
#include "tap.h"

#define SLOTS		SMAP_MAX_RANKS
#define ADDS		1000000

static uint64_t static_in[SLOTS];
static uint64_t counter;

static uint64_t pattern(int from, int to)
{
	return 0x5a00000000000000ULL | (uint64_t)from << 20 | (uint64_t)to;
}

/* Write my pattern into slot `me` of every rank's array at p, then check
 * that every peer's pattern arrived in mine. */
static void exchange(const char *what, uint64_t *mine, unsigned key, int me, int n)
{
	char name[96];
	int r, bad = -1;

	smap_publish(key, mine);
	smap_barrier();
	for (r = 0; r < n; r++) {
		uint64_t *theirs = smap_lookup(r, key);

		theirs[me] = pattern(me, r);
	}
	smap_barrier();
	for (r = 0; r < n && bad < 0; r++)
		if (mine[r] != pattern(r, me))
			bad = r;
	snprintf(name, sizeof name, "rank%d: %s written by every rank arrives intact", me, what);
	tap(bad < 0, name, "expected %#llx from rank %d, got %#llx",
	    bad < 0 ? 0ULL : (unsigned long long)pattern(bad, me), bad,
	    bad < 0 ? 0ULL : (unsigned long long)mine[bad]);
}

int main(void)
{
	int me = smap_rank(), n = smap_size(), r;
	uint64_t stack_in[SLOTS];
	uint64_t *heap_in = calloc(SLOTS, sizeof *heap_in);
	volatile uint64_t local = 0;
	char name[96];
	uint64_t total;

	memset(stack_in, 0, sizeof stack_in);
	exchange("static array", static_in, 0, me, n);
	exchange("heap block", heap_in, 1, me, n);
	exchange("stack array", stack_in, 2, me, n);

	/* Same static address everywhere: no exchange needed for globals. */
	smap_barrier();
	for (r = 0; r < n; r++)
		((volatile uint64_t *)remote_address(r, static_in))[me] = pattern(me, r) + 1;
	smap_barrier();
	snprintf(name, sizeof name, "rank%d: a global is reached at remote_address(r, &global)", me);
	tap(static_in[(me + 1) % n] == pattern((me + 1) % n, me) + 1, name,
	    "expected %#llx, got %#llx",
	    (unsigned long long)pattern((me + 1) % n, me) + 1,
	    (unsigned long long)static_in[(me + 1) % n]);

	*(volatile uint64_t *)remote_address(me, (void *)&local) = 0xfeed;
	snprintf(name, sizeof name, "rank%d: remote_address to itself aliases its own memory", me);
	tap(local == 0xfeed, name, "expected 0xfeed, got %#llx", (unsigned long long)local);

	for (r = 0; r < ADDS; r++)
		__atomic_fetch_add((uint64_t *)remote_address(0, &counter), 1, __ATOMIC_RELAXED);
	smap_barrier();
	total = *(volatile uint64_t *)remote_address(0, &counter);
	snprintf(name, sizeof name, "rank%d: lock xadd from all ranks on one counter adds up", me);
	tap(total == (uint64_t)n * ADDS, name, "expected %llu, got %llu",
	    (unsigned long long)n * ADDS, (unsigned long long)total);

	snprintf(name, sizeof name, "rank%d: smap_lookup of an unpublished key is NULL", me);
	tap(smap_lookup((me + 1) % n, SMAP_PUBLISH_KEYS - 1) == NULL, name,
	    "expected NULL, got %p", smap_lookup((me + 1) % n, SMAP_PUBLISH_KEYS - 1));
	smap_barrier();
	smap_publish(3, NULL);
	smap_barrier();
	snprintf(name, sizeof name, "rank%d: smap_publish(key, NULL) withdraws the key", me);
	tap(smap_lookup((me + 1) % n, 3) == NULL, name, "expected NULL, got %p",
	    smap_lookup((me + 1) % n, 3));

	snprintf(name, sizeof name, "rank%d: smap_is_remote_ok accepts a peer's global, heap and stack", me);
	tap(smap_is_remote_ok((me + 1) % n, static_in, sizeof static_in) &&
	    smap_is_remote_ok((me + 1) % n, remote_address((me + 1) % n, heap_in), 64) &&
	    smap_is_remote_ok((me + 1) % n, stack_in, sizeof stack_in), name,
	    "expected 1 for all three, got %d %d %d",
	    smap_is_remote_ok((me + 1) % n, static_in, sizeof static_in),
	    smap_is_remote_ok((me + 1) % n, remote_address((me + 1) % n, heap_in), 64),
	    smap_is_remote_ok((me + 1) % n, stack_in, sizeof stack_in));
	snprintf(name, sizeof name, "rank%d: smap_is_remote_ok refuses other ranks, other slots and overruns", me);
	{
		const struct smapos_jobinfo *ji = smap_jobinfo();
		uintptr_t end = ji->region_base + ji->region_size;

		tap(!smap_is_remote_ok(n, static_in, 8) &&
		    !smap_is_remote_ok(0, remote_address(n, static_in), 8) &&
		    !smap_is_remote_ok(0, (void *)(end - 8), 16) &&
		    !smap_is_remote_ok(0, (void *)4096, 8) &&
		    smap_is_remote_ok(0, (void *)(end - 8), 8), name,
		    "expected 0 0 0 0 1, got %d %d %d %d %d",
		    smap_is_remote_ok(n, static_in, 8),
		    smap_is_remote_ok(0, remote_address(n, static_in), 8),
		    smap_is_remote_ok(0, (void *)(end - 8), 16),
		    smap_is_remote_ok(0, (void *)4096, 8),
		    smap_is_remote_ok(0, (void *)(end - 8), 8));
	}
	smap_barrier();
	return tap_failed;
}
