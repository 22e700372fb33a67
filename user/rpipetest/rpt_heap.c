/*
 * rpt_heap.c - the three allocation policies on a real pipe, where the
 * writer allocates in the reader's memory and the reader frees:
 *
 *   1. the writer allocates blocks of irregular sizes until rmalloc fails
 *      (exhaustion), writing each; the reader checks every one, then frees
 *      the odd ones, keeping the even ones in between;
 *   2. the writer allocates the odd sizes again into those holes: best fit
 *      must refit them all, worst fit must take the largest hole first;
 *   3. the reader frees everything: the writer must get the whole heap
 *      back as one block (the frees from the far end coalesced).
 *
 * Phases end with a zero-length rwrite (an end-of-file mark) and the
 * reader answers on the other direction of the full-duplex pipe; the
 * writer's last mark lets the reader close (after which the writer's
 * rmalloc would fail with EPIPE).  No synchronisation besides the pipe.
 * Ranks 2k (writer) and 2k+1 (reader).
 */
#include "rpt.h"

#define HEAP	(256 << 10)
#define MAXB	(HEAP / 128)

static const struct {
	int flag;
	const char *name;
} policies[] = {
	{ RMALLOC_NEXT_FIT, "next_fit" }, { RMALLOC_BEST_FIT, "best_fit" },
	{ RMALLOC_WORST_FIT, "worst_fit" },
};

static unsigned char *pattern;
static raddr_t ra[MAXB];
static size_t cap[MAXB];

/* Block i's size: irregular, 1 byte to 2 KiB. */
static size_t size_of(int i)
{
	return 1 + (i * 7919) % 2048;
}

/* The other end's zero-length message, through its own allocation. */
static void tell(rpipe_t rp)
{
	raddr_t c;

	while ((c = rmalloc(rp, 1)) == RADDR_NULL)
		;
	rwrite(rp, c, NULL, 0);
}

static void hear(rpipe_t rp)
{
	raddr_t c;

	rread(rp, &c, NULL, 0);
	rfree(rp, c);
}

static void writer(rpipe_t rp, int flag)
{
	raddr_t mark = rmalloc(rp, 1), r;
	int n, i, largest = -1, refit = 0;

	for (n = 0; n < MAXB; n++) {
		if ((ra[n] = rmalloc(rp, size_of(n))) == RADDR_NULL)
			break;
		cap[n] = rsize(rp, ra[n]);
		rwrite(rp, ra[n], pattern + n % 4096, size_of(n));
		if (n % 2 && (largest < 0 || cap[n] > cap[largest]))
			largest = n;
	}
	rpt_expect("rmalloc fails before the block table is full", 1, n < MAXB);
	rpt_expect("over half the heap allocated at exhaustion", 1, n * 1024 > HEAP / 2);
	rwrite(rp, mark, NULL, 0);
	hear(rp);
	for (i = 1; i < n; i += 2) {
		if ((r = rmalloc(rp, size_of(i))) == RADDR_NULL)
			continue;
		if (flag == RMALLOC_WORST_FIT && refit == 0)
			rpt_expect("worst fit's first block is the largest hole", ra[largest], r);
		refit++;
		rwrite(rp, r, pattern + size_of(i) % 4096, size_of(i));
	}
	if (flag == RMALLOC_BEST_FIT)
		rpt_expect("best fit refits every freed size", n / 2, refit);
	else
		rpt_expect("some freed holes refitted", 1, refit > 0);
	rwrite(rp, mark, NULL, 0);
	hear(rp);
	rfree(rp, mark);
	r = rmalloc(rp, HEAP - 2 * 64);
	rpt_expect("the whole heap comes back as one block", 1, r != RADDR_NULL);
	rwrite(rp, r, NULL, 0);
}

static void reader(rpipe_t rp)
{
	raddr_t a;
	ssize_t len;
	long bad;
	int n, m;

	for (n = 0; (len = rread(rp, &ra[n], NULL, 0)) > 0; n++)
		if ((bad = rpt_check(pattern, n, rmem(rp, ra[n]), len)) >= 0)
			rpt_fail("block %d: byte %ld is wrong", n, bad);
	for (m = 0; m < n; m++)
		if (m % 2)
			rfree(rp, ra[m]);
		else
			ra[m / 2] = ra[m];
	m = (n + 1) / 2;
	tell(rp);
	while ((len = rread(rp, &a, NULL, 0)) > 0) {
		if ((bad = rpt_check(pattern, len, rmem(rp, a), len)) >= 0)
			rpt_fail("refitted block of %zd bytes: byte %ld is wrong", len, bad);
		ra[m++] = a;
	}
	while (m > 0)
		rfree(rp, ra[--m]);
	tell(rp);
	rread(rp, &a, NULL, 0);
	rfree(rp, a);
}

int main(void)
{
	char name[64];
	unsigned p;
	rpipe_t rp;

	rpt_init();
	pattern = rpt_pattern(4096);
	for (p = 0; p < sizeof policies / sizeof policies[0]; p++) {
		if ((me ^ 1) < np) {
			rpipe(&rp, me ^ 1, RPIPE_DUPLEX | policies[p].flag, me % 2 ? HEAP : 4096);
			if (me % 2)
				reader(rp);
			else
				writer(rp, policies[p].flag);
			rclose(rp);
		}
		snprintf(name, sizeof name, "rmalloc_%s_exhaustion_and_recovery", policies[p].name);
		rpt_report(name);
	}
	free(pattern);
	rfinalize();
	return 0;
}
