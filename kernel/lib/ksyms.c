/* ksyms.c - address to symbol, for stack traces. */
#include "ksyms.h"

const char *ksym_lookup(uint64_t addr, uint64_t *offset)
{
	unsigned lo = 0, hi = nksyms;

	if (!nksyms || addr < ksyms[0].addr)
		return 0;
	while (hi - lo > 1) {
		unsigned mid = (lo + hi) / 2;

		if (ksyms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	*offset = addr - ksyms[lo].addr;
	return ksym_names + ksyms[lo].name;
}
