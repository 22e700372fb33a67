/* test_format.c - the kernel's vsnprintf against the host libc's. */
#include <stdint.h>
#include <stdio.h>
#include "unit.h"

int k_snprintf(char *buf, size_t size, const char *fmt, ...);

#define SAME(fmt, ...)								\
	do {									\
		char a[128], b[128];						\
		int ra = k_snprintf(a, sizeof(a), fmt, __VA_ARGS__);		\
		int rb = snprintf(b, sizeof(b), fmt, __VA_ARGS__);		\
		CHECK("format \"" fmt "\" matches libc", ra == rb && !strcmp(a, b),	\
		      "kernel '%s' (%d), libc '%s' (%d)", a, ra, b, rb);		\
	} while (0)

int main(void)
{
	SAME("%d %i %u", -42, 17, 3000000000u);
	SAME("%5d|%-5d|%05d", 42, 42, 42);
	SAME("%+d % d %+d", 5, 5, -5);
	SAME("%x %X %#x %#X %#o %o", 255u, 255u, 255u, 255u, 8u, 0u);
	SAME("%lx %lu %ld", 0xdeadbeefcafeul, 18446744073709551615ul, -9223372036854775807l - 1);
	SAME("%llu %zu %zd", 123ull, (size_t)77, (ssize_t)-3);
	SAME("%hhd %hd %hhu", 300, 70000, 257);
	SAME("%s|%10s|%-10s|%.2s", "abc", "abc", "abc", "abc");
	SAME("%c%c%5c", 'x', 'y', 'z');
	SAME("%.3d %.0d|%8.3d", 7, 0, -7);
	SAME("%*d %-*d %.*s", 6, 1, 6, 2, 2, "hello");
	SAME("%p", (void *)0x1234);
	SAME("100%% %d", 1);
	SAME("%#014lx", 0x9fc00ul);

	char small[8];
	int r = k_snprintf(small, sizeof(small), "%s", "truncated output");

	CHECK("truncation returns the full length and terminates", r == 16 &&
	      !strcmp(small, "truncat"), "'%s' %d", small, r);
	r = k_snprintf(NULL, 0, "%d", 12345);
	CHECK("size 0 writes nothing and returns the length", r == 5, "%d", r);
	k_snprintf(small, sizeof(small), "%s", (char *)NULL);
	CHECK("a NULL string prints (null)", !strcmp(small, "(null)"), "'%s'", small);
	return unit_failed;
}
