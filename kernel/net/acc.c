/*
 * acc.c - the network engine's accumulate: origin elements combined into a
 * rank's memory one element at a time, each with one atomic instruction or
 * a compare-and-swap loop - the instructions origins on the target's own
 * node use for the same elements (libsmap/mpi/win_rma.c), so an accumulate
 * from another node is atomic per element against theirs too.
 *
 * Floating elements need SSE: in the kernel this file alone is built with
 * it (kernel/build.mk), and only the engine's CPU runs it, where no rank
 * runs and no state needs saving; in host mode it is ordinary user code.
 */
#include <stdbool.h>
#include <string.h>
#include "acc.h"
#include "proto.h"

static const uint8_t acc_width[SNACC_NTYPES] = { 1, 1, 2, 2, 4, 4, 8, 8, 4, 8 };

unsigned eng_acc_width(uint8_t code)
{
	unsigned type = code >> 4, op = code & 15;

	if (type >= SNACC_NTYPES || op >= SNACC_NOPS)
		return 0;
	if (type >= SNACC_F32 && op != SNACC_SUM && op != SNACC_PROD && op != SNACC_MAX &&
	    op != SNACC_MIN && op != SNACC_REPLACE && op != SNACC_NOOP)
		return 0;
	return acc_width[type];
}

/* ob ends as the element's value from before. */
#define ACC_CAS(T, B, EXPR) do { \
	B nb; \
	T y; \
	ob = __atomic_load_n(p, __ATOMIC_RELAXED); \
	do { \
		memcpy(&y, &ob, sizeof y); \
		EXPR; \
		memcpy(&nb, &y, sizeof nb); \
	} while (!__atomic_compare_exchange_n(p, &ob, nb, false, __ATOMIC_SEQ_CST, \
					      __ATOMIC_RELAXED)); \
} while (0)

/* The operations every type has; T is the element type, B its bits. */
#define ACC_COMMON(T, B) \
	case SNACC_PROD: ACC_CAS(T, B, y = x * y); break; \
	case SNACC_MAX: ACC_CAS(T, B, if (x > y) y = x); break; \
	case SNACC_MIN: ACC_CAS(T, B, if (x < y) y = x); break; \
	case SNACC_REPLACE: ob = __atomic_exchange_n(p, xb, __ATOMIC_SEQ_CST); break; \
	case SNACC_NOOP: ob = __atomic_load_n(p, __ATOMIC_SEQ_CST); break;

/* The operations of integers only, and the sum each kind does its way. */
#define ACC_INT_OPS(T, B) \
	case SNACC_SUM: ob = __atomic_fetch_add(p, xb, __ATOMIC_SEQ_CST); break; \
	case SNACC_BAND: ob = __atomic_fetch_and(p, xb, __ATOMIC_SEQ_CST); break; \
	case SNACC_BOR: ob = __atomic_fetch_or(p, xb, __ATOMIC_SEQ_CST); break; \
	case SNACC_BXOR: ob = __atomic_fetch_xor(p, xb, __ATOMIC_SEQ_CST); break; \
	case SNACC_LAND: ACC_CAS(T, B, y = x && y); break; \
	case SNACC_LOR: ACC_CAS(T, B, y = x || y); break; \
	case SNACC_LXOR: ACC_CAS(T, B, y = !x != !y); break;

#define ACC_FLOAT_OPS(T, B) \
	case SNACC_SUM: ACC_CAS(T, B, y = x + y); break;

#define ACC_FN(NAME, T, B, OPS) \
static void acc_##NAME(unsigned op, char *d, const char *s, uint64_t n, char *old) \
{ \
	for (uint64_t i = 0; i < n; i++) { \
		B *p = (B *)(d + i * sizeof(B)), xb = 0, ob = 0; \
		T x = 0; \
		if (op != SNACC_NOOP) \
			memcpy(&x, s + i * sizeof(T), sizeof x); \
		memcpy(&xb, &x, sizeof xb); \
		switch (op) { \
		ACC_COMMON(T, B) \
		OPS(T, B) \
		} \
		if (old) \
			memcpy(old + i * sizeof(B), &ob, sizeof ob); \
	} \
}

ACC_FN(i8, int8_t, uint8_t, ACC_INT_OPS)
ACC_FN(u8, uint8_t, uint8_t, ACC_INT_OPS)
ACC_FN(i16, int16_t, uint16_t, ACC_INT_OPS)
ACC_FN(u16, uint16_t, uint16_t, ACC_INT_OPS)
ACC_FN(i32, int32_t, uint32_t, ACC_INT_OPS)
ACC_FN(u32, uint32_t, uint32_t, ACC_INT_OPS)
ACC_FN(i64, int64_t, uint64_t, ACC_INT_OPS)
ACC_FN(u64, uint64_t, uint64_t, ACC_INT_OPS)
ACC_FN(f32, float, uint32_t, ACC_FLOAT_OPS)
ACC_FN(f64, double, uint64_t, ACC_FLOAT_OPS)

static void (*const acc_fn[SNACC_NTYPES])(unsigned, char *, const char *, uint64_t, char *) = {
	acc_i8, acc_u8, acc_i16, acc_u16, acc_i32, acc_u32, acc_i64, acc_u64, acc_f32, acc_f64
};

void eng_acc_apply(uint8_t code, void *dst, const void *src, uint64_t bytes, void *old)
{
	unsigned w = eng_acc_width(code);

	if (w)
		acc_fn[code >> 4](code & 15, dst, src, bytes / w, old);
}
