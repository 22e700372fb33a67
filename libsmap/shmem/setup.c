/*
 * setup.c - OpenSHMEM library setup, exit and query: shmem_init and its
 * variants, the symmetric heap's reservation (SHMEM_SYMMETRIC_SIZE),
 * PE numbers, accessibility, shmem_ptr, global exit and the error path the
 * rest of libsmap/shmem uses.
 *
 * PEs are the job's world ranks; the PEs of this node are the ones this PE
 * reaches through SMARTMAP.  The heap is one symmetric reservation from the
 * core (same address on every PE of a node, each PE's own memory), carved by
 * heap.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../core/core.h"
#include "shmemi.h"

/* The heap when SHMEM_SYMMETRIC_SIZE is not set: this much, or a quarter of
 * the PE's memory when that is less (small QEMU nodes), to start with; it
 * then grows into the rest of the region as blocks need it (alloc.c). */
#define SETUP_HEAP_DEFAULT	(64UL << 20)
#define SETUP_HEAP_ALIGN	4096UL

struct shmemi_state shmemi;

/* Bounds of the image (text, data, bss): the same on every PE. */
extern char __executable_start[], _end[];

void shmemi_fail(const char *fn, const char *fmt, ...)
{
	char msg[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fflush(stdout);
	core_fatal("shmem PE %d: %s: %s",
		   shmemi.stage == SHMEMI_NONE ? smap_world_rank() : shmemi.me, fn, msg);
}

void shmemi_check_ready(const char *fn)
{
	core_call = fn;
	if (shmemi.stage == SHMEMI_NONE)
		shmemi_fail(fn, "called before shmem_init");
	if (shmemi.stage == SHMEMI_DONE)
		shmemi_fail(fn, "called after shmem_finalize");
}

void shmemi_pe_fail(const char *fn, int pe)
{
	shmemi_check_ready(fn);
	if (pe < 0 || pe >= shmemi.npes)
		shmemi_fail(fn, "PE %d does not exist (the job has PEs 0..%d)", pe, shmemi.npes - 1);
	shmemi_fail(fn, "PE %d is on node %d, and this node has no network to reach it",
		    pe, pe / (int)shmemi.node_npes);
}

void shmemi_range_fail(const char *fn, const volatile void *p, size_t n, int pe)
{
	shmemi_check_ready(fn);
	if (n == SIZE_MAX)
		shmemi_fail(fn, "the strided range at %p on PE %d overflows the address space",
			    (const void *)p, pe);
	shmemi_fail(fn, "%zu bytes at %p on PE %d are outside the PE's memory [%#lx, %#lx): "
		    "not a symmetric address or too long", n, (const void *)p, pe,
		    (unsigned long)core.ji.region_base, (unsigned long)core.region_end);
}

/*
 * "512M", "1.5G", "4096": digits, an optional fraction, an optional K, M,
 * G or T (powers of two); the product rounded up.  0 and garbage fail.
 */
static int setup_parse_size(const char *s, size_t *out)
{
	unsigned long long whole = 0, frac = 0, denom = 1, scale = 1, v;
	const char *p = s;

	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (whole > (~0ULL - 9) / 10)
			return -1;
		whole = whole * 10 + (unsigned)(*p - '0');
	}
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++)
			if (denom < 1000000ULL) {
				frac = frac * 10 + (unsigned)(*p - '0');
				denom *= 10;
			}
	switch (*p) {
	case 'k': case 'K': scale = 1ULL << 10; p++; break;
	case 'm': case 'M': scale = 1ULL << 20; p++; break;
	case 'g': case 'G': scale = 1ULL << 30; p++; break;
	case 't': case 'T': scale = 1ULL << 40; p++; break;
	}
	if (*p || (whole && whole > ~0ULL / scale))
		return -1;
	v = whole * scale + (frac * scale + denom - 1) / denom;
	if (v == 0)
		return -1;
	*out = (size_t)v;
	return 0;
}

static size_t setup_heap_size(void)
{
	const char *env = getenv("SHMEM_SYMMETRIC_SIZE");
	const struct smapos_jobinfo *ji = smap_jobinfo();
	size_t size;

	if (env) {
		if (setup_parse_size(env, &size) < 0)
			shmemi_fail("shmem_init", "SHMEM_SYMMETRIC_SIZE='%s' is not a size "
				    "(bytes, or with K, M, G, T: 512M, 1.5G)", env);
		/* whole pages, so the heap ends where the break does and can grow */
		return (size + SETUP_HEAP_ALIGN - 1) & ~(SETUP_HEAP_ALIGN - 1);
	}
	size = SETUP_HEAP_DEFAULT;
	if (ji->region_size / 4 < size)
		size = (ji->region_size / 4) & ~(SETUP_HEAP_ALIGN - 1);
	return size;
}

static void setup_heap(void)
{
	const struct smapos_jobinfo *ji = smap_jobinfo();
	size_t size = setup_heap_size();

	shmemi.heap_base = smap_sym_reserve(size, SETUP_HEAP_ALIGN);
	if (!shmemi.heap_base)
		shmemi_fail("shmem_init", "no room for a symmetric heap of %zu bytes in the "
			    "%llu bytes of each PE's memory: set SHMEM_SYMMETRIC_SIZE lower "
			    "or give the job more memory (lwkrun --mem)", size,
			    (unsigned long long)ji->region_size);
	shmemi.heap_size = size;
	if (heap_init(&shmemi.heap, (size_t)shmemi.heap_base, size) < 0)
		shmemi_fail("shmem_init", "out of private memory for the heap's table");
}

/* SHMEM_VERSION and SHMEM_INFO: the specification's start-up reports. */
static void setup_report(void)
{
	if (shmemi.me != 0)
		return;
	if (getenv("SHMEM_VERSION") || getenv("SHMEM_INFO"))
		printf("OpenSHMEM %d.%d: %s\n", SHMEM_MAJOR_VERSION, SHMEM_MINOR_VERSION,
		       SHMEM_VENDOR_STRING);
	if (getenv("SHMEM_INFO"))
		printf("  SHMEM_SYMMETRIC_SIZE  symmetric heap per PE (now %zu bytes; "
		       "K, M, G, T suffixes)\n"
		       "  SHMEM_VERSION         print the library version at start-up\n"
		       "  SHMEM_INFO            print this list at start-up\n"
		       "  PEs %d on %d node(s), %u per node\n",
		       shmemi.heap_size, shmemi.npes, shmemi.nnodes, shmemi.node_npes);
	fflush(stdout);
}

static void setup_init(const char *fn)
{
	if (shmemi.stage == SHMEMI_READY)
		shmemi_fail(fn, "called twice (the specification allows one initialisation)");
	if (shmemi.stage == SHMEMI_DONE)
		shmemi_fail(fn, "called after shmem_finalize");
	core_lib_open();
	shmemi.me = smap_world_rank();
	shmemi.npes = smap_world_size();
	shmemi.node = smap_node();
	shmemi.nnodes = smap_nnodes();
	shmemi.node_npes = (unsigned)smap_size();
	shmemi.node_me = (unsigned)smap_rank();
	shmemi.node_first = shmemi.node * (int)shmemi.node_npes;
	/* PEs on other nodes go through the network; without one they fail
	 * where they are named (shmemi_pe_fail). */
	if (shmemi.nnodes > 1)
		net_init();
	setup_heap();
	shmemi_team_init();
	shmemi.stage = SHMEMI_READY;
	shmemi_span_init();
	smap_barrier();
	setup_report();
}

void shmem_init(void)
{
	setup_init(__func__);
}

int shmem_init_thread(int requested, int *provided)
{
	if (requested < SHMEM_THREAD_SINGLE || requested > SHMEM_THREAD_MULTIPLE)
		shmemi_fail(__func__, "unknown thread level %d", requested);
	setup_init(__func__);
	shmemi.thread_level = requested < SHMEM_THREAD_FUNNELED ? requested :
			      SHMEM_THREAD_FUNNELED;
	if (provided)
		*provided = shmemi.thread_level;
	return 0;
}

void shmem_query_thread(int *provided)
{
	shmemi_check_ready(__func__);
	*provided = shmemi.thread_level;
}

/* Deprecated: unlike shmem_init, later calls do nothing. */
void start_pes(int npes)
{
	(void)npes;
	if (shmemi.stage == SHMEMI_NONE)
		setup_init(__func__);
}

void shmem_finalize(void)
{
	shmemi_check_ready(__func__);
	shmem_quiet();
	shmemi_team_sync(SHMEM_TEAM_WORLD, __func__);
	shmemi_team_fini();
	smap_sym_release(shmemi.heap_base, shmemi.heap_size);
	heap_fini(&shmemi.heap);
	shmemi.stage = SHMEMI_DONE;
	/* From here on every RMA fails in shmemi_addr's range check. */
	shmemi.node_npes = 0;
	core_lib_close();
}

void shmem_global_exit(int status)
{
	fflush(NULL);
	smap_abort(status);
}

int shmem_my_pe(void)
{
	if (shmemi.stage == SHMEMI_NONE)
		shmemi_fail(__func__, "called before shmem_init");
	return shmemi.me;
}

int shmem_n_pes(void)
{
	if (shmemi.stage == SHMEMI_NONE)
		shmemi_fail(__func__, "called before shmem_init");
	return shmemi.npes;
}

int _my_pe(void)
{
	return shmem_my_pe();
}

int _num_pes(void)
{
	return shmem_n_pes();
}

/* Reachable: on this node, or anywhere once the network is up. */
int shmem_pe_accessible(int pe)
{
	shmemi_check_ready(__func__);
	if ((unsigned)pe >= (unsigned)shmemi.npes)
		return 0;
	return (unsigned)pe - (unsigned)shmemi.node_first < shmemi.node_npes || net_up();
}

int shmem_addr_accessible(const void *addr, int pe)
{
	const char *p = addr;

	if (!shmem_pe_accessible(pe))
		return 0;
	return (p >= shmemi.heap_base && p < shmemi.heap_base + shmemi.heap_size) ||
	       (p >= __executable_start && p < _end);
}

void *shmem_ptr(const void *dest, int pe)
{
	shmemi_check_ready(__func__);
	if ((unsigned)pe - (unsigned)shmemi.node_first >= shmemi.node_npes)
		return NULL;
	return shmemi_addr(dest, pe, __func__);
}

void shmem_info_get_version(int *major, int *minor)
{
	*major = SHMEM_MAJOR_VERSION;
	*minor = SHMEM_MINOR_VERSION;
}

void shmem_info_get_name(char *name)
{
	strncpy(name, SHMEM_VENDOR_STRING, SHMEM_MAX_NAME_LEN);
	name[SHMEM_MAX_NAME_LEN - 1] = '\0';
}

/*
 * Cache management (deprecated): caches are coherent on every machine
 * smapos runs on, which is the case the specification defines these for
 * as having nothing to do.
 */
void shmem_clear_cache_inv(void)
{
}

void shmem_set_cache_inv(void)
{
}

void shmem_clear_cache_line_inv(void *dest)
{
	(void)dest;
}

void shmem_set_cache_line_inv(void *dest)
{
	(void)dest;
}

void shmem_udcflush(void)
{
}

void shmem_udcflush_line(void *dest)
{
	(void)dest;
}
