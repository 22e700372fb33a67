/*
 * mpit_nbc.c - nonblocking collectives (MPI_Ibarrier ... MPI_Iexscan),
 * MPI 4.0 persistent collectives and MPI_Isendrecv(_replace): results
 * against values computed here, on MPI_COMM_WORLD and on a split
 * communicator in reversed order; several in flight at once with
 * point-to-point, completed in another order; progress from Test and
 * Iprobe alone; MPI_IN_PLACE, derived datatypes, a non-commutative op.
 * The persistent collectives and MPI_Isendrecv are MPI 4.0's: another
 * MPI's mpicc needs an MPI 4 library for this program.
 */
#include <stdlib.h>
#include <string.h>
#include "mpit.h"

static int wrank, wsize, bad;

/* 2x2 matrices of unsigned (wrapping) products: associative, not commutative. */
typedef struct { unsigned m[4]; } mat;
static MPI_Datatype mat_type;
static MPI_Op mat_op;

static void mat_mul(const mat *a, mat *b)
{
	mat r;

	r.m[0] = a->m[0] * b->m[0] + a->m[1] * b->m[2];
	r.m[1] = a->m[0] * b->m[1] + a->m[1] * b->m[3];
	r.m[2] = a->m[2] * b->m[0] + a->m[3] * b->m[2];
	r.m[3] = a->m[2] * b->m[1] + a->m[3] * b->m[3];
	*b = r;
}

/* inout = in * inout: in is the left operand, as MPI's user ops have it. */
static void mat_fn(void *in, void *inout, int *len, MPI_Datatype *t)
{
	int i;

	(void)t;
	for (i = 0; i < *len; i++)
		mat_mul((mat *)in + i, (mat *)inout + i);
}

static mat mat_of(int rank, int k)
{
	mat x = { { (unsigned)rank + 2, (unsigned)k + 1, 1, (unsigned)(rank * 3 + k) } };

	return x;
}

/* M_lo * ... * M_hi (identity when hi < lo). */
static mat mat_prod(int lo, int hi, int k)
{
	mat r = { { 1, 0, 0, 1 } }, x;
	int i;

	for (i = hi; i >= lo; i--) {
		x = mat_of(i, k);
		mat_mul(&x, &r);
	}
	return r;
}

static void mat_expect(const char *what, mat want, mat got)
{
	int i;

	for (i = 0; i < 4; i++)
		mpit_expect_int(what, want.m[i], got.m[i]);
}

static void wait1(MPI_Request *r)
{
	MPI_Status st;

	MPI_Wait(r, &st);
	if (*r != MPI_REQUEST_NULL)
		mpit_fail("request not MPI_REQUEST_NULL after MPI_Wait");
}

static void t_barrier(MPI_Comm c)
{
	MPI_Request r;
	int rank, size, flag = 0, i, v;

	MPI_Comm_rank(c, &rank);
	MPI_Comm_size(c, &size);
	/* The last rank comes late: nobody's Ibarrier may complete before. */
	if (rank == size - 1) {
		for (i = 0; i < size - 1; i++)
			MPI_Send(&rank, 1, MPI_INT, i, 5, c);
		MPI_Ibarrier(c, &r);
		wait1(&r);
		return;
	}
	MPI_Ibarrier(c, &r);
	if (size > 1) {
		MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
		MPI_Recv(&v, 1, MPI_INT, size - 1, 5, c, MPI_STATUS_IGNORE);
	}
	wait1(&r);
	/* flag may be 1 only if the last rank had sent its message first. */
	(void)flag;
}

static void t_bcast(MPI_Comm c)
{
	int rank, size, root, i, buf[40];
	MPI_Datatype vec;
	MPI_Request r;

	MPI_Comm_rank(c, &rank);
	MPI_Comm_size(c, &size);
	MPI_Type_vector(10, 2, 4, MPI_INT, &vec);
	MPI_Type_commit(&vec);
	for (root = 0; root < size; root++) {
		for (i = 0; i < 40; i++)
			buf[i] = rank == root ? root * 100 + i : -1;
		MPI_Ibcast(buf, 1, vec, root, c, &r);
		wait1(&r);
		for (i = 0; i < 40; i++)
			mpit_expect_int("ibcast vector", (i % 4 < 2 || rank == root) ? root * 100 + i : -1,
					buf[i]);
	}
	MPI_Type_free(&vec);
}

static void t_gather_scatter(MPI_Comm c)
{
	int rank, size, root, i, *all, *cnt, *dsp, mine[3], got[3];
	MPI_Request r[2];

	MPI_Comm_rank(c, &rank);
	MPI_Comm_size(c, &size);
	all = malloc(4 * size * sizeof(int));
	cnt = malloc(size * sizeof(int));
	dsp = malloc(size * sizeof(int));
	for (root = 0; root < size; root++) {
		for (i = 0; i < 3; i++)
			mine[i] = rank * 10 + i;
		for (i = 0; i < 4 * size; i++)
			all[i] = -1;
		MPI_Igather(mine, 3, MPI_INT, all, 3, MPI_INT, root, c, &r[0]);
		wait1(&r[0]);
		if (rank == root)
			for (i = 0; i < 3 * size; i++)
				mpit_expect_int("igather", (i / 3) * 10 + i % 3, all[i]);
		/* v form: member i sends i % 3 + 1 values, at 4 * i. */
		for (i = 0; i < size; i++) {
			cnt[i] = i % 3 + 1;
			dsp[i] = 4 * (size - 1 - i);
		}
		for (i = 0; i < 4 * size; i++)
			all[i] = -1;
		MPI_Igatherv(mine, rank % 3 + 1, MPI_INT, all, cnt, dsp, MPI_INT, root, c, &r[0]);
		wait1(&r[0]);
		if (rank == root)
			for (i = 0; i < size; i++) {
				int k;

				for (k = 0; k < 4; k++)
					mpit_expect_int("igatherv", k < cnt[i] ? i * 10 + k : -1,
							all[dsp[i] + k]);
			}
		/* Scatter back what was gathered, and the v form, both at once. */
		for (i = 0; i < 4 * size; i++)
			all[i] = i;
		got[0] = got[1] = got[2] = -1;
		MPI_Iscatter(all, 2, MPI_INT, got, 2, MPI_INT, root, c, &r[0]);
		wait1(&r[0]);
		mpit_expect_int("iscatter 0", 2 * rank, got[0]);
		mpit_expect_int("iscatter 1", 2 * rank + 1, got[1]);
		got[0] = got[1] = got[2] = -1;
		MPI_Iscatterv(all, cnt, dsp, MPI_INT, got, rank % 3 + 1, MPI_INT, root, c, &r[1]);
		wait1(&r[1]);
		for (i = 0; i < 3; i++)
			mpit_expect_int("iscatterv", i <= rank % 3 ? dsp[rank] + i : -1, got[i]);
		/* In place at the root. */
		if (rank == root) {
			for (i = 0; i < 4 * size; i++)
				all[i] = -1;
			all[3 * root] = 7;
			all[3 * root + 1] = 8;
			all[3 * root + 2] = 9;
			MPI_Igather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 3, MPI_INT, root, c, &r[0]);
		} else {
			MPI_Igather(mine, 3, MPI_INT, NULL, 0, MPI_DATATYPE_NULL, root, c, &r[0]);
		}
		wait1(&r[0]);
		if (rank == root)
			for (i = 0; i < 3 * size; i++)
				mpit_expect_int("igather in place",
						i / 3 == root ? 7 + i % 3 : (i / 3) * 10 + i % 3, all[i]);
	}
	free(all);
	free(cnt);
	free(dsp);
}

static void t_allgather_alltoall(MPI_Comm c)
{
	int rank, size, i, k, *a, *b, *sc, *sd, *rc, *rd;
	MPI_Datatype *ty;
	MPI_Request r;

	MPI_Comm_rank(c, &rank);
	MPI_Comm_size(c, &size);
	a = malloc(8 * size * sizeof(int));
	b = malloc(8 * size * sizeof(int));
	sc = malloc(4 * size * sizeof(int));
	sd = sc + size;
	rc = sd + size;
	rd = rc + size;
	ty = malloc(size * sizeof *ty);
	a[0] = rank;
	a[1] = -rank;
	MPI_Iallgather(a, 2, MPI_INT, b, 2, MPI_INT, c, &r);
	wait1(&r);
	for (i = 0; i < size; i++) {
		mpit_expect_int("iallgather", i, b[2 * i]);
		mpit_expect_int("iallgather", -i, b[2 * i + 1]);
	}
	for (i = 0; i < size; i++)
		b[i] = i == rank ? rank * 7 : -1;
	MPI_Iallgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, b, 1, MPI_INT, c, &r);
	wait1(&r);
	for (i = 0; i < size; i++)
		mpit_expect_int("iallgather in place", i * 7, b[i]);
	for (i = 0; i < size; i++) {
		rc[i] = i % 2 + 1;
		rd[i] = 3 * i;
	}
	for (i = 0; i < 3 * size; i++)
		b[i] = -1;
	a[0] = rank + 100;
	a[1] = rank + 200;
	MPI_Iallgatherv(a, rank % 2 + 1, MPI_INT, b, rc, rd, MPI_INT, c, &r);
	wait1(&r);
	for (i = 0; i < size; i++)
		for (k = 0; k < 3; k++)
			mpit_expect_int("iallgatherv", k < rc[i] ? i + 100 * (k + 1) : -1, b[3 * i + k]);
	/* Alltoall: block for j is rank * 1000 + j. */
	for (i = 0; i < size; i++)
		a[i] = rank * 1000 + i;
	MPI_Ialltoall(a, 1, MPI_INT, b, 1, MPI_INT, c, &r);
	wait1(&r);
	for (i = 0; i < size; i++)
		mpit_expect_int("ialltoall", i * 1000 + rank, b[i]);
	for (i = 0; i < size; i++)
		b[i] = rank * 1000 + i;
	MPI_Ialltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, b, 1, MPI_INT, c, &r);
	wait1(&r);
	for (i = 0; i < size; i++)
		mpit_expect_int("ialltoall in place", i * 1000 + rank, b[i]);
	/* Alltoallv: rank sends (j % 2 + 1) values to j, receives (rank % 2 + 1). */
	for (i = 0; i < size; i++) {
		sc[i] = i % 2 + 1;
		sd[i] = 2 * i;
		rc[i] = rank % 2 + 1;
		rd[i] = 3 * (size - 1 - i);
		a[2 * i] = rank * 100 + i;
		a[2 * i + 1] = -(rank * 100 + i);
	}
	for (i = 0; i < 3 * size; i++)
		b[i] = 12345;
	MPI_Ialltoallv(a, sc, sd, MPI_INT, b, rc, rd, MPI_INT, c, &r);
	wait1(&r);
	for (i = 0; i < size; i++)
		for (k = 0; k < 3; k++)
			mpit_expect_int("ialltoallv",
					k >= rc[i] ? 12345 : k == 0 ? i * 100 + rank : -(i * 100 + rank),
					b[3 * (size - 1 - i) + k]);
	/* Alltoallw with byte displacements and a type per peer: to odd
	 * peers two ints as one MPI_2INT-sized contiguous type. */
	for (i = 0; i < size; i++) {
		sc[i] = 2;
		sd[i] = 2 * i * (int)sizeof(int);
		rc[i] = 2;
		rd[i] = 2 * (size - 1 - i) * (int)sizeof(int);
		ty[i] = MPI_INT;
		a[2 * i] = rank + i;
		a[2 * i + 1] = rank * i;
	}
	MPI_Ialltoallw(a, sc, sd, ty, b, rc, rd, ty, c, &r);
	wait1(&r);
	for (i = 0; i < size; i++) {
		mpit_expect_int("ialltoallw", i + rank, b[2 * (size - 1 - i)]);
		mpit_expect_int("ialltoallw", i * rank, b[2 * (size - 1 - i) + 1]);
	}
	free(a);
	free(b);
	free(sc);
	free(ty);
}

static void t_reduce(MPI_Comm c)
{
	int rank, size, root, i, v[5], s[5];
	mat m[2], res[2];
	MPI_Request r[2];

	MPI_Comm_rank(c, &rank);
	MPI_Comm_size(c, &size);
	for (root = 0; root < size; root++) {
		for (i = 0; i < 5; i++) {
			v[i] = rank * (i + 1) + root;
			s[i] = -1;
		}
		m[0] = mat_of(rank, root);
		m[1] = mat_of(rank, root + 1);
		MPI_Ireduce(v, s, 5, MPI_INT, MPI_SUM, root, c, &r[0]);
		MPI_Ireduce(m, res, 2, mat_type, mat_op, root, c, &r[1]);
		MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
		if (rank == root) {
			for (i = 0; i < 5; i++)
				mpit_expect_int("ireduce sum", (i + 1) * size * (size - 1) / 2 + size * root,
						s[i]);
			mat_expect("ireduce non-commutative", mat_prod(0, size - 1, root), res[0]);
			mat_expect("ireduce non-commutative", mat_prod(0, size - 1, root + 1), res[1]);
		}
		/* In place at the root. */
		if (rank == root) {
			res[0] = mat_of(rank, 3);
			MPI_Ireduce(MPI_IN_PLACE, res, 1, mat_type, mat_op, root, c, &r[0]);
		} else {
			m[0] = mat_of(rank, 3);
			MPI_Ireduce(m, NULL, 1, mat_type, mat_op, root, c, &r[0]);
		}
		wait1(&r[0]);
		if (rank == root)
			mat_expect("ireduce in place", mat_prod(0, size - 1, 3), res[0]);
	}
}

/* MPI lets a user op be freed while a reduction that uses it is pending. */
static void t_op_freed(MPI_Comm c)
{
	int rank, size;
	MPI_Op op;
	MPI_Request r;
	mat m, res;

	MPI_Comm_rank(c, &rank);
	MPI_Comm_size(c, &size);
	MPI_Op_create(mat_fn, 0, &op);
	m = mat_of(rank, 2);
	MPI_Iallreduce(&m, &res, 1, mat_type, op, c, &r);
	MPI_Op_free(&op);
	wait1(&r);
	mat_expect("iallreduce with its op freed", mat_prod(0, size - 1, 2), res);
}

static void t_allreduce(MPI_Comm c)
{
	int rank, size, i, n = 1000;
	double *d = malloc(n * sizeof(double)), *e = malloc(n * sizeof(double));
	mat m, res;
	MPI_Request r[2];

	MPI_Comm_rank(c, &rank);
	MPI_Comm_size(c, &size);
	for (i = 0; i < n; i++)
		d[i] = rank + i * 0.5;
	MPI_Iallreduce(d, e, n, MPI_DOUBLE, MPI_SUM, c, &r[0]);
	m = mat_of(rank, 9);
	MPI_Iallreduce(&m, &res, 1, mat_type, mat_op, c, &r[1]);
	MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
	for (i = 0; i < n; i++)
		if (e[i] != size * (size - 1) / 2.0 + size * i * 0.5) {
			mpit_fail("iallreduce double [%d]: %g", i, e[i]);
			break;
		}
	mat_expect("iallreduce non-commutative", mat_prod(0, size - 1, 9), res);
	for (i = 0; i < n; i++)
		e[i] = rank;
	MPI_Iallreduce(MPI_IN_PLACE, e, n, MPI_DOUBLE, MPI_MAX, c, &r[0]);
	wait1(&r[0]);
	mpit_expect_int("iallreduce in place max", size - 1, (int)e[n - 1]);
	free(d);
	free(e);
}

/* Vectors big enough to be folded by blocks (64 KiB a member's block on
 * up to 8 members, blocks of unequal length), with a non-commutative op,
 * in place and not. */
static void t_allreduce_blocks(MPI_Comm c)
{
	int rank, size, i, k, n = 8 * 8192 + 3, nm = 8 * 4096 + 1;
	double *d = malloc(n * sizeof(double)), *e = malloc(n * sizeof(double));
	mat *m = malloc(nm * sizeof(mat)), *res = malloc(nm * sizeof(mat));
	MPI_Request r[2];

	MPI_Comm_rank(c, &rank);
	MPI_Comm_size(c, &size);
	for (k = 0; k < 2; k++) {
		for (i = 0; i < n; i++)
			e[i] = d[i] = rank * 3 + i * 0.25;
		for (i = 0; i < nm; i++)
			res[i] = m[i] = mat_of(rank, i);
		MPI_Iallreduce(k ? MPI_IN_PLACE : d, e, n, MPI_DOUBLE, MPI_SUM, c, &r[0]);
		MPI_Iallreduce(k ? MPI_IN_PLACE : (void *)m, res, nm, mat_type, mat_op, c, &r[1]);
		MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
		for (i = 0; i < n; i++)
			if (e[i] != 3.0 * size * (size - 1) / 2 + size * i * 0.25) {
				mpit_fail("iallreduce by blocks%s [%d]: %g", k ? " in place" : "", i,
					  e[i]);
				break;
			}
		for (i = 0; i < nm; i++) {
			mat want = mat_prod(0, size - 1, i);

			if (memcmp(&want, &res[i], sizeof want)) {
				mpit_fail("iallreduce by blocks, non-commutative%s [%d]",
					  k ? " in place" : "", i);
				break;
			}
		}
	}
	/* Persistent, in place, started twice with new inputs. */
	MPI_Allreduce_init(MPI_IN_PLACE, e, n, MPI_DOUBLE, MPI_SUM, c, MPI_INFO_NULL, &r[0]);
	for (k = 0; k < 2; k++) {
		for (i = 0; i < n; i++)
			e[i] = rank * (k + 1) + i * 0.5;
		MPI_Start(&r[0]);
		MPI_Wait(&r[0], MPI_STATUS_IGNORE);
		for (i = 0; i < n; i++)
			if (e[i] != (k + 1.0) * size * (size - 1) / 2 + size * i * 0.5) {
				mpit_fail("allreduce_init by blocks, start %d [%d]: %g", k, i, e[i]);
				break;
			}
	}
	MPI_Request_free(&r[0]);
	free(d);
	free(e);
	free(m);
	free(res);
}

static void t_reduce_scatter_scan(MPI_Comm c)
{
	int rank, size, i, *v, *cnt, out[4];
	mat m, res;
	MPI_Request r[3];

	MPI_Comm_rank(c, &rank);
	MPI_Comm_size(c, &size);
	v = malloc(3 * size * sizeof(int));
	cnt = malloc(size * sizeof(int));
	for (i = 0; i < 3 * size; i++)
		v[i] = rank + i;
	for (i = 0; i < size; i++)
		cnt[i] = i % 3 + 1;
	MPI_Ireduce_scatter(v, out, cnt, MPI_INT, MPI_SUM, c, &r[0]);
	wait1(&r[0]);
	{
		int off = 0;

		for (i = 0; i < rank; i++)
			off += cnt[i];
		for (i = 0; i < cnt[rank]; i++)
			mpit_expect_int("ireduce_scatter", size * (size - 1) / 2 + size * (off + i),
					out[i]);
	}
	MPI_Ireduce_scatter_block(v, out, 2, MPI_INT, MPI_SUM, c, &r[0]);
	wait1(&r[0]);
	for (i = 0; i < 2; i++)
		mpit_expect_int("ireduce_scatter_block", size * (size - 1) / 2 + size * (2 * rank + i),
				out[i]);
	/* In place: the input is the whole receive buffer. */
	for (i = 0; i < 2 * size; i++)
		v[i] = rank * i;
	MPI_Ireduce_scatter_block(MPI_IN_PLACE, v, 2, MPI_INT, MPI_SUM, c, &r[0]);
	wait1(&r[0]);
	for (i = 0; i < 2; i++)
		mpit_expect_int("ireduce_scatter_block in place",
				(2 * rank + i) * size * (size - 1) / 2, v[i]);
	/* Scans, both at once, with a non-commutative op. */
	m = mat_of(rank, 4);
	MPI_Iscan(&m, &res, 1, mat_type, mat_op, c, &r[0]);
	i = rank + 1;
	MPI_Iexscan(&i, &out[0], 1, MPI_INT, MPI_SUM, c, &r[1]);
	MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
	mat_expect("iscan non-commutative", mat_prod(0, rank, 4), res);
	if (rank > 0)
		mpit_expect_int("iexscan", rank * (rank + 1) / 2, out[0]);
	m = mat_of(rank, 6);
	MPI_Iexscan(MPI_IN_PLACE, &m, 1, mat_type, mat_op, c, &r[0]);
	wait1(&r[0]);
	if (rank > 0)
		mat_expect("iexscan non-commutative in place", mat_prod(0, rank - 1, 6), m);
	free(v);
	free(cnt);
}

/* Reduce of vectors folded by blocks (64 KiB a member's block on up to 8
 * members) with a non-commutative op, to the last member and, in place,
 * to the first. */
static void t_reduce_blocks(MPI_Comm c)
{
	int rank, size, i, k, nm = 8 * 4096 + 5;
	mat *m = malloc(nm * sizeof(mat)), *res = malloc(nm * sizeof(mat));
	MPI_Request r;

	MPI_Comm_rank(c, &rank);
	MPI_Comm_size(c, &size);
	for (k = 0; k < 2; k++) {
		int root = k ? 0 : size - 1, in_place = k && rank == root;

		for (i = 0; i < nm; i++)
			res[i] = m[i] = mat_of(rank, i + k);
		MPI_Ireduce(in_place ? MPI_IN_PLACE : (void *)m, res, nm, mat_type, mat_op, root, c,
			    &r);
		wait1(&r);
		for (i = 0; rank == root && i < nm; i++) {
			mat want = mat_prod(0, size - 1, i + k);

			if (memcmp(&want, &res[i], sizeof want)) {
				mpit_fail("ireduce by blocks to %d%s [%d]", root,
					  in_place ? " in place" : "", i);
				break;
			}
		}
	}
	free(m);
	free(res);
}

/* Reduce_scatter of vectors folded by blocks (64 KiB a member's block),
 * with a non-commutative op: the block form in place and not, and the v
 * form with unequal blocks. */
static void t_reduce_scatter_blocks(MPI_Comm c)
{
	int rank, size, i, k, per = 4096, *cnt, lo = 0, total = 0;
	mat *v, *out;
	MPI_Request r;

	MPI_Comm_rank(c, &rank);
	MPI_Comm_size(c, &size);
	cnt = malloc(size * sizeof(int));
	for (i = 0; i < size; i++) {
		cnt[i] = per + 3 * i;
		if (i < rank)
			lo += cnt[i];
		total += cnt[i];
	}
	v = malloc(total * sizeof(mat));
	out = malloc((per + 3 * size) * sizeof(mat));
	for (k = 0; k < 3; k++) {
		int n = k == 2 ? cnt[rank] : per, at = k == 2 ? lo : rank * per;
		const char *what = k == 0 ? "ireduce_scatter_block by blocks" :
				   k == 1 ? "ireduce_scatter_block by blocks in place" :
					    "ireduce_scatter by blocks";

		for (i = 0; i < total; i++)
			v[i] = mat_of(rank, i);
		if (k == 0)
			MPI_Ireduce_scatter_block(v, out, per, mat_type, mat_op, c, &r);
		else if (k == 1)
			MPI_Ireduce_scatter_block(MPI_IN_PLACE, v, per, mat_type, mat_op, c, &r);
		else
			MPI_Ireduce_scatter(v, out, cnt, mat_type, mat_op, c, &r);
		wait1(&r);
		for (i = 0; i < n; i++) {
			mat want = mat_prod(0, size - 1, at + i);

			if (memcmp(&want, k == 1 ? &v[i] : &out[i], sizeof want)) {
				mpit_fail("%s [%d]", what, i);
				break;
			}
		}
	}
	free(v);
	free(out);
	free(cnt);
}

/* Several collectives and point-to-point in flight at once, completed in
 * reverse order; then progress from MPI_Test alone and MPI_Iprobe alone. */
static void t_overlap(void)
{
	int rank = wrank, size = wsize, i, flag, b = -1, sum, x, y = -1;
	double t0;
	int big = 1 << 16, *d = malloc(big * sizeof(int)), *e = malloc(big * sizeof(int));
	MPI_Request r[5];

	for (i = 0; i < big; i++)
		d[i] = i + rank;
	x = rank;
	MPI_Iallreduce(d, e, big, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[0]);
	if (rank == 0)
		b = 42;
	MPI_Ibcast(&b, 1, MPI_INT, 0, MPI_COMM_WORLD, &r[1]);
	MPI_Ibarrier(MPI_COMM_WORLD, &r[2]);
	MPI_Irecv(&y, 1, MPI_INT, (rank + size - 1) % size, 3, MPI_COMM_WORLD, &r[3]);
	MPI_Isend(&x, 1, MPI_INT, (rank + 1) % size, 3, MPI_COMM_WORLD, &r[4]);
	for (i = 4; i >= 0; i--)
		MPI_Wait(&r[i], MPI_STATUS_IGNORE);
	for (i = 0; i < big; i++)
		if (e[i] != size * i + size * (size - 1) / 2) {
			mpit_fail("allreduce in flight [%d]: %d", i, e[i]);
			break;
		}
	mpit_expect_int("ibcast in flight", 42, b);
	mpit_expect_int("irecv in flight", (rank + size - 1) % size, y);
	bad |= mpit_report("nbc_in_flight_with_p2p");

	x = rank + 1;
	MPI_Iallreduce(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[0]);
	for (flag = 0; !flag;)
		MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE);
	mpit_expect_int("iallreduce by test", size * (size + 1) / 2, sum);
	bad |= mpit_report("nbc_progress_by_test");

	/* Iprobe and Request_get_status, which leaves the request active. */
	MPI_Iallreduce(d, e, big, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &r[0]);
	t0 = MPI_Wtime();
	do {
		MPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
		MPI_Request_get_status(r[0], &flag, MPI_STATUS_IGNORE);
	} while (!flag && MPI_Wtime() - t0 < 30);
	if (!flag)
		mpit_fail("iallreduce not complete after 30 s of MPI_Iprobe");
	if (r[0] == MPI_REQUEST_NULL)
		mpit_fail("MPI_Request_get_status freed the request");
	MPI_Wait(&r[0], MPI_STATUS_IGNORE);
	mpit_expect_int("iallreduce by iprobe", big - 1 + size - 1, e[big - 1]);
	bad |= mpit_report("nbc_progress_by_iprobe_get_status");
	free(d);
	free(e);
}

/*
 * A blocking collective runs progress while it waits: here the last rank
 * waits for its Ibcast (forwarded by a middle rank of the tree) before it
 * joins a Barrier the others are already in, and rank 0, which every
 * Iallreduce goes through, sits in an Allreduce while the others wait for
 * the Iallreduce.  On a communicator in reversed order, which is never
 * the job-wide one (whose barrier across nodes is the wire's, see
 * docs/mpi.md).
 */
static void t_blocking_progress(void)
{
	int rank, size, b, x, s = -1, t = -1;
	MPI_Request r;
	MPI_Comm c;

	MPI_Comm_split(MPI_COMM_WORLD, 0, -wrank, &c);
	MPI_Comm_rank(c, &rank);
	MPI_Comm_size(c, &size);
	b = rank == 0 ? 1234 : -1;
	MPI_Ibcast(&b, 1, MPI_INT, 0, c, &r);
	if (rank == size - 1) {
		MPI_Wait(&r, MPI_STATUS_IGNORE);
		MPI_Barrier(c);
	} else {
		MPI_Barrier(c);
		MPI_Wait(&r, MPI_STATUS_IGNORE);
	}
	mpit_expect_int("ibcast across a barrier", 1234, b);
	x = rank + 1;
	MPI_Iallreduce(&x, &s, 1, MPI_INT, MPI_SUM, c, &r);
	if (rank == 0) {
		MPI_Allreduce(&x, &t, 1, MPI_INT, MPI_MAX, c);
		MPI_Wait(&r, MPI_STATUS_IGNORE);
	} else {
		MPI_Wait(&r, MPI_STATUS_IGNORE);
		MPI_Allreduce(&x, &t, 1, MPI_INT, MPI_MAX, c);
	}
	mpit_expect_int("iallreduce across an allreduce", size * (size + 1) / 2, s);
	mpit_expect_int("allreduce beside an iallreduce", size, t);
	MPI_Comm_free(&c);
	bad |= mpit_report("nbc_progress_in_blocking_collectives");
}

static void t_persistent(void)
{
	int rank = wrank, size = wsize, i, x, sum, b, round;
	MPI_Request r[3];
	mat m, res;

	MPI_Allreduce_init(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]);
	MPI_Bcast_init(&b, 1, MPI_INT, size - 1, MPI_COMM_WORLD, MPI_INFO_NULL, &r[1]);
	MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &r[2]);
	for (round = 0; round < 4; round++) {
		x = rank * round;
		b = rank == size - 1 ? round + 77 : -1;
		MPI_Startall(3, r);
		MPI_Waitall(3, r, MPI_STATUSES_IGNORE);
		for (i = 0; i < 3; i++)
			if (r[i] == MPI_REQUEST_NULL)
				mpit_fail("persistent request %d became MPI_REQUEST_NULL", i);
		mpit_expect_int("allreduce_init", round * size * (size - 1) / 2, sum);
		mpit_expect_int("bcast_init", round + 77, b);
	}
	for (i = 0; i < 3; i++)
		MPI_Request_free(&r[i]);
	bad |= mpit_report("persistent_allreduce_bcast_barrier");

	MPI_Scan_init(&m, &res, 1, mat_type, mat_op, MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]);
	for (round = 0; round < 3; round++) {
		m = mat_of(rank, round);
		MPI_Start(&r[0]);
		MPI_Wait(&r[0], MPI_STATUS_IGNORE);
		mat_expect("scan_init non-commutative", mat_prod(0, rank, round), res);
	}
	MPI_Request_free(&r[0]);
	bad |= mpit_report("persistent_scan_noncommutative");
}

static void t_isendrecv(void)
{
	int rank = wrank, size = wsize, x = rank * 3, y = -1, count;
	int next = (rank + 1) % size, prev = (rank + size - 1) % size;
	MPI_Request r;
	MPI_Status st;

	/* Any source, not any tag: other ranks' verdicts may reach rank 0 first. */
	MPI_Isendrecv(&x, 1, MPI_INT, next, 11, &y, 1, MPI_INT, MPI_ANY_SOURCE, 11,
		      MPI_COMM_WORLD, &r);
	MPI_Wait(&r, &st);
	mpit_expect_int("isendrecv value", prev * 3, y);
	mpit_expect_int("isendrecv source", prev, st.MPI_SOURCE);
	mpit_expect_int("isendrecv tag", 11, st.MPI_TAG);
	MPI_Get_count(&st, MPI_INT, &count);
	mpit_expect_int("isendrecv count", 1, count);
	x = rank + 500;
	MPI_Isendrecv_replace(&x, 1, MPI_INT, prev, 12, next, 12, MPI_COMM_WORLD, &r);
	MPI_Wait(&r, &st);
	mpit_expect_int("isendrecv_replace", next + 500, x);
	mpit_expect_int("isendrecv_replace source", next, st.MPI_SOURCE);
	MPI_Isendrecv(&x, 1, MPI_INT, MPI_PROC_NULL, 0, &y, 1, MPI_INT, MPI_PROC_NULL, 0,
		      MPI_COMM_WORLD, &r);
	MPI_Wait(&r, &st);
	mpit_expect_int("isendrecv proc_null source", MPI_PROC_NULL, st.MPI_SOURCE);
	bad |= mpit_report("isendrecv_ring");
}

static void t_errors(void)
{
	MPI_Request r = MPI_REQUEST_NULL;
	int x = 0, err, cls;

	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	err = MPI_Ibcast(&x, 1, MPI_INT, wsize, MPI_COMM_WORLD, &r);
	MPI_Error_class(err, &cls);
	mpit_expect_int("ibcast bad root", MPI_ERR_ROOT, cls);
	err = MPI_Iallreduce(&x, &x, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);
	MPI_Error_class(err, &cls);
	mpit_expect_int("iallreduce negative count", MPI_ERR_COUNT, cls);
	err = MPI_Ireduce(&x, &x, 1, MPI_C_BOOL, MPI_SUM, 0, MPI_COMM_WORLD, &r);
	MPI_Error_class(err, &cls);
	mpit_expect_int("ireduce sum on bool", MPI_ERR_OP, cls);
	if (r != MPI_REQUEST_NULL)
		mpit_fail("a failed call set the request");
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	bad |= mpit_report("nbc_errors_return");
}

int main(int argc, char **argv)
{
	int pass;
	MPI_Comm c;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
	MPI_Comm_size(MPI_COMM_WORLD, &wsize);
	MPI_Type_contiguous(4, MPI_UNSIGNED, &mat_type);
	MPI_Type_commit(&mat_type);
	MPI_Op_create(mat_fn, 0, &mat_op);

	for (pass = 0; pass < 2; pass++) {
		const char *cn = pass ? "split_reversed" : "world";
		char name[80];

		if (pass)
			MPI_Comm_split(MPI_COMM_WORLD, wrank % 2, -wrank, &c);
		else
			c = MPI_COMM_WORLD;
#define REPORT(what) do { snprintf(name, sizeof name, "%s_%s", what, cn); bad |= mpit_report(name); } while (0)
		t_barrier(c);
		REPORT("ibarrier");
		t_bcast(c);
		REPORT("ibcast_vector_every_root");
		t_gather_scatter(c);
		REPORT("igather_iscatter_v_in_place");
		t_allgather_alltoall(c);
		REPORT("iallgather_ialltoall_vw_in_place");
		t_reduce(c);
		REPORT("ireduce_every_root_noncommutative");
		t_allreduce(c);
		REPORT("iallreduce");
		t_allreduce_blocks(c);
		REPORT("iallreduce_by_blocks_noncommutative_in_place");
		t_op_freed(c);
		REPORT("iallreduce_user_op_freed_before_wait");
		t_reduce_scatter_scan(c);
		REPORT("ireduce_scatter_iscan_iexscan");
		t_reduce_scatter_blocks(c);
		REPORT("ireduce_scatter_by_blocks_noncommutative_in_place");
		t_reduce_blocks(c);
		REPORT("ireduce_by_blocks_noncommutative_in_place");
		if (pass)
			MPI_Comm_free(&c);
	}
	t_overlap();
	t_blocking_progress();
	t_persistent();
	t_isendrecv();
	t_errors();
	MPI_Op_free(&mat_op);
	MPI_Type_free(&mat_type);
	MPI_Finalize();
	return bad;
}
