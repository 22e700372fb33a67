/*
 * shmem_coll.c - OpenSHMEM collectives against serial references: every
 * PE's contribution is a known function of (PE, index), so each PE can
 * compute what the collective must produce.  Sizes below and above the
 * engine's by-value limit (4 KiB).  TAP lines: shmemtest.h.
 */
#include <complex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "shmemtest.h"

#define SMALL 8
#define LARGE 4096

static long pSync[SHMEM_REDUCE_SYNC_SIZE];

static long src[LARGE], dst[T_MAX_PES * LARGE];

static long f(int pe, int i)
{
	return (long)pe * 100003 + i * 7;
}

static void test_barrier(void)
{
	static long got;

	shmem_long_p(&got, me + 1, right);
	shmem_barrier_all();
	EXPECT_EQ(left + 1, got);
	t_case("barrier_all_completes_the_puts_before_it");
}

static void test_broadcast(void)
{
	int root, n, i, ok = 1;

	for (n = SMALL; n <= LARGE; n *= LARGE / SMALL)
		for (root = 0; root < npes; root++) {
			for (i = 0; i < n; i++) {
				src[i] = f(me, i);
				dst[i] = -1;
			}
			shmem_long_broadcast(SHMEM_TEAM_WORLD, dst, src, n, root);
			for (i = 0; i < n && ok; i++) {
				ok = dst[i] == f(root, i);
				EXPECT(ok, "n %d root %d: expected dst[%d] = %ld, got %ld", n, root,
				       i, f(root, i), dst[i]);
			}
		}
	t_case("team_broadcast_updates_every_pe_including_the_root");

	root = npes - 1;
	for (i = 0; i < SMALL; i++) {
		src[i] = f(me, i);
		dst[i] = -1;
	}
	shmem_barrier_all();
	shmem_broadcast64(dst, src, SMALL, root, 0, 0, npes, pSync);
	for (i = 0; i < SMALL; i++)
		EXPECT_EQ(me == root ? -1 : f(root, i), dst[i]);
	EXPECT_EQ(SHMEM_SYNC_VALUE, pSync[0]);
	t_case("active_set_broadcast64_leaves_the_roots_dest_alone");
	shmem_barrier_all();
}

static void test_collect(void)
{
	int pe, i, at = 0;

	for (i = 0; i < LARGE; i++)
		src[i] = f(me, i);
	shmem_long_fcollect(SHMEM_TEAM_WORLD, dst, src, SMALL);
	for (pe = 0; pe < npes; pe++)
		for (i = 0; i < SMALL; i++)
			EXPECT_EQ(f(pe, i), dst[pe * SMALL + i]);
	t_case("fcollect_concatenates_equal_blocks_in_pe_order");

	/* PE p contributes p + 1 elements. */
	shmem_long_collect(SHMEM_TEAM_WORLD, dst, src, me + 1);
	for (pe = 0; pe < npes; pe++)
		for (i = 0; i <= pe; i++, at++)
			EXPECT_EQ(f(pe, i), dst[at]);
	t_case("collect_concatenates_unequal_blocks_in_pe_order");

	shmem_barrier_all();
	shmem_fcollect64(dst, src, LARGE / T_MAX_PES, 0, 0, npes, pSync);
	for (pe = 0; pe < npes; pe++)
		for (i = 0; i < LARGE / T_MAX_PES; i++)
			EXPECT_EQ(f(pe, i), dst[pe * (LARGE / T_MAX_PES) + i]);
	t_case("active_set_fcollect64");
	shmem_barrier_all();
}

static void test_alltoall(void)
{
	static long s[T_MAX_PES * 3 * SMALL], d[T_MAX_PES * 2 * SMALL];
	int pe, i, n = SMALL;

	/* Block j (for PE j) holds f(me, j * n + i). */
	for (i = 0; i < npes * n; i++)
		src[i] = f(me, i);
	shmem_long_alltoall(SHMEM_TEAM_WORLD, dst, src, n);
	for (pe = 0; pe < npes; pe++)
		for (i = 0; i < n; i++)
			EXPECT_EQ(f(pe, me * n + i), dst[pe * n + i]);
	t_case("alltoall_sends_block_j_to_pe_j");

	for (i = 0; i < npes * n; i++)
		s[i * 3] = f(me, i);
	memset(d, 0, sizeof d);
	shmem_long_alltoalls(SHMEM_TEAM_WORLD, d, s, 2, 3, n);
	for (pe = 0; pe < npes; pe++)
		for (i = 0; i < n; i++) {
			EXPECT_EQ(f(pe, me * n + i), d[(pe * n + i) * 2]);
			EXPECT_EQ(0, d[(pe * n + i) * 2 + 1]);
		}
	t_case("alltoalls_reads_and_writes_with_the_strides");
	shmem_barrier_all();
}

/* One team reduction against its serial reference, for type T. */
#define RED_CHECK(T, N, OP, EXPR, VAL, FMT)				\
static int red_##N##_##OP(void)						\
{									\
	static T s[SMALL], d[SMALL];					\
	T want;								\
	int i, pe, ok = 1;						\
									\
	for (i = 0; i < SMALL; i++)					\
		s[i] = VAL(me, i);					\
	shmem_##N##_##OP##_reduce(SHMEM_TEAM_WORLD, d, s, SMALL);	\
	for (i = 0; i < SMALL && ok; i++) {				\
		T x, y;							\
									\
		want = VAL(0, i);					\
		for (pe = 1; pe < npes; pe++) {				\
			x = VAL(pe, i);					\
			y = want;					\
			want = EXPR;					\
		}							\
		ok = d[i] == want;					\
		EXPECT(ok, #N "_" #OP "_reduce: expected [%d] = " FMT ", got " FMT, i, \
		       want, d[i]);					\
	}								\
	return ok;							\
}

#define V_INT(pe, i)	((int)((pe) * 37 + (i) * 11 - 50))
#define V_LONG(pe, i)	((long)(((pe) + 2) * ((i) + 1)))
#define V_DBL(pe, i)	(1.0 / ((pe) + 3) + (i) * 0.1)
#define V_FLT(pe, i)	((float)((pe) * 1.5 - (i)))
#define V_U64(pe, i)	(((uint64_t)0x9e3779b97f4a7c15 * ((pe) + 1)) >> (i))
#define V_CHAR(pe, i)	((char)('a' + ((pe) * 5 + (i)) % 26))
#define V_LD(pe, i)	((long double)(pe) / 7 + (i))
#define V_CPX(pe, i)	((double)(pe) + 1 + ((i) + 0.5) * I)
#define V_I8(pe, i)	((int8_t)((pe) * 29 + (i)))

RED_CHECK(int, int, sum, x + y, V_INT, "%d")
RED_CHECK(long, long, prod, x * y, V_LONG, "%ld")
RED_CHECK(float, float, max, x > y ? x : y, V_FLT, "%g")
RED_CHECK(float, float, min, x < y ? x : y, V_FLT, "%g")
RED_CHECK(uint64_t, uint64, and, x & y, V_U64, "%#lx")
RED_CHECK(uint64_t, uint64, or, x | y, V_U64, "%#lx")
RED_CHECK(uint64_t, uint64, xor, x ^ y, V_U64, "%#lx")
RED_CHECK(char, char, min, x < y ? x : y, V_CHAR, "%d")
RED_CHECK(long double, longdouble, max, x > y ? x : y, V_LD, "%Lg")
RED_CHECK(int8_t, int8, xor, x ^ y, V_I8, "%d")

/*
 * Floating-point sums depend on how the fold is associated, which the
 * specification leaves open: the result must be within rounding of the
 * serial sum and bit for bit the same on every PE.
 */
static void red_double_sum(void)
{
	static double s[SMALL], d[SMALL], d0[SMALL];
	int i, pe;

	for (i = 0; i < SMALL; i++)
		s[i] = V_DBL(me, i);
	shmem_double_sum_reduce(SHMEM_TEAM_WORLD, d, s, SMALL);
	for (i = 0; i < SMALL; i++) {
		double want = 0;

		for (pe = 0; pe < npes; pe++)
			want += V_DBL(pe, i);
		EXPECT(d[i] > want * (1 - 1e-14) && d[i] < want * (1 + 1e-14),
		       "expected [%d] within rounding of %.17g, got %.17g", i, want, d[i]);
	}
	shmem_barrier_all();
	shmem_getmem(d0, d, sizeof d, 0);
	EXPECT(!memcmp(d0, d, sizeof d), "expected PE 0's bits, got %.17g for %.17g", d[0], d0[0]);
	shmem_barrier_all();
}

static int red_complex(void)
{
	static double complex s[SMALL], d[SMALL];
	double complex want;
	int i, pe, ok = 1;

	for (i = 0; i < SMALL; i++)
		s[i] = V_CPX(me, i);
	shmem_complexd_prod_reduce(SHMEM_TEAM_WORLD, d, s, SMALL);
	for (i = 0; i < SMALL && ok; i++) {
		want = V_CPX(0, i);
		for (pe = 1; pe < npes; pe++)
			want = V_CPX(pe, i) * want;
		ok = d[i] == want;
		EXPECT(ok, "complexd_prod: expected [%d] = %g%+gi, got %g%+gi", i, creal(want),
		       cimag(want), creal(d[i]), cimag(d[i]));
	}
	return ok;
}

static void test_reduce(void)
{
	static long big[LARGE];
	int i, pe;

	red_int_sum();
	red_long_prod();
	t_case("integer_sum_and_prod_reduce_match_the_serial_fold");
	red_double_sum();
	t_case("double_sum_reduce_is_identical_on_every_pe_and_within_rounding");
	red_float_max();
	red_float_min();
	red_char_min();
	red_longdouble_max();
	t_case("max_and_min_reduce_match_the_serial_fold");
	red_uint64_and();
	red_uint64_or();
	red_uint64_xor();
	red_int8_xor();
	t_case("bitwise_reduce_matches_the_serial_fold");
	red_complex();
	t_case("complex_prod_reduce_matches_the_serial_fold");

	for (i = 0; i < LARGE; i++)
		big[i] = f(me, i);
	shmem_sum_reduce(SHMEM_TEAM_WORLD, big, big, LARGE);
	for (i = 0; i < LARGE; i++) {
		long want = 0;

		for (pe = 0; pe < npes; pe++)
			want += f(pe, i);
		if (big[i] != want) {
			EXPECT(0, "expected big[%d] = %ld, got %ld", i, want, big[i]);
			break;
		}
	}
	t_case("in_place_sum_reduce_of_32_kib");
}

static void test_to_all(void)
{
	static int s[SMALL], d[SMALL], wrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
	static long ps[SHMEM_REDUCE_SYNC_SIZE];
	int i, pe, evens = (npes + 1) / 2;

	for (i = 0; i < SMALL; i++)
		s[i] = V_INT(me, i);
	shmem_int_sum_to_all(d, s, SMALL, 0, 0, npes, wrk, ps);
	for (i = 0; i < SMALL; i++) {
		int want = 0;

		for (pe = 0; pe < npes; pe++)
			want += V_INT(pe, i);
		EXPECT_EQ(want, d[i]);
	}
	t_case("sum_to_all_over_every_pe");

	if (me % 2 == 0) {
		shmem_int_max_to_all(d, s, SMALL, 0, 1, evens, wrk, ps);
		for (i = 0; i < SMALL; i++) {
			int want = V_INT(0, i);

			for (pe = 2; pe < npes; pe += 2)
				want = V_INT(pe, i) > want ? V_INT(pe, i) : want;
			EXPECT_EQ(want, d[i]);
		}
		shmem_barrier(0, 1, evens, ps);
	}
	EXPECT_EQ(SHMEM_SYNC_VALUE, ps[0]);
	t_case("max_to_all_and_barrier_over_the_even_pes");
	shmem_barrier_all();
}

int main(void)
{
	int i;

	t_init();
	for (i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
		pSync[i] = SHMEM_SYNC_VALUE;
	shmem_barrier_all();
	test_barrier();
	test_broadcast();
	test_collect();
	test_alltoall();
	test_reduce();
	test_to_all();
	shmem_finalize();
	return 0;
}
