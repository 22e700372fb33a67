/*
 * ktest_libc.c - an ordinary static musl program (no libsmap) exercising
 * what the kernel's Linux system calls must get right: arguments and
 * environment, stdio with floats, libm, large mallocs through brk and
 * mmap, a deep stack, time, randomness, TLS and error numbers.
 *
 * usage: ktest_libc all | exit N | abort | spin | sleep
 * (spin and sleep never end: they test a job's time limit)
 * Run as a job with stack=16M, mem=400M, arg alpha, arg "two words" and
 * env KTEST=42.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "tap.h"

static __thread int tls_counter = 7;

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static void test_args(int argc, char **argv)
{
	CHECK("argv[0] is the program's name", !strcmp(argv[0], "ktest_libc"), "'%s'", argv[0]);
	CHECK("arguments arrive in order", argc == 4 && !strcmp(argv[2], "alpha") &&
	      !strcmp(argv[3], "two words"), "argc %d", argc);
	CHECK("the environment arrives", getenv("KTEST") && !strcmp(getenv("KTEST"), "42"),
	      "KTEST=%s", getenv("KTEST") ? getenv("KTEST") : "(unset)");
	CHECK("auxv: page size 4096", getauxval(AT_PAGESZ) == 4096, "%lu", getauxval(AT_PAGESZ));
	CHECK("auxv: AT_RANDOM points at random bytes", getauxval(AT_RANDOM) &&
	      memcmp((void *)getauxval(AT_RANDOM), "\0\0\0\0\0\0\0\0", 8), "missing");
	CHECK("auxv: AT_HWCAP has the CPUID feature bits", getauxval(AT_HWCAP) & (1u << 25),
	      "%#lx (no SSE?)", getauxval(AT_HWCAP));
}

static void test_stdio_libm(void)
{
	char buf[128];
	int *v = malloc(100000 * sizeof(int)), sorted = 1;

	snprintf(buf, sizeof(buf), "%.3f %e %g %.10g", 3.14159265, 1e-10, 2.5, 1.0 / 3);
	CHECK("snprintf formats floats", !strcmp(buf, "3.142 1.000000e-10 2.5 0.3333333333"), "'%s'", buf);
	CHECK("strtod parses", strtod("2.5e3", NULL) == 2500.0 && strtod("-0x1p-2", NULL) == -0.25,
	      "%g", strtod("2.5e3", NULL));
	CHECK("libm: sqrt, exp, log, sin, pow", fabs(sqrt(2.0) * sqrt(2.0) - 2.0) < 1e-15 &&
	      fabs(exp(log(10.0)) - 10.0) < 1e-13 && fabs(sin(M_PI / 6) - 0.5) < 1e-15 &&
	      pow(2.0, 10.0) == 1024.0, "wrong value");
	srand(1);
	for (int i = 0; i < 100000; i++)
		v[i] = rand();
	qsort(v, 100000, sizeof(int), cmp_int);
	for (int i = 1; i < 100000; i++)
		sorted &= v[i - 1] <= v[i];
	CHECK("qsort of 100000 integers", sorted, "not sorted");
	free(v);
	CHECK("TLS: a __thread variable keeps its initial value", tls_counter++ == 7 &&
	      tls_counter == 8, "%d", tls_counter);
}

static void test_malloc(void)
{
	int ok = 1;
	size_t largest = 0;

	for (size_t sz = 1024; sz <= (256u << 20); sz *= 2) {
		unsigned char *p = malloc(sz);

		if (!p) {
			ok = 0;
			break;
		}
		memset(p, 0xA5, sz);
		if (p[0] != 0xA5 || p[sz / 2] != 0xA5 || p[sz - 1] != 0xA5)
			ok = 0;
		free(p);
		largest = sz;
	}
	CHECK("malloc/free of 1 KiB .. 256 MiB", ok && largest == (256u << 20),
	      "largest %zu", largest);
	void *again = malloc(256u << 20);

	CHECK("256 MiB can be allocated again after free", again != NULL, "NULL");
	free(again);

	char *c = calloc(1 << 20, 8);
	int zero = 1;

	for (size_t i = 0; c && i < (8u << 20); i += 4096)
		zero &= c[i] == 0;
	CHECK("calloc memory is zero", c && zero, "not zero");
	free(c);
}

static __attribute__((noinline)) int deep_stack(size_t bytes)
{
	volatile unsigned char big[bytes];

	for (size_t i = 0; i < bytes; i += 4096)
		big[i] = (unsigned char)i;
	big[bytes - 1] = 1;
	return big[0] + big[bytes - 1];
}

static void test_stack(void)
{
	struct rlimit rl;

	CHECK("8 MiB of stack in one frame", deep_stack(8u << 20) == 1, "wrong");
	CHECK("getrlimit(RLIMIT_STACK) reports the job's 16 MiB stack",
	      getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur == (16u << 20),
	      "%lu", (unsigned long)rl.rlim_cur);
}

static double ts(struct timespec t)
{
	return t.tv_sec + t.tv_nsec * 1e-9;
}

/* Benchmark timers (HPL, NPB) read CPU time with getrusage or times. */
static void test_cpu_time(void)
{
	struct rusage ru, kids;
	struct timespec cpu;
	struct tms t;
	clock_t r;
	double u;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
	CHECK("getrusage(RUSAGE_SELF) counts this rank's time as user time",
	      getrusage(RUSAGE_SELF, &ru) == 0 &&
	      (u = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6) >= ts(cpu) - 1e-6 &&
	      u < ts(cpu) + 1.0 && ru.ru_stime.tv_sec == 0 && ru.ru_stime.tv_usec == 0,
	      "utime %ld.%06ld stime %ld.%06ld, cpu %.6f", (long)ru.ru_utime.tv_sec,
	      (long)ru.ru_utime.tv_usec, (long)ru.ru_stime.tv_sec, (long)ru.ru_stime.tv_usec, ts(cpu));
	CHECK("getrusage: the peak resident set is the whole region (400 MiB)",
	      ru.ru_maxrss == 400 * 1024, "%ld KiB", ru.ru_maxrss);
	CHECK("getrusage(RUSAGE_CHILDREN) is zero; a bad who is EINVAL",
	      getrusage(RUSAGE_CHILDREN, &kids) == 0 && kids.ru_utime.tv_sec == 0 &&
	      kids.ru_maxrss == 0 && syscall(SYS_getrusage, 7, &ru) == -1 && errno == EINVAL,
	      "errno %d", errno);
	r = times(&t);
	CHECK("times() gives user ticks and a clock that runs",
	      r != (clock_t)-1 && r > 0 && t.tms_stime == 0 && t.tms_cutime == 0 &&
	      t.tms_utime <= (clock_t)(ts(cpu) * sysconf(_SC_CLK_TCK)) + 100 &&
	      times(NULL) >= r, "r %ld utime %ld", (long)r, (long)t.tms_utime);
}

static void test_time(void)
{
	struct timespec a, b, res, nap = { 0, 20 * 1000 * 1000 };
	struct timeval tv;
	int mono = 1;

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (int i = 0; i < 1000; i++) {
		clock_gettime(CLOCK_MONOTONIC, &b);
		mono &= ts(b) >= ts(a);
		a = b;
	}
	CHECK("CLOCK_MONOTONIC never goes back", mono, "went back");
	clock_gettime(CLOCK_MONOTONIC, &a);
	nanosleep(&nap, NULL);
	clock_gettime(CLOCK_MONOTONIC, &b);
	CHECK("nanosleep(20 ms) sleeps 20 ms .. 2 s", ts(b) - ts(a) >= 0.020 && ts(b) - ts(a) < 2.0,
	      "slept %.6f s", ts(b) - ts(a));
	CHECK("the wall clock is after 2024", time(NULL) > 1704067200, "%ld", (long)time(NULL));
	clock_gettime(CLOCK_REALTIME, &a);
	gettimeofday(&tv, NULL);
	CHECK("gettimeofday agrees with CLOCK_REALTIME", fabs(tv.tv_sec + tv.tv_usec * 1e-6 - ts(a)) < 1.0,
	      "%ld vs %ld", (long)tv.tv_sec, (long)a.tv_sec);
	CHECK("clocks have nanosecond resolution", clock_getres(CLOCK_MONOTONIC, &res) == 0 &&
	      res.tv_sec == 0 && res.tv_nsec == 1, "%ld", res.tv_nsec);
	CHECK("an unknown clock is EINVAL", clock_gettime(99, &a) == -1 && errno == EINVAL,
	      "errno %d", errno);
	CHECK("clock_nanosleep reports a bad clock as EINVAL",
	      clock_nanosleep(99, 0, &nap, NULL) == EINVAL, "wrong error");
	clock_gettime(CLOCK_MONOTONIC, &a);
	b = a;
	b.tv_nsec += 10 * 1000 * 1000;
	if (b.tv_nsec >= 1000000000) {
		b.tv_sec++;
		b.tv_nsec -= 1000000000;
	}
	CHECK("clock_nanosleep to an absolute time returns 0 after it",
	      clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &b, NULL) == 0 &&
	      (clock_gettime(CLOCK_MONOTONIC, &a), ts(a) >= ts(b)), "woke early");
	test_cpu_time();
}

static void test_system(void)
{
	unsigned char r1[32], r2[32];
	struct utsname u;
	struct stat st;
	cpu_set_t set;

	CHECK("getrandom fills the buffer", getrandom(r1, sizeof(r1), 0) == 32 &&
	      getrandom(r2, sizeof(r2), 0) == 32 && memcmp(r1, r2, 32), "same bytes twice");
	CHECK("uname says smapos on x86_64", uname(&u) == 0 && !strcmp(u.sysname, "smapos") &&
	      !strcmp(u.machine, "x86_64"), "%s %s", u.sysname, u.machine);
	CHECK("getpid is positive", getpid() > 0, "%d", getpid());
	CHECK("one CPU in the affinity mask", sched_getaffinity(0, sizeof(set), &set) == 0 &&
	      CPU_COUNT(&set) == 1, "%d", CPU_COUNT(&set));
	CHECK("stdout is a character device but not a terminal", fstat(1, &st) == 0 &&
	      S_ISCHR(st.st_mode) && !isatty(1) && errno == ENOTTY, "mode %o", st.st_mode);
	CHECK("reading stdin gives end of file", read(0, r1, 8) == 0, "not EOF");
	CHECK("an unknown system call is ENOSYS", syscall(999) == -1 && errno == ENOSYS, "errno %d", errno);
	CHECK("write from a bad pointer is EFAULT", write(1, (void *)16, 10) == -1 && errno == EFAULT,
	      "errno %d", errno);
	CHECK("write from kernel memory is EFAULT",
	      write(1, (void *)0xffffffff80100000ul, 10) == -1 && errno == EFAULT, "errno %d", errno);
	CHECK("a bad file descriptor is EBADF", write(7, "x", 1) == -1 && errno == EBADF, "errno %d", errno);
	CHECK("clock_gettime into read-only memory is EFAULT",
	      syscall(SYS_clock_gettime, CLOCK_MONOTONIC, (void *)test_system) == -1 && errno == EFAULT,
	      "errno %d", errno);
}

static void test_mmap(void)
{
	size_t sz = 64u << 20;
	unsigned char *p = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int zero = 1;

	for (size_t i = 0; p != MAP_FAILED && i < sz; i += 4096)
		zero &= p[i] == 0;
	CHECK("anonymous mmap of 64 MiB gives zeroed memory", p != MAP_FAILED && zero, "failed");
	if (p == MAP_FAILED)
		return;
	memset(p, 1, sz);
	CHECK("MAP_FIXED_NOREPLACE over a mapping is EEXIST",
	      mmap(p, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0) ==
	      MAP_FAILED && errno == EEXIST, "errno %d", errno);
	CHECK("munmap succeeds", munmap(p, sz) == 0, "errno %d", errno);
	unsigned char *q = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	CHECK("unmapped memory comes back zeroed", q != MAP_FAILED && q[0] == 0 && q[sz - 1] == 0,
	      "stale data");
	CHECK("file mappings are refused", mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, 0, 0) == MAP_FAILED,
	      "accepted");
	CHECK("an unaligned munmap is EINVAL", munmap(q + 1, 4096) == -1 && errno == EINVAL,
	      "errno %d", errno);
	memset(q, 7, sz);
	unsigned char *r = mremap(q, sz, 2 * sz, MREMAP_MAYMOVE);

	CHECK("mremap grows a mapping, keeping its contents and zeroing the rest",
	      r != MAP_FAILED && r[0] == 7 && r[sz - 1] == 7 && r[sz] == 0 && r[2 * sz - 1] == 0,
	      "errno %d", errno);
	CHECK("mremap shrinks in place", r != MAP_FAILED && mremap(r, 2 * sz, 4096, 0) == r,
	      "errno %d", errno);
	CHECK("mremap without MAYMOVE that cannot grow in place is ENOMEM",
	      mremap(r, 4096, (size_t)1 << 40, 0) == MAP_FAILED && errno == ENOMEM, "errno %d", errno);
	munmap(r, 4096);
	char *big = malloc(1 << 20);
	int keep = 1;

	memset(big, 3, 1 << 20);
	big = realloc(big, 64 << 20);
	for (size_t i = 0; big && i < (1 << 20); i += 4096)
		keep &= big[i] == 3;
	CHECK("realloc of a large block keeps its contents", big && keep, "lost");
	free(big);
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "exit"))
		return atoi(argv[2]);
	if (argc >= 2 && !strcmp(argv[1], "abort"))
		abort();
	if (argc >= 2 && !strcmp(argv[1], "spin"))
		for (;;)
			__asm__ volatile("pause");
	if (argc >= 2 && !strcmp(argv[1], "sleep"))
		for (;;)
			sleep(1);
	test_args(argc, argv);
	test_stdio_libm();
	test_malloc();
	test_stack();
	test_time();
	test_system();
	test_mmap();
	return tap_failed;
}
