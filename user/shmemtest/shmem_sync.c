/*
 * shmem_sync.c - OpenSHMEM ordering and point-to-point synchronisation:
 * fence, wait_until and test with their _all/_any/_some/_vector forms,
 * put-with-signal, and locks under contention.  TAP lines: shmemtest.h.
 */
#include <stdint.h>
#include <string.h>
#include "shmemtest.h"

#define N 256
#define LOCK_ROUNDS 200

static long data[N];
static long flag;
static int flags[T_MAX_PES];
static uint64_t sig;
static long slots[T_MAX_PES][8];
static long lock;
static long in_cs, cs_total, cs_overlap;

/* A token goes round the ring: data, fence, flag; each hop checks the data. */
static void test_ring(void)
{
	long buf[N];
	int i, hop;

	if (me == 0) {
		for (i = 0; i < N; i++)
			buf[i] = i;
		shmem_long_put(data, buf, N, right);
		shmem_fence();
		shmem_long_p(&flag, 1, right);
	}
	if (me != 0 || npes == 1) {
		shmem_long_wait_until(&flag, SHMEM_CMP_GE, 1);
		hop = (int)flag;
		for (i = 0; i < N; i++)
			if (data[i] != i + hop - 1) {
				EXPECT(0, "hop %d: expected data[%d] = %d, got %ld", hop, i,
				       i + hop - 1, data[i]);
				break;
			}
		if (me != npes - 1) {
			for (i = 0; i < N; i++)
				buf[i] = data[i] + 1;
			shmem_long_put(data, buf, N, right);
			shmem_fence();
			shmem_long_p(&flag, hop + 1, right);
		}
	}
	t_case("wait_until_wakes_on_a_remote_put_after_fenced_data");
	shmem_barrier_all();
	flag = 0;
	shmem_barrier_all();
}

static void test_compare_ops(void)
{
	long v = 5;

	EXPECT(shmem_long_test(&v, SHMEM_CMP_EQ, 5) && !shmem_long_test(&v, SHMEM_CMP_EQ, 4),
	       "expected EQ to hold for 5 only");
	EXPECT(shmem_long_test(&v, SHMEM_CMP_NE, 4) && !shmem_long_test(&v, SHMEM_CMP_NE, 5),
	       "expected NE to hold for 4 only");
	EXPECT(shmem_long_test(&v, SHMEM_CMP_GT, 4) && !shmem_long_test(&v, SHMEM_CMP_GT, 5),
	       "expected 5 > 4 and not 5 > 5");
	EXPECT(shmem_long_test(&v, SHMEM_CMP_GE, 5) && !shmem_long_test(&v, SHMEM_CMP_GE, 6),
	       "expected 5 >= 5 and not 5 >= 6");
	EXPECT(shmem_long_test(&v, SHMEM_CMP_LT, 6) && !shmem_long_test(&v, SHMEM_CMP_LT, 5),
	       "expected 5 < 6 and not 5 < 5");
	EXPECT(shmem_long_test(&v, SHMEM_CMP_LE, 5) && !shmem_long_test(&v, SHMEM_CMP_LE, 4),
	       "expected 5 <= 5 and not 5 <= 4");
	t_case("test_evaluates_every_comparison");
}

static void test_all_any_some(void)
{
	int status[T_MAX_PES], cmp[T_MAX_PES], i, pe;
	size_t idx[T_MAX_PES], n;

	memset(status, 0, sizeof status);
	EXPECT(shmem_int_test_any(flags, npes, NULL, SHMEM_CMP_EQ, 1) == SIZE_MAX,
	       "expected test_any to find nothing before any put");
	EXPECT_EQ(0, shmem_int_test_some(flags, npes, idx, NULL, SHMEM_CMP_EQ, 1));
	t_case("test_any_and_some_find_nothing_before_the_puts");
	shmem_barrier_all();

	for (pe = 0; pe < npes; pe++)
		shmem_int_p(&flags[me], 1, pe);
	shmem_int_wait_until_all(flags, npes, NULL, SHMEM_CMP_EQ, 1);
	EXPECT(shmem_int_test_all(flags, npes, NULL, SHMEM_CMP_EQ, 1),
	       "expected every flag set after wait_until_all");
	t_case("wait_until_all_returns_when_every_pe_has_put");
	shmem_barrier_all();

	/* Only the left neighbour writes a 2; everything else is masked or 1. */
	status[me] = 1;
	if (npes > 1)
		shmem_int_p(&flags[me], 2, right);
	i = (int)shmem_int_wait_until_any(flags, npes, npes > 1 ? NULL : status, SHMEM_CMP_EQ, 2);
	EXPECT(npes > 1 ? i == left : i == (int)SIZE_MAX,
	       "expected wait_until_any to return %d, got %d", npes > 1 ? left : -1, i);
	n = shmem_int_wait_until_some(flags, npes, idx, status, SHMEM_CMP_GE, 1);
	EXPECT(n == (size_t)npes - 1, "expected %d flags >= 1 outside the mask, got %zu",
	       npes - 1, n);
	for (i = 0; i < (int)n; i++)
		EXPECT(idx[i] != (size_t)me, "expected the masked index %d left out", me);
	t_case("wait_until_any_and_some_skip_masked_indices");
	shmem_barrier_all();

	for (i = 0; i < npes; i++)
		cmp[i] = flags[i];
	EXPECT(shmem_int_test_all_vector(flags, npes, NULL, SHMEM_CMP_EQ, cmp),
	       "expected test_all_vector to match the flags themselves");
	cmp[0]++;
	EXPECT_EQ(0, shmem_int_test_all_vector(flags, npes, NULL, SHMEM_CMP_EQ, cmp));
	EXPECT_EQ(0, shmem_int_wait_until_any_vector(flags, npes, NULL, SHMEM_CMP_NE, cmp));
	EXPECT_EQ(npes - 1, shmem_int_test_some_vector(flags, npes, idx, NULL, SHMEM_CMP_EQ, cmp));
	shmem_int_wait_until_all_vector(flags, npes, status, SHMEM_CMP_GE, flags);
	t_case("vector_forms_compare_each_element_with_its_own_value");
	shmem_barrier_all();
}

static void test_signal(void)
{
	long buf[8];
	int i, pe;
	uint64_t got;

	for (i = 0; i < 8; i++)
		buf[i] = me * 10 + i;
	shmem_long_put_signal(slots[0], buf, 8, &sig, (uint64_t)me + 1, SHMEM_SIGNAL_SET, right);
	got = shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, (uint64_t)left + 1);
	EXPECT_EQ(left + 1, got);
	for (i = 0; i < 8; i++)
		EXPECT_EQ(left * 10 + i, slots[0][i]);
	t_case("put_signal_set_delivers_the_data_before_the_signal");
	shmem_barrier_all();
	sig = 0;
	shmem_barrier_all();

	shmem_putmem_signal(slots[me], buf, sizeof buf, &sig, 1, SHMEM_SIGNAL_ADD, 0);
	if (me == 0) {
		shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, (uint64_t)npes);
		for (pe = 0; pe < npes; pe++)
			for (i = 0; i < 8; i++)
				EXPECT_EQ(pe * 10 + i, slots[pe][i]);
		EXPECT_EQ(npes, shmem_signal_fetch(&sig));
	}
	t_case("put_signal_add_counts_every_pe_with_its_data");
	shmem_barrier_all();
}

/* Critical sections on PE 0's counter: a read, a write back, and a check
 * that nobody else is inside. */
static void test_lock(void)
{
	int i;

	for (i = 0; i < LOCK_ROUNDS; i++) {
		long total;

		shmem_set_lock(&lock);
		if (shmem_long_atomic_fetch_inc(&in_cs, 0) != 0)
			shmem_long_atomic_inc(&cs_overlap, 0);
		total = shmem_long_g(&cs_total, 0);
		shmem_long_p(&cs_total, total + 1, 0);
		shmem_quiet();
		shmem_long_atomic_add(&in_cs, -1, 0);
		shmem_clear_lock(&lock);
	}
	shmem_barrier_all();
	EXPECT_EQ((long)npes * LOCK_ROUNDS, shmem_long_g(&cs_total, 0));
	EXPECT_EQ(0, shmem_long_g(&cs_overlap, 0));
	t_case("set_lock_excludes_every_other_pe_under_contention");

	if (me == 0)
		shmem_set_lock(&lock);
	shmem_barrier_all();
	if (me != 0)
		EXPECT_EQ(1, shmem_test_lock(&lock));
	shmem_barrier_all();
	if (me == 0)
		shmem_clear_lock(&lock);
	while (shmem_test_lock(&lock))
		;
	shmem_long_atomic_inc(&cs_total, 0);
	shmem_clear_lock(&lock);
	shmem_barrier_all();
	EXPECT_EQ((long)npes * (LOCK_ROUNDS + 1), shmem_long_g(&cs_total, 0));
	t_case("test_lock_fails_while_held_and_succeeds_once_free");
}

/* A token goes once around the ring for each way of polling that does not
 * block: a PE polls its own word until its left neighbour has set it, then
 * sets its right neighbour's.  Across nodes a whole node may sit in such
 * calls while the token comes to it from another node. */
static long tokens[4];
static uint64_t token_sig;

static int token_polled(int way)
{
	switch (way) {
	case 0:
		return shmem_long_atomic_fetch(&tokens[0], me) != 0;
	case 1:
		return shmem_long_test(&tokens[1], SHMEM_CMP_NE, 0);
	case 2:
		return shmem_long_g(&tokens[2], me) != 0;
	default:
		return shmem_signal_fetch(&token_sig) != 0;
	}
}

static void test_polls(void)
{
	int way;

	for (way = 0; way < 4; way++) {
		long mine = me + 1;

		if (me != 0)
			while (!token_polled(way))
				;
		if (way < 3)
			shmem_long_atomic_set(&tokens[way], mine, right);
		else
			shmem_long_put_signal(&tokens[3], &mine, 1, &token_sig, 1, SHMEM_SIGNAL_SET,
					      right);
		if (me == 0)
			while (!token_polled(way))
				;
		EXPECT(shmem_long_atomic_fetch(&tokens[way], me) == left + 1,
		       "expected token %d from PE %d, got %ld", way, left, tokens[way]);
	}
	shmem_barrier_all();
	t_case("polling_fetch_test_g_and_signal_fetch_see_a_token_from_any_node");
}

int main(void)
{
	t_init();
	test_ring();
	test_compare_ops();
	test_all_any_some();
	test_signal();
	test_lock();
	test_polls();
	shmem_finalize();
	return 0;
}
