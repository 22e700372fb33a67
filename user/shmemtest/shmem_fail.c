/*
 * shmem_fail.c - misuses that must end the job loudly, one per mode, and
 * shmem_global_exit.  tests/suites/shmem.py checks the status and that
 * the message names the call.
 *
 * usage: shmem_fail MODE
 *   global_exit [S]	the last PE exits the job with status S (7); the others wait
 *   bad_pe		shmem_long_p to a PE that does not exist
 *   asymmetric_malloc	PE 1 asks for another size than PE 0
 *   foreign_free	shmem_free of private memory
 *   unheld_lock	shmem_clear_lock of a free lock
 *   bad_cmp		shmem_int_wait_until with an unknown comparison
 *   init_twice		shmem_init a second time
 *   before_init	shmem_putmem before shmem_init
 *   bad_root		shmem_long_broadcast from a root outside the team
 *   lonely		PE 0 waits for a flag no PE sets; the others finalize
 *   abandoned		the last PE waits for a flag no PE sets; the others
 *			return from main without shmem_finalize
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <shmem.h>

static long x;
static int flag;

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	int me, npes;

	if (!strcmp(mode, "before_init")) {
		shmem_putmem(&x, &x, sizeof x, 0);
		return 0;
	}
	shmem_init();
	me = shmem_my_pe();
	npes = shmem_n_pes();
	if (!strcmp(mode, "global_exit")) {
		shmem_barrier_all();
		if (me == npes - 1) {
			printf("PE %d exits the job\n", me);
			fflush(stdout);
			shmem_global_exit(argc > 2 ? atoi(argv[2]) : 7);
		}
		/* Never satisfied: only the global exit ends these PEs. */
		shmem_int_wait_until(&flag, SHMEM_CMP_EQ, 1);
		printf("PE %d was not stopped\n", me);
	} else if (!strcmp(mode, "bad_pe")) {
		shmem_long_p(&x, 1, npes);
	} else if (!strcmp(mode, "asymmetric_malloc")) {
		shmem_malloc(me == 1 ? 128 : 64);
	} else if (!strcmp(mode, "foreign_free")) {
		shmem_free(malloc(64));
	} else if (!strcmp(mode, "unheld_lock")) {
		shmem_clear_lock(&x);
	} else if (!strcmp(mode, "bad_cmp")) {
		shmem_int_wait_until(&flag, 42, 0);
	} else if (!strcmp(mode, "init_twice")) {
		shmem_init();
	} else if (!strcmp(mode, "put_oob")) {
		/* 1 TiB from a symmetric address: far past PE 1's memory */
		if (me == 0)
			shmem_putmem(&x, &x, 1UL << 40, 1);
	} else if (!strcmp(mode, "get_oob")) {
		volatile uintptr_t far = (uintptr_t)&x + (1UL << 38);

		if (me == 0)
			shmem_getmem(&x, (const void *)far, sizeof x, 1);
	} else if (!strcmp(mode, "iput_oob")) {
		if (me == 0)
			shmem_long_iput(&x, &x, 1L << 40, 1, 2, 1);
	} else if (!strcmp(mode, "amo_oob")) {
		if (me == 0)
			shmem_long_atomic_add((long *)16, 1, 1);
	} else if (!strcmp(mode, "lonely")) {
		if (me == 0)
			shmem_int_wait_until(&flag, SHMEM_CMP_EQ, 1);
	} else if (!strcmp(mode, "abandoned")) {
		if (me < npes - 1)
			return 0;
		shmem_int_wait_until(&flag, SHMEM_CMP_EQ, 1);
	} else if (!strcmp(mode, "bad_root")) {
		shmem_long_broadcast(SHMEM_TEAM_WORLD, &x, &x, 1, npes);
	} else {
		fprintf(stderr, "shmem_fail: unknown mode '%s'\n", mode);
		return 2;
	}
	shmem_finalize();
	return 0;
}
