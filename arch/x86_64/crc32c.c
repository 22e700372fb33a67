/*
 * crc32c.c - CRC-32C with SSE4.2's crc32 instruction, three streams at a
 * time: one stream is bound by the instruction's 3-cycle latency (8 bytes
 * every 3 cycles); three independent blocks keep it busy every cycle, and
 * kernel/lib/crc32c.c's crc32c_shift joins their registers.  Only where
 * the CPU has SSE4.2 (arch_has_crc32c).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "crc32c.h"

__attribute__((target("sse4.2"))) uint32_t crc32c_hw(uint32_t crc, const void *p, size_t n)
{
	const uint8_t *b = p;
	uint64_t c = (uint32_t)~crc;

	if (n >= 3 * CRC32C_BLOCK)
		crc32c_init();
	for (; n >= 3 * CRC32C_BLOCK; b += 3 * CRC32C_BLOCK, n -= 3 * CRC32C_BLOCK) {
		uint64_t c1 = 0, c2 = 0;

		for (size_t i = 0; i < CRC32C_BLOCK; i += 8) {
			uint64_t v0, v1, v2;

			memcpy(&v0, b + i, 8);
			memcpy(&v1, b + CRC32C_BLOCK + i, 8);
			memcpy(&v2, b + 2 * CRC32C_BLOCK + i, 8);
			c = __builtin_ia32_crc32di(c, v0);
			c1 = __builtin_ia32_crc32di(c1, v1);
			c2 = __builtin_ia32_crc32di(c2, v2);
		}
		c = crc32c_shift(crc32c_shift((uint32_t)c) ^ (uint32_t)c1) ^ (uint32_t)c2;
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
