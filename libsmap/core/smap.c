/*
 * smap.c - the queries of smap.h, time, pointer exchange and job abort.
 * Everything reads the job record core_init filled; nothing here asks which
 * platform it runs on except where the platforms really differ (abort,
 * measuring the TSC, finding the CPU of an unpinned host rank).
 */
#include <sched.h>
#include <unistd.h>
#include "core.h"
#include "../host/host.h"
#include "smap.h"

/* Published pointers: each rank's table, read by the others through SMARTMAP. */
static void *volatile smap_published[SMAP_PUBLISH_KEYS];

int smap_rank(void)
{
	core_ready();
	return (int)core.ji.rank;
}

int smap_size(void)
{
	core_ready();
	return (int)core.ji.nranks;
}

int smap_node(void)
{
	core_ready();
	return (int)core.ji.node;
}

int smap_nnodes(void)
{
	core_ready();
	return (int)core.ji.nnodes;
}

int smap_world_rank(void)
{
	core_ready();
	return (int)(core.ji.node * core.ji.nranks + core.ji.rank);
}

int smap_world_size(void)
{
	core_ready();
	return (int)(core.ji.nnodes * core.ji.nranks);
}

int smap_cpu(void)
{
	core_ready();
	/* An unpinned host rank (more ranks than cores) moves between CPUs. */
	if (core.ji.cpu == ~0u)
		return sched_getcpu();
	return (int)core.ji.cpu;
}

int smap_is_host(void)
{
	core_ready();
	return core.host;
}

uint64_t smap_tsc_hz(void)
{
	core_ready();
	if (core.ji.tsc_hz == 0 && !core.host)
		core_fatal("smap_tsc_hz: the kernel reported no TSC rate");
	if (core.ji.tsc_hz == 0)
		__atomic_store_n(&core.ji.tsc_hz, host_tsc_hz(), __ATOMIC_RELAXED);
	return core.ji.tsc_hz;
}

const struct smapos_jobinfo *smap_jobinfo(void)
{
	smap_tsc_hz();
	return &core.ji;
}

double smap_wtime(void)
{
	uint64_t hz = smap_tsc_hz();

	return (double)(smap_rdtsc() - core.ji.job_start_tsc) / (double)hz;
}

int smap_is_remote_ok(unsigned rank, const volatile void *p, size_t len)
{
	core_ready();
	return rank < core.ji.nranks && core_range_in(rank, (uintptr_t)p, len);
}

void smap_publish(unsigned key, void *p)
{
	if (key >= SMAP_PUBLISH_KEYS)
		core_fatal("smap_publish: key %u out of range (0..%d)", key, SMAP_PUBLISH_KEYS - 1);
	smap_published[key] = p;
}

void *smap_lookup(unsigned rank, unsigned key)
{
	void *p;

	core_ready();
	if (key >= SMAP_PUBLISH_KEYS)
		core_fatal("smap_lookup: key %u out of range (0..%d)", key, SMAP_PUBLISH_KEYS - 1);
	if (rank >= core.ji.nranks)
		core_fatal("smap_lookup: rank %u out of range (%u ranks on this node)",
			   rank, core.ji.nranks);
	p = *(void *volatile *)remote_address(rank, &smap_published[key]);
	return p ? remote_address(rank, p) : NULL;
}

/* Communication libraries (MPI, SHMEM) this rank has started and not
 * finished.  While one is open the rank's exit ends the job, since a peer
 * may wait for it; once the last is finished the kernel or the launcher
 * knows, and a failing status waits for the job's end (docs/jobs.md). */
static int core_libs, core_closed;

static void core_comm_done(int done)
{
	if (core.host)
		host_comm_done(done);
	else
		syscall(SMAPOS_SYS_COMM_DONE, done);
}

void core_lib_open(void)
{
	if (core_libs++ == 0 && core_closed)
		core_comm_done(0);
}

void core_lib_close(void)
{
	if (core_libs > 0 && --core_libs == 0) {
		core_closed = 1;
		core_comm_done(1);
	}
}

void smap_abort(int status)
{
	core_ready();
	if (core.host)
		host_abort(status);
	syscall(SMAPOS_SYS_JOB_ABORT, status);
	_exit(status & 255);
}
