/* crc32c.h - CRC-32C of the network frames (kernel/lib/crc32c.c). */
#ifndef SMAPOS_CRC32C_H
#define SMAPOS_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/* Tables, once; the functions below call it themselves when needed, but a
 * caller that must not take the time later calls it first. */
void crc32c_init(void);
/* crc: the CRC of what came before (0 to start). */
uint32_t crc32c_sw(uint32_t crc, const void *p, size_t n);
/* A raw CRC register carried over CRC32C_BLOCK zero bytes. */
#define CRC32C_BLOCK	4096u
uint32_t crc32c_shift(uint32_t c);
/* The same as crc32c_sw with the CPU's CRC instruction (arch/x86_64:
 * SSE4.2), only where arch_has_crc32c() says so; libsmap always. */
uint32_t crc32c_hw(uint32_t crc, const void *p, size_t n);

#endif
