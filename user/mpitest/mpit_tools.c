/*
 * mpit_tools.c - the tools interface (MPI_T): initialised before MPI_Init,
 * control variables found by enumeration and by name and read (the eager
 * limit as SMAP_MPI_EAGER set it, when the job sets it), writes refused
 * but for the collective check, which turns off and on between
 * collectives that still compute the right sums, a performance counter of sends that counts exactly the sends made while
 * it runs (started, stopped, reset), the category, and the error classes.
 */
#include <stdlib.h>
#include "mpit.h"

static int wrank, wsize, bad;

static void t_cvars(void)
{
	int n = -1, idx = -1, count = 0, verb, bind, scope, len, dlen, found = 0;
	char name[64], desc[256];
	unsigned long long v = 0;
	MPI_Datatype dt;
	MPI_T_enum en;
	MPI_T_cvar_handle h;
	const char *env = getenv("SMAP_MPI_EAGER");

	MPI_T_cvar_get_num(&n);
	mpit_expect_int("some control variables", 1, n >= 4);
	for (int i = 0; i < n; i++) {
		len = sizeof name;
		dlen = sizeof desc;
		MPI_T_cvar_get_info(i, name, &len, &verb, &dt, &en, desc, &dlen, &bind, &scope);
		if (!strcmp(name, "smap_mpi_eager"))
			found = 1;
		if (len != (int)strlen(name) + 1)
			mpit_fail("cvar %d: name_len %d for \"%s\"", i, len, name);
	}
	mpit_expect_int("smap_mpi_eager is listed", 1, found);
	MPI_T_cvar_get_index("smap_mpi_eager", &idx);
	MPI_T_cvar_handle_alloc(idx, NULL, &h, &count);
	mpit_expect_int("one value", 1, count);
	MPI_T_cvar_read(h, &v);
	if (env)
		mpit_expect_int("the eager limit is SMAP_MPI_EAGER's", atoll(env), (long long)v);
	else
		mpit_expect_int("an eager limit", 1, v > 0);
	mpit_expect_int("writing a setting", MPI_T_ERR_CVAR_SET_NEVER, MPI_T_cvar_write(h, &v));
	MPI_T_cvar_handle_free(&h);
	mpit_expect_int("the handle is freed", 1, h == MPI_T_CVAR_HANDLE_NULL);
	mpit_expect_int("an unknown name", MPI_T_ERR_INVALID_NAME,
			MPI_T_cvar_get_index("no_such_variable", &idx));
	mpit_expect_int("an index out of range", MPI_T_ERR_INVALID_INDEX,
			MPI_T_cvar_get_info(n, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
	bad |= mpit_report("control_variables");
}

static void t_pvars(void)
{
	int idx = -1, count = 0, peer = wrank ^ 1, x = 0, ncat = 0, nc = -1, np = -1, n;
	unsigned long long v = 99;
	MPI_T_pvar_session s;
	MPI_T_pvar_handle h;

	MPI_T_pvar_get_index("smap_p2p_sends", MPI_T_PVAR_CLASS_COUNTER, &idx);
	MPI_T_pvar_session_create(&s);
	MPI_T_pvar_handle_alloc(s, idx, NULL, &h, &count);
	MPI_T_pvar_read(s, h, &v);
	mpit_expect_int("a counter not started reads 0", 0, (long long)v);
	MPI_T_pvar_start(s, h);
	if (peer < wsize)
		for (int i = 0; i < 5; i++)
			MPI_Sendrecv(&x, 1, MPI_INT, peer, 0, &x, 1, MPI_INT, peer, 0, MPI_COMM_WORLD,
				     MPI_STATUS_IGNORE);
	MPI_T_pvar_stop(s, h);
	/* Not counted: the counter is stopped. */
	if (peer < wsize)
		MPI_Sendrecv(&x, 1, MPI_INT, peer, 0, &x, 1, MPI_INT, peer, 0, MPI_COMM_WORLD,
			     MPI_STATUS_IGNORE);
	MPI_T_pvar_read(s, h, &v);
	mpit_expect_int("sends counted while started", peer < wsize ? 5 : 0, (long long)v);
	MPI_T_pvar_readreset(s, h, &v);
	MPI_T_pvar_read(s, h, &v);
	mpit_expect_int("after readreset", 0, (long long)v);
	mpit_expect_int("a counter cannot be written", MPI_T_ERR_PVAR_NO_WRITE,
			MPI_T_pvar_write(s, h, &v));
	MPI_T_pvar_handle_free(s, &h);
	MPI_T_pvar_session_free(&s);
	mpit_expect_int("a freed session", MPI_T_ERR_INVALID_SESSION, MPI_T_pvar_session_free(&s));
	MPI_T_category_get_num(&ncat);
	mpit_expect_int("one category", 1, ncat);
	MPI_T_category_get_info(0, NULL, NULL, NULL, NULL, &nc, &np, &n);
	MPI_T_cvar_get_num(&n);
	mpit_expect_int("the category holds every cvar", n, nc);
	bad |= mpit_report("performance_variables");
}

/* smap_coll_check: what SMAP_COLL_CHECK says, then what is written. */
static void t_coll_check(void)
{
	int idx = -1, count = 0, sum = 0, one = 1;
	unsigned long long v = 99, w;
	MPI_T_cvar_handle h;
	const char *env = getenv("SMAP_COLL_CHECK");

	MPI_T_cvar_get_index("smap_coll_check", &idx);
	MPI_T_cvar_handle_alloc(idx, NULL, &h, &count);
	MPI_T_cvar_read(h, &v);
	mpit_expect_int("checks are on unless SMAP_COLL_CHECK=0", !(env && !strcmp(env, "0")),
			(long long)v);
	/* Any non-zero value is on, and reads back as written. */
	for (w = 0; w < 3; w++) {
		mpit_expect_int("a check setting written", MPI_SUCCESS, MPI_T_cvar_write(h, &w));
		MPI_T_cvar_read(h, &v);
		mpit_expect_int("the check setting reads back", (long long)w, (long long)v);
		MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
		mpit_expect_int("an allreduce with the setting", wsize, sum);
		MPI_Barrier(MPI_COMM_WORLD);
	}
	MPI_T_cvar_handle_free(&h);
	bad |= mpit_report("coll_check_setting");
}

/* MPI 4.0's events: none here, so every call on one is refused; the one
 * timestamp source is a clock that advances. */
static void t_events(void)
{
	MPI_T_event_registration reg = NULL;
	MPI_T_source_order order = MPI_T_SOURCE_UNORDERED;
	MPI_Count t0 = 0, t1 = 0, tps = 0;
	MPI_Info info = MPI_INFO_NULL;
	char name[64];
	int n = -1, len = sizeof name, idx;

	MPI_T_event_get_num(&n);
	mpit_expect_int("events", 0, n);
	mpit_expect_int("event 0", MPI_T_ERR_INVALID_INDEX, MPI_T_event_handle_alloc(0, NULL,
			MPI_INFO_NULL, &reg));
	mpit_expect_int("an event by name", MPI_T_ERR_INVALID_NAME,
			MPI_T_event_get_index("mpi_anything", &idx));
	mpit_expect_int("a registration", MPI_T_ERR_INVALID_HANDLE,
			MPI_T_event_handle_free(reg, NULL, NULL));
	MPI_T_category_get_num_events(0, &n);
	mpit_expect_int("events in the category", 0, n);
	MPI_T_source_get_num(&n);
	mpit_expect_int("sources", 1, n);
	MPI_T_source_get_info(0, name, &len, NULL, NULL, &order, &tps, NULL, &info);
	mpit_expect_int("the source is ordered, in ns", 1,
			order == MPI_T_SOURCE_ORDERED && tps == 1000000000 && len > 1);
	if (info != MPI_INFO_NULL)
		MPI_Info_free(&info);
	MPI_T_source_get_timestamp(0, &t0);
	MPI_T_source_get_timestamp(0, &t1);
	mpit_expect_int("its time advances", 1, t0 > 0 && t1 >= t0);
	bad |= mpit_report("tools_events_none_one_clock_source");
}

int main(int argc, char **argv)
{
	int provided = -1;

	/* MPI_T before MPI_Init, as tools do. */
	MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
	MPI_Comm_size(MPI_COMM_WORLD, &wsize);
	t_cvars();
	t_pvars();
	t_coll_check();
	t_events();
	MPI_T_finalize();
	if (wrank == 0)
		printf("%s tools_finalized\n",
		       MPI_T_cvar_get_num(&provided) == MPI_T_ERR_NOT_INITIALIZED ? "ok" : "not ok");
	MPI_Finalize();
	return bad;
}
