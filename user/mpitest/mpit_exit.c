/*
 * mpit_exit.c - how a job ends when one rank leaves early (tests/suites/
 * failures.py): rank 1 of the job does MODE with STATUS while the others
 * wait for it in MPI_Barrier.
 *
 *   mpit_exit exit N     exit(N) between MPI_Init and MPI_Finalize
 *   mpit_exit abort N    MPI_Abort(MPI_COMM_WORLD, N)
 *   mpit_exit clean      every rank finalizes and exits 0
 *   mpit_exit lonely     rank 0 waits for a message rank 1 never sends;
 *                        rank 1 finalizes (and waits there for rank 0)
 *   mpit_exit barrier    rank 0 calls MPI_Barrier, the others MPI_Finalize
 *   mpit_exit wire       rank 0 calls MPI_Barrier, the others wait for a
 *                        message rank 0 never sends (across nodes of one
 *                        rank each, rank 0 waits in the hardware barrier)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	int rank, status = argc > 2 ? atoi(argv[2]) : 0;
	const char *mode = argc > 1 ? argv[1] : "clean";

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 1 && !strcmp(mode, "exit"))
		exit(status);
	if (rank == 1 && !strcmp(mode, "abort"))
		MPI_Abort(MPI_COMM_WORLD, status);
	if (!strcmp(mode, "barrier")) {
		if (rank == 0)
			MPI_Barrier(MPI_COMM_WORLD);
		MPI_Finalize();
		return 0;
	}
	if (!strcmp(mode, "wire")) {
		if (rank == 0)
			MPI_Barrier(MPI_COMM_WORLD);
		else
			MPI_Recv(&status, 1, MPI_INT, 0, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Finalize();
		return 0;
	}
	if (!strcmp(mode, "lonely")) {
		if (rank == 0)
			MPI_Recv(&status, 1, MPI_INT, 1, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Finalize();
		return 0;
	}
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		printf("every rank passed the barrier\n");
	MPI_Finalize();
	return 0;
}
