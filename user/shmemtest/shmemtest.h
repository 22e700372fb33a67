/*
 * shmemtest.h - what the OpenSHMEM test programs share: one TAP line per
 * behaviour for the whole job, not per PE.
 *
 * A case's body runs on every PE and records this PE's first failure with
 * EXPECT; t_case() then prints, from the first PE of each node (PE 0 on a
 * single node), "ok NAME" if every PE of the node passed or "not ok NAME -
 * PE p: expected X, got Y" for the first PE that did not.  Collecting the
 * verdicts uses shmem_barrier_all, shmem_int_g and shmem_getmem: if those
 * break, every case says so.
 */
#ifndef SHMEMTEST_H
#define SHMEMTEST_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <shmem.h>

/* The programs' static arrays hold this many PEs. */
#define T_MAX_PES	64

static int me, npes;		/* this PE, the job's PEs */
static int right, left;		/* the neighbours in the ring of PEs */
static int t_failed;		/* this PE failed the current case */
static char t_why[256];		/* ... and why; read by PE 0 */

__attribute__((format(printf, 2, 3)))
static void t_expect(int ok, const char *fmt, ...)
{
	va_list ap;

	if (ok || t_failed)
		return;
	t_failed = 1;
	va_start(ap, fmt);
	vsnprintf(t_why, sizeof t_why, fmt, ap);
	va_end(ap);
}

/* EXPECT(condition, "expected %d, got %d", want, got) */
#define EXPECT(cond, ...)	t_expect(!!(cond), __VA_ARGS__)
#define EXPECT_EQ(want, got)						\
	do {								\
		long long w_ = (long long)(want), g_ = (long long)(got); \
		t_expect(w_ == g_, "expected %s == %lld, got %lld", #got, w_, g_); \
	} while (0)

/* The geometry, once shmem_init has run; a job too large for the static
 * arrays fails at once rather than overrun them. */
static void t_geometry(void)
{
	me = shmem_my_pe();
	npes = shmem_n_pes();
	right = (me + 1) % npes;
	left = (me + npes - 1) % npes;
	if (npes > T_MAX_PES) {
		if (me == 0)
			printf("not ok pe_count - expected at most %d PEs, got %d\n", T_MAX_PES,
			       npes);
		shmem_global_exit(1);
	}
}

static inline void t_init(void)
{
	shmem_init();
	t_geometry();
}

/* Ends a case on every PE: the first PE of each node prints its verdict. */
static void t_case(const char *name)
{
	int n = shmem_team_n_pes(SHMEM_TEAM_SHARED);
	int first = shmem_my_pe() - shmem_team_my_pe(SHMEM_TEAM_SHARED);
	char why[sizeof t_why];
	int pe, bad = -1;

	shmem_barrier_all();
	if (shmem_my_pe() == first) {
		for (pe = first; pe < first + n && bad < 0; pe++)
			if (shmem_int_g(&t_failed, pe))
				bad = pe;
		if (bad < 0) {
			printf("ok %s\n", name);
		} else {
			shmem_getmem(why, t_why, sizeof why, bad);
			printf("not ok %s - PE %d: %s\n", name, bad, why);
		}
		fflush(stdout);
	}
	shmem_barrier_all();
	t_failed = 0;
}

#endif
