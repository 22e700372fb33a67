/*
 * rmat_acc.c - accumulates: every predefined op on every type it applies
 * to against a serial reference; sums from all ranks on one element that
 * must add up exactly for every path (integers, floats, long double, the
 * complex types, misaligned elements), and runs of them from all ranks at
 * once (sum, max, bitwise or); Fetch_and_op tickets that must be
 * unique, and Get_accumulate runs whose tickets must be whole and unique;
 * Compare_and_swap with one winner and as a mutual-exclusion lock;
 * swaps with MPI_REPLACE that lose no value; MPI_NO_OP reads; MINLOC and
 * MAXLOC on the pair types; a strided target; the request forms.
 */
#include <complex.h>
#include <stdint.h>
#include "rmat.h"

#define COUNT	37
#define K	300

/* Rank r's element i: small, so every op is exact in every type; member np
 * stands for the target's initial contents. */
static long long val(int r, int i)
{
	return 1 + (r + i) % 3;
}

struct ty {
	MPI_Datatype t;
	const char *name;
	int size, is_float, bits, logic;
	long long max;		/* largest value the type holds */
};

static struct ty types[] = {
	{ MPI_INT, "int", sizeof(int), 0, 1, 1, 2147483647LL },
	{ MPI_UNSIGNED, "unsigned", sizeof(unsigned), 0, 1, 1, 4294967295LL },
	{ MPI_LONG, "long", sizeof(long), 0, 1, 1, 9223372036854775807LL },
	{ MPI_SHORT, "short", sizeof(short), 0, 1, 1, 32767 },
	{ MPI_SIGNED_CHAR, "signed_char", 1, 0, 1, 1, 127 },
	{ MPI_UINT8_T, "uint8", 1, 0, 1, 1, 255 },
	{ MPI_INT64_T, "int64", 8, 0, 1, 1, 9223372036854775807LL },
	{ MPI_UNSIGNED_LONG_LONG, "ull", 8, 0, 1, 1, 9223372036854775807LL },
	{ MPI_FLOAT, "float", sizeof(float), 1, 0, 0, 1 << 24 },
	{ MPI_DOUBLE, "double", sizeof(double), 1, 0, 0, 1LL << 53 },
	{ MPI_LONG_DOUBLE, "long_double", sizeof(long double), 1, 0, 0, 1LL << 60 },
	{ MPI_BYTE, "byte", 1, 0, 1, 0, 255 },
	{ MPI_C_BOOL, "c_bool", 1, 0, 0, 1, 1 },
};

static void put(const struct ty *t, void *b, int i, long long v)
{
	if (t->t == MPI_C_BOOL) {
		((_Bool *)b)[i] = v != 0;
		return;
	}
	switch (t->size * 2 + t->is_float) {
	case 2: ((unsigned char *)b)[i] = v; break;
	case 4: ((short *)b)[i] = v; break;
	case 8: ((int *)b)[i] = v; break;
	case 9: ((float *)b)[i] = v; break;
	case 16: ((long long *)b)[i] = v; break;
	case 17: ((double *)b)[i] = v; break;
	case 33: ((long double *)b)[i] = v; break;
	}
}

static long long get(const struct ty *t, const void *b, int i)
{
	if (t->t == MPI_C_BOOL)
		return ((const _Bool *)b)[i];
	switch (t->size * 2 + t->is_float) {
	case 2: return t->t == MPI_SIGNED_CHAR ? ((const signed char *)b)[i] : ((const unsigned char *)b)[i];
	case 4: return ((const short *)b)[i];
	case 8: return t->t == MPI_UNSIGNED ? (long long)((const unsigned *)b)[i] : ((const int *)b)[i];
	case 9: return ((const float *)b)[i];
	case 16: return ((const long long *)b)[i];
	case 17: return ((const double *)b)[i];
	case 33: return ((const long double *)b)[i];
	}
	return 0;
}

struct opdef {
	MPI_Op op;
	const char *name;
	int kind;		/* 0 arithmetic, 1 logical, 2 bitwise */
};

static struct opdef ops[] = {
	{ MPI_MAX, "max", 0 }, { MPI_MIN, "min", 0 }, { MPI_SUM, "sum", 0 },
	{ MPI_PROD, "prod", 0 }, { MPI_LAND, "land", 1 }, { MPI_LOR, "lor", 1 },
	{ MPI_LXOR, "lxor", 1 }, { MPI_BAND, "band", 2 }, { MPI_BOR, "bor", 2 },
	{ MPI_BXOR, "bxor", 2 },
};

static int applies(const struct opdef *o, const struct ty *t)
{
	if (t->t == MPI_BYTE)
		return o->kind == 2;
	if (t->t == MPI_C_BOOL)
		return o->kind == 1;
	return o->kind == 0 || (t->bits && !t->is_float);
}

static long long fold(const struct opdef *o, long long a, long long b)
{
	if (o->op == MPI_MAX) return a > b ? a : b;
	if (o->op == MPI_MIN) return a < b ? a : b;
	if (o->op == MPI_SUM) return a + b;
	if (o->op == MPI_PROD) return a * b;
	if (o->op == MPI_LAND) return a && b;
	if (o->op == MPI_LOR) return a || b;
	if (o->op == MPI_LXOR) return !a != !b;
	if (o->op == MPI_BAND) return a & b;
	if (o->op == MPI_BOR) return a | b;
	return a ^ b;
}

/* The target's initial value folded with every rank's, or -1 if it would
 * not fit the type. */
static long long ref(const struct opdef *o, const struct ty *t, int i)
{
	long long a = val(np, i);
	int r;

	for (r = 0; r < np; r++) {
		a = fold(o, a, val(r, i));
		if (a > t->max)
			return -1;
	}
	return t->t == MPI_C_BOOL ? a != 0 : a;
}

static void test_every_op_and_type(void)
{
	long double buf[COUNT], src[COUNT];
	MPI_Win w;
	void *base;
	size_t k, j;
	int i;

	for (k = 0; k < sizeof types / sizeof types[0]; k++) {
		const struct ty *t = &types[k];

		MPI_Win_allocate(COUNT * t->size, t->size, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &w);
		for (j = 0; j < sizeof ops / sizeof ops[0]; j++) {
			const struct opdef *o = &ops[j];

			if (!applies(o, t) || ref(o, t, 0) < 0 || ref(o, t, 1) < 0 || ref(o, t, 2) < 0)
				continue;
			MPI_Win_lock(MPI_LOCK_EXCLUSIVE, me, 0, w);
			for (i = 0; i < COUNT; i++)
				put(t, base, i, val(np, i));
			MPI_Win_unlock(me, w);
			for (i = 0; i < COUNT; i++)
				put(t, src, i, val(me, i));
			MPI_Win_fence(0, w);
			MPI_Accumulate(src, COUNT, t->t, 0, 0, COUNT, t->t, o->op, w);
			MPI_Win_fence(MPI_MODE_NOSUCCEED, w);
			memcpy(buf, base, COUNT * t->size);
			for (i = 0; me == 0 && i < COUNT; i++)
				if (get(t, buf, i) != ref(o, t, i)) {
					mpit_fail("%s on %s element %d: expected %lld, got %lld", o->name,
						  t->name, i, ref(o, t, i), get(t, buf, i));
					break;
				}
		}
		MPI_Win_free(&w);
	}
	mpit_report("rma_accumulate_every_op_and_type_from_all_ranks");
}

/* Byte offsets in the window of the atomicity tests. */
enum {
	AT_INT = 0, AT_DOUBLE = 8, AT_FLOAT = 16, AT_U8 = 20, AT_LDOUBLE = 32, AT_CDOUBLE = 48,
	AT_MIS_INT = 65, AT_MIS_DOUBLE = 71, AT_I64 = 80, AT_TICKET = 88, AT_CFLOAT = 96,
	AT_WINNER = 104, AT_MUTEX = 108, AT_GUARDED = 112, AT_SWAP = 116, AT_SIZE = 128
};

static char *abase;
static MPI_Win aw;

static void zero_atomics(void)
{
	MPI_Win_lock(MPI_LOCK_EXCLUSIVE, me, 0, aw);
	memset(abase, 0, AT_SIZE);
	MPI_Win_unlock(me, aw);
	MPI_Barrier(MPI_COMM_WORLD);
}

static void test_sums_add_up(void)
{
	int one = 1, k;
	double done = 1;
	float fone = 1;
	unsigned char u8one = 1;
	long long lone = 1;
	long double ldone = 1;
	double complex cone = 1 + 2 * I;
	float complex cfone = 2 - I;
	struct { double complex c; long double ld; double d, md; float f, cf[2]; int i, mi; long long l; unsigned char u; } got;

	zero_atomics();
	MPI_Win_lock_all(0, aw);
	for (k = 0; k < K; k++) {
		MPI_Accumulate(&one, 1, MPI_INT, 0, AT_INT, 1, MPI_INT, MPI_SUM, aw);
		MPI_Accumulate(&done, 1, MPI_DOUBLE, 0, AT_DOUBLE, 1, MPI_DOUBLE, MPI_SUM, aw);
		MPI_Accumulate(&fone, 1, MPI_FLOAT, 0, AT_FLOAT, 1, MPI_FLOAT, MPI_SUM, aw);
		MPI_Accumulate(&u8one, 1, MPI_UNSIGNED_CHAR, 0, AT_U8, 1, MPI_UNSIGNED_CHAR, MPI_SUM, aw);
		MPI_Accumulate(&ldone, 1, MPI_LONG_DOUBLE, 0, AT_LDOUBLE, 1, MPI_LONG_DOUBLE, MPI_SUM, aw);
		MPI_Accumulate(&cone, 1, MPI_C_DOUBLE_COMPLEX, 0, AT_CDOUBLE, 1, MPI_C_DOUBLE_COMPLEX,
			       MPI_SUM, aw);
		MPI_Accumulate(&cfone, 1, MPI_C_FLOAT_COMPLEX, 0, AT_CFLOAT, 1, MPI_C_FLOAT_COMPLEX,
			       MPI_SUM, aw);
		MPI_Accumulate(&one, 1, MPI_INT, 0, AT_MIS_INT, 1, MPI_INT, MPI_SUM, aw);
		MPI_Accumulate(&done, 1, MPI_DOUBLE, 0, AT_MIS_DOUBLE, 1, MPI_DOUBLE, MPI_SUM, aw);
		MPI_Accumulate(&lone, 1, MPI_LONG_LONG, 0, AT_I64, 1, MPI_LONG_LONG, MPI_SUM, aw);
	}
	MPI_Win_unlock_all(aw);
	MPI_Barrier(MPI_COMM_WORLD);
	if (me == 0) {
		MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, aw);
		memcpy(&got.i, abase + AT_INT, sizeof got.i);
		memcpy(&got.d, abase + AT_DOUBLE, sizeof got.d);
		memcpy(&got.f, abase + AT_FLOAT, sizeof got.f);
		memcpy(&got.u, abase + AT_U8, sizeof got.u);
		memcpy(&got.ld, abase + AT_LDOUBLE, sizeof got.ld);
		memcpy(&got.c, abase + AT_CDOUBLE, sizeof got.c);
		memcpy(got.cf, abase + AT_CFLOAT, sizeof got.cf);
		memcpy(&got.mi, abase + AT_MIS_INT, sizeof got.mi);
		memcpy(&got.md, abase + AT_MIS_DOUBLE, sizeof got.md);
		memcpy(&got.l, abase + AT_I64, sizeof got.l);
		MPI_Win_unlock(0, aw);
		mpit_expect_int("int sum", np * K, got.i);
		mpit_expect_int("double sum", np * K, got.d);
		mpit_expect_int("float sum", np * K, got.f);
		mpit_expect_int("unsigned char sum (mod 256)", (np * K) % 256, got.u);
		mpit_expect_int("long double sum", np * K, got.ld);
		mpit_expect_int("double complex sum, real", np * K, creal(got.c));
		mpit_expect_int("double complex sum, imaginary", 2 * np * K, cimag(got.c));
		mpit_expect_int("float complex sum, real", 2 * np * K, got.cf[0]);
		mpit_expect_int("float complex sum, imaginary", -np * K, got.cf[1]);
		mpit_expect_int("misaligned int sum", np * K, got.mi);
		mpit_expect_int("misaligned double sum", np * K, got.md);
		mpit_expect_int("long long sum", np * K, got.l);
	}
	mpit_report("rma_accumulate_sums_from_all_ranks_add_up_exactly");
}

/* Runs of elements from every rank at once, each run one call: on another
 * node, one stream the target's engine combines element by element; sums,
 * maxima and bitwise ors must come out exact, whoever got there first. */
#define RUN	3000

static void test_run_sums_add_up(void)
{
	int *ia = malloc(RUN * sizeof *ia), *im = malloc(RUN * sizeof *im);
	double *da = malloc(RUN * sizeof *da);
	short *so = malloc(RUN * sizeof *so);
	char *base;
	MPI_Win w;
	int i, k, bad = 0;
	size_t bytes = RUN * (2 * sizeof(int) + sizeof(double) + sizeof(short));

	MPI_Win_allocate((MPI_Aint)bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &w);
	MPI_Win_lock(MPI_LOCK_EXCLUSIVE, me, 0, w);
	memset(base, 0, bytes);
	MPI_Win_unlock(me, w);
	for (i = 0; i < RUN; i++) {
		ia[i] = i % 7 + 1;
		da[i] = 0.5 * (i % 5 + 1);
		im[i] = (i * 31 + me * 17) % 1000;
		so[i] = (short)(1 << ((i + me) % 15));
	}
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Win_lock_all(0, w);
	for (k = 0; k < K / 30; k++) {
		MPI_Accumulate(ia, RUN, MPI_INT, 0, 0, RUN, MPI_INT, MPI_SUM, w);
		MPI_Accumulate(da, RUN, MPI_DOUBLE, 0, RUN * sizeof(int), RUN, MPI_DOUBLE, MPI_SUM,
			       w);
		MPI_Accumulate(im, RUN, MPI_INT, 0, RUN * (sizeof(int) + sizeof(double)), RUN,
			       MPI_INT, MPI_MAX, w);
		MPI_Accumulate(so, RUN, MPI_SHORT, 0, RUN * (2 * sizeof(int) + sizeof(double)), RUN,
			       MPI_SHORT, MPI_BOR, w);
	}
	MPI_Win_unlock_all(w);
	MPI_Barrier(MPI_COMM_WORLD);
	if (me == 0) {
		MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w);
		for (i = 0; i < RUN && !bad; i++) {
			int s, m = 0;
			double d;
			short o = 0;

			memcpy(&s, base + i * sizeof(int), sizeof s);
			memcpy(&d, base + RUN * sizeof(int) + i * sizeof(double), sizeof d);
			for (int r = 0; r < np; r++) {
				if ((i * 31 + r * 17) % 1000 > m)
					m = (i * 31 + r * 17) % 1000;
				o = (short)(o | 1 << ((i + r) % 15));
			}
			bad = s != np * (K / 30) * ia[i] || d != np * (K / 30) * da[i];
			memcpy(&s, base + RUN * (sizeof(int) + sizeof(double)) + i * sizeof(int),
			       sizeof s);
			bad |= s != m;
			memcpy(&s, base + RUN * (2 * sizeof(int) + sizeof(double)) + i * sizeof(short),
			       sizeof(short));
			bad |= (short)s != o;
			if (bad)
				mpit_fail("element %d of the runs: int sum, double sum, int max or short "
					  "or is wrong", i);
		}
		MPI_Win_unlock(0, w);
	}
	MPI_Win_free(&w);
	free(ia);
	free(im);
	free(da);
	free(so);
	mpit_report("rma_accumulate_runs_from_all_ranks_add_up_exactly");
}

/* Runs of several elements and single-element atomics on the same
 * elements at once: even ranks add runs of ints and unsigned chars, odd
 * ranks fetch-and-add single elements spread over the runs.  A run does
 * not lock out the single-element calls (only other runs), so an element
 * whose update either side lost shows up in the exact per-element sums. */
#define MIX	1000
#define MIX_SINGLES	(4 * MIX)

static void test_runs_mix_with_single_atomics(void)
{
	int *ia = malloc(MIX * sizeof *ia), hits[MIX] = { 0 }, one = 1, old, i, k, bad = 0;
	unsigned char *ca = malloc(MIX), cone = 1, cold;
	int evens = (np + 1) / 2, odds = np / 2, runs = K / 10;
	size_t bytes = MIX * sizeof(int) + MIX;
	char *base;
	MPI_Win w;

	MPI_Win_allocate((MPI_Aint)bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &w);
	MPI_Win_lock(MPI_LOCK_EXCLUSIVE, me, 0, w);
	memset(base, 0, bytes);
	MPI_Win_unlock(me, w);
	for (i = 0; i < MIX; i++) {
		ia[i] = 1;
		ca[i] = 1;
	}
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Win_lock_all(0, w);
	if (me % 2 == 0) {
		for (k = 0; k < runs; k++) {
			MPI_Accumulate(ia, MIX, MPI_INT, 0, 0, MIX, MPI_INT, MPI_SUM, w);
			MPI_Accumulate(ca, MIX, MPI_UNSIGNED_CHAR, 0, MIX * sizeof(int), MIX,
				       MPI_UNSIGNED_CHAR, MPI_SUM, w);
		}
	} else {
		for (k = 0; k < MIX_SINGLES; k++) {
			i = (k * 37 + 11) % MIX;
			MPI_Fetch_and_op(&one, &old, MPI_INT, 0, (MPI_Aint)(i * sizeof(int)), MPI_SUM,
					 w);
			MPI_Fetch_and_op(&cone, &cold, MPI_UNSIGNED_CHAR, 0,
					 (MPI_Aint)(MIX * sizeof(int) + i), MPI_SUM, w);
		}
	}
	MPI_Win_unlock_all(w);
	MPI_Barrier(MPI_COMM_WORLD);
	if (me == 0) {
		for (k = 0; k < MIX_SINGLES; k++)
			hits[(k * 37 + 11) % MIX] += odds;
		MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w);
		for (i = 0; i < MIX && !bad; i++) {
			int want = evens * runs + hits[i], got;

			memcpy(&got, base + i * sizeof(int), sizeof got);
			bad = got != want || (unsigned char)base[MIX * sizeof(int) + i] !=
					     (unsigned char)want;
			if (bad)
				mpit_fail("element %d: int %d and unsigned char %u, expected %d (mod 256 "
					  "for the char)", i, got,
					  (unsigned char)base[MIX * sizeof(int) + i], want);
		}
		MPI_Win_unlock(0, w);
	}
	MPI_Win_free(&w);
	free(ia);
	free(ca);
	mpit_report("rma_accumulate_runs_and_single_element_atomics_lose_nothing");
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

/* Gathers K values of every rank at rank 0, sorted. */
static long long *gather_sorted(const long long *mine, int n)
{
	long long *all = me == 0 ? malloc((size_t)np * n * sizeof *all) : NULL;

	MPI_Gather(mine, n, MPI_LONG_LONG, all, n, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
	if (all)
		qsort(all, (size_t)np * n, sizeof *all, cmp_ll);
	return all;
}

static void test_fetch_and_op_tickets(void)
{
	long long one = 1, t[K], *all;
	int k;

	zero_atomics();
	MPI_Win_lock_all(0, aw);
	for (k = 0; k < K; k++)
		MPI_Fetch_and_op(&one, &t[k], MPI_LONG_LONG, 0, AT_TICKET, MPI_SUM, aw);
	MPI_Win_unlock_all(aw);
	all = gather_sorted(t, K);
	for (k = 0; all && k < np * K; k++)
		if (all[k] != k) {
			mpit_fail("ticket %d: expected %d, got %lld (a duplicate or a gap)", k, k, all[k]);
			break;
		}
	free(all);
	mpit_report("rma_fetch_and_op_tickets_are_unique");
}

/* Get_accumulate of runs: each call's old values are one ticket across a
 * whole run of 40 counters (calls of several elements are whole to each
 * other), and the tickets of all calls are unique. */
static void test_get_accumulate_runs(void)
{
	enum { W = 40 };
	long long one[W], old[W], t[K / 10], *all, *base;
	MPI_Win w;
	int k, i;

	MPI_Win_allocate(W * sizeof(long long), sizeof(long long), MPI_INFO_NULL, MPI_COMM_WORLD,
			 &base, &w);
	MPI_Win_lock(MPI_LOCK_EXCLUSIVE, me, 0, w);
	memset(base, 0, W * sizeof(long long));
	MPI_Win_unlock(me, w);
	for (i = 0; i < W; i++)
		one[i] = 1;
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Win_lock_all(0, w);
	for (k = 0; k < K / 10; k++) {
		MPI_Get_accumulate(one, W, MPI_LONG_LONG, old, W, MPI_LONG_LONG, 0, 0, W,
				   MPI_LONG_LONG, MPI_SUM, w);
		MPI_Win_flush(0, w);
		for (i = 1; i < W; i++)
			if (old[i] != old[0]) {
				mpit_fail("a Get_accumulate of %d counters saw %lld and %lld", W, old[0],
					  old[i]);
				break;
			}
		t[k] = old[0];
	}
	MPI_Win_unlock_all(w);
	all = gather_sorted(t, K / 10);
	for (k = 0; all && k < np * (K / 10); k++)
		if (all[k] != k) {
			mpit_fail("run ticket %d: expected %d, got %lld", k, k, all[k]);
			break;
		}
	free(all);
	MPI_Win_free(&w);
	mpit_report("rma_get_accumulate_runs_are_whole_and_unique");
}

static void test_compare_and_swap(void)
{
	int mine = me + 1, zero = 0, res = -1, final, k, got, v;
	long long r, *all;

	zero_atomics();
	MPI_Win_fence(0, aw);
	MPI_Compare_and_swap(&mine, &zero, &res, MPI_INT, 0, AT_WINNER, aw);
	MPI_Win_fence(MPI_MODE_NOSUCCEED, aw);
	r = res;
	all = gather_sorted(&r, 1);
	if (me == 0) {
		memcpy(&final, abase + AT_WINNER, sizeof final);
		mpit_expect_int("one winner saw 0", 0, all[0]);
		mpit_expect_int("winner's value is a rank + 1", 1, final >= 1 && final <= np);
		for (k = 1; k < np; k++)
			mpit_expect_int("a loser saw the winner's value", final, all[k]);
	}
	free(all);
	mpit_report("rma_compare_and_swap_has_one_winner");

	/* A CAS spin lock guarding a plain Get/Put increment. */
	MPI_Win_lock_all(0, aw);
	for (k = 0; k < K / 10; k++) {
		do {
			MPI_Compare_and_swap(&mine, &zero, &got, MPI_INT, 0, AT_MUTEX, aw);
			MPI_Win_flush(0, aw);
		} while (got != 0);
		MPI_Get(&v, 1, MPI_INT, 0, AT_GUARDED, 1, MPI_INT, aw);
		MPI_Win_flush(0, aw);
		v++;
		MPI_Put(&v, 1, MPI_INT, 0, AT_GUARDED, 1, MPI_INT, aw);
		MPI_Win_flush(0, aw);
		MPI_Compare_and_swap(&zero, &mine, &got, MPI_INT, 0, AT_MUTEX, aw);
		MPI_Win_flush(0, aw);
		mpit_expect_int("mutex held by us", mine, got);
	}
	MPI_Win_unlock_all(aw);
	MPI_Barrier(MPI_COMM_WORLD);
	if (me == 0) {
		memcpy(&v, abase + AT_GUARDED, sizeof v);
		mpit_expect_int("guarded counter", np * (K / 10), v);
	}
	mpit_report("rma_compare_and_swap_lock_excludes");
}

/* Swapping unique values in: what came out plus what stayed is exactly
 * the initial 0 and everything that went in. */
static void test_replace_swaps(void)
{
	long long fetched[K + 1], *all;
	int k, in[K], out[K], last;

	zero_atomics();
	MPI_Win_lock_all(0, aw);
	for (k = 0; k < K; k++) {
		in[k] = me * K + k + 1;
		MPI_Fetch_and_op(&in[k], &out[k], MPI_INT, 0, AT_SWAP, MPI_REPLACE, aw);
	}
	MPI_Win_unlock_all(aw);
	for (k = 0; k < K; k++)
		fetched[k] = out[k];
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, aw);
	MPI_Get_accumulate(NULL, 0, MPI_INT, &last, 1, MPI_INT, 0, AT_SWAP, 1, MPI_INT, MPI_NO_OP, aw);
	MPI_Win_unlock(0, aw);
	fetched[K] = me == 0 ? last : -1;
	all = malloc(sizeof *all * (np * (K + 1)));
	MPI_Gather(fetched, K + 1, MPI_LONG_LONG, all, K + 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
	if (me == 0) {
		qsort(all, (size_t)np * (K + 1), sizeof *all, cmp_ll);
		/* np - 1 placeholders (-1), then 0, 1, ..., np * K. */
		for (k = 0; k < np * (K + 1); k++)
			if (all[k] != (k < np - 1 ? -1 : k - (np - 1))) {
				mpit_fail("value %d: expected %d, got %lld", k, k < np - 1 ? -1 : k - (np - 1),
					  all[k]);
				break;
			}
	}
	free(all);
	mpit_report("rma_replace_swaps_lose_no_value");
}

static void test_no_op_reads(void)
{
	int src[COUNT], res[COUNT], i;
	MPI_Win w;
	int *base;

	MPI_Win_allocate(COUNT * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &w);
	for (i = 0; i < COUNT; i++) {
		base[i] = rmat_val(me, me, i);
		src[i] = -1;
	}
	MPI_Win_fence(0, w);
	MPI_Get_accumulate(src, COUNT, MPI_INT, res, COUNT, MPI_INT, right, 0, COUNT, MPI_INT,
			   MPI_NO_OP, w);
	MPI_Win_fence(MPI_MODE_NOSUCCEED, w);
	rmat_expect("fetched", res, COUNT, right, right);
	rmat_expect("target unchanged", base, COUNT, me, me);
	MPI_Win_free(&w);
	mpit_report("rma_get_accumulate_no_op_reads_without_writing");
}

/* MINLOC/MAXLOC of {val(r, i), r} from every rank, target starting at
 * {val(np, i), np}: smallest (largest) value, lowest index among ties. */
#define PAIR_TEST(T, MT, name) do { \
	T *b_, s_[COUNT]; \
	MPI_Win w_; \
	int i_, r_, best_, rank_; \
	for (o_ = 0; o_ < 2; o_++) { \
		MPI_Win_allocate(COUNT * sizeof(T), sizeof(T), MPI_INFO_NULL, MPI_COMM_WORLD, &b_, &w_); \
		for (i_ = 0; i_ < COUNT; i_++) { \
			b_[i_].v = val(np, i_); \
			b_[i_].i = np; \
			s_[i_].v = val(me, i_); \
			s_[i_].i = me; \
		} \
		MPI_Win_fence(0, w_); \
		MPI_Accumulate(s_, COUNT, MT, 0, 0, COUNT, MT, o_ ? MPI_MAXLOC : MPI_MINLOC, w_); \
		MPI_Win_fence(MPI_MODE_NOSUCCEED, w_); \
		for (i_ = 0; me == 0 && i_ < COUNT; i_++) { \
			best_ = val(np, i_); \
			rank_ = np; \
			for (r_ = np - 1; r_ >= 0; r_--) \
				if (o_ ? val(r_, i_) >= best_ : val(r_, i_) <= best_) { \
					best_ = val(r_, i_); \
					rank_ = r_; \
				} \
			if (b_[i_].v != best_ || b_[i_].i != rank_) { \
				mpit_fail("%s %s element %d: expected {%d, %d}, got {%d, %d}", \
					  o_ ? "maxloc" : "minloc", name, i_, best_, rank_, \
					  (int)b_[i_].v, b_[i_].i); \
				break; \
			} \
		} \
		MPI_Win_free(&w_); \
	} \
} while (0)

struct p_2int { int v, i; };
struct p_double_int { double v; int i; };
struct p_short_int { short v; int i; };
struct p_long_double_int { long double v; int i; };

static void test_minloc_maxloc(void)
{
	int o_;

	PAIR_TEST(struct p_2int, MPI_2INT, "2int");
	PAIR_TEST(struct p_double_int, MPI_DOUBLE_INT, "double_int");
	PAIR_TEST(struct p_short_int, MPI_SHORT_INT, "short_int");
	PAIR_TEST(struct p_long_double_int, MPI_LONG_DOUBLE_INT, "long_double_int");
	mpit_report("rma_accumulate_minloc_maxloc_on_pair_types");
}

static void test_strided_target(void)
{
	MPI_Datatype vec;
	int src[COUNT], *base, i;
	MPI_Win w;

	MPI_Win_allocate(3 * COUNT * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &w);
	memset(base, 0, 3 * COUNT * sizeof(int));
	MPI_Type_vector(COUNT, 1, 3, MPI_INT, &vec);
	MPI_Type_commit(&vec);
	for (i = 0; i < COUNT; i++)
		src[i] = me + i;
	MPI_Win_fence(0, w);
	MPI_Accumulate(src, COUNT, MPI_INT, right, 1, 1, vec, MPI_SUM, w);
	MPI_Accumulate(src, COUNT, MPI_INT, left, 1, 1, vec, MPI_SUM, w);
	MPI_Win_fence(MPI_MODE_NOSUCCEED, w);
	for (i = 0; i < 3 * COUNT; i++)
		mpit_expect_int("strided sum", i % 3 == 1 ? left + right + 2 * (i / 3) : 0, base[i]);
	MPI_Type_free(&vec);
	MPI_Win_free(&w);
	mpit_report("rma_accumulate_into_a_strided_target");
}

static void test_request_forms(void)
{
	MPI_Request rq[2];
	int one = 1, old = -1, final[2], i;
	long long o, *all;

	zero_atomics();
	MPI_Win_lock_all(0, aw);
	MPI_Raccumulate(&one, 1, MPI_INT, 0, AT_INT, 1, MPI_INT, MPI_SUM, aw, &rq[0]);
	MPI_Rget_accumulate(&one, 1, MPI_INT, &old, 1, MPI_INT, 0, AT_SWAP, 1, MPI_INT, MPI_SUM, aw,
			    &rq[1]);
	MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
	MPI_Win_unlock_all(aw);
	o = old;
	all = gather_sorted(&o, 1);
	MPI_Barrier(MPI_COMM_WORLD);
	if (me == 0) {
		memcpy(&final[0], abase + AT_INT, sizeof(int));
		memcpy(&final[1], abase + AT_SWAP, sizeof(int));
		mpit_expect_int("raccumulate total", np, final[0]);
		mpit_expect_int("rget_accumulate total", np, final[1]);
		for (i = 0; i < np; i++)
			mpit_expect_int("rget_accumulate old values", i, all[i]);
	}
	free(all);
	mpit_report("rma_raccumulate_and_rget_accumulate");
}

/* Concurrent MPI_REPLACE accumulates leave, in every element, one rank's
 * whole value: its two halves say which rank, and must agree. */
static void test_replace_is_atomic(void)
{
	uint64_t mine[COUNT], *base;
	int k, i;
	MPI_Win w;

	MPI_Win_allocate(COUNT * sizeof(uint64_t), sizeof(uint64_t), MPI_INFO_NULL, MPI_COMM_WORLD, &base,
			 &w);
	for (i = 0; i < COUNT; i++)
		mine[i] = (uint64_t)(me + 1) << 32 | (me + 1);
	MPI_Win_fence(0, w);
	for (k = 0; k < K; k++)
		MPI_Accumulate(mine, COUNT, MPI_UINT64_T, 0, 0, COUNT, MPI_UINT64_T, MPI_REPLACE, w);
	MPI_Win_fence(MPI_MODE_NOSUCCEED, w);
	for (i = 0; me == 0 && i < COUNT; i++)
		if (base[i] >> 32 != (base[i] & 0xffffffff) || (base[i] >> 32) < 1 ||
		    (base[i] >> 32) > (uint64_t)np) {
			mpit_fail("element %d is 0x%llx: not one rank's value", i,
				  (unsigned long long)base[i]);
			break;
		}
	MPI_Win_free(&w);
	mpit_report("rma_accumulate_replace_is_atomic_per_element");
}

/* Under exclusive locks whole arrays move at once: every swap must see one
 * rank's whole array, and the sums must all arrive. */
static void test_exclusive_lock(void)
{
	long ones[COUNT], mine[COUNT], old[COUNT], *base;
	int k, i;
	MPI_Win w;

	MPI_Win_allocate(2 * COUNT * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &w);
	memset(base, 0, 2 * COUNT * sizeof(long));
	for (i = 0; i < COUNT; i++) {
		ones[i] = 1;
		mine[i] = me + 1;
	}
	MPI_Barrier(MPI_COMM_WORLD);
	for (k = 0; k < K / 10; k++) {
		MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, w);
		MPI_Accumulate(ones, COUNT, MPI_LONG, 0, 0, COUNT, MPI_LONG, MPI_SUM, w);
		MPI_Get_accumulate(mine, COUNT, MPI_LONG, old, COUNT, MPI_LONG, 0, COUNT, COUNT, MPI_LONG,
				   MPI_REPLACE, w);
		MPI_Win_unlock(0, w);
		for (i = 1; i < COUNT; i++)
			if (old[i] != old[0]) {
				mpit_fail("swap %d saw two arrays: element 0 is %ld, element %d %ld", k, old[0],
					  i, old[i]);
				break;
			}
	}
	MPI_Barrier(MPI_COMM_WORLD);
	if (me == 0) {
		MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w);
		for (i = 0; i < COUNT; i++)
			mpit_expect_int("sum under exclusive locks", np * (K / 10), base[i]);
		for (i = 1; i < COUNT; i++)
			mpit_expect_int("last array swapped in is whole", base[COUNT], base[COUNT + i]);
		MPI_Win_unlock(0, w);
	}
	MPI_Win_free(&w);
	mpit_report("rma_accumulate_whole_arrays_under_exclusive_locks");
}

int main(int argc, char **argv)
{
	rmat_init(&argc, &argv);
	test_every_op_and_type();
	MPI_Win_allocate(AT_SIZE, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &abase, &aw);
	test_sums_add_up();
	test_run_sums_add_up();
	test_runs_mix_with_single_atomics();
	test_fetch_and_op_tickets();
	test_get_accumulate_runs();
	test_compare_and_swap();
	test_replace_swaps();
	test_request_forms();
	MPI_Win_free(&aw);
	test_no_op_reads();
	test_minloc_maxloc();
	test_strided_target();
	test_replace_is_atomic();
	test_exclusive_lock();
	MPI_Finalize();
	return 0;
}
