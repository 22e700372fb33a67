/*
 * op.c - reduction operations: the predefined ones for every C type they
 * apply to, user operations, and the checks of which op goes with which
 * type.  Kernels work on contiguous runs of elements of one kind and
 * compute inout[i] = in[i] op inout[i], or out[i] = in[i] op b[i] for the
 * engine's fused first step of a fold.
 */
#include <complex.h>
#include <limits.h>
#include <stdlib.h>
#include "impl.h"
#include "../coll/coll.h"

/* The 16-byte kinds at any 8-byte boundary: the engine's chunks and
 * scratch buffers need not keep their natural 16-byte alignment, which
 * the compiler would otherwise assume (aligned vector loads). */
typedef smpi_i128 op_i128 __attribute__((aligned(8)));
typedef smpi_f128 op_f128 __attribute__((aligned(8)));
typedef smpi_cf128 op_cf128 __attribute__((aligned(8)));

#define INT_KINDS(X) \
	X(SMPI_K_CHAR, char) X(SMPI_K_SCHAR, signed char) X(SMPI_K_UCHAR, unsigned char) \
	X(SMPI_K_WCHAR, wchar_t) X(SMPI_K_SHORT, short) X(SMPI_K_USHORT, unsigned short) \
	X(SMPI_K_INT, int) X(SMPI_K_UINT, unsigned) X(SMPI_K_LONG, long) \
	X(SMPI_K_ULONG, unsigned long) X(SMPI_K_LLONG, long long) \
	X(SMPI_K_ULLONG, unsigned long long) X(SMPI_K_I8, int8_t) X(SMPI_K_I16, int16_t) \
	X(SMPI_K_I32, int32_t) X(SMPI_K_I64, int64_t) X(SMPI_K_U8, uint8_t) \
	X(SMPI_K_U16, uint16_t) X(SMPI_K_U32, uint32_t) X(SMPI_K_U64, uint64_t) \
	X(SMPI_K_AINT, MPI_Aint) X(SMPI_K_OFFSET, MPI_Offset) X(SMPI_K_COUNT, MPI_Count) \
	X(SMPI_K_I128, op_i128)
#define FLOAT_KINDS(X) \
	X(SMPI_K_FLOAT, float) X(SMPI_K_DOUBLE, double) X(SMPI_K_LDOUBLE, long double) \
	X(SMPI_K_F128, op_f128)
#define COMPLEX_KINDS(X) \
	X(SMPI_K_CFLOAT, float _Complex) X(SMPI_K_CDOUBLE, double _Complex) \
	X(SMPI_K_CLDOUBLE, long double _Complex) X(SMPI_K_CF128, op_cf128)
#define BOOL_KINDS(X) X(SMPI_K_BOOL, _Bool)
#define BYTE_KINDS(X) X(SMPI_K_BYTE, unsigned char)

/* One kernel per op, a case per kind of the listed families: the engine's
 * out = in op b (coll_op_fn3), which inout = in op inout is with out = b
 * (the compiler's overlap check lets that exact overlap vectorise). */
#define OP3_CASE(k, t) \
	case k: { \
		const t *a = in, *b = bin; \
		t *o = out; \
		for (i = 0; i < n; i++) \
			o[i] = OP_VAL(a[i], b[i]); \
		return; \
	}

#define OP_KERNEL(name, FAMILIES) \
	static void op3_##name(void *out, const void *in, const void *bin, size_t n, void *ctx) \
	{ \
		size_t i; \
		switch ((int)(intptr_t)ctx) { \
			FAMILIES(OP3_CASE) \
		} \
	} \
	static void op_##name(const void *in, void *inout, int64_t n, int kind) \
	{ \
		op3_##name(inout, in, inout, (size_t)n, (void *)(intptr_t)kind); \
	}

#define NUM(X) INT_KINDS(X) FLOAT_KINDS(X)
#define ARITH(X) INT_KINDS(X) FLOAT_KINDS(X) COMPLEX_KINDS(X)
#define LOGIC(X) INT_KINDS(X) BOOL_KINDS(X)
#define BITS(X) INT_KINDS(X) BYTE_KINDS(X)

#define OP_VAL(x, y) ((x) > (y) ? (x) : (y))
OP_KERNEL(max, NUM)
#undef OP_VAL
#define OP_VAL(x, y) ((x) < (y) ? (x) : (y))
OP_KERNEL(min, NUM)
#undef OP_VAL
#define OP_VAL(x, y) ((x) + (y))
OP_KERNEL(sum, ARITH)
#undef OP_VAL
#define OP_VAL(x, y) ((x) * (y))
OP_KERNEL(prod, ARITH)
#undef OP_VAL
#define OP_VAL(x, y) ((x) && (y))
OP_KERNEL(land, LOGIC)
#undef OP_VAL
#define OP_VAL(x, y) ((x) || (y))
OP_KERNEL(lor, LOGIC)
#undef OP_VAL
#define OP_VAL(x, y) (!(x) != !(y))
OP_KERNEL(lxor, LOGIC)
#undef OP_VAL
#define OP_VAL(x, y) ((x) & (y))
OP_KERNEL(band, BITS)
#undef OP_VAL
#define OP_VAL(x, y) ((x) | (y))
OP_KERNEL(bor, BITS)
#undef OP_VAL
#define OP_VAL(x, y) ((x) ^ (y))
OP_KERNEL(bxor, BITS)
#undef OP_VAL

/* The MINLOC/MAXLOC pairs as C lays them out: value and index; ties keep
 * the lower index. */
#define PAIR_KINDS(X) \
	X(SMPI_K_FLOAT_INT, float, int) X(SMPI_K_DOUBLE_INT, double, int) \
	X(SMPI_K_LONG_INT, long, int) X(SMPI_K_2INT, int, int) X(SMPI_K_SHORT_INT, short, int) \
	X(SMPI_K_LDOUBLE_INT, long double, int) X(SMPI_K_2FLOAT, float, float) \
	X(SMPI_K_2DOUBLE, double, double)

#define LOC_CASE(k, t, it) \
	case k: { \
		const struct { t v; it i; } *a = in; \
		struct { t v; it i; } *b = inout; \
		for (i = 0; i < n; i++) \
			if (LOC_BETTER(a[i].v, b[i].v) || \
			    (a[i].v == b[i].v && a[i].i < b[i].i)) { \
				b[i].v = a[i].v; \
				b[i].i = a[i].i; \
			} \
		return; \
	}

static void op_minloc(const void *in, void *inout, int64_t n, int kind)
{
	int64_t i;

#define LOC_BETTER(x, y) ((x) < (y))
	switch (kind) {
		PAIR_KINDS(LOC_CASE)
	}
#undef LOC_BETTER
}

static void op_maxloc(const void *in, void *inout, int64_t n, int kind)
{
	int64_t i;

#define LOC_BETTER(x, y) ((x) > (y))
	switch (kind) {
		PAIR_KINDS(LOC_CASE)
	}
#undef LOC_BETTER
}

/* Which families each predefined op takes. */
enum { F_INT = 1, F_FLOAT = 2, F_COMPLEX = 4, F_BOOL = 8, F_BYTE = 16, F_PAIR = 32 };

#define FAM_CASE(k, t) case k:
#define PAIR_FAM_CASE(k, t, it) case k:
static int op_family(int kind)
{
	switch (kind) {
	INT_KINDS(FAM_CASE) return F_INT;
	FLOAT_KINDS(FAM_CASE) return F_FLOAT;
	COMPLEX_KINDS(FAM_CASE) return F_COMPLEX;
	BOOL_KINDS(FAM_CASE) return F_BOOL;
	BYTE_KINDS(FAM_CASE) return F_BYTE;
	PAIR_KINDS(PAIR_FAM_CASE) return F_PAIR;
	}
	return 0;
}
#undef FAM_CASE
#undef PAIR_FAM_CASE

/*
 * The engine's operators: one adapter per op with the kind as its context,
 * so a collective on a predefined type calls the op's kernel straight
 * from the engine (coll.c's common case), with nothing of MPI's in between.
 */
enum { OP_MAX, OP_MIN, OP_SUM, OP_PROD, OP_LAND, OP_LOR, OP_LXOR, OP_BAND, OP_BOR, OP_BXOR,
       OP_MINLOC, OP_MAXLOC, OP_NREDUCE };

static struct coll_op op_engine[OP_NREDUCE][SMPI_NTYPES];

#define OP_ADAPTER(name) \
	static void op_engine_##name(void *inout, const void *in, size_t n, void *ctx) \
	{ \
		op_##name(in, inout, n, (int)(intptr_t)ctx); \
	}
OP_ADAPTER(max)
OP_ADAPTER(min)
OP_ADAPTER(sum)
OP_ADAPTER(prod)
OP_ADAPTER(land)
OP_ADAPTER(lor)
OP_ADAPTER(lxor)
OP_ADAPTER(band)
OP_ADAPTER(bor)
OP_ADAPTER(bxor)
OP_ADAPTER(minloc)
OP_ADAPTER(maxloc)
#undef OP_ADAPTER

#define OP(var, f, fams, n, e) struct smpi_op var = { .live = SMPI_LIVE_OP, .fn = f, .commute = 1, \
						   .predefined = fams, .name = n, .engine = e }
OP(smpi_op_max, op_max, F_INT | F_FLOAT, "MPI_MAX", op_engine[OP_MAX]);
OP(smpi_op_min, op_min, F_INT | F_FLOAT, "MPI_MIN", op_engine[OP_MIN]);
OP(smpi_op_sum, op_sum, F_INT | F_FLOAT | F_COMPLEX, "MPI_SUM", op_engine[OP_SUM]);
OP(smpi_op_prod, op_prod, F_INT | F_FLOAT | F_COMPLEX, "MPI_PROD", op_engine[OP_PROD]);
OP(smpi_op_land, op_land, F_INT | F_BOOL, "MPI_LAND", op_engine[OP_LAND]);
OP(smpi_op_lor, op_lor, F_INT | F_BOOL, "MPI_LOR", op_engine[OP_LOR]);
OP(smpi_op_lxor, op_lxor, F_INT | F_BOOL, "MPI_LXOR", op_engine[OP_LXOR]);
OP(smpi_op_band, op_band, F_INT | F_BYTE, "MPI_BAND", op_engine[OP_BAND]);
OP(smpi_op_bor, op_bor, F_INT | F_BYTE, "MPI_BOR", op_engine[OP_BOR]);
OP(smpi_op_bxor, op_bxor, F_INT | F_BYTE, "MPI_BXOR", op_engine[OP_BXOR]);
OP(smpi_op_minloc, op_minloc, F_PAIR, "MPI_MINLOC", op_engine[OP_MINLOC]);
OP(smpi_op_maxloc, op_maxloc, F_PAIR, "MPI_MAXLOC", op_engine[OP_MAXLOC]);
/* One-sided accumulate operations: no reduction takes them. */
OP(smpi_op_replace, NULL, 0, "MPI_REPLACE", NULL);
OP(smpi_op_no_op, NULL, 0, "MPI_NO_OP", NULL);
#undef OP

void smpi_op_init(void)
{
	static coll_op_fn *const adapter[OP_NREDUCE] = {
		op_engine_max, op_engine_min, op_engine_sum, op_engine_prod, op_engine_land,
		op_engine_lor, op_engine_lxor, op_engine_band, op_engine_bor, op_engine_bxor,
		op_engine_minloc, op_engine_maxloc,
	};
	/* MINLOC/MAXLOC's pair kernels are written apart (ties keep the
	 * lower index) and have no fused form: the engine copies, then
	 * combines. */
	static coll_op_fn3 *const fused[OP_NREDUCE] = {
		op3_max, op3_min, op3_sum, op3_prod, op3_land, op3_lor, op3_lxor, op3_band,
		op3_bor, op3_bxor, NULL, NULL,
	};
	static struct smpi_op *const ops[OP_NREDUCE] = {
		&smpi_op_max, &smpi_op_min, &smpi_op_sum, &smpi_op_prod, &smpi_op_land,
		&smpi_op_lor, &smpi_op_lxor, &smpi_op_band, &smpi_op_bor, &smpi_op_bxor,
		&smpi_op_minloc, &smpi_op_maxloc,
	};
	int o, k;

	for (o = 0; o < OP_NREDUCE; o++)
		for (k = SMPI_K_CHAR; k < SMPI_NTYPES; k++) {
			struct coll_op *e = &op_engine[o][k];

			/* A pair with padding (DOUBLE_INT, LONG_INT, SHORT_INT,
			 * LONG_DOUBLE_INT) takes the full path: the engine would
			 * write the padding, which is not in the type map. */
			if (!(ops[o]->predefined & op_family(k)) ||
			    !smpi_type_padless(smpi_type_of_kind(k)))
				continue;
			e->fn = adapter[o];
			e->fn3 = fused[o];
			e->ctx = (void *)(intptr_t)k;
			e->size = smpi_type_extent(smpi_type_of_kind(k));
			e->commute = 1;
		}
}

int smpi_op_check(MPI_Comm comm, MPI_Op op, MPI_Datatype type, const char *fn)
{
	int err;

	if (op == MPI_OP_NULL)
		return smpi_err(comm, MPI_ERR_OP, fn, "op is MPI_OP_NULL");
	if (!smpi_live(op, SMPI_LIVE_OP))
		return smpi_err(comm, MPI_ERR_OP, fn, "op %p is not a live op (garbage, or freed)",
				(void *)op);
	if ((err = smpi_type_check(comm, type, fn)))
		return err;
	if (op->user)
		return MPI_SUCCESS;
	if (!(op->predefined & op_family(type->kind)))
		return smpi_err(comm, MPI_ERR_OP, fn, "%s is not defined on datatype %s", op->name,
				type->name[0] ? type->name : "(derived)");
	return MPI_SUCCESS;
}

void smpi_op_apply(MPI_Op op, const void *in, void *inout, int64_t count, MPI_Datatype type)
{
	if (op->user_c) {
		MPI_Count n = count;

		op->user_c((void *)in, inout, &n, &type);
		return;
	}
	if (op->user) {
		/* An int-count op takes a count past INT_MAX in pieces. */
		int64_t step = (int64_t)INT_MAX * smpi_type_extent(type);

		for (; count > 0; count -= INT_MAX) {
			int n = count > INT_MAX ? INT_MAX : (int)count;

			op->user((void *)in, inout, &n, &type);
			in = (const char *)in + step;
			inout = (char *)inout + step;
		}
		return;
	}
	op->fn(in, inout, count, type->kind);
}

int PMPI_Op_create(MPI_User_function *fn, int commute, MPI_Op *op)
{
	struct smpi_op *o;

	if (!fn || !op)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Op_create", "NULL argument");
	o = calloc(1, sizeof *o);
	if (!o)
		return smpi_err(NULL, MPI_ERR_NO_MEM, "MPI_Op_create", "no memory");
	o->live = SMPI_LIVE_OP;
	o->user = fn;
	o->commute = commute != 0;
	o->name = "user op";
	*op = o;
	return MPI_SUCCESS;
}

int PMPI_Op_free(MPI_Op *op)
{
	if (!op || !*op)
		return smpi_err(NULL, MPI_ERR_OP, "MPI_Op_free", "op is MPI_OP_NULL");
	if (!smpi_live(*op, SMPI_LIVE_OP))
		return smpi_err(NULL, MPI_ERR_OP, "MPI_Op_free",
				"op %p is not a live op (garbage, or freed)", (void *)*op);
	if (!(*op)->user)
		return smpi_err(NULL, MPI_ERR_OP, "MPI_Op_free", "%s is predefined", (*op)->name);
	(*op)->live = 0;
	free(*op);
	*op = MPI_OP_NULL;
	return MPI_SUCCESS;
}

int PMPI_Op_commutative(MPI_Op op, int *commute)
{
	if (!op || !commute)
		return smpi_err(NULL, MPI_ERR_OP, "MPI_Op_commutative", "op is MPI_OP_NULL");
	*commute = op->commute;
	return MPI_SUCCESS;
}

SMPI_ALIAS(Op_create)
SMPI_ALIAS(Op_free)
SMPI_ALIAS(Op_commutative)
