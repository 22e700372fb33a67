/*
 * host.c - SMARTMAP emulated with Linux processes.
 *
 * A rank's region [base, base + size) lives in one memfd: base is the
 * lowest PT_LOAD address rounded down to 2 MiB, as on the kernel.  At
 * start-up the rank copies its loaded image into the memfd and maps the
 * memfd over the image at the same addresses, so every static variable keeps
 * its address but now sits in shared memory; malloc serves from the same
 * memfd (mem.c) and main runs on a stack at its top.  Every rank maps every
 * rank's memfd at slot r+1 with the same protections, which is exactly what
 * the kernel's shared PDPTs give.
 *
 * Layout of a region, as on the kernel:
 *   base: ELF segments | heap (break up, pages down) | guard page | stack
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <elf.h>
#include "../core/core.h"
#include "host.h"
#include "smap.h"

#define HOST_STACK_SIZE		(16UL << 20)
#define HOST_REGION_ALIGN	(2UL << 20)
/* A plain ./prog gets this much; lwkrun --host --mem sets it per job. */
#define HOST_SINGLETON_SIZE	(4UL << 30)
#define HOST_MAX_RANGES		32

/* One run of pages with one protection. */
struct host_range {
	uintptr_t start, end;
	int prot;
	int loaded;		/* image contents to carry over */
};

struct host_layout {
	uintptr_t base, size, image_end;
	int n;
	struct host_range r[HOST_MAX_RANGES];
};

static struct host_job *host_job;
static int host_rank;
static char host_altstack[16384];

static int host_prot(uint32_t pf)
{
	return ((pf & PF_R) ? PROT_READ : 0) | ((pf & PF_W) ? PROT_WRITE : 0) |
	       ((pf & PF_X) ? PROT_EXEC : 0);
}

static void host_add(struct host_layout *l, uintptr_t s, uintptr_t e, int prot, int loaded)
{
	if (s >= e)
		return;
	if (l->n == HOST_MAX_RANGES)
		core_fatal("libsmap: host mode: too many program segments");
	l->r[l->n++] = (struct host_range){ s, e, prot, loaded };
}

/*
 * glibc's static start-up takes its TLS block from Linux's break before any
 * constructor runs, so live data may already sit in Linux's heap above the
 * image (right after .bss when ASLR is off, as lwkrun --host runs ranks;
 * anywhere in the next GiB when a singleton runs with ASLR).  Those pages
 * are part of the image: carried into the memfd like the segments, with
 * libsmap's own break starting above them.  The heap is the mapped run of
 * pages below the current break; mincore finds its start (ENOMEM on the
 * first unmapped page), and never goes below the image.  musl programs
 * leave the break untouched, so nothing changes for them.
 */
static uintptr_t host_linux_heap(struct host_layout *l, uintptr_t at)
{
	uintptr_t top = core_page_up((uintptr_t)syscall(SYS_brk, 0)), s = top;
	unsigned char vec;

	if (top <= at)
		return at;
	while (s > at && mincore((void *)(s - CORE_PAGE), CORE_PAGE, &vec) == 0)
		s -= CORE_PAGE;
	host_add(l, at, s, PROT_READ | PROT_WRITE, 0);
	host_add(l, s, top, PROT_READ | PROT_WRITE, 1);
	return top;
}

/*
 * Page ranges of the image from the program headers, page-granular and
 * sorted; a page shared by two segments gets both protections.  The gaps,
 * the heap and the stack are read-write, the guard page below the stack none.
 */
static void host_layout(struct host_layout *l, uint64_t size)
{
	const Elf64_Phdr *ph = (const Elf64_Phdr *)getauxval(AT_PHDR);
	size_t phn = getauxval(AT_PHNUM), i;
	uintptr_t lo = ~0UL, at, guard;
	struct host_layout seg = { 0 };

	for (i = 0; i < phn; i++) {
		uintptr_t s, e;
		int j;

		if (ph[i].p_type != PT_LOAD)
			continue;
		s = ph[i].p_vaddr & ~(CORE_PAGE - 1);
		e = core_page_up(ph[i].p_vaddr + ph[i].p_memsz);
		if (s < lo)
			lo = s;
		for (j = 0; j < seg.n; j++) {
			if (s < seg.r[j].end && e > seg.r[j].start) {
				/* overlap only ever on a shared boundary page */
				if (s < seg.r[j].end && s >= seg.r[j].start) {
					seg.r[j].prot |= host_prot(ph[i].p_flags);
					s = seg.r[j].end;
				}
				if (e > seg.r[j].start && e <= seg.r[j].end) {
					seg.r[j].prot |= host_prot(ph[i].p_flags);
					e = seg.r[j].start;
				}
			}
		}
		host_add(&seg, s, e, host_prot(ph[i].p_flags), 1);
	}
	if (seg.n == 0)
		core_fatal("libsmap: host mode: no PT_LOAD segment in the program headers");
	/* insertion sort: a handful of segments */
	for (i = 1; i < (size_t)seg.n; i++) {
		struct host_range t = seg.r[i];
		size_t j = i;

		while (j > 0 && seg.r[j - 1].start > t.start) {
			seg.r[j] = seg.r[j - 1];
			j--;
		}
		seg.r[j] = t;
	}
	l->base = lo & ~(HOST_REGION_ALIGN - 1);
	l->size = size;
	l->n = 0;
	at = l->base;
	for (i = 0; i < (size_t)seg.n; i++) {
		host_add(l, at, seg.r[i].start, PROT_READ | PROT_WRITE, 0);
		host_add(l, seg.r[i].start, seg.r[i].end, seg.r[i].prot, 1);
		at = seg.r[i].end;
	}
	at = host_linux_heap(l, at);
	l->image_end = at;
	if (l->base + size > (1UL << CORE_SLOT_SHIFT))
		core_fatal("libsmap: host mode: region of %lu MiB at %#lx does not fit below 512 GiB (PML4 slot 0)",
			   (unsigned long)(size >> 20), (unsigned long)l->base);
	/* at - base + a page of heap, the guard page and the stack, without
	 * wrapping below the base when the region is smaller than the stack */
	guard = l->base + size - HOST_STACK_SIZE - CORE_PAGE;
	if (size < HOST_STACK_SIZE + CORE_PAGE || at + CORE_PAGE > guard)
		core_fatal("libsmap: host mode: region of %lu MiB too small for the program (%lu MiB) and its 16 MiB stack",
			   (unsigned long)(size >> 20), (unsigned long)((at - l->base) >> 20));
	host_add(l, at, guard, PROT_READ | PROT_WRITE, 0);
	host_add(l, guard, guard + CORE_PAGE, PROT_NONE, 0);
	host_add(l, guard + CORE_PAGE, l->base + size, PROT_READ | PROT_WRITE, 0);
}

static uintptr_t host_slot(unsigned rank)
{
	return (uintptr_t)(rank + 1) << CORE_SLOT_SHIFT;
}

/* Map memfd `fd` over the region at `off` (0 or a slot address). */
static void host_map(const struct host_layout *l, int fd, uintptr_t off, int fixed_image,
		     unsigned rank)
{
	int i;

	for (i = 0; i < l->n; i++) {
		const struct host_range *r = &l->r[i];
		int flags = MAP_SHARED | ((fixed_image && r->loaded) ? MAP_FIXED : MAP_FIXED_NOREPLACE);
		void *want = (void *)(r->start | off);
		void *got = mmap(want, r->end - r->start, r->prot, flags, fd, r->start - l->base);

		if (got != want)
			core_fatal("libsmap: host mode: cannot map rank %u's region at %p (%s): "
				   "the address is taken or the region too large",
				   rank, want, got == MAP_FAILED ? strerror(errno) : "moved");
	}
}

/*
 * Carry the loaded image into the memfd and swap it in underneath.  Each
 * mmap replaces pages with identical contents, so code keeps running; no
 * static variable may change between the copy and the swap.
 */
static void host_move_image(const struct host_layout *l, int fd, unsigned rank)
{
	uintptr_t self = host_slot(rank);
	void *want = (void *)(l->base | self);
	int i;

	if (mmap(want, l->size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED_NOREPLACE,
		 fd, 0) != want)
		core_fatal("libsmap: host mode: cannot map rank %u's region at %p (%s)",
			   rank, want, strerror(errno));
	for (i = 0; i < l->n; i++)
		if (l->r[i].loaded)
			memcpy((void *)(l->r[i].start | self), (void *)l->r[i].start,
			       l->r[i].end - l->r[i].start);
	host_map(l, fd, 0, 1, rank);
	for (i = 0; i < l->n; i++)
		if (l->r[i].prot != (PROT_READ | PROT_WRITE))
			mprotect((void *)(l->r[i].start | self), l->r[i].end - l->r[i].start,
				 l->r[i].prot);
}

/*
 * A fault names the address and whose memory it was meant for, as the
 * kernel's report does, then the default action ends the rank (and the
 * launcher the job).  Runs on its own stack so a stack overflow reports too.
 */
static void host_fault(int sig, siginfo_t *si, void *uc)
{
	uintptr_t a = (uintptr_t)si->si_addr, off = a & CORE_SLOT_MASK;
	unsigned slot = a >> CORE_SLOT_SHIFT, q = slot ? slot - 1 : (unsigned)host_rank;
	/* world ranks, as lwkrun names them: slot q is this node's rank q */
	unsigned first = core.ji.node * core.ji.nranks, me = first + (unsigned)host_rank;
	char line[200];
	int n;

	(void)uc;
	if (slot > core.ji.nranks)
		n = snprintf(line, sizeof line, "libsmap: rank %u: %s at %p: no rank at SMARTMAP slot %u (%u ranks on the node)\n",
			     me, sig == SIGBUS ? "SIGBUS" : "SIGSEGV", si->si_addr, slot,
			     core.ji.nranks);
	else if (off < core.ji.region_base || off >= core.region_end)
		n = snprintf(line, sizeof line, "libsmap: rank %u: %s at %p: outside rank %u's region [%#lx, %#lx)\n",
			     me, sig == SIGBUS ? "SIGBUS" : "SIGSEGV", si->si_addr, first + q,
			     (unsigned long)core.ji.region_base, (unsigned long)core.region_end);
	else
		n = snprintf(line, sizeof line, "libsmap: rank %u: %s at %p: rank %u's %s\n",
			     me, sig == SIGBUS ? "SIGBUS" : "SIGSEGV", si->si_addr, first + q,
			     off >= core.region_end - HOST_STACK_SIZE - CORE_PAGE &&
			     off < core.region_end - HOST_STACK_SIZE ?
			     "stack guard page (stack overflow)" : "read-only or code pages");
	if (n > 0 && write(2, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1) < 0)
		n = 0;
	signal(sig, SIG_DFL);
}

void host_report_faults(void)
{
	stack_t ss = { .ss_sp = host_altstack, .ss_size = sizeof host_altstack };
	struct sigaction sa = { .sa_sigaction = host_fault, .sa_flags = SA_SIGINFO | SA_ONSTACK };

	sigaltstack(&ss, NULL);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
}

static uint64_t host_env_field(const char **s)
{
	char *end;
	long long v = strtoll(*s, &end, 10);

	if (end == *s || (*end != ':' && *end != 0))
		core_fatal("libsmap: SMAPOS_HOST: malformed (expected fd:rank:cpu:job[:node:nodes])");
	*s = *end ? end + 1 : end;
	return (uint64_t)v;
}

void host_init(struct smapos_jobinfo *ji, uintptr_t *image_end)
{
	const char *env = getenv("SMAPOS_HOST");
	const char *pre = getenv("LD_PRELOAD");
	struct host_layout l;
	struct host_job *job;
	unsigned rank = 0, nranks = 1, q;
	uint32_t cpu = ~0u, job_id = 0, node = 0, nnodes = 1;
	int fd;

	/* Valgrind's own image (0x58000000) and its reservation after .bss sit
	 * where the region must go. */
	if (pre && strstr(pre, "vgpreload"))
		core_fatal("libsmap: host mode cannot run under valgrind: valgrind occupies the "
			   "addresses the rank's region needs (see docs/host-mode.md)");

	if (env) {
		int jfd = (int)host_env_field(&env);

		rank = (unsigned)host_env_field(&env);
		cpu = (uint32_t)host_env_field(&env);
		job_id = (uint32_t)host_env_field(&env);
		/* lwkrun --host --nodes K: this process's node of the job */
		if (*env) {
			node = (uint32_t)host_env_field(&env);
			nnodes = (uint32_t)host_env_field(&env);
		}
		job = mmap(NULL, CORE_PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, jfd, 0);
		if (job == MAP_FAILED || job->magic != HOST_JOB_MAGIC)
			core_fatal("libsmap: SMAPOS_HOST names no lwkrun job page this libsmap knows "
				   "(fd %d): a program an older libsmap built needs relinking", jfd);
		if (job->version != HOST_JOB_VERSION)
			core_fatal("libsmap: this program's libsmap speaks host job page version %u, "
				   "lwkrun's is %u: relink the program with this tree's tools/smapcc",
				   HOST_JOB_VERSION, job->version);
		close(jfd);
		nranks = job->nranks;
		if (nranks > SMAP_MAX_HOST_RANKS)
			core_fatal("libsmap: host mode: %u ranks, at most %d fit in Linux's 47-bit user space",
				   nranks, SMAP_MAX_HOST_RANKS);
		if (rank >= nranks)
			core_fatal("libsmap: SMAPOS_HOST: rank %u of %u", rank, nranks);
		fd = job->fd[rank];
	} else {
		job = mmap(NULL, CORE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		fd = memfd_create("smapos-region", MFD_CLOEXEC);
		if (job == MAP_FAILED || fd < 0 || ftruncate(fd, HOST_SINGLETON_SIZE) < 0)
			core_fatal("libsmap: host mode: cannot create the region: %s", strerror(errno));
		job->nranks = 1;
		job->region_size = HOST_SINGLETON_SIZE;
		job->fd[0] = fd;
	}

	host_layout(&l, job->region_size);
	host_move_image(&l, fd, rank);
	/* From here on static variables are in the region and may be written. */
	for (q = 0; q < nranks; q++)
		if (q != rank)
			host_map(&l, job->fd[q], host_slot(q), 0, q);
	for (q = 0; q < nranks; q++)
		close(job->fd[q]);

	host_job = job;
	host_rank = rank;
	ji->version = SMAPOS_JOBINFO_VERSION;
	ji->size = sizeof *ji;
	ji->rank = rank;
	ji->nranks = nranks;
	ji->node = node;
	ji->nnodes = nnodes;
	ji->cpu = cpu;
	ji->job_id = job_id;
	ji->flags = SMAPOS_JOB_HOST;
	ji->region_base = l.base;
	ji->region_size = l.size;
	*image_end = l.image_end;

	/* No rank may touch a peer before the peer's image is in its memfd. */
	if (rank == 0)
		__atomic_store_n(&job->start_tsc, smap_rdtsc(), __ATOMIC_RELAXED);
	__atomic_add_fetch(&job->ready, 1, __ATOMIC_ACQ_REL);
	while (__atomic_load_n(&job->ready, __ATOMIC_ACQUIRE) < nranks)
		sched_yield();
	ji->job_start_tsc = job->start_tsc;
}

/*
 * TSC rate against CLOCK_MONOTONIC_RAW over 10 ms, measured once per job by
 * whichever rank asks first, so that every rank divides by the same number.
 */
static uint64_t host_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC_RAW, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + t.tv_nsec;
}

uint64_t host_tsc_hz(void)
{
	struct host_job *job = host_job;
	uint32_t idle = 0;

	if (__atomic_load_n(&job->tsc_state, __ATOMIC_ACQUIRE) == 2)
		return job->tsc_hz;
	if (__atomic_compare_exchange_n(&job->tsc_state, &idle, 1, 0, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE)) {
		struct timespec nap = { 0, 10000000 };
		uint64_t t0 = host_ns(), c0 = smap_rdtsc(), t1, c1;

		nanosleep(&nap, NULL);
		t1 = host_ns();
		c1 = smap_rdtsc();
		job->tsc_hz = (uint64_t)((double)(c1 - c0) * 1e9 / (double)(t1 - t0));
		__atomic_store_n(&job->tsc_state, 2, __ATOMIC_RELEASE);
	}
	while (__atomic_load_n(&job->tsc_state, __ATOMIC_ACQUIRE) != 2)
		sched_yield();
	return job->tsc_hz;
}

void host_abort(int status)
{
	uint64_t none = 0;
	uint64_t rec = HOST_ABORT_SET | (uint64_t)host_rank << 8 | (status & 255);

	/* The launcher reads this when the rank exits and ends the others. */
	__atomic_compare_exchange_n(&host_job->abort, &none, rec, 0, __ATOMIC_ACQ_REL,
				    __ATOMIC_ACQUIRE);
	_exit(status & 255);
}

void host_comm_done(int done)
{
	/* The launcher reads it when the rank exits (tools/lwk/host.py). */
	__atomic_store_n((uint8_t *)host_job + HOST_JOB_DONE_OFFSET + host_rank, (uint8_t)done,
			 __ATOMIC_RELEASE);
}

/* Calls fn(argc, argv, envp) on the stack whose top is `top`, then returns. */
int host_call_on_stack(int (*fn)(int, char **, char **), int argc, char **argv,
		       char **envp, void *top);
__asm__(".text\n"
	".globl host_call_on_stack\n"
	".type host_call_on_stack,@function\n"
	"host_call_on_stack:\n"
	".cfi_startproc\n"
	"	push %rbp\n"
	".cfi_def_cfa_offset 16\n"
	".cfi_offset %rbp, -16\n"
	"	mov %rsp, %rbp\n"
	".cfi_def_cfa_register %rbp\n"
	"	mov %r8, %rsp\n"
	"	and $-16, %rsp\n"
	"	mov %rdi, %rax\n"
	"	mov %esi, %edi\n"
	"	mov %rdx, %rsi\n"
	"	mov %rcx, %rdx\n"
	"	call *%rax\n"
	"	mov %rbp, %rsp\n"
	"	pop %rbp\n"
	".cfi_def_cfa %rsp, 8\n"
	"	ret\n"
	".cfi_endproc\n"
	".size host_call_on_stack, .-host_call_on_stack\n");

/* Copy a NULL-terminated vector and its strings below *top. */
static char **host_copy_vec(char **v, char **top)
{
	size_t n = 0, i;
	char *p = *top, **out;

	while (v && v[n])
		n++;
	for (i = 0; i < n; i++) {
		size_t len = strlen(v[i]) + 1;

		p -= len;
		memcpy(p, v[i], len);
	}
	out = (char **)(((uintptr_t)p & ~15UL) - (n + 1) * sizeof(char *));
	p = *top;
	for (i = 0; i < n; i++) {
		p -= strlen(v[i]) + 1;
		out[i] = p;
	}
	out[n] = NULL;
	*top = (char *)out;
	return out;
}

/*
 * main runs on the region's stack, with argv and the environment copied
 * into the region too: every address main can name is reachable by peers.
 */
int host_run_main(int (*main_fn)(int, char **, char **), int argc, char **argv, char **envp)
{
	extern char **environ;
	char *top = (char *)core.region_end;
	char **nargv = host_copy_vec(argv, &top);
	char **nenvp = host_copy_vec(envp, &top);

	environ = nenvp;
	return host_call_on_stack(main_fn, argc, nargv, nenvp, top - 64);
}
