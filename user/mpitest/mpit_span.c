/*
 * mpit_span.c - barriers on communicators that are not MPI_COMM_WORLD in
 * order (on several nodes they span nodes without being the whole job, so
 * they take the network, gathered per node to a leader): split by rank
 * modulo 2 and 3 in reversed order (uneven members per node, leaders that
 * are not member 0) and the world without its last rank.  Each barrier is
 * followed by an allreduce of the iteration number, so a barrier message
 * matched by another call, or one left over, shows as a wrong value.
 * Broadcasts from every root on the same communicators (the tree among
 * one member per node, then on each node), and a reduction by an op
 * that does not commute (composition of affine maps) to every root and to
 * all, against the fold in member order.  Gathers and scatters (plain and
 * v) from every root on the splits, on members in interleaved node order
 * and on the world.
 */
#include <stdlib.h>
#include <string.h>
#include "mpit.h"

/* Barriers per communicator; argv[1] may ask for fewer (under QEMU). */
static int iters = 300;
#define BCAST_INTS 5000

static void barriers(MPI_Comm c)
{
	int i, lo, hi;

	for (i = 0; i < iters; i++) {
		MPI_Barrier(c);
		MPI_Allreduce(&i, &lo, 1, MPI_INT, MPI_MIN, c);
		MPI_Allreduce(&i, &hi, 1, MPI_INT, MPI_MAX, c);
		if (lo != i || hi != i) {
			mpit_fail("iteration %d: min %d, max %d", i, lo, hi);
			break;
		}
	}
}

static void bcasts(MPI_Comm c)
{
	static int buf[BCAST_INTS];
	int root, size, me, i;

	MPI_Comm_size(c, &size);
	MPI_Comm_rank(c, &me);
	for (root = 0; root < size; root++) {
		for (i = 0; i < BCAST_INTS; i++)
			buf[i] = me == root ? root * BCAST_INTS + i : -1;
		MPI_Bcast(buf, BCAST_INTS, MPI_INT, root, c);
		for (i = 0; i < BCAST_INTS; i++)
			if (buf[i] != root * BCAST_INTS + i) {
				mpit_fail("root %d: element %d is %d", root, i, buf[i]);
				return;
			}
	}
}

/* Gather, Gatherv, Scatter and Scatterv from every root: member i's block
 * is i + 1 ints, laid out last member first. */
static void gathers(MPI_Comm c)
{
	int size, me, root, i, j, *cnt, *dsp, *s, *r, total;

	MPI_Comm_size(c, &size);
	MPI_Comm_rank(c, &me);
	cnt = malloc(size * sizeof(int));
	dsp = malloc(size * sizeof(int));
	total = size * (size + 1) / 2;
	s = malloc((total + 3 * size) * sizeof(int));
	r = malloc((total + 3 * size) * sizeof(int));
	for (i = size - 1, j = 0; i >= 0; i--) {
		cnt[i] = i + 1;
		dsp[i] = j;
		j += cnt[i];
	}
	for (root = 0; root < size; root++) {
		for (i = 0; i < 3; i++)
			s[i] = 1000 * me + root + i;
		MPI_Gather(s, 3, MPI_INT, r, 3, MPI_INT, root, c);
		for (i = 0; me == root && i < 3 * size; i++)
			if (r[i] != 1000 * (i / 3) + root + i % 3)
				mpit_fail("gather root %d: element %d is %d", root, i, r[i]);
		for (i = 0; i <= me; i++)
			s[i] = 100 * me + root + i;
		MPI_Gatherv(s, me + 1, MPI_INT, r, cnt, dsp, MPI_INT, root, c);
		for (i = 0; me == root && i < size; i++)
			for (j = 0; j < cnt[i]; j++)
				if (r[dsp[i] + j] != 100 * i + root + j)
					mpit_fail("gatherv root %d: member %d's %d is %d", root, i, j,
						  r[dsp[i] + j]);
		for (i = 0; i < 2 * size; i++)
			s[i] = me == root ? 7 * i + root : -1;
		MPI_Scatter(s, 2, MPI_INT, r, 2, MPI_INT, root, c);
		if (r[0] != 14 * me + root || r[1] != 14 * me + 7 + root)
			mpit_fail("scatter root %d: got %d %d", root, r[0], r[1]);
		for (i = 0; i < size; i++)
			for (j = 0; j < cnt[i]; j++)
				s[dsp[i] + j] = me == root ? 100 * i + j - root : -1;
		MPI_Scatterv(s, cnt, dsp, MPI_INT, r, me + 1, MPI_INT, root, c);
		for (j = 0; j <= me; j++)
			if (r[j] != 100 * me + j - root)
				mpit_fail("scatterv root %d: element %d is %d", root, j, r[j]);
	}
	free(cnt);
	free(dsp);
	free(s);
	free(r);
}

/* inout = in o inout for maps x -> a*x + b stored as (a, b). */
static void compose(void *in, void *inout, int *len, MPI_Datatype *t)
{
	unsigned *p = in, *q = inout;

	(void)t;
	for (int i = 0; i < *len; i++, p += 2, q += 2) {
		unsigned a = p[0] * q[0], b = p[0] * q[1] + p[1];

		q[0] = a;
		q[1] = b;
	}
}

/* Elements of a reduction above 16 KiB (span groups fold those by
 * recursive doubling rather than at the root), and of one above the 1 MiB
 * chunks of the pipeline between nodes (two chunks, the last short). */
#define BIG	5000
#define HUGE	140000

static void reduces(MPI_Comm c, int count)
{
	unsigned *in = malloc(6 * sizeof(unsigned) * count), *out = in + 2 * count;
	unsigned *want = out + 2 * count;
	int root, size, me, i, e;
	MPI_Datatype pair;
	MPI_Op op;

	MPI_Comm_size(c, &size);
	MPI_Comm_rank(c, &me);
	MPI_Type_contiguous(2, MPI_UNSIGNED, &pair);
	MPI_Type_commit(&pair);
	MPI_Op_create(compose, 0, &op);
	for (e = 0; e < count; e++) {
		want[2 * e] = 1;
		want[2 * e + 1] = 0;
		for (i = 0; i < size; i++) {
			unsigned a = 2 * i + 3, b = i + 1 + e, *w = &want[2 * e];

			w[1] = w[0] * b + w[1];
			w[0] *= a;
		}
		in[2 * e] = 2 * me + 3;
		in[2 * e + 1] = me + 1 + e;
	}
	for (root = 0; root <= size; root++) {
		for (e = 0; e < 2 * count; e++)
			out[e] = 7;
		if (root < size)
			MPI_Reduce(in, out, count, pair, op, root, c);
		else
			MPI_Allreduce(in, out, count, pair, op, c);
		if (root < size && root != me)
			continue;
		for (e = 0; e < count && out[2 * e] == want[2 * e] && out[2 * e + 1] == want[2 * e + 1];
		     e++)
			;
		if (e < count) {
			mpit_fail("root %d, %d elements: element %d is (%u, %u), expected (%u, %u)",
				  root, count, e, out[2 * e], out[2 * e + 1], want[2 * e],
				  want[2 * e + 1]);
			break;
		}
	}
	MPI_Op_free(&op);
	MPI_Type_free(&pair);
	free(in);
}

/* A commutative op (the tree's top is then the root's node) to every root. */
static void sums(MPI_Comm c, int count)
{
	long *in = malloc(2 * sizeof(long) * count), *out = in + count;
	int size, me;

	MPI_Comm_size(c, &size);
	MPI_Comm_rank(c, &me);
	for (int e = 0; e < count; e++)
		in[e] = (long)me * count + e;
	for (int root = 0; root < size; root++) {
		int e;

		for (e = 0; e < count; e++)
			out[e] = -1;
		MPI_Reduce(in, out, count, MPI_LONG, MPI_SUM, root, c);
		if (root != me)
			continue;
		for (e = 0; e < count && out[e] == (long)size * (size - 1) / 2 * count + (long)size * e;
		     e++)
			;
		if (e < count) {
			mpit_fail("sum to root %d: element %d is %ld", root, e, out[e]);
			break;
		}
	}
	free(in);
}

/* Alltoall of blocks through one member per node (up to 1 KiB) and
 * pairwise (above), in place and not. */
static void alltoalls(MPI_Comm c)
{
	static const int counts[] = { 1, 64, 256, 257 };
	int size, me;

	MPI_Comm_size(c, &size);
	MPI_Comm_rank(c, &me);
	for (unsigned k = 0; k < sizeof counts / sizeof *counts; k++) {
		int n = counts[k], *s = malloc(2 * sizeof(int) * n * size), *d = s + n * size;

		for (int inplace = 0; inplace < 2; inplace++) {
			for (int j = 0; j < size; j++)
				for (int e = 0; e < n; e++)
					s[j * n + e] = me * 1000000 + j * 1000 + e;
			if (inplace) {
				memcpy(d, s, sizeof(int) * n * size);
				MPI_Alltoall(MPI_IN_PLACE, 0, MPI_INT, d, n, MPI_INT, c);
			} else {
				MPI_Alltoall(s, n, MPI_INT, d, n, MPI_INT, c);
			}
			for (int q = 0; q < size; q++)
				for (int e = 0; e < n; e++)
					if (d[q * n + e] != q * 1000000 + me * 1000 + e) {
						mpit_fail("%d ints%s: from %d element %d is %d", n,
							  inplace ? " in place" : "", q, e,
							  d[q * n + e]);
						free(s);
						return;
					}
		}
		free(s);
	}
}

/* Untyped data against ints of its bytes is no disagreement (MPI 3.1
 * 4.2): across nodes the calls' messages are marked with differing
 * hashes, and the receiver must take them all the same. */
static void untyped(MPI_Comm c)
{
	int size, me, v[2], all[2 * 64];

	MPI_Comm_size(c, &size);
	MPI_Comm_rank(c, &me);
	for (int root = 0; root < size && size <= 64; root++) {
		v[0] = me == root ? root + 1 : -1;
		v[1] = me == root ? root + 2 : -1;
		if (me % 2)
			MPI_Bcast(v, 2, MPI_INT, root, c);
		else
			MPI_Bcast(v, 2 * sizeof(int), MPI_BYTE, root, c);
		if (v[0] != root + 1 || v[1] != root + 2) {
			mpit_fail("bcast from %d: %d %d", root, v[0], v[1]);
			return;
		}
		v[0] = me;
		v[1] = -me;
		if (me % 2)
			MPI_Allgather(v, 2, MPI_INT, all, 2, MPI_INT, c);
		else
			MPI_Allgather(v, 2 * sizeof(int), MPI_BYTE, all, 2 * sizeof(int), MPI_BYTE, c);
		for (int q = 0; q < size; q++)
			if (all[2 * q] != q || all[2 * q + 1] != -q) {
				mpit_fail("allgather: block %d is %d %d", q, all[2 * q], all[2 * q + 1]);
				return;
			}
	}
}

int main(int argc, char **argv)
{
	int rank, size, bad = 0, m;
	MPI_Comm c;
	MPI_Group wg, g;

	MPI_Init(&argc, &argv);
	if (argc > 1 && atoi(argv[1]) > 0)
		iters = atoi(argv[1]);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);

	for (m = 2; m <= 3; m++) {
		char name[64];

		MPI_Comm_split(MPI_COMM_WORLD, rank % m, -rank, &c);
		barriers(c);
		snprintf(name, sizeof name, "barrier_split_mod%d_reversed", m);
		bad |= mpit_report(name);
		bcasts(c);
		snprintf(name, sizeof name, "bcast_split_mod%d_reversed_every_root", m);
		bad |= mpit_report(name);
		reduces(c, 1);
		snprintf(name, sizeof name, "reduce_noncommutative_split_mod%d_every_root", m);
		bad |= mpit_report(name);
		reduces(c, BIG);
		MPI_Comm_free(&c);
		snprintf(name, sizeof name, "reduce_noncommutative_40k_split_mod%d_every_root", m);
		bad |= mpit_report(name);
	}

	/* Pipelined: in node order, and interleaved (rank parity first: no
	 * node is a run, so every member exchanges on its own). */
	reduces(MPI_COMM_WORLD, HUGE);
	MPI_Comm_split(MPI_COMM_WORLD, 0, (rank % 2) * size + rank, &c);
	reduces(c, HUGE);
	MPI_Comm_free(&c);
	bad |= mpit_report("reduce_noncommutative_1m_world_and_interleaved_every_root");
	sums(MPI_COMM_WORLD, HUGE);
	MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &c);
	sums(c, HUGE);
	MPI_Comm_free(&c);
	bad |= mpit_report("reduce_sum_1m_world_and_reversed_split_every_root");
	alltoalls(MPI_COMM_WORLD);
	MPI_Comm_split(MPI_COMM_WORLD, 0, (rank % 2) * size + rank, &c);
	alltoalls(c);
	MPI_Comm_free(&c);
	MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &c);
	alltoalls(c);
	MPI_Comm_free(&c);
	bad |= mpit_report("alltoall_world_interleaved_reversed_split");

	/* Gathers through one member per node, on members in reversed and in
	 * interleaved node order (rank parity first). */
	MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &c);
	gathers(c);
	MPI_Comm_free(&c);
	MPI_Comm_split(MPI_COMM_WORLD, 0, (rank % 2) * size + rank, &c);
	gathers(c);
	MPI_Comm_free(&c);
	gathers(MPI_COMM_WORLD);
	bad |= mpit_report("gather_scatter_every_root_reversed_interleaved_world");

	MPI_Comm_group(MPI_COMM_WORLD, &wg);
	if (size > 1) {
		int last = size - 1;

		MPI_Group_excl(wg, 1, &last, &g);
	} else {
		MPI_Group_incl(wg, 1, &rank, &g);
	}
	MPI_Comm_create(MPI_COMM_WORLD, g, &c);
	if (c != MPI_COMM_NULL) {
		barriers(c);
		MPI_Comm_free(&c);
	}
	MPI_Group_free(&g);
	MPI_Group_free(&wg);
	bad |= mpit_report("barrier_world_without_last");

	MPI_Comm_dup(MPI_COMM_WORLD, &c);
	barriers(c);
	bad |= mpit_report("barrier_world_dup");
	bcasts(c);
	MPI_Comm_free(&c);
	bad |= mpit_report("bcast_world_dup_every_root");
	untyped(MPI_COMM_WORLD);
	MPI_Comm_split(MPI_COMM_WORLD, 0, (rank % 2) * size + rank, &c);
	untyped(c);
	MPI_Comm_free(&c);
	bad |= mpit_report("untyped_against_typed_data_agrees");

	MPI_Finalize();
	return bad;
}
