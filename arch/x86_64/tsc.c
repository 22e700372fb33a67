/*
 * tsc.c - measure the TSC rate.  In order of trust: CPUID leaf 0x15
 * (crystal ratio, exact when the crystal is given), the hypervisor timing
 * leaf, the HPET (femtosecond period in its own register), the ACPI PM
 * timer, then the PIT.  The last three count real time (the HPET over
 * 5 ms, the others over 10 ms).  Real
 * nodes may lack any of the timers: each is checked before it is trusted,
 * so an absent one costs a few reads, not a bogus rate or a hang.
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
		/* Ratio without the crystal: these parts run the TSC at the
		 * nominal frequency, which leaf 0x16 gives in MHz. */
		if (a && b && max >= 0x16) {
			cpuid(0x16, 0, &a, &b, &c, &d);
			if (a & 0xFFFF) {
				method = "CPUID 0x16";
				return (uint64_t)(a & 0xFFFF) * 1000000;
			}
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

/* Read a counter and the TSC at the same moment: the TSC read midway
 * between two that bracket the counter read, from the tightest of a few
 * tries, so an interruption (or, under an emulator, the vCPU being
 * descheduled) between the two reads does not skew the calibration. */
static void sample(uint64_t (*read)(const volatile void *), const volatile void *dev,
		   uint64_t *count, uint64_t *tsc)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 8; i++) {
		uint64_t a = rdtsc(), c = read(dev), b = rdtsc();

		if (b - a < best) {
			best = b - a;
			*count = c;
			*tsc = a + (b - a) / 2;
		}
	}
}

static uint64_t hpet_read(const volatile void *dev)
{
	return ((const volatile uint64_t *)dev)[0xF0 / 8];
}

static uint64_t from_hpet(void)
{
	volatile uint64_t *h;
	uint64_t period_fs, c0 = 0, c1 = 0, t0 = 0, t1 = 0, want;

	if (!acpi.hpet_addr)
		return 0;
	h = paging_map_phys(acpi.hpet_addr, 1024, CACHE_UC);
	if (!h)
		return 0;
	period_fs = h[0] >> 32;		/* capabilities: counter period */
	if (!period_fs || period_fs > 100000000)
		return 0;
	h[0x10 / 8] |= 1;		/* enable the main counter */
	/* 5 ms: the HPET counts at >= 10 MHz, so that is under 20 ppm */
	want = 5000000000000ull / period_fs;
	sample(hpet_read, h, &c0, &t0);
	do {
		c1 = hpet_read(h);
	} while (c1 - c0 < want);
	sample(hpet_read, h, &c1, &t1);
	if (c1 == c0)
		return 0;
	method = "HPET";
	return (t1 - t0) * 1000000000ull / ((c1 - c0) * period_fs / 1000000);
}

/* TSC ticks after which a timer that has not moved is taken as absent:
 * over 10 ms even at 10 GHz. */
#define GIVE_UP_TICKS	100000000ull

/* The PM timer is an I/O port or, on some machines, memory (dev). */
static uint64_t pm_timer_read(const volatile void *dev)
{
	return dev ? *(const volatile uint32_t *)dev : inl((uint16_t)acpi.pm_timer.addr);
}

static uint64_t from_pm_timer(void)
{
	const uint64_t pm_hz = 3579545;
	uint64_t mask = acpi.pm_timer_32bit ? 0xFFFFFFFFu : 0xFFFFFFu, c0 = 0, c1 = 0, t0 = 0, t1 = 0;
	volatile uint32_t *mmio = NULL;

	if (!acpi.pm_timer.addr || acpi.pm_timer.space > 1)
		return 0;
	if (acpi.pm_timer.space == 0) {
		mmio = paging_map_phys(acpi.pm_timer.addr, 4, CACHE_UC);
		if (!mmio)
			return 0;
	}
	sample(pm_timer_read, mmio, &c0, &t0);
	while (((pm_timer_read(mmio) - c0) & mask) < pm_hz / 100) {
		if (pm_timer_read(mmio) == c0 && rdtsc() - t0 > GIVE_UP_TICKS)
			return 0;	/* not counting: no PM timer here */
	}
	sample(pm_timer_read, mmio, &c1, &t1);
	method = "ACPI PM timer";
	return (t1 - t0) * pm_hz / ((c1 - c0) & mask);
}

static uint64_t from_pit(void)
{
	/* Channel 2, gate through port 0x61, mode 0 count down from 11932
	 * (10 ms at 1.193182 MHz); the output bit goes high at zero. */
	const uint16_t count = 11932;
	uint64_t t0, t1;
	uint16_t now;

	outb(0x61, (inb(0x61) & ~0x02) | 0x01);
	outb(0x43, 0xB0);
	outb(0x42, count & 0xFF);
	outb(0x42, count >> 8);
	t0 = rdtsc();
	/* A latched count above the start value is the floating bus: no PIT. */
	outb(0x43, 0x80);
	now = inb(0x42);
	now |= (uint16_t)inb(0x42) << 8;
	if (now > count)
		return 0;
	while (!(inb(0x61) & 0x20)) {
		if (rdtsc() - t0 > GIVE_UP_TICKS)
			return 0;
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
	if (!hz)
		hz = from_pm_timer();
	if (!hz && !acpi.hw_reduced)
		hz = from_pit();
	return hz;
}
