/*
 * lang_symheap.c - the symmetric heap's size (docs/shmem.md).
 *
 *   lang_symheap grow MiB      without SHMEM_SYMMETRIC_SIZE: a block of MiB
 *                              (more than the initial heap) and then another,
 *                              both usable from every PE at both ends
 *   lang_symheap fixed MiB     with SHMEM_SYMMETRIC_SIZE below MiB: NULL on
 *                              every PE, and smaller blocks still work
 *   lang_symheap toobig        a block larger than the region: NULL, and PE 0
 *                              says what --mem to give
 *
 * PE 0 prints one TAP line per behaviour with every PE's verdict.
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int verdict;
static int all_ok;

static void report(const char *name, int ok)
{
	static int pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
	static long psync[SHMEM_REDUCE_SYNC_SIZE];

	verdict = ok;
	for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
		psync[i] = SHMEM_SYNC_VALUE;
	shmem_barrier_all();
	shmem_int_and_to_all(&all_ok, &verdict, 1, 0, 0, shmem_n_pes(), pwrk, psync);
	if (shmem_my_pe() == 0)
		printf("%sok %s\n", all_ok ? "" : "not ", name);
	fflush(stdout);
	shmem_barrier_all();
}

/* Write both ends of the block on the next PE, read them back there; the
 * next PE may be on another node (lwkrun --nodes), where shmem_ptr is NULL. */
static int both_ends(char *b, size_t n)
{
	int me = shmem_my_pe(), np = shmem_n_pes(), next = (me + 1) % np;
	char v = (char)(1 + me), want = (char)(1 + (me + np - 1) % np);
	int here = shmem_team_translate_pe(SHMEM_TEAM_WORLD, next, SHMEM_TEAM_SHARED) >= 0;

	shmem_char_p(b, v, next);
	shmem_char_p(b + n - 1, v, next);
	shmem_barrier_all();
	return b[0] == want && b[n - 1] == want && (shmem_ptr(b + n - 1, next) != NULL) == here;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "grow";
	size_t mib = argc > 2 ? strtoul(argv[2], NULL, 10) : 256, n = mib << 20;

	shmem_init();
	if (!strcmp(mode, "grow")) {
		char *a = shmem_malloc(n);

		report("symheap_grows_for_a_large_block", a != NULL);
		report("symheap_large_block_both_ends_remote", a && both_ends(a, n));
		char *b = shmem_malloc(n / 2);
		report("symheap_grows_again", b != NULL && (b >= a + n || b + n / 2 <= a));
		report("symheap_second_block_both_ends_remote", b && both_ends(b, n / 2));
		shmem_free(b);
		shmem_free(a);
		char *c = shmem_malloc(n);
		report("symheap_freed_space_reused", c != NULL && c == a);
		shmem_free(c);
	} else if (!strcmp(mode, "fixed")) {
		char *a = shmem_malloc(n);

		report("symheap_fixed_size_refuses_more", a == NULL);
		a = shmem_malloc(n / 4);
		report("symheap_fixed_size_serves_less", a != NULL && both_ends(a, n / 4));
		shmem_free(a);
	} else {
		char *a = shmem_malloc((size_t)1 << 40);

		report("symheap_beyond_region_is_null", a == NULL);
		a = shmem_malloc(1 << 20);
		report("symheap_usable_after_refusal", a != NULL && both_ends(a, 1 << 20));
		shmem_free(a);
	}
	shmem_finalize();
	return 0;
}
