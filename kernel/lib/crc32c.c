/*
 * crc32c.c - CRC-32C (Castagnoli), the network frames' integrity check,
 * for the kernel and for libsmap (which compiles this file too).
 *
 * crc32c_sw is a byte-at-a-time table, for any CPU.  A CPU's own CRC
 * instruction (arch/x86_64/crc32c.c: crc32c_hw) works on several blocks at
 * once and joins their registers with crc32c_shift: a register carried
 * over CRC32C_BLOCK zero bytes, a linear map kept as four byte tables.
 * Both compute the standard CRC-32C: init and final inversion, reflected
 * polynomial 0x82F63B78.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "crc32c.h"

#define POLY	0x82f63b78u

static uint32_t crc_table[256];
static uint32_t shift_table[4][256];
static int tables_ready;

/* The raw register after n zero bytes. */
static uint32_t crc_zeros(uint32_t c, size_t n)
{
	while (n--)
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (POLY & -(c & 1));
	return c;
}

void crc32c_init(void)
{
	uint32_t basis[32];

	if (tables_ready)
		return;
	for (unsigned b = 0; b < 256; b++)
		crc_table[b] = crc_zeros(b, 1);
	for (unsigned i = 0; i < 32; i++)
		basis[i] = crc_zeros(1u << i, CRC32C_BLOCK);
	for (unsigned k = 0; k < 4; k++)
		for (unsigned b = 0; b < 256; b++) {
			uint32_t v = 0;

			for (unsigned i = 0; i < 8; i++)
				if (b >> i & 1)
					v ^= basis[8 * k + i];
			shift_table[k][b] = v;
		}
	tables_ready = 1;
}

uint32_t crc32c_shift(uint32_t c)
{
	return shift_table[0][c & 0xff] ^ shift_table[1][(c >> 8) & 0xff] ^
	       shift_table[2][(c >> 16) & 0xff] ^ shift_table[3][c >> 24];
}

uint32_t crc32c_sw(uint32_t crc, const void *p, size_t n)
{
	const uint8_t *b = p;
	uint32_t c = ~crc;

	crc32c_init();
	while (n--)
		c = (c >> 8) ^ crc_table[(c ^ *b++) & 0xff];
	return ~c;
}
