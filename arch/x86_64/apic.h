/* apic.h - vectors and the INIT/SIPI calls smp.c needs (arch-internal). */
#ifndef APIC_INTERNAL_H
#define APIC_INTERNAL_H

#include <stdint.h>

#define VEC_TIMER	0xEF
#define VEC_IPI_WAKE	0xF0
#define VEC_IPI_KILL	0xF1
#define VEC_SPURIOUS	0xFF

void apic_send_init(uint32_t apic_id);
void apic_send_sipi(uint32_t apic_id, uint8_t page);
/* apic_reachable() in the mode the boot CPU chose. */
int apic_can_reach(uint32_t apic_id);

/*
 * The local APIC mode: x2APIC whenever the CPU has it (firmware may have
 * left it on, and only x2APIC addresses APIC ids above 254), else xAPIC.
 * Pure decisions, unit-tested on the host (tests/unit/apic_mode_test.c).
 */
enum apic_mode { APIC_XAPIC, APIC_X2APIC };

static inline enum apic_mode apic_choose_mode(int cpuid_x2apic, int x2apic_enabled)
{
	return cpuid_x2apic || x2apic_enabled ? APIC_X2APIC : APIC_XAPIC;
}

/* Whether an IPI can reach APIC id `id`: xAPIC destinations are 8 bits,
 * and 0xFF is the broadcast address. */
static inline int apic_reachable(enum apic_mode mode, uint32_t id)
{
	return mode == APIC_X2APIC ? id != 0xFFFFFFFFu : id < 0xFF;
}

#endif
