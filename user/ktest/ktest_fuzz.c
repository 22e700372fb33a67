/*
 * ktest_fuzz.c - random system calls from several ranks at once, each
 * rank rewriting its peers' argument buffers through SMARTMAP while their
 * calls run.  Every system call takes part, the memory calls and the ones
 * that read structures (writev/readv iovecs, timespecs, futex words...)
 * included; arguments come from the edges: 0, -1, small integers, pages
 * just below 2^64, lengths that wrap past 2^64 from the previous argument,
 * kernel and non-canonical addresses, SMARTMAP addresses of ranks that
 * exist and ranks that do not, and real buffers of our own and of peers.
 *
 * Nothing the kernel does may change what we did not hand it: each rank
 * keeps a patterned buffer and a patterned static array that no argument
 * ever points into, and checks them at the end (a changed word is a
 * foreign write).  Kernel faults show on the console (the test rejects
 * them) and keep the summary from ever being printed.
 *
 * File calls go to the I/O server: run it confined to a scratch
 * directory (lwkrun --files DIR), and stdio is never closed or replaced.
 * Left out: exit and exit_group, rt_sigreturn (would load random
 * registers), pause (ends the job: nothing can wake it), arch_prctl
 * ARCH_SET_FS (our TLS), the calls that end or stall the job on purpose
 * (job_abort, hwbarrier) and network attach; kill/tkill/tgkill only send
 * signal 0 or invalid numbers (a real signal would run whatever random
 * handler rt_sigaction installed).  Sleeping calls (nanosleep,
 * clock_nanosleep, futex WAIT) only get timespecs that sleep at most a
 * microsecond, or bad pointers, and futex WAIT always has a timeout.
 *
 * A plain static musl program, not a libsmap one: nothing but our own
 * mmaps may sit in the heap area, so the scratch buffer lands right below
 * the stack guard (remote_address is smap.h's inline; the job record comes
 * from the jobinfo call; the one barrier is an atomic counter in rank 0).
 *
 * usage: ktest_fuzz CALLS_PER_RANK SEED
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#include <smap.h>
#include <smapos_abi.h>
#include "tap.h"

static struct smapos_jobinfo ji;
static volatile long arrived;

/* Every rank of the job here once: a counter in rank 0's memory. */
static void barrier_once(void)
{
	volatile long *c = remote_address(0, (void *)&arrived);

	__atomic_add_fetch(c, 1, __ATOMIC_ACQ_REL);
	while (__atomic_load_n(c, __ATOMIC_ACQUIRE) < (long)ji.nranks)
		__builtin_ia32_pause();
}

static uint64_t state;

static uint64_t rnd(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

#define SCRATCH_SIZE	(16u << 20)
#define ARGBUF_WORDS	4096		/* start of scratch: iovecs and other records */
#define PATTERN_SIZE	(4u << 20)
#define STATIC_WORDS	(64u << 10)

static char *scratch;		/* what valid pointers point into */
static uint64_t *pattern;	/* never handed to the kernel */
static uint64_t statics[STATIC_WORDS];
static int64_t timespecs[4][2];	/* the only timespecs sleeping calls get */
static uint64_t prev_arg, region_base;
static int me, nranks;

/* argc, argv, envp, auxv and their strings: the top of our stack, which
 * nothing may change while we run (a range wrapping below a peer's
 * region would land here, in the rank below it) */
static uint64_t stack_top[1024];
static const uint64_t *stack_top_at;
static size_t stack_top_words;

static uint64_t pattern_at(const volatile void *a)
{
	return 0xA5A5F00DCAFEBEEFull ^ ((uint64_t)(uintptr_t)a * 0x9E3779B97F4A7C15ull);
}

static void pattern_fill(uint64_t *p, size_t words)
{
	for (size_t i = 0; i < words; i++)
		p[i] = pattern_at(&p[i]);
}

static size_t pattern_bad(const volatile uint64_t *p, size_t words)
{
	size_t bad = 0;

	for (size_t i = 0; i < words; i++)
		bad += p[i] != pattern_at(&p[i]);
	return bad;
}

static const uint64_t edges[] = {
	0, 1, 2, 3, 8, 4096, 65536, 0x400000, 0x1000000000ull, 1ull << 46, 1ull << 47,
	0x7FFFFFFFFFFFFFFFull, 0x8000000000000000ull, 0xFFFFFFFFFFFFFFFFull,
	0xFFFFFFFFFFFFF000ull, 0xFFFFFFFFFFFFE000ull, 0xFFFFFFFFFFE00000ull,
	0xFFFFFFFFC0000000ull, 0xFFFFFFFF80100000ull, 0xFFFFFF8000000000ull,
	0xFFFF800000000000ull, 0x0000800000000000ull, 0x00007FFFFFFFF000ull,
};
#define NEDGES	(sizeof(edges) / sizeof(edges[0]))

/* A SMARTMAP address: p in rank r's slot (r may not exist). */
static uint64_t smartmap(uint64_t p, unsigned r)
{
	return (uint64_t)(uintptr_t)remote_address(r, (void *)(uintptr_t)p);
}

static uint64_t arg(void)
{
	uint64_t v, own = (uint64_t)(uintptr_t)(scratch + rnd() % SCRATCH_SIZE);

	switch (rnd() % 8) {
	case 0:
	case 1:
		v = edges[rnd() % NEDGES];
		break;
	case 2:
		v = rnd() % 4096;
		break;
	case 3:
		v = own;
		break;
	case 4:	/* a peer's scratch, or a rank past the job's */
		v = smartmap(own, (unsigned)(rnd() % (unsigned)(nranks + 2)));
		break;
	case 5:	/* a length that wraps from the previous argument */
		v = (0 - prev_arg) + (rnd() % 4) * 4096 - (rnd() % 2);
		break;
	case 6:	/* the end of our scratch, where the stack guard follows */
		v = (uint64_t)(uintptr_t)(scratch + SCRATCH_SIZE) - rnd() % 8192;
		break;
	default:
		v = rnd();
		break;
	}
	prev_arg = v;
	return v;
}

/* A length that never makes a valid small write to the console. */
static uint64_t big_len(void)
{
	static const uint64_t lens[] = { 0, 1ull << 46, 1ull << 40, 0xFFFFFFFFFFFFFFFFull,
					 0xFFFFFFFFFFFFF000ull, 0x8000000000000000ull };

	/* wrapping from the previous argument: huge, never small */
	if (rnd() % 4 == 0 && prev_arg < (1ull << 63))
		return 0 - prev_arg;
	return lens[rnd() % (sizeof(lens) / sizeof(lens[0]))];
}

/* A value a peer may write into a timespec of ours: never a long sleep
 * (at most a microsecond), often an invalid one. */
static int64_t ts_value(int nsec)
{
	static const int64_t v[] = { 0, 1, -1, 1000, 1000000000, INT64_MIN };

	if (!nsec)
		return rnd() % 2 ? 0 : -1;
	return v[rnd() % (sizeof(v) / sizeof(v[0]))];
}

static uint64_t timespec_ptr(void)
{
	switch (rnd() % 4) {
	case 0: {	/* NULL or bad: never readable memory of random content */
		static const uint64_t bad[] = { 0, 8, 0x1000000000ull, 0xFFFFFFFFFFFFF000ull,
						0xFFFFFFFF80100000ull, 0x8000000000000000ull };

		return bad[rnd() % (sizeof(bad) / sizeof(bad[0]))];
	}
	case 1:	/* a peer's: read through SMARTMAP */
		return smartmap((uint64_t)(uintptr_t)timespecs[rnd() % 4], (unsigned)(rnd() % (unsigned)nranks));
	default:
		return (uint64_t)(uintptr_t)timespecs[rnd() % 4];
	}
}

/* The iovec area of a rank's argument buffer, edited by everyone. */
static void scribble(uint64_t *buf)
{
	/* mostly the first iovecs, where readv/writev look */
	unsigned i = (unsigned)(rnd() % (rnd() % 4 ? 128 : ARGBUF_WORDS));

	buf[i] = i & 1 ? big_len() : arg();
}

/* Mostly the calls the kernel offers (an ENOSYS teaches nothing), then
 * any number of the Linux range, then the LWK calls. */
static long pick_call(void)
{
	static const short offered[] = {
		0, 1, 3, 5, 8, 9, 10, 11, 12, 13, 14, 16, 19, 20, 24, 25, 28, 35, 36, 37, 38, 39,
		62, 63,
		89, 96, 97, 102, 104, 107, 108, 110, 127, 131, 158, 186, 200, 201, 202, 203,
		204, 218, 228, 229, 230, 234, 262, 273, 302, 318, 334,
	};

	switch (rnd() % 8) {
	case 0:
		return (long)(rnd() % 460);
	case 1:
		return SMAPOS_SYS_BASE + (long)(rnd() % 12);
	default:
		return offered[rnd() % (sizeof(offered) / sizeof(offered[0]))];
	}
}

static long raw_syscall(long nr, uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t e,
			uint64_t f)
{
	long ret;
	register uint64_t r10 __asm__("r10") = d, r8 __asm__("r8") = e, r9 __asm__("r9") = f;

	__asm__ volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10),
			 "r"(r8), "r"(r9) : "rcx", "r11", "memory");
	return ret;
}

/* 1 ms, once (SIGALRM is ignored: the interrupt and its return are what
 * the fuzzer exercises). */
static const struct { int64_t interval[2], value[2]; } one_shot = { { 0, 0 }, { 0, 1000 } };

/* Arguments for call nr; 0 to skip it. */
static int make_args(long nr, uint64_t a[6])
{
	uint64_t argbuf = (uint64_t)(uintptr_t)scratch;

	for (int i = 0; i < 6; i++)
		a[i] = arg();
	switch (nr) {
	case 60: case 231:		/* exit, exit_group */
	case 15:			/* rt_sigreturn */
	case 34: case 130:		/* pause, rt_sigsuspend: a deadlock */
	case SMAPOS_SYS_HWBARRIER:
	case SMAPOS_SYS_JOB_ABORT:
	case 1032:			/* network attach */
		return 0;
	case 158:			/* arch_prctl: keep our TLS */
		return a[0] != 0x1002;
	case 62: case 200:		/* kill, tkill: signal 0 or no signal */
		a[0] = rnd() % 2 ? 0 : (uint64_t)raw_syscall(39, 0, 0, 0, 0, 0, 0);
		a[1] = rnd() % 2 ? 0 : 65 + rnd() % 1000;
		return 1;
	case 234:			/* tgkill */
		a[0] = a[1] = (uint64_t)raw_syscall(39, 0, 0, 0, 0, 0, 0);
		a[2] = rnd() % 2 ? 0 : 65 + rnd() % 1000;
		return 1;
	case 3:				/* close: keep stdio (the console); fds */
		if ((uint32_t)a[0] <= 2)	/* are 32-bit, as Linux reads them */
			a[0] = 3 + (a[0] & 7);
		return 1;
	case 33: case 292:		/* dup2, dup3: never onto stdio */
		if ((uint32_t)a[1] <= 2)
			a[1] = 3 + (a[1] & 7);
		return 1;
	case 1:				/* write: never a small valid buffer */
		a[0] = rnd() % 4;
		a[2] = big_len();
		return 1;
	case 19: case 20:		/* readv, writev: iovecs peers rewrite */
		a[0] = rnd() % 4;
		if (rnd() % 4)
			a[1] = rnd() % 2 ? argbuf + 8 * (rnd() % 64) :
				smartmap(argbuf, (unsigned)(rnd() % (unsigned)nranks));
		a[2] = rnd() % 4 ? rnd() % 8 : edges[rnd() % NEDGES];
		return 1;
	case 13:			/* rt_sigaction: SIGALRM stays ignored */
		if (a[0] == SIGALRM)
			a[0] = 0;
		return 1;
	case 38:			/* setitimer: ITIMER_REAL only ever one-shot, */
		if (!(int)a[0] && rnd() % 2)	/* so no period can keep the rank */
			a[1] = (uint64_t)(uintptr_t)&one_shot;	/* in interrupts */
		else if (!(int)a[0])
			a[0] = 2;
		return 1;
	case 35:			/* nanosleep */
		a[0] = timespec_ptr();
		return 1;
	case 230:			/* clock_nanosleep */
		a[2] = timespec_ptr();
		return 1;
	case 9: case 10: case 11: case 12: case 25: case 28: {
		static const uint64_t mmap_flags[] = { 0x22, 0x21, 0x32, 0x100022 };

		/* real lengths and flags half of the time: the paths behind the
		 * first checks are where the wrapping bugs hide */
		if (rnd() % 2)
			a[1] = 4096 * (1 + rnd() % 16);
		if (nr == 9 && rnd() % 2)
			a[3] = mmap_flags[rnd() % 4];
		if (nr == 25 && rnd() % 2) {
			a[2] = rnd() % 2 ? 4096 * (1 + rnd() % 16) : 0 - a[0] + 4096 * (rnd() % 2);
			a[3] = rnd() % 2;
		}
		if (nr == 28 && rnd() % 2)
			a[2] = 4;	/* MADV_DONTNEED: zeroes */
		if (rnd() % 4 == 0)	/* a page just below 2^64 */
			a[0] = 0 - 4096 * (1 + rnd() % 1024);
		/* mmap, mprotect, munmap, brk, mremap, madvise may legitimately
		 * zero or give back whatever of our own memory they are handed:
		 * never hand them our data, pattern or heap, only scratch */
		if (a[0] >= region_base && a[0] < argbuf)
			a[0] = argbuf + (a[0] % SCRATCH_SIZE & ~4095ull);
		/* a low address may stay, with a range that ends below the
		 * region (munmap and madvise clip what they are given to the
		 * heap area, which would include our data) or wraps */
		if (a[0] < region_base && a[1] > region_base - a[0] && a[0] + a[1] >= a[0])
			a[1] = region_base - a[0];
		return 1;
	}
	case 202:			/* futex: WAIT always with a timeout */
		a[3] = timespec_ptr();
		if (rnd() % 2)
			a[0] = argbuf + 4 * (rnd() % 64);
		return a[3] != 0;
	}
	return 1;
}

int main(int argc, char **argv)
{
	long count = argc > 1 ? atol(argv[1]) : 10000;
	uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 88172645463325252ull;
	static long hist[4096];
	static volatile long calls_of[SMAP_MAX_RANKS], errors_of[SMAP_MAX_RANKS];
	static volatile long bad_of[SMAP_MAX_RANKS];
	char name[256];

	if (syscall(SMAPOS_SYS_JOBINFO, &ji, sizeof(ji)) < 0) {
		perror("ktest_fuzz: jobinfo (runs on the smapos kernel only)");
		return 1;
	}
	me = (int)ji.rank;
	nranks = (int)ji.nranks;
	signal(SIGALRM, SIG_IGN);	/* the alarms setitimer arms */
	/* scratch first: the kernel places it just below the stack guard, so
	 * a range running off its end meets the guard, not our data */
	scratch = mmap(NULL, SCRATCH_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pattern = mmap(NULL, PATTERN_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (scratch == MAP_FAILED || pattern == MAP_FAILED) {
		perror("ktest_fuzz: mmap");
		return 1;
	}
	{
		struct rlimit st;
		uint64_t guard;

		getrlimit(RLIMIT_STACK, &st);
		region_base = ji.region_base;
		guard = ji.region_base + ji.region_size - st.rlim_cur - 4096;
		if ((uint64_t)(uintptr_t)(scratch + SCRATCH_SIZE) != guard) {
			printf("not ok fuzz: scratch ends at %p, not at the stack guard %#lx\n",
			       (void *)(scratch + SCRATCH_SIZE), (unsigned long)guard);
			return 1;
		}
	}
	stack_top_at = (const uint64_t *)(uintptr_t)(argv - 1);
	stack_top_words = (size_t)(ji.region_base + ji.region_size -
				   (uint64_t)(uintptr_t)stack_top_at) / 8;
	if (stack_top_words > 1024)
		stack_top_words = 1024;
	memcpy(stack_top, stack_top_at, stack_top_words * 8);
	pattern_fill(pattern, PATTERN_SIZE / 8);
	pattern_fill(statics, STATIC_WORDS);
	state = seed + 0x9E3779B97F4A7C15ull * (uint64_t)(me + 1);
	for (long i = 0; i < count; i++) {
		long nr = pick_call();
		uint64_t a[6];
		long r;

		/* rewrite a peer's iovecs and timespecs while its calls run */
		if (nranks > 1) {
			unsigned peer = (unsigned)(rnd() % (unsigned)nranks);

			scribble(remote_address(peer, scratch));
			if (rnd() % 8 == 0) {
				volatile int64_t *ts = remote_address(peer, timespecs[rnd() % 4]);

				ts[0] = ts_value(0);
				ts[1] = ts_value(1);
			}
		} else {
			scribble((uint64_t *)scratch);
		}
		if (!make_args(nr, a)) {
			i--;
			continue;
		}
		r = raw_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
		if (r < 0 && r >= -4095)
			hist[-r]++;
	}
	calls_of[me] = count;
	for (int e = 0; e < 4096; e++)
		errors_of[me] += hist[e];
	bad_of[me] = (long)(pattern_bad(pattern, PATTERN_SIZE / 8) +
			    pattern_bad(statics, STATIC_WORDS));
	for (size_t w = 0; w < stack_top_words; w++)
		bad_of[me] += stack_top_at[w] != stack_top[w];
	snprintf(name, sizeof(name), "fuzz: rank %d's 4 MiB pattern, 512 KiB of statics and the "
		 "top of its stack are untouched", me);
	CHECK(name, bad_of[me] == 0, "%ld words changed", bad_of[me]);
	barrier_once();
	if (me == 0) {
		long calls = 0, errors = 0, bad = 0;
		size_t n = 0;
		char errs[1024];

		for (int r = 0; r < nranks; r++) {
			calls += *(volatile long *)remote_address((unsigned)r, (void *)&calls_of[r]);
			errors += *(volatile long *)remote_address((unsigned)r, (void *)&errors_of[r]);
			bad += *(volatile long *)remote_address((unsigned)r, (void *)&bad_of[r]);
		}
		for (int e = 1; e < 4096 && n < sizeof(errs) - 32; e++)
			if (hist[e])
				n += (size_t)snprintf(errs + n, sizeof(errs) - n, " %d:%ld", e, hist[e]);
		errs[n] = '\0';
		printf("fuzz summary: ranks %d, calls %ld, errors %ld, foreign writes %ld; "
		       "rank 0's errnos (errno:count):%s\n", nranks, calls, errors, bad, errs);
		snprintf(name, sizeof(name), "fuzz: %ld calls on %d ranks, no foreign write", calls,
			 nranks);
		CHECK(name, bad == 0 && calls == count * nranks, "%ld foreign writes", bad);
	}
	return tap_failed;
}
