/* copy_piece.h - one piece of a strided copy (the network engine's rows,
 * libsmap's datatype loops).  Pieces are often one element (a matrix
 * column) or a few bytes (a vector of chars): a memcpy call per piece
 * costs more than the copy (~20 ns a 2-byte piece, musl's rep movsq), so
 * pieces up to 16 bytes are two overlapping moves, loaded before stored. */
#ifndef SMAPOS_COPY_PIECE_H
#define SMAPOS_COPY_PIECE_H

#include <stdint.h>
#include <string.h>

static inline void copy_piece(void *to, const void *from, uint64_t k)
{
	char *d = to;
	const char *s = from;

	if (k >= 8 && k <= 16) {
		uint64_t a, b;

		memcpy(&a, s, 8);
		memcpy(&b, s + k - 8, 8);
		memcpy(d, &a, 8);
		memcpy(d + k - 8, &b, 8);
	} else if (k >= 4 && k < 8) {
		uint32_t a, b;

		memcpy(&a, s, 4);
		memcpy(&b, s + k - 4, 4);
		memcpy(d, &a, 4);
		memcpy(d + k - 4, &b, 4);
	} else if (k >= 2 && k < 4) {
		uint16_t a, b;

		memcpy(&a, s, 2);
		memcpy(&b, s + k - 2, 2);
		memcpy(d, &a, 2);
		memcpy(d + k - 2, &b, 2);
	} else if (k == 1) {
		*d = *s;
	} else {
		memcpy(to, from, k);
	}
}

#endif
