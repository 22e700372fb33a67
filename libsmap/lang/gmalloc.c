/*
 * gmalloc.c - the rest of glibc's malloc interface, over libsmap's
 * allocator (core/malloc.c), for programs linked against glibc.
 *
 * glibc's malloc.o defines malloc and free together with mallopt,
 * mallinfo, valloc, malloc_trim and the rest: a program calling any of
 * those would pull it in and collide with libsmap's malloc at link time
 * (multiple definition of `malloc').  Defining them here, in the archive
 * the wrappers put before libc.a, keeps glibc's allocator out.  The tuning
 * calls accept and change nothing (libsmap's allocator has no knobs);
 * mallinfo reports no figures.  musl has none of these names.
 */
#include <stdlib.h>	/* defines __GLIBC__ under glibc */
#ifdef __GLIBC__
#include <malloc.h>
#include <stdio.h>
#include <string.h>

#define GMALLOC_PAGE	4096UL

int mallopt(int param, int value)
{
	(void)param;
	(void)value;
	return 1;
}

struct mallinfo mallinfo(void)
{
	struct mallinfo m;

	memset(&m, 0, sizeof m);
	return m;
}

struct mallinfo2 mallinfo2(void)
{
	struct mallinfo2 m;

	memset(&m, 0, sizeof m);
	return m;
}

int malloc_trim(size_t pad)
{
	(void)pad;
	return 0;
}

void malloc_stats(void)
{
	fputs("libsmap: malloc_stats: libsmap's allocator keeps no statistics\n", stderr);
}

int malloc_info(int options, FILE *fp)
{
	if (options != 0)
		return -1;
	return fputs("<malloc version=\"libsmap\"></malloc>\n", fp) < 0 ? -1 : 0;
}

void *valloc(size_t n)
{
	return memalign(GMALLOC_PAGE, n);
}

void *pvalloc(size_t n)
{
	return memalign(GMALLOC_PAGE, (n + GMALLOC_PAGE - 1) & ~(GMALLOC_PAGE - 1));
}
#endif
