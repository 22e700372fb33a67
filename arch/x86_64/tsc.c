/*
 * tsc.c - measure the TSC rate.  In order of trust: CPUID leaf 0x15
 * (crystal ratio, exact when the crystal is given), the hypervisor timing
 * leaf, the HPET (femtosecond period in its own register), then the PIT.
 * The last two count real time over a short window, 10 ms.
 */
#include <arch/arch.h>
#include <arch/cpu.h>
#include <arch/io.h>
#include <arch/paging.h>
#include "acpi.h"

static const char *method = "none";

const char *tsc_method(void)
{
	return method;
}

static uint64_t from_cpuid(void)
{
	uint32_t a, b, c, d, max;

	cpuid(0, 0, &max, &b, &c, &d);
	if (max >= 0x15) {
		cpuid(0x15, 0, &a, &b, &c, &d);
		if (a && b && c) {
			method = "CPUID 0x15";
			return (uint64_t)c * b / a;
		}
	}
	/* KVM/VMware timing leaf: TSC kHz, exact when the hypervisor offers it */
	cpuid(1, 0, &a, &b, &c, &d);
	if (c & (1u << 31)) {
		cpuid(0x40000000, 0, &max, &b, &c, &d);
		if (max >= 0x40000010) {
			cpuid(0x40000010, 0, &a, &b, &c, &d);
			if (a) {
				method = "hypervisor leaf";
				return (uint64_t)a * 1000;
			}
		}
	}
	return 0;
}

static uint64_t from_hpet(void)
{
	volatile uint64_t *h;
	uint64_t period_fs, c0, c1, t0, t1, want;

	if (!acpi.hpet_addr)
		return 0;
	h = paging_map_phys(acpi.hpet_addr, 1024, CACHE_UC);
	if (!h)
		return 0;
	period_fs = h[0] >> 32;		/* capabilities: counter period */
	if (!period_fs || period_fs > 100000000)
		return 0;
	h[0x10 / 8] |= 1;		/* enable the main counter */
	want = 10000000000000ull / period_fs;	/* 10 ms of HPET ticks */
	c0 = h[0xF0 / 8];
	t0 = rdtsc();
	do {
		c1 = h[0xF0 / 8];
	} while (c1 - c0 < want);
	t1 = rdtsc();
	if (c1 == c0)
		return 0;
	method = "HPET";
	return (t1 - t0) * 1000000000ull / ((c1 - c0) * period_fs / 1000000);
}

static uint64_t from_pit(void)
{
	/* Channel 2, gate through port 0x61, mode 0 count down from 11932
	 * (10 ms at 1.193182 MHz); the output bit goes high at zero. */
	const uint16_t count = 11932;
	uint64_t t0, t1;
	uint32_t spins = 0;

	outb(0x61, (inb(0x61) & ~0x02) | 0x01);
	outb(0x43, 0xB0);
	outb(0x42, count & 0xFF);
	outb(0x42, count >> 8);
	t0 = rdtsc();
	while (!(inb(0x61) & 0x20)) {
		if (++spins > 100000000)
			return 0;	/* no PIT answering */
	}
	t1 = rdtsc();
	method = "PIT";
	return (t1 - t0) * 1193182ull / count;
}

uint64_t tsc_calibrate(void)
{
	uint64_t hz = from_cpuid();

	if (!hz)
		hz = from_hpet();
	if (!hz && !acpi.hw_reduced)
		hz = from_pit();
	return hz;
}
