/*
 * colltest - the collective engine's specification, run on every rank of
 * a node (host mode or the kernel): groups (world, odd ranks, reversed
 * order, singletons, many alive at once, created and destroyed over and
 * over), barriers, every collective on each group, and thousands of
 * back-to-back collectives with changing roots.  One TAP line per
 * behaviour, printed by rank 0 for the whole job.
 *
 *   colltest [sync] [move] [reduce] [stress] [groups]   (default: all)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <smap.h>
#include "colltest.h"

#define BARRIER_ROUNDS	2000
#define STRESS_CALLS	4000
#define LIFECYCLES	300
#define ALIVE		16

static void check_queries(const struct ct_group *tg)
{
	struct coll_group *g = tg->g;

	for (int i = 0; g && i < coll_size(g); i++)
		if (coll_node(g, i) != tg->node[i])
			ct_fail("member %d: node rank %d, expected %d", i, coll_node(g, i), tg->node[i]);
	if (g && tg->node[coll_rank(g)] != smap_rank())
		ct_fail("coll_rank %d is node rank %d, expected this rank %d", coll_rank(g),
			tg->node[coll_rank(g)], smap_rank());
	ct_report("%s: the group lists its members in order and knows the caller's index", tg->label);
}

/* Arrivals counted in member 0's memory: after barrier k every member must
 * see all n * (k + 1) of them. */
static void check_barrier(const struct ct_group *tg, int which)
{
	static uint64_t arrivals[8];
	struct coll_group *g = tg->g;

	if (g) {
		uint64_t *count = remote_address(tg->node[0], &arrivals[which]);
		uint64_t n = (uint64_t)coll_size(g);

		for (uint64_t k = 0; k < BARRIER_ROUNDS; k++) {
			uint64_t seen;

			__atomic_fetch_add(count, 1, __ATOMIC_RELAXED);
			coll_barrier(g);
			seen = __atomic_load_n(count, __ATOMIC_RELAXED);
			if (seen < n * (k + 1)) {
				ct_fail("after barrier %llu saw %llu arrivals, expected at least %llu",
					(unsigned long long)k, (unsigned long long)seen,
					(unsigned long long)(n * (k + 1)));
				break;
			}
		}
		/* Nobody starts counting the next check before all finished. */
		coll_barrier(g);
	}
	ct_report("%s: nobody leaves barrier k before every member entered it (%d barriers)",
		  tg->label, BARRIER_ROUNDS);
}

/* Calls every member agrees are empty: nothing is written, and the members
 * stay in step (the allreduce after them still pairs up correctly). */
static void check_empty(const struct ct_group *tg)
{
	struct coll_group *g = tg->g;

	if (g) {
		int n = coll_size(g), me = coll_rank(g);
		size_t zero[SMAP_MAX_RANKS] = { 0 };
		char sb[8] = "abcdefg", r[8] = "0123456";
		int64_t v = me, want = (int64_t)n * (n - 1) / 2;

		coll_bcast(g, r, 0, n - 1);
		coll_gather(g, sb, r, 0, 0);
		coll_gatherv(g, sb, 0, r, zero, zero, 0);
		coll_scatter(g, sb, r, 0, 0);
		coll_scatterv(g, sb, zero, zero, r, 0, 0);
		coll_allgather(g, sb, r, 0);
		coll_allgatherv(g, sb, r, zero, zero);
		coll_alltoall(g, sb, r, 0);
		coll_alltoallv(g, sb, zero, zero, r, zero, zero);
		coll_reduce(g, sb, r, 0, &ct_sum.op, 0);
		coll_allreduce(g, sb, r, 0, &ct_sum.op);
		coll_reduce_scatter(g, sb, r, zero, &ct_sum.op);
		coll_reduce_scatter_block(g, sb, r, 0, &ct_sum.op);
		coll_scan(g, sb, r, 0, &ct_sum.op);
		coll_exscan(g, sb, r, 0, &ct_sum.op);
		if (memcmp(r, "0123456", 8) || memcmp(sb, "abcdefg", 8))
			ct_fail("an empty call wrote a buffer: send \"%.8s\", receive \"%.8s\"", sb, r);
		coll_allreduce(g, &v, &v, 1, &ct_sum.op);
		if (v != want)
			ct_fail("allreduce after empty calls: %lld, expected %lld", (long long)v,
				(long long)want);
	}
	ct_report("%s: empty calls of every collective write nothing and keep the members in step",
		  tg->label);
}

/* Families of checks, chosen on the command line (all by default). */
static int nfamilies;
static char **families;

static int want(const char *family)
{
	for (int i = 0; i < nfamilies; i++)
		if (!strcmp(families[i], family))
			return 1;
	return nfamilies == 0;
}

static void run_group(const struct ct_group *tg, int which)
{
	if (want("sync")) {
		check_queries(tg);
		check_barrier(tg, which);
		check_empty(tg);
	}
	if (want("move"))
		ct_move_checks(tg);
	if (want("reduce"))
		ct_reduce_checks(tg);
}

/* One small collective per call, rotating kinds and roots, each checked:
 * a reused slot or flag read too early shows as a wrong value. */
static void check_stress(const struct ct_group *tg)
{
	struct coll_group *g = tg->g;
	int n = g ? coll_size(g) : 0, me = g ? coll_rank(g) : 0;

	for (int k = 0; g && k < STRESS_CALLS; k++) {
		int root = (int)(ct_hash(20, (uint64_t)k, 0) % (uint64_t)n);
		uint64_t v[8], want[8], all[SMAP_MAX_RANKS];
		char big[5000], bigwant[5000];

		switch (k % 8) {
		case 0:
			v[0] = me == root ? ct_hash(21, k, root) : 0;
			coll_bcast(g, v, 8, root);
			if (v[0] != ct_hash(21, k, root))
				ct_fail("call %d: bcast from %d got %llx", k, root, (unsigned long long)v[0]);
			break;
		case 1:
			v[0] = ct_hash(22, k, me);
			coll_reduce(g, v, want, 1, &ct_sum.op, root);
			v[1] = 0;
			for (int i = 0; i < n; i++)
				v[1] += ct_hash(22, k, i);
			if (me == root && want[0] != v[1])
				ct_fail("call %d: reduce at %d got %llx, expected %llx", k, root,
					(unsigned long long)want[0], (unsigned long long)v[1]);
			break;
		case 2:
			ct_affine.gen(v, 1, tg->node[me], (uint64_t)k);
			coll_allreduce(g, v, v, 1, &ct_affine.op);
			ct_fold(&ct_affine, want, tg->node, n, 1, (uint64_t)k);
			if (v[0] != want[0])
				ct_fail("call %d: allreduce got %llx, expected %llx", k,
					(unsigned long long)v[0], (unsigned long long)want[0]);
			break;
		case 3:
			v[0] = ct_hash(23, k, me);
			coll_gather(g, v, all, 8, root);
			for (int i = 0; me == root && i < n; i++)
				if (all[i] != ct_hash(23, k, i))
					ct_fail("call %d: gather at %d: block %d wrong", k, root, i);
			break;
		case 4:
			coll_barrier(g);
			break;
		case 5:
			v[0] = ct_hash(24, k, me);
			coll_allgather(g, v, all, 8);
			for (int i = 0; i < n; i++)
				if (all[i] != ct_hash(24, k, i))
					ct_fail("call %d: allgather: block %d wrong", k, i);
			break;
		case 6:
			ct_affine.gen(v, 1, tg->node[me], (uint64_t)k);
			coll_scan(g, v, v, 1, &ct_affine.op);
			ct_fold(&ct_affine, want, tg->node, me + 1, 1, (uint64_t)k);
			if (v[0] != want[0])
				ct_fail("call %d: scan got %llx, expected %llx", k,
					(unsigned long long)v[0], (unsigned long long)want[0]);
			break;
		case 7:
			ct_fill(bigwant, sizeof big, root, (uint64_t)k);
			if (me == root)
				memcpy(big, bigwant, sizeof big);
			coll_bcast(g, big, sizeof big, root);
			if (ct_diff(big, bigwant, sizeof big) >= 0)
				ct_fail("call %d: bcast of %zu bytes from %d wrong", k, sizeof big, root);
			break;
		}
	}
	ct_report("%s: %d back-to-back collectives with changing kinds and roots all correct",
		  tg->label, STRESS_CALLS);
}

static void check_create_errors(struct coll_group *world)
{
	int me = coll_rank(world), n = coll_size(world);
	int dup[2] = { me, me }, out_of_range[1] = { n }, other[1] = { (me + 1) % n };
	struct coll_group *g = world;
	int r;

	if ((r = coll_group_create(world, 2, dup, &g)) != -EINVAL || g)
		ct_fail("a repeated member: got %d, expected -EINVAL and no group", r);
	if ((r = coll_group_create(world, 1, out_of_range, &g)) != -EINVAL)
		ct_fail("member %d of %d: got %d, expected -EINVAL", n, n, r);
	if ((r = coll_group_create(world, 0, dup, &g)) != -EINVAL)
		ct_fail("an empty list: got %d, expected -EINVAL", r);
	if (n > 1 && (r = coll_group_create(world, 1, other, &g)) != -EINVAL)
		ct_fail("a list without the caller: got %d, expected -EINVAL", r);
	ct_report("coll_group_create refuses repeated, out-of-range and empty lists and a caller not in the list");
}

/* Groups of changing membership created and destroyed in a loop, each used
 * once: a new group reusing freed memory must not see the old one's flags. */
static void check_lifecycle(struct coll_group *world)
{
	int n = coll_size(world), me = coll_rank(world);
	int list[SMAP_MAX_RANKS];

	for (int k = 0; k < LIFECYCLES; k++) {
		struct coll_group *g = NULL;
		int cnt = 0, in = 0;

		for (int i = 0; i < n; i++) {
			int m = (i + k) % n;

			if (k % 3 == 1 && m % 2)
				continue;
			in |= m == me;
			list[cnt++] = m;
		}
		if (!in)
			continue;
		if (coll_group_create(world, cnt, list, &g) < 0) {
			ct_fail("cycle %d: coll_group_create failed", k);
			break;
		}
		{
			int64_t v = (int64_t)ct_hash(30, k, me), sum = 0, b = me;

			for (int i = 0; i < cnt; i++)
				sum += (int64_t)ct_hash(30, k, list[i]);
			coll_allreduce(g, &v, &v, 1, &ct_sum.op);
			coll_bcast(g, &b, 8, k % cnt);
			if (v != sum || b != list[k % cnt])
				ct_fail("cycle %d: allreduce %lld (expected %lld), bcast %lld (expected %d)",
					k, (long long)v, (long long)sum, (long long)b, list[k % cnt]);
		}
		coll_group_destroy(g);
	}
	ct_report("%d groups of changing membership created, used and destroyed in turn", LIFECYCLES);
}

/* Many groups alive at once, used in interleaved order, destroyed in
 * another order; the halves of a split create theirs concurrently. */
static void check_alive(struct coll_group *world)
{
	struct coll_group *g[ALIVE], *half;
	int me = coll_rank(world), n = coll_size(world);

	for (int i = 0; i < ALIVE; i++)
		if (coll_group_split(world, 0, (i % 2) ? -me : me, &g[i]) < 0 || !g[i])
			ct_fail("split %d failed", i);
	if (coll_group_split(world, me % 2, 0, &half) < 0 || !half)
		ct_fail("split by parity failed");
	for (int round = 0; round < 20; round++)
		for (int i = 0; i < ALIVE + 1; i++) {
			struct coll_group *x = i < ALIVE ? g[(i * 7 + round) % ALIVE] : half;
			int64_t v = me + round, want = 0;

			for (int j = 0; j < n; j++)
				if (x != half || j % 2 == me % 2)
					want += j + round;
			coll_allreduce(x, &v, &v, 1, &ct_sum.op);
			if (v != want)
				ct_fail("round %d, group %d: sum %lld, expected %lld", round, i,
					(long long)v, (long long)want);
		}
	coll_group_destroy(half);
	for (int i = 0; i < ALIVE; i++)
		coll_group_destroy(g[(i * 5 + 3) % ALIVE]);
	ct_report("%d groups alive at once, used interleaved and destroyed out of order", ALIVE + 1);
}

int main(int argc, char **argv)
{
	struct coll_group *world = coll_world(), *odd = NULL, *rev = NULL, *self = NULL;
	int n = coll_size(world), me = coll_rank(world);
	int wnode[SMAP_MAX_RANKS], onode[SMAP_MAX_RANKS], rnode[SMAP_MAX_RANKS];
	int nodd = 0, r;

	nfamilies = argc - 1;
	families = argv + 1;
	for (int i = 0; i < n; i++) {
		wnode[i] = i;
		rnode[i] = n - 1 - i;
		if (i % 2)
			onode[nodd++] = i;
	}
	struct ct_group tw = { "world", world, wnode };

	run_group(&tw, 0);
	if (want("stress"))
		check_stress(&tw);

	if (me % 2 && (r = coll_group_create(world, nodd, onode, &odd)) < 0)
		ct_fail("creating the odd ranks' group: %d", r);
	struct ct_group to = { "odd ranks", odd, onode };

	run_group(&to, 1);
	coll_group_destroy(odd);

	if ((r = coll_group_split(world, 0, -me, &rev)) < 0)
		ct_fail("splitting the world in reverse order: %d", r);
	struct ct_group tr = { "reversed", rev, rnode };

	run_group(&tr, 2);
	if (want("stress"))
		check_stress(&tr);
	coll_group_destroy(rev);

	if ((r = coll_group_create(world, 1, &me, &self)) < 0)
		ct_fail("creating a group of one: %d", r);
	struct ct_group ts = { "alone", self, &wnode[me] };

	run_group(&ts, 3);
	coll_group_destroy(self);

	if (want("groups")) {
		check_create_errors(world);
		check_lifecycle(world);
		check_alive(world);
	}
	return ct_failures != 0;
}
