/*
 * mem.c - the page source under malloc and the symmetric reservations.
 *
 * On the kernel the region is the address space: anonymous mmap carves
 * pages downwards from below the stack and brk grows up from .bss, both
 * inside the region, so this is a thin layer over the system calls.
 *
 * In host mode Linux knows nothing of the region, so the same two
 * mechanisms are kept here over the memfd: a sorted table of free extents
 * between the break and the stack guard, taken from the top, and a break
 * line.  Freed pages are punched out of the memfd (MADV_REMOVE), which
 * gives the memory back to Linux and makes the next user see zeros, as the
 * kernel's mmap does.
 */
#include <errno.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "core.h"

#define MEM_MAX_EXTENTS	1024

struct mem_extent {
	uintptr_t start, end;
};

static struct mem_extent mem_free[MEM_MAX_EXTENTS];
static int mem_nfree;
static uintptr_t mem_brk;
static int mem_lock;
static int mem_started;

static void mem_acquire(void)
{
	unsigned spins = 0;

	while (__atomic_exchange_n(&mem_lock, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(&mem_lock, __ATOMIC_RELAXED))
			core_spin(&spins);
}

static void mem_release(void)
{
	__atomic_store_n(&mem_lock, 0, __ATOMIC_RELEASE);
}

/* Host mode: everything between the image and the stack guard is free. */
static void mem_start(void)
{
	core_ready();
	if (mem_started)
		return;
	mem_started = 1;
	if (!core.host)
		return;
	mem_brk = core.image_end;
	mem_free[0].start = core.image_end;
	mem_free[0].end = core.region_end - (16UL << 20) - CORE_PAGE;
	mem_nfree = 1;
}

static void mem_remove(int i)
{
	for (; i + 1 < mem_nfree; i++)
		mem_free[i] = mem_free[i + 1];
	mem_nfree--;
}

/* Return [s, e) to the table, merging with its neighbours. */
static int mem_insert(uintptr_t s, uintptr_t e)
{
	int i = 0, j;

	while (i < mem_nfree && mem_free[i].start < s)
		i++;
	if (i > 0 && mem_free[i - 1].end == s) {
		mem_free[i - 1].end = e;
		if (i < mem_nfree && mem_free[i].start == e) {
			mem_free[i - 1].end = mem_free[i].end;
			mem_remove(i);
		}
		return 0;
	}
	if (i < mem_nfree && mem_free[i].start == e) {
		mem_free[i].start = s;
		return 0;
	}
	if (mem_nfree == MEM_MAX_EXTENTS)
		return -1;
	for (j = mem_nfree; j > i; j--)
		mem_free[j] = mem_free[j - 1];
	mem_free[i].start = s;
	mem_free[i].end = e;
	mem_nfree++;
	return 0;
}

void *mem_map(size_t len)
{
	void *p = NULL;
	int i;

	mem_start();
	len = core_page_up(len);
	if (len == 0)
		return NULL;
	if (!core.host) {
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		return p == MAP_FAILED ? NULL : p;
	}
	mem_acquire();
	for (i = mem_nfree - 1; i >= 0; i--) {
		if (mem_free[i].end - mem_free[i].start >= len) {
			mem_free[i].end -= len;
			p = (void *)mem_free[i].end;
			if (mem_free[i].end == mem_free[i].start)
				mem_remove(i);
			break;
		}
	}
	mem_release();
	return p;
}

void mem_unmap(void *p, size_t len)
{
	uintptr_t s = (uintptr_t)p;

	len = core_page_up(len);
	if (!core.host) {
		munmap(p, len);
		return;
	}
	madvise(p, len, MADV_REMOVE);
	mem_acquire();
	/* A full table keeps the pages out of use rather than lose track. */
	mem_insert(s, s + len);
	mem_release();
}

uintptr_t mem_brk_get(void)
{
	mem_start();
	if (!core.host)
		return (uintptr_t)syscall(SYS_brk, 0);
	return mem_brk;
}

/*
 * Move the break to `top`: 0 on success, -1 when the pages above the break
 * are taken.  Pages below a lowered break are punched out (host) or handed
 * back (kernel) so they read as zero when the break grows again.
 */
int mem_brk_set(uintptr_t top)
{
	uintptr_t old, want;
	int ok = -1;

	mem_start();
	if (!core.host) {
		old = (uintptr_t)syscall(SYS_brk, 0);
		return (uintptr_t)syscall(SYS_brk, top) == top || top == old ? 0 : -1;
	}
	mem_acquire();
	old = core_page_up(mem_brk);
	want = core_page_up(top);
	if (want <= old) {
		/* With the table full the break stays up: pages idle, not lost. */
		if (want == old || mem_insert(want, old) == 0) {
			madvise((void *)want, old - want, MADV_REMOVE);
			mem_brk = top;
		}
		ok = 0;
	} else if (mem_nfree > 0 && mem_free[0].start == old && mem_free[0].end >= want) {
		mem_free[0].start = want;
		if (mem_free[0].start == mem_free[0].end)
			mem_remove(0);
		mem_brk = top;
		ok = 0;
	}
	mem_release();
	return ok;
}
