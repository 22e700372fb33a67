/*
 * rpt_stream.c - data through pipes, checked byte for byte: streams of
 * 1 B .. MAX (16 MiB by default; argv[1] in bytes) half duplex, copied out
 * and read in place; both ways at once on full-duplex pipes; one
 * allocation reused for a stream (the writer must wait for each read);
 * and a ring of pipes on every rank.  Ranks 2k and 2k+1 form the pairs.
 * Writers that find the heap full retry until the reader's rfree() makes
 * room: no other synchronisation anywhere.
 */
#include <sched.h>
#include "rpt.h"

static size_t max = 16 << 20;
static unsigned char *pattern, *dst;

static int paired(void)
{
	return (me ^ 1) < np;
}

/* Message sizes: every power of two up to max and a few odd ones. */
static size_t sizes[64];
static int nsizes;

static void make_sizes(void)
{
	static const size_t odd[] = { 3, 1000, 4097, 65537 };
	size_t s;
	unsigned i;

	for (s = 1; s <= max; s *= 2)
		sizes[nsizes++] = s;
	for (i = 0; i < sizeof odd / sizeof odd[0]; i++)
		if (odd[i] <= max)
			sizes[nsizes++] = odd[i];
	sizes[nsizes++] = max - 1;
}

/* A full heap empties as the reader frees: give it the CPU meanwhile (the
 * 4- and 8-rank runs share 2 cores). */
static raddr_t alloc_waiting(rpipe_t rp, size_t n)
{
	raddr_t ra;

	while ((ra = rmalloc(rp, n)) == RADDR_NULL)
		sched_yield();
	return ra;
}

static void write_stream(rpipe_t rp, int first)
{
	int k;

	for (k = 0; k < nsizes; k++)
		if (rwrite(rp, alloc_waiting(rp, sizes[k]), pattern + (first + k) % 4096, sizes[k]))
			rpt_fail("rwrite of message %d failed", k);
}

static void read_stream(rpipe_t rp, int first, int in_place)
{
	ssize_t len;
	raddr_t ra;
	long bad;
	int k;

	for (k = 0; k < nsizes; k++) {
		len = rread(rp, &ra, in_place ? NULL : dst, max);
		if (len != (ssize_t)sizes[k]) {
			rpt_fail("message %d: expected %zu bytes, got %zd", k, sizes[k], len);
			return;
		}
		bad = rpt_check(pattern, first + k, in_place ? rmem(rp, ra) : dst, len);
		if (bad >= 0) {
			rpt_fail("message %d of %zu bytes: byte %ld is wrong", k, sizes[k], bad);
			return;
		}
		rfree(rp, ra);
	}
}

static void test_half_duplex(int in_place)
{
	rpipe_t rp;

	if (paired()) {
		if (me % 2 == 0) {
			rpipe(&rp, me + 1, RPIPE_WRITE, 0);
			write_stream(rp, 0);
		} else {
			/* Room for the largest message and the next one behind it. */
			rpipe(&rp, me - 1, RPIPE_READ, 3 * max + (1 << 20));
			read_stream(rp, 0, in_place);
		}
		rclose(rp);
	}
	rpt_report(in_place ? "rpipe_stream_1B_to_max_read_in_place"
			    : "rpipe_stream_1B_to_max_copied_out");
}

static void test_full_duplex(void)
{
	rpipe_t rp;

	if (paired()) {
		rpipe(&rp, me ^ 1, RPIPE_DUPLEX | RMALLOC_WORST_FIT, 3 * max + (1 << 20));
		/* Both write their whole stream first: writes never wait for reads
		 * while ring and heap have room. */
		write_stream(rp, me);
		read_stream(rp, me ^ 1, me % 2);
		rclose(rp);
	}
	rpt_report("rpipe_full_duplex_streams_both_ways_at_once");
}

/* One allocation for a whole stream: each rwrite waits for the reader. */
static void test_reuse(void)
{
	const size_t len = max < (64 << 10) ? max : 64 << 10;
	rpipe_t rp;
	raddr_t ra;
	long bad;
	int k;

	if (paired()) {
		if (me % 2 == 0) {
			rpipe(&rp, me + 1, RPIPE_WRITE | RMALLOC_BEST_FIT, 0);
			ra = rmalloc(rp, len);
			for (k = 0; k < 200; k++)
				rwrite(rp, ra, pattern + k, len);
		} else {
			rpipe(&rp, me - 1, RPIPE_READ, 1 << 20);
			for (k = 0; k < 200; k++) {
				rread(rp, &ra, dst, len);
				if ((bad = rpt_check(pattern, k, dst, len)) >= 0) {
					rpt_fail("message %d: byte %ld is wrong", k, bad);
					break;
				}
			}
			rfree(rp, ra);
		}
		rclose(rp);
	}
	rpt_report("rpipe_reused_allocation_waits_for_each_read");
}

/* Every rank writes to its right and reads from its left: the even ranks
 * make their right pipe first, the odd ones their left, so no rank waits
 * on a rendezvous its peer has not reached. */
static void test_ring(void)
{
	int r = (me + 1) % np, l = (me + np - 1) % np, k, order;
	rpipe_t out, in;
	raddr_t ra;
	long bad;

	if (np % 2 == 0) {
		for (order = 0; order < 2; order++) {
			if ((order == 0) == (me % 2 == 0))
				rpipe(&out, r, RPIPE_WRITE | RMALLOC_NEXT_FIT, 0);
			else
				rpipe(&in, l, RPIPE_READ, 1 << 20);
		}
		for (k = 0; k < 100; k++) {
			rwrite(out, alloc_waiting(out, 100 + k), pattern + me + k, 100 + k);
			rread(in, &ra, dst, 4096);
			if ((bad = rpt_check(pattern, l + k, dst, 100 + k)) >= 0) {
				rpt_fail("message %d from rank %d: byte %ld is wrong", k, l, bad);
				break;
			}
			rfree(in, ra);
		}
		rclose(out);
		rclose(in);
	}
	rpt_report("rpipe_ring_of_pipes");
}

/* Pipes between one pair, made and closed over and over, match in order. */
static void test_many_pipes(void)
{
	rpipe_t rp[2];
	raddr_t ra;
	int k, v;

	if (paired()) {
		for (k = 0; k < 200; k++) {
			rpipe(&rp[0], me ^ 1, me % 2 ? RPIPE_READ : RPIPE_WRITE, 4096);
			rpipe(&rp[1], me ^ 1, me % 2 ? RPIPE_WRITE : RPIPE_READ, 4096);
			/* Even ranks write on the first pipe, odd ones on the second. */
			v = me * 1000 + k;
			rwrite(rp[me % 2], alloc_waiting(rp[me % 2], sizeof v), &v, sizeof v);
			rread(rp[1 - me % 2], &ra, &v, sizeof v);
			rpt_expect("value from the peer", (me ^ 1) * 1000 + k, v);
			rfree(rp[1 - me % 2], ra);
			rclose(rp[0]);
			rclose(rp[1]);
		}
	}
	rpt_report("rpipe_two_hundred_pipe_pairs_made_and_closed");
}

int main(int argc, char **argv)
{
	rpt_init();
	if (argc > 1)
		max = strtoul(argv[1], NULL, 0);
	pattern = rpt_pattern(max);
	dst = malloc(max + 4096);
	make_sizes();
	test_half_duplex(0);
	test_half_duplex(1);
	test_full_duplex();
	test_reuse();
	test_ring();
	test_many_pipes();
	free(dst);
	free(pattern);
	rfinalize();
	return 0;
}
