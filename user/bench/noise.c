/*
 * noise.c - fixed-work-quantum (FWQ) OS-noise benchmark.
 *
 * A worker runs many identical short loops of arithmetic ("quanta") back to
 * back and reads the TSC after each one.  On a noiseless core every quantum
 * takes the same time; anything the OS (or, under QEMU, the emulator and
 * the host) does on that core shows up as a longer quantum.  The detour of
 * a quantum is its duration minus the shortest one.
 *
 * It is a plain static C program (no libsmap, no job information) so that
 * the same binary measures every platform the campaign compares:
 *
 *   noise [options]           one worker in this process: a smapos rank
 *                             (lwkrun -n N noise: one worker per CPU)
 *   noise --fork [options]    one worker per CPU of the affinity mask, each
 *                             a child pinned to its CPU (Linux); workers
 *                             report once all have measured
 *   noise --init [options]    as --fork, then power the machine off: /init
 *                             of the Linux guest (user/bench/run builds it)
 *
 * options: -q QUANTA (20000; 0: only the start, worker and end stamps, for
 * boot and launch timing), -w WORK loop iterations per quantum (2000),
 * -d NS: list the quanta whose detour exceeds NS (1000), -m MAX: list at
 * most the MAX longest of those per worker (2000; the count of the rest is
 * printed).
 *
 * Output, one whole line per write() so workers never interleave inside a
 * line (TSC values are raw ticks; under QEMU/TCG the guest TSC counts from
 * the VM's reset at the host's TSC rate):
 *
 *   noise start cpu=C tsc=T            first thing in main
 *   noise hz tsc_hz=H                  TSC rate against CLOCK_MONOTONIC
 *   noise worker cpu=C tsc=T           a forked worker's first instruction
 *                                      (printed with its report)
 *   noise result cpu=C quanta=Q work=W min=.. p50=.. p999=.. max=.. (ns)
 *   noise detour cpu=C at_us=T ns=D    T: quantum start from the worker's start
 *   noise dropped cpu=C n=K            detours over the -m limit
 *   noise end cpu=C tsc=T              last thing before exit or power-off
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/reboot.h>
#include <sys/wait.h>

#define CALIBRATE_NS	20000000L

static long quanta = 20000, work = 2000, detour_ns = 1000, max_listed = 2000;
static double tsc_hz;

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	/* lfence keeps the read from moving before the work it ends. */
	__asm__ volatile("lfence; rdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return (uint64_t)hi << 32 | lo;
}

/* One line, one write(): the console never mixes two workers' lines. */
static void say(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof line - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof line - 2)
		n = sizeof line - 2;
	line[n++] = '\n';
	while (write(1, line, n) < 0 && errno == EINTR)
		;
}

/* The first (with --fork, the only) CPU this process may run on. */
static int my_cpu(void)
{
	cpu_set_t set;
	int c;

	if (sched_getaffinity(0, sizeof set, &set) == 0)
		for (c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &set))
				return c;
	return -1;
}

static long mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

/* The TSC rate from a short busy wait on the system clock: the one
 * calibration available to a plain program on smapos and on Linux alike. */
static double calibrate(void)
{
	long n0 = mono_ns(), n1;
	uint64_t t0 = rdtsc(), t1;

	do {
		n1 = mono_ns();
	} while (n1 - n0 < CALIBRATE_NS);
	t1 = rdtsc();
	return (double)(t1 - t0) * 1e9 / (double)(n1 - n0);
}

/* A dependent chain the compiler cannot shorten: the empty asm makes x
 * opaque at every step, so each iteration is one multiply-add. */
static uint64_t quantum(uint64_t x)
{
	long i;

	for (i = 0; i < work; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static double ns(uint64_t ticks)
{
	return (double)ticks * 1e9 / tsc_hz;
}

/* --fork: the workers' rendezvous (the write end of "measured", the read
 * end of "report now"), and this worker's first TSC reading. */
static int done_fd = -1, go_fd = -1;
static uint64_t worker_tsc;

/* With --fork, a worker prints nothing until every worker has measured:
 * Linux writes to its serial console from interrupts, on whichever CPU
 * takes them, so one worker's report would show as another's noise. */
static void wait_for_all(void)
{
	char c = 0;

	if (done_fd < 0)
		return;
	while (write(done_fd, &c, 1) < 0 && errno == EINTR)
		;
	/* Returns at end of file: the parent closes the other end. */
	while (read(go_fd, &c, 1) < 0 && errno == EINTR)
		;
}

/* t[0..quanta]: the TSC before and after each quantum; returns the chain's
 * value so the work cannot be optimised away. */
static uint64_t measure(uint64_t *t)
{
	uint64_t x = 1;
	long i;

	/* One quantum first, so code and data are warm and (under QEMU/TCG)
	 * the loop is already translated. */
	x = quantum(x);
	t[0] = rdtsc();
	for (i = 0; i < quanta; i++) {
		x = quantum(x);
		t[i + 1] = rdtsc();
	}
	return x;
}

static void report(int cpu, const uint64_t *t, uint64_t *d, uint64_t x)
{
	uint64_t min, cut;
	long i, over = 0, listed = 0;

	for (i = 0; i < quanta; i++)
		d[i] = t[i + 1] - t[i];
	qsort(d, quanta, sizeof *d, cmp_u64);
	min = d[0];
	say("noise result cpu=%d quanta=%ld work=%ld min=%.1f p50=%.1f p999=%.1f max=%.1f check=%u",
	    cpu, quanta, work, ns(min), ns(d[quanta / 2]), ns(d[(quanta - 1) * 999 / 1000]),
	    ns(d[quanta - 1]), (unsigned)(x & 0xff));
	/* List the longest detours over the threshold, at most max_listed of
	 * them, in time order: the whole run stays on the plot when there are
	 * too many to print, and the ones left out are the smallest. */
	cut = min + (uint64_t)(detour_ns * tsc_hz / 1e9);
	while (over < quanta && d[quanta - 1 - over] > cut)
		over++;
	if (over > max_listed)
		cut = d[quanta - 1 - max_listed];
	for (i = 0; i < quanta; i++)
		if (t[i + 1] - t[i] > cut) {
			say("noise detour cpu=%d at_us=%.1f ns=%.0f", cpu, ns(t[i] - t[0]) / 1e3,
			    ns(t[i + 1] - t[i] - min));
			listed++;
		}
	if (over > listed)
		say("noise dropped cpu=%d n=%ld", cpu, over - listed);
}

static int worker(int cpu)
{
	uint64_t *t = NULL, *d = NULL, x = 0;
	int rc = 0;

	if (quanta) {
		t = malloc((quanta + 1) * sizeof *t);
		d = malloc(quanta * sizeof *d);
		if (t && d)
			x = measure(t);
		else
			rc = 1;
	}
	wait_for_all();
	if (worker_tsc)
		say("noise worker cpu=%d tsc=%llu", cpu, (unsigned long long)worker_tsc);
	if (rc)
		say("noise: cpu %d: no memory for %ld quanta", cpu, quanta);
	else if (quanta)
		report(cpu, t, d, x);
	free(t);
	free(d);
	return rc;
}

/* --fork: one pinned child per CPU; the parent lets them report once all
 * have measured, then waits. */
static int fork_workers(void)
{
	cpu_set_t all, one;
	int c, n = 0, status, bad = 0, done[2], go[2];
	char byte;
	pid_t pid;

	if (sched_getaffinity(0, sizeof all, &all) != 0 || pipe(done) != 0 || pipe(go) != 0) {
		say("noise: cannot set the workers up: %s", strerror(errno));
		return 1;
	}
	done_fd = done[1];
	go_fd = go[0];
	for (c = 0; c < CPU_SETSIZE; c++) {
		if (!CPU_ISSET(c, &all))
			continue;
		pid = fork();
		if (pid < 0) {
			say("noise: fork: %s", strerror(errno));
			bad = 1;
			break;
		}
		if (pid == 0) {
			worker_tsc = rdtsc();
			close(done[0]);
			close(go[1]);
			CPU_ZERO(&one);
			CPU_SET(c, &one);
			if (sched_setaffinity(0, sizeof one, &one) != 0) {
				say("noise: cannot pin a worker to cpu %d: %s", c, strerror(errno));
				_exit(1);
			}
			_exit(worker(c));
		}
		n++;
	}
	close(done[1]);
	close(go[0]);
	/* A worker that died closed its end too: end of file then. */
	while (n > 0 && read(done[0], &byte, 1) == 1)
		n--;
	close(go[1]);
	close(done[0]);
	while ((pid = wait(&status)) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			bad = 1;
	return bad;
}

static long option(int argc, char **argv, int *i)
{
	char *end;
	long v;

	if (*i + 1 >= argc) {
		say("noise: %s needs a value", argv[*i]);
		exit(2);
	}
	v = strtol(argv[++*i], &end, 0);
	if (*end || v < 0) {
		say("noise: %s: expected a number >= 0, got '%s'", argv[*i - 1], argv[*i]);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	uint64_t start = rdtsc();
	int i, init = 0, forked = 0, rc;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--init"))
			init = forked = 1;
		else if (!strcmp(argv[i], "--fork"))
			forked = 1;
		else if (!strcmp(argv[i], "-q"))
			quanta = option(argc, argv, &i);
		else if (!strcmp(argv[i], "-w"))
			work = option(argc, argv, &i);
		else if (!strcmp(argv[i], "-d"))
			detour_ns = option(argc, argv, &i);
		else if (!strcmp(argv[i], "-m"))
			max_listed = option(argc, argv, &i);
		else {
			say("noise: unknown argument '%s' (see the top of user/bench/noise.c)", argv[i]);
			return 2;
		}
	}
	say("noise start cpu=%d tsc=%llu", my_cpu(), (unsigned long long)start);
	if (quanta) {
		tsc_hz = calibrate();
		say("noise hz tsc_hz=%.0f", tsc_hz);
	}
	rc = forked ? fork_workers() : worker(my_cpu());
	say("noise end cpu=%d tsc=%llu", my_cpu(), (unsigned long long)rdtsc());
	if (init) {
		/* PID 1 must not return; a failed power-off is a kernel panic. */
		reboot(RB_POWER_OFF);
		say("noise: power-off failed: %s", strerror(errno));
		for (;;)
			pause();
	}
	return rc;
}
