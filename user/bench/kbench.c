/*
 * kbench.c - kernel costs as a rank sees them: a null system call, a
 * clock_gettime (a system call on smapos, the vDSO on Linux), and how long
 * after the kernel started the job each rank reached main().  Run it on
 * the kernel (lwkrun -n N) or on Linux (--host) with the same binary.
 *
 * Output: one line per figure, `kbench METRIC VALUE UNIT`, from rank 0.
 */
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <smap.h>
#include <smapos_abi.h>

#define ITERS 100000

static volatile uint64_t main_tsc;

static double per_call_ns(uint64_t ticks, unsigned n)
{
	return (double)ticks * 1e9 / (double)smap_tsc_hz() / n;
}

static uint64_t best_of(int reps, uint64_t (*loop)(void))
{
	uint64_t best = UINT64_MAX;

	for (int r = 0; r < reps; r++) {
		uint64_t t = loop();

		if (t < best)
			best = t;
	}
	return best;
}

static uint64_t null_syscalls(void)
{
	uint64_t t0 = smap_rdtsc();

	for (int i = 0; i < ITERS; i++)
		syscall(SYS_getppid);
	return smap_rdtsc() - t0;
}

static uint64_t clock_calls(void)
{
	struct timespec ts;
	uint64_t t0 = smap_rdtsc();

	for (int i = 0; i < ITERS; i++)
		clock_gettime(CLOCK_MONOTONIC, &ts);
	return smap_rdtsc() - t0;
}

int main(void)
{
	main_tsc = smap_rdtsc();

	const struct smapos_jobinfo *ji = smap_jobinfo();
	int me = smap_rank(), n = smap_size();

	smap_barrier();
	if (me == 0) {
		uint64_t latest = 0;

		for (int r = 0; r < n; r++) {
			uint64_t t = *(volatile uint64_t *)remote_address(r, &main_tsc);

			if (t > latest)
				latest = t;
		}
		printf("kbench platform %s -\n", smap_is_host() ? "linux" : "smapos");
		printf("kbench ranks %d -\n", n);
		if (!smap_is_host())
			printf("kbench launch_to_main_all_ranks %.1f us\n",
			       per_call_ns(latest - ji->job_start_tsc, 1) / 1000);
		printf("kbench null_syscall %.1f ns\n", per_call_ns(best_of(5, null_syscalls), ITERS));
		printf("kbench clock_gettime %.1f ns\n", per_call_ns(best_of(5, clock_calls), ITERS));
	}
	smap_barrier();
	return 0;
}
