/*
 * urange.h - range arithmetic that cannot overflow.  Every bound check on
 * an (address, length) pair a system call receives goes through here:
 * `addr + len` may wrap past 2^64, so it is never computed before the
 * check.  Pure logic: unit-tested on the host.
 */
#ifndef URANGE_H
#define URANGE_H

#include <stdint.h>

/* 1 if [addr, addr + len) lies inside [lo, hi) (an empty range at hi
 * included), without ever computing addr + len. */
static inline int range_within(uint64_t addr, uint64_t len, uint64_t lo, uint64_t hi)
{
	return lo <= hi && addr >= lo && addr <= hi && len <= hi - addr;
}

/* v rounded up to a multiple of the power of two `align`; 0 when that
 * wraps (callers treat 0 as "too large"). */
static inline uint64_t round_up_or_zero(uint64_t v, uint64_t align)
{
	uint64_t r = (v + align - 1) & ~(align - 1);

	return r < v ? 0 : r;
}

#endif
