/*
 * colltest.h - what the collective engine's test program shares: reporting
 * one TAP line per behaviour for the whole job, deterministic inputs any
 * rank can regenerate for any other, and the operators under test.
 *
 * Reporting does not use the engine under test: every rank stores its
 * verdict in rank 0's memory through SMARTMAP, and the core's
 * smap_node_barrier separates the checks.
 */
#ifndef COLLTEST_H
#define COLLTEST_H

#include <stddef.h>
#include <stdint.h>
#include "coll.h"

/* The first failure this rank saw in the current check (printf format). */
void ct_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Ends a check on every rank: rank 0 prints "ok NAME" or "not ok NAME - rank R: why"
 * and counts the failures in ct_failures. */
void ct_report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
extern int ct_failures;

/* Deterministic bytes: the same on every rank for the same arguments. */
uint64_t ct_hash(uint64_t a, uint64_t b, uint64_t c);
void ct_fill(void *buf, size_t bytes, int who, uint64_t salt);
void *ct_alloc(size_t bytes);
/* Overwrites a send buffer the moment a collective returns: a peer still
 * reading it (the caller left too early) then gets wrong data. */
void ct_scribble(void *buf, size_t bytes);
/* Index of the first differing byte, or -1. */
long ct_diff(const void *a, const void *b, size_t bytes);

/* An operator under test: its engine form and how to make its inputs. */
struct ct_op {
	const char *name;
	struct coll_op op;
	void (*gen)(void *out, size_t count, int who, uint64_t salt);
};

extern const struct ct_op ct_affine;	/* non-commutative, 8-byte elements */
extern const struct ct_op ct_affine3;	/* non-commutative, 3-byte elements */
extern const struct ct_op ct_sum;	/* commutative int64 sum */
extern const struct ct_op ct_dsum;	/* commutative double sum: rounding shows the order */
extern const struct ct_op ct_wide;	/* non-commutative, elements wider than a chunk */

/*
 * x(first) op ... op x(first+k-1) of the members listed (node ranks), in
 * the engine's canonical evaluation order, into out.
 */
void ct_fold(const struct ct_op *t, void *out, const int *nodes, int k, size_t count,
	     uint64_t salt);

/* The families of checks, run on a group g whose member i is node[i]. */
struct ct_group {
	const char *label;
	struct coll_group *g;
	const int *node;
};

void ct_move_checks(const struct ct_group *tg);
void ct_reduce_checks(const struct ct_group *tg);

#endif
