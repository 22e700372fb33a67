/*
 * shmem_amo.c - OpenSHMEM atomics: every PE hammers the same word on PE 0
 * (or its neighbour) and the totals must come out exact.  TAP lines:
 * shmemtest.h.
 */
#include <stdint.h>
#include <string.h>
#include "shmemtest.h"

#define ROUNDS 500

static long counter;
static int tickets[T_MAX_PES * ROUNDS];
static int owner = -1, winners;
static long swapped[T_MAX_PES], swap_target = -7;
static unsigned long mask;
static double dval;
static float fval;

static void test_add(void)
{
	long sum;
	int i;

	for (i = 0; i < ROUNDS; i++) {
		shmem_long_atomic_add(&counter, 2, 0);
		shmem_long_atomic_fetch_add(&counter, 1, 0);
		shmem_long_atomic_inc(&counter, 0);
	}
	shmem_barrier_all();
	sum = shmem_long_atomic_fetch(&counter, 0);
	EXPECT_EQ((long)npes * ROUNDS * 4, sum);
	t_case("adds_from_every_pe_to_one_word_sum_exactly");
}

static void test_tickets(void)
{
	int i, n = npes * ROUNDS;

	shmem_long_atomic_set(&counter, 0, 0);
	shmem_barrier_all();
	for (i = 0; i < ROUNDS; i++) {
		long t = shmem_long_atomic_fetch_inc(&counter, 0);

		if (t < 0 || t >= n) {
			EXPECT(0, "expected a ticket in 0..%d, got %ld", n - 1, t);
			break;
		}
		shmem_int_atomic_inc(&tickets[t], 0);
	}
	shmem_barrier_all();
	if (me == 0)
		for (i = 0; i < n; i++)
			if (tickets[i] != 1) {
				EXPECT(0, "expected ticket %d handed out once, got %d times", i, tickets[i]);
				break;
			}
	t_case("fetch_inc_hands_out_every_ticket_exactly_once");
}

static void test_compare_swap(void)
{
	int old = shmem_int_atomic_compare_swap(&owner, -1, me, 0);

	if (old == -1)
		shmem_int_atomic_add(&winners, 1, 0);
	shmem_barrier_all();
	EXPECT_EQ(1, shmem_int_g(&winners, 0));
	EXPECT(shmem_int_g(&owner, 0) >= 0 && shmem_int_g(&owner, 0) < npes,
	       "expected the owner to be a PE, got %d", shmem_int_g(&owner, 0));
	t_case("compare_swap_elects_exactly_one_winner");
}

/* The values swapped out plus the one left are the initial value and one per PE. */
static void test_swap(void)
{
	long got = shmem_long_atomic_swap(&swap_target, 100 + me, 0), seen[T_MAX_PES + 1];
	int i, j;

	shmem_long_p(&swapped[me], got, 0);
	shmem_barrier_all();
	if (me == 0) {
		memcpy(seen, swapped, npes * sizeof *seen);
		seen[npes] = swap_target;
		for (i = -1; i < npes; i++) {
			long want = i < 0 ? -7 : 100 + i;

			for (j = 0; j <= npes && seen[j] != want; j++)
				;
			EXPECT(j <= npes, "expected %ld among the swapped values, missing", want);
			if (j <= npes)
				seen[j] = -1000;
		}
	}
	t_case("swaps_pass_every_value_on_exactly_once");
}

static void test_bitwise(void)
{
	unsigned long bit = 1UL << (me % 64), old;

	old = shmem_ulong_atomic_fetch_or(&mask, bit, 0);
	EXPECT(!(old & bit), "expected bit %d clear before fetch_or, got %#lx", me, old);
	shmem_barrier_all();
	EXPECT_EQ(npes >= 64 ? ~0UL : (1UL << npes) - 1, shmem_ulong_atomic_fetch(&mask, 0));
	t_case("fetch_or_from_every_pe_sets_every_bit");

	shmem_ulong_atomic_xor(&mask, bit, 0);
	shmem_ulong_atomic_xor(&mask, bit, 0);
	shmem_ulong_atomic_and(&mask, ~bit, 0);
	shmem_barrier_all();
	EXPECT_EQ(0, shmem_ulong_atomic_fetch(&mask, 0));
	t_case("xor_twice_then_and_clears_every_bit");
}

static void test_float(void)
{
	double d;
	float f;

	shmem_double_atomic_set(&dval, me + 0.25, right);
	shmem_float_atomic_set(&fval, me + 0.5f, right);
	shmem_barrier_all();
	d = shmem_double_atomic_fetch(&dval, me);
	f = shmem_atomic_fetch(&fval, me);
	EXPECT(d == left + 0.25, "expected %g, got %g", left + 0.25, d);
	EXPECT(f == left + 0.5f, "expected %g, got %g", left + 0.5f, f);
	shmem_barrier_all();
	d = shmem_atomic_swap(&dval, -1.0, right);
	EXPECT(d == me + 0.25, "expected swap to return %g, got %g", me + 0.25, d);
	t_case("double_and_float_set_fetch_swap");
}

/* One sum per standard AMO type: every PE adds its number + 1 on PE 0. */
#define AMO_TYPE_SUM(T, N)						\
static T sum_##N;							\
static int check_##N(void)						\
{									\
	T want = (T)((long long)npes * (npes + 1) / 2);			\
									\
	shmem_##N##_atomic_add(&sum_##N, (T)(me + 1), 0);		\
	shmem_barrier_all();						\
	return shmem_##N##_atomic_fetch(&sum_##N, 0) == want;		\
}
SHMEMI_AMO_STD_TYPES(AMO_TYPE_SUM)

static void test_every_type(void)
{
#define AMO_TYPE_CHECK(T, N) EXPECT(check_##N(), "%s: expected sum %d", #T, npes * (npes + 1) / 2);
	SHMEMI_AMO_STD_TYPES(AMO_TYPE_CHECK)
	t_case("add_sums_exactly_for_every_standard_amo_type");
}

static void test_nbi_and_ctx(void)
{
	long f1 = -1, f2 = -1, f3 = -1;
	shmem_ctx_t ctx;

	shmem_long_atomic_set(&counter, 10, me);
	shmem_barrier_all();
	shmem_long_atomic_fetch_add_nbi(&f1, &counter, 5, right);
	shmem_long_atomic_compare_swap_nbi(&f2, &counter, 15, 20, right);
	shmem_long_atomic_fetch_nbi(&f3, &counter, right);
	shmem_quiet();
	EXPECT(f1 == 10 && f2 == 15 && f3 == 20, "expected fetches 10, 15, 20, got %ld, %ld, %ld",
	       f1, f2, f3);
	t_case("nbi_atomics_fill_their_fetch_after_quiet");

	EXPECT_EQ(0, shmem_ctx_create(0, &ctx));
	shmem_barrier_all();
	shmem_ctx_long_atomic_add(ctx, &counter, 1, left);
	EXPECT_EQ(20, shmem_ctx_long_atomic_fetch_inc(ctx, &counter, left) - 1);
	shmem_ctx_quiet(ctx);
	shmem_barrier_all();
	EXPECT_EQ(22, counter);
	shmem_ctx_destroy(ctx);
	t_case("context_atomics_number_pes_in_the_world_team");
}

static void test_deprecated(void)
{
	int i;

	shmem_long_atomic_set(&counter, 0, 0);
	shmem_barrier_all();
	for (i = 0; i < ROUNDS; i++) {
		shmem_long_add(&counter, 1, 0);
		shmem_long_fadd(&counter, 1, 0);
		shmem_long_inc(&counter, 0);
		shmem_long_finc(&counter, 0);
	}
	shmem_barrier_all();
	EXPECT_EQ((long)npes * ROUNDS * 4, shmem_long_fetch(&counter, 0));
	t_case("deprecated_add_fadd_inc_finc_sum_exactly");

	shmem_barrier_all();
	if (me == 0)
		shmem_long_set(&counter, 5, 0);
	shmem_barrier_all();
	EXPECT_EQ(5, shmem_long_cswap(&counter, 6, 7, 0));
	shmem_barrier_all();
	if (me == 0)
		EXPECT_EQ(5, shmem_swap(&counter, 9L, 0));
	t_case("deprecated_cswap_swap_set_fetch");
}

int main(void)
{
	t_init();
	test_add();
	test_tickets();
	test_compare_swap();
	test_swap();
	test_bitwise();
	test_float();
	test_every_type();
	test_nbi_and_ctx();
	test_deprecated();
	shmem_finalize();
	return 0;
}
