/*
 * fshmem.c - OpenSHMEM for Fortran (the 1.2 specification's bindings,
 * deprecated since 1.4 and still in codes), with libsmap/include/shmem.fh
 * for the constants.  gfortran calls name_ with every argument by
 * reference; character arguments add hidden lengths at the end, which no
 * routine here needs.  Each routine is the C one it names: INTEGER is 4
 * bytes, REAL 4, DOUBLE PRECISION 8, LOGICAL 4, COMPLEX two REALs; the
 * 4/32 forms move 32-bit elements, 8/64 64-bit ones, 128 128-bit, MEM
 * bytes.  Symmetric data are what C's are: SAVE and COMMON variables, and
 * SHPALLOC's memory (the symmetric heap, through a Cray pointer).
 */
#include <stdint.h>
#include <stdlib.h>
#include <shmem.h>

typedef int32_t fint;
typedef int64_t fint8;

/* ---- setup and query ---- */

void shmem_init_(void)
{
	shmem_init();
}

void shmem_finalize_(void)
{
	shmem_finalize();
}

void start_pes_(fint *npes)
{
	start_pes(*npes);
}

fint shmem_my_pe_(void)
{
	return shmem_my_pe();
}

fint shmem_n_pes_(void)
{
	return shmem_n_pes();
}

fint my_pe_(void)
{
	return shmem_my_pe();
}

fint num_pes_(void)
{
	return shmem_n_pes();
}

void shmem_global_exit_(fint *status)
{
	shmem_global_exit(*status);
}

/* LOGICAL results: gfortran's .TRUE. is 1. */
fint shmem_pe_accessible_(fint *pe)
{
	return !!shmem_pe_accessible(*pe);
}

fint shmem_addr_accessible_(void *addr, fint *pe)
{
	return !!shmem_addr_accessible(addr, *pe);
}

/* An address, for a Cray pointer. */
fint8 shmem_ptr_(void *target, fint *pe)
{
	return (fint8)(intptr_t)shmem_ptr(target, *pe);
}

void shmem_info_get_version_(fint *major, fint *minor)
{
	int a, b;

	shmem_info_get_version(&a, &b);
	*major = a;
	*minor = b;
}

/* The name blank-padded to the CHARACTER's length, as Fortran keeps it. */
void shmem_info_get_name_(char *name, size_t len)
{
	char c[SHMEM_MAX_NAME_LEN];
	size_t i;

	shmem_info_get_name(c);
	for (i = 0; i < len && i < sizeof c && c[i]; i++)
		name[i] = c[i];
	for (; i < len; i++)
		name[i] = ' ';
}

/* ---- the symmetric heap: lengths in 32-bit words, addresses through Cray pointers ---- */

/* errcode: 0, or -1 when no memory (the job ends then if abort is set). */
void shpalloc_(fint8 *addr, fint *length, fint *errcode, fint *abort)
{
	void *p = *length > 0 ? shmem_malloc((size_t)*length * 4) : NULL;

	*addr = (fint8)(intptr_t)p;
	*errcode = p ? 0 : -1;
	if (!p && *abort)
		shmem_global_exit(1);
}

void shpdeallc_(fint8 *addr, fint *errcode, fint *abort)
{
	(void)abort;
	shmem_free((void *)(intptr_t)*addr);
	*addr = 0;
	*errcode = 0;
}

/* status: 0 in place, 1 moved, -1 no memory. */
void shpclmove_(fint8 *addr, fint *length, fint *status, fint *abort)
{
	void *old = (void *)(intptr_t)*addr, *p = shmem_realloc(old, (size_t)*length * 4);

	if (!p) {
		*status = -1;
		if (*abort)
			shmem_global_exit(1);
		return;
	}
	*status = p != old;
	*addr = (fint8)(intptr_t)p;
}

/* ---- puts and gets, contiguous and strided ---- */

/* SHMEM_<pre>PUT<post> and the GET, IPUT, IGET alike: the typed names
 * (SHMEM_INTEGER_PUT: pre INTEGER_) and the sized ones (SHMEM_PUT4: post
 * 4), onto C's routine for elements of csize bits. */
#define F_RMA(pre, post, csize)							\
void shmem_##pre##put##post##_(void *dest, const void *src, fint *n, fint *pe)	\
{										\
	shmem_put##csize(dest, src, (size_t)*n, *pe);				\
}										\
void shmem_##pre##get##post##_(void *dest, const void *src, fint *n, fint *pe)	\
{										\
	shmem_get##csize(dest, src, (size_t)*n, *pe);				\
}										\
void shmem_##pre##iput##post##_(void *dest, const void *src, fint *dst, fint *sst, \
				fint *n, fint *pe)				\
{										\
	shmem_iput##csize(dest, src, *dst, *sst, (size_t)*n, *pe);		\
}										\
void shmem_##pre##iget##post##_(void *dest, const void *src, fint *dst, fint *sst, \
				fint *n, fint *pe)				\
{										\
	shmem_iget##csize(dest, src, *dst, *sst, (size_t)*n, *pe);		\
}
F_RMA(integer_, , 32)
F_RMA(real_, , 32)
F_RMA(logical_, , 32)
F_RMA(double_, , 64)
F_RMA(complex_, , 64)
F_RMA(, 4, 32)
F_RMA(, 8, 64)
F_RMA(, 32, 32)
F_RMA(, 64, 64)
F_RMA(, 128, 128)
#undef F_RMA

/* CHARACTER data: one byte each (the hidden lengths are not needed). */
void shmem_character_put_(void *dest, const void *src, fint *n, fint *pe)
{
	shmem_putmem(dest, src, (size_t)*n, *pe);
}

void shmem_character_get_(void *dest, const void *src, fint *n, fint *pe)
{
	shmem_getmem(dest, src, (size_t)*n, *pe);
}

void shmem_putmem_(void *dest, const void *src, fint *n, fint *pe)
{
	shmem_putmem(dest, src, (size_t)*n, *pe);
}

void shmem_getmem_(void *dest, const void *src, fint *n, fint *pe)
{
	shmem_getmem(dest, src, (size_t)*n, *pe);
}

/* ---- atomics: INT4 and INT8 (and REAL4/REAL8 where C has them) ---- */

#define F_AMO_ANY(name, T, cname)						\
T shmem_##name##_swap_(T *dest, T *value, fint *pe)			\
{										\
	return shmem_##cname##_atomic_swap(dest, *value, *pe);			\
}										\
T shmem_##name##_fetch_(T *dest, fint *pe)					\
{										\
	return shmem_##cname##_atomic_fetch(dest, *pe);				\
}										\
void shmem_##name##_set_(T *dest, T *value, fint *pe)			\
{										\
	shmem_##cname##_atomic_set(dest, *value, *pe);				\
}
#define F_AMO_INT(name, T, cname)						\
F_AMO_ANY(name, T, cname)							\
T shmem_##name##_cswap_(T *dest, T *cond, T *value, fint *pe)		\
{										\
	return shmem_##cname##_atomic_compare_swap(dest, *cond, *value, *pe);	\
}										\
T shmem_##name##_fadd_(T *dest, T *value, fint *pe)			\
{										\
	return shmem_##cname##_atomic_fetch_add(dest, *value, *pe);		\
}										\
T shmem_##name##_finc_(T *dest, fint *pe)					\
{										\
	return shmem_##cname##_atomic_fetch_inc(dest, *pe);			\
}										\
void shmem_##name##_add_(T *dest, T *value, fint *pe)			\
{										\
	shmem_##cname##_atomic_add(dest, *value, *pe);				\
}										\
void shmem_##name##_inc_(T *dest, fint *pe)					\
{										\
	shmem_##cname##_atomic_inc(dest, *pe);					\
}
F_AMO_INT(int4, int32_t, int32)
F_AMO_INT(int8, int64_t, int64)
F_AMO_ANY(real4, float, float)
F_AMO_ANY(real8, double, double)
#undef F_AMO_INT
#undef F_AMO_ANY

/* SHMEM_SWAP: a default INTEGER */
fint shmem_swap_(fint *dest, fint *value, fint *pe)
{
	return shmem_int32_atomic_swap(dest, *value, *pe);
}

/* ---- ordering and point-to-point synchronization ---- */

void shmem_fence_(void)
{
	shmem_fence();
}

void shmem_quiet_(void)
{
	shmem_quiet();
}

void shmem_barrier_all_(void)
{
	shmem_barrier_all();
}

void shmem_barrier_(fint *start, fint *logstride, fint *size, fint8 *psync)
{
	shmem_barrier(*start, *logstride, *size, (long *)psync);
}

/* SHMEM_WAIT: while ivar is value. */
#define F_WAIT(name, T, cname)							\
void shmem_##name##wait_(T *ivar, T *value)					\
{										\
	shmem_##cname##_wait_until(ivar, SHMEM_CMP_NE, *value);		\
}										\
void shmem_##name##wait_until_(T *ivar, fint *cmp, T *value)			\
{										\
	shmem_##cname##_wait_until(ivar, *cmp, *value);			\
}
F_WAIT(, fint, int32)
F_WAIT(int4_, int32_t, int32)
F_WAIT(int8_, int64_t, int64)
#undef F_WAIT

/* Locks are INTEGER*8. */
void shmem_set_lock_(fint8 *lock)
{
	shmem_set_lock((long *)lock);
}

void shmem_clear_lock_(fint8 *lock)
{
	shmem_clear_lock((long *)lock);
}

fint shmem_test_lock_(fint8 *lock)
{
	return shmem_test_lock((long *)lock);
}

/* ---- active-set collectives ---- */

#define F_COLL(fsize, csize)							\
void shmem_broadcast##fsize##_(void *dest, const void *src, fint *n, fint *root, \
			       fint *start, fint *logstride, fint *size, fint8 *psync) \
{										\
	shmem_broadcast##csize(dest, src, (size_t)*n, *root, *start, *logstride, \
			       *size, (long *)psync);				\
}										\
void shmem_collect##fsize##_(void *dest, const void *src, fint *n, fint *start,	\
			     fint *logstride, fint *size, fint8 *psync)		\
{										\
	shmem_collect##csize(dest, src, (size_t)*n, *start, *logstride, *size,	\
			     (long *)psync);					\
}										\
void shmem_fcollect##fsize##_(void *dest, const void *src, fint *n, fint *start, \
			      fint *logstride, fint *size, fint8 *psync)	\
{										\
	shmem_fcollect##csize(dest, src, (size_t)*n, *start, *logstride, *size,	\
			      (long *)psync);					\
}
F_COLL(4, 32)
F_COLL(8, 64)
F_COLL(32, 32)
F_COLL(64, 64)
#undef F_COLL

#define F_TOALL(name, op, T, cname)						\
void shmem_##name##_##op##_to_all_(T *dest, const T *src, fint *n, fint *start,	\
				   fint *logstride, fint *size, T *pwrk,	\
				   fint8 *psync)				\
{										\
	shmem_##cname##_##op##_to_all(dest, src, *n, *start, *logstride, *size,	\
				      pwrk, (long *)psync);			\
}
#define F_TOALL_ARITH(name, T, cname)						\
	F_TOALL(name, sum, T, cname) F_TOALL(name, prod, T, cname)
#define F_TOALL_MINMAX(name, T, cname)						\
	F_TOALL_ARITH(name, T, cname) F_TOALL(name, min, T, cname)		\
	F_TOALL(name, max, T, cname)
#define F_TOALL_INT(name, T, cname)						\
	F_TOALL_MINMAX(name, T, cname) F_TOALL(name, and, T, cname)		\
	F_TOALL(name, or, T, cname) F_TOALL(name, xor, T, cname)
F_TOALL_INT(int2, short, short)
F_TOALL_INT(int4, int, int)
F_TOALL_INT(int8, long, long)
F_TOALL_MINMAX(real4, float, float)
F_TOALL_MINMAX(real8, double, double)
F_TOALL_ARITH(comp4, float _Complex, complexf)
F_TOALL_ARITH(comp8, double _Complex, complexd)
#undef F_TOALL_INT
#undef F_TOALL_MINMAX
#undef F_TOALL_ARITH
#undef F_TOALL
