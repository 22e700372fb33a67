/*
 * mpit_dtx.c - what datatypes say about themselves: envelopes and contents
 * of every constructor (rebuilt from its contents, the copy packs the same
 * bytes), named types, type attributes (copy on dup, delete on free),
 * darrays (block, cyclic(2), none; C and Fortran order: the elements each
 * rank owns, computed here independently, and the extent), match_size,
 * the f90 types, and external32 bytes against literal big-endian ones
 * (with the types whose external size is not the native one).
 */
#include <complex.h>
#include <limits.h>
#include <stdlib.h>
#include <wchar.h>
#include "mpit.h"

static int wrank, wsize, bad;

static int err_class(int err)
{
	int cls;

	MPI_Error_class(err, &cls);
	return cls;
}

/* The ints a type packs from an array holding 0, 1, 2 ... (at most n). */
static int packed_ints(MPI_Datatype t, int *out, int n)
{
	static int src[4096];
	char buf[16384];
	int pos = 0, size;

	for (int i = 0; i < 4096; i++)
		src[i] = i;
	MPI_Type_size(t, &size);
	if (size > (int)sizeof buf || size / (int)sizeof(int) > n)
		return -1;
	MPI_Pack(src, 1, t, buf, sizeof buf, &pos, MPI_COMM_SELF);
	memcpy(out, buf, pos);
	return pos / (int)sizeof(int);
}

/* Rebuilds a type from its envelope and contents. */
static MPI_Datatype rebuild(MPI_Datatype t, int *combiner)
{
	int ni, na, nd, ints[64];
	MPI_Aint addrs[16];
	MPI_Datatype types[16], r = MPI_DATATYPE_NULL;

	MPI_Type_get_envelope(t, &ni, &na, &nd, combiner);
	if (ni > 64 || na > 16 || nd > 16)
		return r;
	MPI_Type_get_contents(t, ni, na, nd, ints, addrs, types);
	switch (*combiner) {
	case MPI_COMBINER_CONTIGUOUS:
		MPI_Type_contiguous(ints[0], types[0], &r);
		break;
	case MPI_COMBINER_VECTOR:
		MPI_Type_vector(ints[0], ints[1], ints[2], types[0], &r);
		break;
	case MPI_COMBINER_HVECTOR:
		MPI_Type_create_hvector(ints[0], ints[1], addrs[0], types[0], &r);
		break;
	case MPI_COMBINER_INDEXED:
		MPI_Type_indexed(ints[0], ints + 1, ints + 1 + ints[0], types[0], &r);
		break;
	case MPI_COMBINER_HINDEXED:
		MPI_Type_create_hindexed(ints[0], ints + 1, addrs, types[0], &r);
		break;
	case MPI_COMBINER_INDEXED_BLOCK:
		MPI_Type_create_indexed_block(ints[0], ints[1], ints + 2, types[0], &r);
		break;
	case MPI_COMBINER_HINDEXED_BLOCK:
		MPI_Type_create_hindexed_block(ints[0], ints[1], addrs, types[0], &r);
		break;
	case MPI_COMBINER_STRUCT:
		MPI_Type_create_struct(ints[0], ints + 1, addrs, types, &r);
		break;
	case MPI_COMBINER_RESIZED:
		MPI_Type_create_resized(types[0], addrs[0], addrs[1], &r);
		break;
	case MPI_COMBINER_SUBARRAY:
		MPI_Type_create_subarray(ints[0], ints + 1, ints + 1 + ints[0],
					 ints + 1 + 2 * ints[0], ints[1 + 3 * ints[0]], types[0], &r);
		break;
	case MPI_COMBINER_DUP:
		MPI_Type_dup(types[0], &r);
		break;
	}
	for (int i = 0; i < nd; i++) {
		int a, b, c, comb;

		MPI_Type_get_envelope(types[i], &a, &b, &c, &comb);
		if (comb != MPI_COMBINER_NAMED)
			MPI_Type_free(&types[i]);
	}
	if (r != MPI_DATATYPE_NULL)
		MPI_Type_commit(&r);
	return r;
}

static void t_contents(void)
{
	int bl[3] = { 2, 1, 3 }, di[3] = { 0, 5, 9 }, sizes[2] = { 6, 8 }, sub[2] = { 2, 3 };
	int st[2] = { 1, 4 };
	MPI_Aint da[3] = { 0, 24, 40 };
	MPI_Datatype old[3] = { MPI_INT, MPI_INT, MPI_INT }, t[12], vec;
	int want[12] = { MPI_COMBINER_CONTIGUOUS, MPI_COMBINER_VECTOR, MPI_COMBINER_HVECTOR,
			 MPI_COMBINER_INDEXED, MPI_COMBINER_HINDEXED, MPI_COMBINER_INDEXED_BLOCK,
			 MPI_COMBINER_HINDEXED_BLOCK, MPI_COMBINER_STRUCT, MPI_COMBINER_RESIZED,
			 MPI_COMBINER_SUBARRAY, MPI_COMBINER_DUP, MPI_COMBINER_VECTOR };
	int ni, na, nd, comb;

	MPI_Type_contiguous(3, MPI_INT, &t[0]);
	MPI_Type_vector(3, 2, 4, MPI_INT, &t[1]);
	MPI_Type_create_hvector(2, 3, 40, MPI_INT, &t[2]);
	MPI_Type_indexed(3, bl, di, MPI_INT, &t[3]);
	MPI_Type_create_hindexed(3, bl, da, MPI_INT, &t[4]);
	MPI_Type_create_indexed_block(3, 2, di, MPI_INT, &t[5]);
	MPI_Type_create_hindexed_block(3, 2, da, MPI_INT, &t[6]);
	MPI_Type_create_struct(3, bl, da, old, &t[7]);
	MPI_Type_create_resized(t[1], -8, 64, &t[8]);
	MPI_Type_create_subarray(2, sizes, sub, st, MPI_ORDER_C, MPI_INT, &t[9]);
	MPI_Type_dup(t[3], &t[10]);
	/* A derived type inside: its contents hand it back. */
	MPI_Type_vector(2, 1, 3, MPI_INT, &vec);
	MPI_Type_vector(2, 1, 2, vec, &t[11]);
	for (int i = 0; i < 12; i++) {
		int a[512], b[512], n1, n2;
		MPI_Datatype r;
		char what[48];

		MPI_Type_commit(&t[i]);
		r = rebuild(t[i], &comb);
		snprintf(what, sizeof what, "combiner of type %d", i);
		mpit_expect_int(what, want[i], comb);
		if (r == MPI_DATATYPE_NULL) {
			mpit_fail("type %d could not be rebuilt", i);
			continue;
		}
		n1 = packed_ints(t[i], a, 512);
		n2 = packed_ints(r, b, 512);
		snprintf(what, sizeof what, "rebuilt type %d packs as many ints", i);
		mpit_expect_int(what, n1, n2);
		snprintf(what, sizeof what, "rebuilt type %d packs the same ints", i);
		mpit_expect_int(what, 0, n1 > 0 ? memcmp(a, b, n1 * sizeof(int)) : 0);
		MPI_Type_free(&r);
	}
	MPI_Type_get_envelope(MPI_DOUBLE, &ni, &na, &nd, &comb);
	mpit_expect_int("a named type's combiner", MPI_COMBINER_NAMED, comb);
	mpit_expect_int("a named type's counts", 0, ni + na + nd);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	mpit_expect_int("get_contents of a named type", MPI_ERR_TYPE,
			err_class(MPI_Type_get_contents(MPI_INT, 0, 0, 0, NULL, NULL, NULL)));
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	for (int i = 0; i < 12; i++)
		MPI_Type_free(&t[i]);
	MPI_Type_free(&vec);
	bad |= mpit_report("envelope_and_contents");
}

static int t_copies, t_deletes;

static int tcopy(MPI_Datatype t, int k, void *x, void *in, void *out, int *flag)
{
	(void)t;
	(void)k;
	(void)x;
	t_copies++;
	*(void **)out = in;
	*flag = 1;
	return MPI_SUCCESS;
}

static int tdelete(MPI_Datatype t, int k, void *v, void *x)
{
	(void)t;
	(void)k;
	(void)v;
	(void)x;
	t_deletes++;
	return MPI_SUCCESS;
}

static void t_attrs(void)
{
	MPI_Datatype a, b;
	int key, flag = 0, val = 7;
	void *got = NULL;

	MPI_Type_create_keyval(tcopy, tdelete, &key, NULL);
	MPI_Type_contiguous(2, MPI_INT, &a);
	MPI_Type_set_attr(a, key, &val);
	MPI_Type_get_attr(a, key, &got, &flag);
	mpit_expect_int("type_get_attr", 1, flag && got == &val);
	MPI_Type_dup(a, &b);
	mpit_expect_int("the copy callback ran on dup", 1, t_copies);
	MPI_Type_get_attr(b, key, &got, &flag);
	mpit_expect_int("the dup has the attribute", 1, flag && got == &val);
	MPI_Type_free(&b);
	mpit_expect_int("the delete callback ran on free", 1, t_deletes);
	MPI_Type_delete_attr(a, key);
	mpit_expect_int("type_delete_attr", 2, t_deletes);
	MPI_Type_get_attr(a, key, &got, &flag);
	mpit_expect_int("gone after delete", 0, flag);
	MPI_Type_free(&a);
	MPI_Type_free_keyval(&key);
	mpit_expect_int("free_keyval", MPI_KEYVAL_INVALID, key);
	/* A keyval freed while an attribute uses it lives on for that one:
	 * its delete callback still runs, and a new keyval is another. */
	MPI_Type_create_keyval(tcopy, tdelete, &key, NULL);
	MPI_Type_contiguous(3, MPI_INT, &a);
	MPI_Type_set_attr(a, key, &val);
	int old = key, key2;

	MPI_Type_free_keyval(&key);
	MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &key2, NULL);
	mpit_expect_int("a keyval in use is not handed out again", 1, key2 != old);
	MPI_Type_free(&a);
	mpit_expect_int("the delete callback of a freed keyval ran on free", 3, t_deletes);
	MPI_Type_free_keyval(&key2);
	bad |= mpit_report("type_attributes");
}

/* Global indices (row-major over g) this rank owns, by the definition:
 * along each dimension, index x belongs to coordinate (x / blk) % p. */
static int darray_owned(int nd, const int *g, const int *dist, const int *darg, const int *p,
			int rank, int order, int *out)
{
	int c[3], total = 1, n = 0;

	for (int i = nd - 1, r = rank; i >= 0; i--) {
		c[i] = r % p[i];
		r /= p[i];
	}
	for (int i = 0; i < nd; i++)
		total *= g[i];
	/* Walk in the type's storage order: C row-major, Fortran column-major. */
	for (int lin = 0; lin < total; lin++) {
		int x[3], rem = lin, mine = 1, off = 0;

		for (int k = 0; k < nd; k++) {
			int d = order == MPI_ORDER_C ? nd - 1 - k : k;

			x[d] = rem % g[d];
			rem /= g[d];
		}
		for (int d = 0; d < nd; d++) {
			int blk = dist[d] == MPI_DISTRIBUTE_NONE ? g[d] :
				  darg[d] != MPI_DISTRIBUTE_DFLT_DARG ? darg[d] :
				  dist[d] == MPI_DISTRIBUTE_BLOCK ? (g[d] + p[d] - 1) / p[d] : 1;

			if (dist[d] != MPI_DISTRIBUTE_NONE && (x[d] / blk) % p[d] != c[d])
				mine = 0;
		}
		if (!mine)
			continue;
		/* Storage offset of x in the array's own order. */
		for (int k = nd - 1; k >= 0; k--) {
			int d = order == MPI_ORDER_C ? nd - 1 - k : k;

			off = off * g[d] + x[d];
		}
		out[n++] = off;
	}
	return n;
}

static void t_darray(void)
{
	static const struct {
		int nd, g[3], dist[3], darg[3], p[3], order;
	} cases[] = {
		{ 2, { 7, 5 }, { MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_BLOCK },
		  { MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG }, { 2, 2 }, MPI_ORDER_C },
		{ 2, { 9, 4 }, { MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_NONE },
		  { 2, MPI_DISTRIBUTE_DFLT_DARG }, { 4, 1 }, MPI_ORDER_C },
		{ 3, { 4, 6, 3 }, { MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_NONE },
		  { MPI_DISTRIBUTE_DFLT_DARG, 3, MPI_DISTRIBUTE_DFLT_DARG }, { 2, 2, 1 },
		  MPI_ORDER_FORTRAN },
		{ 1, { 10 }, { MPI_DISTRIBUTE_CYCLIC }, { 3 }, { 4 }, MPI_ORDER_C },
	};

	for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
		int want[512], got[512], nw, ng, total = 1;
		MPI_Aint lb, ext;
		MPI_Datatype t;
		char what[64];

		for (int rank = 0; rank < 4; rank++) {
			MPI_Type_create_darray(4, rank, cases[k].nd, cases[k].g, cases[k].dist,
					       cases[k].darg, cases[k].p, cases[k].order, MPI_INT,
					       &t);
			MPI_Type_commit(&t);
			nw = darray_owned(cases[k].nd, cases[k].g, cases[k].dist, cases[k].darg,
					  cases[k].p, rank, cases[k].order, want);
			ng = packed_ints(t, got, 512);
			snprintf(what, sizeof what, "darray %zu rank %d: elements", k, rank);
			mpit_expect_int(what, nw, ng);
			snprintf(what, sizeof what, "darray %zu rank %d: which", k, rank);
			mpit_expect_int(what, 0, nw == ng ? memcmp(want, got, nw * sizeof(int)) : 1);
			MPI_Type_get_extent(t, &lb, &ext);
			total = 1;
			for (int d = 0; d < cases[k].nd; d++)
				total *= cases[k].g[d];
			snprintf(what, sizeof what, "darray %zu: extent is the whole array", k);
			mpit_expect_int(what, total * (int)sizeof(int), ext);
			MPI_Type_free(&t);
		}
	}
	bad |= mpit_report("darray");
}

static void t_sizes(void)
{
	MPI_Datatype t, t2;
	int size = 0, ni, na, nd, comb, ints[2];

	MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 4, &t);
	MPI_Type_size(t, &size);
	mpit_expect_int("match_size integer 4", 4, size);
	MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, &t);
	mpit_expect_int("match_size real 8 is MPI_DOUBLE", 1, t == MPI_DOUBLE);
	MPI_Type_create_f90_real(12, MPI_UNDEFINED, &t);
	MPI_Type_size(t, &size);
	mpit_expect_int("f90 real of 12 digits is 8 bytes", 8, size);
	MPI_Type_get_envelope(t, &ni, &na, &nd, &comb);
	mpit_expect_int("f90 real combiner", MPI_COMBINER_F90_REAL, comb);
	MPI_Type_get_contents(t, 2, 0, 0, ints, NULL, NULL);
	mpit_expect_int("f90 real contents p", 12, ints[0]);
	MPI_Type_create_f90_real(12, MPI_UNDEFINED, &t2);
	mpit_expect_int("the same f90 type twice", 1, t == t2);
	/* Another (p, r) of the same size tells its own (p, r). */
	MPI_Type_create_f90_real(MPI_UNDEFINED, 200, &t2);
	MPI_Type_size(t2, &size);
	MPI_Type_get_contents(t2, 2, 0, 0, ints, NULL, NULL);
	mpit_expect_int("f90 real of range 200 is 8 bytes, contents (undefined, 200)", 1,
			size == 8 && ints[0] == MPI_UNDEFINED && ints[1] == 200);
	MPI_Type_create_f90_integer(9, &t);
	MPI_Type_size(t, &size);
	mpit_expect_int("f90 integer range 9 is 4 bytes", 4, size);
	MPI_Type_create_f90_complex(6, 30, &t);
	MPI_Type_size(t, &size);
	mpit_expect_int("f90 complex of 6 digits is 8 bytes", 8, size);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	mpit_expect_int("match_size of no type", MPI_ERR_ARG,
			err_class(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 3, &t)));
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	bad |= mpit_report("match_size_and_f90");
}

/* Element counts past INT_MAX in a status: one element of a type of
 * 4 x INT_MAX chars.  The int forms say MPI_UNDEFINED, the _x form the
 * count, and the count of the type is 1. */
static void t_large_counts(void)
{
	MPI_Datatype big, four;
	MPI_Status st;
	MPI_Count x = -1;
	int n = 0, count = 0;

	MPI_Type_contiguous(INT_MAX, MPI_CHAR, &big);
	MPI_Type_contiguous(4, big, &four);
	MPI_Type_commit(&four);
	MPI_Status_set_elements_x(&st, four, 4 * (MPI_Count)INT_MAX);
	MPI_Get_elements(&st, four, &n);
	MPI_Get_elements_x(&st, four, &x);
	MPI_Get_count(&st, four, &count);
	mpit_expect_int("get_elements past INT_MAX", MPI_UNDEFINED, n);
	mpit_expect_int("get_elements_x past INT_MAX", 1, x == 4 * (MPI_Count)INT_MAX);
	mpit_expect_int("get_count of the type", 1, count);
	MPI_Get_count(&st, MPI_CHAR, &count);
	mpit_expect_int("get_count of chars past INT_MAX", MPI_UNDEFINED, count);
	MPI_Type_free(&four);
	MPI_Type_free(&big);
	bad |= mpit_report("status_counts_past_int_max");
}

static void t_external32(void)
{
	struct {
		int i;
		double d;
		short s;
	} in = { 0x01020304, 1.0, 0x0a0b }, out = { 0, 0, 0 };
	static const unsigned char want[] = { 1, 2, 3, 4, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0, 0x0a, 0x0b };
	int bl[3] = { 1, 1, 1 };
	MPI_Aint d[3], size = 0, pos = 0, pos2 = 0;
	MPI_Datatype ty[3] = { MPI_INT, MPI_DOUBLE, MPI_SHORT }, t;
	unsigned char buf[64];

	d[0] = 0;
	d[1] = (char *)&in.d - (char *)&in;
	d[2] = (char *)&in.s - (char *)&in;
	MPI_Type_create_struct(3, bl, d, ty, &t);
	MPI_Type_commit(&t);
	MPI_Pack_external_size("external32", 1, t, &size);
	mpit_expect_int("pack_external_size", 14, size);
	MPI_Pack_external("external32", &in, 1, t, buf, sizeof buf, &pos);
	mpit_expect_int("pack_external position", 14, pos);
	mpit_expect_int("external32 bytes are big-endian", 0, memcmp(buf, want, sizeof want));
	MPI_Unpack_external("external32", buf, pos, &pos2, &out, 1, t);
	mpit_expect_int("unpack_external int", in.i, out.i);
	mpit_expect_int("unpack_external double", 1, out.d == 1.0);
	mpit_expect_int("unpack_external short", in.s, out.s);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	mpit_expect_int("another data representation", MPI_ERR_UNSUPPORTED_DATAREP,
			err_class(MPI_Pack_external_size("native", 1, t, &size)));
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	MPI_Type_free(&t);
	bad |= mpit_report("external32");
}

/* Packs count elements of t from in, compares the bytes with want (n of
 * them) and unpacks them back into out. */
static void ext32_round(const char *what, MPI_Datatype t, int count, const void *in,
			const unsigned char *want, int n, void *out)
{
	unsigned char buf[128];
	MPI_Aint size = -1, pos = 0, pos2 = 0;
	char name[96];

	MPI_Pack_external_size("external32", count, t, &size);
	snprintf(name, sizeof name, "%s: external32 size", what);
	mpit_expect_int(name, n, size);
	MPI_Pack_external("external32", in, count, t, buf, sizeof buf, &pos);
	snprintf(name, sizeof name, "%s: external32 bytes", what);
	mpit_expect_int(name, 0, pos != n || memcmp(buf, want, n));
	MPI_Unpack_external("external32", buf, pos, &pos2, out, count, t);
	snprintf(name, sizeof name, "%s: unpacked position", what);
	mpit_expect_int(name, n, pos2);
}

/* MPI 3.1 section 13.5.2: long is 4 bytes in external32, wchar_t 2, long
 * double IEEE quad; a complex number is two big-endian reals. */
static void t_external32_sizes(void)
{
	long l[2] = { 1, -2 }, lo[2];
	unsigned long ul[2] = { 0x80000001ul, 7 }, ulo[2];
	wchar_t w[2] = { 0x263a, 'A' }, wo[2];
	long double ld[2] = { 1.0L, -2.5L }, ldo[2];
	float _Complex fc = 1.0f + 2.0f * _Complex_I, fco;
	long double _Complex lc = 1.0L - 2.0L * _Complex_I, lco;
	struct { long v; int i; } li = { -3, 9 }, lio;
	static const unsigned char wl[] = { 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xfe },
		wul[] = { 0x80, 0, 0, 1, 0, 0, 0, 7 }, ww[] = { 0x26, 0x3a, 0, 'A' },
		wld[] = { 0x3f, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
			  0xc0, 0x00, 0x40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
		wfc[] = { 0x3f, 0x80, 0, 0, 0x40, 0, 0, 0 },
		wlc[] = { 0x3f, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
			  0xc0, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
		wli[] = { 0xff, 0xff, 0xff, 0xfd, 0, 0, 0, 9 };
	MPI_Datatype v;

	ext32_round("long", MPI_LONG, 2, l, wl, sizeof wl, lo);
	mpit_expect_int("long sign-extended back", 1, lo[0] == 1 && lo[1] == -2);
	ext32_round("unsigned long", MPI_UNSIGNED_LONG, 2, ul, wul, sizeof wul, ulo);
	mpit_expect_int("unsigned long back", 1, ulo[0] == ul[0] && ulo[1] == 7);
	ext32_round("wchar", MPI_WCHAR, 2, w, ww, sizeof ww, wo);
	mpit_expect_int("wchar back", 1, wo[0] == w[0] && wo[1] == w[1]);
	ext32_round("long double", MPI_LONG_DOUBLE, 2, ld, wld, sizeof wld, ldo);
	mpit_expect_int("long double back", 1, ldo[0] == ld[0] && ldo[1] == ld[1]);
	ext32_round("float complex", MPI_C_FLOAT_COMPLEX, 1, &fc, wfc, sizeof wfc, &fco);
	mpit_expect_int("float complex back", 1, fco == fc);
	ext32_round("long double complex", MPI_C_LONG_DOUBLE_COMPLEX, 1, &lc, wlc, sizeof wlc,
		    &lco);
	mpit_expect_int("long double complex back", 1, lco == lc);
	ext32_round("long int", MPI_LONG_INT, 1, &li, wli, sizeof wli, &lio);
	mpit_expect_int("long int back", 1, lio.v == -3 && lio.i == 9);
	/* A strided vector: the walk follows the type map, not the memory. */
	{
		long sv[4] = { 1, 99, -2, 99 }, so[4] = { 0, 5, 0, 5 };

		MPI_Type_vector(2, 1, 2, MPI_LONG, &v);
		MPI_Type_commit(&v);
		ext32_round("vector of long", v, 1, sv, wl, sizeof wl, so);
		mpit_expect_int("vector of long back", 1,
				so[0] == 1 && so[1] == 5 && so[2] == -2 && so[3] == 5);
		MPI_Type_free(&v);
	}
	bad |= mpit_report("external32_sizes");
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
	MPI_Comm_size(MPI_COMM_WORLD, &wsize);
	t_contents();
	t_attrs();
	t_darray();
	t_sizes();
	t_large_counts();
	t_external32();
	t_external32_sizes();
	MPI_Finalize();
	return bad;
}
