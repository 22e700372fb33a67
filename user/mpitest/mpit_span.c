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
 * all, against the fold in member order.
 */
#include "mpit.h"

#define ITERS 300
#define BCAST_INTS 5000

static void barriers(MPI_Comm c)
{
	int i, lo, hi;

	for (i = 0; i < ITERS; i++) {
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
 * recursive doubling rather than at the root). */
#define BIG	5000

static void reduces(MPI_Comm c, int count)
{
	static unsigned in[2 * BIG], out[2 * BIG], want[2 * BIG];
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
}

int main(int argc, char **argv)
{
	int rank, size, bad = 0, m;
	MPI_Comm c;
	MPI_Group wg, g;

	MPI_Init(&argc, &argv);
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

	MPI_Finalize();
	return bad;
}
