/*
 * ct_common.c - reporting, inputs and operators of the collective engine
 * tests (colltest.h).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <smap.h>
#include "colltest.h"

struct verdict {
	int bad;
	char why[200];
};

static struct verdict verdicts[SMAP_MAX_RANKS];	/* rank 0's, written by all */
static struct verdict mine;
int ct_failures;

void ct_fail(const char *fmt, ...)
{
	va_list ap;

	if (mine.bad)
		return;
	mine.bad = 1;
	va_start(ap, fmt);
	vsnprintf(mine.why, sizeof mine.why, fmt, ap);
	va_end(ap);
}

void ct_report(const char *fmt, ...)
{
	struct verdict *v = remote_address(0, &verdicts[smap_rank()]);
	char name[200];
	va_list ap;

	memcpy(v, &mine, sizeof mine);
	memset(&mine, 0, sizeof mine);
	smap_node_barrier();
	if (smap_rank() == 0) {
		int r;

		va_start(ap, fmt);
		vsnprintf(name, sizeof name, fmt, ap);
		va_end(ap);
		for (r = 0; r < smap_size() && !verdicts[r].bad; r++)
			;
		if (r == smap_size())
			printf("ok %s\n", name);
		else
			printf("not ok %s - rank %d: %s\n", name, r, verdicts[r].why);
		ct_failures += r < smap_size();
		fflush(stdout);
	}
	smap_node_barrier();
}

uint64_t ct_hash(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t h = a * 0x9e3779b97f4a7c15ull ^ (b + 0x632be59bd9b4e019ull) * 0xbf58476d1ce4e5b9ull ^
		     (c + 0x1234567) * 0x94d049bb133111ebull;

	h ^= h >> 31;
	h *= 0xd6e8feb86659fd93ull;
	return h ^ h >> 32;
}

void ct_fill(void *buf, size_t bytes, int who, uint64_t salt)
{
	unsigned char *p = buf;
	size_t i = 0;

	for (; i + 8 <= bytes; i += 8) {
		uint64_t h = ct_hash((uint64_t)who, i, salt);

		memcpy(p + i, &h, 8);
	}
	for (; i < bytes; i++)
		p[i] = (unsigned char)ct_hash((uint64_t)who, i, salt);
}

void *ct_alloc(size_t bytes)
{
	void *p = malloc(bytes ? bytes : 1);

	if (!p) {
		printf("not ok colltest: no memory for %zu bytes\n", bytes);
		exit(1);
	}
	return p;
}

void ct_scribble(void *buf, size_t bytes)
{
	memset(buf, 0xdd, bytes);
}

long ct_diff(const void *a, const void *b, size_t bytes)
{
	const unsigned char *x = a, *y = b;

	for (size_t i = 0; i < bytes; i++)
		if (x[i] != y[i])
			return (long)i;
	return -1;
}

/* Affine maps x -> a*x + b mod 2^32 under composition (in op inout =
 * in(inout(x))): associative, not commutative. */
struct affine {
	uint32_t a, b;
};

static void affine_fn(void *inout, const void *in, size_t count, void *ctx)
{
	struct affine *io = inout;
	const struct affine *l = in;

	(void)ctx;
	for (size_t i = 0; i < count; i++) {
		struct affine r = { l[i].a * io[i].a, l[i].a * io[i].b + l[i].b };

		io[i] = r;
	}
}

/* The same in one pass (coll_op_fn3), so the engine's fused first step of
 * a fold is checked with an operator whose operands cannot be swapped;
 * the 3-byte affine has no fn3 and checks the copy-then-combine path. */
static void affine_fn3(void *out, const void *in, const void *b, size_t count, void *ctx)
{
	struct affine *o = out;
	const struct affine *l = in, *r = b;

	(void)ctx;
	for (size_t i = 0; i < count; i++) {
		struct affine x = { l[i].a * r[i].a, l[i].a * r[i].b + l[i].b };

		o[i] = x;
	}
}

static void affine_gen(void *out, size_t count, int who, uint64_t salt)
{
	struct affine *e = out;

	for (size_t i = 0; i < count; i++) {
		uint64_t h = ct_hash((uint64_t)who, i, salt);

		e[i].a = (uint32_t)h | 1;
		e[i].b = (uint32_t)(h >> 32);
	}
}

/* Three bytes: an affine map mod 256 and a byte sum, component-wise. */
static void affine3_fn(void *inout, const void *in, size_t count, void *ctx)
{
	unsigned char *io = inout;
	const unsigned char *l = in;

	(void)ctx;
	for (size_t i = 0; i < 3 * count; i += 3) {
		unsigned char a = (unsigned char)(l[i] * io[i]);
		unsigned char b = (unsigned char)(l[i] * io[i + 1] + l[i + 1]);

		io[i] = a;
		io[i + 1] = b;
		io[i + 2] = (unsigned char)(io[i + 2] + l[i + 2]);
	}
}

static void bytes_gen3(void *out, size_t count, int who, uint64_t salt)
{
	ct_fill(out, 3 * count, who, salt);
}

static void sum_fn(void *inout, const void *in, size_t count, void *ctx)
{
	int64_t *io = inout;
	const int64_t *l = in;

	(void)ctx;
	for (size_t i = 0; i < count; i++)
		io[i] = (int64_t)((uint64_t)io[i] + (uint64_t)l[i]);
}

static void bytes_gen8(void *out, size_t count, int who, uint64_t salt)
{
	ct_fill(out, 8 * count, who, salt);
}

static void dsum_fn(void *inout, const void *in, size_t count, void *ctx)
{
	double *io = inout;
	const double *l = in;

	(void)ctx;
	for (size_t i = 0; i < count; i++)
		io[i] = l[i] + io[i];
}

/* Magnitudes 2^-20..2^20 apart, so any change of order changes the bits. */
static void dsum_gen(void *out, size_t count, int who, uint64_t salt)
{
	double *d = out;

	for (size_t i = 0; i < count; i++) {
		uint64_t h = ct_hash((uint64_t)who, i, salt);

		d[i] = ldexp((double)(h & 0xfffff), (int)((h >> 20) % 41) - 20);
	}
}

/* An element of CT_WIDE affine byte pairs: wider than the engine's chunk. */
#define CT_WIDE_PAIRS	10001

static void wide_fn(void *inout, const void *in, size_t count, void *ctx)
{
	unsigned char *io = inout;
	const unsigned char *l = in;

	(void)ctx;
	for (size_t i = 0; i < 2 * CT_WIDE_PAIRS * count; i += 2) {
		unsigned char a = (unsigned char)(l[i] * io[i]);
		unsigned char b = (unsigned char)(l[i] * io[i + 1] + l[i + 1]);

		io[i] = a;
		io[i + 1] = b;
	}
}

static void wide_gen(void *out, size_t count, int who, uint64_t salt)
{
	ct_fill(out, 2 * CT_WIDE_PAIRS * count, who, salt);
}

const struct ct_op ct_affine = { "affine (non-commutative)", { affine_fn, NULL, 8, 0, affine_fn3 },
				  affine_gen };
const struct ct_op ct_affine3 = { "3-byte affine (non-commutative)", { affine3_fn, NULL, 3, 0, NULL }, bytes_gen3 };
const struct ct_op ct_sum = { "int64 sum (commutative)", { sum_fn, NULL, 8, 1, NULL }, bytes_gen8 };
const struct ct_op ct_dsum = { "double sum", { dsum_fn, NULL, 8, 1, NULL }, dsum_gen };
const struct ct_op ct_wide = { "20002-byte elements", { wide_fn, NULL, 2 * CT_WIDE_PAIRS, 0, NULL }, wide_gen };

void ct_fold(const struct ct_op *t, void *out, const int *nodes, int k, size_t count,
	     uint64_t salt)
{
	size_t bytes = count * t->op.size;
	void *x = ct_alloc(bytes);

	t->gen(out, count, nodes[k - 1], salt);
	for (int j = k - 2; j >= 0; j--) {
		t->gen(x, count, nodes[j], salt);
		t->op.fn(out, x, count, NULL);
	}
	free(x);
}
