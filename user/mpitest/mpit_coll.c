/*
 * mpit_coll.c - collectives on MPI_COMM_WORLD and on a split communicator
 * (halves in reversed order): every predefined op on every type it applies
 * to against a serial reference, MPI_IN_PLACE, the v/w forms, user ops
 * (commutative and not), MINLOC/MAXLOC, a non-contiguous datatype; and
 * MPI_Comm_free called before a barrier on one rank, after it on the
 * others (it must not wait for them).
 */
#include <stdlib.h>
#include "mpit.h"

#define COUNT 37

static int wrank, wsize;

struct ty {
	MPI_Datatype t;
	const char *name;
	int size, is_float, bits;
};

static struct ty types[] = {
	{ MPI_INT, "int", sizeof(int), 0, 1 },
	{ MPI_UNSIGNED, "unsigned", sizeof(unsigned), 0, 1 },
	{ MPI_LONG, "long", sizeof(long), 0, 1 },
	{ MPI_SHORT, "short", sizeof(short), 0, 1 },
	{ MPI_SIGNED_CHAR, "signed_char", 1, 0, 1 },
	{ MPI_UINT8_T, "uint8", 1, 0, 1 },
	{ MPI_INT64_T, "int64", 8, 0, 1 },
	{ MPI_UNSIGNED_LONG_LONG, "ull", 8, 0, 1 },
	{ MPI_FLOAT, "float", sizeof(float), 1, 0 },
	{ MPI_DOUBLE, "double", sizeof(double), 1, 0 },
	{ MPI_LONG_DOUBLE, "long_double", sizeof(long double), 1, 0 },
};

static void put(const struct ty *t, void *b, int i, long long v)
{
	switch (t->size * 2 + t->is_float) {
	case 2: ((signed char *)b)[i] = v; break;
	case 4: ((short *)b)[i] = v; break;
	case 8: ((int *)b)[i] = v; break;
	case 9: ((float *)b)[i] = v; break;
	case 16: ((long long *)b)[i] = v; break;
	case 17: ((double *)b)[i] = v; break;
	case 33: ((long double *)b)[i] = v; break;
	}
	if (t->t == MPI_UINT8_T)
		((unsigned char *)b)[i] = v;
}

static long long get(const struct ty *t, const void *b, int i)
{
	if (t->t == MPI_UINT8_T)
		return ((const unsigned char *)b)[i];
	switch (t->size * 2 + t->is_float) {
	case 2: return ((const signed char *)b)[i];
	case 4: return ((const short *)b)[i];
	case 8: return t->t == MPI_UNSIGNED ? (long long)((const unsigned *)b)[i] : ((const int *)b)[i];
	case 9: return ((const float *)b)[i];
	case 16: return ((const long long *)b)[i];
	case 17: return ((const double *)b)[i];
	case 33: return ((const long double *)b)[i];
	}
	return 0;
}

/* Rank r's element i: small values so every op is exact in every type. */
static long long val(int r, int i)
{
	return 1 + (r * 3 + i) % 3;
}

struct opdef {
	MPI_Op op;
	const char *name;
	int bits_only;
};

static struct opdef ops[] = {
	{ MPI_MAX, "max", 0 }, { MPI_MIN, "min", 0 }, { MPI_SUM, "sum", 0 },
	{ MPI_PROD, "prod", 0 }, { MPI_LAND, "land", 1 }, { MPI_LOR, "lor", 1 },
	{ MPI_LXOR, "lxor", 1 }, { MPI_BAND, "band", 1 }, { MPI_BOR, "bor", 1 },
	{ MPI_BXOR, "bxor", 1 },
};

static long long ref(const struct opdef *o, int n, int i, int upto)
{
	long long a = val(0, i), b;
	int r;

	for (r = 1; r < n && r <= upto; r++) {
		b = val(r, i);
		if (o->op == MPI_MAX) a = a > b ? a : b;
		else if (o->op == MPI_MIN) a = a < b ? a : b;
		else if (o->op == MPI_SUM) a += b;
		else if (o->op == MPI_PROD) a *= b;
		else if (o->op == MPI_LAND) a = a && b;
		else if (o->op == MPI_LOR) a = a || b;
		else if (o->op == MPI_LXOR) a = !a != !b;
		else if (o->op == MPI_BAND) a &= b;
		else if (o->op == MPI_BOR) a |= b;
		else a ^= b;
	}
	return a;
}

/* Products of 8 values up to 3 overflow 8- and 16-bit types. */
static int op_fits(const struct opdef *o, const struct ty *t, int n)
{
	if (o->bits_only && !t->bits)
		return 0;
	if (o->op == MPI_PROD && t->size < 4 && n > 4)
		return 0;
	return 1;
}

static void test_reductions(MPI_Comm c, const char *cname)
{
	int n, me, k, j, i, root;
	char name[128];

	MPI_Comm_size(c, &n);
	MPI_Comm_rank(c, &me);
	root = n - 1;
	for (k = 0; k < (int)(sizeof types / sizeof types[0]); k++) {
		struct ty *t = &types[k];
		char *s = malloc(COUNT * 16), *r = malloc(COUNT * 16 * n);

		for (j = 0; j < (int)(sizeof ops / sizeof ops[0]); j++) {
			struct opdef *o = &ops[j];

			if (!op_fits(o, t, n))
				continue;
			for (i = 0; i < COUNT; i++)
				put(t, s, i, val(me, i));
			MPI_Allreduce(s, r, COUNT, t->t, o->op, c);
			for (i = 0; i < COUNT; i++)
				if (get(t, r, i) != ref(o, n, i, n)) {
					mpit_fail("allreduce %s %s element %d: expected %lld, got %lld",
						  o->name, t->name, i, ref(o, n, i, n), get(t, r, i));
					break;
				}
			memset(r, 0, COUNT * 16);
			MPI_Reduce(s, r, COUNT, t->t, o->op, root, c);
			for (i = 0; me == root && i < COUNT; i++)
				if (get(t, r, i) != ref(o, n, i, n)) {
					mpit_fail("reduce %s %s element %d: expected %lld, got %lld",
						  o->name, t->name, i, ref(o, n, i, n), get(t, r, i));
					break;
				}
			MPI_Scan(s, r, COUNT, t->t, o->op, c);
			for (i = 0; i < COUNT; i++)
				if (get(t, r, i) != ref(o, n, i, me)) {
					mpit_fail("scan %s %s element %d: expected %lld, got %lld",
						  o->name, t->name, i, ref(o, n, i, me), get(t, r, i));
					break;
				}
		}
		free(s);
		free(r);
	}
	snprintf(name, sizeof name, "coll_%s_every_op_and_type_allreduce_reduce_scan", cname);
	mpit_report(name);
}

static void test_in_place_and_scatter_reductions(MPI_Comm c, const char *cname)
{
	int n, me, i, b[64], out[64], *counts;
	char name[128];

	MPI_Comm_size(c, &n);
	MPI_Comm_rank(c, &me);
	for (i = 0; i < 64; i++)
		b[i] = me + i;
	MPI_Allreduce(MPI_IN_PLACE, b, 64, MPI_INT, MPI_SUM, c);
	for (i = 0; i < 64; i++)
		mpit_expect_int("in-place allreduce", n * (n - 1) / 2 + n * i, b[i]);
	for (i = 0; i < 64; i++)
		b[i] = me + i;
	MPI_Reduce(me == 0 ? MPI_IN_PLACE : b, me == 0 ? b : NULL, 64, MPI_INT, MPI_MAX, 0, c);
	if (me == 0)
		mpit_expect_int("in-place reduce at root", n - 1 + 63, b[63]);
	for (i = 0; i < 64; i++)
		b[i] = i;
	MPI_Reduce_scatter_block(b, out, 64 / n, MPI_INT, MPI_SUM, c);
	for (i = 0; i < 64 / n; i++)
		mpit_expect_int("reduce_scatter_block", n * (me * (64 / n) + i), out[i]);
	counts = malloc(n * sizeof *counts);
	for (i = 0; i < n; i++)
		counts[i] = i + 1;
	MPI_Reduce_scatter(b, out, counts, MPI_INT, MPI_SUM, c);
	for (i = 0; i < me + 1; i++)
		mpit_expect_int("reduce_scatter", n * (me * (me + 1) / 2 + i), out[i]);
	free(counts);
	b[0] = me + 1;
	MPI_Exscan(MPI_IN_PLACE, b, 1, MPI_INT, MPI_SUM, c);
	if (me > 0)
		mpit_expect_int("in-place exscan", me * (me + 1) / 2, b[0]);
	snprintf(name, sizeof name, "coll_%s_in_place_exscan_reduce_scatter", cname);
	mpit_report(name);
}

static void test_movement(MPI_Comm c, const char *cname)
{
	int n, me, i, j, root;
	int *s, *r, *cnt, *dsp, *rcnt, *rdsp;
	char name[128];
	MPI_Datatype *tys;

	MPI_Comm_size(c, &n);
	MPI_Comm_rank(c, &me);
	root = n / 2;
	s = malloc(n * 8 * sizeof *s);
	r = malloc(n * 8 * sizeof *r);
	cnt = malloc(n * sizeof *cnt);
	dsp = malloc(n * sizeof *dsp);
	rcnt = malloc(n * sizeof *rcnt);
	rdsp = malloc(n * sizeof *rdsp);
	tys = malloc(n * sizeof *tys);
	for (i = 0; i < 8; i++)
		s[i] = me == root ? 1000 + i : -1;
	MPI_Bcast(s, 8, MPI_INT, root, c);
	mpit_expect_int("bcast", 1007, s[7]);
	for (i = 0; i < 3; i++)
		s[i] = me * 10 + i;
	MPI_Gather(s, 3, MPI_INT, r, 3, MPI_INT, root, c);
	for (i = 0; me == root && i < 3 * n; i++)
		mpit_expect_int("gather", (i / 3) * 10 + i % 3, r[i]);
	MPI_Allgather(s, 3, MPI_INT, r, 3, MPI_INT, c);
	for (i = 0; i < 3 * n; i++)
		mpit_expect_int("allgather", (i / 3) * 10 + i % 3, r[i]);
	for (i = 0; i < 3 * n; i++)
		r[i] = i / 3 == me ? me * 10 + i % 3 : -1;
	MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, r, 3, MPI_INT, c);
	for (i = 0; i < 3 * n; i++)
		mpit_expect_int("in-place allgather", (i / 3) * 10 + i % 3, r[i]);
	for (i = 0; i < 2 * n; i++)
		s[i] = i;
	MPI_Scatter(s, 2, MPI_INT, r, 2, MPI_INT, root, c);
	mpit_expect_int("scatter", 2 * me + 1, r[1]);
	/* v forms: rank i contributes i + 1 elements, packed in reverse order. */
	for (i = 0, j = 0; i < n; i++) {
		cnt[i] = i + 1;
		j += cnt[i];
	}
	for (i = n - 1, j = 0; i >= 0; i--) {
		dsp[i] = j;
		j += cnt[i];
	}
	for (i = 0; i < me + 1; i++)
		s[i] = me * 100 + i;
	MPI_Gatherv(s, me + 1, MPI_INT, r, cnt, dsp, MPI_INT, root, c);
	for (i = 0; me == root && i < n; i++)
		for (j = 0; j < cnt[i]; j++)
			mpit_expect_int("gatherv", i * 100 + j, r[dsp[i] + j]);
	MPI_Allgatherv(s, me + 1, MPI_INT, r, cnt, dsp, MPI_INT, c);
	for (i = 0; i < n; i++)
		for (j = 0; j < cnt[i]; j++)
			mpit_expect_int("allgatherv", i * 100 + j, r[dsp[i] + j]);
	MPI_Scatterv(r, cnt, dsp, MPI_INT, s, me + 1, MPI_INT, root, c);
	mpit_expect_int("scatterv", me * 100 + me, s[me]);
	for (i = 0; i < n; i++) {
		s[2 * i] = me * 1000 + i;
		s[2 * i + 1] = -me;
	}
	MPI_Alltoall(s, 2, MPI_INT, r, 2, MPI_INT, c);
	for (i = 0; i < n; i++)
		mpit_expect_int("alltoall", i * 1000 + me, r[2 * i]);
	MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, s, 2, MPI_INT, c);
	for (i = 0; i < n; i++)
		mpit_expect_int("in-place alltoall", i * 1000 + me, s[2 * i]);
	/* alltoallv: j sends j+1 ints to everyone. */
	for (i = 0; i < n; i++) {
		cnt[i] = me + 1;
		dsp[i] = i * (me + 1);
		rcnt[i] = i + 1;
		rdsp[i] = i * 8;
		tys[i] = MPI_INT;
	}
	for (i = 0; i < n * (me + 1); i++)
		s[i] = me * 1000 + i;
	MPI_Alltoallv(s, cnt, dsp, MPI_INT, r, rcnt, rdsp, MPI_INT, c);
	for (i = 0; i < n; i++)
		mpit_expect_int("alltoallv", i * 1000 + me * (i + 1), r[i * 8]);
	for (i = 0; i < n; i++) {
		dsp[i] *= sizeof(int);
		rdsp[i] *= sizeof(int);
	}
	memset(r, 0, n * 8 * sizeof *r);
	MPI_Alltoallw(s, cnt, dsp, tys, r, rcnt, rdsp, tys, c);
	for (i = 0; i < n; i++)
		mpit_expect_int("alltoallw", i * 1000 + me * (i + 1), r[i * 8]);
	MPI_Barrier(c);
	snprintf(name, sizeof name, "coll_%s_bcast_gather_scatter_allgather_alltoall_v_w", cname);
	mpit_report(name);
	free(s);
	free(r);
	free(cnt);
	free(dsp);
	free(rcnt);
	free(rdsp);
	free(tys);
}

/* 2x2 integer matrix product: associative, not commutative. */
static void matmul(void *in, void *inout, int *len, MPI_Datatype *t)
{
	int *a = in, *b = inout, k;

	(void)t;
	for (k = 0; k < *len; k++, a += 4, b += 4) {
		int c0 = a[0] * b[0] + a[1] * b[2], c1 = a[0] * b[1] + a[1] * b[3];
		int c2 = a[2] * b[0] + a[3] * b[2], c3 = a[2] * b[1] + a[3] * b[3];

		b[0] = c0;
		b[1] = c1;
		b[2] = c2;
		b[3] = c3;
	}
}

/* Sums the int of each element, wherever the type puts it. */
static void holey_sum(void *in, void *inout, int *len, MPI_Datatype *t)
{
	MPI_Aint lb, ext, tlb, text;

	MPI_Type_get_extent(*t, &lb, &ext);
	MPI_Type_get_true_extent(*t, &tlb, &text);
	for (int k = 0; k < *len; k++)
		*(int *)((char *)inout + k * ext + tlb) += *(int *)((char *)in + k * ext + tlb);
}

/* Sums 4-int columns of a matrix with col_stride ints a row. */
static int col_stride;

static void col_sum(void *in, void *inout, int *len, MPI_Datatype *t)
{
	int *a = in, *b = inout;

	(void)t;
	for (int k = 0; k < *len; k++)
		for (int j = 0; j < 4; j++)
			b[k + j * col_stride] += a[k + j * col_stride];
}

static void test_user_ops(MPI_Comm c, const char *cname)
{
	MPI_Datatype m;
	MPI_Op op;
	int n, me, i, x[4], y[4], want[4] = { 1, 0, 0, 1 }, t[4], cur[4], pre[4];
	char name[128];

	MPI_Comm_size(c, &n);
	MPI_Comm_rank(c, &me);
	MPI_Type_contiguous(4, MPI_INT, &m);
	MPI_Type_commit(&m);
	MPI_Op_create(matmul, 0, &op);
	/* Rank r holds [[1, r + 1], [0, 1]] then [[0,1],[1,0]] alternately. */
	for (i = 0; i < n; i++) {
		int a[4] = { 1, i + 1, 0, 1 }, s[4] = { 0, 1, 1, 0 };
		int len = 1;

		memcpy(t, i % 2 ? s : a, sizeof t);
		if (i == 0)
			memcpy(want, t, sizeof want);
		else {
			/* want = want * t: matmul(in=want, inout=t) gives want*t. */
			matmul(want, t, &len, &m);
			memcpy(want, t, sizeof want);
		}
	}
	{
		int a[4] = { 1, me + 1, 0, 1 }, s[4] = { 0, 1, 1, 0 };

		memcpy(x, me % 2 ? s : a, sizeof x);
	}
	MPI_Allreduce(x, y, 1, m, op, c);
	for (i = 0; i < 4; i++)
		mpit_expect_int("non-commutative user op in rank order", want[i], y[i]);
	/* Scans: the product over ranks 0..me (cur) and 0..me-1 (pre). */
	for (i = 0; i <= me; i++) {
		int a[4] = { 1, i + 1, 0, 1 }, s[4] = { 0, 1, 1, 0 };
		int len = 1;

		memcpy(t, i % 2 ? s : a, sizeof t);
		if (i > 0) {
			memcpy(pre, cur, sizeof pre);
			matmul(cur, t, &len, &m);
		}
		memcpy(cur, t, sizeof cur);
	}
	MPI_Scan(x, y, 1, m, op, c);
	for (i = 0; i < 4; i++)
		mpit_expect_int("scan with a non-commutative user op in rank order", cur[i], y[i]);
	MPI_Exscan(x, y, 1, m, op, c);
	for (i = 0; i < 4 && me > 0; i++)
		mpit_expect_int("exscan with a non-commutative user op in rank order", pre[i], y[i]);
	MPI_Op_free(&op);
	MPI_Type_free(&m);
	snprintf(name, sizeof name, "coll_%s_noncommutative_user_op", cname);
	mpit_report(name);
}

static void test_loc_and_vector(MPI_Comm c, const char *cname)
{
	struct { double v; int i; } in[2], out[2];
	MPI_Datatype v;
	int n, me, b[12], i;
	char name[128];

	MPI_Comm_size(c, &n);
	MPI_Comm_rank(c, &me);
	in[0].v = me % 3;
	in[0].i = me;
	in[1].v = -me;
	in[1].i = me;
	MPI_Allreduce(in, out, 2, MPI_DOUBLE_INT, MPI_MAXLOC, c);
	mpit_expect_int("maxloc value", n > 2 ? 2 : n - 1, (long long)out[0].v);
	mpit_expect_int("maxloc lowest index of ties", n > 2 ? 2 : n - 1, out[0].i);
	MPI_Allreduce(in, out, 2, MPI_DOUBLE_INT, MPI_MINLOC, c);
	mpit_expect_int("minloc index", n - 1, out[1].i);
	/* Every other int of 12: a non-contiguous type in bcast. */
	MPI_Type_vector(6, 1, 2, MPI_INT, &v);
	MPI_Type_commit(&v);
	for (i = 0; i < 12; i++)
		b[i] = me == 0 ? i : -1;
	MPI_Bcast(b, 1, v, 0, c);
	for (i = 0; i < 12; i++)
		mpit_expect_int("strided bcast", i % 2 ? (me == 0 ? i : -1) : i, b[i]);
	MPI_Type_free(&v);
	snprintf(name, sizeof name, "coll_%s_minloc_maxloc_and_strided_bcast", cname);
	mpit_report(name);
}

/*
 * Layouts with holes (and lower bounds) under user ops and MINLOC/MAXLOC:
 * results land on the data only, a receive buffer's holes keep what they
 * held (the engine moves bytes, so these go through copies laid out for
 * it).  A 2x2 matrix in every other int of 8 (matmul_holey, not
 * commutative) is folded in rank order; small counts take the value path,
 * HOLEY_BIG elements the chunked one.
 */
#define HOLEY_BIG 5000
#define HOLE (-7)

static void matmul_holey(void *in, void *inout, int *len, MPI_Datatype *t)
{
	int *a = in, *b = inout, k;

	(void)t;
	for (k = 0; k < *len; k++, a += 8, b += 8) {
		int c0 = a[0] * b[0] + a[2] * b[4], c1 = a[0] * b[2] + a[2] * b[6];
		int c2 = a[4] * b[0] + a[6] * b[4], c3 = a[4] * b[2] + a[6] * b[6];

		b[0] = c0;
		b[2] = c1;
		b[4] = c2;
		b[6] = c3;
	}
}

/* Rank r's matrix for element e: a shear or a swap. */
static void holey_mat(int r, int e, int *m)
{
	int a[4] = { 1, (r + e) % 5 + 1, 0, 1 }, s[4] = { 0, 1, 1, 0 };

	memcpy(m, (r + e) % 3 ? a : s, sizeof a);
}

/* The product of ranks lo..hi's matrices for element e, in rank order. */
static void holey_prod(int lo, int hi, int e, int *m)
{
	int acc[8] = { 0 }, t[8] = { 0 }, x[4], one = 1, r, k;

	holey_mat(lo, e, x);
	for (k = 0; k < 4; k++)
		acc[2 * k] = x[k];
	for (r = lo + 1; r <= hi; r++) {
		holey_mat(r, e, x);
		for (k = 0; k < 4; k++)
			t[2 * k] = x[k];
		matmul_holey(acc, t, &one, NULL);
		memcpy(acc, t, sizeof acc);
	}
	for (k = 0; k < 4; k++)
		m[k] = acc[2 * k];
}

static void holey_fill(int *b, int count, int me)
{
	for (int e = 0; e < count; e++) {
		int x[4];

		holey_mat(me, e, x);
		for (int k = 0; k < 4; k++) {
			b[8 * e + 2 * k] = x[k];
			b[8 * e + 2 * k + 1] = 1000 + me;
		}
	}
}

/* b holds the products of ranks lo..hi (none when lo > hi: untouched). */
static void holey_check(const char *what, const int *b, int count, int lo, int hi)
{
	for (int e = 0; e < count; e++) {
		int m[4];

		if (lo <= hi)
			holey_prod(lo, hi, e, m);
		for (int k = 0; k < 4; k++) {
			mpit_expect_int(what, lo <= hi ? m[k] : HOLE, b[8 * e + 2 * k]);
			mpit_expect_int("a hole of the receive buffer keeps its value", HOLE,
					b[8 * e + 2 * k + 1]);
		}
	}
}

static void holey_clear(int *b, int n)
{
	for (int i = 0; i < n; i++)
		b[i] = HOLE;
}

static void test_holey_user_ops(MPI_Comm c, MPI_Datatype hm, MPI_Op op, int count, int *x,
				int *y)
{
	int n, me, root;
	MPI_Request rq;

	MPI_Comm_size(c, &n);
	MPI_Comm_rank(c, &me);
	root = 1 % n;
	holey_fill(x, count, me);
	holey_clear(y, 8 * count);
	MPI_Allreduce(x, y, count, hm, op, c);
	holey_check("allreduce of a holey type", y, count, 0, n - 1);
	holey_clear(y, 8 * count);
	MPI_Reduce(x, y, count, hm, op, root, c);
	holey_check("reduce of a holey type", y, count, 0, me == root ? n - 1 : -1);
	holey_clear(y, 8 * count);
	MPI_Scan(x, y, count, hm, op, c);
	holey_check("scan of a holey type", y, count, 0, me);
	holey_clear(y, 8 * count);
	MPI_Exscan(x, y, count, hm, op, c);
	if (me > 0)
		holey_check("exscan of a holey type", y, count, 0, me - 1);
	holey_clear(y, 8 * count);
	MPI_Iallreduce(x, y, count, hm, op, c, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	holey_check("iallreduce of a holey type", y, count, 0, n - 1);
	if (count >= n) {
		int per = count / n;

		holey_clear(y, 8 * count);
		MPI_Reduce_scatter_block(x, y, per, hm, op, c);
		for (int e = 0; e < per; e++) {
			int m[4];

			holey_prod(0, n - 1, me * per + e, m);
			for (int k = 0; k < 4; k++) {
				mpit_expect_int("reduce_scatter_block of a holey type", m[k],
						y[8 * e + 2 * k]);
				mpit_expect_int("a hole of the receive buffer keeps its value", HOLE,
						y[8 * e + 2 * k + 1]);
			}
		}
		/* In place: the holes of the first blocks hold the rank's own. */
		holey_fill(y, count, me);
		MPI_Allreduce(MPI_IN_PLACE, y, count, hm, op, c);
		for (int e = 0; e < count; e++) {
			int m[4];

			holey_prod(0, n - 1, e, m);
			mpit_expect_int("in-place allreduce of a holey type", m[0], y[8 * e]);
			mpit_expect_int("in place: a hole keeps its value", 1000 + me, y[8 * e + 1]);
		}
	}
}

static void test_holes_and_bounds(MPI_Comm c, const char *cname)
{
	MPI_Datatype v, hm, t0, lbt, pv, pc;
	MPI_Op op, sum;
	MPI_Request rq;
	int n, me, *x, *y, one = 1;
	MPI_Aint d;
	struct { double v; int i; } pin[6], pout[6];
	struct { int v, i; } cin[4], cout[4];
	char name[128];

	MPI_Comm_size(c, &n);
	MPI_Comm_rank(c, &me);
	MPI_Type_vector(4, 1, 2, MPI_INT, &v);
	MPI_Type_create_resized(v, 0, 8 * sizeof(int), &hm);
	MPI_Type_commit(&hm);
	MPI_Op_create(matmul_holey, 0, &op);
	x = malloc(HOLEY_BIG * 8 * sizeof(int));
	y = malloc(HOLEY_BIG * 8 * sizeof(int));
	test_holey_user_ops(c, hm, op, 1, x, y);
	test_holey_user_ops(c, hm, op, 2 * n + 1, x, y);
	test_holey_user_ops(c, hm, op, HOLEY_BIG, x, y);
	/* Reduce_local applies the op to the user's own layout. */
	holey_fill(x, 3, 0);
	holey_fill(y, 3, 1);
	MPI_Reduce_local(x, y, 3, hm, op);
	for (int e = 0; e < 3; e++) {
		int m[4];

		holey_prod(0, 1, e, m);
		mpit_expect_int("reduce_local of a holey type", m[1], y[8 * e + 2]);
		mpit_expect_int("reduce_local leaves the holes", 1001, y[8 * e + 1]);
	}
	free(x);
	free(y);
	/* Lower bounds: an int at byte 4 of 8 (lb 4), and at byte -4 (lb -4). */
	MPI_Op_create(holey_sum, 1, &sum);
	for (int neg = 0; neg < 2; neg++) {
		int in[8], out[8];
		char *base = neg ? (char *)out + sizeof(int) : (char *)out;

		d = neg ? -(MPI_Aint)sizeof(int) : (MPI_Aint)sizeof(int);
		MPI_Type_create_hindexed(1, &one, &d, MPI_INT, &t0);
		MPI_Type_create_resized(t0, d, 2 * sizeof(int), &lbt);
		MPI_Type_commit(&lbt);
		for (int i = 0; i < 8; i++) {
			in[i] = i % 2 == !neg ? me + i : 1000 + me;
			out[i] = HOLE;
		}
		MPI_Allreduce(neg ? (char *)in + sizeof(int) : (char *)in, base, 4, lbt, sum, c);
		for (int i = 0; i < 8; i++)
			mpit_expect_int(neg ? "user op on a type with lower bound -4" :
					      "user op on a type with lower bound 4",
					i % 2 == !neg ? n * (n - 1) / 2 + n * i : HOLE, out[i]);
		MPI_Type_free(&lbt);
		MPI_Type_free(&t0);
	}
	/* Interleaved elements: columns of a 4x4 matrix, a column resized to
	 * one int; count 2 folds columns 0-1 and leaves 2-3 alone. */
	MPI_Type_vector(4, 1, 4, MPI_INT, &t0);
	MPI_Type_create_resized(t0, 0, sizeof(int), &lbt);
	MPI_Type_commit(&lbt);
	MPI_Op_free(&sum);
	MPI_Op_create(col_sum, 1, &sum);
	col_stride = 4;
	for (int cnt = 2; cnt <= 4; cnt += 2) {
		int in[16], out[16];

		for (int i = 0; i < 16; i++) {
			in[i] = me * 100 + i;
			out[i] = HOLE;
		}
		MPI_Allreduce(in, out, cnt, lbt, sum, c);
		for (int i = 0; i < 16; i++)
			mpit_expect_int("user op on interleaved columns",
					i % 4 < cnt ? 100 * n * (n - 1) / 2 + n * i : HOLE, out[i]);
		for (int i = 0; i < 16; i++)
			out[i] = HOLE;
		MPI_Iallreduce(in, out, cnt, lbt, sum, c, &rq);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
		for (int i = 0; i < 16; i++)
			mpit_expect_int("iallreduce with a user op on interleaved columns",
					i % 4 < cnt ? 100 * n * (n - 1) / 2 + n * i : HOLE, out[i]);
		for (int i = 0; i < 16; i++)
			out[i] = HOLE;
		MPI_Scan(in, out, cnt, lbt, sum, c);
		for (int i = 0; i < 16; i++)
			mpit_expect_int("scan with a user op on interleaved columns",
					i % 4 < cnt ? 100 * me * (me + 1) / 2 + (me + 1) * i : HOLE,
					out[i]);
	}
	{
		int *in = malloc(4 * n * sizeof(int)), *out = malloc(4 * n * sizeof(int));

		/* n columns of a 4 x n matrix, one column to each member */
		MPI_Type_free(&lbt);
		MPI_Type_free(&t0);
		MPI_Type_vector(4, 1, n, MPI_INT, &t0);
		MPI_Type_create_resized(t0, 0, sizeof(int), &lbt);
		MPI_Type_commit(&lbt);
		col_stride = n;
		for (int i = 0; i < 4 * n; i++) {
			in[i] = me * 100 + i;
			out[i] = HOLE;
		}
		MPI_Reduce_scatter_block(in, out, 1, lbt, sum, c);
		for (int i = 0; i < 4 * n; i++)
			mpit_expect_int("reduce_scatter_block with a user op on interleaved columns",
					i % n ? HOLE : 100 * n * (n - 1) / 2 + n * (i + me), out[i]);
		free(in);
		free(out);
	}
	MPI_Type_free(&lbt);
	MPI_Type_free(&t0);
	MPI_Op_free(&sum);
	/* MAXLOC on every other pair of 6; MINLOC on contiguous pairs. */
	MPI_Type_vector(3, 1, 2, MPI_DOUBLE_INT, &pv);
	MPI_Type_commit(&pv);
	for (int k = 0; k < 6; k++) {
		pin[k].v = (me + k) % n;
		pin[k].i = me;
		pout[k].v = HOLE;
		pout[k].i = HOLE;
	}
	MPI_Allreduce(pin, pout, 1, pv, MPI_MAXLOC, c);
	for (int k = 0; k < 6; k++) {
		mpit_expect_int("maxloc on a vector of double_int", k % 2 ? HOLE : n - 1,
				(long long)pout[k].v);
		mpit_expect_int("maxloc's index on a vector of double_int",
				k % 2 ? HOLE : ((n - 1 - k) % n + n) % n, pout[k].i);
	}
	/* The padding of a predefined pair is not in its type map either. */
	{
		struct { long v; int i; } ls[4], lr[4];
		unsigned char *lb = (unsigned char *)lr;

		memset(ls, 0x11 * (me + 1), sizeof ls);
		for (int k = 0; k < 4; k++) {
			ls[k].v = me * 10 + k;
			ls[k].i = me;
		}
		for (int call = 0; call < 4; call++) {
			memset(lr, 0xEE, sizeof lr);
			if (call == 0)
				MPI_Allreduce(ls, lr, 4, MPI_LONG_INT, MPI_MAXLOC, c);
			else if (call == 1)
				MPI_Reduce(ls, lr, 4, MPI_LONG_INT, MPI_MAXLOC, 0, c);
			else if (call == 2)
				MPI_Scan(ls, lr, 4, MPI_LONG_INT, MPI_MAXLOC, c);
			else
				MPI_Reduce_scatter_block(ls, lr, 1, MPI_LONG_INT, MPI_MAXLOC, c);
			for (int k = 0; k < 4; k++)
				for (int b = 12; b < 16; b++)
					mpit_expect_int("a predefined pair's padding keeps its value",
							0xEE, lb[16 * k + b]);
			if (call == 0)
				mpit_expect_int("maxloc on long_int", (n - 1) * 10 + 3, lr[3].v);
		}
	}
	MPI_Type_contiguous(2, MPI_2INT, &pc);
	MPI_Type_commit(&pc);
	for (int k = 0; k < 4; k++) {
		cin[k].v = (me + k) % n;
		cin[k].i = me;
	}
	MPI_Allreduce(cin, cout, 2, pc, MPI_MINLOC, c);
	for (int k = 0; k < 4; k++)
		mpit_expect_int("minloc's index on contiguous 2int", ((n - k) % n + n) % n, cout[k].i);
	MPI_Type_free(&pc);
	MPI_Type_free(&pv);
	MPI_Op_free(&op);
	MPI_Type_free(&hm);
	MPI_Type_free(&v);
	snprintf(name, sizeof name, "coll_%s_holes_and_lower_bounds_keep", cname);
	mpit_report(name);
}

static void run_all(MPI_Comm c, const char *cname)
{
	test_reductions(c, cname);
	test_in_place_and_scatter_reductions(c, cname);
	test_movement(c, cname);
	test_user_ops(c, cname);
	test_loc_and_vector(c, cname);
	test_holes_and_bounds(c, cname);
}

/* The last rank frees its duplicate before a barrier the others free
 * theirs after; then new communicators work as usual. */
static void test_free_order(void)
{
	MPI_Comm d, e;
	int one = 1, sum = 0, i;

	for (i = 0; i < 3; i++) {
		MPI_Comm_dup(MPI_COMM_WORLD, &d);
		MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, d);
		if (wrank == wsize - 1)
			MPI_Comm_free(&d);
		MPI_Barrier(MPI_COMM_WORLD);
		if (d != MPI_COMM_NULL)
			MPI_Comm_free(&d);
	}
	MPI_Comm_dup(MPI_COMM_WORLD, &e);
	sum = 0;
	MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, e);
	mpit_expect_int("allreduce on a communicator made after the frees", wsize, sum);
	MPI_Comm_free(&e);
	mpit_report("comm_free_in_any_order");
}

int main(int argc, char **argv)
{
	MPI_Comm half;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
	MPI_Comm_size(MPI_COMM_WORLD, &wsize);
	run_all(MPI_COMM_WORLD, "world");
	MPI_Comm_split(MPI_COMM_WORLD, wrank % 2, -wrank, &half);
	run_all(half, "split");
	MPI_Comm_free(&half);
	test_free_order();
	MPI_Finalize();
	return 0;
}
