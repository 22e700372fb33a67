/*
 * shmem_team.c - OpenSHMEM teams and contexts: the predefined teams,
 * split_strided (also of a split team), split_2d, translate_pe, team
 * collectives, configuration, and contexts that number PEs by their team.
 * TAP lines: shmemtest.h.
 */
#include <string.h>
#include <smap.h>
#include "shmemtest.h"

static long landed[4];

static void test_predefined(void)
{
	shmem_team_t team = SHMEM_TEAM_INVALID;
	int pe, per = smap_size(), first = me - me % per;

	/* SHARED is this node's run of world PEs (the whole job on one node). */
	EXPECT_EQ(me, shmem_team_my_pe(SHMEM_TEAM_WORLD));
	EXPECT_EQ(npes, shmem_team_n_pes(SHMEM_TEAM_WORLD));
	EXPECT_EQ(per, shmem_team_n_pes(SHMEM_TEAM_SHARED));
	for (pe = 0; pe < npes; pe++)
		EXPECT_EQ(pe >= first && pe < first + per ? pe - first : -1,
			  shmem_team_translate_pe(SHMEM_TEAM_WORLD, pe, SHMEM_TEAM_SHARED));
	EXPECT_EQ(-1, shmem_team_translate_pe(SHMEM_TEAM_WORLD, npes, SHMEM_TEAM_SHARED));
	EXPECT_EQ(0, shmem_ctx_get_team(SHMEM_CTX_DEFAULT, &team));
	EXPECT(team == SHMEM_TEAM_WORLD, "expected the default context on the world team");
	EXPECT_EQ(-1, shmem_team_my_pe(SHMEM_TEAM_INVALID));
	t_case("world_and_shared_teams_cover_the_node_in_pe_order");
}

static void test_split(void)
{
	shmem_team_t even, odd, quarter;
	int evens = (npes + 1) / 2, odds = npes / 2;
	long mine = me + 1, sum = -1, want = 0;
	int pe;

	EXPECT_EQ(0, shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, evens, NULL, 0, &even));
	if (odds > 0)
		EXPECT_EQ(0, shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, odds, NULL, 0, &odd));
	else
		odd = SHMEM_TEAM_INVALID;
	if (me % 2 == 0) {
		EXPECT(even != SHMEM_TEAM_INVALID && odd == SHMEM_TEAM_INVALID,
		       "expected membership of the even team only");
		EXPECT_EQ(me / 2, shmem_team_my_pe(even));
		EXPECT_EQ(evens, shmem_team_n_pes(even));
		EXPECT_EQ(me, shmem_team_translate_pe(even, me / 2, SHMEM_TEAM_WORLD));
		if (npes > 1)
			EXPECT_EQ(-1, shmem_team_translate_pe(SHMEM_TEAM_WORLD, 1, even));
	} else {
		EXPECT(odd != SHMEM_TEAM_INVALID && even == SHMEM_TEAM_INVALID,
		       "expected membership of the odd team only");
		EXPECT_EQ(me / 2, shmem_team_my_pe(odd));
	}
	t_case("split_strided_gives_members_a_team_and_others_invalid");

	if (even != SHMEM_TEAM_INVALID) {
		shmem_long_sum_reduce(even, &sum, &mine, 1);
		for (pe = 0; pe < npes; pe += 2)
			want += pe + 1;
		EXPECT_EQ(want, sum);
		EXPECT_EQ(0, shmem_team_sync(even));
	}
	t_case("sum_reduce_on_a_split_team_adds_its_members_only");

	quarter = SHMEM_TEAM_INVALID;
	if (even != SHMEM_TEAM_INVALID) {
		EXPECT_EQ(0, shmem_team_split_strided(even, 0, 2, (evens + 1) / 2, NULL, 0,
						      &quarter));
		if (me % 4 == 0) {
			EXPECT_EQ(me / 4, shmem_team_my_pe(quarter));
			EXPECT_EQ(me, shmem_team_translate_pe(quarter, me / 4, SHMEM_TEAM_WORLD));
			shmem_team_destroy(quarter);
		} else {
			EXPECT(quarter == SHMEM_TEAM_INVALID, "expected no team for PE %d", me);
		}
	}
	t_case("split_of_a_split_team_strides_in_world_pes");
	if (even != SHMEM_TEAM_INVALID)
		shmem_team_destroy(even);
	if (odd != SHMEM_TEAM_INVALID)
		shmem_team_destroy(odd);
	shmem_barrier_all();
}

static void test_split_errors(void)
{
	shmem_team_t t = SHMEM_TEAM_WORLD, u = SHMEM_TEAM_WORLD;
	shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;

	EXPECT(shmem_team_split_strided(SHMEM_TEAM_INVALID, 0, 1, 1, NULL, 0, &t) != 0 &&
	       t == SHMEM_TEAM_INVALID, "expected a split of SHMEM_TEAM_INVALID to fail");
	t = SHMEM_TEAM_WORLD;
	EXPECT(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes + 1, NULL, 0, &t) != 0 &&
	       t == SHMEM_TEAM_INVALID, "expected a split past the parent's end to fail");
	EXPECT(shmem_team_split_2d(SHMEM_TEAM_INVALID, 1, NULL, 0, &t, NULL, 0, &u) != 0 &&
	       t == SHMEM_TEAM_INVALID && u == SHMEM_TEAM_INVALID,
	       "expected a 2-D split of SHMEM_TEAM_INVALID to fail");
	EXPECT(shmem_team_create_ctx(SHMEM_TEAM_INVALID, 0, &ctx) != 0 &&
	       ctx == SHMEM_CTX_INVALID, "expected no context on SHMEM_TEAM_INVALID");
	t_case("splits_and_contexts_of_invalid_teams_fail_on_every_pe");
}

static void test_split_2d(void)
{
	shmem_team_t x, y;
	int xr = npes > 2 ? 2 : 1, row = me / xr, col = me % xr;
	long mine = me, got[64];
	int i;

	EXPECT_EQ(0, shmem_team_split_2d(SHMEM_TEAM_WORLD, xr, NULL, 0, &x, NULL, 0, &y));
	EXPECT_EQ(col, shmem_team_my_pe(x));
	EXPECT_EQ(row, shmem_team_my_pe(y));
	EXPECT_EQ(row == (npes - 1) / xr ? npes - row * xr : xr, shmem_team_n_pes(x));
	EXPECT_EQ((npes - col + xr - 1) / xr, shmem_team_n_pes(y));
	shmem_long_fcollect(y, got, &mine, 1);
	for (i = 0; i < shmem_team_n_pes(y); i++)
		EXPECT_EQ(col + i * xr, got[i]);
	t_case("split_2d_makes_rows_and_columns");
	shmem_team_destroy(x);
	shmem_team_destroy(y);
}

/* shmem_team_ptr names a PE by its team number; destroying
 * SHMEM_TEAM_INVALID does nothing; hints a program clears with ~FLAG are
 * accepted; shmem_pcontrol takes any level. */
static long ptr_target = -1;

static void test_team_ptr_and_odds(void)
{
	shmem_team_t odd = SHMEM_TEAM_INVALID;
	long *p, *h;

	ptr_target = 1000 + me;
	shmem_barrier_all();
	if (npes >= 2 && shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, npes / 2, NULL, 0,
						  &odd) == 0 && odd != SHMEM_TEAM_INVALID) {
		/* Team PE 0 of the odd PEs is world PE 1. */
		p = shmem_team_ptr(odd, &ptr_target, 0);
		if (shmem_ptr(&ptr_target, 1))
			EXPECT(p && *p == 1001, "team_ptr(odd, 0) reads world PE 1's value");
		else
			EXPECT(p == NULL, "team_ptr to another node is NULL");
		EXPECT(shmem_team_ptr(odd, &ptr_target, npes) == NULL,
		       "team_ptr of a PE outside the team is NULL");
		shmem_team_destroy(odd);
	}
	EXPECT(shmem_team_ptr(SHMEM_TEAM_INVALID, &ptr_target, 0) == NULL,
	       "team_ptr of SHMEM_TEAM_INVALID is NULL");
	shmem_team_destroy(SHMEM_TEAM_INVALID);
	h = shmem_malloc_with_hints(64, ~SHMEM_MALLOC_ATOMICS_REMOTE);
	EXPECT(h != NULL, "malloc_with_hints(~SHMEM_MALLOC_ATOMICS_REMOTE) allocates");
	shmem_free(h);
	shmem_pcontrol(2);
	t_case("team_ptr_destroy_invalid_and_cleared_hints");
}

static void test_contexts(void)
{
	shmem_team_config_t conf = { .num_contexts = 1 }, back;
	shmem_team_t odd, team;
	shmem_ctx_t ctx, more;
	int odds = npes / 2, target;

	memset(landed, 0, sizeof landed);
	shmem_barrier_all();
	if (odds == 0) {
		t_case("context_on_a_team_numbers_pes_by_the_team");
		t_case("team_config_limits_its_contexts");
		return;
	}
	shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, odds, &conf, SHMEM_TEAM_NUM_CONTEXTS,
				 &odd);
	if (odd != SHMEM_TEAM_INVALID) {
		EXPECT_EQ(0, shmem_team_create_ctx(odd, 0, &ctx));
		EXPECT_EQ(0, shmem_ctx_get_team(ctx, &team));
		EXPECT(team == odd, "expected the context's team to be the odd team");
		/* Team PE t is world PE 2t + 1. */
		target = (shmem_team_my_pe(odd) + 1) % odds;
		shmem_ctx_long_p(ctx, &landed[0], me, target);
		shmem_ctx_quiet(ctx);
		shmem_team_sync(odd);
		EXPECT_EQ(2 * ((shmem_team_my_pe(odd) + odds - 1) % odds) + 1, landed[0]);
	}
	t_case("context_on_a_team_numbers_pes_by_the_team");

	if (odd != SHMEM_TEAM_INVALID) {
		EXPECT_EQ(0, shmem_team_get_config(odd, SHMEM_TEAM_NUM_CONTEXTS, &back));
		EXPECT_EQ(1, back.num_contexts);
		EXPECT(shmem_team_create_ctx(odd, 0, &more) != 0 && more == SHMEM_CTX_INVALID,
		       "expected a second context to be refused");
		shmem_ctx_destroy(ctx);
		EXPECT_EQ(0, shmem_team_create_ctx(odd, SHMEM_CTX_PRIVATE, &more));
		shmem_ctx_destroy(more);
		shmem_ctx_destroy(SHMEM_CTX_INVALID);
		shmem_team_destroy(odd);
	}
	t_case("team_config_limits_its_contexts");
}

int main(void)
{
	t_init();
	test_predefined();
	test_split();
	test_split_errors();
	test_split_2d();
	test_contexts();
	test_team_ptr_and_odds();
	shmem_finalize();
	return 0;
}
