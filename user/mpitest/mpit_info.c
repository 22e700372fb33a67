/*
 * mpit_info.c - Info objects (set, get, valuelen, nkeys, nthkey in the
 * order keys were first set, delete, dup, free, MPI_INFO_ENV; MPI 4.0's
 * Info_get_string and Info_create_env, before MPI_Init too), the info of
 * communicators and windows, matched probes (Mprobe, Improbe, Mrecv,
 * Imrecv, MPI_MESSAGE_NO_PROC, a message taken by Mprobe that a later
 * receive cannot have, a derived type, truncation) and MPI_Comm_idup
 * (nonblocking: joined late, crossed, beside a dup, of an
 * intercommunicator, with info); with
 * the errors each call names.
 */
#include <stdlib.h>
#include "mpit.h"

static int wrank, wsize, bad;

static int err_class(int err)
{
	int cls;

	MPI_Error_class(err, &cls);
	return cls;
}

static void t_info(void)
{
	MPI_Info a, b;
	char key[MPI_MAX_INFO_KEY + 1], val[64], longkey[MPI_MAX_INFO_KEY + 8];
	int flag = -1, n = -1, len = -1;

	MPI_Info_create(&a);
	MPI_Info_get_nkeys(a, &n);
	mpit_expect_int("nkeys of a new info", 0, n);
	MPI_Info_set(a, "zeta", "1");
	MPI_Info_set(a, "alpha", "two");
	MPI_Info_set(a, "mid", "3");
	MPI_Info_set(a, "zeta", "one again");
	MPI_Info_get_nkeys(a, &n);
	mpit_expect_int("nkeys after 4 sets of 3 keys", 3, n);
	MPI_Info_get_nthkey(a, 0, key);
	mpit_expect_int("key 0 is the first set", 0, strcmp(key, "zeta"));
	MPI_Info_get_nthkey(a, 2, key);
	mpit_expect_int("key 2 is the third set", 0, strcmp(key, "mid"));
	MPI_Info_get(a, "zeta", sizeof val - 1, val, &flag);
	mpit_expect_int("get finds zeta", 1, flag);
	mpit_expect_int("zeta's value was replaced", 0, strcmp(val, "one again"));
	MPI_Info_get_valuelen(a, "alpha", &len, &flag);
	mpit_expect_int("valuelen of alpha", 3, len);
	MPI_Info_get(a, "zeta", 3, val, &flag);
	mpit_expect_int("get truncates to valuelen", 0, strcmp(val, "one"));
	MPI_Info_get(a, "nothere", sizeof val - 1, val, &flag);
	mpit_expect_int("get of a missing key", 0, flag);
	MPI_Info_dup(a, &b);
	MPI_Info_delete(a, "alpha");
	MPI_Info_get_nkeys(a, &n);
	mpit_expect_int("nkeys after delete", 2, n);
	MPI_Info_get_nkeys(b, &n);
	mpit_expect_int("the dup keeps its keys", 3, n);
	MPI_Info_get(b, "alpha", sizeof val - 1, val, &flag);
	mpit_expect_int("the dup keeps the deleted key", 1, flag && !strcmp(val, "two"));
	MPI_Info_get_nthkey(a, 1, key);
	mpit_expect_int("delete keeps the order", 0, strcmp(key, "mid"));
	MPI_Info_free(&b);
	mpit_expect_int("free sets MPI_INFO_NULL", 1, b == MPI_INFO_NULL);
	MPI_Info_get(MPI_INFO_ENV, "maxprocs", sizeof val - 1, val, &flag);
	mpit_expect_int("MPI_INFO_ENV maxprocs", wsize, flag ? atoi(val) : -1);

	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	memset(longkey, 'k', sizeof longkey - 1);
	longkey[sizeof longkey - 1] = 0;
	mpit_expect_int("set of a key too long", MPI_ERR_INFO_KEY,
			err_class(MPI_Info_set(a, longkey, "v")));
	mpit_expect_int("delete of a missing key", MPI_ERR_INFO_NOKEY,
			err_class(MPI_Info_delete(a, "nothere")));
	mpit_expect_int("nthkey out of range", MPI_ERR_ARG,
			err_class(MPI_Info_get_nthkey(a, 2, key)));
	b = MPI_INFO_ENV;
	mpit_expect_int("free of MPI_INFO_ENV", MPI_ERR_INFO, err_class(MPI_Info_free(&b)));
	mpit_expect_int("set on MPI_INFO_ENV", MPI_ERR_INFO,
			err_class(MPI_Info_set(MPI_INFO_ENV, "x", "y")));
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	MPI_Info_free(&a);
	bad |= mpit_report("info");
}

/* MPI 4.0: an info made before MPI_Init says what MPI_INFO_ENV says after
 * it; Info_get_string reports the length it needs and truncates. */
static void t_info_mpi4(MPI_Info early, const char *argv0)
{
	static const char *const keys[] = { "command", "argv", "maxprocs" };
	char v1[MPI_MAX_INFO_VAL], v2[MPI_MAX_INFO_VAL], small[4];
	int f1, f2, len, flag = -1;

	for (unsigned i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		int n1 = sizeof v1, n2 = sizeof v2;

		MPI_Info_get_string(early, keys[i], &n1, v1, &f1);
		MPI_Info_get_string(MPI_INFO_ENV, keys[i], &n2, v2, &f2);
		if (f1 != f2 || (f1 && (n1 != n2 || strcmp(v1, v2))))
			mpit_fail("create_env before MPI_Init and MPI_INFO_ENV differ on %s", keys[i]);
	}
	len = sizeof v1;
	MPI_Info_get_string(early, "command", &len, v1, &flag);
	mpit_expect_int("create_env command is argv[0]", 0, flag && strcmp(v1, argv0));
	len = sizeof v1;
	MPI_Info_get_string(early, "maxprocs", &len, v1, &flag);
	mpit_expect_int("create_env maxprocs", wsize, flag ? atoi(v1) : -1);
	MPI_Info_set(early, "key", "0123456789");
	len = 0;
	MPI_Info_get_string(early, "key", &len, NULL, &flag);
	mpit_expect_int("get_string with buflen 0 gives the length", 11, flag ? len : -1);
	len = sizeof small;
	MPI_Info_get_string(early, "key", &len, small, &flag);
	mpit_expect_int("get_string truncates", 0, strcmp(small, "012"));
	mpit_expect_int("and still gives the length", 11, len);
	len = sizeof small;
	flag = -1;
	MPI_Info_get_string(early, "nokey", &len, small, &flag);
	mpit_expect_int("get_string of no key", 0, flag);
	MPI_Info_free(&early);
	bad |= mpit_report("info_get_string_create_env");
}

static void t_object_info(void)
{
	MPI_Info in, out;
	MPI_Comm c;
	MPI_Win w;
	char val[64];
	int flag = 0, n = -1, *mem;

	MPI_Info_create(&in);
	MPI_Info_set(in, "no_locks", "true");
	MPI_Info_set(in, "mpi_assert_no_any_tag", "true");
	MPI_Comm_dup_with_info(MPI_COMM_WORLD, in, &c);
	MPI_Info_set(in, "later", "x");
	MPI_Comm_get_info(c, &out);
	MPI_Info_get_nkeys(out, &n);
	mpit_expect_int("comm keeps the info it was given", 2, n);
	MPI_Info_get(out, "mpi_assert_no_any_tag", sizeof val - 1, val, &flag);
	mpit_expect_int("comm's hint value", 1, flag && !strcmp(val, "true"));
	MPI_Info_free(&out);
	MPI_Comm_set_info(c, MPI_INFO_NULL);
	MPI_Comm_get_info(c, &out);
	MPI_Info_get_nkeys(out, &n);
	mpit_expect_int("comm info after setting MPI_INFO_NULL", 0, n);
	MPI_Info_free(&out);
	MPI_Comm_free(&c);
	MPI_Win_allocate(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &w);
	MPI_Win_set_info(w, in);
	MPI_Win_get_info(w, &out);
	MPI_Info_get(out, "later", sizeof val - 1, val, &flag);
	mpit_expect_int("window keeps the info it was given", 1, flag && !strcmp(val, "x"));
	MPI_Info_free(&out);
	MPI_Win_free(&w);
	MPI_Info_free(&in);
	bad |= mpit_report("comm_and_win_info");
}

/* Each rank sends two messages to the next (tags 5 then 6), the second a
 * derived type; the next rank takes them with matched probes. */
static void t_mprobe(void)
{
	int to = (wrank + 1) % wsize, from = (wrank - 1 + wsize) % wsize;
	int a = 100 + wrank, b[6], got[3] = { 0 }, flag = 0, count = -1, x = -1;
	MPI_Datatype every_other;
	MPI_Message m1, m2, m3;
	MPI_Request r, rs[2];
	MPI_Status st;

	for (int i = 0; i < 6; i++)
		b[i] = 10 * wrank + i;
	MPI_Type_vector(3, 1, 2, MPI_INT, &every_other);
	MPI_Type_commit(&every_other);
	MPI_Isend(&a, 1, MPI_INT, to, 5, MPI_COMM_WORLD, &rs[0]);
	MPI_Isend(b, 1, every_other, to, 6, MPI_COMM_WORLD, &rs[1]);
	MPI_Mprobe(from, 6, MPI_COMM_WORLD, &m1, &st);
	mpit_expect_int("mprobe source", from, st.MPI_SOURCE);
	mpit_expect_int("mprobe tag", 6, st.MPI_TAG);
	MPI_Get_count(&st, MPI_INT, &count);
	mpit_expect_int("mprobe count", 3, count);
	/* The tag-6 message is taken: only tag 5 is left to probe. */
	MPI_Iprobe(from, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
	while (!flag)
		MPI_Iprobe(from, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
	mpit_expect_int("a probe after mprobe sees the other message", 5, st.MPI_TAG);
	do
		MPI_Improbe(from, 5, MPI_COMM_WORLD, &flag, &m2, &st);
	while (!flag);
	MPI_Imrecv(&x, 1, MPI_INT, &m2, &r);
	mpit_expect_int("imrecv sets the message to MPI_MESSAGE_NULL", 1, m2 == MPI_MESSAGE_NULL);
	MPI_Wait(&r, &st);
	mpit_expect_int("imrecv data", 100 + from, x);
	mpit_expect_int("imrecv status tag", 5, st.MPI_TAG);
	MPI_Mrecv(got, 3, MPI_INT, &m1, &st);
	mpit_expect_int("mrecv derived data [0]", 10 * from + 0, got[0]);
	mpit_expect_int("mrecv derived data [1]", 10 * from + 2, got[1]);
	mpit_expect_int("mrecv derived data [2]", 10 * from + 4, got[2]);
	mpit_expect_int("mrecv status source", from, st.MPI_SOURCE);
	MPI_Waitall(2, rs, MPI_STATUSES_IGNORE);
	MPI_Improbe(from, 77, MPI_COMM_WORLD, &flag, &m3, &st);
	mpit_expect_int("improbe with nothing to match", 0, flag);
	mpit_expect_int("improbe leaves MPI_MESSAGE_NULL", 1, m3 == MPI_MESSAGE_NULL);
	MPI_Mprobe(MPI_PROC_NULL, 3, MPI_COMM_WORLD, &m3, &st);
	mpit_expect_int("mprobe of MPI_PROC_NULL", 1, m3 == MPI_MESSAGE_NO_PROC);
	MPI_Mrecv(&x, 1, MPI_INT, &m3, &st);
	mpit_expect_int("mrecv of MPI_MESSAGE_NO_PROC source", MPI_PROC_NULL, st.MPI_SOURCE);
	MPI_Get_count(&st, MPI_INT, &count);
	mpit_expect_int("mrecv of MPI_MESSAGE_NO_PROC count", 0, count);
	MPI_Type_free(&every_other);
	bad |= mpit_report("mprobe_mrecv");
}

static void t_mprobe_errors(void)
{
	int to = (wrank + 1) % wsize, from = (wrank - 1 + wsize) % wsize;
	int v[2] = { 1, 2 }, x[2] = { 0, 0 };
	MPI_Message m, kept;
	MPI_Status st;

	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Send(v, 2, MPI_INT, to, 9, MPI_COMM_WORLD);
	MPI_Mprobe(from, 9, MPI_COMM_WORLD, &m, &st);
	kept = m;
	mpit_expect_int("mrecv into a buffer too small", MPI_ERR_TRUNCATE,
			err_class(MPI_Mrecv(x, 1, MPI_INT, &m, &st)));
	mpit_expect_int("the truncated receive got the first element", 1, x[0]);
	mpit_expect_int("mrecv of a consumed message", MPI_ERR_REQUEST,
			err_class(MPI_Mrecv(x, 2, MPI_INT, &kept, &st)));
	mpit_expect_int("mprobe of a bad rank", MPI_ERR_RANK,
			err_class(MPI_Mprobe(wsize, 0, MPI_COMM_WORLD, &m, &st)));
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	MPI_Barrier(MPI_COMM_WORLD);
	bad |= mpit_report("mprobe_errors");
}

static void t_idup(void)
{
	MPI_Comm c[2];
	MPI_Request r[2];
	int size = -1, rank = -1, sum = 0, res;

	MPI_Comm_idup(MPI_COMM_WORLD, &c[0], &r[0]);
	MPI_Comm_idup(MPI_COMM_WORLD, &c[1], &r[1]);
	MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
	MPI_Comm_size(c[1], &size);
	MPI_Comm_rank(c[1], &rank);
	mpit_expect_int("idup size", wsize, size);
	mpit_expect_int("idup rank", wrank, rank);
	MPI_Comm_compare(MPI_COMM_WORLD, c[0], &res);
	mpit_expect_int("idup is congruent", MPI_CONGRUENT, res);
	MPI_Allreduce(&wrank, &sum, 1, MPI_INT, MPI_SUM, c[0]);
	mpit_expect_int("allreduce on an idup", wsize * (wsize - 1) / 2, sum);
	MPI_Comm_free(&c[0]);
	MPI_Comm_free(&c[1]);
	bad |= mpit_report("comm_idup");
}

/* What only a nonblocking idup survives: rank 0 joins after the others
 * wait for it elsewhere; two idups in opposite orders on two ranks; a
 * blocking dup of the same parent while idups are pending. */
static void t_idup_nonblocking(void)
{
	MPI_Comm d[2], c[2], e[8], dup;
	MPI_Request r[8];
	MPI_Info info, got;
	int i, v = -1, sum = -1, flag = 0, first = wrank % 2;
	char val[16] = "";

	if (wrank == 0) {
		for (i = 1; i < wsize; i++)
			MPI_Recv(&v, 1, MPI_INT, i, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Comm_idup(MPI_COMM_WORLD, &c[0], &r[0]);
	} else {
		MPI_Comm_idup(MPI_COMM_WORLD, &c[0], &r[0]);
		MPI_Ssend(&wrank, 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
	}
	MPI_Wait(&r[0], MPI_STATUS_IGNORE);
	MPI_Allreduce(&wrank, &sum, 1, MPI_INT, MPI_SUM, c[0]);
	mpit_expect_int("allreduce on an idup rank 0 joined last", wsize * (wsize - 1) / 2, sum);
	MPI_Comm_free(&c[0]);

	MPI_Comm_dup(MPI_COMM_WORLD, &d[0]);
	MPI_Comm_dup(MPI_COMM_WORLD, &d[1]);
	MPI_Comm_idup(d[first], &c[first], &r[0]);
	MPI_Comm_idup(d[!first], &c[!first], &r[1]);
	MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
	/* Distinct contexts: a message on c[1] does not match a receive on c[0]. */
	if (wsize > 1 && wrank < 2) {
		int peer = !wrank, a = -1, b = -1, x = 10 + wrank, y = 20 + wrank;

		MPI_Sendrecv(&x, 1, MPI_INT, peer, 0, &a, 1, MPI_INT, peer, 0, c[1],
			     MPI_STATUS_IGNORE);
		MPI_Sendrecv(&y, 1, MPI_INT, peer, 0, &b, 1, MPI_INT, peer, 0, c[0],
			     MPI_STATUS_IGNORE);
		mpit_expect_int("message on the first of two crossed idups", 10 + peer, a);
		mpit_expect_int("message on the second of two crossed idups", 20 + peer, b);
	}
	for (i = 0; i < 2; i++) {
		MPI_Allreduce(&wrank, &sum, 1, MPI_INT, MPI_SUM, c[i]);
		mpit_expect_int("allreduce on crossed idups", wsize * (wsize - 1) / 2, sum);
		MPI_Comm_free(&c[i]);
		MPI_Comm_free(&d[i]);
	}

	for (i = 0; i < 8; i++)
		MPI_Comm_idup(MPI_COMM_WORLD, &e[i], &r[i]);
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	MPI_Waitall(8, r, MPI_STATUSES_IGNORE);
	for (i = 0; i < 8; i++) {
		MPI_Comm_compare(dup, e[i], &v);
		mpit_expect_int("8 idups and a dup in flight together", MPI_CONGRUENT, v);
		MPI_Barrier(e[i]);
		MPI_Comm_free(&e[i]);
	}
	MPI_Comm_free(&dup);

	MPI_Info_create(&info);
	MPI_Info_set(info, "smap_test_hint", "yes");
	MPI_Comm_idup_with_info(MPI_COMM_WORLD, info, &c[0], &r[0]);
	MPI_Info_free(&info);
	MPI_Wait(&r[0], MPI_STATUS_IGNORE);
	MPI_Comm_get_info(c[0], &got);
	MPI_Info_get(got, "smap_test_hint", sizeof val - 1, val, &flag);
	mpit_expect_int("idup_with_info keeps the hint", 1, flag && !strcmp(val, "yes"));
	MPI_Info_free(&got);
	MPI_Comm_free(&c[0]);
	bad |= mpit_report("comm_idup_nonblocking");
}

/* An intercommunicator's idup, its leaders joining after the others. */
static void t_idup_inter(void)
{
	MPI_Comm local, ic, dup;
	MPI_Request r;
	int low = wrank < wsize / 2, lrank, rsize = -1, v = -1, sum = -1;

	if (wsize < 2)
		return;
	MPI_Comm_split(MPI_COMM_WORLD, low, wrank, &local);
	MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, low ? wsize / 2 : 0, 5, &ic);
	MPI_Comm_rank(local, &lrank);
	if (lrank == 0) {
		MPI_Comm_remote_size(ic, &rsize);
		for (int i = 1; i < rsize; i++)
			MPI_Recv(&v, 1, MPI_INT, i, 8, ic, MPI_STATUS_IGNORE);
		MPI_Comm_idup(ic, &dup, &r);
	} else {
		MPI_Comm_idup(ic, &dup, &r);
		MPI_Ssend(&lrank, 1, MPI_INT, 0, 8, ic);
	}
	MPI_Wait(&r, MPI_STATUS_IGNORE);
	MPI_Comm_remote_size(dup, &rsize);
	mpit_expect_int("idup of an intercommunicator: remote size", low ? wsize - wsize / 2 : wsize / 2,
			rsize);
	MPI_Allreduce(&wrank, &sum, 1, MPI_INT, MPI_SUM, dup);
	/* An intercommunicator's allreduce gives each group the other's sum. */
	mpit_expect_int("allreduce on an intercommunicator's idup",
			low ? (wsize / 2 + wsize - 1) * (wsize - wsize / 2) / 2
			    : (wsize / 2 - 1) * (wsize / 2) / 2, sum);
	MPI_Comm_free(&dup);
	MPI_Comm_free(&ic);
	MPI_Comm_free(&local);
	bad |= mpit_report("comm_idup_inter");
}

int main(int argc, char **argv)
{
	MPI_Info early;

	MPI_Info_create_env(argc, argv, &early);
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
	MPI_Comm_size(MPI_COMM_WORLD, &wsize);
	t_info();
	t_info_mpi4(early, argv[0]);
	t_object_info();
	t_mprobe();
	t_mprobe_errors();
	t_idup();
	t_idup_nonblocking();
	t_idup_inter();
	MPI_Finalize();
	return bad;
}
