/*
 * smapos_abi.h - the contract between the smapos kernel and user space
 * beyond the Linux x86-64 syscall ABI: the LWK system calls, the job-info
 * record and the kernel's exit statuses.  Shared verbatim by kernel/ and
 * libsmap/; everything here is fixed-width so both sides agree bit for bit.
 *
 * LWK call numbers sit above the Linux range, so on Linux (libsmap host
 * mode) the same call returns -ENOSYS: that is how a binary learns which
 * platform it runs on.
 */
#ifndef SMAPOS_ABI_H
#define SMAPOS_ABI_H

#include <stdint.h>

/* System call numbers (rax), Linux calling convention. */
#define SMAPOS_SYS_BASE		1024
/* long jobinfo(struct smapos_jobinfo *out, unsigned long size): fills at most
 * size bytes, returns the number of bytes the kernel knows about. */
#define SMAPOS_SYS_JOBINFO	1024
/* long hwbarrier(unsigned long ms): one hardware barrier across the job's
 * nodes, waiting at most ms (0: no limit; at most SMAPOS_HWB_MAX_MS).
 * 0, -EAGAIN (ms passed: the barrier stays open and the next call goes on
 * waiting in it), -ENODEV (no port on this node), -ETIMEDOUT (a node never
 * entered, and no network watches the nodes), -ESRCH (a node left the job
 * without entering), -EINTR (the job is being stopped), -EINVAL. */
#define SMAPOS_HWB_MAX_MS	3600000ul
#define SMAPOS_SYS_HWBARRIER	1025
/* long job_abort(int status): ends every rank of the job with status
 * (MPI_Abort, shmem_global_exit). Does not return. */
#define SMAPOS_SYS_JOB_ABORT	1026
/* long nodeinfo(struct smapos_nodeinfo *out, unsigned long size): like
 * jobinfo, for the machine. */
#define SMAPOS_SYS_NODEINFO	1027
/* long hwbarrier_info(struct smapos_hwbarrier *out, unsigned long size):
 * the node's barrier port and its counters, like jobinfo. */
#define SMAPOS_SYS_HWBARRIER_INFO	1028
/* long comm_done(unsigned long done): 1 once the rank has finished every
 * communication library it started (MPI_Finalize, shmem_finalize): no peer
 * can wait for it any more, so a failing exit status no longer stops the
 * others (it still fails the job); 0 when one starts again.  0, -EINVAL. */
#define SMAPOS_SYS_COMM_DONE	1029

/* long net_attach(struct snet_area *area): hands the node's network engine
 * the calling rank's area (uapi/smapos_net.h).  0, -ENODEV (no network on
 * this node, or a job of one node), -EFAULT, -EINVAL (bad area). */
#define SMAPOS_SYS_NET_ATTACH	1032

#define SMAPOS_JOBINFO_VERSION	1

/* PML4 slots 1..510 hold the ranks of a node. */
#define SMAPOS_MAX_RANKS	510

/* flags */
#define SMAPOS_JOB_HWBARRIER	0x1u	/* a hardware barrier port is wired */
#define SMAPOS_JOB_HOST		0x2u	/* host mode (set by libsmap, never by the kernel) */

struct smapos_jobinfo {
	uint32_t version;	/* SMAPOS_JOBINFO_VERSION */
	uint32_t size;		/* bytes of this record the provider filled */
	uint32_t rank;		/* rank on this node: what remote_address() takes */
	uint32_t nranks;	/* ranks on this node */
	uint32_t node;		/* node id, 0..nnodes-1 */
	uint32_t nnodes;	/* nodes in the job */
	uint32_t cpu;		/* logical CPU the rank runs on */
	uint32_t job_id;	/* index of the job in this boot, from 0 */
	uint32_t flags;		/* SMAPOS_JOB_* */
	uint32_t reserved;
	uint64_t tsc_hz;	/* calibrated TSC rate: smap_wtime() divides by it */
	uint64_t region_base;	/* virtual base of the rank's region (same in all ranks) */
	uint64_t region_size;	/* bytes; identical for all ranks of the node */
	uint64_t region_phys;	/* physical base (0 in host mode) */
	uint64_t job_start_tsc;	/* TSC when the kernel released the ranks */
};

struct smapos_nodeinfo {
	uint32_t version;	/* SMAPOS_JOBINFO_VERSION */
	uint32_t size;
	uint32_t cpus_present;	/* enabled processors in the ACPI MADT */
	uint32_t cpus_online;	/* processors that started */
	uint32_t numa_nodes;	/* proximity domains in the SRAT (1 without) */
	uint32_t x2apic;	/* 1 if the local APICs run in x2APIC mode */
	uint64_t tsc_hz;
	uint64_t mem_usable;	/* bytes the firmware reports usable */
	uint64_t mem_kernel;	/* bytes kept for the kernel */
	uint64_t mem_ranks;	/* bytes available to ranks (all jobs' regions) */
	uint64_t boot_tsc;	/* TSC at kernel entry */
	uint64_t online_tsc;	/* TSC when all CPUs were online */
	uint32_t barrier_port;	/* I/O base of the hardware barrier, 0 if none */
	uint32_t reserved;
};

/* The hardware barrier of this node; counters since boot, for the
 * barriers that went through the kernel. */
struct smapos_hwbarrier {
	uint32_t version;	/* SMAPOS_JOBINFO_VERSION */
	uint32_t size;
	uint32_t port;		/* I/O base of the parallel port, 0 if none */
	uint32_t state;		/* level of OUT (and of IN) between barriers */
	uint64_t timeout_ms;	/* barrier_timeout= */
	uint64_t barriers;	/* completed */
	uint64_t spins;		/* status reads that found the barrier still open
				 * (reads = spins + barriers) */
	uint64_t ticks;		/* TSC ticks inside completed barriers ... */
	uint64_t write_ticks;	/* ... of which writing OUT (o_w) */
	uint64_t read_ticks;	/* ... and reading the status register (o_r) */
	uint64_t timeouts;
	uint32_t last_status;	/* status register that ended the last barrier */
	uint32_t reserved;
};

/*
 * Kernel exit statuses, as the byte written to QEMU's isa-debug-exit
 * port (QEMU exits with 2*status+1; tools/lwkrun maps it back) and as
 * printed on the console's last line.  A failed job reports the first
 * failing rank's status: its exit code, or 128+signal when it was killed
 * (a fault is SIGSEGV/SIGBUS/SIGILL/SIGFPE, abort() is SIGABRT).
 */
#define SMAPOS_EXIT_OK		0
#define SMAPOS_EXIT_BADCMD	2	/* bad kernel command line or job spec */
#define SMAPOS_EXIT_NET		122	/* the network lost a node the job needed */
#define SMAPOS_EXIT_DEADLOCK	123	/* a rank waits for what can never happen */
#define SMAPOS_EXIT_PANIC	125	/* kernel fault or panic */

#endif
