/*
 * host.h - SMARTMAP emulated with Linux processes (lwkrun --host, or a
 * plain ./prog as a job of one rank).
 *
 * Each rank's region is a memfd mapped MAP_SHARED at its link address in
 * slot 0 of its own process (image, heap and stack moved into it before
 * main) and at slot r+1 in every rank, so remote_address() needs no change.
 */
#ifndef SMAP_HOST_H
#define SMAP_HOST_H

#include <stdint.h>
#include "smapos_abi.h"

/*
 * The job page: one shared memfd per job written by tools/lwk/host.py
 * (which mirrors this layout with struct.pack) and read by every rank.
 * The launcher passes "SMAPOS_HOST=<job page fd>:<rank>:<cpu or -1>:<job id>".
 */
#define HOST_JOB_MAGIC		0x4a484d53u	/* "SMHJ" */
#define HOST_JOB_VERSION	2
#define HOST_ABORT_SET		(1ULL << 63)
/* A byte per rank at this offset of the page: 1 once the rank has finished
 * communicating (host_comm_done), so its exit status no longer ends the
 * others. */
#define HOST_JOB_DONE_OFFSET	2048

struct host_job {
	uint32_t magic;
	uint32_t version;
	uint32_t nranks;
	uint32_t ready;		/* ranks whose region is in place */
	uint64_t region_size;
	uint64_t abort;		/* HOST_ABORT_SET | rank << 8 | status */
	uint64_t tsc_hz;	/* 0 until the first rank measured it */
	uint32_t tsc_state;	/* 0 unmeasured, 1 measuring, 2 done */
	uint32_t reserved;
	uint64_t start_tsc;	/* rank 0's TSC when it reached the start */
	int32_t fd[];		/* region memfd of each rank, same in all */
};

/* Called by core_init with the record on its (Linux) stack: fills it
 * and the end of the image, writes no static variable until the image is
 * back in place. */
void host_init(struct smapos_jobinfo *ji, uintptr_t *image_end);
int host_run_main(int (*main_fn)(int, char **, char **), int argc,
		  char **argv, char **envp);
uint64_t host_tsc_hz(void);
/* Faults then name the address and the rank whose memory it was in. */
void host_report_faults(void);
_Noreturn void host_abort(int status);
void host_comm_done(int done);

#endif
