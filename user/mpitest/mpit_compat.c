/*
 * mpit_compat.c - the MPI-1 names (Attr_*, Keyval_*, Errhandler_*,
 * Type_struct/hvector/hindexed, Address, Type_extent/lb/ub), error classes
 * and codes a program adds, generalized requests, Status_set_elements_x,
 * Pcontrol, the dynamic-process calls that fail naming their class,
 * Comm_get_parent and Comm_disconnect, and MPI_COMM_SELF's attribute
 * delete callbacks run at the start of MPI_Finalize, latest first (the
 * last TAP line is printed from inside MPI_Finalize).
 */
#include <stddef.h>
#include <stdlib.h>
#include "mpit.h"

static int wrank, wsize, bad;
static int copies, deletes;

static int err_class(int err)
{
	int cls;

	MPI_Error_class(err, &cls);
	return cls;
}

static int copy_fn(MPI_Comm c, int key, void *extra, void *in, void *out, int *flag)
{
	(void)c;
	(void)key;
	(void)extra;
	copies++;
	*(void **)out = (char *)in + 1;
	*flag = 1;
	return MPI_SUCCESS;
}

static int delete_fn(MPI_Comm c, int key, void *val, void *extra)
{
	(void)c;
	(void)key;
	(void)val;
	(void)extra;
	deletes++;
	return MPI_SUCCESS;
}

static void t_attr(void)
{
	int key = MPI_KEYVAL_INVALID, flag = 0, *tag_ub = NULL;
	char base[4];
	void *v = NULL;
	MPI_Comm dup;

	MPI_Keyval_create(copy_fn, delete_fn, &key, NULL);
	MPI_Attr_put(MPI_COMM_WORLD, key, base);
	MPI_Attr_get(MPI_COMM_WORLD, key, &v, &flag);
	mpit_expect_int("attr_get finds the value", 1, flag && v == base);
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	mpit_expect_int("the copy callback ran on dup", 1, copies);
	MPI_Attr_get(dup, key, &v, &flag);
	mpit_expect_int("the dup holds the copied value", 1, flag && v == base + 1);
	MPI_Comm_free(&dup);
	mpit_expect_int("the delete callback ran on free", 1, deletes);
	MPI_Attr_delete(MPI_COMM_WORLD, key);
	mpit_expect_int("attr_delete runs the delete callback", 2, deletes);
	MPI_Attr_get(MPI_COMM_WORLD, key, &v, &flag);
	mpit_expect_int("attr_get after delete", 0, flag);
	MPI_Keyval_free(&key);
	mpit_expect_int("keyval_free resets the key", MPI_KEYVAL_INVALID, key);
	MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag);
	mpit_expect_int("MPI_TAG_UB through attr_get", 1, flag && *tag_ub >= 32767);
	bad |= mpit_report("mpi1_attributes");
}

static int handled;

static void handler(MPI_Comm *c, int *code, ...)
{
	(void)c;
	handled = *code;
}

static void t_errhandler(void)
{
	MPI_Errhandler h, got;
	int v = 0;

	MPI_Errhandler_create(handler, &h);
	MPI_Errhandler_set(MPI_COMM_WORLD, h);
	MPI_Errhandler_get(MPI_COMM_WORLD, &got);
	mpit_expect_int("errhandler_get returns the one set", 1, got == h);
	MPI_Send(&v, 1, MPI_INT, wsize, 0, MPI_COMM_WORLD);
	mpit_expect_int("the handler saw the rank error", MPI_ERR_RANK, err_class(handled));
	MPI_Errhandler_set(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	MPI_Errhandler_free(&got);
	MPI_Errhandler_free(&h);
	bad |= mpit_report("mpi1_errhandlers");
}

/* MPI_LB and MPI_UB: an int padded to a 24-byte record starting 8 bytes
 * before it, sent two at a time. */
static void t_markers(void)
{
	int blocks[3] = { 1, 1, 1 }, in[12], out[12], size;
	MPI_Aint disp[3] = { -8, 0, 16 }, lb, ext;
	MPI_Datatype types[3] = { MPI_LB, MPI_INT, MPI_UB }, rec, vec;

	MPI_Type_struct(3, blocks, disp, types, &rec);
	MPI_Type_commit(&rec);
	MPI_Type_get_extent(rec, &lb, &ext);
	MPI_Type_size(rec, &size);
	mpit_expect_int("MPI_LB sets the lower bound", -8, lb);
	mpit_expect_int("MPI_UB sets the upper bound (extent 24)", 24, ext);
	mpit_expect_int("markers hold no data", (int)sizeof(int), size);
	/* Sticky: a contiguous of it keeps them. */
	MPI_Type_contiguous(2, rec, &vec);
	MPI_Type_get_extent(vec, &lb, &ext);
	mpit_expect_int("markers are sticky: lb of a contiguous", -8, lb);
	mpit_expect_int("markers are sticky: extent of a contiguous", 48, ext);
	for (int i = 0; i < 12; i++) {
		in[i] = 100 + i;
		out[i] = -1;
	}
	MPI_Sendrecv(in + 2, 2, rec, 0, 5, out, 2, MPI_INT, 0, 5, MPI_COMM_SELF,
		     MPI_STATUS_IGNORE);
	mpit_expect_int("records travel at their extent (second int)", 108, out[1]);
	MPI_Type_free(&rec);
	MPI_Type_free(&vec);
}

static void t_types(void)
{
	struct rec {
		int i;
		double d;
		char c[3];
	} r[2];
	int blocks[3] = { 1, 1, 3 }, hblocks[2] = { 2, 1 }, pos = 0, size;
	MPI_Aint disp[3], base, ext = 0, lb = -1, ub = 0, hdisp[2] = { 0, 24 };
	MPI_Datatype types[3] = { MPI_INT, MPI_DOUBLE, MPI_CHAR }, st, hv, hi;
	char packed[64];
	int data[8];

	MPI_Address(&r[0], &base);
	MPI_Address(&r[0].i, &disp[0]);
	MPI_Address(&r[0].d, &disp[1]);
	MPI_Address(&r[0].c, &disp[2]);
	for (int i = 0; i < 3; i++)
		disp[i] -= base;
	mpit_expect_int("MPI_Address of a member", (long long)offsetof(struct rec, d), disp[1]);
	MPI_Type_struct(3, blocks, disp, types, &st);
	MPI_Type_commit(&st);
	MPI_Type_extent(st, &ext);
	MPI_Type_lb(st, &lb);
	MPI_Type_ub(st, &ub);
	mpit_expect_int("type_lb of the struct", 0, lb);
	mpit_expect_int("type_extent of the struct", (long long)sizeof(struct rec), ext);
	mpit_expect_int("type_ub = lb + extent", (long long)sizeof(struct rec), ub);
	MPI_Type_size(st, &size);
	mpit_expect_int("type_size of the struct", (int)(sizeof(int) + sizeof(double) + 3), size);
	for (int i = 0; i < 8; i++)
		data[i] = i;
	MPI_Type_hvector(2, 2, 4 * sizeof(int), MPI_INT, &hv);
	MPI_Type_commit(&hv);
	MPI_Pack(data, 1, hv, packed, sizeof packed, &pos, MPI_COMM_WORLD);
	mpit_expect_int("hvector packs 0 1 4 5 (third)", 4, ((int *)packed)[2]);
	pos = 0;
	MPI_Type_hindexed(2, hblocks, hdisp, MPI_INT, &hi);
	MPI_Type_commit(&hi);
	MPI_Pack(data, 1, hi, packed, sizeof packed, &pos, MPI_COMM_WORLD);
	mpit_expect_int("hindexed packs 0 1 6 (third)", 6, ((int *)packed)[2]);
	mpit_expect_int("hindexed packed size", 3 * (int)sizeof(int), pos);
	MPI_Type_free(&st);
	MPI_Type_free(&hv);
	MPI_Type_free(&hi);
	t_markers();
	bad |= mpit_report("mpi1_datatypes");
}

static void t_errors(void)
{
	int cls = -1, code = -1, code2 = -1, len = 0, *last = NULL, flag = 0, got = -1;
	char s[MPI_MAX_ERROR_STRING];

	MPI_Add_error_class(&cls);
	mpit_expect_int("an added class is past MPI_ERR_LASTCODE", 1, cls > MPI_ERR_LASTCODE);
	MPI_Add_error_code(cls, &code);
	MPI_Add_error_code(cls, &code2);
	mpit_expect_int("codes are distinct", 1, code != code2 && code != cls);
	MPI_Error_class(code2, &got);
	mpit_expect_int("error_class of an added code", cls, got);
	MPI_Add_error_string(code, "the frobnicator jammed");
	MPI_Error_string(code, s, &len);
	mpit_expect_int("error_string of an added code", 0, strcmp(s, "the frobnicator jammed"));
	mpit_expect_int("its length", (int)strlen("the frobnicator jammed"), len);
	MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag);
	mpit_expect_int("MPI_LASTUSEDCODE", code2, flag ? *last : -1);
	MPI_Add_error_code(MPI_ERR_COMM, &code);
	MPI_Error_class(code, &got);
	mpit_expect_int("error_class of a code added to a predefined class", MPI_ERR_COMM, got);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	mpit_expect_int("add_error_code to a class that is none", MPI_ERR_ARG,
			err_class(MPI_Add_error_code(99999, &code)));
	mpit_expect_int("add_error_code to MPI_SUCCESS", MPI_ERR_ARG,
			err_class(MPI_Add_error_code(MPI_SUCCESS, &code)));
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	bad |= mpit_report("added_error_codes");
}

static int q_calls, f_calls, c_calls;

static int q_fn(void *extra, MPI_Status *st)
{
	q_calls++;
	MPI_Status_set_elements_x(st, MPI_INT, *(int *)extra);
	MPI_Status_set_cancelled(st, 0);
	st->MPI_SOURCE = 42;
	st->MPI_TAG = 7;
	return MPI_SUCCESS;
}

static int f_fn(void *extra)
{
	(void)extra;
	f_calls++;
	return MPI_SUCCESS;
}

static int c_fn(void *extra, int complete)
{
	(void)extra;
	c_calls += complete ? 10 : 1;
	return MPI_SUCCESS;
}

static void t_grequest(void)
{
	MPI_Request r;
	MPI_Status st;
	int n = 5, flag = 1, count = -1;

	MPI_Grequest_start(q_fn, f_fn, c_fn, &n, &r);
	MPI_Test(&r, &flag, &st);
	mpit_expect_int("test before complete", 0, flag);
	MPI_Cancel(&r);
	mpit_expect_int("cancel calls cancel_fn (not complete)", 1, c_calls);
	MPI_Grequest_complete(r);
	MPI_Wait(&r, &st);
	mpit_expect_int("wait calls query_fn", 1, q_calls);
	mpit_expect_int("wait calls free_fn", 1, f_calls);
	mpit_expect_int("status from query_fn (source)", 42, st.MPI_SOURCE);
	MPI_Get_count(&st, MPI_INT, &count);
	mpit_expect_int("status from query_fn (count)", 5, count);
	mpit_expect_int("the request is MPI_REQUEST_NULL", 1, r == MPI_REQUEST_NULL);
	bad |= mpit_report("generalized_requests");
}

static void t_dynamic(void)
{
	char port[MPI_MAX_PORT_NAME];
	int errs[2] = { 0, 0 };
	MPI_Comm c, parent = MPI_COMM_WORLD;

	MPI_Comm_get_parent(&parent);
	mpit_expect_int("comm_get_parent", 1, parent == MPI_COMM_NULL);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
	mpit_expect_int("comm_spawn", MPI_ERR_SPAWN,
			err_class(MPI_Comm_spawn("a.out", MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0,
						 MPI_COMM_SELF, &c, errs)));
	mpit_expect_int("comm_spawn's error codes", MPI_ERR_SPAWN, errs[1]);
	mpit_expect_int("open_port", MPI_ERR_PORT, err_class(MPI_Open_port(MPI_INFO_NULL, port)));
	mpit_expect_int("comm_connect", MPI_ERR_PORT,
			err_class(MPI_Comm_connect("port", MPI_INFO_NULL, 0, MPI_COMM_SELF, &c)));
	mpit_expect_int("lookup_name", MPI_ERR_NAME,
			err_class(MPI_Lookup_name("svc", MPI_INFO_NULL, port)));
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
	MPI_Comm_dup(MPI_COMM_WORLD, &c);
	MPI_Comm_disconnect(&c);
	mpit_expect_int("comm_disconnect frees", 1, c == MPI_COMM_NULL);
	mpit_expect_int("pcontrol", MPI_SUCCESS, MPI_Pcontrol(1));
	bad |= mpit_report("dynamic_processes_fail_naming_their_class");
}

/* What public suites found: Buffer_detach returns what was attached, and
 * an empty message may name MPI_DATATYPE_NULL. */
static void t_conformance(void)
{
	static char space[4096 + MPI_BSEND_OVERHEAD + 8];
	int peer = wrank ^ 1, size = -1, v = 5;
	void *got = NULL;
	MPI_Request r;
	MPI_Status st;

	MPI_Buffer_attach(space + 3, (int)sizeof space - 3);
	if (peer < wsize)
		MPI_Bsend(&v, 1, MPI_INT, peer, 11, MPI_COMM_WORLD);
	if (peer < wsize)
		MPI_Recv(&v, 1, MPI_INT, peer, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Buffer_detach(&got, &size);
	mpit_expect_int("buffer_detach returns the attached address", 1, got == space + 3);
	mpit_expect_int("buffer_detach returns the attached size", (int)sizeof space - 3, size);
	if (peer < wsize) {
		MPI_Irecv(NULL, 0, MPI_DATATYPE_NULL, peer, 12, MPI_COMM_WORLD, &r);
		MPI_Send(NULL, 0, MPI_DATATYPE_NULL, peer, 12, MPI_COMM_WORLD);
		MPI_Wait(&r, &st);
		mpit_expect_int("an empty MPI_DATATYPE_NULL message arrives", peer, st.MPI_SOURCE);
		MPI_Sendrecv(NULL, 0, MPI_DATATYPE_NULL, peer, 13, NULL, 0, MPI_DATATYPE_NULL, peer,
			     13, MPI_COMM_WORLD, &st);
		mpit_expect_int("sendrecv with MPI_DATATYPE_NULL", 13, st.MPI_TAG);
	}
	bad |= mpit_report("buffer_detach_and_empty_null_type");
}

/* Fortran's (and C++'s) named types exist in C, each its own handle and
 * name, laid out as gfortran's defaults, and reduce as their C
 * counterparts. */
static void t_fortran_types(void)
{
	static const struct { MPI_Datatype t; const char *name; int size; } f[] = {
		{ MPI_INTEGER, "MPI_INTEGER", 4 }, { MPI_REAL, "MPI_REAL", 4 },
		{ MPI_DOUBLE_PRECISION, "MPI_DOUBLE_PRECISION", 8 },
		{ MPI_COMPLEX, "MPI_COMPLEX", 8 }, { MPI_DOUBLE_COMPLEX, "MPI_DOUBLE_COMPLEX", 16 },
		{ MPI_LOGICAL, "MPI_LOGICAL", 4 }, { MPI_CHARACTER, "MPI_CHARACTER", 1 },
		{ MPI_INTEGER8, "MPI_INTEGER8", 8 }, { MPI_REAL8, "MPI_REAL8", 8 },
		{ MPI_2INTEGER, "MPI_2INTEGER", 8 }, { MPI_CXX_BOOL, "MPI_CXX_BOOL", 1 },
		{ MPI_CXX_DOUBLE_COMPLEX, "MPI_CXX_DOUBLE_COMPLEX", 16 },
		{ MPI_2REAL, "MPI_2REAL", 8 },
		{ MPI_2DOUBLE_PRECISION, "MPI_2DOUBLE_PRECISION", 16 },
		{ MPI_INTEGER16, "MPI_INTEGER16", 16 }, { MPI_REAL16, "MPI_REAL16", 16 },
		{ MPI_COMPLEX32, "MPI_COMPLEX32", 32 },
	};
	char name[MPI_MAX_OBJECT_NAME];
	int len, size, v = wrank + 1, sum = 0;
	double d = 1.5, dsum = 0;
	struct { double v, i; } loc = { wrank % 2 ? 1.0 : 2.0, wrank }, best;
	__int128 big = ((__int128)1 << 100) + wrank, bigsum = 0;

	for (unsigned i = 0; i < sizeof f / sizeof f[0]; i++) {
		MPI_Type_get_name(f[i].t, name, &len);
		MPI_Type_size(f[i].t, &size);
		if (strcmp(name, f[i].name) || size != f[i].size)
			mpit_fail("%s: named %s, %d bytes", f[i].name, name, size);
	}
	if (MPI_INTEGER == MPI_INT)
		mpit_fail("MPI_INTEGER is MPI_INT's handle");
	MPI_Allreduce(&v, &sum, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD);
	MPI_Allreduce(&d, &dsum, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD);
	mpit_expect_int("MPI_SUM on MPI_INTEGER", wsize * (wsize + 1) / 2, sum);
	mpit_expect_int("MPI_SUM on MPI_DOUBLE_PRECISION (x2)", 3 * wsize, (int)(dsum * 2));
	/* The pairs of reals index with a real; ties keep the lower index. */
	MPI_Allreduce(&loc, &best, 1, MPI_2DOUBLE_PRECISION, MPI_MINLOC, MPI_COMM_WORLD);
	mpit_expect_int("MPI_MINLOC on MPI_2DOUBLE_PRECISION: the index", wsize > 1, (int)best.i);
	MPI_Allreduce(&big, &bigsum, 1, MPI_INTEGER16, MPI_SUM, MPI_COMM_WORLD);
	mpit_expect_int("MPI_SUM on MPI_INTEGER16 past 64 bits",
			bigsum == ((__int128)wsize << 100) + wsize * (wsize - 1) / 2, 1);
	if (MPI_REAL2 != MPI_DATATYPE_NULL || MPI_COMPLEX4 != MPI_DATATYPE_NULL)
		mpit_fail("MPI_REAL2 and MPI_COMPLEX4 (no such types here) are not MPI_DATATYPE_NULL");
	bad |= mpit_report("fortran_named_types_in_c");
}

static int self_order[2], self_n;

static int self_delete(MPI_Comm c, int key, void *val, void *extra)
{
	(void)c;
	(void)key;
	(void)extra;
	self_order[self_n < 2 ? self_n : 1] = (int)(long)val;
	self_n++;
	/* MPI_Finalize has not torn anything down yet. */
	if (self_n == 2 && wrank == 0) {
		int fin = 1;

		MPI_Finalized(&fin);
		printf("%s self_attributes_deleted_at_finalize_latest_first\n",
		       !fin && self_order[0] == 2 && self_order[1] == 1 ? "ok" : "not ok");
		fflush(stdout);
	}
	return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
	int k1, k2;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
	MPI_Comm_size(MPI_COMM_WORLD, &wsize);
	t_attr();
	t_errhandler();
	t_types();
	t_errors();
	t_grequest();
	t_dynamic();
	t_conformance();
	t_fortran_types();
	MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_delete, &k1, NULL);
	MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_delete, &k2, NULL);
	MPI_Comm_set_attr(MPI_COMM_SELF, k1, (void *)1L);
	MPI_Comm_set_attr(MPI_COMM_SELF, k2, (void *)2L);
	MPI_Finalize();
	return bad;
}
