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

#endif
