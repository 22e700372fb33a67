/*
 * shmem_hello.c - the canonical first OpenSHMEM program, as users write it:
 * nothing but <shmem.h> and the standard calls.
 */
#include <stdio.h>
#include <shmem.h>

int main(void)
{
	shmem_init();
	printf("Hello from PE %d of %d\n", shmem_my_pe(), shmem_n_pes());
	shmem_finalize();
	return 0;
}
