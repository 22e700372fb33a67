/*
 * amo.c - atomic memory operations: fetch, set, swap, compare_swap, inc,
 * add, and, or, xor, their fetching and _nbi forms, the deprecated names.
 *
 * Each is one instruction on the remote address: a lock-prefixed xadd,
 * xchg, cmpxchg (or cmpxchg loop for fetch-and/or/xor), or an aligned mov
 * for fetch and set, which x86 makes atomic.  Atomics from every PE on one
 * word therefore serialise in the cache-coherence protocol, exactly as
 * threads' atomics do.  The _nbi forms complete before they return.
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

/* The signatures.  NAME is the routine's full name. */
#define AMO_FETCH_DEF(F, T, NAME)					\
T NAME(SHMEMI_PARAM_##F const T *source, int pe)			\
{									\
	return AMO_LOAD(T, (const T *)SHMEMI_ADDR(F, source, pe));	\
}
#define AMO_FETCH_NBI_DEF(F, T, NAME)					\
void NAME(SHMEMI_PARAM_##F T *fetch, const T *source, int pe)		\
{									\
	*fetch = AMO_LOAD(T, (const T *)SHMEMI_ADDR(F, source, pe));	\
}
/* dest, value -> T (RET) or nothing (VOID) */
#define AMO_RET_DEF(F, T, NAME, OP)					\
T NAME(SHMEMI_PARAM_##F T *dest, T value, int pe)			\
{									\
	return OP(T, (T *)SHMEMI_ADDR(F, dest, pe), value);		\
}
#define AMO_VOID_DEF(F, T, NAME, OP)					\
void NAME(SHMEMI_PARAM_##F T *dest, T value, int pe)			\
{									\
	OP(T, (T *)SHMEMI_ADDR(F, dest, pe), value);			\
}
#define AMO_NBI_DEF(F, T, NAME, OP)					\
void NAME(SHMEMI_PARAM_##F T *fetch, T *dest, T value, int pe)		\
{									\
	*fetch = OP(T, (T *)SHMEMI_ADDR(F, dest, pe), value);		\
}
#define AMO_FINC_DEF(F, T, NAME)					\
T NAME(SHMEMI_PARAM_##F T *dest, int pe)				\
{									\
	return AMO_FADD(T, (T *)SHMEMI_ADDR(F, dest, pe), (T)1);	\
}
#define AMO_INC_DEF(F, T, NAME)						\
void NAME(SHMEMI_PARAM_##F T *dest, int pe)				\
{									\
	AMO_ADD(T, (T *)SHMEMI_ADDR(F, dest, pe), (T)1);		\
}
#define AMO_FINC_NBI_DEF(F, T, NAME)					\
void NAME(SHMEMI_PARAM_##F T *fetch, T *dest, int pe)			\
{									\
	*fetch = AMO_FADD(T, (T *)SHMEMI_ADDR(F, dest, pe), (T)1);	\
}
#define AMO_CSWAP_DEF(F, T, NAME)					\
T NAME(SHMEMI_PARAM_##F T *dest, T cond, T value, int pe)		\
{									\
	return AMO_CSWAP(T, (T *)SHMEMI_ADDR(F, dest, pe), cond, value); \
}
#define AMO_CSWAP_NBI_DEF(F, T, NAME)					\
void NAME(SHMEMI_PARAM_##F T *fetch, T *dest, T cond, T value, int pe)	\
{									\
	*fetch = AMO_CSWAP(T, (T *)SHMEMI_ADDR(F, dest, pe), cond, value); \
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
