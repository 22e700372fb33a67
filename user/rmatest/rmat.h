/*
 * rmat.h - what the one-sided test programs (user/rmatest) share: the TAP
 * reporting of the MPI conformance programs (every verdict reaches rank 0
 * by point-to-point messages, not through the RMA calls under test), the
 * job's geometry and the values every rank can compute for any other.
 * Standard MPI only: the programs build with mpicc.mpich and mpicc.openmpi.
 */
#ifndef RMAT_H
#define RMAT_H

#include <stdlib.h>
#include "../mpitest/mpit.h"

static int me, np, right, left;

static inline void rmat_init(int *argc, char ***argv)
{
	MPI_Init(argc, argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &me);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	right = (me + 1) % np;
	left = (me + np - 1) % np;
}

/* Element i of what rank `from` sends to rank `to`: distinct everywhere. */
static inline int rmat_val(int from, int to, int i)
{
	return from * 1000003 + to * 7919 + i + 1;
}

/* Checks n ints of buf against rmat_val(from, to, .); first mismatch wins. */
static inline void rmat_expect(const char *what, const int *buf, int n, int from, int to)
{
	int i;

	for (i = 0; i < n; i++)
		if (buf[i] != rmat_val(from, to, i)) {
			mpit_fail("%s: element %d: expected %d, got %d", what, i, rmat_val(from, to, i),
				  buf[i]);
			return;
		}
}

static inline void rmat_fill(int *buf, int n, int from, int to)
{
	int i;

	for (i = 0; i < n; i++)
		buf[i] = rmat_val(from, to, i);
}

#endif
