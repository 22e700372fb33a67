/*
 * wait.c - point-to-point synchronisation: wait_until and test with their
 * _all, _any, _some and _vector forms, the deprecated shmem_wait, and the
 * signal side of put-with-signal (signal_fetch, signal_wait_until).
 *
 * The variables are this PE's own; other PEs store into them through
 * SMARTMAP, so waiting is spinning on an acquire load of a cache line that
 * the writer's store invalidates.  A PE sharing its CPU yields after a few
 * hundred pauses (core_spin), or a waiter could starve the writer it
 * waits for.
 */
#include "../core/core.h"
#include "shmemi.h"

/* The door of every wait and test (a test may be polled: shmemi_poll). */
static void wait_check_cmp(int cmp, const char *fn)
{
	core_call = fn;
	shmemi_poll();
	if (cmp < SHMEM_CMP_EQ || cmp > SHMEM_CMP_GE)
		shmemi_fail(fn, "unknown comparison %d (SHMEM_CMP_EQ, _NE, _GT, _LE, _LT, _GE)", cmp);
}

#define WAIT_TRUE(x, cmp, v)						\
	((cmp) == SHMEM_CMP_EQ ? (x) == (v) : (cmp) == SHMEM_CMP_NE ? (x) != (v) : \
	 (cmp) == SHMEM_CMP_GT ? (x) > (v) : (cmp) == SHMEM_CMP_LE ? (x) <= (v) : \
	 (cmp) == SHMEM_CMP_LT ? (x) < (v) : (x) >= (v))

/* What one pass over a set of variables counts. */
enum wait_mode { WAIT_ANY, WAIT_SOME, WAIT_ALL };

/*
 * For each type: one pass over the variables not excluded by status,
 * comparing ivars[i] with vals[i * vs] (vs 0: one value for all).  ANY
 * returns the first index that holds or SIZE_MAX, SOME the number that
 * hold (their indices in idx), ALL the number that do not hold.
 */
#define WAIT_SCAN(T, N)							\
static size_t wait_scan_##N(T *ivars, size_t n, const int *status, int cmp, \
			    const T *vals, size_t vs, size_t *idx,	\
			    enum wait_mode mode)			\
{									\
	size_t i, c = 0;						\
									\
	for (i = 0; i < n; i++) {					\
		int ok;							\
									\
		if (status && status[i])				\
			continue;					\
		ok = WAIT_TRUE(__atomic_load_n(&ivars[i], __ATOMIC_ACQUIRE), \
			       cmp, vals[i * vs]);			\
		if (mode == WAIT_ANY && ok)				\
			return i;					\
		if (mode == WAIT_SOME && ok)				\
			idx[c++] = i;					\
		if (mode == WAIT_ALL && !ok)				\
			c++;						\
	}								\
	return mode == WAIT_ANY ? SIZE_MAX : c;				\
}									\
									\
static void wait_all_##N(T *ivars, size_t n, const int *status, int cmp, \
			 const T *vals, size_t vs, const char *fn)	\
{									\
	unsigned spins = 0;						\
									\
	wait_check_cmp(cmp, fn);					\
	while (wait_scan_##N(ivars, n, status, cmp, vals, vs, NULL, WAIT_ALL)) \
		core_spin(&spins);					\
}									\
									\
static size_t wait_any_##N(T *ivars, size_t n, const int *status, int cmp, \
			   const T *vals, size_t vs, const char *fn)	\
{									\
	unsigned spins = 0;						\
	size_t i;							\
									\
	wait_check_cmp(cmp, fn);					\
	if (!wait_active(n, status))					\
		return SIZE_MAX;					\
	while ((i = wait_scan_##N(ivars, n, status, cmp, vals, vs, NULL, \
				  WAIT_ANY)) == SIZE_MAX)		\
		core_spin(&spins);					\
	return i;							\
}									\
									\
static size_t wait_some_##N(T *ivars, size_t n, size_t *idx, const int *status, \
			    int cmp, const T *vals, size_t vs, const char *fn) \
{									\
	unsigned spins = 0;						\
	size_t c;							\
									\
	wait_check_cmp(cmp, fn);					\
	if (!wait_active(n, status))					\
		return 0;						\
	while (!(c = wait_scan_##N(ivars, n, status, cmp, vals, vs, idx, WAIT_SOME))) \
		core_spin(&spins);					\
	return c;							\
}

/* What the tests return, from wait_scan's count (or index), once they have
 * told core_poll whether the program's loop on them may go on. */
static int test_all(size_t unsatisfied)
{
	core_poll(!unsatisfied);
	return !unsatisfied;
}

static size_t test_any(size_t i)
{
	core_poll(i != SIZE_MAX);
	return i;
}

static size_t test_some(size_t c)
{
	core_poll(c > 0);
	return c;
}

/* The routines of one type, on those helpers. */
#define WAIT_DEF(T, N)							\
WAIT_SCAN(T, N)								\
void shmem_##N##_wait_until(T *ivar, int cmp, T cmp_value)		\
{									\
	wait_all_##N(ivar, 1, NULL, cmp, &cmp_value, 0, __func__);	\
}									\
void shmem_##N##_wait_until_all(T *ivars, size_t nelems, const int *status, \
				int cmp, T cmp_value)			\
{									\
	wait_all_##N(ivars, nelems, status, cmp, &cmp_value, 0, __func__); \
}									\
size_t shmem_##N##_wait_until_any(T *ivars, size_t nelems, const int *status, \
				  int cmp, T cmp_value)			\
{									\
	return wait_any_##N(ivars, nelems, status, cmp, &cmp_value, 0, __func__); \
}									\
size_t shmem_##N##_wait_until_some(T *ivars, size_t nelems, size_t *indices, \
				   const int *status, int cmp, T cmp_value) \
{									\
	return wait_some_##N(ivars, nelems, indices, status, cmp, &cmp_value, 0, \
			     __func__);					\
}									\
void shmem_##N##_wait_until_all_vector(T *ivars, size_t nelems,		\
				       const int *status, int cmp, T *cmp_values) \
{									\
	wait_all_##N(ivars, nelems, status, cmp, cmp_values, 1, __func__); \
}									\
size_t shmem_##N##_wait_until_any_vector(T *ivars, size_t nelems,	\
					 const int *status, int cmp, T *cmp_values) \
{									\
	return wait_any_##N(ivars, nelems, status, cmp, cmp_values, 1, __func__); \
}									\
size_t shmem_##N##_wait_until_some_vector(T *ivars, size_t nelems, size_t *indices, \
					  const int *status, int cmp, T *cmp_values) \
{									\
	return wait_some_##N(ivars, nelems, indices, status, cmp, cmp_values, 1, \
			     __func__);					\
}									\
int shmem_##N##_test(T *ivar, int cmp, T cmp_value)			\
{									\
	wait_check_cmp(cmp, __func__);					\
	return test_all(wait_scan_##N(ivar, 1, NULL, cmp, &cmp_value, 0, NULL, \
				      WAIT_ALL));			\
}									\
int shmem_##N##_test_all(T *ivars, size_t nelems, const int *status, int cmp, \
			 T cmp_value)					\
{									\
	wait_check_cmp(cmp, __func__);					\
	return test_all(wait_scan_##N(ivars, nelems, status, cmp, &cmp_value, 0, \
				      NULL, WAIT_ALL));			\
}									\
size_t shmem_##N##_test_any(T *ivars, size_t nelems, const int *status, int cmp, \
			    T cmp_value)				\
{									\
	wait_check_cmp(cmp, __func__);					\
	return test_any(wait_scan_##N(ivars, nelems, status, cmp, &cmp_value, 0, \
				      NULL, WAIT_ANY));			\
}									\
size_t shmem_##N##_test_some(T *ivars, size_t nelems, size_t *indices,	\
			     const int *status, int cmp, T cmp_value)	\
{									\
	wait_check_cmp(cmp, __func__);					\
	return test_some(wait_scan_##N(ivars, nelems, status, cmp, &cmp_value, 0, \
				       indices, WAIT_SOME));		\
}									\
int shmem_##N##_test_all_vector(T *ivars, size_t nelems, const int *status, \
				int cmp, T *cmp_values)			\
{									\
	wait_check_cmp(cmp, __func__);					\
	return test_all(wait_scan_##N(ivars, nelems, status, cmp, cmp_values, 1, \
				      NULL, WAIT_ALL));			\
}									\
size_t shmem_##N##_test_any_vector(T *ivars, size_t nelems, const int *status, \
				   int cmp, T *cmp_values)		\
{									\
	wait_check_cmp(cmp, __func__);					\
	return test_any(wait_scan_##N(ivars, nelems, status, cmp, cmp_values, 1, \
				      NULL, WAIT_ANY));			\
}									\
size_t shmem_##N##_test_some_vector(T *ivars, size_t nelems, size_t *indices, \
				    const int *status, int cmp, T *cmp_values) \
{									\
	wait_check_cmp(cmp, __func__);					\
	return test_some(wait_scan_##N(ivars, nelems, status, cmp, cmp_values, 1, \
				       indices, WAIT_SOME));		\
}

/* Is any variable left to wait for? */
static int wait_active(size_t n, const int *status)
{
	size_t i;

	if (!status)
		return n > 0;
	for (i = 0; i < n; i++)
		if (!status[i])
			return 1;
	return 0;
}

SHMEMI_P2P_TYPES(WAIT_DEF)

/* Deprecated: wait while *ivar still equals cmp_value. */
#define WAIT_OLD_DEF(T, N)						\
void shmem_##N##_wait(T *ivar, T cmp_value)				\
{									\
	wait_all_##N(ivar, 1, NULL, SHMEM_CMP_NE, &cmp_value, 0, __func__); \
}
SHMEMI_P2P_OLD_TYPES(WAIT_OLD_DEF)

void (shmem_wait)(long *ivar, long cmp_value)
{
	wait_all_long(ivar, 1, NULL, SHMEM_CMP_NE, &cmp_value, 0, "shmem_wait");
}

void (shmem_wait_until)(long *ivar, int cmp, long cmp_value)
{
	wait_all_long(ivar, 1, NULL, cmp, &cmp_value, 0, "shmem_wait_until");
}

uint64_t shmem_signal_fetch(const uint64_t *sig_addr)
{
	shmemi_poll();
	return __atomic_load_n(sig_addr, __ATOMIC_ACQUIRE);
}

/* Returns the value that satisfied the comparison, not a later one. */
uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value)
{
	unsigned spins = 0;
	uint64_t v;

	wait_check_cmp(cmp, __func__);
	while (v = __atomic_load_n(sig_addr, __ATOMIC_ACQUIRE), !WAIT_TRUE(v, cmp, cmp_value))
		core_spin(&spins);
	return v;
}
