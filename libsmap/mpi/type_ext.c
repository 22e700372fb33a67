/*
 * type_ext.c - what a datatype says about itself and what hangs on it:
 * envelopes and contents (every constructor records its arguments),
 * attributes, distributed arrays (MPI_Type_create_darray), the types a
 * size or a Fortran precision names (match_size, create_f90_*), and the
 * external32 representation.
 */
#include <stdlib.h>
#include <string.h>
#include "impl.h"

struct smpi_type_args {
	int ni, na, nd;
	int *ints;
	MPI_Aint *addrs;
	MPI_Datatype *types;
};

int smpi_type_args(int err, MPI_Datatype *out, int ni, const int *ints, int na,
		   const MPI_Aint *addrs, int nd, const MPI_Datatype *types)
{
	struct smpi_type_args *a;

	if (err)
		return err;
	a = calloc(1, sizeof *a);
	if (!a || (ni && !(a->ints = malloc(ni * sizeof(int)))) ||
	    (na && !(a->addrs = malloc(na * sizeof(MPI_Aint)))) ||
	    (nd && !(a->types = malloc(nd * sizeof(MPI_Datatype))))) {
		if (a) {
			free(a->ints);
			free(a->addrs);
		}
		free(a);
		return smpi_err(NULL, MPI_ERR_NO_MEM, "MPI_Type_create", "no memory");
	}
	a->ni = ni;
	a->na = na;
	a->nd = nd;
	if (ni)
		memcpy(a->ints, ints, ni * sizeof(int));
	if (na)
		memcpy(a->addrs, addrs, na * sizeof(MPI_Aint));
	for (int i = 0; i < nd; i++) {
		a->types[i] = types[i];
		smpi_type_hold(types[i]);
	}
	(*out)->args = a;
	return MPI_SUCCESS;
}

static int type_live_check(MPI_Datatype type, const char *fn)
{
	if (type == MPI_DATATYPE_NULL || !smpi_live(type, SMPI_LIVE_TYPE))
		return smpi_err(NULL, MPI_ERR_TYPE, fn, "datatype %p is not a live datatype",
				(void *)type);
	return MPI_SUCCESS;
}

int PMPI_Type_get_envelope(MPI_Datatype type, int *num_integers, int *num_addresses,
			   int *num_datatypes, int *combiner)
{
	const char *fn = "MPI_Type_get_envelope";
	int err;

	if ((err = type_live_check(type, fn)))
		return err;
	if (!num_integers || !num_addresses || !num_datatypes || !combiner)
		return smpi_err(NULL, MPI_ERR_ARG, fn, "NULL argument");
	if (!type->args) {
		*num_integers = *num_addresses = *num_datatypes = 0;
		*combiner = MPI_COMBINER_NAMED;
		return MPI_SUCCESS;
	}
	*num_integers = type->args->ni;
	*num_addresses = type->args->na;
	*num_datatypes = type->args->nd;
	*combiner = type->combiner;
	return MPI_SUCCESS;
}

int PMPI_Type_get_contents(MPI_Datatype type, int max_integers, int max_addresses,
			   int max_datatypes, int array_of_integers[],
			   MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[])
{
	const char *fn = "MPI_Type_get_contents";
	struct smpi_type_args *a;

	if (type == MPI_DATATYPE_NULL || !smpi_live(type, SMPI_LIVE_TYPE))
		return smpi_err(NULL, MPI_ERR_TYPE, fn, "datatype %p is not a live datatype",
				(void *)type);
	if (!(a = type->args))
		return smpi_err(NULL, MPI_ERR_TYPE, fn,
				"%s is a named (predefined) datatype: it has no contents",
				type->name[0] ? type->name : "the datatype");
	if (max_integers < a->ni || max_addresses < a->na || max_datatypes < a->nd)
		return smpi_err(NULL, MPI_ERR_ARG, fn,
				"room for %d ints, %d addresses, %d types; the type has %d, %d, %d",
				max_integers, max_addresses, max_datatypes, a->ni, a->na, a->nd);
	if ((a->ni && !array_of_integers) || (a->na && !array_of_addresses) ||
	    (a->nd && !array_of_datatypes))
		return smpi_err(NULL, MPI_ERR_ARG, fn, "NULL array");
	if (a->ni)
		memcpy(array_of_integers, a->ints, a->ni * sizeof(int));
	if (a->na)
		memcpy(array_of_addresses, a->addrs, a->na * sizeof(MPI_Aint));
	/* Handles the caller may free: each derived one holds a reference. */
	for (int i = 0; i < a->nd; i++) {
		array_of_datatypes[i] = a->types[i];
		smpi_type_hold(a->types[i]);
	}
	return MPI_SUCCESS;
}

/* ---- attributes ---- */

int PMPI_Type_create_keyval(MPI_Type_copy_attr_function *copy_fn,
			    MPI_Type_delete_attr_function *delete_fn, int *keyval,
			    void *extra_state)
{
	return smpi_keyval_create(SMPI_ATTR_TYPE, (smpi_attr_fn)copy_fn, (smpi_attr_fn)delete_fn,
				  extra_state, keyval, "MPI_Type_create_keyval");
}

int PMPI_Type_free_keyval(int *keyval)
{
	return smpi_keyval_free(SMPI_ATTR_TYPE, keyval, "MPI_Type_free_keyval");
}

int PMPI_Type_delete_attr(MPI_Datatype type, int keyval)
{
	int err;

	if ((err = type_live_check(type, "MPI_Type_delete_attr")))
		return err;
	return smpi_attr_delete(SMPI_ATTR_TYPE, type, keyval, "MPI_Type_delete_attr");
}

int PMPI_Type_set_attr(MPI_Datatype type, int keyval, void *attribute_val)
{
	int err;

	if ((err = type_live_check(type, "MPI_Type_set_attr")))
		return err;
	return smpi_attr_set(SMPI_ATTR_TYPE, type, keyval, attribute_val, "MPI_Type_set_attr");
}

int PMPI_Type_get_attr(MPI_Datatype type, int keyval, void *attribute_val, int *flag)
{
	int err;

	if ((err = type_live_check(type, "MPI_Type_get_attr")))
		return err;
	return smpi_attr_get(SMPI_ATTR_TYPE, type, keyval, attribute_val, flag,
			     "MPI_Type_get_attr");
}

void smpi_type_drop_extras(MPI_Datatype type)
{
	smpi_attr_clear(SMPI_ATTR_TYPE, type);
	if (type->args) {
		for (int i = 0; i < type->args->nd; i++)
			smpi_type_release(type->args->types[i]);
		free(type->args->ints);
		free(type->args->addrs);
		free(type->args->types);
		free(type->args);
		type->args = NULL;
	}
}

/* ---- distributed arrays ---- */

/*
 * MPI 3.1 section 4.1.4: the process grid is numbered row-major; along
 * each dimension this process owns blocks of the global index space
 * (one block for BLOCK, every psize-th block of darg for CYCLIC, all of
 * it for NONE).  Built fastest dimension first: each dimension's blocks
 * of the faster dimensions' type, resized to the dimension's whole
 * extent, so the result's extent is the whole global array.
 */
int PMPI_Type_create_darray(int size, int rank, int ndims, const int gsizes[],
			    const int distribs[], const int dargs[], const int psizes[], int order,
			    MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	const char *fn = "MPI_Type_create_darray";
	MPI_Datatype cur, next;
	MPI_Aint ext, lb, stride;
	int err, np = 1, i, r, *coords, *ints;

	if ((err = smpi_check_init(fn)) || (err = type_live_check(oldtype, fn)))
		return err;
	if (ndims <= 0 || !gsizes || !distribs || !dargs || !psizes || !newtype ||
	    (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN))
		return smpi_err(NULL, MPI_ERR_ARG, fn, "ndims %d, an array or the order is not valid",
				ndims);
	for (i = 0; i < ndims; i++) {
		if (gsizes[i] <= 0 || psizes[i] <= 0)
			return smpi_err(NULL, MPI_ERR_ARG, fn,
					"dimension %d: gsize %d, psize %d", i, gsizes[i], psizes[i]);
		if (distribs[i] == MPI_DISTRIBUTE_NONE && psizes[i] != 1)
			return smpi_err(NULL, MPI_ERR_ARG, fn,
					"dimension %d is not distributed but has %d processes", i,
					psizes[i]);
		if (distribs[i] == MPI_DISTRIBUTE_BLOCK && dargs[i] != MPI_DISTRIBUTE_DFLT_DARG &&
		    (long long)dargs[i] * psizes[i] < gsizes[i])
			return smpi_err(NULL, MPI_ERR_ARG, fn,
					"dimension %d: blocks of %d on %d processes miss some of %d",
					i, dargs[i], psizes[i], gsizes[i]);
		if (distribs[i] != MPI_DISTRIBUTE_NONE && distribs[i] != MPI_DISTRIBUTE_BLOCK &&
		    distribs[i] != MPI_DISTRIBUTE_CYCLIC)
			return smpi_err(NULL, MPI_ERR_ARG, fn, "dimension %d: distribution %d", i,
					distribs[i]);
		if (dargs[i] <= 0 && dargs[i] != MPI_DISTRIBUTE_DFLT_DARG)
			return smpi_err(NULL, MPI_ERR_ARG, fn, "dimension %d: darg %d", i, dargs[i]);
		np *= psizes[i];
	}
	if (np != size || rank < 0 || rank >= size)
		return smpi_err(NULL, MPI_ERR_ARG, fn,
				"a grid of %d processes for size %d, or rank %d outside it", np, size,
				rank);
	if (!(coords = malloc(ndims * sizeof(int))))
		return smpi_err(NULL, MPI_ERR_NO_MEM, fn, "no memory");
	for (i = ndims - 1, r = rank; i >= 0; i--) {
		coords[i] = r % psizes[i];
		r /= psizes[i];
	}
	PMPI_Type_get_extent(oldtype, &lb, &ext);
	cur = oldtype;
	smpi_type_hold(cur);
	stride = ext;
	for (int k = 0; k < ndims; k++) {
		int d = order == MPI_ORDER_C ? ndims - 1 - k : k, g = gsizes[d], p = psizes[d];
		int c = coords[d], dist = distribs[d], darg = dargs[d], nb = 0;
		int blk = dist == MPI_DISTRIBUTE_NONE ? g :
			  darg != MPI_DISTRIBUTE_DFLT_DARG ? darg :
			  dist == MPI_DISTRIBUTE_BLOCK ? (g + p - 1) / p : 1;
		int nblocks = (g + blk - 1) / blk, *bl = malloc(((size_t)nblocks + 1) * sizeof(int));
		MPI_Aint *dp = malloc(((size_t)nblocks + 1) * sizeof(MPI_Aint));
		MPI_Datatype blocks;

		if (!bl || !dp) {
			free(bl);
			free(dp);
			free(coords);
			smpi_type_release(cur);
			return smpi_err(NULL, MPI_ERR_NO_MEM, fn, "no memory");
		}
		if (dist == MPI_DISTRIBUTE_NONE)
			c = 0, p = 1;
		for (int b = c; b < nblocks; b += p) {
			bl[nb] = g - b * blk < blk ? g - b * blk : blk;
			dp[nb++] = (MPI_Aint)b * blk * stride;
		}
		err = PMPI_Type_create_hindexed(nb, bl, dp, cur, &blocks);
		free(bl);
		free(dp);
		if (!err) {
			err = PMPI_Type_create_resized(blocks, 0, stride * g, &next);
			PMPI_Type_free(&blocks);
		}
		smpi_type_release(cur);
		if (err) {
			free(coords);
			return err;
		}
		cur = next;
		stride *= g;
	}
	free(coords);
	/* The result carries the darray's own envelope, not its parts'. */
	smpi_type_drop_extras(cur);
	cur->combiner = MPI_COMBINER_DARRAY;
	if (!(ints = malloc((4 + 4 * (size_t)ndims) * sizeof(int)))) {
		smpi_type_release(cur);
		return smpi_err(NULL, MPI_ERR_NO_MEM, fn, "no memory");
	}
	ints[0] = size;
	ints[1] = rank;
	ints[2] = ndims;
	memcpy(ints + 3, gsizes, ndims * sizeof(int));
	memcpy(ints + 3 + ndims, distribs, ndims * sizeof(int));
	memcpy(ints + 3 + 2 * ndims, dargs, ndims * sizeof(int));
	memcpy(ints + 3 + 3 * ndims, psizes, ndims * sizeof(int));
	ints[3 + 4 * ndims] = order;
	*newtype = cur;
	err = smpi_type_args(MPI_SUCCESS, newtype, 4 + 4 * ndims, ints, 0, NULL, 1, &oldtype);
	free(ints);
	return err;
}

/* ---- types named by a size or a precision ---- */

int PMPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype)
{
	const char *fn = "MPI_Type_match_size";
	static const struct {
		int cls, size;
		MPI_Datatype type;
	} match[] = {
		{ MPI_TYPECLASS_INTEGER, 1, MPI_INT8_T },
		{ MPI_TYPECLASS_INTEGER, 2, MPI_INT16_T },
		{ MPI_TYPECLASS_INTEGER, 4, MPI_INT32_T },
		{ MPI_TYPECLASS_INTEGER, 8, MPI_INT64_T },
		{ MPI_TYPECLASS_INTEGER, 16, MPI_INTEGER16 },
		{ MPI_TYPECLASS_REAL, 4, MPI_FLOAT },
		{ MPI_TYPECLASS_REAL, 8, MPI_DOUBLE },
		{ MPI_TYPECLASS_REAL, 16, MPI_LONG_DOUBLE },
		{ MPI_TYPECLASS_COMPLEX, 8, MPI_C_FLOAT_COMPLEX },
		{ MPI_TYPECLASS_COMPLEX, 16, MPI_C_DOUBLE_COMPLEX },
		{ MPI_TYPECLASS_COMPLEX, 32, MPI_C_LONG_DOUBLE_COMPLEX },
	};

	if (!datatype)
		return smpi_err(NULL, MPI_ERR_ARG, fn, "datatype pointer is NULL");
	for (size_t i = 0; i < sizeof match / sizeof *match; i++)
		if (match[i].cls == typeclass && match[i].size == size) {
			*datatype = match[i].type;
			return MPI_SUCCESS;
		}
	return smpi_err(NULL, MPI_ERR_ARG, fn, "no type of class %d and %d bytes", typeclass, size);
}

/*
 * Fortran's SELECTED_REAL_KIND / SELECTED_INT_KIND: the smallest type with
 * p decimal digits and exponent range r.  Each (p, r) asked for gets a
 * handle of its own, returned again for the same (p, r) (the standard
 * allows it: they are predefined in all but name), with the F90 combiner
 * and that (p, r) - MPI_UNDEFINED included - as its contents.
 */
struct f90_type {
	struct f90_type *next;
	int combiner, ints[2];
	struct smpi_type t;
};

static struct f90_type *f90_types;

/* Predefined in all but name: never freed; the envelope says F90. */
static int f90_type(MPI_Datatype base, int combiner, int ni, const int *ints, MPI_Datatype *out)
{
	struct f90_type *f;
	struct smpi_type *t;

	for (f = f90_types; f; f = f->next)
		if (f->combiner == combiner && !memcmp(f->ints, ints, (size_t)ni * sizeof(int))) {
			*out = &f->t;
			return MPI_SUCCESS;
		}
	if (!(f = calloc(1, sizeof *f)))
		return MPI_ERR_NO_MEM;
	memcpy(f->ints, ints, (size_t)ni * sizeof(int));
	f->combiner = combiner;
	t = &f->t;
	*t = *base;
	t->combiner = combiner;
	t->args = NULL;
	t->attrs = NULL;
	if (smpi_type_args(MPI_SUCCESS, &t, ni, ints, 0, NULL, 0, NULL)) {
		free(f);
		return MPI_ERR_NO_MEM;
	}
	f->next = f90_types;
	f90_types = f;
	*out = t;
	return MPI_SUCCESS;
}

/* gfortran's kinds 4, 8, 10 (x87 extended) and 16 (IEEE quad), as
 * SELECTED_REAL_KIND picks them: the first with p digits and range r. */
static int f90_real_index(int p, int r)
{
	static const int digits[4] = { 6, 15, 18, 33 }, range[4] = { 37, 307, 4931, 4931 };

	if (p == MPI_UNDEFINED && r == MPI_UNDEFINED)
		return -1;
	for (int i = 0; i < 4; i++)
		if ((p == MPI_UNDEFINED || p <= digits[i]) && (r == MPI_UNDEFINED || r <= range[i]))
			return i;
	return -1;
}

int PMPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype)
{
	int ints[2] = { p, r }, idx;

	if (!newtype)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Type_create_f90_real", "NULL argument");
	if ((idx = f90_real_index(p, r)) < 0)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Type_create_f90_real",
				"no real of precision %d and range %d", p, r);
	return f90_type(((const MPI_Datatype[]){ MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE,
						 MPI_REAL16 })[idx],
			MPI_COMBINER_F90_REAL, 2, ints, newtype);
}

int PMPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype)
{
	int ints[2] = { p, r }, idx;

	if (!newtype)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Type_create_f90_complex", "NULL argument");
	if ((idx = f90_real_index(p, r)) < 0)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Type_create_f90_complex",
				"no complex of precision %d and range %d", p, r);
	return f90_type(((const MPI_Datatype[]){ MPI_C_FLOAT_COMPLEX, MPI_C_DOUBLE_COMPLEX,
						 MPI_C_LONG_DOUBLE_COMPLEX, MPI_COMPLEX32 })[idx],
			MPI_COMBINER_F90_COMPLEX, 2, ints, newtype);
}

int PMPI_Type_create_f90_integer(int r, MPI_Datatype *newtype)
{
	static const int range[5] = { 2, 4, 9, 18, 38 };
	MPI_Datatype base[5] = { MPI_INT8_T, MPI_INT16_T, MPI_INT32_T, MPI_INT64_T, MPI_INTEGER16 };
	int idx;

	if (!newtype)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Type_create_f90_integer", "NULL argument");
	/* Decimal exponent ranges of 1, 2, 4, 8 and 16 byte integers. */
	for (idx = 0; idx < 5 && r > range[idx]; idx++)
		;
	if (idx == 5)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Type_create_f90_integer",
				"no integer of range %d", r);
	return f90_type(base[idx], MPI_COMBINER_F90_INTEGER, 1, &r, newtype);
}

/* ---- external32: big-endian, IEEE, sizes of its own (dt.h) ---- */

/* Converts one unit between its native bytes and its external32 bytes, in
 * the direction pack says; the two may be the same memory. */
static void ext32_unit(uint32_t ext, unsigned char *nat, unsigned char *x, int pack)
{
	uint32_t unit = DT_EXT_UNIT(ext), xb = dt_ext_bytes(ext);
	unsigned char be[16], le[16] = { 0 };
	long double ld;
	smpi_f128 q;

	if (pack)
		memcpy(le, nat, unit);
	else
		for (uint32_t i = 0; i < xb; i++)
			le[i] = x[xb - 1 - i];
	switch (DT_EXT_CONV(ext)) {
	case DT_X_LONG:
		if (!pack && (le[3] & 0x80))
			memset(le + 4, 0xff, 4);
		break;
	case DT_X_LDOUBLE:
		if (pack) {
			memcpy(&ld, le, sizeof ld);
			q = ld;
			memcpy(le, &q, sizeof q);
		} else {
			memcpy(&q, le, sizeof q);
			ld = (long double)q;
			memcpy(le, &ld, sizeof ld);
		}
		break;
	default:	/* SWAP; ULONG and WCHAR: the upper bytes are zero */
		break;
	}
	if (pack) {
		for (uint32_t i = 0; i < xb; i++)
			be[i] = le[xb - 1 - i];
		memcpy(x, be, xb);
	} else {
		memcpy(nat, le, unit);
	}
}

/* Converts count elements of node n of t between native packed bytes at
 * *nat and external32 bytes at *x, advancing both. */
static void ext32_walk(const struct dt *t, const struct dt_node *n, int64_t count,
		       unsigned char **nat, unsigned char **x, int pack)
{
	const struct dt_block *blk = (const struct dt_block *)&t->node[t->nnodes];

	for (int64_t e = 0; e < count; e++) {
		if (n->kind == DT_LEAF) {
			uint32_t unit = DT_EXT_UNIT(n->ext), xb = dt_ext_bytes(n->ext);

			for (int64_t b = 0; unit && b + unit <= n->size; b += unit) {
				ext32_unit(n->ext, *nat, *x, pack);
				*nat += unit;
				*x += xb;
			}
		} else if (n->kind == DT_VECTOR) {
			ext32_walk(t, &t->node[n->child], n->count * n->blocklen, nat, x, pack);
		} else {
			for (int64_t b = 0; b < n->count; b++)
				ext32_walk(t, &t->node[blk[n->child + b].child],
					   blk[n->child + b].blocklen, nat, x, pack);
		}
	}
}

static int ext32_check(const char *datarep, MPI_Datatype type, const char *fn)
{
	if (!datarep || strcmp(datarep, "external32"))
		return smpi_err(NULL, MPI_ERR_UNSUPPORTED_DATAREP, fn,
				"data representation \"%s\": only \"external32\"",
				datarep ? datarep : "(null)");
	return smpi_type_check(NULL, type, fn);
}

int PMPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype datatype,
			    MPI_Aint *size)
{
	int err;

	if ((err = ext32_check(datarep, datatype, "MPI_Pack_external_size")))
		return err;
	if (!size || incount < 0)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Pack_external_size", "NULL size or count < 0");
	*size = (MPI_Aint)incount * dt_root(datatype->dt)->xsize;
	return MPI_SUCCESS;
}

int PMPI_Pack_external(const char datarep[], const void *inbuf, int incount,
		       MPI_Datatype datatype, void *outbuf, MPI_Aint outsize, MPI_Aint *position)
{
	const char *fn = "MPI_Pack_external";
	const struct dt_node *r;
	unsigned char *tmp, *nat, *x;
	int64_t need, size;
	int err;

	if ((err = ext32_check(datarep, datatype, fn)))
		return err;
	if (!position || incount < 0 || (!outbuf && outsize))
		return smpi_err(NULL, MPI_ERR_ARG, fn, "NULL position or buffer, or count < 0");
	r = dt_root(datatype->dt);
	need = incount * r->xsize;
	if (*position < 0 || *position + need > outsize)
		return smpi_err(NULL, MPI_ERR_TRUNCATE, fn, "%lld bytes at %lld do not fit in %lld",
				(long long)need, (long long)*position, (long long)outsize);
	x = (unsigned char *)outbuf + *position;
	size = incount * r->size;
	/* Where no unit changes size the conversion works in place. */
	tmp = size == need ? x : malloc(size ? size : 1);
	if (!tmp)
		return smpi_err(NULL, MPI_ERR_NO_MEM, fn, "no memory");
	smpi_type_copy(tmp, size, MPI_BYTE, inbuf, incount, datatype);
	nat = tmp;
	ext32_walk(datatype->dt, r, incount, &nat, &x, 1);
	if (tmp != (unsigned char *)outbuf + *position)
		free(tmp);
	*position += need;
	return MPI_SUCCESS;
}

int PMPI_Unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize,
			 MPI_Aint *position, void *outbuf, int outcount, MPI_Datatype datatype)
{
	const char *fn = "MPI_Unpack_external";
	const struct dt_node *r;
	unsigned char *tmp, *nat, *x;
	int64_t need, size;
	int err;

	if ((err = ext32_check(datarep, datatype, fn)))
		return err;
	if (!position || outcount < 0 || (!inbuf && insize))
		return smpi_err(NULL, MPI_ERR_ARG, fn, "NULL position or buffer, or count < 0");
	r = dt_root(datatype->dt);
	need = outcount * r->xsize;
	if (*position < 0 || *position + need > insize)
		return smpi_err(NULL, MPI_ERR_TRUNCATE, fn, "%lld bytes at %lld, but %lld in all",
				(long long)need, (long long)*position, (long long)insize);
	size = outcount * r->size;
	if (!(tmp = malloc(size ? size : 1)))
		return smpi_err(NULL, MPI_ERR_NO_MEM, fn, "no memory");
	nat = tmp;
	x = (unsigned char *)inbuf + *position;
	ext32_walk(datatype->dt, r, outcount, &nat, &x, 0);
	smpi_type_copy(outbuf, outcount, datatype, tmp, size, MPI_BYTE);
	free(tmp);
	*position += need;
	return MPI_SUCCESS;
}

SMPI_ALIAS(Type_get_envelope)
SMPI_ALIAS(Type_get_contents)
SMPI_ALIAS(Type_create_keyval)
SMPI_ALIAS(Type_free_keyval)
SMPI_ALIAS(Type_set_attr)
SMPI_ALIAS(Type_get_attr)
SMPI_ALIAS(Type_delete_attr)
SMPI_ALIAS(Type_create_darray)
SMPI_ALIAS(Type_match_size)
SMPI_ALIAS(Type_create_f90_real)
/* MPI 4.1: the predefined MINLOC/MAXLOC pair of a value and an index
 * type, MPI_DATATYPE_NULL when there is none. */
int PMPI_Type_get_value_index(MPI_Datatype value_type, MPI_Datatype index_type,
			      MPI_Datatype *pair_type)
{
	static const struct {
		MPI_Datatype value, index, pair;
	} pairs[] = {
		{ MPI_FLOAT, MPI_INT, MPI_FLOAT_INT },
		{ MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT },
		{ MPI_LONG, MPI_INT, MPI_LONG_INT },
		{ MPI_INT, MPI_INT, MPI_2INT },
		{ MPI_SHORT, MPI_INT, MPI_SHORT_INT },
		{ MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT },
		{ MPI_REAL, MPI_REAL, MPI_2REAL },
		{ MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_2DOUBLE_PRECISION },
		{ MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER },
	};
	const char *fn = "MPI_Type_get_value_index";
	size_t i;
	int err;

	if ((err = smpi_type_check(NULL, value_type, fn)) ||
	    (err = smpi_type_check(NULL, index_type, fn)))
		return err;
	if (!pair_type)
		return smpi_err(NULL, MPI_ERR_ARG, fn, "pair_type pointer is NULL");
	*pair_type = MPI_DATATYPE_NULL;
	for (i = 0; i < sizeof pairs / sizeof *pairs; i++)
		if (pairs[i].value == value_type && pairs[i].index == index_type)
			*pair_type = pairs[i].pair;
	return MPI_SUCCESS;
}

SMPI_ALIAS(Type_get_value_index)
SMPI_ALIAS(Type_create_f90_complex)
SMPI_ALIAS(Type_create_f90_integer)
SMPI_ALIAS(Pack_external_size)
SMPI_ALIAS(Pack_external)
SMPI_ALIAS(Unpack_external)
