/*
 * selftest.c - what an operator runs first on a new node.  One rank on
 * every CPU (np=all) checks what the kernel found and what ranks can do;
 * rank 0 prints one TAP line per check, then the verdict:
 *
 *   selftest: PASS
 *   selftest: FAIL <check>: <why>[; <check>: <why>]...
 *
 *   cpus      every enabled CPU of the firmware's tables started; each rank
 *             runs on its own CPU
 *   memory    the kernel's accounting adds up; a pattern test on a block of
 *             every rank's memory; every MiB of every region is mapped
 *   smartmap  every rank writes into every other rank's memory and reads the
 *             others' writes back, atomics from all ranks add up, regions are
 *             physically disjoint and mapped end to end in every rank
 *   tsc       its rate is plausible (and CPUID's where CPUID gives one); it
 *             never goes backwards on a CPU, nor from one CPU to the next
 *   parport   in a job of several nodes, the barrier port is there and
 *             completes a hardware barrier across them
 *
 * Options say what the node should have, so a dead core or a missing DIMM
 * fails too: --cpus N, --mem SIZE (usable RAM at least), --numa N.
 * --memtest SIZE sets each rank's pattern-tested block (default 16M, `all`
 * for as much as the rank can map); -v prints each rank's CPU and region.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#include <smap.h>
#include <smapos_abi.h>

#define MiB		(1ul << 20)
#define WHY_MAX		160
#define TSC_ROUNDS	3
#define TSC_MIN_HZ	100000000ull
#define TSC_MAX_HZ	10000000000ull
#define TOKEN(r)	(0x5e1f000000000000ull ^ ((uint64_t)(r) * 0x9e3779b97f4a7c15ull >> 16))

enum check { CPUS, MEMORY, SMARTMAP, TSC, PARPORT, NCHECKS };

static const char *const check_name[NCHECKS] = { "cpus", "memory", "smartmap", "tsc", "parport" };

/* Each rank's findings, in its own memory; rank 0 reads them all. */
struct report {
	char why[NCHECKS][WHY_MAX];	/* first failure of each check; "" = passed */
	uint64_t tested;		/* bytes pattern-tested */
	uint64_t phys;
	uint32_t cpu;
};

static struct report report;
static volatile uint64_t mailbox[SMAP_MAX_RANKS];	/* [r]: written by rank r */
static volatile uint64_t counter;			/* in rank 0: everyone adds */
static volatile uint64_t ring[TSC_ROUNDS];		/* the previous rank's TSC */

static struct smapos_nodeinfo ni;
static const struct smapos_jobinfo *ji;
static int me, nranks, verbose;
static long want_cpus = -1, want_numa = -1;
static uint64_t want_mem, memtest_size = 16 * MiB;
static int memtest_all;

__attribute__((format(printf, 2, 3)))
static void fail(enum check c, const char *fmt, ...)
{
	va_list ap;

	if (report.why[c][0])
		return;
	va_start(ap, fmt);
	vsnprintf(report.why[c], WHY_MAX, fmt, ap);
	va_end(ap);
}

static const struct report *report_of(int r)
{
	return remote_address(r, &report);
}

static uint64_t tsc_ordered(void)
{
	uint32_t lo, hi;

	/* lfence keeps rdtsc after the load that saw the other CPU's stamp. */
	__asm__ volatile("lfence; rdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

static void cpuid(uint32_t leaf, uint32_t *a, uint32_t *b, uint32_t *c, uint32_t *d)
{
	__asm__ volatile("cpuid" : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d) : "a"(leaf), "c"(0));
}

static int parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *s == '-')
		return -1;
	switch (*end) {
	case 'k': case 'K': v <<= 10; end++; break;
	case 'm': case 'M': v <<= 20; end++; break;
	case 'g': case 'G': v <<= 30; end++; break;
	case 't': case 'T': v <<= 40; end++; break;
	}
	if (*end || v == 0)
		return -1;
	*out = v;
	return 0;
}

static int parse_count(const char *s, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 1)
		return -1;
	*out = v;
	return 0;
}

/* 0, or an error message for rank 0 to print. */
static const char *parse_args(int argc, char **argv)
{
	static char msg[128];

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		int bad;

		if (!strcmp(a, "-v")) {
			verbose = 1;
			continue;
		}
		if (strcmp(a, "--cpus") && strcmp(a, "--mem") && strcmp(a, "--numa") &&
		    strcmp(a, "--memtest")) {
			snprintf(msg, sizeof(msg), "unknown option '%s'", a);
			return msg;
		}
		if (!v) {
			snprintf(msg, sizeof(msg), "%s needs a value", a);
			return msg;
		}
		i++;
		if (!strcmp(a, "--cpus"))
			bad = parse_count(v, &want_cpus);
		else if (!strcmp(a, "--numa"))
			bad = parse_count(v, &want_numa);
		else if (!strcmp(a, "--mem"))
			bad = parse_size(v, &want_mem);
		else if (!strcmp(v, "all"))
			bad = !(memtest_all = 1);
		else
			bad = parse_size(v, &memtest_size);
		if (bad) {
			snprintf(msg, sizeof(msg), "bad value for %s: '%s'", a, v);
			return msg;
		}
	}
	return NULL;
}

static void check_cpus(void)
{
	if (ni.cpus_online != ni.cpus_present)
		fail(CPUS, "%u of the %u CPUs in the ACPI tables started", ni.cpus_online,
		     ni.cpus_present);
	else if (want_cpus > 0 && ni.cpus_online != (uint32_t)want_cpus)
		fail(CPUS, "expected %ld CPUs online, got %u", want_cpus, ni.cpus_online);
	for (int r = 0; r < nranks; r++) {
		uint32_t cpu = report_of(r)->cpu;

		for (int q = 0; q < r; q++)
			if (report_of(q)->cpu == cpu)
				fail(CPUS, "ranks %d and %d both run on CPU %u", q, r, cpu);
	}
}

/* Two passes (address pattern, then its complement) over words[0..n). */
static void pattern_test(uint64_t *words, size_t n)
{
	uint64_t seed = TOKEN(me);

	for (int pass = 0; pass < 2; pass++) {
		uint64_t flip = pass ? ~0ull : 0;

		for (size_t i = 0; i < n; i++)
			words[i] = ((uint64_t)&words[i] ^ seed) ^ flip;
		for (size_t i = 0; i < n; i++) {
			uint64_t want = ((uint64_t)&words[i] ^ seed) ^ flip;

			if (words[i] != want) {
				fail(MEMORY, "rank %d: %#lx at %p (physical %#lx) reads %#lx", me,
				     (unsigned long)want, (void *)&words[i],
				     (unsigned long)(ji->region_phys + ((uint64_t)&words[i] -
								       ji->region_base)),
				     (unsigned long)words[i]);
				return;
			}
		}
	}
}

static void check_memory(void)
{
	uint64_t size = memtest_all ? ji->region_size : memtest_size;
	uint64_t end = ji->region_base + ji->region_size, guard;
	volatile uint64_t sum = 0;
	void *block = MAP_FAILED;
	struct rlimit stack;

	if (me == 0) {
		if (ni.mem_kernel + ni.mem_ranks > ni.mem_usable)
			fail(MEMORY, "kernel %lu MiB + ranks %lu MiB exceed the %lu MiB usable",
			     (unsigned long)(ni.mem_kernel / MiB), (unsigned long)(ni.mem_ranks / MiB),
			     (unsigned long)(ni.mem_usable / MiB));
		else if ((uint64_t)nranks * ji->region_size > ni.mem_ranks)
			fail(MEMORY, "%d regions of %lu MiB exceed the %lu MiB for ranks", nranks,
			     (unsigned long)(ji->region_size / MiB), (unsigned long)(ni.mem_ranks / MiB));
		else if (ni.mem_usable < want_mem)
			fail(MEMORY, "expected at least %lu MiB usable, got %lu MiB",
			     (unsigned long)(want_mem / MiB), (unsigned long)(ni.mem_usable / MiB));
		else if (want_numa > 0 && ni.numa_nodes != (uint32_t)want_numa)
			fail(MEMORY, "expected %ld NUMA nodes, got %u", want_numa, ni.numa_nodes);
	}
	/* The largest block this rank can map, up to the size asked for. */
	for (size &= ~(MiB - 1); size >= MiB; size /= 2) {
		block = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (block != MAP_FAILED)
			break;
	}
	if (block == MAP_FAILED) {
		fail(MEMORY, "rank %d: cannot map even 1 MiB to test", me);
	} else {
		pattern_test(block, size / sizeof(uint64_t));
		report.tested = size;
		munmap(block, size);
	}
	/* Reading maps nothing in and changes nothing: every MiB is there,
	 * except the stack's guard page (the kernel sizes RLIMIT_STACK). */
	getrlimit(RLIMIT_STACK, &stack);
	guard = end - stack.rlim_cur - 4096;
	for (uint64_t a = ji->region_base; a < end; a += MiB)
		if (a - guard >= 4096)
			sum += *(volatile uint64_t *)(a);
}

static void check_smartmap(void)
{
	uint64_t mine = ji->region_phys, end = mine + ji->region_size;
	int v = 0;

	for (int r = 0; r < nranks; r++)
		*(volatile uint64_t *)remote_address(r, &mailbox[me]) = TOKEN(me);
	for (int i = 0; i < 1000; i++)
		__atomic_fetch_add((uint64_t *)remote_address(0, &counter), 1, __ATOMIC_RELAXED);
	smap_node_barrier();

	for (int r = 0; r < nranks; r++) {
		uint64_t lo = report_of(r)->phys, last = ji->region_base + ji->region_size - 8;

		if (mailbox[r] != TOKEN(r))
			fail(SMARTMAP, "rank %d: rank %d's write reads %#lx, expected %#lx", me, r,
			     (unsigned long)mailbox[r], (unsigned long)TOKEN(r));
		if (r != me && lo < end && mine < lo + ji->region_size)
			fail(SMARTMAP, "ranks %d and %d share physical memory at %#lx", me, r,
			     (unsigned long)(lo > mine ? lo : mine));
		/* Both ends of every region are mapped in every rank. */
		(void)*(volatile uint64_t *)remote_address(r, (void *)ji->region_base);
		(void)*(volatile uint64_t *)remote_address(r, (void *)last);
	}
	*(volatile int *)remote_address(me, &v) = 0x5a;
	if (*(volatile int *)&v != 0x5a)
		fail(SMARTMAP, "rank %d: its own slot does not alias its memory", me);
	if (*(volatile uint64_t *)remote_address(0, &counter) != (uint64_t)nranks * 1000)
		fail(SMARTMAP, "rank %d: %d ranks x 1000 atomic adds in rank 0 made %lu", me, nranks,
		     (unsigned long)*(volatile uint64_t *)remote_address(0, &counter));
}

static void check_tsc_rate(void)
{
	uint32_t a, b, c, d, max;
	uint64_t hz = ji->tsc_hz, cpuid_hz = 0;

	if (hz < TSC_MIN_HZ || hz > TSC_MAX_HZ) {
		fail(TSC, "the kernel measured %lu kHz: implausible", (unsigned long)(hz / 1000));
		return;
	}
	cpuid(0, &max, &b, &c, &d);
	if (max >= 0x15) {
		cpuid(0x15, &a, &b, &c, &d);
		if (a && b && c)
			cpuid_hz = (uint64_t)c * b / a;
	}
	if (!cpuid_hz && max >= 0x16) {
		cpuid(0x16, &a, &b, &c, &d);
		cpuid_hz = (uint64_t)(a & 0xffff) * 1000000;
	}
	/* CPUID 0x16 is the nominal frequency: the TSC's within a percent or two. */
	if (cpuid_hz && (hz > cpuid_hz + cpuid_hz / 50 || hz < cpuid_hz - cpuid_hz / 50))
		fail(TSC, "the kernel measured %lu kHz, CPUID says %lu kHz",
		     (unsigned long)(hz / 1000), (unsigned long)(cpuid_hz / 1000));
}

/* A stamp goes round the ranks: each reads its TSC after seeing the
 * previous rank's, so with synchronised TSCs it can only be later. */
static void check_tsc_order(void)
{
	uint64_t prev = smap_rdtsc();
	volatile uint64_t *next = remote_address((me + 1) % nranks, (void *)ring);

	for (int i = 0; i < 10000; i++) {
		uint64_t t = smap_rdtsc();

		if (t < prev) {
			fail(TSC, "rank %d: the TSC went back by %lu ticks", me,
			     (unsigned long)(prev - t));
			break;
		}
		prev = t;
	}
	for (int round = 0; round < TSC_ROUNDS && nranks > 1; round++) {
		uint64_t seen = 0, now;

		if (me == 0)
			next[round] = tsc_ordered();
		while (!(seen = ring[round]))
			__builtin_ia32_pause();
		now = tsc_ordered();
		if (now < seen)
			fail(TSC, "rank %d: its TSC is %lu ticks behind rank %d's", me,
			     (unsigned long)(seen - now), (me + nranks - 1) % nranks);
		if (me != 0)
			next[round] = now;
	}
}

static void check_parport(void)
{
	int r;

	if (ji->nnodes < 2)
		return;
	if (!ni.barrier_port) {
		fail(PARPORT, "a job of %u nodes, but no parallel port answers for the barrier",
		     ji->nnodes);
		return;
	}
	r = smap_hwbarrier();
	if (r)
		fail(PARPORT, "a hardware barrier across %u nodes at port %#x failed: %s",
		     ji->nnodes, ni.barrier_port, strerror(-r));
}

static void header(void)
{
	uint32_t a, b, c, d;

	cpuid(0x80000000, &a, &b, &c, &d);
	if (a >= 0x80000007)
		cpuid(0x80000007, &a, &b, &c, &d);
	else
		d = 0;
	printf("selftest: node %u of %u: %u of %u CPUs online, %s, %u NUMA node%s, "
	       "TSC %lu.%03lu MHz%s\n", ji->node, ji->nnodes, ni.cpus_online, ni.cpus_present,
	       ni.x2apic ? "x2APIC" : "xAPIC", ni.numa_nodes, ni.numa_nodes == 1 ? "" : "s",
	       (unsigned long)(ji->tsc_hz / 1000000), (unsigned long)(ji->tsc_hz / 1000 % 1000),
	       d & (1u << 8) ? " (invariant)" : "");
	printf("selftest: memory: %lu MiB usable, %lu MiB kernel, %lu MiB for ranks; "
	       "%d rank%s x %lu MiB\n", (unsigned long)(ni.mem_usable / MiB),
	       (unsigned long)(ni.mem_kernel / MiB), (unsigned long)(ni.mem_ranks / MiB), nranks,
	       nranks == 1 ? "" : "s", (unsigned long)(ji->region_size / MiB));
	fflush(stdout);
}

static void detail(enum check c, char *out, size_t size)
{
	uint64_t tested = 0;

	switch (c) {
	case CPUS:
		snprintf(out, size, "%u of %u online, %d rank%s", ni.cpus_online, ni.cpus_present,
			 nranks, nranks == 1 ? "" : "s");
		break;
	case MEMORY:
		for (int r = 0; r < nranks; r++)
			tested += report_of(r)->tested;
		snprintf(out, size, "%lu MiB pattern-tested, %lu MiB of regions mapped",
			 (unsigned long)(tested / MiB),
			 (unsigned long)((uint64_t)nranks * ji->region_size / MiB));
		break;
	case SMARTMAP:
		snprintf(out, size, "%d x %d ranks", nranks, nranks);
		break;
	case TSC:
		snprintf(out, size, "%lu.%03lu MHz, ordered across %d CPU%s",
			 (unsigned long)(ji->tsc_hz / 1000000), (unsigned long)(ji->tsc_hz / 1000 % 1000),
			 nranks, nranks == 1 ? "" : "s");
		break;
	case PARPORT:
		if (!ni.barrier_port)
			snprintf(out, size, "# SKIP no parallel port");
		else if (ji->nnodes < 2)
			snprintf(out, size, "# SKIP port %#x found; one node, no barrier to run",
				 ni.barrier_port);
		else
			snprintf(out, size, "barrier across %u nodes at port %#x", ji->nnodes,
				 ni.barrier_port);
		break;
	case NCHECKS:
		break;
	}
}

/* Rank 0: one TAP line per check (the first failing rank's reason), the verdict. */
static int verdict(void)
{
	char verdict[1024] = "", more[160];
	size_t n = 0;

	if (verbose)
		for (int r = 0; r < nranks; r++) {
			const struct report *p = report_of(r);

			printf("selftest: rank %d: cpu %u, region at physical %#lx-%#lx\n", r, p->cpu,
			       (unsigned long)p->phys,
			       (unsigned long)(p->phys + ji->region_size - 1));
		}
	for (int c = 0; c < NCHECKS; c++) {
		const char *why = NULL;
		int failing = 0;

		for (int r = 0; r < nranks; r++)
			if (report_of(r)->why[c][0] && !failing++)
				why = report_of(r)->why[c];
		if (!why) {
			detail(c, more, sizeof(more));
			printf(more[0] == '#' ? "ok %s %s\n" : "ok %s (%s)\n", check_name[c], more);
			continue;
		}
		if (failing > 1)
			snprintf(more, sizeof(more), " (and %d more rank%s)", failing - 1,
				 failing > 2 ? "s" : "");
		else
			more[0] = '\0';
		printf("not ok %s - %s%s\n", check_name[c], why, more);
		n += snprintf(verdict + n, sizeof(verdict) - n, "%s%s: %s%s", n ? "; " : "",
			      check_name[c], why, more);
		if (n >= sizeof(verdict))
			n = sizeof(verdict) - 1;
	}
	printf("selftest: %s%s\n", n ? "FAIL " : "PASS", verdict);
	fflush(stdout);
	return n ? 1 : 0;
}

int main(int argc, char **argv)
{
	const char *bad = parse_args(argc, argv);
	long got;

	me = smap_rank();
	nranks = smap_size();
	ji = smap_jobinfo();
	if (bad) {
		if (me == 0)
			fprintf(stderr, "selftest: %s (options: -v, --cpus N, --mem SIZE, --numa N, "
				"--memtest SIZE|all)\n", bad);
		return 2;
	}
	got = syscall(SMAPOS_SYS_NODEINFO, &ni, sizeof(ni));
	if (got < (long)sizeof(ni)) {
		if (me == 0)
			printf("selftest: FAIL not on the smapos kernel (no node information: %s)\n",
			       got < 0 ? strerror(errno) : "short record");
		return 1;
	}
	report.cpu = ji->cpu;
	report.phys = ji->region_phys;
	if (me == 0)
		header();
	smap_node_barrier();
	if (me == 0)
		check_cpus();
	check_memory();
	check_smartmap();
	check_tsc_rate();
	check_tsc_order();
	if (me == 0)
		check_parport();
	smap_node_barrier();
	return me == 0 ? verdict() : 0;
}
