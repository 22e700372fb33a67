/*
 * mpit.h - reporting for the MPI conformance programs (user/mpitest).
 *
 * Every rank checks its part of a behaviour and calls mpit_report(); rank
 * 0 collects the verdicts with point-to-point messages (so a broken
 * collective cannot hide a point-to-point result) and prints one TAP line:
 * "ok NAME" or "not ok NAME - rank R: expected X, got Y".  Only standard
 * MPI is used: the same sources build with any MPI's mpicc.
 */
#ifndef MPIT_H
#define MPIT_H

#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define MPIT_TAG	32000
#define MPIT_MSG	200

static int mpit_failed;
static char mpit_why[MPIT_MSG];

/* Records a failure of the current behaviour on this rank (first wins). */
static void mpit_fail(const char *fmt, ...)
{
	va_list ap;

	if (mpit_failed)
		return;
	mpit_failed = 1;
	va_start(ap, fmt);
	vsnprintf(mpit_why, sizeof mpit_why, fmt, ap);
	va_end(ap);
}

#define mpit_expect_int(what, want, got) do { \
	long long w_ = (want), g_ = (got); \
	if (w_ != g_) \
		mpit_fail("%s: expected %lld, got %lld", what, w_, g_); \
} while (0)

/* Ends one behaviour: every rank of comm calls it (rank 0 prints). */
static int mpit_report_on(MPI_Comm comm, const char *name)
{
	int rank, size, r, bad = 0;
	char buf[MPIT_MSG + 4];

	MPI_Comm_rank(comm, &rank);
	MPI_Comm_size(comm, &size);
	if (rank != 0) {
		buf[0] = (char)mpit_failed;
		memcpy(buf + 1, mpit_why, MPIT_MSG);
		MPI_Send(buf, MPIT_MSG + 1, MPI_CHAR, 0, MPIT_TAG, comm);
	} else {
		if (mpit_failed) {
			printf("not ok %s - rank 0: %s\n", name, mpit_why);
			bad = 1;
		}
		for (r = 1; r < size; r++) {
			MPI_Recv(buf, MPIT_MSG + 1, MPI_CHAR, r, MPIT_TAG, comm, MPI_STATUS_IGNORE);
			if (buf[0] && !bad) {
				printf("not ok %s - rank %d: %.*s\n", name, r, MPIT_MSG, buf + 1);
				bad = 1;
			}
		}
		if (!bad)
			printf("ok %s\n", name);
		fflush(stdout);
	}
	r = mpit_failed;
	mpit_failed = 0;
	mpit_why[0] = 0;
	return r;
}

/* Ends one behaviour: every rank of MPI_COMM_WORLD calls it. */
static inline int mpit_report(const char *name)
{
	return mpit_report_on(MPI_COMM_WORLD, name);
}

#endif
