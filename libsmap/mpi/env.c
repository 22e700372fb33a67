/*
 * env.c - MPI's environment: Init/Finalize, the job's clock, versions,
 * processor names, memory allocation.
 *
 * libsmap itself starts before main(); MPI_Init (or the first
 * MPI_Session_init) adds the message queues, the predefined objects and a
 * node barrier, after which every peer's queues are known to exist.  MPI
 * serves calls until both models are done with it: the world model's
 * MPI_Finalize and every session's MPI_Session_finalize; the last of those
 * drains the transport and waits at the barrier that keeps a rank from
 * leaving while a peer may still read its memory.  A session may begin
 * again after that (MPI 4.0 lets a library init and finalize its own
 * sessions any number of times): everything is still in place.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "impl.h"
#include "../core/core.h"

int smpi_initialized, smpi_finalized;
int smpi_started, smpi_active;
static int env_sessions;
static int env_thread_level = MPI_THREAD_SINGLE;

char smpi_in_place[1], smpi_unweighted[1];

int smpi_check_init(const char *fn)
{
	core_call = fn;
	if (smpi_active)
		return MPI_SUCCESS;
	fprintf(stderr, "%s: called %s\n", fn,
		!smpi_started ? "before MPI_Init (or MPI_Session_init)" :
		smpi_finalized ? "after MPI_Finalize" : "after the last MPI_Session_finalize");
	smap_abort(MPI_ERR_OTHER);
}

void smpi_spin(unsigned *spins)
{
	core_spin(spins);
}

/* A rank that leaves between MPI_Init and MPI_Finalize leaves peers that
 * may wait for it forever: it fails with its own status (1 for a 0), and
 * so the job ends (docs/jobs.md).  smapcc's exit wrapper gives the status;
 * an exit that bypasses it reaches the atexit handler, which cannot. */
static void env_exit_status(int status)
{
	if (smpi_active) {
		fprintf(stderr, "libsmap: rank %d exited with status %d %s: ending the job\n",
			smap_world_rank(), status,
			smpi_initialized && !smpi_finalized ? "without MPI_Finalize" :
			"with an MPI session not finalized");
		fflush(NULL);
		smap_abort(status & 255 ? status & 255 : 1);
	}
}

static void env_exit(void)
{
	env_exit_status(1);
}

/* The library's start, by whichever of MPI_Init and MPI_Session_init
 * comes first; after an end (env_end) a session takes it up again as it
 * was, since the end only drained it. */
static void env_start(int *argc, char ***argv)
{
	if (!smpi_active)
		core_lib_open();	/* env_end closes it once, whatever the sessions */
	if (smpi_started) {
		smpi_active = 1;
		return;
	}
	smpi_info_env_init(argc && argv ? *argc : 0, argv ? *argv : NULL);
	smpi_type_init();
	smpi_op_init();
	smpi_p2p_init();
	smpi_nbc_init();
	smpi_comm_init_world();
	/* Every rank's queues exist before anyone sends. */
	smap_barrier();
	smpi_started = smpi_active = 1;
	core_exit_check = env_exit_status;
	atexit(env_exit);
}

/* The library's end, when neither model uses it any more. */
static void env_end(void)
{
	smpi_p2p_finalize();
	/* No rank leaves while a peer may still read its memory. */
	smap_barrier();
	smpi_active = 0;
	core_lib_close();
}

static int env_init(const char *fn, int *argc, char ***argv)
{
	if (smpi_initialized)
		return smpi_err(NULL, MPI_ERR_OTHER, fn, "MPI is already initialised");
	env_start(argc, argv);
	smpi_initialized = 1;
	return MPI_SUCCESS;
}

int PMPI_Init(int *argc, char ***argv)
{
	return env_init("MPI_Init", argc, argv);
}

int smpi_thread_level(int required)
{
	/* One thread per rank: funneled is the most a rank can have. */
	if (required > MPI_THREAD_FUNNELED)
		return MPI_THREAD_FUNNELED;
	return required < MPI_THREAD_SINGLE ? MPI_THREAD_SINGLE : required;
}

void smpi_session_start(void)
{
	env_start(NULL, NULL);
	env_sessions++;
}

void smpi_session_end(void)
{
	if (--env_sessions == 0 && (!smpi_initialized || smpi_finalized))
		env_end();
}

int PMPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
	int err;

	if (!provided)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Init_thread", "provided pointer is NULL");
	env_thread_level = smpi_thread_level(required);
	err = env_init("MPI_Init_thread", argc, argv);
	*provided = env_thread_level;
	return err;
}

int PMPI_Initialized(int *flag)
{
	if (!flag)
		return MPI_ERR_ARG;
	*flag = smpi_initialized;
	return MPI_SUCCESS;
}

int PMPI_Finalized(int *flag)
{
	if (!flag)
		return MPI_ERR_ARG;
	*flag = smpi_finalized;
	return MPI_SUCCESS;
}

int PMPI_Finalize(void)
{
	int err;

	if ((err = smpi_check_init("MPI_Finalize")))
		return err;
	if (!smpi_initialized || smpi_finalized)
		return smpi_err(NULL, MPI_ERR_OTHER, "MPI_Finalize", "%s",
				smpi_finalized ? "called twice" : "MPI_Init was not called");
	/* As if MPI_COMM_SELF were freed first: its attributes' delete
	 * callbacks run before anything else goes, the latest set first. */
	smpi_attr_clear(SMPI_ATTR_COMM, MPI_COMM_SELF);
	if (!env_sessions)
		env_end();
	smpi_finalized = 1;
	return MPI_SUCCESS;
}

int PMPI_Abort(MPI_Comm comm, int errorcode)
{
	/* A job status is 8 bits: a code whose low 8 bits are 0 would read
	 * as success, so it becomes 1. */
	int status = errorcode & 255 ? errorcode & 255 : 1;

	(void)comm;
	fprintf(stderr, "MPI_Abort: rank %d ends the job with code %d (status %d)\n",
		smap_world_rank(), errorcode, status);
	smap_abort(status);
}

int PMPI_Query_thread(int *provided)
{
	if (!provided)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Query_thread", "provided pointer is NULL");
	*provided = env_thread_level;
	return MPI_SUCCESS;
}

int PMPI_Is_thread_main(int *flag)
{
	if (!flag)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Is_thread_main", "flag pointer is NULL");
	*flag = 1;
	return MPI_SUCCESS;
}

int PMPI_Get_version(int *version, int *subversion)
{
	if (!version || !subversion)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Get_version", "NULL argument");
	*version = MPI_VERSION;
	*subversion = MPI_SUBVERSION;
	return MPI_SUCCESS;
}

int PMPI_Get_library_version(char *version, int *resultlen)
{
	if (!version || !resultlen)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Get_library_version", "NULL argument");
	*resultlen = snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
			      "libsmap MPI %d.%d over SMARTMAP (%s)", MPI_VERSION, MPI_SUBVERSION,
			      smap_is_host() ? "host mode" : "smapos");
	return MPI_SUCCESS;
}

int PMPI_Get_processor_name(char *name, int *resultlen)
{
	char host[64];

	if (!name || !resultlen)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Get_processor_name", "NULL argument");
	if (smap_is_host() && gethostname(host, sizeof host) == 0) {
		host[sizeof host - 1] = 0;
		/* lwkrun --host --nodes K runs K nodes on one machine: programs
		 * find node-mates by this name (OSU's fan-in/out, hybrid codes),
		 * so it must differ where MPI_COMM_TYPE_SHARED does. */
		if (smap_nnodes() > 1)
			*resultlen = snprintf(name, MPI_MAX_PROCESSOR_NAME, "%s-node%d", host,
					      smap_node());
		else
			*resultlen = snprintf(name, MPI_MAX_PROCESSOR_NAME, "%s", host);
	} else {
		*resultlen = snprintf(name, MPI_MAX_PROCESSOR_NAME, "smapos-node%d", smap_node());
	}
	return MPI_SUCCESS;
}

double PMPI_Wtime(void)
{
	return smap_wtime();
}

double PMPI_Wtick(void)
{
	return 1.0 / (double)smap_tsc_hz();
}

int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr)
{
	void *p;

	(void)info;
	if (size < 0 || !baseptr)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Alloc_mem", "bad size %ld or NULL baseptr",
				(long)size);
	p = malloc(size ? size : 1);
	if (!p)
		return smpi_err(NULL, MPI_ERR_NO_MEM, "MPI_Alloc_mem", "no memory for %ld bytes",
				(long)size);
	*(void **)baseptr = p;
	return MPI_SUCCESS;
}

int PMPI_Free_mem(void *base)
{
	free(base);
	return MPI_SUCCESS;
}

SMPI_ALIAS(Init)
SMPI_ALIAS(Init_thread)
SMPI_ALIAS(Initialized)
SMPI_ALIAS(Finalized)
SMPI_ALIAS(Finalize)
SMPI_ALIAS(Abort)
SMPI_ALIAS(Query_thread)
SMPI_ALIAS(Is_thread_main)
SMPI_ALIAS(Get_version)
SMPI_ALIAS(Get_library_version)
SMPI_ALIAS(Get_processor_name)
SMPI_ALIAS(Wtime)
SMPI_ALIAS(Wtick)
SMPI_ALIAS(Alloc_mem)
SMPI_ALIAS(Free_mem)
