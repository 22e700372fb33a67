/*
 * type.c - MPI datatypes: the predefined ones, the constructors, Pack and
 * Unpack.  Layouts are the datatype engine's (dt.c); a handle adds the
 * MPI view: name, reference count, committed flag, and the element kind
 * the reduction kernels need (op.c).
 */
#include <complex.h>
#include <stdlib.h>
#include <string.h>
#include "impl.h"

#define T(var, k, n) struct smpi_type var = { .live = SMPI_LIVE_TYPE, .predefined = 1, \
					.committed = 1, .refs = 1, .kind = k, \
					.combiner = MPI_COMBINER_NAMED, .name = n }
T(smpi_type_char, SMPI_K_CHAR, "MPI_CHAR");
T(smpi_type_signed_char, SMPI_K_SCHAR, "MPI_SIGNED_CHAR");
T(smpi_type_unsigned_char, SMPI_K_UCHAR, "MPI_UNSIGNED_CHAR");
T(smpi_type_byte, SMPI_K_BYTE, "MPI_BYTE");
T(smpi_type_wchar, SMPI_K_WCHAR, "MPI_WCHAR");
T(smpi_type_short, SMPI_K_SHORT, "MPI_SHORT");
T(smpi_type_unsigned_short, SMPI_K_USHORT, "MPI_UNSIGNED_SHORT");
T(smpi_type_int, SMPI_K_INT, "MPI_INT");
T(smpi_type_unsigned, SMPI_K_UINT, "MPI_UNSIGNED");
T(smpi_type_long, SMPI_K_LONG, "MPI_LONG");
T(smpi_type_unsigned_long, SMPI_K_ULONG, "MPI_UNSIGNED_LONG");
T(smpi_type_long_long_int, SMPI_K_LLONG, "MPI_LONG_LONG_INT");
T(smpi_type_unsigned_long_long, SMPI_K_ULLONG, "MPI_UNSIGNED_LONG_LONG");
T(smpi_type_float, SMPI_K_FLOAT, "MPI_FLOAT");
T(smpi_type_double, SMPI_K_DOUBLE, "MPI_DOUBLE");
T(smpi_type_long_double, SMPI_K_LDOUBLE, "MPI_LONG_DOUBLE");
T(smpi_type_c_bool, SMPI_K_BOOL, "MPI_C_BOOL");
T(smpi_type_int8_t, SMPI_K_I8, "MPI_INT8_T");
T(smpi_type_int16_t, SMPI_K_I16, "MPI_INT16_T");
T(smpi_type_int32_t, SMPI_K_I32, "MPI_INT32_T");
T(smpi_type_int64_t, SMPI_K_I64, "MPI_INT64_T");
T(smpi_type_uint8_t, SMPI_K_U8, "MPI_UINT8_T");
T(smpi_type_uint16_t, SMPI_K_U16, "MPI_UINT16_T");
T(smpi_type_uint32_t, SMPI_K_U32, "MPI_UINT32_T");
T(smpi_type_uint64_t, SMPI_K_U64, "MPI_UINT64_T");
T(smpi_type_aint, SMPI_K_AINT, "MPI_AINT");
T(smpi_type_offset, SMPI_K_OFFSET, "MPI_OFFSET");
T(smpi_type_count, SMPI_K_COUNT, "MPI_COUNT");
/* MPI_C_COMPLEX is the same type; its name is the one MPICH gives both. */
T(smpi_type_c_float_complex, SMPI_K_CFLOAT, "MPI_C_COMPLEX");
T(smpi_type_c_double_complex, SMPI_K_CDOUBLE, "MPI_C_DOUBLE_COMPLEX");
T(smpi_type_c_long_double_complex, SMPI_K_CLDOUBLE, "MPI_C_LONG_DOUBLE_COMPLEX");
T(smpi_type_packed, SMPI_K_PACKED, "MPI_PACKED");
T(smpi_type_float_int, SMPI_K_FLOAT_INT, "MPI_FLOAT_INT");
T(smpi_type_double_int, SMPI_K_DOUBLE_INT, "MPI_DOUBLE_INT");
T(smpi_type_long_int, SMPI_K_LONG_INT, "MPI_LONG_INT");
T(smpi_type_2int, SMPI_K_2INT, "MPI_2INT");
T(smpi_type_short_int, SMPI_K_SHORT_INT, "MPI_SHORT_INT");
T(smpi_type_long_double_int, SMPI_K_LDOUBLE_INT, "MPI_LONG_DOUBLE_INT");
T(smpi_type_f_integer, SMPI_K_INT, "MPI_INTEGER");
T(smpi_type_f_real, SMPI_K_FLOAT, "MPI_REAL");
T(smpi_type_f_double_precision, SMPI_K_DOUBLE, "MPI_DOUBLE_PRECISION");
T(smpi_type_f_complex, SMPI_K_CFLOAT, "MPI_COMPLEX");
T(smpi_type_f_double_complex, SMPI_K_CDOUBLE, "MPI_DOUBLE_COMPLEX");
T(smpi_type_f_logical, SMPI_K_INT, "MPI_LOGICAL");
T(smpi_type_f_character, SMPI_K_CHAR, "MPI_CHARACTER");
T(smpi_type_f_integer1, SMPI_K_I8, "MPI_INTEGER1");
T(smpi_type_f_integer2, SMPI_K_I16, "MPI_INTEGER2");
T(smpi_type_f_integer4, SMPI_K_I32, "MPI_INTEGER4");
T(smpi_type_f_integer8, SMPI_K_I64, "MPI_INTEGER8");
T(smpi_type_f_real4, SMPI_K_FLOAT, "MPI_REAL4");
T(smpi_type_f_real8, SMPI_K_DOUBLE, "MPI_REAL8");
T(smpi_type_f_complex8, SMPI_K_CFLOAT, "MPI_COMPLEX8");
T(smpi_type_f_complex16, SMPI_K_CDOUBLE, "MPI_COMPLEX16");
T(smpi_type_f_2integer, SMPI_K_2INT, "MPI_2INTEGER");
T(smpi_type_f_integer16, SMPI_K_I128, "MPI_INTEGER16");
T(smpi_type_f_real16, SMPI_K_F128, "MPI_REAL16");
T(smpi_type_f_complex32, SMPI_K_CF128, "MPI_COMPLEX32");
T(smpi_type_f_2real, SMPI_K_2FLOAT, "MPI_2REAL");
T(smpi_type_f_2double_precision, SMPI_K_2DOUBLE, "MPI_2DOUBLE_PRECISION");
/* MPI-1's bound markers, removed in MPI 3.0 and still in old codes. */
T(smpi_type_lb, SMPI_K_NONE, "MPI_LB");
T(smpi_type_ub, SMPI_K_NONE, "MPI_UB");
T(smpi_type_cxx_bool, SMPI_K_BOOL, "MPI_CXX_BOOL");
T(smpi_type_cxx_float_complex, SMPI_K_CFLOAT, "MPI_CXX_FLOAT_COMPLEX");
T(smpi_type_cxx_double_complex, SMPI_K_CDOUBLE, "MPI_CXX_DOUBLE_COMPLEX");
T(smpi_type_cxx_long_double_complex, SMPI_K_CLDOUBLE, "MPI_CXX_LONG_DOUBLE_COMPLEX");

/* Fortran's and C++'s named types share the layout of their C kind's. */
static struct smpi_type *const type_fortran[] = {
	&smpi_type_f_integer,
	&smpi_type_f_real,
	&smpi_type_f_double_precision,
	&smpi_type_f_complex,
	&smpi_type_f_double_complex,
	&smpi_type_f_logical,
	&smpi_type_f_character,
	&smpi_type_f_integer1,
	&smpi_type_f_integer2,
	&smpi_type_f_integer4,
	&smpi_type_f_integer8,
	&smpi_type_f_real4,
	&smpi_type_f_real8,
	&smpi_type_f_complex8,
	&smpi_type_f_complex16,
	&smpi_type_f_2integer,
	&smpi_type_cxx_bool,
	&smpi_type_cxx_float_complex,
	&smpi_type_cxx_double_complex,
	&smpi_type_cxx_long_double_complex,
};
#undef T

/* By kind, for the loops below and the reduction kernels. */
static struct smpi_type *const type_predef[SMPI_NTYPES] = {
	[SMPI_K_CHAR] = &smpi_type_char,
	[SMPI_K_SCHAR] = &smpi_type_signed_char,
	[SMPI_K_UCHAR] = &smpi_type_unsigned_char,
	[SMPI_K_BYTE] = &smpi_type_byte,
	[SMPI_K_WCHAR] = &smpi_type_wchar,
	[SMPI_K_SHORT] = &smpi_type_short,
	[SMPI_K_USHORT] = &smpi_type_unsigned_short,
	[SMPI_K_INT] = &smpi_type_int,
	[SMPI_K_UINT] = &smpi_type_unsigned,
	[SMPI_K_LONG] = &smpi_type_long,
	[SMPI_K_ULONG] = &smpi_type_unsigned_long,
	[SMPI_K_LLONG] = &smpi_type_long_long_int,
	[SMPI_K_ULLONG] = &smpi_type_unsigned_long_long,
	[SMPI_K_FLOAT] = &smpi_type_float,
	[SMPI_K_DOUBLE] = &smpi_type_double,
	[SMPI_K_LDOUBLE] = &smpi_type_long_double,
	[SMPI_K_BOOL] = &smpi_type_c_bool,
	[SMPI_K_I8] = &smpi_type_int8_t,
	[SMPI_K_I16] = &smpi_type_int16_t,
	[SMPI_K_I32] = &smpi_type_int32_t,
	[SMPI_K_I64] = &smpi_type_int64_t,
	[SMPI_K_U8] = &smpi_type_uint8_t,
	[SMPI_K_U16] = &smpi_type_uint16_t,
	[SMPI_K_U32] = &smpi_type_uint32_t,
	[SMPI_K_U64] = &smpi_type_uint64_t,
	[SMPI_K_AINT] = &smpi_type_aint,
	[SMPI_K_OFFSET] = &smpi_type_offset,
	[SMPI_K_COUNT] = &smpi_type_count,
	[SMPI_K_CFLOAT] = &smpi_type_c_float_complex,
	[SMPI_K_CDOUBLE] = &smpi_type_c_double_complex,
	[SMPI_K_CLDOUBLE] = &smpi_type_c_long_double_complex,
	[SMPI_K_I128] = &smpi_type_f_integer16,
	[SMPI_K_F128] = &smpi_type_f_real16,
	[SMPI_K_CF128] = &smpi_type_f_complex32,
	[SMPI_K_PACKED] = &smpi_type_packed,
	[SMPI_K_FLOAT_INT] = &smpi_type_float_int,
	[SMPI_K_DOUBLE_INT] = &smpi_type_double_int,
	[SMPI_K_LONG_INT] = &smpi_type_long_int,
	[SMPI_K_2INT] = &smpi_type_2int,
	[SMPI_K_SHORT_INT] = &smpi_type_short_int,
	[SMPI_K_LDOUBLE_INT] = &smpi_type_long_double_int,
	[SMPI_K_2FLOAT] = &smpi_type_f_2real,
	[SMPI_K_2DOUBLE] = &smpi_type_f_2double_precision,
};

/* Size and alignment of each basic kind, in C's terms, and how its units
 * convert to external32 (by default: byte-reversed, each the whole size). */
#define B(k, t) [k] = { sizeof(t), _Alignof(t), DT_EXT(DT_X_SWAP, sizeof(t)) }
#define BX(k, t, conv, unit) [k] = { sizeof(t), _Alignof(t), DT_EXT(conv, unit) }
static const struct { uint32_t size, align, ext; } type_basic[SMPI_NTYPES] = {
	B(SMPI_K_CHAR, char), B(SMPI_K_SCHAR, signed char), B(SMPI_K_UCHAR, unsigned char),
	B(SMPI_K_BYTE, char), BX(SMPI_K_WCHAR, wchar_t, DT_X_WCHAR, sizeof(wchar_t)),
	B(SMPI_K_SHORT, short), B(SMPI_K_USHORT, unsigned short), B(SMPI_K_INT, int),
	B(SMPI_K_UINT, unsigned), BX(SMPI_K_LONG, long, DT_X_LONG, sizeof(long)),
	BX(SMPI_K_ULONG, unsigned long, DT_X_ULONG, sizeof(long)), B(SMPI_K_LLONG, long long),
	B(SMPI_K_ULLONG, unsigned long long), B(SMPI_K_FLOAT, float), B(SMPI_K_DOUBLE, double),
	BX(SMPI_K_LDOUBLE, long double, DT_X_LDOUBLE, sizeof(long double)),
	B(SMPI_K_BOOL, _Bool), B(SMPI_K_I8, int8_t),
	B(SMPI_K_I16, int16_t), B(SMPI_K_I32, int32_t), B(SMPI_K_I64, int64_t),
	B(SMPI_K_U8, uint8_t), B(SMPI_K_U16, uint16_t), B(SMPI_K_U32, uint32_t),
	B(SMPI_K_U64, uint64_t), B(SMPI_K_AINT, MPI_Aint), B(SMPI_K_OFFSET, MPI_Offset),
	B(SMPI_K_COUNT, MPI_Count), BX(SMPI_K_CFLOAT, float _Complex, DT_X_SWAP, sizeof(float)),
	BX(SMPI_K_CDOUBLE, double _Complex, DT_X_SWAP, sizeof(double)),
	BX(SMPI_K_CLDOUBLE, long double _Complex, DT_X_LDOUBLE, sizeof(long double)),
	B(SMPI_K_I128, smpi_i128), B(SMPI_K_F128, smpi_f128),
	BX(SMPI_K_CF128, smpi_cf128, DT_X_SWAP, sizeof(smpi_f128)),
	B(SMPI_K_PACKED, char),
};
#undef B
#undef BX

static struct dt *type_basic_dt(int kind)
{
	return dt_basic_ext(type_basic[kind].size, type_basic[kind].align, type_basic[kind].ext);
}

/* The MINLOC/MAXLOC pairs: value then index (an int in C's, the value's
 * type in Fortran's 2REAL and 2DOUBLE_PRECISION), laid out as C lays the
 * struct. */
static struct dt *type_pair(int value_kind, int index_kind)
{
	struct dt *v = type_basic_dt(value_kind), *i = type_basic_dt(index_kind);
	const struct dt *ch[2] = { v, i };
	int64_t bl[2] = { 1, 1 }, disp[2] = { 0, 0 }, ia = type_basic[index_kind].align;
	struct dt *p;

	if (!v || !i)
		smpi_fatal("MPI_Init: no memory for the predefined datatypes");
	disp[1] = (type_basic[value_kind].size + ia - 1) & ~(ia - 1);
	p = dt_blocks(2, bl, disp, ch, 1);
	free(v);
	free(i);
	return p;
}

void smpi_type_init(void)
{
	static const int pairs[][3] = {
		{ SMPI_K_FLOAT_INT, SMPI_K_FLOAT, SMPI_K_INT },
		{ SMPI_K_DOUBLE_INT, SMPI_K_DOUBLE, SMPI_K_INT },
		{ SMPI_K_LONG_INT, SMPI_K_LONG, SMPI_K_INT }, { SMPI_K_2INT, SMPI_K_INT, SMPI_K_INT },
		{ SMPI_K_SHORT_INT, SMPI_K_SHORT, SMPI_K_INT },
		{ SMPI_K_LDOUBLE_INT, SMPI_K_LDOUBLE, SMPI_K_INT },
		{ SMPI_K_2FLOAT, SMPI_K_FLOAT, SMPI_K_FLOAT },
		{ SMPI_K_2DOUBLE, SMPI_K_DOUBLE, SMPI_K_DOUBLE },
	};
	int k;

	for (k = SMPI_K_CHAR; k <= SMPI_K_PACKED; k++)
		type_predef[k]->dt = type_basic_dt(k);
	for (k = 0; k < (int)(sizeof pairs / sizeof pairs[0]); k++)
		type_predef[pairs[k][0]]->dt = type_pair(pairs[k][1], pairs[k][2]);
	for (k = SMPI_K_CHAR; k < SMPI_NTYPES; k++)
		if (!type_predef[k]->dt)
			smpi_fatal("MPI_Init: no memory for the predefined datatypes");
	for (k = 0; k < (int)(sizeof type_fortran / sizeof type_fortran[0]); k++)
		type_fortran[k]->dt = type_predef[type_fortran[k]->kind]->dt;
	if (!(smpi_type_lb.dt = dt_marker(0)) || !(smpi_type_ub.dt = dt_marker(1)))
		smpi_fatal("MPI_Init: no memory for the predefined datatypes");
}

MPI_Datatype smpi_type_of_kind(int kind)
{
	return type_predef[kind];
}

int smpi_type_check(MPI_Comm comm, MPI_Datatype type, const char *fn)
{
	if (type == MPI_DATATYPE_NULL)
		return smpi_err(comm, MPI_ERR_TYPE, fn, "datatype is MPI_DATATYPE_NULL");
	if (!smpi_live(type, SMPI_LIVE_TYPE))
		return smpi_err(comm, MPI_ERR_TYPE, fn,
				"datatype %p is not a live datatype (garbage, or freed)", (void *)type);
	if (!type->committed)
		return smpi_err(comm, MPI_ERR_TYPE, fn, "datatype %s is not committed",
				type->name[0] ? type->name : "(derived)");
	return MPI_SUCCESS;
}

void smpi_type_hold(MPI_Datatype type)
{
	if (!type->predefined)
		type->refs++;
}

void smpi_type_release(MPI_Datatype type)
{
	if (type->predefined || --type->refs > 0)
		return;
	smpi_type_drop_extras(type);
	free(type->segs);
	free(type->dt);
	type->live = 0;
	free(type);
}

/* Made by the type's owner at its first copy (a peer reading the layout
 * through SMARTMAP walks it instead), so a type committed and never
 * copied costs nothing. */
const struct dt_segs *smpi_type_segs(MPI_Datatype t)
{
	if (!t->segs_made) {
		t->segs_made = 1;
		t->segs = dt_segments(t->dt);
	}
	return t->segs;
}

size_t smpi_type_copy(void *dst, int64_t rcount, MPI_Datatype rtype,
		      const void *src, int64_t scount, MPI_Datatype stype)
{
	int64_t n = scount * smpi_type_size(stype), m = rcount * smpi_type_size(rtype);

	if (m < n)
		n = m;
	if (dt_is_dense(stype->dt) && dt_is_dense(rtype->dt)) {
		memmove(dst, src, n);
		return n;
	}
	return dt_copy_whole(dst, rtype->dt, smpi_type_segs(rtype), rcount, src, stype->dt,
			     smpi_type_segs(stype), scount, n);
}

/* Wraps a new layout in a handle; kind is the children's if they agree. */
static int type_new(struct dt *t, int kind, int combiner, MPI_Datatype *out, const char *fn)
{
	struct smpi_type *x;

	if (!t || !(x = calloc(1, sizeof *x))) {
		free(t);
		return smpi_err(NULL, MPI_ERR_NO_MEM, fn, "no memory for a datatype");
	}
	x->live = SMPI_LIVE_TYPE;
	x->dt = t;
	x->refs = 1;
	x->kind = kind;
	x->combiner = combiner;
	*out = x;
	return MPI_SUCCESS;
}

/* Checks an input type and the nesting limit. */
static int type_arg(MPI_Datatype t, const char *fn)
{
	int err;

	if ((err = smpi_check_init(fn)))
		return err;
	if (t == MPI_DATATYPE_NULL)
		return smpi_err(NULL, MPI_ERR_TYPE, fn, "oldtype is MPI_DATATYPE_NULL");
	if (dt_root(t->dt)->depth + 1 >= DT_MAXDEPTH)
		return smpi_err(NULL, MPI_ERR_TYPE, fn, "datatypes nest deeper than %d levels",
				DT_MAXDEPTH - 1);
	return MPI_SUCCESS;
}

static int type_vector(int64_t count, int64_t blocklen, int64_t stride, MPI_Datatype old,
		       MPI_Datatype *out, int combiner, const char *fn)
{
	int err;

	if ((err = type_arg(old, fn)))
		return err;
	if (count < 0 || blocklen < 0)
		return smpi_err(NULL, MPI_ERR_COUNT, fn, "count %lld or blocklength %lld is negative",
				(long long)count, (long long)blocklen);
	if (!out)
		return smpi_err(NULL, MPI_ERR_ARG, fn, "newtype pointer is NULL");
	return type_new(dt_vector(count, blocklen, stride, old->dt), old->kind, combiner, out, fn);
}

int PMPI_Type_contiguous(int count, MPI_Datatype old, MPI_Datatype *out)
{
	return smpi_type_args(type_vector(1, count, 0, old, out, MPI_COMBINER_CONTIGUOUS,
					  "MPI_Type_contiguous"), out, 1, &count, 0, NULL, 1, &old);
}

int PMPI_Type_vector(int count, int blocklen, int stride, MPI_Datatype old, MPI_Datatype *out)
{
	int ints[3] = { count, blocklen, stride };

	if (old == MPI_DATATYPE_NULL)
		return type_arg(old, "MPI_Type_vector");
	return smpi_type_args(type_vector(count, blocklen, (int64_t)stride * smpi_type_extent(old),
					  old, out, MPI_COMBINER_VECTOR, "MPI_Type_vector"),
			      out, 3, ints, 0, NULL, 1, &old);
}

int PMPI_Type_create_hvector(int count, int blocklen, MPI_Aint stride, MPI_Datatype old,
			     MPI_Datatype *out)
{
	int ints[2] = { count, blocklen };

	return smpi_type_args(type_vector(count, blocklen, stride, old, out, MPI_COMBINER_HVECTOR,
					  "MPI_Type_create_hvector"), out, 2, ints, 1, &stride, 1,
			      &old);
}

/* Blocks of one or more old types; disp in bytes, or in old's extents
 * when scale is set (the non-h forms). */
static int type_blocks(int count, const int *blocklens, int blocklen, const void *disps,
		       int int_disps, const MPI_Datatype *types, MPI_Datatype one, int pad,
		       int combiner, MPI_Datatype *out, const char *fn)
{
	const struct dt **ch;
	int64_t *bl, *dp;
	int i, kind = -1, err = MPI_SUCCESS;

	if ((err = smpi_check_init(fn)))
		return err;
	if (count < 0)
		return smpi_err(NULL, MPI_ERR_COUNT, fn, "count %d is negative", count);
	if (!out || (count && (!disps || (!blocklens && blocklen < 0) || (!types && !one))))
		return smpi_err(NULL, MPI_ERR_ARG, fn, "NULL argument");
	ch = malloc((count + 1) * sizeof *ch);
	bl = malloc((count + 1) * sizeof *bl);
	dp = malloc((count + 1) * sizeof *dp);
	if (!ch || !bl || !dp) {
		err = smpi_err(NULL, MPI_ERR_NO_MEM, fn, "no memory");
		goto out;
	}
	for (i = 0; i < count && !err; i++) {
		MPI_Datatype t = types ? types[i] : one;

		if ((err = type_arg(t, fn)))
			break;
		bl[i] = blocklens ? blocklens[i] : blocklen;
		if (bl[i] < 0) {
			err = smpi_err(NULL, MPI_ERR_COUNT, fn, "blocklength %lld is negative",
				       (long long)bl[i]);
			break;
		}
		dp[i] = int_disps ? (int64_t)((const int *)disps)[i] * smpi_type_extent(t)
				  : (int64_t)((const MPI_Aint *)disps)[i];
		ch[i] = t->dt;
		/* No data, no say in the kind: MPI_LB, MPI_UB, empty types. */
		if (!dt_root(t->dt)->size)
			continue;
		if (kind == -1 || kind == t->kind)
			kind = t->kind;
		else
			kind = SMPI_K_NONE;
	}
	if (!err)
		err = type_new(dt_blocks(count, bl, dp, ch, pad), kind < 0 ? SMPI_K_NONE : kind,
			       combiner, out, fn);
out:
	free(ch);
	free(bl);
	free(dp);
	return err;
}

/* The arguments of an indexed kind of constructor, for get_contents:
 * count, then n1 ints from a, then n2 from b. */
static int type_args_list(int err, MPI_Datatype *out, int count, const int *a, int n1,
			  const int *b, int n2, int na, const MPI_Aint *addrs, int nd,
			  const MPI_Datatype *types)
{
	int *ints;

	if (err)
		return err;
	if (!(ints = malloc((1 + (size_t)n1 + n2) * sizeof(int))))
		return smpi_err(NULL, MPI_ERR_NO_MEM, "MPI_Type_create", "no memory");
	ints[0] = count;
	if (n1)
		memcpy(ints + 1, a, n1 * sizeof(int));
	if (n2)
		memcpy(ints + 1 + n1, b, n2 * sizeof(int));
	err = smpi_type_args(err, out, 1 + n1 + n2, ints, na, addrs, nd, types);
	free(ints);
	return err;
}

int PMPI_Type_indexed(int count, const int blocklens[], const int disps[], MPI_Datatype old,
		      MPI_Datatype *out)
{
	return type_args_list(type_blocks(count, blocklens, 0, disps, 1, NULL, old, 0,
					  MPI_COMBINER_INDEXED, out, "MPI_Type_indexed"),
			      out, count, blocklens, count, disps, count, 0, NULL, 1, &old);
}

int PMPI_Type_create_hindexed(int count, const int blocklens[], const MPI_Aint disps[],
			      MPI_Datatype old, MPI_Datatype *out)
{
	return type_args_list(type_blocks(count, blocklens, 0, disps, 0, NULL, old, 0,
					  MPI_COMBINER_HINDEXED, out, "MPI_Type_create_hindexed"),
			      out, count, blocklens, count, NULL, 0, count, disps, 1, &old);
}

int PMPI_Type_create_indexed_block(int count, int blocklen, const int disps[], MPI_Datatype old,
				   MPI_Datatype *out)
{
	return type_args_list(type_blocks(count, NULL, blocklen, disps, 1, NULL, old, 0,
					  MPI_COMBINER_INDEXED_BLOCK, out,
					  "MPI_Type_create_indexed_block"),
			      out, count, &blocklen, 1, disps, count, 0, NULL, 1, &old);
}

int PMPI_Type_create_hindexed_block(int count, int blocklen, const MPI_Aint disps[],
				    MPI_Datatype old, MPI_Datatype *out)
{
	return type_args_list(type_blocks(count, NULL, blocklen, disps, 0, NULL, old, 0,
					  MPI_COMBINER_HINDEXED_BLOCK, out,
					  "MPI_Type_create_hindexed_block"),
			      out, count, &blocklen, 1, NULL, 0, count, disps, 1, &old);
}

int PMPI_Type_create_struct(int count, const int blocklens[], const MPI_Aint disps[],
			    const MPI_Datatype types[], MPI_Datatype *out)
{
	if (count > 0 && !types)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Type_create_struct", "types array is NULL");
	return type_args_list(type_blocks(count, blocklens, 0, disps, 0, types, NULL, 1,
					  MPI_COMBINER_STRUCT, out, "MPI_Type_create_struct"),
			      out, count, blocklens, count, NULL, 0, count, disps, count, types);
}

int PMPI_Type_create_resized(MPI_Datatype old, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *out)
{
	MPI_Aint a[2] = { lb, extent };
	int err;

	if ((err = type_arg(old, "MPI_Type_create_resized")))
		return err;
	return smpi_type_args(type_new(dt_resized(old->dt, lb, extent), old->kind,
				       MPI_COMBINER_RESIZED, out, "MPI_Type_create_resized"),
			      out, 0, NULL, 2, a, 1, &old);
}

int PMPI_Type_create_subarray(int ndims, const int sizes[], const int subsizes[],
			      const int starts[], int order, MPI_Datatype old, MPI_Datatype *out)
{
	const char *fn = "MPI_Type_create_subarray";
	struct dt *t, *next;
	int64_t ext, stride, off = 0, full;
	int i, k, err;

	if ((err = type_arg(old, fn)))
		return err;
	if (ndims <= 0 || ndims >= DT_MAXDEPTH - 2 || !sizes || !subsizes || !starts || !out)
		return smpi_err(NULL, MPI_ERR_ARG, fn, "ndims %d or an array is not valid", ndims);
	if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
		return smpi_err(NULL, MPI_ERR_ARG, fn, "order %d is neither C nor Fortran", order);
	for (i = 0; i < ndims; i++)
		if (sizes[i] <= 0 || subsizes[i] <= 0 || subsizes[i] > sizes[i] || starts[i] < 0 ||
		    starts[i] > sizes[i] - subsizes[i])
			return smpi_err(NULL, MPI_ERR_ARG, fn,
					"dimension %d: size %d, subsize %d, start %d do not fit", i,
					sizes[i], subsizes[i], starts[i]);
	ext = smpi_type_extent(old);
	/* Fastest dimension first: a contiguous run, then one hvector per
	 * slower dimension, then the start offset and the full extent. */
	k = order == MPI_ORDER_C ? ndims - 1 : 0;
	t = dt_vector(1, subsizes[k], 0, old->dt);
	stride = ext * sizes[k];
	off = starts[k] * ext;
	for (i = 1; i < ndims && t; i++) {
		k = order == MPI_ORDER_C ? ndims - 1 - i : i;
		next = dt_vector(subsizes[k], 1, stride, t);
		free(t);
		t = next;
		off += starts[k] * stride;
		stride *= sizes[k];
	}
	full = stride;
	if (t) {
		int64_t one = 1;
		const struct dt *ch = t;

		next = dt_blocks(1, &one, &off, &ch, 0);
		free(t);
		t = next;
	}
	if (t) {
		next = dt_resized(t, 0, full);
		free(t);
		t = next;
	}
	err = type_new(t, old->kind, MPI_COMBINER_SUBARRAY, out, fn);
	if (!err) {
		int *ints = malloc((2 + 3 * (size_t)ndims) * sizeof(int));

		if (!ints)
			return smpi_err(NULL, MPI_ERR_NO_MEM, fn, "no memory");
		ints[0] = ndims;
		memcpy(ints + 1, sizes, ndims * sizeof(int));
		memcpy(ints + 1 + ndims, subsizes, ndims * sizeof(int));
		memcpy(ints + 1 + 2 * ndims, starts, ndims * sizeof(int));
		ints[1 + 3 * ndims] = order;
		err = smpi_type_args(err, out, 2 + 3 * ndims, ints, 0, NULL, 1, &old);
		free(ints);
	}
	return err;
}

int PMPI_Type_commit(MPI_Datatype *type)
{
	if (!type || *type == MPI_DATATYPE_NULL)
		return smpi_err(NULL, MPI_ERR_TYPE, "MPI_Type_commit", "datatype is MPI_DATATYPE_NULL");
	(*type)->committed = 1;
	return MPI_SUCCESS;
}

int PMPI_Type_free(MPI_Datatype *type)
{
	if (!type || *type == MPI_DATATYPE_NULL)
		return smpi_err(NULL, MPI_ERR_TYPE, "MPI_Type_free", "datatype is MPI_DATATYPE_NULL");
	if (!smpi_live(*type, SMPI_LIVE_TYPE))
		return smpi_err(NULL, MPI_ERR_TYPE, "MPI_Type_free",
				"datatype %p is not a live datatype (garbage, or freed)", (void *)*type);
	if ((*type)->predefined)
		return smpi_err(NULL, MPI_ERR_TYPE, "MPI_Type_free",
				"%s is predefined and cannot be freed", (*type)->name);
	smpi_type_release(*type);
	*type = MPI_DATATYPE_NULL;
	return MPI_SUCCESS;
}

int PMPI_Type_dup(MPI_Datatype old, MPI_Datatype *out)
{
	struct dt *t;
	int err;

	if ((err = type_arg(old, "MPI_Type_dup")))
		return err;
	t = malloc(old->dt->bytes);
	if (t)
		memcpy(t, old->dt, old->dt->bytes);
	err = type_new(t, old->kind, MPI_COMBINER_DUP, out, "MPI_Type_dup");
	if (!err) {
		/* Not the name, as MPI_Comm_dup here and MPICH's datatypes. */
		(*out)->committed = old->committed;
		err = smpi_type_args(err, out, 0, NULL, 0, NULL, 1, &old);
	}
	if (!err && (err = smpi_attr_copy(SMPI_ATTR_TYPE, old, *out, "MPI_Type_dup")))
		PMPI_Type_free(out);
	return err;
}

/* The size and extent queries: a live type (committed or not) and
 * non-NULL results. */
static int type_query(MPI_Datatype type, const void *out1, const void *out2, const char *fn)
{
	if (type == MPI_DATATYPE_NULL)
		return smpi_err(NULL, MPI_ERR_TYPE, fn, "datatype is MPI_DATATYPE_NULL");
	if (!smpi_live(type, SMPI_LIVE_TYPE))
		return smpi_err(NULL, MPI_ERR_TYPE, fn, "datatype %p is not a live datatype",
				(void *)type);
	if (!out1 || !out2)
		return smpi_err(NULL, MPI_ERR_ARG, fn, "NULL output argument");
	return MPI_SUCCESS;
}

int PMPI_Type_size_x(MPI_Datatype type, MPI_Count *size)
{
	int err;

	if ((err = type_query(type, size, size, "MPI_Type_size_x")))
		return err;
	*size = smpi_type_size(type);
	return MPI_SUCCESS;
}

int PMPI_Type_size(MPI_Datatype type, int *size)
{
	int err;

	if ((err = type_query(type, size, size, "MPI_Type_size")))
		return err;
	*size = smpi_type_size(type) > 0x7fffffff ? MPI_UNDEFINED : (int)smpi_type_size(type);
	return MPI_SUCCESS;
}

/* The (true) lower bound and extent, for the four calls that ask them:
 * the caller's pointers are checked, the values come back in b[2]. */
static int type_bounds(MPI_Datatype type, const void *lb, const void *extent, int true_bounds,
		       int64_t b[2], const char *fn)
{
	const struct dt_node *r;
	int err;

	if ((err = type_query(type, lb, extent, fn)))
		return err;
	r = dt_root(type->dt);
	b[0] = true_bounds ? r->true_lb : r->lb;
	b[1] = true_bounds ? r->true_ub - r->true_lb : r->extent;
	return MPI_SUCCESS;
}

#define TYPE_BOUNDS(name, T, true_bounds)						\
int PMPI_##name(MPI_Datatype type, T *lb, T *extent)					\
{											\
	int64_t b[2];									\
	int err = type_bounds(type, lb, extent, true_bounds, b, "MPI_" #name);		\
											\
	if (!err) {									\
		*lb = (T)b[0];								\
		*extent = (T)b[1];							\
	}										\
	return err;									\
}
TYPE_BOUNDS(Type_get_extent, MPI_Aint, 0)
TYPE_BOUNDS(Type_get_extent_x, MPI_Count, 0)
TYPE_BOUNDS(Type_get_true_extent, MPI_Aint, 1)
TYPE_BOUNDS(Type_get_true_extent_x, MPI_Count, 1)
#undef TYPE_BOUNDS

int PMPI_Type_get_name(MPI_Datatype type, char *name, int *resultlen)
{
	if (type == MPI_DATATYPE_NULL || !name || !resultlen)
		return smpi_err(NULL, MPI_ERR_TYPE, "MPI_Type_get_name", "datatype is MPI_DATATYPE_NULL");
	strcpy(name, type->name);
	*resultlen = strlen(name);
	return MPI_SUCCESS;
}

int PMPI_Type_set_name(MPI_Datatype type, const char *name)
{
	if (type == MPI_DATATYPE_NULL || !name)
		return smpi_err(NULL, MPI_ERR_TYPE, "MPI_Type_set_name", "datatype is MPI_DATATYPE_NULL");
	strncpy(type->name, name, MPI_MAX_OBJECT_NAME - 1);
	type->name[MPI_MAX_OBJECT_NAME - 1] = 0;
	return MPI_SUCCESS;
}

int PMPI_Get_address(const void *location, MPI_Aint *address)
{
	if (!address)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Get_address", "address pointer is NULL");
	*address = (MPI_Aint)location;
	return MPI_SUCCESS;
}

MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp)
{
	return base + disp;
}

MPI_Aint PMPI_Aint_diff(MPI_Aint a, MPI_Aint b)
{
	return a - b;
}

int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype type, void *outbuf, int outsize,
	      int *position, MPI_Comm comm)
{
	int64_t bytes;
	int err;

	if ((err = smpi_check_init("MPI_Pack")) || (err = smpi_type_check(comm, type, "MPI_Pack")))
		return err;
	if (incount < 0 || !position || *position < 0)
		return smpi_err(comm, MPI_ERR_ARG, "MPI_Pack", "bad count %d or position", incount);
	bytes = incount * smpi_type_size(type);
	if (*position + bytes > outsize)
		return smpi_err(comm, MPI_ERR_TRUNCATE, "MPI_Pack",
				"%lld bytes at position %d overflow the %d-byte buffer",
				(long long)bytes, *position, outsize);
	smpi_type_copy((char *)outbuf + *position, bytes, MPI_BYTE, inbuf, incount, type);
	*position += bytes;
	return MPI_SUCCESS;
}

int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
		MPI_Datatype type, MPI_Comm comm)
{
	int64_t bytes;
	int err;

	if ((err = smpi_check_init("MPI_Unpack")) || (err = smpi_type_check(comm, type, "MPI_Unpack")))
		return err;
	if (outcount < 0 || !position || *position < 0)
		return smpi_err(comm, MPI_ERR_ARG, "MPI_Unpack", "bad count %d or position", outcount);
	bytes = outcount * smpi_type_size(type);
	if (*position + bytes > insize)
		return smpi_err(comm, MPI_ERR_TRUNCATE, "MPI_Unpack",
				"%lld bytes at position %d run past the %d-byte buffer",
				(long long)bytes, *position, insize);
	smpi_type_copy(outbuf, outcount, type, (const char *)inbuf + *position, bytes, MPI_BYTE);
	*position += bytes;
	return MPI_SUCCESS;
}

int PMPI_Pack_size(int incount, MPI_Datatype type, MPI_Comm comm, int *size)
{
	int err;

	if ((err = smpi_type_check(comm, type, "MPI_Pack_size")))
		return err;
	if (incount < 0 || !size)
		return smpi_err(comm, MPI_ERR_ARG, "MPI_Pack_size", "bad count %d", incount);
	*size = incount * smpi_type_size(type);
	return MPI_SUCCESS;
}

SMPI_ALIAS(Type_contiguous)
SMPI_ALIAS(Type_vector)
SMPI_ALIAS(Type_create_hvector)
SMPI_ALIAS(Type_indexed)
SMPI_ALIAS(Type_create_hindexed)
SMPI_ALIAS(Type_create_indexed_block)
SMPI_ALIAS(Type_create_hindexed_block)
SMPI_ALIAS(Type_create_struct)
SMPI_ALIAS(Type_create_resized)
SMPI_ALIAS(Type_create_subarray)
SMPI_ALIAS(Type_commit)
SMPI_ALIAS(Type_free)
SMPI_ALIAS(Type_dup)
SMPI_ALIAS(Type_size)
SMPI_ALIAS(Type_size_x)
SMPI_ALIAS(Type_get_extent)
SMPI_ALIAS(Type_get_extent_x)
SMPI_ALIAS(Type_get_true_extent)
SMPI_ALIAS(Type_get_true_extent_x)
SMPI_ALIAS(Type_get_name)
SMPI_ALIAS(Type_set_name)
SMPI_ALIAS(Get_address)
SMPI_ALIAS(Aint_add)
SMPI_ALIAS(Aint_diff)
SMPI_ALIAS(Pack)
SMPI_ALIAS(Unpack)
SMPI_ALIAS(Pack_size)
