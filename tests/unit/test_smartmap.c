/* test_smartmap.c - libsmap's remote_address() against the kernel's
 * reading of the same addresses, for every rank a node can hold: slots
 * 256..510 sit in the upper canonical half. */
#include <stdint.h>
#include "smap.h"
#include "unit.h"
#include <arch/memlayout.h>

int main(void)
{
	/* A slot-0 address, as every rank's own memory is (this test program
	 * itself lives elsewhere, so &x would not do). */
	void *p = (void *)0x40a128ul;
	int all_ok = 1;

	CHECK("rank 0 is slot 1: Catamount's p | 1 << 39",
	      remote_address(0, p) == (void *)((uintptr_t)p | (1ul << 39)), "%p", remote_address(0, p));
	CHECK("rank 254 (slot 255) is the last lower-half slot, unchanged from Catamount",
	      remote_address(254, p) == (void *)((uintptr_t)p | (255ul << 39)), "%p",
	      remote_address(254, p));
	CHECK("rank 255 (slot 256) is sign-extended into the upper half",
	      (uintptr_t)remote_address(255, p) == (0xFFFF800000000000ul | (uintptr_t)p), "%p",
	      remote_address(255, p));
	for (unsigned r = 0; r < SMAP_MAX_RANKS; r++) {
		uintptr_t a = (uintptr_t)remote_address(r, p);

		if (!pml4_canonical(a) || pml4_slot(a) != r + 1 ||
		    (a & (PML4_SLOT_SIZE - 1)) != (uintptr_t)p)
			all_ok = 0;
	}
	CHECK("every rank 0..509 gives a canonical address the kernel reads as slot r+1", all_ok,
	      "mismatch");
	CHECK("no rank reaches the kernel's slot 511",
	      pml4_slot((uintptr_t)remote_address(SMAP_MAX_RANKS - 1, p)) < PML4_KERNEL_SLOT, "slot %u",
	      pml4_slot((uintptr_t)remote_address(SMAP_MAX_RANKS - 1, p)));
	return unit_failed;
}
