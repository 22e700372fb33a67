/*
 * ct_move.c - checks of the data-movement collectives: bcast, gather(v),
 * scatter(v), allgather(v), alltoall(v), each against the bytes every rank
 * can regenerate, at sizes on both sides of the by-value limit, from every
 * root, and in place.
 */
#include <stdlib.h>
#include <string.h>
#include "colltest.h"

/* Inline, just past inline, whole small buffers for 8 ranks, the largest by
 * value, the smallest by reference, many pages. */
static const size_t sizes[] = { 1, 32, 33, COLL_EAGER_MAX / 8, COLL_EAGER_MAX, COLL_EAGER_MAX + 1, 200003 };
#define NSIZES (sizeof sizes / sizeof sizes[0])

/* Contents of the block member `from` sends to member `to`. */
static void block(void *buf, size_t bytes, const struct ct_group *tg, int from, int to,
		  uint64_t salt)
{
	ct_fill(buf, bytes, tg->node[from] * 1024 + to, salt);
}

static int expect_block(const void *got, size_t bytes, const struct ct_group *tg, int from,
			int to, uint64_t salt, const char *what)
{
	void *want = ct_alloc(bytes);
	long d;

	block(want, bytes, tg, from, to, salt);
	d = ct_diff(got, want, bytes);
	free(want);
	if (d >= 0)
		ct_fail("%s: block of member %d (%zu bytes) differs at byte %ld", what, from, bytes, d);
	return d < 0;
}

static void check_bcast(const struct ct_group *tg)
{
	struct coll_group *g = tg->g;

	for (size_t s = 0; g && s < NSIZES; s++)
		for (int root = 0; root < coll_size(g); root++) {
			size_t bytes = sizes[s];
			uint64_t salt = ct_hash(1, bytes, root);
			char *buf = ct_alloc(bytes);

			if (coll_rank(g) == root)
				block(buf, bytes, tg, root, 0, salt);
			else
				memset(buf, 0xee, bytes);
			coll_bcast(g, buf, bytes, root);
			if (coll_rank(g) == root)
				ct_scribble(buf, bytes);
			else
				expect_block(buf, bytes, tg, root, 0, salt, "bcast");
			free(buf);
		}
	ct_report("%s: bcast from every root delivers the root's bytes (1 B to 195 KiB)", tg->label);
}

/* Block layout of a gather, scatter or allgather, its extent returned.
 * Uniform: blocks of `unit` in member order.  v form: irregular, some
 * members send nothing, blocks stored in reverse member order with gaps. */
static size_t layout(int n, size_t unit, int v, size_t *counts, size_t *displs)
{
	size_t at = 0;

	if (!v) {
		for (int i = 0; i < n; i++) {
			counts[i] = unit;
			displs[i] = (size_t)i * unit;
		}
		return unit * n;
	}
	for (int i = n - 1; i >= 0; i--) {
		counts[i] = i % 3 == 1 ? 0 : unit + (size_t)i * 13;
		displs[i] = at;
		at += counts[i] + 5;
	}
	return at;
}

static void check_gather(const struct ct_group *tg, int in_place, int v)
{
	struct coll_group *g = tg->g;
	int n = g ? coll_size(g) : 0, me = g ? coll_rank(g) : 0;
	size_t counts[n ? n : 1], displs[n ? n : 1];

	for (size_t s = 0; g && s < NSIZES; s++)
		for (int root = 0; root < n; root++) {
			size_t bytes = sizes[s], total = layout(n, bytes, v, counts, displs);
			uint64_t salt = ct_hash(2, bytes, root);
			char *r = ct_alloc(total), *sb;
			size_t mine;

			mine = counts[me];
			sb = ct_alloc(mine);
			block(sb, mine, tg, me, root, salt);
			memset(r, 0xee, total);
			if (in_place && me == root) {
				memcpy(r + displs[me], sb, mine);
				free(sb);
				sb = r + displs[me];
			}
			/* The layout is the root's business only. */
			if (v)
				coll_gatherv(g, sb, mine, r, me == root ? counts : NULL,
					     me == root ? displs : NULL, root);
			else
				coll_gather(g, sb, r, bytes, root);
			if (sb != r + displs[me])
				ct_scribble(sb, mine);
			for (int i = 0; me == root && i < n; i++)
				if (!expect_block(r + displs[i], counts[i], tg, i, root, salt, "gather"))
					break;
			if (sb != r + displs[me])
				free(sb);
			free(r);
		}
	ct_report("%s: %s%s from every member lands at its displacement at every root",
		  tg->label, v ? "gatherv (irregular, empty blocks)" : "gather",
		  in_place ? " in place" : "");
}

static void check_scatter(const struct ct_group *tg, int in_place, int v)
{
	struct coll_group *g = tg->g;
	int n = g ? coll_size(g) : 0, me = g ? coll_rank(g) : 0;
	size_t counts[n ? n : 1], displs[n ? n : 1];

	for (size_t s = 0; g && s < NSIZES; s++)
		for (int root = 0; root < n; root++) {
			size_t bytes = sizes[s], total = layout(n, bytes, v, counts, displs);
			uint64_t salt = ct_hash(3, bytes, root);
			char *sb = ct_alloc(total), *r;

			memset(sb, 0xee, total);
			if (me == root)
				for (int i = 0; i < n; i++)
					block(sb + displs[i], counts[i], tg, root, i, salt);
			r = in_place && me == root ? sb + displs[me] : ct_alloc(counts[me]);
			if (r != sb + displs[me])
				memset(r, 0xee, counts[me]);
			if (v)
				coll_scatterv(g, sb, me == root ? counts : NULL,
					      me == root ? displs : NULL, r, counts[me], root);
			else
				coll_scatter(g, sb, r, bytes, root);
			if (me == root && !in_place)
				ct_scribble(sb, total);
			expect_block(r, counts[me], tg, root, me, salt, "scatter");
			if (r != sb + displs[me])
				free(r);
			free(sb);
		}
	ct_report("%s: %s%s gives every member its block of the root's buffer at every root",
		  tg->label, v ? "scatterv (irregular, empty blocks)" : "scatter",
		  in_place ? " in place" : "");
}

static void check_allgather(const struct ct_group *tg, int in_place, int v)
{
	struct coll_group *g = tg->g;
	int n = g ? coll_size(g) : 0, me = g ? coll_rank(g) : 0;
	size_t counts[n ? n : 1], displs[n ? n : 1];

	for (size_t s = 0; g && s < NSIZES; s++) {
		size_t bytes = sizes[s], total = layout(n, bytes, v, counts, displs);
		uint64_t salt = ct_hash(4, bytes, v);
		char *r = ct_alloc(total), *sb;

		memset(r, 0xee, total);
		sb = in_place ? r + displs[me] : ct_alloc(counts[me]);
		block(sb, counts[me], tg, me, 0, salt);
		if (v)
			coll_allgatherv(g, sb, r, counts, displs);
		else
			coll_allgather(g, sb, r, bytes);
		if (!in_place)
			ct_scribble(sb, counts[me]);
		for (int i = 0; i < n; i++)
			if (!expect_block(r + displs[i], counts[i], tg, i, 0, salt, "allgather"))
				break;
		if (!in_place)
			free(sb);
		free(r);
	}
	ct_report("%s: %s%s gives every member every block at its displacement", tg->label,
		  v ? "allgatherv (irregular, empty blocks)" : "allgather", in_place ? " in place" : "");
}

/*
 * v form: member i sends (i + 2j) % 4 units to j, blocks reversed with
 * gaps.  In place one layout describes both directions, so the counts must
 * be symmetric: (i + j) % 4.
 */
static size_t a2a_layout(int n, int me, size_t unit, int send, int sym, size_t *counts,
			 size_t *displs)
{
	size_t at = 0;

	for (int j = n - 1; j >= 0; j--) {
		int from = send ? me : j, to = send ? j : me;

		counts[j] = (size_t)((from + (sym ? 1 : 2) * to) % 4) * unit;
		displs[j] = at;
		at += counts[j] + 3;
	}
	return at;
}

static void check_alltoall(const struct ct_group *tg, int in_place, int v)
{
	struct coll_group *g = tg->g;
	int n = g ? coll_size(g) : 0, me = g ? coll_rank(g) : 0;
	size_t sc[n ? n : 1], sd[n ? n : 1], rc[n ? n : 1], rd[n ? n : 1];

	for (size_t s = 0; g && s < NSIZES; s++) {
		size_t bytes = sizes[s], stot, rtot;
		uint64_t salt = ct_hash(5, bytes, v);
		char *sb, *r;

		if (v) {
			stot = a2a_layout(n, me, bytes, 1, in_place, sc, sd);
			rtot = a2a_layout(n, me, bytes, 0, in_place, rc, rd);
			if (in_place) {
				memcpy(sc, rc, sizeof sc);
				memcpy(sd, rd, sizeof sd);
				stot = rtot;
			}
		} else {
			for (int j = 0; j < n; j++) {
				sc[j] = rc[j] = bytes;
				sd[j] = rd[j] = (size_t)j * bytes;
			}
			stot = rtot = bytes * n;
		}
		r = ct_alloc(rtot);
		memset(r, 0xee, rtot);
		sb = in_place ? r : ct_alloc(stot);
		for (int j = 0; j < n; j++)
			block(sb + sd[j], sc[j], tg, me, j, salt);
		if (v)
			coll_alltoallv(g, sb, sc, sd, r, rc, rd);
		else
			coll_alltoall(g, sb, r, bytes);
		if (!in_place)
			ct_scribble(sb, stot);
		for (int i = 0; i < n; i++)
			if (!expect_block(r + rd[i], rc[i], tg, i, me, salt, "alltoall"))
				break;
		if (!in_place)
			free(sb);
		free(r);
	}
	ct_report("%s: %s%s delivers block j of member i as block i of member j", tg->label,
		  v ? "alltoallv (byte displacements, empty blocks)" : "alltoall",
		  in_place ? " in place" : "");
}

void ct_move_checks(const struct ct_group *tg)
{
	check_bcast(tg);
	for (int v = 0; v < 2; v++)
		for (int in_place = 0; in_place < 2; in_place++) {
			check_gather(tg, in_place, v);
			check_scatter(tg, in_place, v);
			check_allgather(tg, in_place, v);
			check_alltoall(tg, in_place, v);
		}
}
