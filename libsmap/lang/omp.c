/*
 * omp.c - OpenMP programs run one thread per rank (docs/languages.md).
 *
 * A rank owns one core and the kernel runs one thread per rank, so
 * libgomp must never start a team: OMP_NUM_THREADS=1 and
 * OMP_THREAD_LIMIT=1 are set before libgomp reads them (its constructor
 * runs after libsmap's priority-101 start-up), the limit also capping
 * num_threads clauses and omp_set_num_threads.  Asking for more is
 * answered once, by rank 0, with what happens instead.
 */
#include <stdlib.h>
#include "../core/core.h"
#include "smap.h"

static int omp_more(const char *var)
{
	const char *v = getenv(var);

	return v && atoi(v) > 1;
}

void lang_omp_one_thread(void)
{
	const char *var = omp_more("OMP_NUM_THREADS") ? "OMP_NUM_THREADS" :
			  omp_more("OMP_THREAD_LIMIT") ? "OMP_THREAD_LIMIT" : NULL;

	if (var && smap_world_rank() == 0)
		core_warn("libsmap: %s=%s: each rank runs one thread on its own core, so OpenMP "
			  "runs with 1 thread per rank", var, getenv(var));
	setenv("OMP_NUM_THREADS", "1", 1);
	setenv("OMP_THREAD_LIMIT", "1", 1);
}
