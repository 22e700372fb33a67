/*
 * amo.c - atomic memory operations: fetch, set, swap, compare_swap, inc,
 * add, and, or, xor, their fetching and _nbi forms, the deprecated names.
 *
 * Each is one instruction on the remote address: a lock-prefixed xadd,
 * xchg, cmpxchg (or cmpxchg loop for fetch-and/or/xor), or an aligned mov
 * for fetch and set, which x86 makes atomic.  Atomics from every PE on one
 * word therefore serialise in the cache-coherence protocol, exactly as
 * threads' atomics do.  The _nbi forms complete before they return.  On a
 * PE of another node the target's network engine runs the same operation
 * with the same atomic instructions (kernel/net/engine.c), so atomics from
 * both sides of the seam serialise on the word too; the non-fetching ones
 * complete at quiet.
 */
#include "shmemi.h"

/* The operations, on p of type T *. */
#define AMO_LOAD(T, p)	 ({ T r_; __atomic_load((p), &r_, __ATOMIC_ACQUIRE); r_; })
#define AMO_STORE(T, p, v) ({ T v_ = (v); __atomic_store((p), &v_, __ATOMIC_RELEASE); })
#define AMO_SWAP(T, p, v)						\
	({ T v_ = (v), r_; __atomic_exchange((p), &v_, &r_, __ATOMIC_SEQ_CST); r_; })
#define AMO_CSWAP(T, p, c, v)						\
	({ T c_ = (c); __atomic_compare_exchange_n((p), &c_, (v), 0,	\
		__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); c_; })
#define AMO_FADD(T, p, v)	__atomic_fetch_add((p), (v), __ATOMIC_SEQ_CST)
#define AMO_FAND(T, p, v)	__atomic_fetch_and((p), (v), __ATOMIC_SEQ_CST)
#define AMO_FOR(T, p, v)	__atomic_fetch_or((p), (v), __ATOMIC_SEQ_CST)
#define AMO_FXOR(T, p, v)	__atomic_fetch_xor((p), (v), __ATOMIC_SEQ_CST)
#define AMO_ADD(T, p, v)	__atomic_add_fetch((p), (v), __ATOMIC_SEQ_CST)
#define AMO_AND(T, p, v)	__atomic_and_fetch((p), (v), __ATOMIC_SEQ_CST)
#define AMO_OR(T, p, v)		__atomic_or_fetch((p), (v), __ATOMIC_SEQ_CST)
#define AMO_XOR(T, p, v)	__atomic_xor_fetch((p), (v), __ATOMIC_SEQ_CST)

/* Beyond the node the same operations run in the target's engine: its
 * kind for each operation above, with the word's size. */
#define AMO_K_AMO_LOAD	SNAMO_FETCH
#define AMO_K_AMO_STORE	SNAMO_SET
#define AMO_K_AMO_SWAP	SNAMO_SWAP
#define AMO_K_AMO_FADD	SNAMO_ADD
#define AMO_K_AMO_FAND	SNAMO_AND
#define AMO_K_AMO_FOR	SNAMO_OR
#define AMO_K_AMO_FXOR	SNAMO_XOR
#define AMO_K_AMO_ADD	SNAMO_ADD
#define AMO_K_AMO_AND	SNAMO_AND
#define AMO_K_AMO_OR	SNAMO_OR
#define AMO_K_AMO_XOR	SNAMO_XOR
#define AMO_KIND(T, OP)	((uint8_t)(AMO_K_##OP | (sizeof(T) == 4 ? SNAMO_32 : 0)))
/* A value of T as the engine's 64-bit operand, and back (bit for bit:
 * floating-point words are swapped and set, never added). */
#define AMO_BITS(T, v)	({ union { T t_; int64_t i_; } u_ = { .i_ = 0 }; u_.t_ = (v); u_.i_; })
#define AMO_UNBITS(T, v) ({ union { T t_; int64_t i_; } u_; u_.i_ = (v); u_.t_; })
#define AMO_NET(T, OP, dest, a0, a1, pe)				\
	AMO_UNBITS(T, shmemi_net_fetch(AMO_KIND(T, OP), (void *)(dest), AMO_BITS(T, a0), \
				       AMO_BITS(T, a1), pe, __func__))

/* The signatures.  NAME is the routine's full name; each takes the
 * operation on the word where this PE reaches it, or to the network. */
#define AMO_FETCH_DEF(F, T, NAME)					\
T NAME(SHMEMI_PARAM_##F const T *source, int pe)			\
{									\
	int w_ = SHMEMI_PE_##F(pe);					\
	const T *p_ = shmemi_local(source, sizeof(T), w_, __func__);		\
									\
	if (__builtin_expect(p_ != NULL, 1)) {				\
		shmemi_poll();						\
		return AMO_LOAD(T, p_);					\
	}							\
	return AMO_NET(T, AMO_LOAD, source, (T)0, (T)0, w_);		\
}
#define AMO_FETCH_NBI_DEF(F, T, NAME)					\
void NAME(SHMEMI_PARAM_##F T *fetch, const T *source, int pe)		\
{									\
	int w_ = SHMEMI_PE_##F(pe);					\
	const T *p_ = shmemi_local(source, sizeof(T), w_, __func__);		\
									\
	if (__builtin_expect(p_ != NULL, 1))				\
		*fetch = AMO_LOAD(T, p_);				\
	else								\
		*fetch = AMO_NET(T, AMO_LOAD, source, (T)0, (T)0, w_);	\
}
/* dest, value -> T (RET) or nothing (VOID) */
#define AMO_RET_DEF(F, T, NAME, OP)					\
T NAME(SHMEMI_PARAM_##F T *dest, T value, int pe)			\
{									\
	int w_ = SHMEMI_PE_##F(pe);					\
	T *p_ = shmemi_local(dest, sizeof(T), w_, __func__);			\
									\
	if (__builtin_expect(p_ != NULL, 1)) {				\
		shmemi_poll();						\
		return OP(T, p_, value);				\
	}							\
	return AMO_NET(T, OP, dest, value, (T)0, w_);			\
}
#define AMO_VOID_DEF(F, T, NAME, OP)					\
void NAME(SHMEMI_PARAM_##F T *dest, T value, int pe)			\
{									\
	int w_ = SHMEMI_PE_##F(pe);					\
	T *p_ = shmemi_local(dest, sizeof(T), w_, __func__);			\
									\
	if (__builtin_expect(p_ != NULL, 1))				\
		OP(T, p_, value);					\
	else								\
		shmemi_net_post(AMO_KIND(T, OP), dest, AMO_BITS(T, value), w_, __func__); \
}
#define AMO_NBI_DEF(F, T, NAME, OP)					\
void NAME(SHMEMI_PARAM_##F T *fetch, T *dest, T value, int pe)		\
{									\
	int w_ = SHMEMI_PE_##F(pe);					\
	T *p_ = shmemi_local(dest, sizeof(T), w_, __func__);			\
									\
	if (__builtin_expect(p_ != NULL, 1))				\
		*fetch = OP(T, p_, value);				\
	else								\
		*fetch = AMO_NET(T, OP, dest, value, (T)0, w_);		\
}
#define AMO_FINC_DEF(F, T, NAME)					\
T NAME(SHMEMI_PARAM_##F T *dest, int pe)				\
{									\
	int w_ = SHMEMI_PE_##F(pe);					\
	T *p_ = shmemi_local(dest, sizeof(T), w_, __func__);			\
									\
	if (__builtin_expect(p_ != NULL, 1)) {				\
		shmemi_poll();						\
		return AMO_FADD(T, p_, (T)1);				\
	}							\
	return AMO_NET(T, AMO_FADD, dest, (T)1, (T)0, w_);		\
}
#define AMO_INC_DEF(F, T, NAME)						\
void NAME(SHMEMI_PARAM_##F T *dest, int pe)				\
{									\
	int w_ = SHMEMI_PE_##F(pe);					\
	T *p_ = shmemi_local(dest, sizeof(T), w_, __func__);			\
									\
	if (__builtin_expect(p_ != NULL, 1))				\
		AMO_ADD(T, p_, (T)1);					\
	else								\
		shmemi_net_post(AMO_KIND(T, AMO_ADD), dest, 1, w_, __func__); \
}
#define AMO_FINC_NBI_DEF(F, T, NAME)					\
void NAME(SHMEMI_PARAM_##F T *fetch, T *dest, int pe)			\
{									\
	int w_ = SHMEMI_PE_##F(pe);					\
	T *p_ = shmemi_local(dest, sizeof(T), w_, __func__);			\
									\
	if (__builtin_expect(p_ != NULL, 1))				\
		*fetch = AMO_FADD(T, p_, (T)1);				\
	else								\
		*fetch = AMO_NET(T, AMO_FADD, dest, (T)1, (T)0, w_);	\
}
/* The engine's compare-and-swap takes the new value first, then the
 * condition. */
#define AMO_CSWAP_NET(T, dest, cond, value, pe)				\
	AMO_UNBITS(T, shmemi_net_fetch((uint8_t)(SNAMO_CAS | (sizeof(T) == 4 ? SNAMO_32 : 0)), \
				       (void *)(dest), AMO_BITS(T, value), AMO_BITS(T, cond), \
				       pe, __func__))
#define AMO_CSWAP_DEF(F, T, NAME)					\
T NAME(SHMEMI_PARAM_##F T *dest, T cond, T value, int pe)		\
{									\
	int w_ = SHMEMI_PE_##F(pe);					\
	T *p_ = shmemi_local(dest, sizeof(T), w_, __func__);			\
									\
	if (__builtin_expect(p_ != NULL, 1)) {				\
		shmemi_poll();						\
		return AMO_CSWAP(T, p_, cond, value);			\
	}							\
	return AMO_CSWAP_NET(T, dest, cond, value, w_);			\
}
#define AMO_CSWAP_NBI_DEF(F, T, NAME)					\
void NAME(SHMEMI_PARAM_##F T *fetch, T *dest, T cond, T value, int pe)	\
{									\
	int w_ = SHMEMI_PE_##F(pe);					\
	T *p_ = shmemi_local(dest, sizeof(T), w_, __func__);			\
									\
	if (__builtin_expect(p_ != NULL, 1))				\
		*fetch = AMO_CSWAP(T, p_, cond, value);			\
	else								\
		*fetch = AMO_CSWAP_NET(T, dest, cond, value, w_);	\
}

/* Extended AMO types: fetch, set, swap. */
#define AMO_EXT(F, T, N)						\
	AMO_FETCH_DEF(F, T, SHMEMI_FN(F, N, _atomic_fetch))		\
	AMO_VOID_DEF(F, T, SHMEMI_FN(F, N, _atomic_set), AMO_STORE)	\
	AMO_RET_DEF(F, T, SHMEMI_FN(F, N, _atomic_swap), AMO_SWAP)	\
	AMO_FETCH_NBI_DEF(F, T, SHMEMI_FN(F, N, _atomic_fetch_nbi))	\
	AMO_NBI_DEF(F, T, SHMEMI_FN(F, N, _atomic_swap_nbi), AMO_SWAP)
#define AMO_EXT_BOTH(T, N)	SHMEMI_BOTH(AMO_EXT, T, N)
SHMEMI_AMO_EXT_TYPES(AMO_EXT_BOTH)

/* Standard AMO types: compare_swap, inc, add and their fetching forms. */
#define AMO_STD(F, T, N)						\
	AMO_CSWAP_DEF(F, T, SHMEMI_FN(F, N, _atomic_compare_swap))	\
	AMO_FINC_DEF(F, T, SHMEMI_FN(F, N, _atomic_fetch_inc))		\
	AMO_INC_DEF(F, T, SHMEMI_FN(F, N, _atomic_inc))			\
	AMO_RET_DEF(F, T, SHMEMI_FN(F, N, _atomic_fetch_add), AMO_FADD)	\
	AMO_VOID_DEF(F, T, SHMEMI_FN(F, N, _atomic_add), AMO_ADD)	\
	AMO_CSWAP_NBI_DEF(F, T, SHMEMI_FN(F, N, _atomic_compare_swap_nbi)) \
	AMO_FINC_NBI_DEF(F, T, SHMEMI_FN(F, N, _atomic_fetch_inc_nbi))	\
	AMO_NBI_DEF(F, T, SHMEMI_FN(F, N, _atomic_fetch_add_nbi), AMO_FADD)
#define AMO_STD_BOTH(T, N)	SHMEMI_BOTH(AMO_STD, T, N)
SHMEMI_AMO_STD_TYPES(AMO_STD_BOTH)

/* Bitwise AMO types: and, or, xor and their fetching forms. */
#define AMO_BIT(F, T, N)						\
	AMO_RET_DEF(F, T, SHMEMI_FN(F, N, _atomic_fetch_and), AMO_FAND)	\
	AMO_VOID_DEF(F, T, SHMEMI_FN(F, N, _atomic_and), AMO_AND)	\
	AMO_RET_DEF(F, T, SHMEMI_FN(F, N, _atomic_fetch_or), AMO_FOR)	\
	AMO_VOID_DEF(F, T, SHMEMI_FN(F, N, _atomic_or), AMO_OR)		\
	AMO_RET_DEF(F, T, SHMEMI_FN(F, N, _atomic_fetch_xor), AMO_FXOR)	\
	AMO_VOID_DEF(F, T, SHMEMI_FN(F, N, _atomic_xor), AMO_XOR)	\
	AMO_NBI_DEF(F, T, SHMEMI_FN(F, N, _atomic_fetch_and_nbi), AMO_FAND) \
	AMO_NBI_DEF(F, T, SHMEMI_FN(F, N, _atomic_fetch_or_nbi), AMO_FOR) \
	AMO_NBI_DEF(F, T, SHMEMI_FN(F, N, _atomic_fetch_xor_nbi), AMO_FXOR)
#define AMO_BIT_BOTH(T, N)	SHMEMI_BOTH(AMO_BIT, T, N)
SHMEMI_AMO_BIT_TYPES(AMO_BIT_BOTH)

/* The deprecated names, default context only. */
#define AMO_OLD_EXT(T, N)						\
	AMO_FETCH_DEF(world, T, shmem_##N##_fetch)			\
	AMO_VOID_DEF(world, T, shmem_##N##_set, AMO_STORE)		\
	AMO_RET_DEF(world, T, shmem_##N##_swap, AMO_SWAP)
SHMEMI_AMO_OLD_EXT_TYPES(AMO_OLD_EXT)

#define AMO_OLD_STD(T, N)						\
	AMO_CSWAP_DEF(world, T, shmem_##N##_cswap)			\
	AMO_FINC_DEF(world, T, shmem_##N##_finc)			\
	AMO_INC_DEF(world, T, shmem_##N##_inc)				\
	AMO_RET_DEF(world, T, shmem_##N##_fadd, AMO_FADD)		\
	AMO_VOID_DEF(world, T, shmem_##N##_add, AMO_ADD)
SHMEMI_AMO_OLD_STD_TYPES(AMO_OLD_STD)

AMO_RET_DEF(world, long, (shmem_swap), AMO_SWAP)
