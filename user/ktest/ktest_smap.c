/*
 * ktest_smap.c - SMARTMAP checks that belong to the kernel rather than to
 * libsmap: a light all-to-rank-0 exchange that scales to 64 ranks on an
 * emulator, and the isolation of consecutive jobs.
 *
 * usage: ktest_smap gather | write | fresh
 *   gather: every rank writes its rank into rank 0's table and reads its
 *           neighbour's id; rank 0 checks the table.
 *   write:  fill static and heap memory with a marker (first job).
 *   fresh:  the next job finds no marker anywhere it can reach.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <smap.h>
#include "tap.h"

#define MARK 0x5EC12E7DEADBEEFull
#define WORDS (1u << 17)	/* 1 MiB */

static volatile uint64_t table[SMAP_MAX_RANKS];
static volatile uint64_t id;
static uint64_t statics[WORDS];

static void gather(void)
{
	int me = smap_rank(), n = smap_size(), right = (me + 1) % n, ok = 1;
	char name[96];

	id = 1000 + (uint64_t)me;
	smap_barrier();
	((volatile uint64_t *)remote_address(0, (void *)table))[me] = id;
	uint64_t neighbour = *(volatile uint64_t *)remote_address(right, &id);

	snprintf(name, sizeof(name), "rank %d reads rank %d's id through SMARTMAP", me, right);
	CHECK(name, neighbour == 1000 + (uint64_t)right, "got %lu", (unsigned long)neighbour);
	smap_barrier();
	if (me != 0)
		return;
	for (int r = 0; r < n; r++)
		ok &= table[r] == 1000 + (uint64_t)r;
	snprintf(name, sizeof(name), "rank 0 received the ids of all %d ranks", n);
	CHECK(name, ok, "table incomplete");
}

static int holds_mark(const volatile uint64_t *p, size_t words)
{
	for (size_t i = 0; i < words; i++)
		if (p[i] == MARK)
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "gather";
	int me = smap_rank(), n = smap_size();
	char name[96];

	if (!strcmp(mode, "gather")) {
		gather();
	} else if (!strcmp(mode, "write")) {
		uint64_t *heap = malloc(WORDS * 8);

		for (size_t i = 0; i < WORDS; i++)
			statics[i] = heap[i] = MARK;
		smap_barrier();
		printf("ok rank %d wrote its marker\n", me);
	} else if (!strcmp(mode, "fresh")) {
		uint64_t *heap = malloc(WORDS * 8);

		snprintf(name, sizeof(name), "rank %d: fresh statics and heap hold nothing of the last job", me);
		CHECK(name, !holds_mark(statics, WORDS) && !holds_mark(heap, WORDS), "marker found");
		smap_barrier();
		int seen = 0;

		for (int r = 0; r < n; r++)
			seen |= holds_mark(remote_address(r, statics), WORDS);
		snprintf(name, sizeof(name), "rank %d: no peer's memory holds the last job's marker", me);
		CHECK(name, !seen, "marker found through SMARTMAP");
	} else {
		fprintf(stderr, "usage: ktest_smap gather|write|fresh\n");
		return 2;
	}
	return tap_failed;
}
