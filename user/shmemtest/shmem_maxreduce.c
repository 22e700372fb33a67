/*
 * shmem_maxreduce.c - a reduction as older OpenSHMEM programs write it:
 * start_pes, static pSync and pWrk arrays, shmem_long_max_to_all over the
 * whole job; then the same with the 1.5 team call.
 */
#include <stdio.h>
#include <shmem.h>

long pSync[SHMEM_REDUCE_SYNC_SIZE];
long pWrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
long src[3], dst[3];

int main(void)
{
	int i, me, npes;

	for (i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
		pSync[i] = SHMEM_SYNC_VALUE;
	start_pes(0);
	me = _my_pe();
	npes = _num_pes();
	for (i = 0; i < 3; i++)
		src[i] = (me + i) % npes;
	shmem_barrier_all();
	shmem_long_max_to_all(dst, src, 3, 0, 0, npes, pWrk, pSync);
	printf("PE %d: max %ld %ld %ld\n", me, dst[0], dst[1], dst[2]);
	shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, 3);
	printf("PE %d: sum %ld %ld %ld\n", me, dst[0], dst[1], dst[2]);
	shmem_finalize();
	return 0;
}
