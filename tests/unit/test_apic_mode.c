/* test_apic_mode.c - the local APIC mode and which CPUs an IPI can reach
 * (arch/x86_64/apic.h).  QEMU 7.2's TCG cannot offer x2APIC, so this is
 * where x2APIC and APIC ids above 254 are checked (docs/hardware.md). */
#include <stdint.h>
#include "apic.h"
#include "unit.h"

int main(void)
{
	CHECK("xAPIC when the CPU has no x2APIC", apic_choose_mode(0, 0) == APIC_XAPIC,
	      "chose x2APIC");
	CHECK("x2APIC whenever the CPU has it", apic_choose_mode(1, 0) == APIC_X2APIC,
	      "chose xAPIC");
	CHECK("x2APIC when the firmware left it on", apic_choose_mode(1, 1) == APIC_X2APIC &&
	      apic_choose_mode(0, 1) == APIC_X2APIC, "chose xAPIC");
	CHECK("xAPIC reaches APIC ids 0..254", apic_reachable(APIC_XAPIC, 0) &&
	      apic_reachable(APIC_XAPIC, 254), "refused");
	CHECK("xAPIC cannot address 255 (its broadcast) nor anything above",
	      !apic_reachable(APIC_XAPIC, 255) && !apic_reachable(APIC_XAPIC, 256) &&
	      !apic_reachable(APIC_XAPIC, 4096), "accepted");
	CHECK("x2APIC reaches ids above 255", apic_reachable(APIC_X2APIC, 255) &&
	      apic_reachable(APIC_X2APIC, 256) && apic_reachable(APIC_X2APIC, 0xFFFFFFFE),
	      "refused");
	CHECK("x2APIC's broadcast id is no CPU", !apic_reachable(APIC_X2APIC, 0xFFFFFFFF),
	      "accepted");
	return unit_failed;
}
