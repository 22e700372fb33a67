/*
 * ct_reduce.c - checks of the reductions: reduce, allreduce,
 * reduce_scatter(_block), scan, exscan, against a serial fold of the
 * members' inputs in member order, with non-commutative operators, element
 * sizes of 3, 8 and 20002 bytes, counts on both sides of the by-value limit
 * and over many chunks, and in place.
 */
#include <stdlib.h>
#include <string.h>
#include "colltest.h"

struct ct_counts {
	const struct ct_op *t;
	size_t counts[6];
	int ncounts;
};

/* Per operator: 1 element, the largest by-value vector, one more, many
 * chunks, and (8-byte) over a MiB. */
static const struct ct_counts cases[] = {
	{ &ct_affine, { 1, 3, COLL_EAGER_MAX / 8, COLL_EAGER_MAX / 8 + 1, 9001, 150001 }, 6 },
	{ &ct_affine3, { 1, COLL_EAGER_MAX / 3, COLL_EAGER_MAX / 3 + 1, 30001 }, 4 },
	{ &ct_sum, { 1, 7, 20000 }, 3 },
	{ &ct_wide, { 1, 3 }, 2 },
};
#define NCASES (sizeof cases / sizeof cases[0])

/* Large vectors try three roots, the others all. */
static int root_step(int n, size_t bytes)
{
	return bytes > 100000 && n > 3 ? n / 2 : 1;
}

static void expect_fold(const struct ct_op *t, const void *got, const int *nodes, int k,
			size_t lo, size_t count, size_t total, uint64_t salt, const char *what)
{
	size_t sz = t->op.size;
	char *want = ct_alloc(total * sz);
	long d;

	ct_fold(t, want, nodes, k, total, salt);
	d = ct_diff(got, want + lo * sz, count * sz);
	free(want);
	if (d >= 0)
		ct_fail("%s, %s, %zu elements: element %ld differs from the fold of members 0..%d",
			what, t->name, total, d / (long)sz, k - 1);
}

static void check_reduce(const struct ct_group *tg, int in_place)
{
	struct coll_group *g = tg->g;

	for (size_t c = 0; g && c < NCASES; c++)
		for (int i = 0; i < cases[c].ncounts; i++) {
			const struct ct_op *t = cases[c].t;
			size_t count = cases[c].counts[i], bytes = count * t->op.size;
			int n = coll_size(g), me = coll_rank(g);

			for (int root = 0; root < n; root += root_step(n, bytes)) {
				uint64_t salt = ct_hash(10, count, root);
				char *sb = ct_alloc(bytes), *r = ct_alloc(bytes);

				t->gen(sb, count, tg->node[me], salt);
				memset(r, 0xee, bytes);
				if (in_place && me == root) {
					memcpy(r, sb, bytes);
					coll_reduce(g, r, r, count, &t->op, root);
				} else {
					coll_reduce(g, sb, r, count, &t->op, root);
					ct_scribble(sb, bytes);
				}
				if (me == root)
					expect_fold(t, r, tg->node, n, 0, count, count, salt, "reduce");
				free(sb);
				free(r);
			}
		}
	ct_report("%s: reduce%s from every root equals the fold in member order", tg->label,
		  in_place ? " in place" : "");
}

static void check_allreduce(const struct ct_group *tg, int in_place)
{
	struct coll_group *g = tg->g;

	for (size_t c = 0; g && c < NCASES; c++)
		for (int i = 0; i < cases[c].ncounts; i++) {
			const struct ct_op *t = cases[c].t;
			size_t count = cases[c].counts[i], bytes = count * t->op.size;
			uint64_t salt = ct_hash(11, count, c);
			char *sb = ct_alloc(bytes), *r = ct_alloc(bytes);

			t->gen(sb, count, tg->node[coll_rank(g)], salt);
			if (in_place) {
				memcpy(r, sb, bytes);
				coll_allreduce(g, r, r, count, &t->op);
			} else {
				memset(r, 0xee, bytes);
				coll_allreduce(g, sb, r, count, &t->op);
				ct_scribble(sb, bytes);
			}
			expect_fold(t, r, tg->node, coll_size(g), 0, count, count, salt, "allreduce");
			free(sb);
			free(r);
		}
	ct_report("%s: allreduce%s gives every member the fold in member order", tg->label,
		  in_place ? " in place" : "");
}

/* Rounding makes any other order of a double sum visible in the bits. */
static void check_allreduce_doubles(const struct ct_group *tg)
{
	static const size_t counts[] = { 1, 3, 511, 70001 };
	struct coll_group *g = tg->g;

	for (size_t i = 0; g && i < sizeof counts / sizeof counts[0]; i++) {
		size_t count = counts[i];
		uint64_t salt = ct_hash(12, count, 0);
		double *sb = ct_alloc(count * 8), *r = ct_alloc(count * 8);

		ct_dsum.gen(sb, count, tg->node[coll_rank(g)], salt);
		coll_allreduce(g, sb, r, count, &ct_dsum.op);
		ct_scribble(sb, count * 8);
		expect_fold(&ct_dsum, r, tg->node, coll_size(g), 0, count, count, salt,
			    "allreduce");
		free(sb);
		free(r);
	}
	ct_report("%s: allreduce of doubles is bit-identical on every member to the fold in member order",
		  tg->label);
}

static void check_reduce_scatter(const struct ct_group *tg, int in_place, int block)
{
	static const size_t units[] = { 1, 5, 200, 40000 };
	struct coll_group *g = tg->g;
	int n = g ? coll_size(g) : 0, me = g ? coll_rank(g) : 0;
	size_t counts[n ? n : 1];

	for (size_t u = 0; g && u < sizeof units / sizeof units[0]; u++) {
		const struct ct_op *t = u % 2 ? &ct_affine3 : &ct_affine;
		size_t sz = t->op.size, total = 0, lo = 0;
		uint64_t salt = ct_hash(13, units[u], block);
		char *sb, *r;

		for (int i = 0; i < n; i++) {
			counts[i] = block ? units[u] : (size_t)(i % 3) * units[u];
			if (i == me)
				lo = total;
			total += counts[i];
		}
		sb = ct_alloc(total * sz);
		r = in_place ? sb : ct_alloc(counts[me] * sz);
		t->gen(sb, total, tg->node[me], salt);
		if (block)
			coll_reduce_scatter_block(g, sb, r, units[u], &t->op);
		else
			coll_reduce_scatter(g, sb, r, counts, &t->op);
		if (!in_place)
			ct_scribble(sb, total * sz);
		expect_fold(t, r, tg->node, n, lo, counts[me], total, salt,
			    block ? "reduce_scatter_block" : "reduce_scatter");
		if (!in_place)
			free(r);
		free(sb);
	}
	ct_report("%s: %s%s gives member i block i of the fold in member order", tg->label,
		  block ? "reduce_scatter_block" : "reduce_scatter (irregular, empty blocks)",
		  in_place ? " in place" : "");
}

static void check_scan(const struct ct_group *tg, int in_place, int excl)
{
	struct coll_group *g = tg->g;

	for (size_t c = 0; g && c < NCASES; c++)
		for (int i = 0; i < cases[c].ncounts; i++) {
			const struct ct_op *t = cases[c].t;
			size_t count = cases[c].counts[i], bytes = count * t->op.size;
			int me = coll_rank(g), upto = me + !excl;
			uint64_t salt = ct_hash(14, count, excl);
			char *sb = ct_alloc(bytes), *r = ct_alloc(bytes), *keep = ct_alloc(bytes);

			t->gen(sb, count, tg->node[me], salt);
			if (in_place)
				memcpy(r, sb, bytes);
			else
				memset(r, 0xee, bytes);
			memcpy(keep, r, bytes);
			if (excl)
				coll_exscan(g, in_place ? r : sb, r, count, &t->op);
			else
				coll_scan(g, in_place ? r : sb, r, count, &t->op);
			ct_scribble(sb, bytes);
			if (upto > 0)
				expect_fold(t, r, tg->node, upto, 0, count, count, salt,
					    excl ? "exscan" : "scan");
			else if (ct_diff(r, keep, bytes) >= 0)
				ct_fail("exscan, %s, %zu elements: member 0's buffer was written", t->name, count);
			free(sb);
			free(r);
			free(keep);
		}
	ct_report("%s: %s%s gives member i the fold of members 0..%s", tg->label,
		  excl ? "exscan" : "scan", in_place ? " in place" : "",
		  excl ? "i-1 and leaves member 0's buffer alone" : "i");
}

void ct_reduce_checks(const struct ct_group *tg)
{
	for (int in_place = 0; in_place < 2; in_place++) {
		check_reduce(tg, in_place);
		check_allreduce(tg, in_place);
		check_reduce_scatter(tg, in_place, 0);
		check_reduce_scatter(tg, in_place, 1);
		check_scan(tg, in_place, 0);
		check_scan(tg, in_place, 1);
	}
	check_allreduce_doubles(tg);
}
