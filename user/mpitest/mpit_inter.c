/*
 * mpit_inter.c - intercommunicators: MPI_COMM_WORLD split into evens and
 * odds, joined by MPI_Intercomm_create (leaders: the first of each half);
 * sizes, ranks, remote size and group, test_inter, point-to-point in both
 * directions (ranks name the remote group, ANY_SOURCE sees only it),
 * Comm_dup and compare, Intercomm_merge with either half high (the order
 * of the merged ranks checked against the halves), a second intercomm
 * built over a reversed peer order, the collectives across (the v and w
 * forms and reduce_scatter too), the nonblocking ones all in flight at once
 * and a persistent one started twice, Comm_split and Comm_create of an
 * intercommunicator, and the errors of collectives and of
 * merge on an intracommunicator; and MPI_Comm_create_group, called by the
 * odd ranks only (the evens make their own with another tag meanwhile).
 * Needs at least 2 ranks.
 */
#include <stdlib.h>
#include "mpit.h"

static int wrank, wsize, bad;

static int err_class(int err)
{
	int cls;

	MPI_Error_class(err, &cls);
	return cls;
}

/* World rank of rank r of half `color` (0: evens, 1: odds). */
static int world_of(int color, int r)
{
	return 2 * r + color;
}

static int half_size(int color)
{
	return (wsize + 1 - color) / 2;
}

/* The collectives across an intercommunicator: data goes from one group
 * to the other (MPI 3.1 section 5.2.2). */
static void t_inter_coll(MPI_Comm ic, int color, int lrank)
{
	int other = 1 - color, rsize = half_size(other);
	int v, sum = 0, want = 0, got[64], all[64], i;

	MPI_Barrier(ic);
	/* Bcast from the evens' first rank to the odds. */
	v = color == 0 && lrank == 0 ? 4242 : -1;
	MPI_Bcast(&v, 1, MPI_INT, color == 0 ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0, ic);
	mpit_expect_int("bcast across", color == 1 ? 4242 : lrank == 0 ? 4242 : -1, v);
	/* Allreduce: each group gets the other's sum. */
	for (i = 0; i < rsize; i++)
		want += world_of(other, i);
	MPI_Allreduce(&wrank, &sum, 1, MPI_INT, MPI_SUM, ic);
	mpit_expect_int("allreduce gives the other group's sum", want, sum);
	/* Allgather: the other group's world ranks in their order. */
	MPI_Allgather(&wrank, 1, MPI_INT, all, 1, MPI_INT, ic);
	for (i = 0; i < rsize; i++)
		mpit_expect_int("allgather across", world_of(other, i), all[i]);
	/* Alltoall: block j goes to remote rank j. */
	for (i = 0; i < rsize; i++)
		got[i] = 1000 * wrank + i;
	MPI_Alltoall(got, 1, MPI_INT, all, 1, MPI_INT, ic);
	for (i = 0; i < rsize; i++)
		mpit_expect_int("alltoall across", 1000 * world_of(other, i) + lrank, all[i]);
	/* Gather of the evens' world ranks at the odds' first rank. */
	for (i = 0; i < 64; i++)
		all[i] = -1;
	MPI_Gather(&wrank, 1, MPI_INT, all, 1, MPI_INT,
		   color == 1 ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0, ic);
	if (color == 1 && lrank == 0)
		for (i = 0; i < rsize; i++)
			mpit_expect_int("gather across", world_of(0, i), all[i]);
	/* Scatter from the evens' first rank: odd rank i gets 7 * i. */
	for (i = 0; i < 64; i++)
		got[i] = 7 * i;
	v = -1;
	MPI_Scatter(got, 1, MPI_INT, &v, 1, MPI_INT,
		    color == 0 ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0, ic);
	if (color == 1)
		mpit_expect_int("scatter across", 7 * lrank, v);
	/* Reduce: the odds' largest world rank at the evens' first rank. */
	v = -1;
	MPI_Reduce(&wrank, &v, 1, MPI_INT, MPI_MAX,
		   color == 0 ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0, ic);
	if (color == 0 && lrank == 0)
		mpit_expect_int("reduce across", world_of(1, half_size(1) - 1), v);
	bad |= mpit_report("intercomm_collectives");
}

static int ic_root(int color, int lrank, int from)
{
	return color == from ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
}

/* The nonblocking collectives across, started together and completed by
 * one Waitall; the same results as the blocking ones above. */
static void t_inter_nbc(MPI_Comm ic, int color, int lrank)
{
	int other = 1 - color, rsize = half_size(other), lsize = half_size(color);
	int bc = color == 0 && lrank == 0 ? 4242 : -1, sum = -1, mx = -1, sc = -1, want = 0, i, j;
	int all[64], as[64], ar[64], g[64], ss[64], rs[64], rr[64];
	MPI_Request q[9], p;

	for (i = 0; i < 64; i++) {
		g[i] = rr[i] = -1;
		ss[i] = 7 * i;
		as[i] = 1000 * wrank + i;
		rs[i] = 100 * wrank + i;
	}
	MPI_Ibarrier(ic, &q[0]);
	MPI_Ibcast(&bc, 1, MPI_INT, ic_root(color, lrank, 0), ic, &q[1]);
	MPI_Iallreduce(&wrank, &sum, 1, MPI_INT, MPI_SUM, ic, &q[2]);
	MPI_Iallgather(&wrank, 1, MPI_INT, all, 1, MPI_INT, ic, &q[3]);
	MPI_Ialltoall(as, 1, MPI_INT, ar, 1, MPI_INT, ic, &q[4]);
	MPI_Igather(&wrank, 1, MPI_INT, g, 1, MPI_INT, ic_root(color, lrank, 1), ic, &q[5]);
	MPI_Iscatter(ss, 1, MPI_INT, &sc, 1, MPI_INT, ic_root(color, lrank, 0), ic, &q[6]);
	MPI_Ireduce(&wrank, &mx, 1, MPI_INT, MPI_MAX, ic_root(color, lrank, 0), ic, &q[7]);
	/* Each group's vectors hold lsize * rsize elements: rcount is the
	 * other group's size on both sides. */
	MPI_Ireduce_scatter_block(rs, rr, rsize, MPI_INT, MPI_SUM, ic, &q[8]);
	MPI_Waitall(9, q, MPI_STATUSES_IGNORE);
	mpit_expect_int("ibcast across", color == 1 || lrank == 0 ? 4242 : -1, bc);
	for (i = 0; i < rsize; i++)
		want += world_of(other, i);
	mpit_expect_int("iallreduce gives the other group's sum", want, sum);
	for (i = 0; i < rsize; i++) {
		mpit_expect_int("iallgather across", world_of(other, i), all[i]);
		mpit_expect_int("ialltoall across", 1000 * world_of(other, i) + lrank, ar[i]);
	}
	for (i = 0; color == 1 && lrank == 0 && i < rsize; i++)
		mpit_expect_int("igather across", world_of(0, i), g[i]);
	if (color == 1)
		mpit_expect_int("iscatter across", 7 * lrank, sc);
	if (color == 0 && lrank == 0)
		mpit_expect_int("ireduce across", world_of(1, half_size(1) - 1), mx);
	for (i = 0; i < rsize; i++) {
		int k = lrank * rsize + i, w = 0;

		for (j = 0; j < rsize; j++)
			w += 100 * world_of(other, j) + k;
		mpit_expect_int("ireduce_scatter_block across", w, rr[i]);
	}
	(void)lsize;
	/* Persistent: started twice. */
	MPI_Allreduce_init(&wrank, &sum, 1, MPI_INT, MPI_SUM, ic, MPI_INFO_NULL, &p);
	for (i = 0; i < 2; i++) {
		sum = -1;
		MPI_Start(&p);
		MPI_Wait(&p, MPI_STATUS_IGNORE);
		mpit_expect_int("persistent allreduce across", want, sum);
	}
	MPI_Request_free(&p);
	MPI_Comm_set_errhandler(ic, MPI_ERRORS_RETURN);
	mpit_expect_int("iscan on an intercomm", MPI_ERR_COMM,
			err_class(MPI_Iscan(&wrank, &sum, 1, MPI_INT, MPI_SUM, ic, &p)));
	mpit_expect_int("iallreduce in place on an intercomm", MPI_ERR_BUFFER,
			err_class(MPI_Iallreduce(MPI_IN_PLACE, &sum, 1, MPI_INT, MPI_SUM, ic, &p)));
	MPI_Comm_set_errhandler(ic, MPI_ERRORS_ARE_FATAL);
	bad |= mpit_report("intercomm_nonblocking_collectives");
}

/* The v and w forms and reduce_scatter across an intercommunicator, with
 * counts that differ by rank and displacements out of rank order. */
static void t_inter_vcoll(MPI_Comm ic, int color, int lrank)
{
	enum { T = 12 };
	int other = 1 - color, rsize = half_size(other), lsize = half_size(color);
	int sb[256], rb[256], sc[64], sd[64], rc[64], rd[64], v[64], i, j, k, off;
	MPI_Datatype st[64], rt[64];
	long long wsum = 0;

	/* Gatherv at the odds' first rank: even rank i sends i + 1 copies of
	 * its world rank; they land in reverse rank order, a gap between. */
	for (i = 0; i < 64; i++)
		sb[i] = wrank;
	for (i = 0, off = 0; i < rsize; i++) {
		rc[rsize - 1 - i] = rsize - i;
		rd[rsize - 1 - i] = off;
		off += rsize - i + 1;
	}
	for (i = 0; i < 256; i++)
		rb[i] = -1;
	MPI_Gatherv(sb, lrank + 1, MPI_INT, rb, rc, rd, MPI_INT,
		    color == 1 ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0, ic);
	if (color == 1 && lrank == 0)
		for (i = 0; i < rsize; i++)
			for (k = 0; k <= rc[i]; k++)
				mpit_expect_int("gatherv across", k < rc[i] ? world_of(0, i) : -1,
						rb[rd[i] + k]);
	/* Scatterv from the evens' first rank: odd rank i gets i + 1 values
	 * starting at 10 * i. */
	for (i = 0; i < 256; i++)
		sb[i] = i;
	for (i = 0; i < rsize; i++) {
		sc[i] = i + 1;
		sd[i] = 10 * i;
	}
	for (i = 0; i < 64; i++)
		v[i] = -1;
	MPI_Scatterv(sb, sc, sd, MPI_INT, v, lrank + 1, MPI_INT,
		     color == 0 ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0, ic);
	if (color == 1)
		for (k = 0; k <= lrank + 1; k++)
			mpit_expect_int("scatterv across", k <= lrank ? 10 * lrank + k : -1, v[k]);
	/* Allgatherv: rank i of each group sends i + 1 copies of its world
	 * rank; the other group lays them out last rank first. */
	for (i = 0; i < 64; i++)
		sb[i] = wrank;
	for (i = rsize - 1, off = 0; i >= 0; i--) {
		rc[i] = i + 1;
		rd[i] = off;
		off += i + 1;
	}
	MPI_Allgatherv(sb, lrank + 1, MPI_INT, rb, rc, rd, MPI_INT, ic);
	for (i = 0; i < rsize; i++)
		for (k = 0; k < rc[i]; k++)
			mpit_expect_int("allgatherv across", world_of(other, i), rb[rd[i] + k]);
	/* Alltoallv: j + 1 values 100 * wrank + j to remote rank j; from each
	 * remote rank, lrank + 1 values. */
	for (j = 0, off = 0; j < rsize; j++) {
		sc[j] = j + 1;
		sd[j] = off;
		for (k = 0; k <= j; k++)
			sb[off + k] = 100 * wrank + j;
		off += j + 1;
		rc[j] = lrank + 1;
		rd[j] = (rsize - 1 - j) * (lrank + 1);
	}
	MPI_Alltoallv(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, ic);
	for (j = 0; j < rsize; j++)
		for (k = 0; k <= lrank; k++)
			mpit_expect_int("alltoallv across", 100 * world_of(other, j) + lrank,
					rb[rd[j] + k]);
	/* Alltoallw: one int to each, byte displacements, block order reversed
	 * on the way in. */
	for (j = 0; j < rsize; j++) {
		sb[j] = 1000 * wrank + j;
		sc[j] = rc[j] = 1;
		sd[j] = j * (int)sizeof(int);
		rd[j] = (rsize - 1 - j) * (int)sizeof(int);
		st[j] = rt[j] = MPI_INT;
	}
	MPI_Alltoallw(sb, sc, sd, st, rb, rc, rd, rt, ic);
	for (j = 0; j < rsize; j++)
		mpit_expect_int("alltoallw across", 1000 * world_of(other, j) + lrank,
				rb[rsize - 1 - j]);
	/* Reduce_scatter: T elements in each group, split over its own ranks;
	 * each gets its part of the other group's sum. */
	for (i = 0; i < rsize; i++)
		wsum += world_of(other, i);
	for (k = 0; k < T; k++)
		sb[k] = 1000 * wrank + k;
	for (i = 0, off = 0; i < lsize; i++) {
		rc[i] = T / lsize + (i < T % lsize);
		if (i == lrank)
			j = off;
		off += rc[i];
	}
	MPI_Reduce_scatter(sb, rb, rc, MPI_INT, MPI_SUM, ic);
	for (k = 0; k < rc[lrank]; k++)
		mpit_expect_int("reduce_scatter across", (int)(1000 * wsum + (long long)rsize * (j + k)),
				rb[k]);
	/* Reduce_scatter_block needs the same total on both sides. */
	if (lsize == rsize) {
		for (k = 0; k < 2 * lsize; k++)
			sb[k] = wrank + k;
		MPI_Reduce_scatter_block(sb, rb, 2, MPI_INT, MPI_MAX, ic);
		for (k = 0; k < 2; k++)
			mpit_expect_int("reduce_scatter_block across",
					world_of(other, rsize - 1) + 2 * lrank + k, rb[k]);
	}
	bad |= mpit_report("intercomm_v_collectives");
}

/* Comm_split of an intercommunicator by the parity of the local rank,
 * keys reversed; Comm_create with each group's first rank left out (when
 * it has more than one). */
static void t_inter_split(MPI_Comm ic, int color, int lrank)
{
	int other = 1 - color, rsize = half_size(other), lsize = half_size(color);
	int part = lrank % 2, n = 0, rn = 0, v = -1, sum = -1, want = 0, i, first, *ranks;
	MPI_Comm sc, cc;
	MPI_Group g, lg;

	MPI_Comm_split(ic, part, -lrank, &sc);
	for (i = 0; i < rsize; i++)
		if (i % 2 == part) {
			rn++;
			want += world_of(other, i);
		}
	for (i = 0; i < lsize; i++)
		n += i % 2 == part;
	if (!rn) {
		mpit_expect_int("split with no remote part gives MPI_COMM_NULL", 1, sc == MPI_COMM_NULL);
	} else {
		MPI_Comm_test_inter(sc, &v);
		mpit_expect_int("split of an intercomm is one", 1, v);
		MPI_Comm_remote_size(sc, &v);
		mpit_expect_int("split remote size", rn, v);
		MPI_Comm_size(sc, &v);
		mpit_expect_int("split local size", n, v);
		MPI_Comm_rank(sc, &v);
		mpit_expect_int("split rank follows the keys", n - 1 - lrank / 2, v);
		MPI_Allreduce(&wrank, &sum, 1, MPI_INT, MPI_SUM, sc);
		mpit_expect_int("split allreduce sums the remote part", want, sum);
		MPI_Comm_free(&sc);
	}
	/* Comm_create: the local group without its first rank. */
	first = lsize > 1;
	ranks = malloc(lsize * sizeof(int));
	for (i = first; i < lsize; i++)
		ranks[i - first] = i;
	MPI_Comm_group(ic, &lg);
	MPI_Group_incl(lg, lsize - first, ranks, &g);
	MPI_Comm_create(ic, g, &cc);
	if (first && lrank == 0) {
		mpit_expect_int("create leaves out who is not in the group", 1, cc == MPI_COMM_NULL);
	} else {
		want = 0;
		for (i = rsize > 1; i < rsize; i++)
			want += world_of(other, i);
		MPI_Comm_remote_size(cc, &v);
		mpit_expect_int("create remote size", rsize - (rsize > 1), v);
		MPI_Comm_rank(cc, &v);
		mpit_expect_int("create rank", lrank - first, v);
		MPI_Allreduce(&wrank, &sum, 1, MPI_INT, MPI_SUM, cc);
		mpit_expect_int("create allreduce sums the remote group", want, sum);
		MPI_Comm_free(&cc);
	}
	MPI_Group_free(&g);
	MPI_Group_free(&lg);
	free(ranks);
	bad |= mpit_report("intercomm_split_create");
}

static void t_inter(void)
{
	int color = wrank % 2, lrank, lsize, rsize = -1, flag = -1, res, i;
	int other = 1 - color, v, sum;
	MPI_Comm half, ic, dup;
	MPI_Group rg, wg;
	MPI_Status st;

	MPI_Comm_split(MPI_COMM_WORLD, color, wrank, &half);
	MPI_Comm_rank(half, &lrank);
	MPI_Comm_size(half, &lsize);
	/* Leaders: half rank 0 - world 0 for the evens, world 1 for the odds. */
	MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, other, 7, &ic);
	MPI_Comm_test_inter(ic, &flag);
	mpit_expect_int("test_inter", 1, flag);
	MPI_Comm_test_inter(half, &flag);
	mpit_expect_int("test_inter of an intracommunicator", 0, flag);
	MPI_Comm_size(ic, &v);
	mpit_expect_int("size is the local group's", half_size(color), v);
	MPI_Comm_rank(ic, &v);
	mpit_expect_int("rank is in the local group", lrank, v);
	MPI_Comm_remote_size(ic, &rsize);
	mpit_expect_int("remote_size", half_size(other), rsize);
	MPI_Comm_remote_group(ic, &rg);
	MPI_Comm_group(MPI_COMM_WORLD, &wg);
	for (i = 0; i < rsize; i++) {
		int w;

		MPI_Group_translate_ranks(rg, 1, &i, wg, &w);
		mpit_expect_int("remote group member", world_of(other, i), w);
	}
	MPI_Group_free(&rg);
	MPI_Group_free(&wg);

	/* Each even sends its rank to the odd of the same half rank, which
	 * answers with ten times its own; the odds' extra rank gets nothing. */
	if (color == 0 && lrank < rsize) {
		v = 100 + lrank;
		MPI_Send(&v, 1, MPI_INT, lrank, 3, ic);
		MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 4, ic, &st);
		mpit_expect_int("reply source (remote rank)", lrank, st.MPI_SOURCE);
		mpit_expect_int("reply value", 10 * lrank, v);
	} else if (color == 1 && lrank < rsize) {
		MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 3, ic, &st);
		mpit_expect_int("source (remote rank)", lrank, st.MPI_SOURCE);
		mpit_expect_int("value", 100 + lrank, v);
		v = 10 * lrank;
		MPI_Send(&v, 1, MPI_INT, st.MPI_SOURCE, 4, ic);
	}

	MPI_Comm_dup(ic, &dup);
	MPI_Comm_compare(ic, dup, &res);
	mpit_expect_int("dup is congruent", MPI_CONGRUENT, res);
	MPI_Comm_compare(ic, half, &res);
	mpit_expect_int("inter against intra", MPI_UNEQUAL, res);
	/* The dup's messages do not mix with ic's: same tag, both in flight. */
	if (lrank < rsize && lrank < half_size(color)) {
		int a = 1000 + wrank, b = 2000 + wrank, ra = -1, rb = -1;
		MPI_Request q[4];

		MPI_Isend(&a, 1, MPI_INT, lrank, 9, ic, &q[0]);
		MPI_Isend(&b, 1, MPI_INT, lrank, 9, dup, &q[1]);
		MPI_Irecv(&rb, 1, MPI_INT, lrank, 9, dup, &q[2]);
		MPI_Irecv(&ra, 1, MPI_INT, lrank, 9, ic, &q[3]);
		MPI_Waitall(4, q, MPI_STATUSES_IGNORE);
		mpit_expect_int("message on the intercomm", 1000 + world_of(other, lrank), ra);
		mpit_expect_int("message on its dup", 2000 + world_of(other, lrank), rb);
	}
	MPI_Comm_free(&dup);
	bad |= mpit_report("intercomm_create");

	for (int high = 0; high < 2; high++) {
		MPI_Comm m;
		int mrank, msize, first = high ? 1 : 0, want;

		/* The evens pass `high`, the odds its opposite. */
		MPI_Intercomm_merge(ic, color == 0 ? high : !high, &m);
		MPI_Comm_size(m, &msize);
		MPI_Comm_rank(m, &mrank);
		mpit_expect_int("merged size", wsize, msize);
		want = color == first ? lrank : half_size(first) + lrank;
		mpit_expect_int("merged rank: the low group first", want, mrank);
		sum = 0;
		MPI_Allreduce(&wrank, &sum, 1, MPI_INT, MPI_SUM, m);
		mpit_expect_int("allreduce on the merged comm", wsize * (wsize - 1) / 2, sum);
		MPI_Comm_free(&m);
	}
	bad |= mpit_report("intercomm_merge");
	t_inter_coll(ic, color, lrank);
	t_inter_nbc(ic, color, lrank);
	t_inter_vcoll(ic, color, lrank);
	t_inter_split(ic, color, lrank);

	MPI_Comm_set_errhandler(ic, MPI_ERRORS_RETURN);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	mpit_expect_int("scan on an intercomm", MPI_ERR_COMM,
			err_class(MPI_Scan(&v, &rsize, 1, MPI_INT, MPI_SUM, ic)));
	mpit_expect_int("merge of an intracomm", MPI_ERR_COMM,
			err_class(MPI_Intercomm_merge(MPI_COMM_WORLD, 0, &dup)));
	mpit_expect_int("remote_size of an intracomm", MPI_ERR_COMM,
			err_class(MPI_Comm_remote_size(MPI_COMM_WORLD, &v)));
	mpit_expect_int("send to a remote rank out of range", MPI_ERR_RANK,
			err_class(MPI_Send(&v, 1, MPI_INT, rsize, 0, ic)));
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	MPI_Comm_free(&ic);
	MPI_Comm_free(&half);
	bad |= mpit_report("intercomm_errors");
}

static void t_create_group(void)
{
	int color = wrank % 2, n = half_size(color), *members = malloc(n * sizeof(int));
	int size = -1, rank = -1, sum = 0, want = 0;
	MPI_Group wg, g;
	MPI_Comm c;

	for (int i = 0; i < n; i++) {
		members[i] = world_of(color, i);
		want += members[i];
	}
	MPI_Comm_group(MPI_COMM_WORLD, &wg);
	MPI_Group_incl(wg, n, members, &g);
	MPI_Comm_create_group(MPI_COMM_WORLD, g, 40 + color, &c);
	MPI_Comm_size(c, &size);
	MPI_Comm_rank(c, &rank);
	mpit_expect_int("create_group size", n, size);
	mpit_expect_int("create_group rank", wrank / 2, rank);
	MPI_Allreduce(&wrank, &sum, 1, MPI_INT, MPI_SUM, c);
	mpit_expect_int("allreduce over the group only", want, sum);
	MPI_Comm_free(&c);
	MPI_Group_free(&g);
	MPI_Group_free(&wg);
	free(members);
	bad |= mpit_report("comm_create_group");
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
	MPI_Comm_size(MPI_COMM_WORLD, &wsize);
	if (wsize < 2) {
		if (wrank == 0)
			printf("1..0 # needs 2 ranks\n");
		MPI_Finalize();
		return 0;
	}
	t_inter();
	t_create_group();
	MPI_Finalize();
	return bad;
}
