/*
 * rheap_unit.c - host unit test of the remote heap (libsmap/rpipe/rheap.c,
 * the same source libsmap builds): which hole each policy picks, exhaustion
 * and recovery, coalescing, the checks on bad frees, and a long random run
 * of every policy against a model that writes every allocation full and
 * checks it is intact when freed.
 */
#include <stdlib.h>
#include "../../libsmap/rpipe/rheap.h"
#include "../../tests/unit/unit.h"

#define U	RHEAP_UNIT

static struct rheap *heap(uint64_t size)
{
	static void *mem;

	free(mem);
	if (posix_memalign(&mem, U, size))
		exit(2);
	memset(mem, 0xa5, size);
	return mem;
}

static const char *pname[] = { "next_fit", "best_fit", "worst_fit" };

static void test_init(void)
{
	struct rheap *h = heap(4096);
	struct rheap_stats st;

	CHECK("rheap_too_small_region_refused", rheap_init(h, RHEAP_MIN - 1) == -1, "accepted");
	CHECK("rheap_init_one_free_block", rheap_init(h, 4096 + 10) == 0 && !rheap_stats(h, &st) &&
	      st.free == 1 && st.used == 0 && st.largest == 4096 - 2 * U,
	      "free %lu used %lu largest %lu", (unsigned long)st.free, (unsigned long)st.used,
	      (unsigned long)st.largest);
}

static void test_alloc_basics(void)
{
	struct rheap *h = heap(4096);
	uint64_t a, b, *t;

	rheap_init(h, 4096);
	a = rheap_alloc(h, 0, RHEAP_NEXT_FIT);
	b = rheap_alloc(h, 65, RHEAP_NEXT_FIT);
	CHECK("rheap_payloads_are_cache_line_aligned", a && b && a % U == 0 && b % U == 0,
	      "offsets %lu %lu", (unsigned long)a, (unsigned long)b);
	CHECK("rheap_capacity_rounds_up_to_units", rheap_capacity(h, a) == U && rheap_capacity(h, b) == 2 * U,
	      "capacities %lu %lu", (unsigned long)rheap_capacity(h, a), (unsigned long)rheap_capacity(h, b));
	t = rheap_tag(h, b);
	CHECK("rheap_tag_starts_at_zero", t && *t == 0, "tag %p", (void *)t);
	CHECK("rheap_larger_than_region_fails", rheap_alloc(h, 1 << 20, RHEAP_BEST_FIT) == 0, "got one");
	CHECK("rheap_double_free_refused", rheap_free(h, a) == 0 && rheap_free(h, a) == -1, "accepted");
	CHECK("rheap_free_inside_a_block_refused", rheap_free(h, b + U) == -1, "accepted");
	CHECK("rheap_free_outside_the_region_refused",
	      rheap_free(h, 1 << 20) == -1 && rheap_free(h, U) == -1 && rheap_free(h, 0) == -1, "accepted");
	CHECK("rheap_no_tag_for_freed_block", rheap_tag(h, a) == NULL && rheap_capacity(h, a) == 0,
	      "still has one");
}

/*
 * Blocks of 1, 1, 3, 1, 2 and 1 payload units (A..F), then one block with
 * the rest; A, C and E freed: holes of 1, 3 and 2 units with used blocks
 * between them.  Then, in payload units:
 *
 *   1, 1, 1   next fit: A (the search wraps from the end), C (split), rest of C
 *             best fit: A, E (too small to split), C
 *             worst fit: C (split), E, A (ties go to the first hole found)
 *   3, 1, 1   next fit: C, E (the search goes on after C), A
 *             best fit: C, A, E
 *
 * (a first fit would give A, C, rest of C and then C, A, E).
 */
static const uint64_t units[6] = { 1, 1, 3, 1, 2, 1 };

/* The allocation that went wrong, or -1. */
static int policy_run(int p, const uint64_t *sizes, const int *want, uint64_t *got,
		      uint64_t *expected)
{
	uint64_t off[6], exp[5];
	struct rheap_stats st;
	struct rheap *h = heap(64 * U);
	int i;

	rheap_init(h, 64 * U);
	for (i = 0; i < 6; i++)
		off[i] = rheap_alloc(h, units[i] * U, p);
	rheap_stats(h, &st);
	rheap_alloc(h, st.largest, p);
	rheap_free(h, off[0]);
	rheap_free(h, off[2]);
	rheap_free(h, off[4]);
	exp[0] = off[0];
	exp[1] = off[1];
	exp[2] = off[2];
	exp[3] = off[2] + 2 * U;	/* the rest of C after a one-unit split */
	exp[4] = off[4];
	for (i = 0; i < 3; i++) {
		*got = rheap_alloc(h, sizes[i] * U, p);
		*expected = exp[want[i]];
		if (*got != *expected)
			return i;
	}
	return -1;
}

static void test_policies(void)
{
	static const uint64_t ones[3] = { 1, 1, 1 }, three[3] = { 3, 1, 1 };
	static const int want_ones[3][3] = { { 0, 2, 3 }, { 0, 4, 2 }, { 2, 4, 0 } };
	static const int want_three[3][3] = { { 2, 4, 0 }, { 2, 0, 4 }, { 2, 4, 0 } };
	const char *seq;
	uint64_t got, exp;
	int p, bad;
	char name[64];

	for (p = 0; p < 3; p++) {
		snprintf(name, sizeof name, "rheap_%s_picks_the_expected_holes", pname[p]);
		seq = "1, 1, 1";
		bad = policy_run(p, ones, want_ones[p], &got, &exp);
		if (bad < 0) {
			seq = "3, 1, 1";
			bad = policy_run(p, three, want_three[p], &got, &exp);
		}
		CHECK(name, bad < 0, "allocation %d of sequence %s at %lu, expected %lu", bad, seq,
		      (unsigned long)got, (unsigned long)exp);
	}
}

/* Fill to exhaustion, free everything in a scrambled order, and the whole
 * heap must come back as one block. */
static void test_exhaustion_and_recovery(void)
{
	enum { SIZE = 256 * 1024, MAX = SIZE / (2 * U) };
	static uint64_t off[MAX];
	struct rheap_stats st;
	struct rheap *h;
	uint64_t whole, t;
	int p, n, i, j;
	char name[80];

	for (p = 0; p < 3; p++) {
		h = heap(SIZE);
		rheap_init(h, SIZE);
		rheap_stats(h, &st);
		whole = st.largest;
		srand(p + 1);
		for (n = 0; n < MAX; n++)
			if (!(off[n] = rheap_alloc(h, 1 + rand() % 700, p)))
				break;
		rheap_stats(h, &st);
		snprintf(name, sizeof name, "rheap_%s_exhausts_with_little_left", pname[p]);
		CHECK(name, n < MAX && st.largest < 700 && st.free_bytes < SIZE / 64,
		      "%d blocks, %lu bytes left, largest hole %lu", n, (unsigned long)st.free_bytes,
		      (unsigned long)st.largest);
		for (i = n - 1; i > 0; i--) {
			j = rand() % (i + 1);
			t = off[i];
			off[i] = off[j];
			off[j] = t;
		}
		for (i = 0; i < n; i++)
			if (rheap_free(h, off[i]))
				break;
		rheap_stats(h, &st);
		snprintf(name, sizeof name, "rheap_%s_recovers_one_block", pname[p]);
		CHECK(name, i == n && st.free == 1 && st.used == 0 && st.largest == whole &&
		      rheap_alloc(h, whole, p) == 2 * U,
		      "freed %d of %d, %lu free blocks, largest %lu of %lu", i, n, (unsigned long)st.free,
		      (unsigned long)st.largest, (unsigned long)whole);
	}
}

/* Random allocations and frees; every live block is filled with its own
 * byte and must still hold it when freed; the walk must stay consistent. */
static void test_random_model(void)
{
	enum { SIZE = 1 << 20, LIVE = 512, OPS = 40000 };
	static uint64_t off[LIVE], len[LIVE];
	struct rheap_stats st;
	unsigned char *base;
	struct rheap *h;
	int p, k, i, bad;
	uint64_t j;
	char name[64];

	for (p = 0; p < 3; p++) {
		h = heap(SIZE);
		base = (unsigned char *)h;
		rheap_init(h, SIZE);
		memset(off, 0, sizeof off);
		srand(100 + p);
		bad = 0;
		for (k = 0; k < OPS && !bad; k++) {
			i = rand() % LIVE;
			if (off[i]) {
				for (j = 0; j < len[i] && !bad; j++)
					bad = base[off[i] + j] != (unsigned char)i;
				bad |= rheap_free(h, off[i]) != 0;
				off[i] = 0;
			} else {
				len[i] = 1 + rand() % (rand() % 8 ? 300 : 20000);
				off[i] = rheap_alloc(h, len[i], p);
				if (off[i])
					memset(base + off[i], i, len[i]);
			}
			if (k % 1000 == 0)
				bad |= rheap_stats(h, &st) != 0;
		}
		snprintf(name, sizeof name, "rheap_%s_random_run_keeps_blocks_intact", pname[p]);
		CHECK(name, !bad, "failed at operation %d (slot %d)", k, i);
	}
}

/* rpipe between nodes: the writer allocates in a copy of the reader's
 * headers and copies each header it hands out into the reader's heap; the
 * reader forgets what it frees and the writer frees it in its copy. */
static void test_mirror(void)
{
	static uint64_t owner_mem[4096 / 8] __attribute__((aligned(64)));
	struct rheap *o = (struct rheap *)owner_mem, *w = heap(4096);
	uint64_t a, b;

	rheap_init(o, 4096);
	rheap_init(w, 4096);
	a = rheap_alloc(w, 100, RHEAP_NEXT_FIT);
	b = rheap_alloc(w, 200, RHEAP_NEXT_FIT);
	memcpy((char *)o + a - U, (char *)w + a - U, U);
	memcpy((char *)o + b - U, (char *)w + b - U, U);
	CHECK("rheap_mirrored_headers_give_the_owner_capacities",
	      rheap_capacity(o, a) == 128 && rheap_capacity(o, b) == 256, "%lu %lu",
	      (unsigned long)rheap_capacity(o, a), (unsigned long)rheap_capacity(o, b));
	CHECK("rheap_forget_once_then_refused",
	      rheap_forget(o, a) == 0 && rheap_forget(o, a) == -1 && rheap_capacity(o, a) == 0 &&
	      rheap_capacity(o, b) == 256 && rheap_forget(o, a + U) == -1, "a second forget passed");
	CHECK("rheap_forgotten_block_freed_in_the_copy",
	      rheap_free(w, a) == 0 && rheap_alloc(w, 100, RHEAP_BEST_FIT) == a, "not reused");
}

int main(void)
{
	test_init();
	test_alloc_basics();
	test_policies();
	test_exhaustion_and_recovery();
	test_random_model();
	test_mirror();
	return unit_failed;
}
