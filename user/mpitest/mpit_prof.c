/*
 * mpit_prof.c - the profiling interface: this program defines MPI_Send
 * and MPI_Recv itself, counts the calls and forwards them to PMPI_Send and
 * PMPI_Recv, as a profiling library does.  The library's own calls (here
 * inside MPI_Sendrecv and the reporting) must not reach the wrappers twice.
 */
#include "mpit.h"

static int sends, recvs;

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
	sends++;
	return PMPI_Send(buf, count, type, dest, tag, comm);
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int src, int tag, MPI_Comm comm,
	     MPI_Status *st)
{
	recvs++;
	return PMPI_Recv(buf, count, type, src, tag, comm, st);
}

int main(int argc, char **argv)
{
	int rank, size, x = 1, i, s, r;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (i = 0; i < 3; i++) {
		if (rank == 0)
			MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
		else if (rank == 1)
			MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	s = sends;
	r = recvs;
	mpit_expect_int("wrapped sends", rank == 0 ? 3 : 0, s);
	mpit_expect_int("wrapped receives", rank == 1 ? 3 : 0, r);
	mpit_report("prof_wrappers_see_every_user_call");
	sends = recvs = 0;
	MPI_Sendrecv(&x, 1, MPI_INT, rank, 0, &i, 1, MPI_INT, rank, 0, MPI_COMM_WORLD,
		     MPI_STATUS_IGNORE);
	mpit_expect_int("Sendrecv does not call the MPI_Send wrapper", 0, sends);
	mpit_expect_int("Sendrecv does not call the MPI_Recv wrapper", 0, recvs);
	mpit_report("prof_library_calls_bypass_the_wrappers");
	MPI_Finalize();
	return 0;
}
