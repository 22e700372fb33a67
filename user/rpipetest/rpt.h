/*
 * rpt.h - reporting for the rpipe test programs: every rank checks its part
 * of a behaviour, posts its verdict into its node's first rank's memory
 * through SMARTMAP (not through the pipes under test), and after a barrier
 * that rank prints one TAP line for its node: "ok NAME" or "not ok NAME -
 * rank R: expected X, got Y" (the harness joins the nodes' lines).
 */
#ifndef RPT_H
#define RPT_H

#include <rpipe.h>
#include <smap.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RPT_MSG	160

struct rpt_verdict {
	int bad;
	char why[RPT_MSG];
};

static struct rpt_verdict rpt_v[SMAP_MAX_RANKS], rpt_mine;
static int me, np;

static inline void rpt_init(void)
{
	rinit(&me, &np);
}

/* Records a failure of the current behaviour on this rank (first wins). */
static inline void rpt_fail(const char *fmt, ...)
{
	va_list ap;

	if (rpt_mine.bad)
		return;
	rpt_mine.bad = 1;
	va_start(ap, fmt);
	vsnprintf(rpt_mine.why, RPT_MSG, fmt, ap);
	va_end(ap);
}

#define rpt_expect(what, want, got) do { \
	long long w_ = (want), g_ = (got); \
	if (w_ != g_) \
		rpt_fail("%s: expected %lld, got %lld", what, w_, g_); \
} while (0)

/* Ends one behaviour: every rank calls it. */
static inline void rpt_report(const char *name)
{
	int r, n = smap_size();

	*(struct rpt_verdict *)remote_address(0, &rpt_v[smap_rank()]) = rpt_mine;
	smap_barrier();
	if (smap_rank() == 0) {
		for (r = 0; r < n && !rpt_v[r].bad; r++)
			;
		if (r < n)
			printf("not ok %s - rank %d: %s\n", name, smap_node() * n + r, rpt_v[r].why);
		else
			printf("ok %s\n", name);
		fflush(stdout);
	}
	/* Nobody posts the next verdict before the node's first rank has read
	 * this one. */
	smap_barrier();
	memset(&rpt_mine, 0, sizeof rpt_mine);
}

/*
 * Message k's bytes: a stretch of one pattern starting at k, so every
 * message differs and both ends can check without sending the reference.
 */
static inline unsigned char *rpt_pattern(size_t max)
{
	unsigned char *p = malloc(max + 4096);
	size_t i;

	if (!p) {
		fprintf(stderr, "rpt: no memory for a %zu-byte pattern\n", max);
		exit(2);
	}
	for (i = 0; i < max + 4096; i++)
		p[i] = (unsigned char)(i * 131 + i / 251);
	return p;
}

/* -1 if the n bytes at got are message k, else the first wrong byte. */
static inline long rpt_check(const unsigned char *pattern, int k, const void *got, size_t n)
{
	const unsigned char *g = got, *w = pattern + k % 4096;
	size_t i;

	if (!memcmp(g, w, n))
		return -1;
	for (i = 0; g[i] == w[i]; i++)
		;
	return i;
}

#endif
