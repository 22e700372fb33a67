/* test_urange.c - the overflow-safe range checks every system call uses. */
#include <stdint.h>
#include "unit.h"
#include "urange.h"

int main(void)
{
	const uint64_t lo = 0x400000, hi = 0x40000000;

	CHECK("a range inside is within", range_within(0x500000, 0x1000, lo, hi), "refused");
	CHECK("a range ending exactly at the top is within", range_within(hi - 0x1000, 0x1000, lo, hi),
	      "refused");
	CHECK("an empty range at the top is within", range_within(hi, 0, lo, hi), "refused");
	CHECK("a range one byte past the top is not", !range_within(hi - 0x1000, 0x1001, lo, hi),
	      "accepted");
	CHECK("a range below the bottom is not", !range_within(lo - 1, 2, lo, hi), "accepted");
	CHECK("a base just below 2^64 whose end wraps is not",
	      !range_within(0xFFFFFFFFFFFFF000ull, 0x2000, lo, hi), "accepted");
	CHECK("a length that wraps from a valid base is not",
	      !range_within(0x500000, 0xFFFFFFFFFFB01000ull, lo, hi), "accepted");
	CHECK("a length of 2^64-1 is not", !range_within(lo, UINT64_MAX, lo, hi), "accepted");
	CHECK("an inverted window holds nothing", !range_within(0x500000, 0, hi, lo), "accepted");
	CHECK("[2^64-8192, 2^64-4096) is below the exclusive bound 2^64-1",
	      range_within(0xFFFFFFFFFFFFE000ull, 0x1000, 0, UINT64_MAX), "refused");
	CHECK("[2^64-4096, 2^64) is not (its end is not representable)",
	      !range_within(0xFFFFFFFFFFFFF000ull, 0x1000, 0, UINT64_MAX), "accepted");
	CHECK("rounding 2^64-1 up to pages is 0 (too large)",
	      round_up_or_zero(UINT64_MAX, 4096) == 0, "got %#lx",
	      (unsigned long)round_up_or_zero(UINT64_MAX, 4096));
	CHECK("rounding 4097 up to pages is 8192", round_up_or_zero(4097, 4096) == 8192, "got %#lx",
	      (unsigned long)round_up_or_zero(4097, 4096));
	return unit_failed;
}
