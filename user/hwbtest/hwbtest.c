/*
 * hwbtest.c - the hierarchical barrier across nodes (lwkrun --nodes K).
 *
 *   hwbtest barrier|mpi|shmem N [--box-count]
 *       N barriers through smap_barrier, MPI_Barrier(MPI_COMM_WORLD) or
 *       shmem_barrier_all.  Every rank adds one
 *       to a counter in its node's rank 0 before each barrier and checks
 *       it after: no rank may leave barrier k before every rank of its
 *       node entered it.  After each barrier every rank also checks that
 *       the kernel's wire barrier count moved by exactly one, and with
 *       --box-count that the box's own count (the emulated box shows it
 *       modulo 8 on spare status lines, docs/barrier.md) moved with it: the
 *       box completes barrier k only when every node's leader entered it,
 *       which each leader does only after all its node's ranks have.
 *   hwbtest skip NODE
 *       Node NODE never enters the barrier; the others must fail with the
 *       kernel's timeout error.
 *   hwbtest late NODE MS
 *       Node NODE computes for MS milliseconds before the barrier, longer
 *       than barrier_timeout= in the test: where the network engine
 *       watches the nodes a slow node is no failure, so every node passes.
 *   hwbtest nohw
 *       On a node without a port: the hardware barrier is refused with
 *       -ENODEV, and smap_barrier on one node still works.
 *
 * TAP lines come from rank 0 of each node, named after the node.
 */
#include <errno.h>
#include <mpi.h>
#include <shmem.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "smap.h"
#include "smapos_abi.h"

static uint64_t arrivals;		/* rank 0's counts the node's ranks */
static char why[200];			/* this rank's first failure */
static int failed_node, failed_box;

static void tap(int ok, const char *name, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void tap(int ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("%sok n%d_%s", ok ? "" : "not ", smap_node(), name);
	if (!ok) {
		printf(" - ");
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
	}
	printf("\n");
	fflush(stdout);
}

static void hwinfo(struct smapos_hwbarrier *hb)
{
	int r = smap_hwbarrier_info(hb);

	if (r < 0) {
		fprintf(stderr, "hwbtest: smap_hwbarrier_info: %s\n", strerror(-r));
		exit(1);
	}
}

static void mpi_barrier(void)
{
	MPI_Barrier(MPI_COMM_WORLD);
}

static unsigned box_count(const struct smapos_hwbarrier *hb)
{
	return hb->last_status >> 3 & 7;
}

/* N barriers of kind `barrier`, checked as the header says. */
static void run(void (*barrier)(void), const char *label, long n, int box)
{
	uint64_t *count = remote_address(0, &arrivals);
	uint64_t nr = (uint64_t)smap_size(), base_count;
	struct smapos_hwbarrier hb;
	uint64_t base_wire;
	unsigned base_box;
	double t;
	char name[64];

	barrier();
	hwinfo(&hb);
	base_wire = hb.barriers;
	base_box = box_count(&hb);
	base_count = __atomic_load_n(count, __ATOMIC_ACQUIRE);
	barrier();
	/* The second barrier above: one more for every later check. */
	base_wire++;
	base_box = (base_box + 1) & 7;
	t = smap_wtime();
	for (long k = 1; k <= n; k++) {
		uint64_t c, lo = base_count + nr * (uint64_t)k;

		__atomic_add_fetch(count, 1, __ATOMIC_ACQ_REL);
		barrier();
		c = __atomic_load_n(count, __ATOMIC_ACQUIRE);
		if ((c < lo || c > lo + nr - 1) && !failed_node) {
			failed_node = 1;
			snprintf(why, sizeof(why), "rank %d left %s barrier %ld with the node's "
				 "arrival count %lu, expected %lu..%lu", smap_rank(), label, k,
				 (unsigned long)c, (unsigned long)lo, (unsigned long)(lo + nr - 1));
		}
		hwinfo(&hb);
		if ((hb.barriers != base_wire + (uint64_t)k ||
		     (box && box_count(&hb) != ((base_box + k) & 7))) && !failed_box) {
			failed_box = 1;
			snprintf(why + strlen(why), sizeof(why) - strlen(why),
				 "%srank %d after %s barrier %ld: %lu wire barriers (expected %ld), "
				 "box count %u (expected %ld)", *why ? "; " : "", smap_rank(), label, k,
				 (unsigned long)(hb.barriers - base_wire), k, box_count(&hb),
				 (base_box + k) & 7);
		}
	}
	t = smap_wtime() - t;
	barrier();
	if (smap_rank())
		return;

	int node_ok = 1, box_ok = 1;
	const char *first = "";

	for (int r = 0; r < smap_size(); r++) {
		int *fn = remote_address((unsigned)r, &failed_node);
		int *fb = remote_address((unsigned)r, &failed_box);

		if ((*fn || *fb) && !*first)
			first = remote_address((unsigned)r, why);
		node_ok &= !*fn;
		box_ok &= !*fb;
	}
	snprintf(name, sizeof(name), "%s_no_rank_leaves_before_its_node_entered", label);
	tap(node_ok, name, "%s", first);
	snprintf(name, sizeof(name), "%s_one_wire_barrier_each%s", label, box ? "_matching_the_box" : "");
	tap(box_ok, name, "%s", first);
	printf("hwbtest: node %d: %ld %s barriers on %d nodes x %d ranks: %.1f us each\n",
	       smap_node(), n, label, smap_nnodes(), smap_size(), t / (double)n * 1e6);
}

static int usage(void)
{
	fprintf(stderr, "usage: hwbtest barrier|mpi|shmem N [--box-count] | skip NODE | late NODE MS | nohw\n");
	return 2;
}

int main(int argc, char **argv)
{
	long n = argc > 2 ? strtol(argv[2], NULL, 10) : 0;
	int box = argc > 3 && !strcmp(argv[3], "--box-count");

	if (argc < 2)
		return usage();
	if (!strcmp(argv[1], "barrier") && n > 0) {
		run(smap_barrier, "smap", n, box);
	} else if (!strcmp(argv[1], "mpi") && n > 0) {
		MPI_Init(&argc, &argv);
		run(mpi_barrier, "mpi", n, box);
		MPI_Finalize();
	} else if (!strcmp(argv[1], "shmem") && n > 0) {
		shmem_init();
		run(shmem_barrier_all, "shmem", n, box);
		shmem_finalize();
	} else if (!strcmp(argv[1], "skip") && argc == 3) {
		if (smap_node() == n)
			return 0;
		smap_barrier();
		tap(0, "stuck_barrier_fails", "expected the barrier to time out, it completed");
	} else if (!strcmp(argv[1], "late") && argc == 4) {
		double ms = strtod(argv[3], NULL), t = smap_wtime();

		/* Computing, not sleeping: the core stays busy as a real
		 * application's would. */
		while (smap_node() == n && (smap_wtime() - t) * 1e3 < ms)
			__builtin_ia32_pause();
		smap_barrier();
		tap(1, "late_node_is_waited_for", "%s", "");
	} else if (!strcmp(argv[1], "nohw")) {
		int r = smap_hwbarrier();

		tap(r == -ENODEV, "hwbarrier_without_port_is_enodev", "expected %d, got %d",
		    -ENODEV, r);
		smap_barrier();
		tap(1, "node_barrier_works_without_port", "%s", "");
	} else {
		return usage();
	}
	return failed_node || failed_box;
}
