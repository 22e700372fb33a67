/*
 * reduce.c - reductions: the team forms (shmem_TYPENAME_OP_reduce) and the
 * deprecated active-set forms (shmem_TYPENAME_OP_to_all), on the engine's
 * allreduce with one element callback per type and operator.
 *
 * The engine folds x0 op x1 op ... in team order, the same way on every
 * PE, so floating-point sums are identical on all PEs and from run to run.
 * pWrk and pSync are accepted and never touched.
 */
#include "shmemi.h"

/* out[i] = in[i] op b[i] (coll_op_fn3), and inout[i] = in[i] op inout[i]
 * as the same loop with out = b: the engine's conventions. */
#define REDUCE_FN(T, N, OP, EXPR)					\
static void reduce3_##N##_##OP(void *out, const void *in, const void *bin, size_t count, \
			       void *ctx)				\
{									\
	const T *a = in, *b = bin;					\
	T *o = out;							\
	size_t i;							\
									\
	(void)ctx;							\
	for (i = 0; i < count; i++) {					\
		T x = a[i], y = b[i];					\
									\
		o[i] = EXPR;						\
	}								\
}									\
static void reduce_##N##_##OP(void *inout, const void *in, size_t count, void *ctx) \
{									\
	reduce3_##N##_##OP(inout, in, inout, count, ctx);		\
}									\
static const struct coll_op reduce_op_##N##_##OP = {			\
	reduce_##N##_##OP, NULL, sizeof(T), 1, reduce3_##N##_##OP	\
};

#define REDUCE_FN_BIT(T, N)						\
	REDUCE_FN(T, N, and, x & y) REDUCE_FN(T, N, or, x | y)		\
	REDUCE_FN(T, N, xor, x ^ y)
#define REDUCE_FN_MINMAX(T, N)						\
	REDUCE_FN(T, N, max, x > y ? x : y) REDUCE_FN(T, N, min, x < y ? x : y)
#define REDUCE_FN_ARITH(T, N)						\
	REDUCE_FN(T, N, sum, x + y) REDUCE_FN(T, N, prod, x * y)
SHMEMI_REDUCE_BIT_TYPES(REDUCE_FN_BIT)
SHMEMI_TOALL_BIT_TYPES(REDUCE_FN_BIT)
SHMEMI_REDUCE_MINMAX_TYPES(REDUCE_FN_MINMAX)
SHMEMI_REDUCE_ARITH_TYPES(REDUCE_FN_ARITH)

int shmemi_all(struct coll_group *g, int ok)
{
	int all;

	ok = !!ok;
	coll_allreduce(g, &ok, &all, 1, &reduce_op_int32_and);
	return all;
}

static void reduce_run(shmem_team_t team, void *dest, const void *source, size_t n,
		       const struct coll_op *op, const char *fn)
{
	coll_allreduce(shmemi_team_group(team, fn), source, dest, n, op);
}

#define REDUCE_TEAM(T, N, OP)						\
int shmem_##N##_##OP##_reduce(shmem_team_t team, T *dest, const T *source, size_t nreduce) \
{									\
	reduce_run(team, dest, source, nreduce, &reduce_op_##N##_##OP, __func__); \
	return 0;							\
}
#define REDUCE_TEAM_BIT(T, N)						\
	REDUCE_TEAM(T, N, and) REDUCE_TEAM(T, N, or) REDUCE_TEAM(T, N, xor)
#define REDUCE_TEAM_MINMAX(T, N)	REDUCE_TEAM(T, N, max) REDUCE_TEAM(T, N, min)
#define REDUCE_TEAM_ARITH(T, N)		REDUCE_TEAM(T, N, sum) REDUCE_TEAM(T, N, prod)
SHMEMI_REDUCE_BIT_TYPES(REDUCE_TEAM_BIT)
SHMEMI_REDUCE_MINMAX_TYPES(REDUCE_TEAM_MINMAX)
SHMEMI_REDUCE_ARITH_TYPES(REDUCE_TEAM_ARITH)

#define REDUCE_TOALL(T, N, OP)						\
void shmem_##N##_##OP##_to_all(T *dest, const T *source, int nreduce, int PE_start, \
			       int logPE_stride, int PE_size, T *pWrk, long *pSync) \
{									\
	(void)pWrk;							\
	(void)pSync;							\
	if (nreduce < 0)						\
		shmemi_fail(__func__, "nreduce %d is negative", nreduce); \
	reduce_run(shmemi_team_active(PE_start, logPE_stride, PE_size, __func__), \
		   dest, source, (size_t)nreduce, &reduce_op_##N##_##OP, __func__); \
}
#define REDUCE_TOALL_BIT(T, N)						\
	REDUCE_TOALL(T, N, and) REDUCE_TOALL(T, N, or) REDUCE_TOALL(T, N, xor)
#define REDUCE_TOALL_MINMAX(T, N)	REDUCE_TOALL(T, N, max) REDUCE_TOALL(T, N, min)
#define REDUCE_TOALL_ARITH(T, N)	REDUCE_TOALL(T, N, sum) REDUCE_TOALL(T, N, prod)
SHMEMI_TOALL_BIT_TYPES(REDUCE_TOALL_BIT)
SHMEMI_TOALL_MINMAX_TYPES(REDUCE_TOALL_MINMAX)
SHMEMI_TOALL_ARITH_TYPES(REDUCE_TOALL_ARITH)
