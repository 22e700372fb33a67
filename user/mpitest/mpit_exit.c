/*
 * mpit_exit.c - how a job ends when one rank leaves early (tests/suites/
 * failures.py): rank 1 of the job does MODE with STATUS while the others
 * wait for it in MPI_Barrier.
 *
 *   mpit_exit exit N     exit(N) between MPI_Init and MPI_Finalize
 *   mpit_exit abort N    MPI_Abort(MPI_COMM_WORLD, N)
 *   mpit_exit clean      every rank finalizes and exits 0
 *   mpit_exit late N     every rank but 0 returns N right after MPI_Finalize
 *                        (and the end of an MPI session opened before it);
 *                        rank 0 finishes 300 ms later (XSBench's ranks
 *                        return 1 after it while rank 0 prints its results)
 *   mpit_exit lonely     rank 0 waits for a message rank 1 never sends;
 *                        rank 1 finalizes (and waits there for rank 0)
 *   mpit_exit size       rank 0 says how many ranks the world and its node have
 *   mpit_exit spin       rank 0 waits for a message from rank 1, which
 *                        computes forever outside the library (the test
 *                        kills rank 1's node)
 *   mpit_exit barrier    rank 0 calls MPI_Barrier, the others MPI_Finalize
 *   mpit_exit wire       rank 0 calls MPI_Barrier, the others wait for a
 *                        message rank 0 never sends (across nodes of one
 *                        rank each, rank 0 waits in the hardware barrier)
 *   mpit_exit unreceived rank 0 sends 1 MiB (a rendezvous) to the last
 *                        rank, which never receives it and finalizes
 *   mpit_exit readonly   the last rank receives rank 0's 1 MiB into the
 *                        program's text under MPI_ERRORS_RETURN and says
 *                        which error class it got; the send completes
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	if (!strcmp(mode, "unreceived") || !strcmp(mode, "readonly")) {
		int np, n = 1 << 18, err, cls = MPI_SUCCESS;
		int *buf = calloc(n, sizeof *buf);

		MPI_Comm_size(MPI_COMM_WORLD, &np);
		MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
		if (rank == 0) {
			err = MPI_Send(buf, n, MPI_INT, np - 1, 99, MPI_COMM_WORLD);
			printf("rank 0: MPI_Send returned %d\n", err);
		} else if (rank == np - 1 && !strcmp(mode, "readonly")) {
			err = MPI_Recv((void *)(uintptr_t)main, n, MPI_INT, 0, 99, MPI_COMM_WORLD,
				       MPI_STATUS_IGNORE);
			MPI_Error_class(err, &cls);
			printf("rank %d: MPI_Recv into the program's text: %s\n", rank,
			       cls == MPI_ERR_BUFFER ? "MPI_ERR_BUFFER" : "another class");
		}
		fflush(stdout);
		free(buf);
		MPI_Finalize();
		return 0;
	}
	if (!strcmp(mode, "size")) {
		int np, here;
		MPI_Comm node;

		MPI_Comm_size(MPI_COMM_WORLD, &np);
		MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
		MPI_Comm_size(node, &here);
		if (rank == 0)
			printf("a world of %d ranks, %d on rank 0's node\n", np, here);
		MPI_Comm_free(&node);
		MPI_Finalize();
		return 0;
	}
	if (!strcmp(mode, "spin")) {
		if (rank == 0) {
			printf("rank 0 waits for rank 1\n");
			fflush(stdout);
			MPI_Recv(&status, 1, MPI_INT, 1, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else {
			for (volatile unsigned long i = 0;; i++)
				;
		}
		MPI_Finalize();
		return 0;
	}
	if (!strcmp(mode, "late")) {
		/* A session outlives MPI_Finalize: the library ends with it. */
		MPI_Session session;

		MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session);
		MPI_Finalize();
		MPI_Session_finalize(&session);
		if (rank != 0)
			return status;
		usleep(300000);
		printf("rank 0 finished after the others\n");
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
