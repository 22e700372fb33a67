/* copy_piece.h - one piece of a strided copy (the network engine's rows,
 * libsmap's datatype loops).  Pieces are often one element (a matrix
 * column) or a few bytes (a vector of chars): a memcpy call per piece
 * costs more than the copy (~20 ns a 2-byte piece, musl's rep movsq), so
 * pieces up to 16 bytes are two overlapping moves, loaded before stored. */
#ifndef SMAPOS_COPY_PIECE_H
#define SMAPOS_COPY_PIECE_H

#include <stdint.h>
#include <string.h>

/* The first and the last sizeof(T) bytes of a k-byte piece, T <= k <= 2T. */
#define COPY_PIECE_ENDS(T, d, s, k) do { \
	T a_, b_; \
	memcpy(&a_, (s), sizeof a_); \
	memcpy(&b_, (s) + (k) - sizeof b_, sizeof b_); \
	memcpy((d), &a_, sizeof a_); \
	memcpy((d) + (k) - sizeof b_, &b_, sizeof b_); \
} while (0)

static inline void copy_piece(void *to, const void *from, uint64_t k)
{
	char *d = to;
	const char *s = from;

	if (k > 16)
		memcpy(to, from, k);
	else if (k >= 8)
		COPY_PIECE_ENDS(uint64_t, d, s, k);
	else if (k >= 4)
		COPY_PIECE_ENDS(uint32_t, d, s, k);
	else if (k >= 2)
		COPY_PIECE_ENDS(uint16_t, d, s, k);
	else if (k)
		*d = *s;
}

#endif
