/*
 * shmem_nodes.c - OpenSHMEM on a job of several nodes (lwkrun --nodes K):
 * PEs are world ranks, shmem_ptr gives addresses on this node only, every
 * PE it calls accessible really is (puts and gets through the network),
 * SHMEM_TEAM_SHARED is the node, collectives on it work, and barrier_all
 * spans the nodes.  On one node it checks the same things of a single node.
 * TAP lines from the first PE of each node.
 *
 * usage: shmem_nodes [net | off_node]
 *   net       every PE must be accessible (the nodes have a network)
 *   off_node  a put to the next node's first PE, which must fail naming
 *             the call (nodes without a network)
 */
#include <string.h>
#include "shmemtest.h"

static long x;
static long from[T_MAX_PES];

int main(int argc, char **argv)
{
	int per, node, first, pe, i;
	long mine, sum = -1;

	t_init();
	per = shmem_team_n_pes(SHMEM_TEAM_SHARED);
	first = me - shmem_team_my_pe(SHMEM_TEAM_SHARED);
	node = me / per;
	EXPECT_EQ(node * per, first);
	EXPECT_EQ(0, npes % per);
	t_case("shared_team_is_this_nodes_run_of_world_pes");

	for (pe = 0; pe < npes; pe++) {
		int here = pe / per == node;
		int net = argc > 1 && !strcmp(argv[1], "net");

		EXPECT(shmem_pe_accessible(pe) == (here || net), "expected pe_accessible(%d) = %d",
		       pe, here || net);
		EXPECT((shmem_ptr(&x, pe) != NULL) == here, "expected ptr(%d) %s", pe,
		       here ? "non-NULL" : "NULL");
	}
	t_case("ptr_on_this_node_only_accessible_where_reachable");

	for (pe = 0; pe < npes; pe++)
		if (shmem_pe_accessible(pe))
			shmem_long_p(&from[me], me + 1, pe);
	shmem_barrier_all();
	for (pe = 0; pe < npes; pe++) {
		long want = shmem_pe_accessible(pe) ? pe + 1 : 0, got = 0;

		EXPECT(from[pe] == want, "expected from[%d] == %ld, got %ld", pe, want, from[pe]);
		if (shmem_pe_accessible(pe))
			shmem_long_get(&got, &from[me], 1, pe);
		want = shmem_pe_accessible(pe) ? me + 1 : 0;
		EXPECT(got == want, "expected PE %d's from[%d] == %ld, got %ld", pe, me, want, got);
	}
	t_case("every_accessible_pe_takes_puts_and_gets");

	if (argc > 1 && !strcmp(argv[1], "off_node"))
		shmem_long_p(&x, 1, (first + per) % npes);

	mine = me;
	shmem_long_sum_reduce(SHMEM_TEAM_SHARED, &sum, &mine, 1);
	EXPECT_EQ((long)per * first + (long)per * (per - 1) / 2, sum);
	t_case("sum_reduce_on_the_shared_team");

	for (i = 0; i < 100; i++)
		shmem_barrier_all();
	t_case("barrier_all_spans_the_nodes");
	shmem_finalize();
	return 0;
}
