/*
 * ktest_fuzz.c - random system calls with random arguments: numbers across
 * the Linux range and the LWK calls, arguments drawn from NULL, small
 * integers, addresses in our own memory, kernel addresses, non-canonical
 * and SMARTMAP addresses.  The kernel must answer every one with a result
 * or an errno and stay up; the calls that would end or stall the rank on
 * purpose (exit, kill, abort, sleeps) and the one that would break our own
 * TLS (arch_prctl SET_FS) are left out.
 *
 * Pointers into our own memory point into a scratch mapping made first,
 * which the kernel places just below the stack guard page: a random length
 * running past it meets the guard and gets EFAULT instead of overwriting
 * our own data (stdio's state, the generator) with random bytes.
 *
 * usage: ktest_fuzz COUNT SEED
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

static uint64_t state;

static uint64_t rnd(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

#define SCRATCH_SIZE (16u << 20)

static char *scratch;

static uint64_t arg(void)
{
	static const uint64_t specials[] = {
		0, 1, 2, 3, 0xFFFFFFFFFFFFFFFFul, 0x7FFFFFFFFFFFFFFFul, 0x8000000000000000ul,
		0xFFFFFFFF80100000ul, 0xFFFFFF8000000000ul, 0x0000800000000000ul,
		0x00007FFFFFFFF000ul, 0x400000ul, 4096, 65536, 0x1000000000ul,
	};

	switch (rnd() % 5) {
	case 0:
		return specials[rnd() % (sizeof(specials) / sizeof(specials[0]))];
	case 1:
		return rnd() % 4096;
	case 2:
		return (uint64_t)(uintptr_t)(scratch + rnd() % SCRATCH_SIZE);
	case 3:
		return (uint64_t)(uintptr_t)(scratch + rnd() % SCRATCH_SIZE) | ((rnd() % 4) << 39);
	default:
		return rnd();
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

static int excluded(long nr, uint64_t a0)
{
	switch (nr) {
	case 1: case 20:		/* write, writev: would print garbage */
	case 35: case 230:		/* nanosleep, clock_nanosleep: could sleep for years */
	case 202:			/* futex wait: blocks forever by design */
	case 34:			/* pause: ends the job as a deadlock */
	case 15:			/* rt_sigreturn: would load random registers */
	case 60: case 231:		/* exit, exit_group */
	case 62: case 200: case 234:	/* kill, tkill, tgkill */
	case 1025:			/* hwbarrier: waits for other nodes */
	case 1026:			/* job_abort */
		return 1;
	case 158:			/* arch_prctl: keep our TLS */
		return a0 == 0x1002;
	}
	return 0;
}

int main(int argc, char **argv)
{
	long count = argc > 1 ? atol(argv[1]) : 10000;
	long done = 0, errors = 0;

	scratch = mmap(NULL, SCRATCH_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (scratch == MAP_FAILED) {
		perror("ktest_fuzz: mmap");
		return 1;
	}
	state = argc > 2 ? strtoull(argv[2], NULL, 0) : 88172645463325252ull;
	if (!state)
		state = 1;
	while (done < count) {
		long nr = rnd() % 8 ? (long)(rnd() % 460) : 1024 + (long)(rnd() % 8);
		uint64_t a[6];

		for (int i = 0; i < 6; i++)
			a[i] = arg();
		if (excluded(nr, a[0]))
			continue;
		if (raw_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]) < 0)
			errors++;
		done++;
	}
	printf("ok fuzz: %ld random system calls (%ld errors returned), kernel alive\n", done, errors);
	return 0;
}
