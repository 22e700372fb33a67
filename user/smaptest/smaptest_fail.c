/*
 * smaptest_fail - how a job ends when a rank fails; the mode is argv[1]:
 *
 *   beyond      the last rank loads the byte just past rank 0's region
 *               (the job must end with SIGSEGV: 139)
 *   crash       the last rank dereferences NULL while the others wait in a
 *               barrier (the job ends with 139 and leaves nothing behind)
 *   abort S     the last rank calls smap_abort(S) while the others wait in
 *               a barrier (the job ends with S)
 *   exit S      the last rank exits with S, the others with 0 (status S)
 *   hang        every rank waits forever (for lwkrun --timeout)
 *
 * The last rank is the job's (the last node's last one).  Every rank first
 * prints "ok rankR: started" (R its world rank), so a case can tell the
 * job really ran.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <smap.h>
#include <smapos_abi.h>

int main(int argc, char **argv)
{
	int me = smap_world_rank(), last = smap_world_size() - 1;
	const char *mode = argc > 1 ? argv[1] : "";
	int status = argc > 2 ? atoi(argv[2]) : 0;

	printf("ok rank%d: started\n", me);
	fflush(stdout);
	smap_barrier();
	if (strcmp(mode, "beyond") == 0) {
		if (me == last) {
			const struct smapos_jobinfo *ji = smap_jobinfo();
			volatile char *p = remote_address(0, (void *)(uintptr_t)
							  (ji->region_base + ji->region_size));

			printf("loading %p\n", (void *)p);
			fflush(stdout);
			return *p;
		}
		smap_barrier();
	} else if (strcmp(mode, "crash") == 0) {
		if (me == last)
			return *(volatile int *)(uintptr_t)status;
		smap_barrier();
	} else if (strcmp(mode, "abort") == 0) {
		if (me == last)
			smap_abort(status);
		smap_barrier();
	} else if (strcmp(mode, "exit") == 0) {
		return me == last ? status : 0;
	} else if (strcmp(mode, "hang") == 0) {
		for (;;)
			smap_barrier();
	}
	fprintf(stderr, "smaptest_fail: unknown mode '%s' (beyond, crash, abort S, exit S, hang)\n",
		mode);
	return 2;
}
