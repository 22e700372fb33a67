/*
 * mpit_session.c - MPI 4.0 sessions: MPI without MPI_Init, then with it.
 *
 * Every check until the last runs before MPI_Init and reports over the
 * communicator made from the session's mpi://WORLD process set; the last
 * calls MPI_Init, uses MPI_COMM_WORLD beside the session's communicators
 * and finalizes both models (main's comment has the other modes).  Runs
 * on any number of ranks and nodes.
 */
#include <stdlib.h>
#include "mpit.h"

static MPI_Session session;
static MPI_Comm world;		/* from mpi://WORLD: what the checks report on */
static int rank, size;

static int class_of(int err)
{
	int cls;

	MPI_Error_class(err, &cls);
	return cls;
}

/* A pset's name by index, asking for its length first. */
static char *pset_name(MPI_Session s, int n)
{
	int len = 0;
	char *name;

	if (MPI_Session_get_nth_pset(s, MPI_INFO_NULL, n, &len, NULL) != MPI_SUCCESS || len < 2)
		return NULL;
	name = malloc((size_t)len);
	if (name && MPI_Session_get_nth_pset(s, MPI_INFO_NULL, n, &len, name) != MPI_SUCCESS) {
		free(name);
		return NULL;
	}
	return name;
}

static long info_long(MPI_Info info, const char *key)
{
	char v[64];
	int flag = 0;

	MPI_Info_get(info, key, sizeof v - 1, v, &flag);
	return flag ? atol(v) : -1;
}

/* Starts the session and makes the world communicator out of its group:
 * until then nothing can be reported, so a failure ends the job. */
static void start(void)
{
	MPI_Group g;
	int flag = 1;

	MPI_Initialized(&flag);
	if (flag || MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &session) ||
	    MPI_Group_from_session_pset(session, "mpi://WORLD", &g) ||
	    MPI_Comm_create_from_group(g, "org.smapos.mpit_session.world", MPI_INFO_NULL,
				       MPI_ERRORS_ARE_FATAL, &world)) {
		fprintf(stderr, "mpit_session: no session world (MPI_Initialized %d)\n", flag);
		exit(2);
	}
	MPI_Group_free(&g);
	MPI_Comm_rank(world, &rank);
	MPI_Comm_size(world, &size);
}

static void test_psets(void)
{
	int n = 0, flag = 1, seen_world = 0, seen_self = 0;
	MPI_Info info;

	MPI_Initialized(&flag);
	mpit_expect_int("MPI_Initialized in a session", 0, flag);
	MPI_Session_get_num_psets(session, MPI_INFO_NULL, &n);
	mpit_expect_int("process sets at least WORLD and SELF", 1, n >= 2);
	for (int i = 0; i < n; i++) {
		char *name = pset_name(session, i);

		if (!name) {
			mpit_fail("process set %d has no name", i);
			continue;
		}
		seen_world |= !strcmp(name, "mpi://WORLD");
		seen_self |= !strcmp(name, "mpi://SELF");
		free(name);
	}
	mpit_expect_int("mpi://WORLD listed", 1, seen_world);
	mpit_expect_int("mpi://SELF listed", 1, seen_self);
	MPI_Session_get_pset_info(session, "mpi://WORLD", &info);
	mpit_expect_int("mpi_size of mpi://WORLD", size, info_long(info, "mpi_size"));
	MPI_Info_free(&info);
	MPI_Session_get_pset_info(session, "mpi://SELF", &info);
	mpit_expect_int("mpi_size of mpi://SELF", 1, info_long(info, "mpi_size"));
	MPI_Info_free(&info);
	{
		char small[6];
		int len = (int)sizeof small;

		MPI_Session_get_nth_pset(session, MPI_INFO_NULL, 0, &len, small);
		mpit_expect_int("a short buffer gets a cut, terminated name", 5, (int)strlen(small));
	}
	mpit_report_on(world, "session_process_sets_and_their_info");
}

/* The session's world works as MPI_COMM_WORLD would: collectives,
 * point-to-point around the ring, a split, a communicator of SELF. */
static void test_world_comm(void)
{
	int sum = 0, from = -1, to = (rank + 1) % size, left = (rank + size - 1) % size;
	MPI_Comm half, self;
	MPI_Group g;
	int hs = 0, ss = 0;

	MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, world);
	mpit_expect_int("allreduce of ranks", size * (size - 1) / 2, sum);
	MPI_Sendrecv(&rank, 1, MPI_INT, to, 7, &from, 1, MPI_INT, left, 7, world,
		     MPI_STATUS_IGNORE);
	mpit_expect_int("ring neighbour", left, from);
	MPI_Comm_split(world, rank % 2, rank, &half);
	MPI_Comm_size(half, &hs);
	mpit_expect_int("split half", (size + 1 - rank % 2) / 2, hs);
	MPI_Comm_free(&half);
	MPI_Group_from_session_pset(session, "mpi://SELF", &g);
	MPI_Comm_create_from_group(g, "org.smapos.mpit_session.self", MPI_INFO_NULL,
				   MPI_ERRORS_RETURN, &self);
	MPI_Group_free(&g);
	MPI_Comm_size(self, &ss);
	mpit_expect_int("a communicator of mpi://SELF", 1, ss);
	sum = -1;
	MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, self);
	mpit_expect_int("allreduce on SELF", rank, sum);
	MPI_Comm_free(&self);
	mpit_report_on(world, "session_world_comm_collectives_ring_split_self");
}

/* Two communicators from one group, told apart by their string tags,
 * each with the handler the call named. */
static void test_two_tags(void)
{
	MPI_Comm a, b;
	MPI_Errhandler e;
	MPI_Group g;
	int x = rank, y = -1, cmp;

	MPI_Group_from_session_pset(session, "mpi://WORLD", &g);
	MPI_Comm_create_from_group(g, "org.smapos.mpit_session.a", MPI_INFO_NULL,
				   MPI_ERRORS_RETURN, &a);
	MPI_Comm_create_from_group(g, "org.smapos.mpit_session.b", MPI_INFO_NULL,
				   MPI_ERRORS_ARE_FATAL, &b);
	MPI_Group_free(&g);
	MPI_Comm_compare(a, b, &cmp);
	mpit_expect_int("two tags, two congruent communicators", MPI_CONGRUENT, cmp);
	MPI_Comm_get_errhandler(a, &e);
	mpit_expect_int("a has MPI_ERRORS_RETURN", 1, e == MPI_ERRORS_RETURN);
	MPI_Errhandler_free(&e);
	mpit_expect_int("an error on a returns", MPI_ERR_RANK,
			class_of(MPI_Send(&x, 1, MPI_INT, size, 0, a)));
	/* A message on a is not received on b. */
	if (size > 1) {
		if (rank == 0) {
			MPI_Send(&x, 1, MPI_INT, 1, 3, a);
			MPI_Send(&x, 1, MPI_INT, 1, 3, b);
		} else if (rank == 1) {
			int flag = 1;

			MPI_Recv(&y, 1, MPI_INT, 0, 3, b, MPI_STATUS_IGNORE);
			MPI_Iprobe(0, 3, b, &flag, MPI_STATUS_IGNORE);
			mpit_expect_int("b holds no second message", 0, flag);
			MPI_Recv(&y, 1, MPI_INT, 0, 3, a, MPI_STATUS_IGNORE);
			mpit_expect_int("a's message", 0, y);
		}
	}
	MPI_Comm_free(&a);
	MPI_Comm_free(&b);
	mpit_report_on(world, "session_comms_from_one_group_by_string_tag");
}

static int handled, handled_code;
static MPI_Session handled_session;

static void on_error(MPI_Session *s, int *code, ...)
{
	handled++;
	handled_code = *code;
	handled_session = *s;
}

static void test_errors(void)
{
	MPI_Session s, bad;
	MPI_Errhandler h, got;
	MPI_Group g = MPI_GROUP_NULL;
	MPI_Info info;
	MPI_Comm none;
	char v[64];
	int n = 0, flag = 0, len = 8;

	MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s);
	mpit_expect_int("an unknown process set", MPI_ERR_ARG,
			class_of(MPI_Group_from_session_pset(s, "mpi://NOWHERE", &g)));
	MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n);
	mpit_expect_int("process set past the last", MPI_ERR_ARG,
			class_of(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, n, &len, v)));
	mpit_expect_int("no group", MPI_ERR_GROUP,
			class_of(MPI_Comm_create_from_group(MPI_GROUP_NULL, "x", MPI_INFO_NULL,
							    MPI_ERRORS_RETURN, &none)));
	mpit_expect_int("the empty group makes no communicator", 1,
			MPI_Comm_create_from_group(MPI_GROUP_EMPTY, "x", MPI_INFO_NULL,
						   MPI_ERRORS_RETURN, &none) == MPI_SUCCESS &&
			none == MPI_COMM_NULL);
	MPI_Info_create(&info);
	MPI_Info_set(info, "thread_level", "MPI_THREAD_SOMETIMES");
	mpit_expect_int("a thread level that is none", MPI_ERR_INFO_VALUE,
			class_of(MPI_Session_init(info, MPI_ERRORS_RETURN, &bad)));
	MPI_Info_free(&info);
	MPI_Session_create_errhandler(on_error, &h);
	MPI_Session_set_errhandler(s, h);
	MPI_Session_get_errhandler(s, &got);
	mpit_expect_int("get_errhandler gives the one set", 1, got == h);
	MPI_Errhandler_free(&got);
	MPI_Session_call_errhandler(s, MPI_ERR_OTHER);
	mpit_expect_int("handler called once", 1, handled);
	mpit_expect_int("with the code", MPI_ERR_OTHER, handled_code);
	mpit_expect_int("and the session", 1, handled_session == s);
	MPI_Group_from_session_pset(s, "mpi://NOWHERE", &g);
	mpit_expect_int("an error on the session goes to its handler", 2, handled);
	MPI_Errhandler_free(&h);
	MPI_Session_get_info(s, &info);
	MPI_Info_get(info, "thread_level", sizeof v - 1, v, &flag);
	mpit_expect_int("get_info names the thread level", 1,
			flag && !strncmp(v, "MPI_THREAD_", 11));
	MPI_Info_free(&info);
	MPI_Session_finalize(&s);
	mpit_expect_int("finalize nulls the handle", 1, s == MPI_SESSION_NULL);
	mpit_report_on(world, "session_errors_and_handlers");
}

/* Evens and odds make an intercommunicator from their two groups. */
static void test_intercomm(void)
{
	MPI_Group all, even, odd;
	MPI_Comm ic, merged;
	int nev = (size + 1) / 2, nodd = size / 2, *ev = malloc(sizeof(int) * (size_t)nev);
	int *od = malloc(sizeof(int) * (size_t)(nodd + 1)), rs = -1, ms = -1, got = -1;

	if (size < 2 || !ev || !od) {
		free(ev);
		free(od);
		mpit_report_on(world, "session_intercomm_from_groups");
		return;
	}
	for (int i = 0; i < nev; i++)
		ev[i] = 2 * i;
	for (int i = 0; i < nodd; i++)
		od[i] = 2 * i + 1;
	MPI_Group_from_session_pset(session, "mpi://WORLD", &all);
	MPI_Group_incl(all, nev, ev, &even);
	MPI_Group_incl(all, nodd, od, &odd);
	MPI_Intercomm_create_from_groups(rank % 2 ? odd : even, 0, rank % 2 ? even : odd, 0,
					 "org.smapos.mpit_session.inter", MPI_INFO_NULL,
					 MPI_ERRORS_ARE_FATAL, &ic);
	MPI_Comm_remote_size(ic, &rs);
	mpit_expect_int("remote group size", rank % 2 ? nev : nodd, rs);
	/* Each local rank 0 sends its world rank to the other side's 0. */
	if (rank < 2) {
		MPI_Sendrecv(&rank, 1, MPI_INT, 0, 5, &got, 1, MPI_INT, 0, 5, ic, MPI_STATUS_IGNORE);
		mpit_expect_int("the other leader", 1 - rank, got);
	}
	MPI_Intercomm_merge(ic, rank % 2, &merged);
	MPI_Comm_size(merged, &ms);
	mpit_expect_int("merged size", size, ms);
	MPI_Comm_free(&merged);
	MPI_Comm_free(&ic);
	MPI_Group_free(&even);
	MPI_Group_free(&odd);
	MPI_Group_free(&all);
	free(ev);
	free(od);
	mpit_report_on(world, "session_intercomm_from_groups");
}

/* The world model joins the session: MPI_Init after it, MPI_COMM_WORLD
 * beside the session's communicator, then both end. */
static void test_world_model_too(void)
{
	int flag = 0, sum = 0, one = 1;

	MPI_Init(NULL, NULL);
	MPI_Initialized(&flag);
	mpit_expect_int("MPI_Initialized after MPI_Init", 1, flag);
	MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	mpit_expect_int("MPI_COMM_WORLD beside the session", size, sum);
	MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, world);
	mpit_expect_int("the session's world still works", size, sum);
	mpit_report_on(world, "session_and_world_model_together");
}

/*
 * mpit_session [only|leave]: with no argument the world model joins at
 * the end; "only" never calls MPI_Init (the session's finalize ends MPI);
 * "leave" returns from main with the session open, which must end the
 * job with a failure.
 */
int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	int flag = 0;

	start();
	test_psets();
	test_world_comm();
	test_two_tags();
	test_errors();
	test_intercomm();
	if (!strcmp(mode, "leave"))
		return 0;
	if (strcmp(mode, "only"))
		test_world_model_too();
	MPI_Comm_free(&world);
	MPI_Session_finalize(&session);
	if (!strcmp(mode, "only")) {
		MPI_Initialized(&flag);
		if (rank == 0)
			printf("%s session_only_never_initialized\n", flag ? "not ok" : "ok");
		return 0;
	}
	/* The session is gone: the world model still serves calls. */
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Finalize();
	MPI_Finalized(&flag);
	if (rank == 0)
		printf("%s session_finalize_then_finalize\n", flag ? "ok" : "not ok");
	return 0;
}
