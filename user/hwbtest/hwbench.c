/*
 * hwbench.c - the hardware barrier's latency, in the terms of Hoefler et
 * al.'s model t_b = o_w + o_p(P) + o_r (lwkrun --nodes K -n N hwbench I).
 *
 * Three loops of I barriers each, timed on every node's rank 0:
 *   wire   rank 0 of each node alone calls smap_hwbarrier (one system
 *          call and one wire barrier: the box's latency seen by a node)
 *   hier   every rank calls smap_barrier (on-node gather, wire, release)
 *   node   smap_node_barrier, the on-node part alone
 * The kernel's counters over the wire loop give o_w (the OUT write) and
 * o_r (one status read) as the port really costs them; o_p comes from the
 * box (barrier-hub --stats).  One line per node, key=value, for
 * user/bench/hwbarrier_bench.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "smap.h"
#include "smapos_abi.h"

static void info(struct smapos_hwbarrier *hb)
{
	int r = smap_hwbarrier_info(hb);

	if (r < 0) {
		fprintf(stderr, "hwbench: no hardware barrier here: %s\n", strerror(-r));
		exit(1);
	}
}

static double loop_us(void (*barrier)(void), long iters)
{
	double t;

	smap_barrier();
	t = smap_wtime();
	for (long i = 0; i < iters; i++)
		barrier();
	return (smap_wtime() - t) / (double)iters * 1e6;
}

static void wire(void)
{
	int r = smap_hwbarrier();

	if (r < 0) {
		fprintf(stderr, "hwbench: smap_hwbarrier: %s\n", strerror(-r));
		exit(1);
	}
}

int main(int argc, char **argv)
{
	long iters = argc > 1 ? strtol(argv[1], NULL, 10) : 0;
	struct smapos_hwbarrier a, b;
	double us_per_tick, t_wire = 0, t_b, t_node, n;

	if (iters <= 0) {
		fprintf(stderr, "usage: hwbench ITERATIONS\n");
		return 2;
	}
	us_per_tick = 1e6 / (double)smap_tsc_hz();
	loop_us(smap_barrier, iters / 10 + 1);	/* warm up */
	info(&a);
	if (smap_rank() == 0)
		t_wire = loop_us(wire, iters);
	else
		smap_barrier();	/* loop_us's first barrier on rank 0 */
	smap_node_barrier();
	info(&b);
	t_b = loop_us(smap_barrier, iters);
	t_node = loop_us(smap_node_barrier, iters);
	if (smap_rank() == 0) {
		n = (double)(b.barriers - a.barriers);
		printf("hwbench node=%d nodes=%d ranks=%d iters=%ld o_w=%.2f o_r=%.2f reads=%.2f "
		       "t_kernel=%.2f t_wire=%.2f t_b=%.2f t_node=%.3f\n", smap_node(), smap_nnodes(),
		       smap_size(), iters, (double)(b.write_ticks - a.write_ticks) * us_per_tick / n,
		       (double)(b.read_ticks - a.read_ticks) * us_per_tick /
		       ((double)(b.spins - a.spins) + n),
		       ((double)(b.spins - a.spins) + n) / n,
		       (double)(b.ticks - a.ticks) * us_per_tick / n, t_wire, t_b, t_node);
	}
	return 0;
}
