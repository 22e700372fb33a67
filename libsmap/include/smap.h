/*
 * smap.h - SMARTMAP for user programs.
 *
 * Every rank of a job maps every other rank of its node: rank r's memory
 * appears in PML4 slot r+1 of each rank's address space, so the address
 * of variable x in rank r is remote_address(r, &x).  Loads, stores and
 * lock-prefixed atomics on that address go straight to rank r's memory:
 * no system call, no registration, no copy through the kernel.
 *
 * The same binary runs on the smapos kernel and, with SMARTMAP emulated,
 * as Linux processes (lwkrun --host); nothing below changes between them.
 * The library is initialised before main() runs.
 */
#ifndef SMAP_H
#define SMAP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* PML4 slots 1..510 hold ranks 0..509; slot 511 is the kernel's. */
#define SMAP_MAX_RANKS		510
/* Linux's 47-bit user space leaves slots 1..254 in host mode. */
#define SMAP_MAX_HOST_RANKS	254

/*
 * Catamount's function: p in on-node rank `rank`, as seen from here.
 * Slots 256..510 (ranks 255..509) lie in the upper canonical half of the
 * address space, so the result is sign-extended from bit 47; for ranks
 * below 255 that changes nothing and this is exactly Catamount's
 * p | ((rank + 1) << 39).  A p that is a SMARTMAP address already (memory
 * a peer shares, such as MPI_Win_shared_query's) names the same memory
 * from every rank of the node, and comes back unchanged: or-ing a second
 * slot into it would name a third rank's.
 */
static inline void *remote_address(unsigned rank, volatile void *p)
{
	uintptr_t a = (uintptr_t)p;

	if (a >> 39)
		return (void *)a;
	a |= (uintptr_t)(rank + 1) << 39;
	return (void *)(uintptr_t)((intptr_t)(a << 16) >> 16);
}

/* On this node: what remote_address() takes. */
int smap_rank(void);
int smap_size(void);
/* Nodes of the job (0 and 1 on a single node). */
int smap_node(void);
int smap_nnodes(void);
/* Across the job: node * ranks-per-node + on-node rank (MPI_COMM_WORLD). */
int smap_world_rank(void);
int smap_world_size(void);
/* Logical CPU this rank runs on. */
int smap_cpu(void);
/* 1 when running as Linux processes (lwkrun --host or a plain ./prog). */
int smap_is_host(void);
/* The whole job record (smapos_abi.h), filled the same way on both
 * platforms; flags has SMAPOS_JOB_HOST in host mode. */
struct smapos_jobinfo;
const struct smapos_jobinfo *smap_jobinfo(void);

/* Time from the TSC at the rate the kernel (or host calibration) measured. */
static inline uint64_t smap_rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}
uint64_t smap_tsc_hz(void);
double smap_wtime(void);

/* All ranks of the job (hierarchical across nodes), or this node's only. */
void smap_barrier(void);
void smap_node_barrier(void);
/* One raw hardware barrier across the nodes (what smap_barrier's leader
 * runs): 0, or -ENODEV (no port; always so in host mode, which says so on
 * stderr), -ETIMEDOUT. */
int smap_hwbarrier(void);
/* The node's barrier port and its counters (struct smapos_hwbarrier in
 * smapos_abi.h): 0, or -ENODEV in host mode. */
struct smapos_hwbarrier;
int smap_hwbarrier_info(struct smapos_hwbarrier *out);

/* 1 if [p, p+len) lies inside on-node rank `rank`'s memory, else 0. */
int smap_is_remote_ok(unsigned rank, const volatile void *p, size_t len);

/*
 * Pointer exchange, as Open MPI's SMARTMAP BTL did it: one rank allocates
 * and publishes under a small key, the others look it up after a barrier
 * and get an address they can use directly (already converted with
 * remote_address), or NULL if nothing was published there.
 */
#define SMAP_PUBLISH_KEYS	64
void smap_publish(unsigned key, void *p);
void *smap_lookup(unsigned rank, unsigned key);

/*
 * Collective over this node's ranks: every rank calls it with the same
 * size and alignment, in the same order, and gets the same virtual address,
 * backed by its own memory (symmetric heaps are built on it).  NULL when
 * the region has no room.
 */
void *smap_sym_reserve(size_t size, size_t align);
/* Give a reservation back (this rank's pages); call it on every rank with
 * the same arguments to keep later reservations symmetric. */
void smap_sym_release(void *p, size_t size);

/* End the whole job with `status` (MPI_Abort, shmem_global_exit). */
__attribute__((__noreturn__)) void smap_abort(int status);

#ifdef __cplusplus
}
#endif

#endif
