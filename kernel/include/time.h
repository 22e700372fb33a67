/* time.h - the TSC is the clock: invariant on every CPU this kernel
 * targets, readable from user space, calibrated once at boot. */
#ifndef TIME_H
#define TIME_H

#include <stdint.h>
#include <arch/cpu.h>

extern uint64_t tsc_hz;
/* TSC at kernel entry: boot time figures are measured from here. */
extern uint64_t tsc_boot;

void time_init(void);

/* Split at whole seconds so that the products fit in 64 bits for any
 * TSC below 18 GHz (and no 128-bit division, which needs libgcc). */
static inline uint64_t tsc_to_ns(uint64_t ticks)
{
	return ticks / tsc_hz * 1000000000u + ticks % tsc_hz * 1000000000u / tsc_hz;
}

static inline uint64_t ns_to_tsc(uint64_t ns)
{
	return ns / 1000000000u * tsc_hz + ns % 1000000000u * tsc_hz / 1000000000u;
}

/* Nanoseconds since the TSC was reset (the machine powered on). */
static inline uint64_t time_ns(void)
{
	return tsc_to_ns(rdtsc());
}

void udelay(uint64_t us);

#endif
