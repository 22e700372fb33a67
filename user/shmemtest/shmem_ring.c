/*
 * shmem_ring.c - a ring put in the style of the specification's examples:
 * each PE puts its number into a symmetric heap array on the next PE with
 * the C11 generic shmem_put, then everyone prints what arrived.
 */
#include <stdio.h>
#include <shmem.h>

int main(void)
{
	static int source[4];
	int *dest, me, npes, i;

	shmem_init();
	me = shmem_my_pe();
	npes = shmem_n_pes();
	dest = shmem_malloc(4 * sizeof(int));
	for (i = 0; i < 4; i++)
		source[i] = me * 10 + i;
	shmem_put(dest, source, 4, (me + 1) % npes);
	shmem_barrier_all();
	printf("PE %d received %d %d %d %d\n", me, dest[0], dest[1], dest[2], dest[3]);
	shmem_free(dest);
	shmem_finalize();
	return 0;
}
