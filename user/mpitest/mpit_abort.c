/*
 * mpit_abort.c - MPI_Abort on one rank ends the whole job with its code,
 * while the other ranks wait in a receive that never completes.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank, x;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 2)
		MPI_Abort(MPI_COMM_WORLD, 7);
	MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Finalize();
	return 0;
}
