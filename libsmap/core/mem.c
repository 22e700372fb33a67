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

static struct extent mem_extents[MEM_MAX_EXTENTS];
static struct extent_table mem_free = { 0, MEM_MAX_EXTENTS, mem_extents };
static uintptr_t mem_brk;
static int mem_lock;
static int mem_started;

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
	extent_insert(&mem_free, core.image_end, core.region_end - (16UL << 20) - CORE_PAGE);
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
	core_lock(&mem_lock);
	for (i = mem_free.n - 1; i >= 0; i--) {
		if (mem_free.e[i].end - mem_free.e[i].start >= len) {
			mem_free.e[i].end -= len;
			p = (void *)mem_free.e[i].end;
			if (mem_free.e[i].end == mem_free.e[i].start)
				extent_remove(&mem_free, i);
			break;
		}
	}
	core_unlock(&mem_lock);
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
	core_lock(&mem_lock);
	/* A full table keeps the pages out of use rather than lose track. */
	extent_insert(&mem_free, s, s + len);
	core_unlock(&mem_lock);
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
	core_lock(&mem_lock);
	old = core_page_up(mem_brk);
	want = core_page_up(top);
	if (want <= old) {
		/* With the table full the break stays up: pages idle, not lost. */
		if (want == old || extent_insert(&mem_free, want, old) == 0) {
			madvise((void *)want, old - want, MADV_REMOVE);
			mem_brk = top;
		}
		ok = 0;
	} else if (mem_free.n > 0 && mem_free.e[0].start == old && mem_free.e[0].end >= want) {
		mem_free.e[0].start = want;
		if (mem_free.e[0].start == mem_free.e[0].end)
			extent_remove(&mem_free, 0);
		mem_brk = top;
		ok = 0;
	}
	core_unlock(&mem_lock);
	return ok;
}
