/* copy_piece.h - one piece of a strided copy (the network engine's rows,
 * libsmap's datatype loops).  Pieces are often one element (a matrix
 * column): a memcpy call per piece would cost more than the copy, so the
 * usual element sizes are copied inline. */
#ifndef SMAPOS_COPY_PIECE_H
#define SMAPOS_COPY_PIECE_H

#include <stdint.h>
#include <string.h>

static inline void copy_piece(void *to, const void *from, uint64_t k)
{
	switch (k) {
	case 4: memcpy(to, from, 4); break;
	case 8: memcpy(to, from, 8); break;
	case 16: memcpy(to, from, 16); break;
	default: memcpy(to, from, k);
	}
}

#endif
