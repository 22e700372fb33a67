/*
 * random.c - random bytes from the CPU's generator (RDSEED/RDRAND).  On a
 * CPU without one, a splitmix64 stream seeded from TSC jitter: unpredictable
 * enough for AT_RANDOM's stack canaries, not for cryptography; the boot log
 * says which source is in use.
 */
#include <string.h>
#include <arch/arch.h>
#include <arch/cpu.h>
#include "random.h"

static uint64_t mix_state;

static uint64_t splitmix(void)
{
	uint64_t z = __atomic_add_fetch(&mix_state, 0x9E3779B97F4A7C15ull ^ rdtsc(), __ATOMIC_RELAXED);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static uint64_t next64(void)
{
	int ok;
	uint64_t v = arch_random(&ok);

	return ok ? v : splitmix();
}

void random_bytes(void *buf, size_t n)
{
	uint8_t *b = buf;

	while (n) {
		uint64_t v = next64();
		size_t k = n < 8 ? n : 8;

		memcpy(b, &v, k);
		b += k;
		n -= k;
	}
}

const char *random_source(void)
{
	int ok;

	arch_random(&ok);
	return ok ? "CPU generator (RDSEED/RDRAND)" : "TSC jitter (not cryptographic)";
}
