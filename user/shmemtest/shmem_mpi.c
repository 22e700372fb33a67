/*
 * shmem_mpi.c - a program using MPI and OpenSHMEM together: both faces sit
 * on the same core and collective engine, in either initialisation order.
 *
 * usage: shmem_mpi [shmem_first]
 */
#include <string.h>
#include <mpi.h>
#include "shmemtest.h"

static int x, y, z;

int main(int argc, char **argv)
{
	int rank, size, sum = -1;

	if (argc > 1 && !strcmp(argv[1], "shmem_first")) {
		shmem_init();
		MPI_Init(&argc, &argv);
	} else {
		MPI_Init(&argc, &argv);
		shmem_init();
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	t_geometry();
	EXPECT_EQ(rank, me);
	EXPECT_EQ(size, shmem_n_pes());
	t_case("pe_numbers_are_mpi_comm_world_ranks");

	MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	x = me;
	shmem_int_sum_reduce(SHMEM_TEAM_WORLD, &y, &x, 1);
	EXPECT_EQ(size * (size - 1) / 2, sum);
	EXPECT_EQ(sum, y);
	shmem_int_p(&z, -me, right);
	MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	shmem_barrier_all();
	EXPECT_EQ(-left, z);
	t_case("mpi_and_shmem_collectives_interleave_on_one_engine");
	shmem_finalize();
	MPI_Finalize();
	return 0;
}
