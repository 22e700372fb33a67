/*
 * rma.c - remote memory access: put, get, p, g, iput, iget, their _nbi and
 * put-with-signal forms (typed, sized, mem), and fence and quiet.
 *
 * A put to a PE of this node is what Catamount's was: memcpy to
 * remote_address(pe, dest).  The copy is done when the call returns, so the
 * _nbi forms are the blocking ones and quiet has nothing pending to wait for
 * but the store buffer.  A PE on another node is reached through the
 * network (netrma.c): there quiet waits for the engine's acknowledgements.
 *
 * Small copies are a few moves (core_copy: musl's memcpy would start a
 * string instruction that takes longer to start than an 8-byte put takes
 * in all), larger ones memcpy.
 *
 * Ordering: every store here is an ordinary write-back store (musl's memcpy
 * is rep movs; nothing uses non-temporal stores), and x86 makes those
 * visible in program order to every observer, string operations included.
 * So fence, and the order between a put's data and its signal, need only
 * keep the compiler from reordering; quiet has to drain the store buffer
 * so that nothing after it (a load of another PE's flag, say) passes the
 * puts: one locked instruction does that at half the price of mfence,
 * which is why Linux's smp_mb() is one too.
 */
#include <string.h>
#include "shmemi.h"

static inline void rma_check_sig_op(int sig_op, const char *fn)
{
	if (sig_op != SHMEM_SIGNAL_SET && sig_op != SHMEM_SIGNAL_ADD)
		shmemi_fail(fn, "unknown signal operation %d (SHMEM_SIGNAL_SET or _ADD)", sig_op);
}

/* The seam: load/store on this node, the network beyond it.  Nothing to
 * move is nothing to check: a 0-byte call may pass any addresses. */
static inline void rma_put(void *dest, const void *src, size_t n, int pe, int nbi,
			   const char *fn)
{
	void *d;

	if (!n)
		return;
	d = shmemi_local(dest, n, pe, fn);
	if (__builtin_expect(d != NULL, 1))
		core_copy(d, src, n);
	else
		shmemi_net_put(dest, src, n, pe, nbi, fn);
}

static inline void rma_get(void *dest, const void *src, size_t n, int pe, int nbi,
			   const char *fn)
{
	const void *s;

	if (!n)
		return;
	s = shmemi_local(src, n, pe, fn);
	if (__builtin_expect(s != NULL, 1))
		core_copy(dest, s, n);
	else
		shmemi_net_get(dest, src, n, pe, nbi, fn);
}

/* The data first, then the signal: the release keeps the compiler from
 * moving the signal store above the copy; x86 keeps the order after that,
 * and the network engine keeps a PE's operations to one node in order. */
static inline void rma_put_signal(void *dest, const void *src, size_t bytes, uint64_t *sig,
				  uint64_t signal, int sig_op, int pe, int nbi, const char *fn)
{
	void *d = shmemi_local(dest, bytes, pe, fn);
	uint64_t *s = shmemi_local(sig, sizeof(*sig), pe, fn);

	rma_check_sig_op(sig_op, fn);
	if (!d) {
		shmemi_net_put(dest, src, bytes, pe, nbi, fn);
		shmemi_net_post(sig_op == SHMEM_SIGNAL_SET ? SNAMO_SET : SNAMO_ADD, sig,
				(int64_t)signal, pe, fn);
		return;
	}
	core_copy(d, src, bytes);
	if (sig_op == SHMEM_SIGNAL_SET)
		__atomic_store_n(s, signal, __ATOMIC_RELEASE);
	else
		__atomic_fetch_add(s, signal, __ATOMIC_RELEASE);
}

/* Strided beyond the node: one command whose target side is rows of one
 * element, when the remote stride is positive; else element by element
 * (each a small put, or a get completed by the quiet at the end). */
static inline void rma_iput(void *dest, const void *src, ptrdiff_t dst, ptrdiff_t sst, size_t n,
			    size_t es, int pe, const char *fn)
{
	void *d;

	if (!n)
		return;
	d = shmemi_local_strided(dest, dst, n, es, pe, fn);
	if (d) {
		shmemi_strided(d, src, dst, sst, n, es);
		return;
	}
	if (dst >= 1) {
		shmemi_net_rows((void *)src, dest, sst, dst, n, es, pe, 0, fn);
		return;
	}
	for (size_t i = 0; i < n; i++)
		shmemi_net_put((char *)dest + (ptrdiff_t)i * dst * (ptrdiff_t)es,
			       (const char *)src + (ptrdiff_t)i * sst * (ptrdiff_t)es, es, pe, 0, fn);
}

static inline void rma_iget(void *dest, const void *src, ptrdiff_t dst, ptrdiff_t sst, size_t n,
			    size_t es, int pe, const char *fn)
{
	const void *s;

	if (!n)
		return;
	s = shmemi_local_strided(src, sst, n, es, pe, fn);
	if (s) {
		shmemi_strided(dest, s, dst, sst, n, es);
		return;
	}
	if (sst >= 1) {
		shmemi_net_rows(dest, (void *)src, dst, sst, n, es, pe, 1, fn);
		return;
	}
	for (size_t i = 0; i < n; i++)
		shmemi_net_get((char *)dest + (ptrdiff_t)i * dst * (ptrdiff_t)es,
			       (const char *)src + (ptrdiff_t)i * sst * (ptrdiff_t)es, es, pe, 1, fn);
	net_quiet();
}

/* Shared by the typed, sized and mem families: PUT and friends are the
 * routine names (prefix-less), BYTES the size of nelems elements. */
#define RMA_CONTIG(F, PUT, PUT_NBI, GET, GET_NBI, SIG, SIG_NBI, T, BYTES) \
void PUT(SHMEMI_PARAM_##F T *dest, const T *source, size_t nelems, int pe) \
{									\
	rma_put(dest, source, BYTES, SHMEMI_PE_##F(pe), 0, __func__);	\
}									\
void PUT_NBI(SHMEMI_PARAM_##F T *dest, const T *source, size_t nelems, int pe) \
{									\
	rma_put(dest, source, BYTES, SHMEMI_PE_##F(pe), 1, __func__);	\
}									\
void GET(SHMEMI_PARAM_##F T *dest, const T *source, size_t nelems, int pe) \
{									\
	rma_get(dest, source, BYTES, SHMEMI_PE_##F(pe), 0, __func__);	\
}									\
void GET_NBI(SHMEMI_PARAM_##F T *dest, const T *source, size_t nelems, int pe) \
{									\
	rma_get(dest, source, BYTES, SHMEMI_PE_##F(pe), 1, __func__);	\
}									\
void SIG(SHMEMI_PARAM_##F T *dest, const T *source, size_t nelems,	\
	 uint64_t *sig_addr, uint64_t signal, int sig_op, int pe)	\
{									\
	rma_put_signal(dest, source, BYTES, sig_addr, signal, sig_op,	\
		       SHMEMI_PE_##F(pe), 0, __func__);			\
}									\
void SIG_NBI(SHMEMI_PARAM_##F T *dest, const T *source, size_t nelems,	\
	     uint64_t *sig_addr, uint64_t signal, int sig_op, int pe)	\
{									\
	rma_put_signal(dest, source, BYTES, sig_addr, signal, sig_op,	\
		       SHMEMI_PE_##F(pe), 1, __func__);			\
}

#define RMA_STRIDED(F, IPUT, IGET, T, ES)				\
void IPUT(SHMEMI_PARAM_##F T *dest, const T *source, ptrdiff_t dst,	\
	  ptrdiff_t sst, size_t nelems, int pe)				\
{									\
	rma_iput(dest, source, dst, sst, nelems, ES, SHMEMI_PE_##F(pe), __func__); \
}									\
void IGET(SHMEMI_PARAM_##F T *dest, const T *source, ptrdiff_t dst,	\
	  ptrdiff_t sst, size_t nelems, int pe)				\
{									\
	rma_iget(dest, source, dst, sst, nelems, ES, SHMEMI_PE_##F(pe), __func__); \
}

/* shmem_int_put, shmem_ctx_int_put, ... */
#define RMA_TYPED(F, T, N)						\
RMA_CONTIG(F, SHMEMI_FN(F, N, _put), SHMEMI_FN(F, N, _put_nbi),	\
	   SHMEMI_FN(F, N, _get), SHMEMI_FN(F, N, _get_nbi),		\
	   SHMEMI_FN(F, N, _put_signal), SHMEMI_FN(F, N, _put_signal_nbi), \
	   T, nelems * sizeof(T))					\
RMA_STRIDED(F, SHMEMI_FN(F, N, _iput), SHMEMI_FN(F, N, _iget), T, sizeof(T)) \
void SHMEMI_FN(F, N, _p)(SHMEMI_PARAM_##F T *dest, T value, int pe)	\
{									\
	T *d_ = SHMEMI_LOCAL(F, dest, pe);				\
									\
	if (__builtin_expect(d_ != NULL, 1))				\
		*(volatile T *)d_ = value;				\
	else								\
		shmemi_net_put(dest, &value, sizeof(T), SHMEMI_PE_##F(pe), 0, __func__); \
}									\
T SHMEMI_FN(F, N, _g)(SHMEMI_PARAM_##F const T *source, int pe)	\
{									\
	const T *s_ = SHMEMI_LOCAL(F, source, pe);			\
	T v_;								\
									\
	if (__builtin_expect(s_ != NULL, 1)) {				\
		shmemi_poll();						\
		return *(const volatile T *)s_;				\
	}								\
	shmemi_net_get(&v_, source, sizeof(T), SHMEMI_PE_##F(pe), 0, __func__); \
	return v_;							\
}
#define RMA_TYPED_BOTH(T, N)	SHMEMI_BOTH(RMA_TYPED, T, N)
SHMEMI_RMA_TYPES(RMA_TYPED_BOTH)

/* shmem_put32, shmem_ctx_iget128, ... */
#define RMA_SIZED(F, S)							\
RMA_CONTIG(F, SHMEMI_FN(F, put, S), SHMEMI_FN(F, put, S##_nbi),		\
	   SHMEMI_FN(F, get, S), SHMEMI_FN(F, get, S##_nbi),		\
	   SHMEMI_FN(F, put, S##_signal), SHMEMI_FN(F, put, S##_signal_nbi), \
	   void, nelems * (S / 8))					\
RMA_STRIDED(F, SHMEMI_FN(F, iput, S), SHMEMI_FN(F, iget, S), void, S / 8)
#define RMA_SIZED_BOTH(S)	SHMEMI_BOTH(RMA_SIZED, S)
SHMEMI_RMA_SIZES(RMA_SIZED_BOTH)

/* shmem_putmem, shmem_ctx_getmem_nbi, ... */
#define RMA_MEM(F, unused)						\
RMA_CONTIG(F, SHMEMI_FN(F, putmem, ), SHMEMI_FN(F, putmem, _nbi),	\
	   SHMEMI_FN(F, getmem, ), SHMEMI_FN(F, getmem, _nbi),		\
	   SHMEMI_FN(F, putmem, _signal), SHMEMI_FN(F, putmem, _signal_nbi), \
	   void, nelems)
SHMEMI_BOTH(RMA_MEM, 0)

static inline void rma_fence(void)
{
	__asm__ volatile("" ::: "memory");
}

static inline void rma_quiet(void)
{
	__asm__ volatile("lock orq $0, (%%rsp)" ::: "memory", "cc");
	if (net_up())
		net_quiet();
}

void shmem_fence(void)
{
	rma_fence();
}

void shmem_quiet(void)
{
	rma_quiet();
}

/* All contexts share one ordering domain: the fences are the same. */
void shmem_ctx_fence(shmem_ctx_t ctx)
{
	if (ctx == SHMEM_CTX_INVALID)
		shmemi_fail(__func__, "the context is SHMEM_CTX_INVALID");
	rma_fence();
}

void shmem_ctx_quiet(shmem_ctx_t ctx)
{
	if (ctx == SHMEM_CTX_INVALID)
		shmemi_fail(__func__, "the context is SHMEM_CTX_INVALID");
	rma_quiet();
}
