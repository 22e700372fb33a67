/*
 * ktest_harden.c - the attacks of issue 20, each against a rank that
 * checks afterwards that none of its bytes changed.  Every mode prints TAP
 * lines; a kernel fault or a foreign write fails the job.
 *
 * usage: ktest_harden MODE [SEED]
 *   mmap-wrap    (2 ranks) rank 1 asks mmap for hints just below 2^64 and
 *                lengths that wrap while rank 0 keeps an 8 MiB pattern
 *   writev-race  (2 ranks) rank 0 calls writev/readv on an iovec that
 *                rank 1 rewrites through SMARTMAP all the while
 *   mremap-wrap  (2 ranks) rank 1 asks mremap for sizes that wrap
 *   fill SEED    fill 64 MiB of malloc and 32 MiB of mmap with a pattern
 *   scan SEED    (the next job) no word of the region holds that pattern
 *   signals      ignored, blocked, default-ignored signals and handlers
 *   alarm        setitimer/alarm: SIGALRM interrupts a loop in user mode
 *                (its registers intact), a sleep, pause and sigsuspend
 *   alarm-default  SIGALRM's default action ends a computing rank (142)
 *   int3 | pause | futex | unblock-kill    die the way Linux would (or
 *                end a deadlock at once)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <smap.h>
#include <smapos_abi.h>
#include "tap.h"

#define PATTERN_BYTES	(8u << 20)

static uint64_t seed = 0x9E3779B97F4A7C15ull;

/* The word a filled address holds: address-dependent, so a spilled copy
 * of the pattern in the scanner's own stack cannot match itself. */
static uint64_t pattern_at(const volatile void *a)
{
	return seed ^ ((uint64_t)(uintptr_t)a * 0xD6E8FEB86659FD93ull);
}

static void pattern_fill(volatile uint64_t *p, size_t bytes)
{
	for (size_t i = 0; i < bytes / 8; i++)
		p[i] = pattern_at(&p[i]);
}

static size_t pattern_bad(const volatile uint64_t *p, size_t bytes)
{
	size_t bad = 0;

	for (size_t i = 0; i < bytes / 8; i++)
		bad += p[i] != pattern_at(&p[i]);
	return bad;
}

static int in_own_region(uint64_t a, uint64_t len)
{
	const struct smapos_jobinfo *ji = smap_jobinfo();

	return a >= ji->region_base && len <= ji->region_size &&
	       a - ji->region_base <= ji->region_size - len;
}

static long raw6(long nr, uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t e, uint64_t f)
{
	long ret;
	register uint64_t r10 __asm__("r10") = d, r8 __asm__("r8") = e, r9 __asm__("r9") = f;

	__asm__ volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10),
			 "r"(r8), "r"(r9) : "rcx", "r11", "memory");
	return ret;
}

/* Rank 0 keeps a heap pattern and a stack pattern across `attack`, run by
 * rank 1; both check their own memory afterwards. */
static void guarded(const char *what, void (*attack)(char *name, size_t size))
{
	int me = smap_rank();
	volatile uint64_t stackpat[8192];
	uint64_t *heap = malloc(PATTERN_BYTES);
	char name[160];

	if (!heap) {
		CHECK("pattern buffer allocated", 0, "malloc failed");
		return;
	}
	pattern_fill(heap, PATTERN_BYTES);
	pattern_fill(stackpat, sizeof(stackpat));
	smap_barrier();
	if (me == 1)
		attack(name, sizeof(name));
	smap_barrier();
	size_t bad = pattern_bad(heap, PATTERN_BYTES) + pattern_bad(stackpat, sizeof(stackpat));

	snprintf(name, sizeof(name), "%s: rank %d's 8 MiB heap pattern and stack are intact", what,
		 me);
	CHECK(name, bad == 0, "%zu words changed", bad);
}

static void mmap_attack(char *name, size_t size)
{
	static const uint64_t hints[] = {
		-4096ull, -8192ull, -3 * 4096ull, -16 * 4096ull, -512 * 4096ull, -(2ull << 20),
		-(1ull << 30), 0xFFFF800000000000ull - 4096, 0x00007FFFFFFFF000ull,
		0x8000000000000000ull,
	};
	static const uint64_t lens[] = {
		4096, 8192, 3 * 4096, 2ull << 20, 64ull << 20, 1ull << 40, 1ull << 47,
		-4096ull, -(2ull << 20),
	};
	unsigned calls = 0, outside = 0, fixed_ok = 0;

	for (unsigned h = 0; h < sizeof(hints) / sizeof(hints[0]); h++)
		for (unsigned l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
			long r = raw6(SYS_mmap, hints[h], lens[l], PROT_READ | PROT_WRITE,
				      MAP_PRIVATE | MAP_ANONYMOUS, (uint64_t)-1, 0);

			calls++;
			if (r >= 0 || r < -4095) {
				outside += !in_own_region((uint64_t)r, lens[l]);
				munmap((void *)r, lens[l]);
			}
			r = raw6(SYS_mmap, hints[h], lens[l], PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, (uint64_t)-1, 0);
			calls++;
			fixed_ok += r >= 0 || r < -4095;
		}
	snprintf(name, size, "mmap-wrap: %u hinted and MAP_FIXED calls: hints outside the region "
		 "are not taken, MAP_FIXED there fails", calls);
	CHECK(name, !outside && !fixed_ok, "%u mappings outside the region, %u MAP_FIXED accepted",
	      outside, fixed_ok);
}

static void mremap_attack(char *name, size_t size)
{
	char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t a = (uint64_t)(uintptr_t)p;
	const uint64_t cases[][2] = {
		{ 4096, -4096ull }, { 4096, 0x1000 - a }, { 4096, 1ull << 47 }, { 4096, -1ull },
		{ -4096ull, 8192 }, { 0x1000 - a, 8192 }, { 4096, -(2ull << 20) },
	};
	unsigned accepted = 0;

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		long r = raw6(SYS_mremap, a, cases[i][0], cases[i][1], MREMAP_MAYMOVE, 0, 0);

		accepted += r >= 0 || r < -4095;
	}
	snprintf(name, size, "mremap-wrap: %zu sizes that wrap past 2^64 are refused",
		 sizeof(cases) / sizeof(cases[0]));
	CHECK(name, !accepted, "%u accepted", accepted);
}

/* writev/readv against a peer rewriting the iovec through SMARTMAP. */
static struct {
	uint64_t base, len;
} iov[2];
static volatile int race_done;
static char one_byte[1];

static void writev_race(long iterations)
{
	int me = smap_rank();
	char name[160];

	iov[0].base = iov[1].base = (uint64_t)(uintptr_t)one_byte;
	smap_barrier();
	if (me == 1) {
		volatile uint64_t *len = remote_address(0, &iov[0].len);
		volatile uint64_t *base = remote_address(0, &iov[1].base);
		volatile int *done = remote_address(0, (void *)&race_done);
		unsigned long flips = 0;

		while (!*done) {
			*len = flips & 1 ? 1ull << 46 : 0;
			*base = flips & 2 ? 0xFFFFFFFF80000000ull : (uint64_t)(uintptr_t)one_byte;
			flips++;
			/* Each state lasts a while, so rank 0 meets the valid one
			 * (a quarter of them) even when emulation runs the two
			 * CPUs in turns rather than at once. */
			for (int i = 0; i < 64; i++)
				__builtin_ia32_pause();
		}
		snprintf(name, sizeof(name), "writev-race: rank 1 rewrote rank 0's iovec %lu times",
			 flips);
		CHECK(name, flips > 0, "no flips");
	} else {
		long zero = 0, efault = 0, other = 0, last = 0, i;

		/* At least `iterations` calls, and on until both outcomes were
		 * seen (up to 50 times as many): under a loaded emulator the
		 * two CPUs may run in turns, rank 1 stuck in one state for a
		 * whole burst of rank 0's calls. */
		for (i = 0; i < iterations || ((!zero || !efault) && i < 50 * iterations); i++) {
			long r = raw6(i & 1 ? SYS_readv : SYS_writev, i & 1 ? 0 : 1,
				      (uint64_t)(uintptr_t)iov, 2, 0, 0, 0);

			/* EINVAL: a length past what one call may move, when
			 * read/readv go to the I/O server (docs/fileio.md) */
			if (r == 0)
				zero++;
			else if (r == -EFAULT || r == -EINVAL)
				efault++;
			else
				other++, last = r;
		}
		race_done = 1;
		snprintf(name, sizeof(name), "writev-race: %ld writev/readv calls on a changing iovec "
			 "return 0 or an error (%ld and %ld)", i, zero, efault);
		CHECK(name, other == 0 && zero > 0 && efault > 0, "%ld other results, last %ld", other,
		      last);
	}
	smap_barrier();
}

#define FILL_MALLOC	(64u << 20)
#define FILL_MMAP	(32u << 20)

static void fill(void)
{
	uint64_t *a = malloc(FILL_MALLOC);
	uint64_t *b = mmap(NULL, FILL_MMAP, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char name[128];

	if (!a || b == MAP_FAILED) {
		CHECK("fill: memory allocated", 0, "no memory");
		return;
	}
	pattern_fill(a, FILL_MALLOC);
	pattern_fill(b, FILL_MMAP);
	snprintf(name, sizeof(name), "fill: rank %d wrote its pattern over 96 MiB", smap_rank());
	CHECK(name, !pattern_bad(a, FILL_MALLOC) && !pattern_bad(b, FILL_MMAP), "readback");
}

/* Every word of the region but the stack guard page. */
static void scan(void)
{
	const struct smapos_jobinfo *ji = smap_jobinfo();
	struct rlimit st;
	uint64_t lo = ji->region_base, hi = lo + ji->region_size, guard;
	size_t found = 0, words = 0;
	char name[160];

	getrlimit(RLIMIT_STACK, &st);
	guard = hi - st.rlim_cur - 4096;
	for (uint64_t a = lo; a < hi; a += 8) {
		if (a == guard)
			a += 4096;
		found += *(volatile uint64_t *)(uintptr_t)a == pattern_at((void *)(uintptr_t)a);
		words++;
	}
	snprintf(name, sizeof(name), "scan: rank %d's whole region (%lu MiB) holds no word of the "
		 "last job's pattern", smap_rank(), (unsigned long)(ji->region_size >> 20));
	CHECK(name, found == 0 && words > 0, "%zu words found", found);
}

static volatile int handled[NSIG], info_signo, nested;

static void on_signal(int sig)
{
	handled[sig]++;
	if (sig == SIGUSR1 && handled[sig] == 1) {
		/* blocked while its handler runs: pending until we return */
		raise(SIGUSR1);
		nested = handled[sig];
	}
}

static void on_siginfo(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	handled[sig]++;
	info_signo = si->si_signo;
}

static void signals(void)
{
	struct sigaction sa;
	sigset_t set, pend;
	volatile double x = 1.5;

	/* reaching each check is half of it: the rank would have died */
	signal(SIGUSR1, SIG_IGN);
	raise(SIGUSR1);
	sigpending(&pend);
	CHECK("signals: an ignored signal does nothing and is not kept",
	      !sigismember(&pend, SIGUSR1), "pending");
	raise(SIGCHLD);
	raise(SIGWINCH);
	raise(SIGURG);
	sigpending(&pend);
	CHECK("signals: SIGCHLD, SIGWINCH, SIGURG are ignored by default",
	      !sigismember(&pend, SIGCHLD) && !sigismember(&pend, SIGWINCH), "pending");

	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	sigprocmask(SIG_BLOCK, &set, NULL);
	raise(SIGUSR2);
	sigpending(&pend);
	CHECK("signals: a blocked signal stays pending", sigismember(&pend, SIGUSR2) == 1,
	      "not pending");
	signal(SIGUSR2, on_signal);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	CHECK("signals: unblocking runs its handler", handled[SIGUSR2] == 1, "ran %d times",
	      handled[SIGUSR2]);

	signal(SIGUSR1, on_signal);
	x = x * 3.0;
	raise(SIGUSR1);
	CHECK("signals: a handler runs, and its signal raised inside it waits for the return",
	      handled[SIGUSR1] == 2 && nested == 1, "handled %d, inside %d", handled[SIGUSR1],
	      nested);
	CHECK("signals: registers and SSE state survive a handler", x == 4.5, "x = %g", x);

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_siginfo;
	sa.sa_flags = SA_SIGINFO | SA_RESETHAND;
	sigaction(SIGTERM, &sa, NULL);
	kill(getpid(), SIGTERM);
	sigaction(SIGTERM, NULL, &sa);
	CHECK("signals: SA_SIGINFO handler gets si_signo; SA_RESETHAND resets it",
	      handled[SIGTERM] == 1 && info_signo == SIGTERM && sa.sa_handler == SIG_DFL,
	      "handled %d, si_signo %d", handled[SIGTERM], info_signo);
	CHECK("signals: SIGKILL cannot be caught", sigaction(SIGKILL, &sa, NULL) == -1 &&
	      errno == EINVAL, "errno %d", errno);
}

static volatile int alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

/* Integer and SSE state the loop keeps in registers across iterations;
 * mixed so no step can be skipped or folded. */
struct mix {
	uint64_t a, b, c, d;
	double x, y;
};

static void mix_step(struct mix *m, uint64_t i)
{
	m->a = m->a * 6364136223846793005ull + i;
	m->b ^= m->a >> 29;
	m->c += m->b * 0x9E3779B97F4A7C15ull;
	m->d = (m->d << 7 | m->d >> 57) ^ m->c;
	m->x = m->x * 0.999 + (double)(m->d & 0xff);
	m->y += m->x * 1e-3;
}

/* Until `until` alarms have come (or `limit` steps), in user mode only. */
static uint64_t mix_run(struct mix *m, int until, uint64_t limit)
{
	uint64_t i;

	for (i = 0; i < limit && alarms < until; i++)
		mix_step(m, i);
	return i;
}

/* Spins in user mode with known values in the registers SYSRET would
 * lose (rcx, r11) and others until an alarm has come, then folds them:
 * (the constants, folded alike) when the return from the handler was
 * exact. */
static uint64_t regs_across_alarm(void)
{
	uint64_t out;

	__asm__ volatile("movabs $0x1111222233334444, %%rcx\n\t"
			 "movabs $0x5555666677778888, %%r11\n\t"
			 "movabs $0x99990000aaaabbbb, %%rdx\n\t"
			 "movabs $0x0123456789abcdef, %%r8\n\t"
			 "movabs $0xfedcba9876543210, %%r10\n\t"
			 "1: cmpl $0, %[flag]\n\t"
			 "je 1b\n\t"
			 "mov %%rcx, %%rax\n\t"
			 "rol $7, %%rax\n\t"
			 "xor %%r11, %%rax\n\t"
			 "rol $7, %%rax\n\t"
			 "xor %%rdx, %%rax\n\t"
			 "rol $7, %%rax\n\t"
			 "xor %%r8, %%rax\n\t"
			 "rol $7, %%rax\n\t"
			 "xor %%r10, %%rax\n\t"
			 : "=a"(out)
			 : [flag] "m"(alarms)
			 : "rcx", "rdx", "r8", "r10", "r11", "cc", "memory");
	return out;
}

static uint64_t rol7(uint64_t v)
{
	return v << 7 | v >> 57;
}

static int set_timer(long first_us, long every_us)
{
	struct itimerval v = { { every_us / 1000000, every_us % 1000000 },
			       { first_us / 1000000, first_us % 1000000 } };

	return setitimer(ITIMER_REAL, &v, NULL);
}

static void alarm_checks(void)
{
	struct mix m = { 1, 2, 3, 4, 0.5, 0.25 }, again = m;
	struct itimerval cur, bad = { { 0, 0 }, { 0, 1000000 } };
	struct timespec req = { 5, 0 }, rem = { 0, 0 };
	uint64_t steps;
	int r, e;

	signal(SIGALRM, on_alarm);
	CHECK("alarm: setitimer(ITIMER_REAL, 20 ms)", set_timer(20000, 0) == 0, "errno %d", errno);
	steps = mix_run(&m, 1, ~0ull);
	for (uint64_t i = 0; i < steps; i++)
		mix_step(&again, i);
	CHECK("alarm: SIGALRM interrupts a loop in user mode, whose registers and SSE state "
	      "survive the handler", alarms == 1 && m.a == again.a && m.b == again.b &&
	      m.c == again.c && m.d == again.d && m.x == again.x && m.y == again.y,
	      "%d alarms after %llu steps; a %llx/%llx x %g/%g", alarms, (unsigned long long)steps,
	      (unsigned long long)m.a, (unsigned long long)again.a, m.x, again.x);

	alarms = 0;
	set_timer(20000, 0);
	steps = regs_across_alarm();
	CHECK("alarm: rcx, r11, rdx, r8, r10 hold their values across it (rt_sigreturn returns "
	      "exactly)", steps == (rol7(rol7(rol7(rol7(0x1111222233334444ull) ^
						    0x5555666677778888ull) ^
					       0x99990000aaaabbbbull) ^ 0x0123456789abcdefull) ^
				  0xfedcba9876543210ull), "folded %llx", (unsigned long long)steps);

	alarms = 1;
	set_timer(5000, 5000);
	mix_run(&m, 4, ~0ull);
	getitimer(ITIMER_REAL, &cur);
	CHECK("alarm: a periodic timer keeps firing, and getitimer shows its period",
	      alarms == 4 && cur.it_interval.tv_sec == 0 && cur.it_interval.tv_usec == 5000 &&
	      cur.it_value.tv_sec == 0 && cur.it_value.tv_usec > 0 &&
	      cur.it_value.tv_usec <= 5000, "%d alarms, interval %ld us, value %ld us", alarms,
	      (long)cur.it_interval.tv_usec, (long)cur.it_value.tv_usec);
	set_timer(0, 0);
	getitimer(ITIMER_REAL, &cur);
	CHECK("alarm: a zero value disarms it", !cur.it_value.tv_sec && !cur.it_value.tv_usec &&
	      !cur.it_interval.tv_usec, "value %ld us", (long)cur.it_value.tv_usec);

	r = (int)alarm(7);
	e = (int)alarm(0);
	CHECK("alarm: alarm(7) returns 0, then alarm(0) the 7 s left", r == 0 && e == 7,
	      "%d, then %d", r, e);

	alarms = 0;
	set_timer(20000, 0);
	r = nanosleep(&req, &rem);
	e = errno;
	CHECK("alarm: it ends a 5 s nanosleep early with EINTR and the time left",
	      r == -1 && e == EINTR && alarms == 1 && rem.tv_sec >= 3 && rem.tv_sec < 5,
	      "returned %d, errno %d, %d alarms, %ld s left", r, e, alarms, (long)rem.tv_sec);

	set_timer(20000, 0);
	r = pause();
	e = errno;
	CHECK("alarm: pause waits for it and returns EINTR after its handler", r == -1 &&
	      e == EINTR && alarms == 2, "returned %d, errno %d, %d alarms", r, e, alarms);

	{
		sigset_t block, none, now;

		sigemptyset(&block);
		sigaddset(&block, SIGALRM);
		sigemptyset(&none);
		sigprocmask(SIG_BLOCK, &block, NULL);
		set_timer(20000, 0);
		r = sigsuspend(&none);
		e = errno;
		sigprocmask(SIG_SETMASK, NULL, &now);
		CHECK("alarm: sigsuspend with SIGALRM blocked outside it takes the alarm, then "
		      "the mask is back", r == -1 && e == EINTR && alarms == 3 &&
		      sigismember(&now, SIGALRM) == 1, "returned %d, errno %d, %d alarms, %s",
		      r, e, alarms, sigismember(&now, SIGALRM) ? "blocked" : "not blocked");
		sigprocmask(SIG_UNBLOCK, &block, NULL);
	}

	r = setitimer(ITIMER_REAL, &bad, NULL);
	e = errno;
	CHECK("alarm: a microsecond field of 10^6 is EINVAL", r == -1 && e == EINVAL, "errno %d",
	      e);
	r = setitimer(ITIMER_PROF, &cur, NULL);
	e = errno;
	CHECK("alarm: the CPU-time timers (ITIMER_PROF) are ENOSYS on the kernel, fine on Linux",
	      (r == -1 && e == ENOSYS) || (r == 0 && smap_is_host()), "returned %d, errno %d",
	      r, e);
	signal(SIGALRM, SIG_DFL);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	if (argc > 2)
		seed = strtoull(argv[2], NULL, 0);
	if (!strcmp(mode, "mmap-wrap")) {
		guarded("mmap-wrap", mmap_attack);
	} else if (!strcmp(mode, "mremap-wrap")) {
		guarded("mremap-wrap", mremap_attack);
	} else if (!strcmp(mode, "writev-race")) {
		writev_race(argc > 2 ? atol(argv[2]) : 20000);
	} else if (!strcmp(mode, "fill")) {
		fill();
	} else if (!strcmp(mode, "scan")) {
		scan();
	} else if (!strcmp(mode, "signals")) {
		signals();
	} else if (!strcmp(mode, "alarm")) {
		alarm_checks();
	} else if (!strcmp(mode, "alarm-default")) {
		struct mix m = { 1, 2, 3, 4, 0.5, 0.25 };

		set_timer(20000, 0);
		mix_run(&m, 1, ~0ull);
		printf("not ok alarm-default: still running after the alarm (%llu)\n",
		       (unsigned long long)m.a);
		return 1;
	} else if (!strcmp(mode, "int3")) {
		__asm__ volatile("int3");
	} else if (!strcmp(mode, "pause")) {
		pause();
	} else if (!strcmp(mode, "futex")) {
		static int word;

		syscall(SYS_futex, &word, 0 /* FUTEX_WAIT */, 0, NULL);
	} else if (!strcmp(mode, "unblock-kill")) {
		sigset_t set;

		sigemptyset(&set);
		sigaddset(&set, SIGUSR1);
		sigprocmask(SIG_BLOCK, &set, NULL);
		raise(SIGUSR1);
		printf("ok unblock-kill: a blocked SIGUSR1 does not end the rank\n");
		fflush(stdout);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
	} else {
		fprintf(stderr, "usage: ktest_harden mmap-wrap|writev-race|mremap-wrap|fill SEED|"
			"scan SEED|signals|alarm|alarm-default|int3|pause|futex|unblock-kill\n");
		return 2;
	}
	return tap_failed;
}
