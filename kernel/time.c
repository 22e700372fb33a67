/* time.c - TSC calibration at boot and busy delays. */
#include <arch/arch.h>
#include "param.h"
#include "printk.h"
#include "time.h"

uint64_t tsc_hz;
uint64_t tsc_boot;

static uint64_t tsc_hz_param;
KPARAM(tsc_hz, PARAM_UINT, &tsc_hz_param, "TSC rate in Hz; skips calibration (for firmware that lies)");

void time_init(void)
{
	if (tsc_hz_param) {
		tsc_hz = tsc_hz_param;
		pr_info("time: TSC %lu.%03lu MHz (from the command line)\n", tsc_hz / 1000000,
			tsc_hz / 1000 % 1000);
		return;
	}
	tsc_hz = tsc_calibrate();
	if (!tsc_hz)
		panic("time: could not calibrate the TSC (no CPUID leaf, HPET, ACPI PM timer or PIT); "
		      "boot with tsc_hz=");
	pr_info("time: TSC %lu.%03lu MHz (%s)\n", tsc_hz / 1000000, tsc_hz / 1000 % 1000,
		tsc_method());
}

void udelay(uint64_t us)
{
	uint64_t end;

	if (!tsc_hz) {
		/* before calibration: assume no faster than 4 GHz */
		end = rdtsc() + us * 4000;
	} else {
		end = rdtsc() + us * tsc_hz / 1000000;
	}
	while (rdtsc() < end)
		cpu_relax();
}
