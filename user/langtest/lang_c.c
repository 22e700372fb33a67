/*
 * lang_c.c - C programs beyond plain musl: built twice, by tools/smapcc
 * (musl, with glibc's __intN_t names) and by SMAPCC_LIBC=glibc smapcc
 * -fopenmp (glibc, OpenMP).  Checks glibc's integer names, fork refused
 * cleanly after MPI_Init, and OpenMP held to one thread per rank.  Rank 0
 * prints one TAP line per behaviour with every rank's verdict.
 */
#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#ifdef __GLIBC__
#include <malloc.h>
#include <stdint.h>
#endif

static void report(const char *name, int ok)
{
	int all = 0, rank;

	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
	if (rank == 0)
		printf("%sok %s\n", all ? "" : "not ", name);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);

	/* OSU 7.4's validation code spells the types glibc's way. */
	__int8_t a = -1;
	__uint16_t b = 65535;
	__int32_t c = -7;
	__uint64_t d = ~0UL;
	/* ... and BSD's, which glibc gives without _GNU_SOURCE (PnetCDF). */
	u_int32_t e = ~0u;
	u_int64_t f = ~0UL;
	report("c_glibc_int_names", sizeof(__int8_t) == 1 && sizeof(__uint16_t) == 2 &&
	       sizeof(__int32_t) == 4 && sizeof(__int64_t) == 8 && sizeof(__uint64_t) == 8 &&
	       a < 0 && b == 65535 && c < 0 && d + 1 == 0 && e + 1 == 0 && f + 1 == 0 &&
	       sizeof(u_int8_t) == 1 && sizeof(u_int16_t) == 2 && sizeof(u_char) == 1 &&
	       sizeof(u_short) == 2 && sizeof(u_int) == 4 && sizeof(u_long) == 8);

	errno = 0;
	pid_t pid = fork();
	if (pid == 0)
		_exit(0);	/* never: a child would share the rank's memory */
	report("c_fork_fails_cleanly", pid == -1 && errno == ENOSYS);

#ifdef __GLIBC__
	/* glibc's malloc extras link without glibc's allocator (gmalloc.c). */
	void *v = valloc(100), *pv = pvalloc(5000);
	struct mallinfo2 mi = mallinfo2();
	report("c_glibc_malloc_extras", mallopt(M_MMAP_THRESHOLD, 1 << 20) == 1 && v && pv &&
	       ((uintptr_t)v & 4095) == 0 && ((uintptr_t)pv & 4095) == 0 &&
	       malloc_usable_size(pv) >= 8192 && malloc_trim(0) == 0 && mi.arena == 0);
	free(v);
	free(pv);
#endif
#ifdef _OPENMP
	long sum = 0;
	int team = 0;
#pragma omp parallel num_threads(4) reduction(+ : sum)
	{
		sum += 1;
#pragma omp single
		team = omp_get_num_threads();
	}
	const char *env = getenv("OMP_NUM_THREADS");
	report("c_openmp_one_thread", omp_get_max_threads() == 1 && omp_get_thread_limit() == 1 &&
	       team == 1 && sum == 1 && env && !strcmp(env, "1"));
#endif
	MPI_Finalize();
	return 0;
}
