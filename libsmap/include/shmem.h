/*
 * shmem.h - OpenSHMEM 1.5 for smapos (libsmap).
 *
 * Every PE of the node is one load or store away through SMARTMAP, so a put
 * is remote_address() + memcpy, an atomic is one lock-prefixed instruction
 * on the remote address and shmem_ptr() never returns NULL for a PE on this
 * node.  Static and global data are symmetric because every PE runs the same
 * binary; the symmetric heap is kept symmetric by a deterministic allocator.
 *
 * The typed families (shmem_int_put, shmem_long_atomic_fetch_add, ...) are
 * declared from the type tables of the specification (the SHMEMI_*_TYPES
 * lists below); C11 programs also get the generic names (shmem_put,
 * shmem_atomic_add, shmem_sum_reduce, ...) as _Generic selections over them.
 * Handles are pointers to library objects; the predefined ones are address
 * constants.  What is implemented and what fails, and how: docs/shmem.md.
 */
#ifndef SHMEM_H
#define SHMEM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Library constants */

#define SHMEM_MAJOR_VERSION		1
#define SHMEM_MINOR_VERSION		5
#define SHMEM_MAX_NAME_LEN		256
#define SHMEM_VENDOR_STRING		"smapos libsmap OpenSHMEM over SMARTMAP"
#define _SHMEM_MAJOR_VERSION		SHMEM_MAJOR_VERSION
#define _SHMEM_MINOR_VERSION		SHMEM_MINOR_VERSION
#define _SHMEM_MAX_NAME_LEN		SHMEM_MAX_NAME_LEN
#define _SHMEM_VENDOR_STRING		SHMEM_VENDOR_STRING

#define SHMEM_THREAD_SINGLE		0
#define SHMEM_THREAD_FUNNELED		1
#define SHMEM_THREAD_SERIALIZED		2
#define SHMEM_THREAD_MULTIPLE		3

#define SHMEM_CTX_SERIALIZED		(1L << 0)
#define SHMEM_CTX_PRIVATE		(1L << 1)
#define SHMEM_CTX_NOSTORE		(1L << 2)

#define SHMEM_CMP_EQ			0
#define SHMEM_CMP_NE			1
#define SHMEM_CMP_GT			2
#define SHMEM_CMP_LE			3
#define SHMEM_CMP_LT			4
#define SHMEM_CMP_GE			5
#define _SHMEM_CMP_EQ			SHMEM_CMP_EQ
#define _SHMEM_CMP_NE			SHMEM_CMP_NE
#define _SHMEM_CMP_GT			SHMEM_CMP_GT
#define _SHMEM_CMP_LE			SHMEM_CMP_LE
#define _SHMEM_CMP_LT			SHMEM_CMP_LT
#define _SHMEM_CMP_GE			SHMEM_CMP_GE

#define SHMEM_SIGNAL_SET		0
#define SHMEM_SIGNAL_ADD		1

#define SHMEM_MALLOC_ATOMICS_REMOTE	(1L << 0)
#define SHMEM_MALLOC_SIGNAL_REMOTE	(1L << 1)

/*
 * The active-set collectives keep their state in the collective engine,
 * not in pSync/pWrk: the arrays are accepted, never written, so they keep
 * SHMEM_SYNC_VALUE and any size is enough.  These sizes only let programs
 * declare them.
 */
#define SHMEM_SYNC_VALUE		0L
#define SHMEM_SYNC_SIZE			16
#define SHMEM_BCAST_SYNC_SIZE		16
#define SHMEM_REDUCE_SYNC_SIZE		16
#define SHMEM_BARRIER_SYNC_SIZE		16
#define SHMEM_COLLECT_SYNC_SIZE		16
#define SHMEM_ALLTOALL_SYNC_SIZE	16
#define SHMEM_ALLTOALLS_SYNC_SIZE	16
#define SHMEM_REDUCE_MIN_WRKDATA_SIZE	16
#define _SHMEM_SYNC_VALUE		SHMEM_SYNC_VALUE
#define _SHMEM_BCAST_SYNC_SIZE		SHMEM_BCAST_SYNC_SIZE
#define _SHMEM_REDUCE_SYNC_SIZE		SHMEM_REDUCE_SYNC_SIZE
#define _SHMEM_BARRIER_SYNC_SIZE	SHMEM_BARRIER_SYNC_SIZE
#define _SHMEM_COLLECT_SYNC_SIZE	SHMEM_COLLECT_SYNC_SIZE
#define _SHMEM_REDUCE_MIN_WRKDATA_SIZE	SHMEM_REDUCE_MIN_WRKDATA_SIZE

/* Library handles */

typedef struct shmemi_ctx *shmem_ctx_t;
typedef struct shmemi_team *shmem_team_t;

typedef struct {
	int num_contexts;
} shmem_team_config_t;

#define SHMEM_TEAM_NUM_CONTEXTS		(1L << 0)

extern struct shmemi_ctx shmemi_ctx_default;
extern struct shmemi_team shmemi_team_world;
extern struct shmemi_team shmemi_team_shared;

#define SHMEM_CTX_DEFAULT		(&shmemi_ctx_default)
#define SHMEM_CTX_INVALID		((shmem_ctx_t)0)
#define SHMEM_TEAM_WORLD		(&shmemi_team_world)
#define SHMEM_TEAM_SHARED		(&shmemi_team_shared)
#define SHMEM_TEAM_INVALID		((shmem_team_t)0)

/*
 * Type tables of the specification: X(TYPE, TYPENAME).  Internal names,
 * public only because the declarations below are generated from them.
 */
#define SHMEMI_RMA_TYPES(X)						\
	X(float, float) X(double, double) X(long double, longdouble)	\
	X(char, char) X(signed char, schar) X(short, short)		\
	X(int, int) X(long, long) X(long long, longlong)		\
	X(unsigned char, uchar) X(unsigned short, ushort)		\
	X(unsigned int, uint) X(unsigned long, ulong)			\
	X(unsigned long long, ulonglong)				\
	X(int8_t, int8) X(int16_t, int16) X(int32_t, int32)		\
	X(int64_t, int64) X(uint8_t, uint8) X(uint16_t, uint16)	\
	X(uint32_t, uint32) X(uint64_t, uint64) X(size_t, size)	\
	X(ptrdiff_t, ptrdiff)

#define SHMEMI_AMO_STD_TYPES(X)						\
	X(int, int) X(long, long) X(long long, longlong)		\
	X(unsigned int, uint) X(unsigned long, ulong)			\
	X(unsigned long long, ulonglong) X(int32_t, int32)		\
	X(int64_t, int64) X(uint32_t, uint32) X(uint64_t, uint64)	\
	X(size_t, size) X(ptrdiff_t, ptrdiff)

#define SHMEMI_AMO_EXT_TYPES(X)						\
	SHMEMI_AMO_STD_TYPES(X) X(float, float) X(double, double)

#define SHMEMI_AMO_BIT_TYPES(X)						\
	X(unsigned int, uint) X(unsigned long, ulong)			\
	X(unsigned long long, ulonglong) X(int32_t, int32)		\
	X(int64_t, int64) X(uint32_t, uint32) X(uint64_t, uint64)

#define SHMEMI_P2P_TYPES(X)						\
	X(short, short) X(int, int) X(long, long) X(long long, longlong) \
	X(unsigned short, ushort) X(unsigned int, uint)			\
	X(unsigned long, ulong) X(unsigned long long, ulonglong)	\
	X(int32_t, int32) X(int64_t, int64) X(uint32_t, uint32)		\
	X(uint64_t, uint64) X(size_t, size) X(ptrdiff_t, ptrdiff)

#define SHMEMI_REDUCE_BIT_TYPES(X)					\
	X(unsigned char, uchar) X(unsigned short, ushort)		\
	X(unsigned int, uint) X(unsigned long, ulong)			\
	X(unsigned long long, ulonglong) X(int8_t, int8)		\
	X(int16_t, int16) X(int32_t, int32) X(int64_t, int64)		\
	X(uint8_t, uint8) X(uint16_t, uint16) X(uint32_t, uint32)	\
	X(uint64_t, uint64) X(size_t, size)

#define SHMEMI_REDUCE_MINMAX_TYPES(X)					\
	X(char, char) X(signed char, schar) X(short, short)		\
	X(int, int) X(long, long) X(long long, longlong)		\
	X(ptrdiff_t, ptrdiff) X(unsigned char, uchar)			\
	X(unsigned short, ushort) X(unsigned int, uint)			\
	X(unsigned long, ulong) X(unsigned long long, ulonglong)	\
	X(int8_t, int8) X(int16_t, int16) X(int32_t, int32)		\
	X(int64_t, int64) X(uint8_t, uint8) X(uint16_t, uint16)	\
	X(uint32_t, uint32) X(uint64_t, uint64) X(size_t, size)		\
	X(float, float) X(double, double) X(long double, longdouble)

#define SHMEMI_REDUCE_ARITH_TYPES(X)					\
	SHMEMI_REDUCE_MINMAX_TYPES(X)					\
	X(double _Complex, complexd) X(float _Complex, complexf)

/* The deprecated active-set reductions (shmem_TYPENAME_OP_to_all). */
#define SHMEMI_TOALL_BIT_TYPES(X)					\
	X(short, short) X(int, int) X(long, long) X(long long, longlong)

#define SHMEMI_TOALL_MINMAX_TYPES(X)					\
	SHMEMI_TOALL_BIT_TYPES(X) X(float, float) X(double, double)	\
	X(long double, longdouble)

#define SHMEMI_TOALL_ARITH_TYPES(X)					\
	SHMEMI_TOALL_MINMAX_TYPES(X)					\
	X(double _Complex, complexd) X(float _Complex, complexf)

/* Sizes of the sized RMA routines (shmem_put32, shmem_iget128, ...). */
#define SHMEMI_RMA_SIZES(X) X(8) X(16) X(32) X(64) X(128)

/* Library setup, exit and query */

void shmem_init(void);
int shmem_init_thread(int requested, int *provided);
void shmem_query_thread(int *provided);
void shmem_finalize(void);
void shmem_global_exit(int status) __attribute__((__noreturn__));
int shmem_my_pe(void);
int shmem_n_pes(void);
int shmem_pe_accessible(int pe);
int shmem_addr_accessible(const void *addr, int pe);
void *shmem_ptr(const void *dest, int pe);
void shmem_info_get_version(int *major, int *minor);
void shmem_info_get_name(char *name);

/* Deprecated since 1.2, still used. */
void start_pes(int npes);
int _my_pe(void);
int _num_pes(void);

/* Memory management */

void *shmem_malloc(size_t size);
void *shmem_malloc_with_hints(size_t size, long hints);
void *shmem_calloc(size_t count, size_t size);
void *shmem_align(size_t alignment, size_t size);
void *shmem_realloc(void *ptr, size_t size);
void shmem_free(void *ptr);

void *shmalloc(size_t size);
void *shmemalign(size_t alignment, size_t size);
void *shrealloc(void *ptr, size_t size);
void shfree(void *ptr);

/* Teams */

int shmem_team_my_pe(shmem_team_t team);
int shmem_team_n_pes(shmem_team_t team);
int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config);
int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team);
void *shmem_team_ptr(shmem_team_t team, const void *dest, int pe);
void shmem_pcontrol(const int level, ...);
int shmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size,
			     const shmem_team_config_t *config, long config_mask,
			     shmem_team_t *new_team);
int shmem_team_split_2d(shmem_team_t parent_team, int xrange,
			const shmem_team_config_t *xaxis_config, long xaxis_mask,
			shmem_team_t *xaxis_team,
			const shmem_team_config_t *yaxis_config, long yaxis_mask,
			shmem_team_t *yaxis_team);
void shmem_team_destroy(shmem_team_t team);

/* Contexts: all of them share one ordering domain (see docs/shmem.md). */

int shmem_ctx_create(long options, shmem_ctx_t *ctx);
int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx);
void shmem_ctx_destroy(shmem_ctx_t ctx);
int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team);

/* Remote memory access */

#define SHMEMI_RMA_DECL(T, N)						\
	void shmem_##N##_put(T *dest, const T *source, size_t nelems, int pe); \
	void shmem_ctx_##N##_put(shmem_ctx_t ctx, T *dest, const T *source, \
				 size_t nelems, int pe);		\
	void shmem_##N##_get(T *dest, const T *source, size_t nelems, int pe); \
	void shmem_ctx_##N##_get(shmem_ctx_t ctx, T *dest, const T *source, \
				 size_t nelems, int pe);		\
	void shmem_##N##_put_nbi(T *dest, const T *source, size_t nelems, int pe); \
	void shmem_ctx_##N##_put_nbi(shmem_ctx_t ctx, T *dest, const T *source, \
				     size_t nelems, int pe);		\
	void shmem_##N##_get_nbi(T *dest, const T *source, size_t nelems, int pe); \
	void shmem_ctx_##N##_get_nbi(shmem_ctx_t ctx, T *dest, const T *source, \
				     size_t nelems, int pe);		\
	void shmem_##N##_p(T *dest, T value, int pe);			\
	void shmem_ctx_##N##_p(shmem_ctx_t ctx, T *dest, T value, int pe); \
	T shmem_##N##_g(const T *source, int pe);			\
	T shmem_ctx_##N##_g(shmem_ctx_t ctx, const T *source, int pe);	\
	void shmem_##N##_iput(T *dest, const T *source, ptrdiff_t dst,	\
			      ptrdiff_t sst, size_t nelems, int pe);	\
	void shmem_ctx_##N##_iput(shmem_ctx_t ctx, T *dest, const T *source, \
				  ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe); \
	void shmem_##N##_iget(T *dest, const T *source, ptrdiff_t dst,	\
			      ptrdiff_t sst, size_t nelems, int pe);	\
	void shmem_ctx_##N##_iget(shmem_ctx_t ctx, T *dest, const T *source, \
				  ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe); \
	void shmem_##N##_put_signal(T *dest, const T *source, size_t nelems, \
				    uint64_t *sig_addr, uint64_t signal, \
				    int sig_op, int pe);		\
	void shmem_ctx_##N##_put_signal(shmem_ctx_t ctx, T *dest,	\
					const T *source, size_t nelems,	\
					uint64_t *sig_addr, uint64_t signal, \
					int sig_op, int pe);		\
	void shmem_##N##_put_signal_nbi(T *dest, const T *source, size_t nelems, \
					uint64_t *sig_addr, uint64_t signal, \
					int sig_op, int pe);		\
	void shmem_ctx_##N##_put_signal_nbi(shmem_ctx_t ctx, T *dest,	\
					    const T *source, size_t nelems, \
					    uint64_t *sig_addr, uint64_t signal, \
					    int sig_op, int pe);
SHMEMI_RMA_TYPES(SHMEMI_RMA_DECL)

#define SHMEMI_RMA_SIZED_DECL(S)					\
	void shmem_put##S(void *dest, const void *source, size_t nelems, int pe); \
	void shmem_ctx_put##S(shmem_ctx_t ctx, void *dest, const void *source, \
			      size_t nelems, int pe);			\
	void shmem_get##S(void *dest, const void *source, size_t nelems, int pe); \
	void shmem_ctx_get##S(shmem_ctx_t ctx, void *dest, const void *source, \
			      size_t nelems, int pe);			\
	void shmem_put##S##_nbi(void *dest, const void *source, size_t nelems, int pe); \
	void shmem_ctx_put##S##_nbi(shmem_ctx_t ctx, void *dest,	\
				    const void *source, size_t nelems, int pe); \
	void shmem_get##S##_nbi(void *dest, const void *source, size_t nelems, int pe); \
	void shmem_ctx_get##S##_nbi(shmem_ctx_t ctx, void *dest,	\
				    const void *source, size_t nelems, int pe); \
	void shmem_iput##S(void *dest, const void *source, ptrdiff_t dst, \
			   ptrdiff_t sst, size_t nelems, int pe);	\
	void shmem_ctx_iput##S(shmem_ctx_t ctx, void *dest, const void *source, \
			       ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe); \
	void shmem_iget##S(void *dest, const void *source, ptrdiff_t dst, \
			   ptrdiff_t sst, size_t nelems, int pe);	\
	void shmem_ctx_iget##S(shmem_ctx_t ctx, void *dest, const void *source, \
			       ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe); \
	void shmem_put##S##_signal(void *dest, const void *source, size_t nelems, \
				   uint64_t *sig_addr, uint64_t signal,	\
				   int sig_op, int pe);			\
	void shmem_ctx_put##S##_signal(shmem_ctx_t ctx, void *dest,	\
				       const void *source, size_t nelems, \
				       uint64_t *sig_addr, uint64_t signal, \
				       int sig_op, int pe);		\
	void shmem_put##S##_signal_nbi(void *dest, const void *source,	\
				       size_t nelems, uint64_t *sig_addr, \
				       uint64_t signal, int sig_op, int pe); \
	void shmem_ctx_put##S##_signal_nbi(shmem_ctx_t ctx, void *dest,	\
					   const void *source, size_t nelems, \
					   uint64_t *sig_addr, uint64_t signal, \
					   int sig_op, int pe);
SHMEMI_RMA_SIZES(SHMEMI_RMA_SIZED_DECL)

void shmem_putmem(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_putmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_getmem(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_getmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_putmem_nbi(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_putmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_getmem_nbi(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_getmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_putmem_signal(void *dest, const void *source, size_t nelems,
			 uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
void shmem_ctx_putmem_signal(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
			     uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
void shmem_putmem_signal_nbi(void *dest, const void *source, size_t nelems,
			     uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
void shmem_ctx_putmem_signal_nbi(shmem_ctx_t ctx, void *dest, const void *source,
				 size_t nelems, uint64_t *sig_addr, uint64_t signal,
				 int sig_op, int pe);

uint64_t shmem_signal_fetch(const uint64_t *sig_addr);

/* Atomic memory operations */

#define SHMEMI_AMO_EXT_DECL(T, N)					\
	T shmem_##N##_atomic_fetch(const T *source, int pe);		\
	T shmem_ctx_##N##_atomic_fetch(shmem_ctx_t ctx, const T *source, int pe); \
	void shmem_##N##_atomic_set(T *dest, T value, int pe);		\
	void shmem_ctx_##N##_atomic_set(shmem_ctx_t ctx, T *dest, T value, int pe); \
	T shmem_##N##_atomic_swap(T *dest, T value, int pe);		\
	T shmem_ctx_##N##_atomic_swap(shmem_ctx_t ctx, T *dest, T value, int pe); \
	void shmem_##N##_atomic_fetch_nbi(T *fetch, const T *source, int pe); \
	void shmem_ctx_##N##_atomic_fetch_nbi(shmem_ctx_t ctx, T *fetch, \
					      const T *source, int pe);	\
	void shmem_##N##_atomic_swap_nbi(T *fetch, T *dest, T value, int pe); \
	void shmem_ctx_##N##_atomic_swap_nbi(shmem_ctx_t ctx, T *fetch,	\
					     T *dest, T value, int pe);
SHMEMI_AMO_EXT_TYPES(SHMEMI_AMO_EXT_DECL)

#define SHMEMI_AMO_STD_DECL(T, N)					\
	T shmem_##N##_atomic_compare_swap(T *dest, T cond, T value, int pe); \
	T shmem_ctx_##N##_atomic_compare_swap(shmem_ctx_t ctx, T *dest,	\
					      T cond, T value, int pe);	\
	T shmem_##N##_atomic_fetch_inc(T *dest, int pe);		\
	T shmem_ctx_##N##_atomic_fetch_inc(shmem_ctx_t ctx, T *dest, int pe); \
	void shmem_##N##_atomic_inc(T *dest, int pe);			\
	void shmem_ctx_##N##_atomic_inc(shmem_ctx_t ctx, T *dest, int pe); \
	T shmem_##N##_atomic_fetch_add(T *dest, T value, int pe);	\
	T shmem_ctx_##N##_atomic_fetch_add(shmem_ctx_t ctx, T *dest, T value, int pe); \
	void shmem_##N##_atomic_add(T *dest, T value, int pe);		\
	void shmem_ctx_##N##_atomic_add(shmem_ctx_t ctx, T *dest, T value, int pe); \
	void shmem_##N##_atomic_compare_swap_nbi(T *fetch, T *dest, T cond, \
						 T value, int pe);	\
	void shmem_ctx_##N##_atomic_compare_swap_nbi(shmem_ctx_t ctx, T *fetch, \
						     T *dest, T cond, T value, int pe); \
	void shmem_##N##_atomic_fetch_inc_nbi(T *fetch, T *dest, int pe); \
	void shmem_ctx_##N##_atomic_fetch_inc_nbi(shmem_ctx_t ctx, T *fetch, \
						  T *dest, int pe);	\
	void shmem_##N##_atomic_fetch_add_nbi(T *fetch, T *dest, T value, int pe); \
	void shmem_ctx_##N##_atomic_fetch_add_nbi(shmem_ctx_t ctx, T *fetch, \
						  T *dest, T value, int pe);
SHMEMI_AMO_STD_TYPES(SHMEMI_AMO_STD_DECL)

#define SHMEMI_AMO_BIT_DECL(T, N)					\
	T shmem_##N##_atomic_fetch_and(T *dest, T value, int pe);	\
	T shmem_ctx_##N##_atomic_fetch_and(shmem_ctx_t ctx, T *dest, T value, int pe); \
	void shmem_##N##_atomic_and(T *dest, T value, int pe);		\
	void shmem_ctx_##N##_atomic_and(shmem_ctx_t ctx, T *dest, T value, int pe); \
	T shmem_##N##_atomic_fetch_or(T *dest, T value, int pe);	\
	T shmem_ctx_##N##_atomic_fetch_or(shmem_ctx_t ctx, T *dest, T value, int pe); \
	void shmem_##N##_atomic_or(T *dest, T value, int pe);		\
	void shmem_ctx_##N##_atomic_or(shmem_ctx_t ctx, T *dest, T value, int pe); \
	T shmem_##N##_atomic_fetch_xor(T *dest, T value, int pe);	\
	T shmem_ctx_##N##_atomic_fetch_xor(shmem_ctx_t ctx, T *dest, T value, int pe); \
	void shmem_##N##_atomic_xor(T *dest, T value, int pe);		\
	void shmem_ctx_##N##_atomic_xor(shmem_ctx_t ctx, T *dest, T value, int pe); \
	void shmem_##N##_atomic_fetch_and_nbi(T *fetch, T *dest, T value, int pe); \
	void shmem_ctx_##N##_atomic_fetch_and_nbi(shmem_ctx_t ctx, T *fetch, \
						  T *dest, T value, int pe); \
	void shmem_##N##_atomic_fetch_or_nbi(T *fetch, T *dest, T value, int pe); \
	void shmem_ctx_##N##_atomic_fetch_or_nbi(shmem_ctx_t ctx, T *fetch, \
						 T *dest, T value, int pe); \
	void shmem_##N##_atomic_fetch_xor_nbi(T *fetch, T *dest, T value, int pe); \
	void shmem_ctx_##N##_atomic_fetch_xor_nbi(shmem_ctx_t ctx, T *fetch, \
						  T *dest, T value, int pe);
SHMEMI_AMO_BIT_TYPES(SHMEMI_AMO_BIT_DECL)

/* Deprecated atomic names (OpenSHMEM 1.3 and earlier). */
#define SHMEMI_AMO_OLD_EXT_DECL(T, N)					\
	T shmem_##N##_fetch(const T *source, int pe);			\
	void shmem_##N##_set(T *dest, T value, int pe);			\
	T shmem_##N##_swap(T *dest, T value, int pe);
#define SHMEMI_AMO_OLD_EXT_TYPES(X)					\
	X(int, int) X(long, long) X(long long, longlong)		\
	X(float, float) X(double, double)
SHMEMI_AMO_OLD_EXT_TYPES(SHMEMI_AMO_OLD_EXT_DECL)

#define SHMEMI_AMO_OLD_STD_DECL(T, N)					\
	T shmem_##N##_cswap(T *dest, T cond, T value, int pe);		\
	T shmem_##N##_finc(T *dest, int pe);				\
	void shmem_##N##_inc(T *dest, int pe);				\
	T shmem_##N##_fadd(T *dest, T value, int pe);			\
	void shmem_##N##_add(T *dest, T value, int pe);
#define SHMEMI_AMO_OLD_STD_TYPES(X)					\
	X(int, int) X(long, long) X(long long, longlong)
SHMEMI_AMO_OLD_STD_TYPES(SHMEMI_AMO_OLD_STD_DECL)

long (shmem_swap)(long *dest, long value, int pe);

/* Memory ordering */

void shmem_fence(void);
void shmem_ctx_fence(shmem_ctx_t ctx);
void shmem_quiet(void);
void shmem_ctx_quiet(shmem_ctx_t ctx);

/* Point-to-point synchronization */

#define SHMEMI_P2P_DECL(T, N)						\
	void shmem_##N##_wait_until(T *ivar, int cmp, T cmp_value);	\
	void shmem_##N##_wait_until_all(T *ivars, size_t nelems,	\
					const int *status, int cmp, T cmp_value); \
	size_t shmem_##N##_wait_until_any(T *ivars, size_t nelems,	\
					  const int *status, int cmp, T cmp_value); \
	size_t shmem_##N##_wait_until_some(T *ivars, size_t nelems,	\
					   size_t *indices, const int *status, \
					   int cmp, T cmp_value);	\
	void shmem_##N##_wait_until_all_vector(T *ivars, size_t nelems,	\
					       const int *status, int cmp, \
					       T *cmp_values);		\
	size_t shmem_##N##_wait_until_any_vector(T *ivars, size_t nelems, \
						 const int *status, int cmp, \
						 T *cmp_values);	\
	size_t shmem_##N##_wait_until_some_vector(T *ivars, size_t nelems, \
						  size_t *indices,	\
						  const int *status, int cmp, \
						  T *cmp_values);	\
	int shmem_##N##_test(T *ivar, int cmp, T cmp_value);		\
	int shmem_##N##_test_all(T *ivars, size_t nelems, const int *status, \
				 int cmp, T cmp_value);			\
	size_t shmem_##N##_test_any(T *ivars, size_t nelems,		\
				    const int *status, int cmp, T cmp_value); \
	size_t shmem_##N##_test_some(T *ivars, size_t nelems, size_t *indices, \
				     const int *status, int cmp, T cmp_value); \
	int shmem_##N##_test_all_vector(T *ivars, size_t nelems,	\
					const int *status, int cmp, T *cmp_values); \
	size_t shmem_##N##_test_any_vector(T *ivars, size_t nelems,	\
					   const int *status, int cmp,	\
					   T *cmp_values);		\
	size_t shmem_##N##_test_some_vector(T *ivars, size_t nelems,	\
					    size_t *indices, const int *status, \
					    int cmp, T *cmp_values);
SHMEMI_P2P_TYPES(SHMEMI_P2P_DECL)

/* Deprecated: wait while *ivar == cmp_value. */
#define SHMEMI_P2P_OLD_DECL(T, N)					\
	void shmem_##N##_wait(T *ivar, T cmp_value);
#define SHMEMI_P2P_OLD_TYPES(X)						\
	X(short, short) X(int, int) X(long, long) X(long long, longlong)
SHMEMI_P2P_OLD_TYPES(SHMEMI_P2P_OLD_DECL)
void (shmem_wait)(long *ivar, long cmp_value);
void (shmem_wait_until)(long *ivar, int cmp, long cmp_value);

uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value);

/* Distributed locking */

void shmem_set_lock(long *lock);
void shmem_clear_lock(long *lock);
int shmem_test_lock(long *lock);

/* Collectives */

void shmem_barrier_all(void);
void shmem_sync_all(void);
int shmem_team_sync(shmem_team_t team);
void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync);
/* Active set; C11 programs may also call shmem_sync(team). */
void (shmem_sync)(int PE_start, int logPE_stride, int PE_size, long *pSync);

#define SHMEMI_COLL_DECL(T, N)						\
	int shmem_##N##_broadcast(shmem_team_t team, T *dest, const T *source, \
				  size_t nelems, int PE_root);		\
	int shmem_##N##_collect(shmem_team_t team, T *dest, const T *source, \
				size_t nelems);				\
	int shmem_##N##_fcollect(shmem_team_t team, T *dest, const T *source, \
				 size_t nelems);			\
	int shmem_##N##_alltoall(shmem_team_t team, T *dest, const T *source, \
				 size_t nelems);			\
	int shmem_##N##_alltoalls(shmem_team_t team, T *dest, const T *source, \
				  ptrdiff_t dst, ptrdiff_t sst, size_t nelems);
SHMEMI_RMA_TYPES(SHMEMI_COLL_DECL)

int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source, size_t nelems,
		       int PE_root);
int shmem_collectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_alltoallmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst,
		       ptrdiff_t sst, size_t nelems);

/* Deprecated active-set forms, still what most benchmarks call. */
#define SHMEMI_COLL_ACTIVE_DECL(S)					\
	void shmem_broadcast##S(void *dest, const void *source, size_t nelems, \
				int PE_root, int PE_start, int logPE_stride, \
				int PE_size, long *pSync);		\
	void shmem_collect##S(void *dest, const void *source, size_t nelems, \
			      int PE_start, int logPE_stride, int PE_size, \
			      long *pSync);				\
	void shmem_fcollect##S(void *dest, const void *source, size_t nelems, \
			       int PE_start, int logPE_stride, int PE_size, \
			       long *pSync);				\
	void shmem_alltoall##S(void *dest, const void *source, size_t nelems, \
			       int PE_start, int logPE_stride, int PE_size, \
			       long *pSync);				\
	void shmem_alltoalls##S(void *dest, const void *source, ptrdiff_t dst, \
				ptrdiff_t sst, size_t nelems, int PE_start, \
				int logPE_stride, int PE_size, long *pSync);
SHMEMI_COLL_ACTIVE_DECL(32)
SHMEMI_COLL_ACTIVE_DECL(64)

#define SHMEMI_REDUCE_DECL(T, N, OP)					\
	int shmem_##N##_##OP##_reduce(shmem_team_t team, T *dest,	\
				      const T *source, size_t nreduce);
#define SHMEMI_REDUCE_BIT_DECL(T, N)					\
	SHMEMI_REDUCE_DECL(T, N, and) SHMEMI_REDUCE_DECL(T, N, or)	\
	SHMEMI_REDUCE_DECL(T, N, xor)
#define SHMEMI_REDUCE_MINMAX_DECL(T, N)					\
	SHMEMI_REDUCE_DECL(T, N, max) SHMEMI_REDUCE_DECL(T, N, min)
#define SHMEMI_REDUCE_ARITH_DECL(T, N)					\
	SHMEMI_REDUCE_DECL(T, N, sum) SHMEMI_REDUCE_DECL(T, N, prod)
SHMEMI_REDUCE_BIT_TYPES(SHMEMI_REDUCE_BIT_DECL)
SHMEMI_REDUCE_MINMAX_TYPES(SHMEMI_REDUCE_MINMAX_DECL)
SHMEMI_REDUCE_ARITH_TYPES(SHMEMI_REDUCE_ARITH_DECL)

#define SHMEMI_TOALL_DECL(T, N, OP)					\
	void shmem_##N##_##OP##_to_all(T *dest, const T *source, int nreduce, \
				       int PE_start, int logPE_stride,	\
				       int PE_size, T *pWrk, long *pSync);
#define SHMEMI_TOALL_BIT_DECL(T, N)					\
	SHMEMI_TOALL_DECL(T, N, and) SHMEMI_TOALL_DECL(T, N, or)	\
	SHMEMI_TOALL_DECL(T, N, xor)
#define SHMEMI_TOALL_MINMAX_DECL(T, N)					\
	SHMEMI_TOALL_DECL(T, N, max) SHMEMI_TOALL_DECL(T, N, min)
#define SHMEMI_TOALL_ARITH_DECL(T, N)					\
	SHMEMI_TOALL_DECL(T, N, sum) SHMEMI_TOALL_DECL(T, N, prod)
SHMEMI_TOALL_BIT_TYPES(SHMEMI_TOALL_BIT_DECL)
SHMEMI_TOALL_MINMAX_TYPES(SHMEMI_TOALL_MINMAX_DECL)
SHMEMI_TOALL_ARITH_TYPES(SHMEMI_TOALL_ARITH_DECL)

/* Cache management: deprecated, and nothing to do where caches are coherent. */

void shmem_clear_cache_inv(void);
void shmem_set_cache_inv(void);
void shmem_clear_cache_line_inv(void *dest);
void shmem_set_cache_line_inv(void *dest);
void shmem_udcflush(void);
void shmem_udcflush_line(void *dest);

#ifdef __cplusplus
}
#endif

/*
 * The distinct C types of each generic family, X(A, B, TYPE, TYPENAME) with
 * A and B passed through: what the C11 selections and the C++ overloads
 * below pick from (int32_t is int here, so it has no entry of its own).
 */
#define SHMEMI_GT_RMA(X, A, B)						\
	X(A, B, float, float) X(A, B, double, double)			\
	X(A, B, long double, longdouble) X(A, B, char, char)		\
	X(A, B, signed char, schar) X(A, B, short, short)		\
	X(A, B, int, int) X(A, B, long, long)				\
	X(A, B, long long, longlong) X(A, B, unsigned char, uchar)	\
	X(A, B, unsigned short, ushort) X(A, B, unsigned int, uint)	\
	X(A, B, unsigned long, ulong)					\
	X(A, B, unsigned long long, ulonglong)
#define SHMEMI_GT_AMO_STD(X, A, B)					\
	X(A, B, int, int) X(A, B, long, long) X(A, B, long long, longlong) \
	X(A, B, unsigned int, uint) X(A, B, unsigned long, ulong)	\
	X(A, B, unsigned long long, ulonglong)
#define SHMEMI_GT_AMO_EXT(X, A, B)					\
	SHMEMI_GT_AMO_STD(X, A, B) X(A, B, float, float) X(A, B, double, double)
#define SHMEMI_GT_AMO_BIT(X, A, B)					\
	X(A, B, unsigned int, uint) X(A, B, unsigned long, ulong)	\
	X(A, B, unsigned long long, ulonglong) X(A, B, int, int32)	\
	X(A, B, long, int64)
#define SHMEMI_GT_P2P(X, A, B)						\
	X(A, B, short, short) X(A, B, int, int) X(A, B, long, long)	\
	X(A, B, long long, longlong) X(A, B, unsigned short, ushort)	\
	X(A, B, unsigned int, uint) X(A, B, unsigned long, ulong)	\
	X(A, B, unsigned long long, ulonglong)
#define SHMEMI_GT_REDUCE_BIT(X, A, B)					\
	X(A, B, unsigned char, uchar) X(A, B, unsigned short, ushort)	\
	X(A, B, unsigned int, uint) X(A, B, unsigned long, ulong)	\
	X(A, B, unsigned long long, ulonglong) X(A, B, signed char, int8) \
	X(A, B, short, int16) X(A, B, int, int32) X(A, B, long, int64)
#define SHMEMI_GT_REDUCE_MINMAX(X, A, B)				\
	X(A, B, char, char) X(A, B, signed char, schar) X(A, B, short, short) \
	X(A, B, int, int) X(A, B, long, long) X(A, B, long long, longlong) \
	X(A, B, unsigned char, uchar) X(A, B, unsigned short, ushort)	\
	X(A, B, unsigned int, uint) X(A, B, unsigned long, ulong)	\
	X(A, B, unsigned long long, ulonglong) X(A, B, float, float)	\
	X(A, B, double, double) X(A, B, long double, longdouble)
#define SHMEMI_GT_REDUCE_ARITH(X, A, B)					\
	SHMEMI_GT_REDUCE_MINMAX(X, A, B)				\
	X(A, B, double _Complex, complexd) X(A, B, float _Complex, complexf)
/* The deprecated generic atomics (OpenSHMEM 1.3) and shmem_wait. */
#define SHMEMI_GT_OLD_STD(X, A, B)					\
	X(A, B, int, int) X(A, B, long, long) X(A, B, long long, longlong)
#define SHMEMI_GT_OLD_EXT(X, A, B)					\
	SHMEMI_GT_OLD_STD(X, A, B) X(A, B, float, float) X(A, B, double, double)
#define SHMEMI_GT_OLD_P2P(X, A, B)					\
	X(A, B, short, short) SHMEMI_GT_OLD_STD(X, A, B)

/*
 * C11 generic selections.  A call with one argument more than the plain
 * form is the context form (shmem_put(ctx, dest, source, n, pe)); the
 * routine is picked from the type of *dest (or *source, *ivars), whose
 * qualifiers the selection drops.  GCC accepts _Generic before C11 too,
 * so -std=gnu99 programs get them as well.
 */
#if !defined(__cplusplus) && \
	((defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L) || defined(__GNUC__))

#define SHMEMI_NARG(...)	SHMEMI_NARG_(__VA_ARGS__, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define SHMEMI_NARG_(_1, _2, _3, _4, _5, _6, _7, _8, _9, N, ...) N
#define SHMEMI_CAT(a, b)	SHMEMI_CAT_(a, b)
#define SHMEMI_CAT_(a, b)	a##b
/* NAME_<argument count>(args) */
#define SHMEMI_BY_NARG(NAME, ...) SHMEMI_CAT(NAME, SHMEMI_NARG(__VA_ARGS__))(__VA_ARGS__)

/* Association lists: P##TYPENAME##S for each C type of a generic family.
 * The member nobody can pass ends the list, so every type adds "T: F,". */
struct shmemi_no_type { char c; };
#define SHMEMI_GA(P, S, T, N)		T: P##N##S,
#define SHMEMI_G_RMA(P, S)	SHMEMI_GT_RMA(SHMEMI_GA, P, S) struct shmemi_no_type: 0
#define SHMEMI_G_AMO_STD(P, S)	SHMEMI_GT_AMO_STD(SHMEMI_GA, P, S) struct shmemi_no_type: 0
#define SHMEMI_G_AMO_EXT(P, S)	SHMEMI_GT_AMO_EXT(SHMEMI_GA, P, S) struct shmemi_no_type: 0
#define SHMEMI_G_AMO_BIT(P, S)	SHMEMI_GT_AMO_BIT(SHMEMI_GA, P, S) struct shmemi_no_type: 0
#define SHMEMI_G_P2P(P, S)	SHMEMI_GT_P2P(SHMEMI_GA, P, S) struct shmemi_no_type: 0
#define SHMEMI_G_REDUCE_BIT(P, S) SHMEMI_GT_REDUCE_BIT(SHMEMI_GA, P, S) struct shmemi_no_type: 0
#define SHMEMI_G_REDUCE_MINMAX(P, S) \
	SHMEMI_GT_REDUCE_MINMAX(SHMEMI_GA, P, S) struct shmemi_no_type: 0
#define SHMEMI_G_REDUCE_ARITH(P, S) \
	SHMEMI_GT_REDUCE_ARITH(SHMEMI_GA, P, S) struct shmemi_no_type: 0
#define SHMEMI_G_OLD_EXT(P, S)	SHMEMI_GT_OLD_EXT(SHMEMI_GA, P, S) struct shmemi_no_type: 0
#define SHMEMI_G_OLD_STD(P, S)	SHMEMI_GT_OLD_STD(SHMEMI_GA, P, S) struct shmemi_no_type: 0
#define SHMEMI_G_OLD_P2P(P, S)	SHMEMI_GT_OLD_P2P(SHMEMI_GA, P, S) struct shmemi_no_type: 0

/* RMA: plain form selects on its first argument, context form on its second. */
#define SHMEMI_G1(LIST, S, X)		_Generic(*(X), LIST(shmem_, S))
#define SHMEMI_GC(LIST, S, X)		_Generic(*(X), LIST(shmem_ctx_, S))

#define shmem_put(...)		SHMEMI_BY_NARG(SHMEMI_PUT_, __VA_ARGS__)
#define SHMEMI_PUT_4(d, s, n, pe)	SHMEMI_G1(SHMEMI_G_RMA, _put, d)(d, s, n, pe)
#define SHMEMI_PUT_5(c, d, s, n, pe)	SHMEMI_GC(SHMEMI_G_RMA, _put, d)(c, d, s, n, pe)
#define shmem_get(...)		SHMEMI_BY_NARG(SHMEMI_GET_, __VA_ARGS__)
#define SHMEMI_GET_4(d, s, n, pe)	SHMEMI_G1(SHMEMI_G_RMA, _get, d)(d, s, n, pe)
#define SHMEMI_GET_5(c, d, s, n, pe)	SHMEMI_GC(SHMEMI_G_RMA, _get, d)(c, d, s, n, pe)
#define shmem_put_nbi(...)	SHMEMI_BY_NARG(SHMEMI_PUT_NBI_, __VA_ARGS__)
#define SHMEMI_PUT_NBI_4(d, s, n, pe)	SHMEMI_G1(SHMEMI_G_RMA, _put_nbi, d)(d, s, n, pe)
#define SHMEMI_PUT_NBI_5(c, d, s, n, pe) \
	SHMEMI_GC(SHMEMI_G_RMA, _put_nbi, d)(c, d, s, n, pe)
#define shmem_get_nbi(...)	SHMEMI_BY_NARG(SHMEMI_GET_NBI_, __VA_ARGS__)
#define SHMEMI_GET_NBI_4(d, s, n, pe)	SHMEMI_G1(SHMEMI_G_RMA, _get_nbi, d)(d, s, n, pe)
#define SHMEMI_GET_NBI_5(c, d, s, n, pe) \
	SHMEMI_GC(SHMEMI_G_RMA, _get_nbi, d)(c, d, s, n, pe)
#define shmem_p(...)		SHMEMI_BY_NARG(SHMEMI_P_, __VA_ARGS__)
#define SHMEMI_P_3(d, v, pe)		SHMEMI_G1(SHMEMI_G_RMA, _p, d)(d, v, pe)
#define SHMEMI_P_4(c, d, v, pe)		SHMEMI_GC(SHMEMI_G_RMA, _p, d)(c, d, v, pe)
#define shmem_g(...)		SHMEMI_BY_NARG(SHMEMI_GG_, __VA_ARGS__)
#define SHMEMI_GG_2(s, pe)		SHMEMI_G1(SHMEMI_G_RMA, _g, s)(s, pe)
#define SHMEMI_GG_3(c, s, pe)		SHMEMI_GC(SHMEMI_G_RMA, _g, s)(c, s, pe)
#define shmem_iput(...)		SHMEMI_BY_NARG(SHMEMI_IPUT_, __VA_ARGS__)
#define SHMEMI_IPUT_6(d, s, ds, ss, n, pe) \
	SHMEMI_G1(SHMEMI_G_RMA, _iput, d)(d, s, ds, ss, n, pe)
#define SHMEMI_IPUT_7(c, d, s, ds, ss, n, pe) \
	SHMEMI_GC(SHMEMI_G_RMA, _iput, d)(c, d, s, ds, ss, n, pe)
#define shmem_iget(...)		SHMEMI_BY_NARG(SHMEMI_IGET_, __VA_ARGS__)
#define SHMEMI_IGET_6(d, s, ds, ss, n, pe) \
	SHMEMI_G1(SHMEMI_G_RMA, _iget, d)(d, s, ds, ss, n, pe)
#define SHMEMI_IGET_7(c, d, s, ds, ss, n, pe) \
	SHMEMI_GC(SHMEMI_G_RMA, _iget, d)(c, d, s, ds, ss, n, pe)
#define shmem_put_signal(...)	SHMEMI_BY_NARG(SHMEMI_PUT_SIGNAL_, __VA_ARGS__)
#define SHMEMI_PUT_SIGNAL_7(d, s, n, a, v, op, pe) \
	SHMEMI_G1(SHMEMI_G_RMA, _put_signal, d)(d, s, n, a, v, op, pe)
#define SHMEMI_PUT_SIGNAL_8(c, d, s, n, a, v, op, pe) \
	SHMEMI_GC(SHMEMI_G_RMA, _put_signal, d)(c, d, s, n, a, v, op, pe)
#define shmem_put_signal_nbi(...) SHMEMI_BY_NARG(SHMEMI_PUT_SIGNAL_NBI_, __VA_ARGS__)
#define SHMEMI_PUT_SIGNAL_NBI_7(d, s, n, a, v, op, pe) \
	SHMEMI_G1(SHMEMI_G_RMA, _put_signal_nbi, d)(d, s, n, a, v, op, pe)
#define SHMEMI_PUT_SIGNAL_NBI_8(c, d, s, n, a, v, op, pe) \
	SHMEMI_GC(SHMEMI_G_RMA, _put_signal_nbi, d)(c, d, s, n, a, v, op, pe)

/* Atomics, as shmem_atomic_<op>: the arguments after dest go through. */
#define SHMEMI_AMO_G(LIST, OP, NPLAIN, ...)				\
	SHMEMI_CAT(SHMEMI_AMO_G_, SHMEMI_CAT(NPLAIN, SHMEMI_NARG(__VA_ARGS__))) \
		(LIST, OP, __VA_ARGS__)
/* plain form with 2, 3 or 4 arguments, or one more for the context */
#define SHMEMI_AMO_G_22(L, OP, d, ...)	   _Generic(*(d), L(shmem_, _atomic_##OP))(d, __VA_ARGS__)
#define SHMEMI_AMO_G_23(L, OP, c, d, ...)  _Generic(*(d), L(shmem_ctx_, _atomic_##OP))(c, d, __VA_ARGS__)
#define SHMEMI_AMO_G_33(L, OP, d, ...)	   _Generic(*(d), L(shmem_, _atomic_##OP))(d, __VA_ARGS__)
#define SHMEMI_AMO_G_34(L, OP, c, d, ...)  _Generic(*(d), L(shmem_ctx_, _atomic_##OP))(c, d, __VA_ARGS__)
#define SHMEMI_AMO_G_44(L, OP, d, ...)	   _Generic(*(d), L(shmem_, _atomic_##OP))(d, __VA_ARGS__)
#define SHMEMI_AMO_G_45(L, OP, c, d, ...)  _Generic(*(d), L(shmem_ctx_, _atomic_##OP))(c, d, __VA_ARGS__)
/* The _nbi forms select on dest, their second (third with a context) argument. */
#define SHMEMI_AMO_NBI_G(LIST, OP, NPLAIN, ...)				\
	SHMEMI_CAT(SHMEMI_AMO_NBI_G_, SHMEMI_CAT(NPLAIN, SHMEMI_NARG(__VA_ARGS__))) \
		(LIST, OP, __VA_ARGS__)
#define SHMEMI_AMO_NBI_G_33(L, OP, f, d, ...) \
	_Generic(*(d), L(shmem_, _atomic_##OP))(f, d, __VA_ARGS__)
#define SHMEMI_AMO_NBI_G_34(L, OP, c, f, d, ...) \
	_Generic(*(d), L(shmem_ctx_, _atomic_##OP))(c, f, d, __VA_ARGS__)
#define SHMEMI_AMO_NBI_G_44(L, OP, f, d, ...) \
	_Generic(*(d), L(shmem_, _atomic_##OP))(f, d, __VA_ARGS__)
#define SHMEMI_AMO_NBI_G_45(L, OP, c, f, d, ...) \
	_Generic(*(d), L(shmem_ctx_, _atomic_##OP))(c, f, d, __VA_ARGS__)
#define SHMEMI_AMO_NBI_G_55(L, OP, f, d, ...) \
	_Generic(*(d), L(shmem_, _atomic_##OP))(f, d, __VA_ARGS__)
#define SHMEMI_AMO_NBI_G_56(L, OP, c, f, d, ...) \
	_Generic(*(d), L(shmem_ctx_, _atomic_##OP))(c, f, d, __VA_ARGS__)

#define shmem_atomic_fetch(...)	SHMEMI_AMO_G(SHMEMI_G_AMO_EXT, fetch, 2, __VA_ARGS__)
#define shmem_atomic_set(...)	SHMEMI_AMO_G(SHMEMI_G_AMO_EXT, set, 3, __VA_ARGS__)
#define shmem_atomic_swap(...)	SHMEMI_AMO_G(SHMEMI_G_AMO_EXT, swap, 3, __VA_ARGS__)
#define shmem_atomic_compare_swap(...) \
	SHMEMI_AMO_G(SHMEMI_G_AMO_STD, compare_swap, 4, __VA_ARGS__)
#define shmem_atomic_fetch_inc(...) SHMEMI_AMO_G(SHMEMI_G_AMO_STD, fetch_inc, 2, __VA_ARGS__)
#define shmem_atomic_inc(...)	SHMEMI_AMO_G(SHMEMI_G_AMO_STD, inc, 2, __VA_ARGS__)
#define shmem_atomic_fetch_add(...) SHMEMI_AMO_G(SHMEMI_G_AMO_STD, fetch_add, 3, __VA_ARGS__)
#define shmem_atomic_add(...)	SHMEMI_AMO_G(SHMEMI_G_AMO_STD, add, 3, __VA_ARGS__)
#define shmem_atomic_fetch_and(...) SHMEMI_AMO_G(SHMEMI_G_AMO_BIT, fetch_and, 3, __VA_ARGS__)
#define shmem_atomic_and(...)	SHMEMI_AMO_G(SHMEMI_G_AMO_BIT, and, 3, __VA_ARGS__)
#define shmem_atomic_fetch_or(...) SHMEMI_AMO_G(SHMEMI_G_AMO_BIT, fetch_or, 3, __VA_ARGS__)
#define shmem_atomic_or(...)	SHMEMI_AMO_G(SHMEMI_G_AMO_BIT, or, 3, __VA_ARGS__)
#define shmem_atomic_fetch_xor(...) SHMEMI_AMO_G(SHMEMI_G_AMO_BIT, fetch_xor, 3, __VA_ARGS__)
#define shmem_atomic_xor(...)	SHMEMI_AMO_G(SHMEMI_G_AMO_BIT, xor, 3, __VA_ARGS__)
#define shmem_atomic_fetch_nbi(...) \
	SHMEMI_AMO_NBI_G(SHMEMI_G_AMO_EXT, fetch_nbi, 3, __VA_ARGS__)
#define shmem_atomic_swap_nbi(...) \
	SHMEMI_AMO_NBI_G(SHMEMI_G_AMO_EXT, swap_nbi, 4, __VA_ARGS__)
#define shmem_atomic_compare_swap_nbi(...) \
	SHMEMI_AMO_NBI_G(SHMEMI_G_AMO_STD, compare_swap_nbi, 5, __VA_ARGS__)
#define shmem_atomic_fetch_inc_nbi(...) \
	SHMEMI_AMO_NBI_G(SHMEMI_G_AMO_STD, fetch_inc_nbi, 3, __VA_ARGS__)
#define shmem_atomic_fetch_add_nbi(...) \
	SHMEMI_AMO_NBI_G(SHMEMI_G_AMO_STD, fetch_add_nbi, 4, __VA_ARGS__)
#define shmem_atomic_fetch_and_nbi(...) \
	SHMEMI_AMO_NBI_G(SHMEMI_G_AMO_BIT, fetch_and_nbi, 4, __VA_ARGS__)
#define shmem_atomic_fetch_or_nbi(...) \
	SHMEMI_AMO_NBI_G(SHMEMI_G_AMO_BIT, fetch_or_nbi, 4, __VA_ARGS__)
#define shmem_atomic_fetch_xor_nbi(...) \
	SHMEMI_AMO_NBI_G(SHMEMI_G_AMO_BIT, fetch_xor_nbi, 4, __VA_ARGS__)

/* Deprecated generic atomics (OpenSHMEM 1.3). */
#define shmem_fetch(s, pe)		_Generic(*(s), SHMEMI_G_OLD_EXT(shmem_, _fetch))(s, pe)
#define shmem_set(d, v, pe)		_Generic(*(d), SHMEMI_G_OLD_EXT(shmem_, _set))(d, v, pe)
#define shmem_swap(d, v, pe)		_Generic(*(d), SHMEMI_G_OLD_EXT(shmem_, _swap))(d, v, pe)
#define shmem_cswap(d, c, v, pe)	_Generic(*(d), SHMEMI_G_OLD_STD(shmem_, _cswap))(d, c, v, pe)
#define shmem_finc(d, pe)		_Generic(*(d), SHMEMI_G_OLD_STD(shmem_, _finc))(d, pe)
#define shmem_inc(d, pe)		_Generic(*(d), SHMEMI_G_OLD_STD(shmem_, _inc))(d, pe)
#define shmem_fadd(d, v, pe)		_Generic(*(d), SHMEMI_G_OLD_STD(shmem_, _fadd))(d, v, pe)
#define shmem_add(d, v, pe)		_Generic(*(d), SHMEMI_G_OLD_STD(shmem_, _add))(d, v, pe)

/* Point-to-point synchronization */
#define SHMEMI_P2P_G(S, X)	_Generic(*(X), SHMEMI_G_P2P(shmem_, S))
#define shmem_wait_until(v, ...)	SHMEMI_P2P_G(_wait_until, v)(v, __VA_ARGS__)
#define shmem_wait_until_all(v, ...)	SHMEMI_P2P_G(_wait_until_all, v)(v, __VA_ARGS__)
#define shmem_wait_until_any(v, ...)	SHMEMI_P2P_G(_wait_until_any, v)(v, __VA_ARGS__)
#define shmem_wait_until_some(v, ...)	SHMEMI_P2P_G(_wait_until_some, v)(v, __VA_ARGS__)
#define shmem_wait_until_all_vector(v, ...) \
	SHMEMI_P2P_G(_wait_until_all_vector, v)(v, __VA_ARGS__)
#define shmem_wait_until_any_vector(v, ...) \
	SHMEMI_P2P_G(_wait_until_any_vector, v)(v, __VA_ARGS__)
#define shmem_wait_until_some_vector(v, ...) \
	SHMEMI_P2P_G(_wait_until_some_vector, v)(v, __VA_ARGS__)
#define shmem_test(v, ...)		SHMEMI_P2P_G(_test, v)(v, __VA_ARGS__)
#define shmem_test_all(v, ...)		SHMEMI_P2P_G(_test_all, v)(v, __VA_ARGS__)
#define shmem_test_any(v, ...)		SHMEMI_P2P_G(_test_any, v)(v, __VA_ARGS__)
#define shmem_test_some(v, ...)		SHMEMI_P2P_G(_test_some, v)(v, __VA_ARGS__)
#define shmem_test_all_vector(v, ...)	SHMEMI_P2P_G(_test_all_vector, v)(v, __VA_ARGS__)
#define shmem_test_any_vector(v, ...)	SHMEMI_P2P_G(_test_any_vector, v)(v, __VA_ARGS__)
#define shmem_test_some_vector(v, ...)	SHMEMI_P2P_G(_test_some_vector, v)(v, __VA_ARGS__)
#define shmem_wait(v, cmp_value)					\
	_Generic(*(v), SHMEMI_G_OLD_P2P(shmem_, _wait))(v, cmp_value)

/* Collectives on teams */
#define shmem_sync(...)			SHMEMI_BY_NARG(SHMEMI_SYNC_, __VA_ARGS__)
#define SHMEMI_SYNC_1(t)		shmem_team_sync(t)
#define SHMEMI_SYNC_4(s, l, n, p)	(shmem_sync)(s, l, n, p)
#define SHMEMI_COLL_G(S, X)	_Generic(*(X), SHMEMI_G_RMA(shmem_, S))
#define shmem_broadcast(t, d, ...)	SHMEMI_COLL_G(_broadcast, d)(t, d, __VA_ARGS__)
#define shmem_collect(t, d, ...)	SHMEMI_COLL_G(_collect, d)(t, d, __VA_ARGS__)
#define shmem_fcollect(t, d, ...)	SHMEMI_COLL_G(_fcollect, d)(t, d, __VA_ARGS__)
#define shmem_alltoall(t, d, ...)	SHMEMI_COLL_G(_alltoall, d)(t, d, __VA_ARGS__)
#define shmem_alltoalls(t, d, ...)	SHMEMI_COLL_G(_alltoalls, d)(t, d, __VA_ARGS__)
#define shmem_and_reduce(t, d, ...) \
	_Generic(*(d), SHMEMI_G_REDUCE_BIT(shmem_, _and_reduce))(t, d, __VA_ARGS__)
#define shmem_or_reduce(t, d, ...) \
	_Generic(*(d), SHMEMI_G_REDUCE_BIT(shmem_, _or_reduce))(t, d, __VA_ARGS__)
#define shmem_xor_reduce(t, d, ...) \
	_Generic(*(d), SHMEMI_G_REDUCE_BIT(shmem_, _xor_reduce))(t, d, __VA_ARGS__)
#define shmem_max_reduce(t, d, ...) \
	_Generic(*(d), SHMEMI_G_REDUCE_MINMAX(shmem_, _max_reduce))(t, d, __VA_ARGS__)
#define shmem_min_reduce(t, d, ...) \
	_Generic(*(d), SHMEMI_G_REDUCE_MINMAX(shmem_, _min_reduce))(t, d, __VA_ARGS__)
#define shmem_sum_reduce(t, d, ...) \
	_Generic(*(d), SHMEMI_G_REDUCE_ARITH(shmem_, _sum_reduce))(t, d, __VA_ARGS__)
#define shmem_prod_reduce(t, d, ...) \
	_Generic(*(d), SHMEMI_G_REDUCE_ARITH(shmem_, _prod_reduce))(t, d, __VA_ARGS__)

#endif /* C11 */


/*
 * C++: the generic names as overloads over the same types.  OpenSHMEM 1.5
 * defines them for C11 only; Sandia OpenSHMEM has them in C++ too, and C++
 * codes written for it call them.  A context form is the plain one with
 * the context first.  The long forms of shmem_swap, shmem_wait and
 * shmem_wait_until are the C functions of those names, declared above.
 */
#if defined(__cplusplus)

#define SHMEMI_CXX_ARGS(...)		__VA_ARGS__
/* shmem<S>(P) calls shmem_<N><S>(A) */
#define SHMEMI_CXX_F(R, S, N, P, A)					\
	static inline R shmem##S P { return shmem_##N##S A; }
/* ... and shmem<S>(ctx, P) calls shmem_ctx_<N><S>(ctx, A) */
#define SHMEMI_CXX_FC(R, S, N, P, A)					\
	SHMEMI_CXX_F(R, S, N, P, A)					\
	static inline R shmem##S(shmem_ctx_t ctx, SHMEMI_CXX_ARGS P)	\
	{ return shmem_ctx_##N##S(ctx, SHMEMI_CXX_ARGS A); }
/* Expands its argument unless N is long (a C function has that form). */
#define SHMEMI_CXX_NOT_LONG(N, ...)	SHMEMI_CXX_NOT_LONG_##N(__VA_ARGS__)
#define SHMEMI_CXX_NOT_LONG_long(...)
#define SHMEMI_CXX_NOT_LONG_short(...)	__VA_ARGS__
#define SHMEMI_CXX_NOT_LONG_int(...)	__VA_ARGS__
#define SHMEMI_CXX_NOT_LONG_longlong(...) __VA_ARGS__
#define SHMEMI_CXX_NOT_LONG_ushort(...)	__VA_ARGS__
#define SHMEMI_CXX_NOT_LONG_uint(...)	__VA_ARGS__
#define SHMEMI_CXX_NOT_LONG_ulong(...)	__VA_ARGS__
#define SHMEMI_CXX_NOT_LONG_ulonglong(...) __VA_ARGS__
#define SHMEMI_CXX_NOT_LONG_float(...)	__VA_ARGS__
#define SHMEMI_CXX_NOT_LONG_double(...)	__VA_ARGS__

#define SHMEMI_CXX_RMA(A, B, T, N)					\
	SHMEMI_CXX_FC(void, _put, N, (T *d, const T *s, size_t n, int pe), (d, s, n, pe)) \
	SHMEMI_CXX_FC(void, _get, N, (T *d, const T *s, size_t n, int pe), (d, s, n, pe)) \
	SHMEMI_CXX_FC(void, _put_nbi, N, (T *d, const T *s, size_t n, int pe), \
		      (d, s, n, pe))					\
	SHMEMI_CXX_FC(void, _get_nbi, N, (T *d, const T *s, size_t n, int pe), \
		      (d, s, n, pe))					\
	SHMEMI_CXX_FC(void, _p, N, (T *d, T v, int pe), (d, v, pe))	\
	SHMEMI_CXX_FC(T, _g, N, (const T *s, int pe), (s, pe))		\
	SHMEMI_CXX_FC(void, _iput, N, (T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, \
				       size_t n, int pe), (d, s, dst, sst, n, pe)) \
	SHMEMI_CXX_FC(void, _iget, N, (T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, \
				       size_t n, int pe), (d, s, dst, sst, n, pe)) \
	SHMEMI_CXX_FC(void, _put_signal, N, (T *d, const T *s, size_t n, uint64_t *sig, \
					     uint64_t sv, int op, int pe), \
		      (d, s, n, sig, sv, op, pe))			\
	SHMEMI_CXX_FC(void, _put_signal_nbi, N, (T *d, const T *s, size_t n, uint64_t *sig, \
						 uint64_t sv, int op, int pe), \
		      (d, s, n, sig, sv, op, pe))			\
	SHMEMI_CXX_F(int, _broadcast, N, (shmem_team_t t, T *d, const T *s, size_t n, \
					  int root), (t, d, s, n, root)) \
	SHMEMI_CXX_F(int, _collect, N, (shmem_team_t t, T *d, const T *s, size_t n), \
		     (t, d, s, n))					\
	SHMEMI_CXX_F(int, _fcollect, N, (shmem_team_t t, T *d, const T *s, size_t n), \
		     (t, d, s, n))					\
	SHMEMI_CXX_F(int, _alltoall, N, (shmem_team_t t, T *d, const T *s, size_t n), \
		     (t, d, s, n))					\
	SHMEMI_CXX_F(int, _alltoalls, N, (shmem_team_t t, T *d, const T *s, ptrdiff_t dst, \
					  ptrdiff_t sst, size_t n), (t, d, s, dst, sst, n))
SHMEMI_GT_RMA(SHMEMI_CXX_RMA, , )

#define SHMEMI_CXX_AMO_EXT(A, B, T, N)					\
	SHMEMI_CXX_FC(T, _atomic_fetch, N, (const T *s, int pe), (s, pe)) \
	SHMEMI_CXX_FC(void, _atomic_set, N, (T *d, T v, int pe), (d, v, pe)) \
	SHMEMI_CXX_FC(T, _atomic_swap, N, (T *d, T v, int pe), (d, v, pe)) \
	SHMEMI_CXX_FC(void, _atomic_fetch_nbi, N, (T *f, const T *s, int pe), (f, s, pe)) \
	SHMEMI_CXX_FC(void, _atomic_swap_nbi, N, (T *f, T *d, T v, int pe), (f, d, v, pe))
SHMEMI_GT_AMO_EXT(SHMEMI_CXX_AMO_EXT, , )

#define SHMEMI_CXX_AMO_STD(A, B, T, N)					\
	SHMEMI_CXX_FC(T, _atomic_compare_swap, N, (T *d, T c, T v, int pe), (d, c, v, pe)) \
	SHMEMI_CXX_FC(T, _atomic_fetch_inc, N, (T *d, int pe), (d, pe))	\
	SHMEMI_CXX_FC(void, _atomic_inc, N, (T *d, int pe), (d, pe))	\
	SHMEMI_CXX_FC(T, _atomic_fetch_add, N, (T *d, T v, int pe), (d, v, pe)) \
	SHMEMI_CXX_FC(void, _atomic_add, N, (T *d, T v, int pe), (d, v, pe)) \
	SHMEMI_CXX_FC(void, _atomic_compare_swap_nbi, N, (T *f, T *d, T c, T v, int pe), \
		      (f, d, c, v, pe))					\
	SHMEMI_CXX_FC(void, _atomic_fetch_inc_nbi, N, (T *f, T *d, int pe), (f, d, pe)) \
	SHMEMI_CXX_FC(void, _atomic_fetch_add_nbi, N, (T *f, T *d, T v, int pe), \
		      (f, d, v, pe))
SHMEMI_GT_AMO_STD(SHMEMI_CXX_AMO_STD, , )

#define SHMEMI_CXX_AMO_BIT(A, B, T, N)					\
	SHMEMI_CXX_FC(T, _atomic_fetch_and, N, (T *d, T v, int pe), (d, v, pe)) \
	SHMEMI_CXX_FC(void, _atomic_and, N, (T *d, T v, int pe), (d, v, pe)) \
	SHMEMI_CXX_FC(T, _atomic_fetch_or, N, (T *d, T v, int pe), (d, v, pe)) \
	SHMEMI_CXX_FC(void, _atomic_or, N, (T *d, T v, int pe), (d, v, pe)) \
	SHMEMI_CXX_FC(T, _atomic_fetch_xor, N, (T *d, T v, int pe), (d, v, pe)) \
	SHMEMI_CXX_FC(void, _atomic_xor, N, (T *d, T v, int pe), (d, v, pe)) \
	SHMEMI_CXX_FC(void, _atomic_fetch_and_nbi, N, (T *f, T *d, T v, int pe), \
		      (f, d, v, pe))					\
	SHMEMI_CXX_FC(void, _atomic_fetch_or_nbi, N, (T *f, T *d, T v, int pe), \
		      (f, d, v, pe))					\
	SHMEMI_CXX_FC(void, _atomic_fetch_xor_nbi, N, (T *f, T *d, T v, int pe), \
		      (f, d, v, pe))
SHMEMI_GT_AMO_BIT(SHMEMI_CXX_AMO_BIT, , )

#define SHMEMI_CXX_OLD_EXT(A, B, T, N)					\
	SHMEMI_CXX_F(T, _fetch, N, (const T *s, int pe), (s, pe))	\
	SHMEMI_CXX_F(void, _set, N, (T *d, T v, int pe), (d, v, pe))	\
	SHMEMI_CXX_NOT_LONG(N, SHMEMI_CXX_F(T, _swap, N, (T *d, T v, int pe), (d, v, pe)))
SHMEMI_GT_OLD_EXT(SHMEMI_CXX_OLD_EXT, , )

#define SHMEMI_CXX_OLD_STD(A, B, T, N)					\
	SHMEMI_CXX_F(T, _cswap, N, (T *d, T c, T v, int pe), (d, c, v, pe)) \
	SHMEMI_CXX_F(T, _finc, N, (T *d, int pe), (d, pe))		\
	SHMEMI_CXX_F(void, _inc, N, (T *d, int pe), (d, pe))		\
	SHMEMI_CXX_F(T, _fadd, N, (T *d, T v, int pe), (d, v, pe))	\
	SHMEMI_CXX_F(void, _add, N, (T *d, T v, int pe), (d, v, pe))
SHMEMI_GT_OLD_STD(SHMEMI_CXX_OLD_STD, , )

#define SHMEMI_CXX_OLD_P2P(A, B, T, N)					\
	SHMEMI_CXX_NOT_LONG(N, SHMEMI_CXX_F(void, _wait, N, (T *v, T c), (v, c)))
SHMEMI_GT_OLD_P2P(SHMEMI_CXX_OLD_P2P, , )

#define SHMEMI_CXX_P2P(A, B, T, N)					\
	SHMEMI_CXX_NOT_LONG(N, SHMEMI_CXX_F(void, _wait_until, N, (T *v, int cmp, T c), \
					    (v, cmp, c)))			\
	SHMEMI_CXX_F(void, _wait_until_all, N, (T *v, size_t n, const int *st, int cmp, T c), \
		     (v, n, st, cmp, c))				\
	SHMEMI_CXX_F(size_t, _wait_until_any, N,			\
		     (T *v, size_t n, const int *st, int cmp, T c), (v, n, st, cmp, c)) \
	SHMEMI_CXX_F(size_t, _wait_until_some, N,			\
		     (T *v, size_t n, size_t *ix, const int *st, int cmp, T c), \
		     (v, n, ix, st, cmp, c))				\
	SHMEMI_CXX_F(void, _wait_until_all_vector, N,			\
		     (T *v, size_t n, const int *st, int cmp, T *c), (v, n, st, cmp, c)) \
	SHMEMI_CXX_F(size_t, _wait_until_any_vector, N,			\
		     (T *v, size_t n, const int *st, int cmp, T *c), (v, n, st, cmp, c)) \
	SHMEMI_CXX_F(size_t, _wait_until_some_vector, N,		\
		     (T *v, size_t n, size_t *ix, const int *st, int cmp, T *c), \
		     (v, n, ix, st, cmp, c))				\
	SHMEMI_CXX_F(int, _test, N, (T *v, int cmp, T c), (v, cmp, c))	\
	SHMEMI_CXX_F(int, _test_all, N, (T *v, size_t n, const int *st, int cmp, T c), \
		     (v, n, st, cmp, c))				\
	SHMEMI_CXX_F(size_t, _test_any, N, (T *v, size_t n, const int *st, int cmp, T c), \
		     (v, n, st, cmp, c))				\
	SHMEMI_CXX_F(size_t, _test_some, N,				\
		     (T *v, size_t n, size_t *ix, const int *st, int cmp, T c), \
		     (v, n, ix, st, cmp, c))				\
	SHMEMI_CXX_F(int, _test_all_vector, N,				\
		     (T *v, size_t n, const int *st, int cmp, T *c), (v, n, st, cmp, c)) \
	SHMEMI_CXX_F(size_t, _test_any_vector, N,			\
		     (T *v, size_t n, const int *st, int cmp, T *c), (v, n, st, cmp, c)) \
	SHMEMI_CXX_F(size_t, _test_some_vector, N,			\
		     (T *v, size_t n, size_t *ix, const int *st, int cmp, T *c), \
		     (v, n, ix, st, cmp, c))
SHMEMI_GT_P2P(SHMEMI_CXX_P2P, , )

/* shmem_<OP>_reduce(team, dest, source, nreduce) */
#define SHMEMI_CXX_REDUCE(OP, B, T, N)					\
	SHMEMI_CXX_F(int, _##OP##_reduce, N, (shmem_team_t t, T *d, const T *s, size_t n), \
		     (t, d, s, n))
SHMEMI_GT_REDUCE_BIT(SHMEMI_CXX_REDUCE, and, )
SHMEMI_GT_REDUCE_BIT(SHMEMI_CXX_REDUCE, or, )
SHMEMI_GT_REDUCE_BIT(SHMEMI_CXX_REDUCE, xor, )
SHMEMI_GT_REDUCE_MINMAX(SHMEMI_CXX_REDUCE, max, )
SHMEMI_GT_REDUCE_MINMAX(SHMEMI_CXX_REDUCE, min, )
SHMEMI_GT_REDUCE_ARITH(SHMEMI_CXX_REDUCE, sum, )
SHMEMI_GT_REDUCE_ARITH(SHMEMI_CXX_REDUCE, prod, )

static inline int shmem_sync(shmem_team_t team) { return shmem_team_sync(team); }

#endif /* C++ */

#endif
