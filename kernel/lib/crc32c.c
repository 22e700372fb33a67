/*
 * crc32c.c - CRC-32C (Castagnoli), the network frames' integrity check,
 * for the kernel and for libsmap (which compiles this file too).
 *
 * crc32c_sw is a byte-at-a-time table: any x86-64.  crc32c_hw uses SSE4.2's
 * crc32 instruction three streams at a time: one stream is bound by the
 * instruction's 3-cycle latency (~8 bytes in 3 cycles); three independent
 * 4 KiB streams keep it busy every cycle, and their registers are joined by
 * shifting one over the zero bytes of the next (crc_shift, a linear map
 * kept as four byte tables).  Both compute the standard CRC-32C: init and
 * final inversion, reflected polynomial 0x82F63B78.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "crc32c.h"

#define POLY	0x82f63b78u
#define BLOCK	4096u

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
		basis[i] = crc_zeros(1u << i, BLOCK);
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

static inline uint32_t crc_shift(uint32_t c)
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

__attribute__((target("sse4.2"))) uint32_t crc32c_hw(uint32_t crc, const void *p, size_t n)
{
	const uint8_t *b = p;
	uint64_t c = (uint32_t)~crc;

	if (n >= 3 * BLOCK)
		crc32c_init();
	for (; n >= 3 * BLOCK; b += 3 * BLOCK, n -= 3 * BLOCK) {
		uint64_t c1 = 0, c2 = 0;

		for (size_t i = 0; i < BLOCK; i += 8) {
			uint64_t v0, v1, v2;

			memcpy(&v0, b + i, 8);
			memcpy(&v1, b + BLOCK + i, 8);
			memcpy(&v2, b + 2 * BLOCK + i, 8);
			c = __builtin_ia32_crc32di(c, v0);
			c1 = __builtin_ia32_crc32di(c1, v1);
			c2 = __builtin_ia32_crc32di(c2, v2);
		}
		c = crc_shift(crc_shift((uint32_t)c) ^ (uint32_t)c1) ^ (uint32_t)c2;
	}
	for (; n >= 8; n -= 8, b += 8) {
		uint64_t v;

		memcpy(&v, b, 8);
		c = __builtin_ia32_crc32di(c, v);
	}
	for (; n; n--)
		c = __builtin_ia32_crc32qi((uint32_t)c, *b++);
	return ~(uint32_t)c;
}
