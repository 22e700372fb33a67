/* random.c - RDSEED, else RDRAND, each retried as Intel recommends. */
#include <arch/arch.h>
#include <arch/cpu.h>

uint64_t arch_random(int *ok)
{
	uint32_t a, b, c, d;
	uint64_t v;
	unsigned char good;

	cpuid(7, 0, &a, &b, &c, &d);
	if (b & (1u << 18)) {
		for (int i = 0; i < 64; i++) {
			__asm__ volatile("rdseed %0; setc %1" : "=r"(v), "=qm"(good));
			if (good) {
				*ok = 1;
				return v;
			}
		}
	}
	cpuid(1, 0, &a, &b, &c, &d);
	if (c & (1u << 30)) {
		for (int i = 0; i < 10; i++) {
			__asm__ volatile("rdrand %0; setc %1" : "=r"(v), "=qm"(good));
			if (good) {
				*ok = 1;
				return v;
			}
		}
	}
	*ok = 0;
	return 0;
}
