/*
 * core.h - libsmap's private core: the job record every other part reads,
 * the region layout, the page source and the error path.  Not installed;
 * user programs see smap.h only.
 *
 * Invariant: core.ready is set once, before main() runs (or at the first
 * malloc, whichever comes first), and nothing in core changes afterwards
 * except the lazily measured TSC rate in host mode.
 */
#ifndef SMAP_CORE_H
#define SMAP_CORE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "smapos_abi.h"

#define CORE_PAGE		4096UL
#define CORE_SLOT_SHIFT		39
#define CORE_SLOT_MASK		((1UL << CORE_SLOT_SHIFT) - 1)

struct core {
	struct smapos_jobinfo ji;
	int ready;
	int host;		/* Linux processes: launched job or singleton */
	uintptr_t image_end;	/* page-aligned end of the highest PT_LOAD */
	uintptr_t region_end;	/* region_base + region_size */
	unsigned spin_limit;	/* pauses before a waiting rank yields */
	int nap;		/* waits nap after a while (the kernel) */
	uint64_t poll_gap;	/* TSC ticks: closer polls are one wait, which naps
				 * (the kernel across nodes; else 0) */
};

extern struct core core;

void core_init(void);

static inline void core_ready(void)
{
	if (!__atomic_load_n(&core.ready, __ATOMIC_ACQUIRE))
		core_init();
}

static inline uintptr_t core_page_up(uintptr_t x)
{
	return (x + CORE_PAGE - 1) & ~(CORE_PAGE - 1);
}

/*
 * The bounds check of every one-sided transfer (SHMEM put/get/atomics/
 * signals, MPI RMA, rpipe): 1 if the len bytes at addr lie inside a rank's
 * region, addr being an address of the region layout every rank shares
 * (static data, heap, stack: slot 0) or rank's own SMARTMAP address (slot
 * rank + 1).  addr + len is never computed, so no length can wrap past
 * the check.  Every rank of a job has the same layout, on every node.
 */
static inline int core_range_in(unsigned rank, uintptr_t addr, size_t len)
{
	uintptr_t slot = (addr >> CORE_SLOT_SHIFT) & 511, a = addr & CORE_SLOT_MASK;

	if (slot != 0 && slot != (uintptr_t)rank + 1)
		return 0;
	if (slot == 0 && a != addr)
		return 0;	/* upper-half bits on a slot-0 address */
	return a >= core.ji.region_base && a <= core.region_end && len <= core.region_end - a;
}

/* A communication library starts (MPI, SHMEM) and finishes: the rank's
 * exit ends the job only while one is open. */
void core_lib_open(void);
void core_lib_close(void);

/* "libsmap: <message>" on stderr, then the job fails with SIGABRT. */
_Noreturn void core_fatal(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
/* The same line without ending anything. */
void core_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* OMP_NUM_THREADS=1, OMP_THREAD_LIMIT=1 before libgomp starts (lang/omp.c). */
void lang_omp_one_thread(void);

/* Spin-wait step: pause, and after a while give the core away (Linux) or
 * nap (the kernel halts it 2 us).
 * Drives core_progress, when set, at every step. */
void core_spin(unsigned *spins);
/* After a call that polls (MPI_Test, MPI_Iprobe, shmem_test...): a program
 * looping on one that finds nothing waits too, and on a CPU it shares (host
 * mode, more ranks than CPUs) gives it away as core_spin does, or the peer
 * it waits for may not run for a whole time slice; on the kernel across
 * nodes, polls that follow each other closely nap as waits do.  No wait
 * check: the program may compute between polls. */
void core_poll(int found);
/* Host mode's network engine runs in whichever rank waits (hostnet.c):
 * set once the network is up; never allocates, so any wait may call it. */
extern void (*core_progress)(void);
/* waits.c: a job where every rank of every node spins in a wait (or has
 * exited) ends; core_spin looks, cheaply, with its spin count (a look
 * every 256). */
void core_wait_init(void);
void core_wait_check(unsigned spins);
#define CORE_WAIT_LOOK	256u	/* spins between core_wait_check's looks */
/* smap_barrier, calling progress while it waits (MPI's, so that messages
 * to and from other nodes move while a rank waits in a whole-job barrier:
 * a synchronous send to it must complete for its sender to arrive). */
void core_barrier_progress(void (*progress)(void));
/* Around a system call that waits for other ranks (the hardware barrier):
 * the rank counts as spinning in a wait meanwhile. */
void core_wait_blocked(int on);
/* The library call this rank is in (or left last), for that report: set at
 * each call's door; a static name, at the same address in every rank of
 * the one binary, so a peer reads it through SMARTMAP. */
extern const char *core_call;
/* Called with the status of every exit of the program (smapcc wraps exit):
 * MPI ends the job there when the rank leaves without MPI_Finalize. */
extern void (*core_exit_check)(int status);

/*
 * Copies for the latency paths (point-to-point payloads, collective
 * values): musl's memcpy starts every copy of 8 bytes or more with a
 * string instruction (rep movsq), which takes longer to start than to
 * finish a small copy - 40% of an 8-byte allreduce on one member went
 * there.  Up to CORE_COPY_SMALL bytes a few overlapping moves, up to
 * CORE_COPY_SHORT 16-byte moves (the last one overlapping), memcpy above.
 */
#define CORE_COPY_SMALL	48
#define CORE_COPY_SHORT	256

static inline void core_copy_small(void *dst, const void *src, uint64_t n)
{
	char *d = dst;
	const char *s = src;
	uint64_t a, b, c, e;

	if (n >= 16) {
		__builtin_memcpy(&a, s, 8);
		__builtin_memcpy(&b, s + 8, 8);
		__builtin_memcpy(&c, s + n - 16, 8);
		__builtin_memcpy(&e, s + n - 8, 8);
		if (n > 32) {
			uint64_t f, g;

			__builtin_memcpy(&f, s + 16, 8);
			__builtin_memcpy(&g, s + 24, 8);
			__builtin_memcpy(d + 16, &f, 8);
			__builtin_memcpy(d + 24, &g, 8);
		}
		__builtin_memcpy(d, &a, 8);
		__builtin_memcpy(d + 8, &b, 8);
		__builtin_memcpy(d + n - 16, &c, 8);
		__builtin_memcpy(d + n - 8, &e, 8);
	} else if (n >= 8) {
		__builtin_memcpy(&a, s, 8);
		__builtin_memcpy(&b, s + n - 8, 8);
		__builtin_memcpy(d, &a, 8);
		__builtin_memcpy(d + n - 8, &b, 8);
	} else if (n >= 4) {
		uint32_t x, y;

		__builtin_memcpy(&x, s, 4);
		__builtin_memcpy(&y, s + n - 4, 4);
		__builtin_memcpy(d, &x, 4);
		__builtin_memcpy(d + n - 4, &y, 4);
	} else {
		for (; n; n--)
			*d++ = *s++;
	}
}

static inline void core_copy(void *dst, const void *src, uint64_t n)
{
	char *d = dst;
	const char *s = src;
	char t[16];
	uint64_t i;

	if (n <= CORE_COPY_SMALL) {
		core_copy_small(dst, src, n);
	} else if (n <= CORE_COPY_SHORT) {
		for (i = 0; i + 16 < n; i += 16) {
			__builtin_memcpy(t, s + i, 16);
			__builtin_memcpy(d + i, t, 16);
		}
		__builtin_memcpy(t, s + n - 16, 16);
		__builtin_memcpy(d + n - 16, t, 16);
	} else {
		memcpy(dst, src, n);
	}
}

/* A spin lock for the allocator's and the page source's tables. */
static inline void core_lock(int *l)
{
	unsigned spins = 0;

	while (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(l, __ATOMIC_RELAXED))
			core_spin(&spins);
}

static inline void core_unlock(int *l)
{
	__atomic_store_n(l, 0, __ATOMIC_RELEASE);
}

/* Sorted free ranges (extent.c); insert merges neighbours, -1 when full. */
struct extent {
	uintptr_t start, end;
};

struct extent_table {
	int n, max;
	struct extent *e;
};

int extent_insert(struct extent_table *t, uintptr_t s, uintptr_t e);
void extent_remove(struct extent_table *t, int i);

/*
 * The region's page source (mem.c).  Pages come from the top of the free
 * part of the region downwards and are zeroed; the break grows upwards from
 * the end of the image and only the symmetric reservations use it, so it
 * moves identically on every rank.
 */
void *mem_map(size_t len);
void mem_unmap(void *p, size_t len);
uintptr_t mem_brk_get(void);
int mem_brk_set(uintptr_t top);

#endif
