/*
 * init.c - libsmap start-up: learns the job from the kernel (or sets up
 * host mode when the kernel call does not exist), before main() runs.
 *
 * smapcc links with -Wl,--wrap=main, so crt1's call to main lands in
 * __wrap_main below; a constructor and the first malloc initialise even
 * earlier when they come first.  In host mode main must also run on a stack
 * inside the region, which is why the wrapper and not only a constructor.
 */
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <smap.h>
#include "core.h"
#include "../host/host.h"

struct core core;

/* A rank that shares its core with others must not burn its timeslice. */
#define CORE_SPIN_ALONE		4096
#define CORE_SPIN_SHARED	64
/* Shared CPUs and several host nodes: a spin drives the engine's sockets
 * (a system call or two), so 64 of them held the CPU about 100 us before
 * giving it away; 3 one-rank nodes on 2 CPUs took 220 us a barrier. */
#define CORE_SPIN_SHARED_NET	4
#define CORE_SPIN_NAP		4096
#define CORE_NAP_NS		2000
/* Polls less than this apart, finding nothing, are a loop that waits; a
 * program computing between its polls never naps. */
#define CORE_POLL_GAP_NS	10000
#define CORE_POLL_NAP		256

void core_init(void)
{
	struct smapos_jobinfo ji;
	uintptr_t image_end = 0;
	long n;

	memset(&ji, 0, sizeof ji);
	n = syscall(SMAPOS_SYS_JOBINFO, &ji, sizeof ji);
	if (n < 0 && errno != ENOSYS)
		core_fatal("libsmap: job info system call failed: %s", strerror(errno));
	if (n >= 0) {
		if (ji.version != SMAPOS_JOBINFO_VERSION || n < (long)sizeof ji)
			core_fatal("libsmap: kernel job info version %u size %ld, expected version %u size %zu",
				   ji.version, n, SMAPOS_JOBINFO_VERSION, sizeof ji);
		core.spin_limit = ~0u;
		/* After spinning a while (~50 us) a rank naps: the kernel halts
		 * its core for 2 us at a time.  A wait that long costs a nap's
		 * wake-up at most; under emulation the halt gives the host CPU
		 * to the NIC and the network engine a rank waits for, and to
		 * the other ranks' vCPUs when they outnumber the host's cores. */
		core.nap = 1;
		/* Polling loops nap across nodes only: on one node a message
		 * takes well under a nap to arrive. */
		if (ji.nnodes > 1)
			core.poll_gap = ji.tsc_hz * CORE_POLL_GAP_NS / 1000000000u;
	} else {
		/* Moves the image: no static variable may be written before. */
		host_init(&ji, &image_end);
		core.host = 1;
		/* Unpinned, the job's processes share the host's CPUs: every
		 * node's ranks are processes here (host mode across nodes). */
		core.spin_limit = ji.cpu != ~0u || ji.nranks * ji.nnodes == 1 ? CORE_SPIN_ALONE :
				  ji.nnodes > 1 ? CORE_SPIN_SHARED_NET : CORE_SPIN_SHARED;
	}
	core.ji = ji;
	core.image_end = image_end;
	core.region_end = ji.region_base + ji.region_size;
	if (core.host)
		host_report_faults();
	__atomic_store_n(&core.ready, 1, __ATOMIC_RELEASE);
	core_wait_init();
}

__attribute__((constructor(101))) static void init_early(void)
{
	core_ready();
	/* Here, not in core_init: a first malloc may be what initialises, and
	 * setenv allocates.  Before libgomp's default-priority constructor. */
	lang_omp_one_thread();
}

int __real_main(int argc, char **argv, char **envp);

int __wrap_main(int argc, char **argv, char **envp)
{
	static int entered;

	core_ready();
	/* A program calling main itself lands here too: stay on its stack. */
	if (core.host && !entered++)
		return host_run_main(__real_main, argc, argv, envp);
	return __real_main(argc, argv, envp);
}

static void core_vsay(const char *fmt, va_list ap)
{
	char line[512];
	int n;

	n = vsnprintf(line, sizeof line - 1, fmt, ap);
	if (n < 0)
		return;
	if (n > (int)sizeof line - 2)
		n = sizeof line - 2;
	line[n++] = '\n';
	if (write(2, line, n) < 0)
		return;
}

void core_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	core_vsay(fmt, ap);
	va_end(ap);
}

void core_fatal(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	core_vsay(fmt, ap);
	va_end(ap);
	abort();
}

void (*core_progress)(void);
void (*core_exit_check)(int status);

_Noreturn void __real_exit(int status);

_Noreturn void __wrap_exit(int status)
{
	if (core_exit_check)
		core_exit_check(status);
	__real_exit(status);
}

void core_poll(int found)
{
	static const struct timespec nap = { 0, CORE_NAP_NS };
	static unsigned idle;
	static uint64_t last;

	if (found) {
		idle = 0;
		return;
	}
	if (core.poll_gap) {
		/* A loop of MPI_Test or shmem_test on the kernel across nodes:
		 * under emulation it kept the host CPU from the network
		 * engine's vCPU (Graph500's polling, 2 QEMU nodes x 2). */
		uint64_t now = smap_rdtsc();

		idle = now - last < core.poll_gap ? idle + 1 : 0;
		if (idle >= CORE_POLL_NAP) {
			nanosleep(&nap, NULL);
			now = smap_rdtsc();
		}
		last = now;
		return;
	}
	if (core.spin_limit == ~0u)
		return;
	if (++idle >= core.spin_limit)
		sched_yield();
}

void core_spin(unsigned *spins)
{
	static const struct timespec nap = { 0, CORE_NAP_NS };

	if (core_progress)
		core_progress();
	core_wait_check(*spins);
	if (core.nap && *spins >= CORE_SPIN_NAP) {
		/* A nap counts for 16 spins: the wait check looks every 16. */
		*spins += 16;
		nanosleep(&nap, NULL);
		return;
	}
	if (++*spins < core.spin_limit) {
		__builtin_ia32_pause();
		return;
	}
	sched_yield();
}
