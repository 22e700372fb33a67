/*
 * session.c - MPI 4.0 sessions: MPI without MPI_Init.
 *
 * A session starts the library if nothing has (env.c) and keeps it serving
 * calls until its MPI_Session_finalize.  Its process sets are the two MPI
 * defines, mpi://WORLD (every rank of the job, all nodes) and mpi://SELF;
 * their groups become communicators through MPI_Comm_create_from_group and
 * MPI_Intercomm_create_from_groups (comm.c).  Errors on a session go to
 * its handler, as errors on a communicator go to the communicator's.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "impl.h"

struct smpi_session {
	uint32_t live;		/* SMPI_LIVE_SESSION while it exists */
	struct smpi_errh *errh;
	int thread_level;	/* given for the info key thread_level */
	struct smpi_bpool *bpool;	/* its buffer for buffered sends (bsend.c) */
};

static const char *const session_psets[] = { "mpi://WORLD", "mpi://SELF" };
#define SESSION_PSETS	((int)(sizeof session_psets / sizeof *session_psets))

static const char *const thread_names[] = {
	[MPI_THREAD_SINGLE] = "MPI_THREAD_SINGLE",
	[MPI_THREAD_FUNNELED] = "MPI_THREAD_FUNNELED",
	[MPI_THREAD_SERIALIZED] = "MPI_THREAD_SERIALIZED",
	[MPI_THREAD_MULTIPLE] = "MPI_THREAD_MULTIPLE",
};

/* Errors go to the session's handler; at MPI_Session_init, before there
 * is one, to the handler the call names. */
static int session_err(MPI_Session s, int code, const char *fn, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int session_err(MPI_Session s, int code, const char *fn, const char *fmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = smpi_verr_on(smpi_live(s, SMPI_LIVE_SESSION) ? s->errh : NULL, &s, code, fn, fmt, ap);
	va_end(ap);
	return err;
}

#define session_init_err(errh, ...) smpi_err_on((errh), &(MPI_Session){ MPI_SESSION_NULL }, \
						__VA_ARGS__)

/* MPI_SUCCESS for a live session (and MPI serving calls). */
static int session_check(MPI_Session s, const char *fn)
{
	int err;

	if ((err = smpi_check_init(fn)))
		return err;
	if (!smpi_live(s, SMPI_LIVE_SESSION))
		return session_err(s, MPI_ERR_SESSION, fn, "session %p is not a live session",
				   (void *)s);
	return MPI_SUCCESS;
}

/* The index of a process set's name, or -1.  Names are matched without
 * regard to case: "mpi://world" is the world too. */
static int session_pset(const char *name)
{
	for (int i = 0; name && i < SESSION_PSETS; i++)
		if (!strcasecmp(name, session_psets[i]))
			return i;
	return -1;
}

/* The thread level an info asks for with the key thread_level (SINGLE
 * when it does not), or -1 for a value that names no level. */
static int session_thread_asked(MPI_Info info)
{
	char v[MPI_MAX_INFO_VAL];
	int flag = 0;

	if (info == MPI_INFO_NULL ||
	    PMPI_Info_get(info, "thread_level", sizeof v - 1, v, &flag) != MPI_SUCCESS || !flag)
		return MPI_THREAD_SINGLE;
	for (int i = MPI_THREAD_MULTIPLE; i >= MPI_THREAD_SINGLE; i--)
		if (!strcasecmp(v, thread_names[i]))
			return i;
	return -1;
}

int PMPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session)
{
	const char *fn = "MPI_Session_init";
	struct smpi_session *s;
	int level;

	if (!session)
		return session_init_err(errhandler, MPI_ERR_ARG, fn, "session pointer is NULL");
	if ((level = session_thread_asked(info)) < 0)
		return session_init_err(errhandler, MPI_ERR_INFO_VALUE, fn,
					"info key thread_level names no MPI_THREAD_ level");
	if (!(s = calloc(1, sizeof *s)))
		return session_init_err(errhandler, MPI_ERR_NO_MEM, fn, "no memory");
	smpi_session_start();
	s->live = SMPI_LIVE_SESSION;
	s->errh = smpi_errh_ref(errhandler ? errhandler : MPI_ERRORS_ARE_FATAL);
	s->thread_level = smpi_thread_level(level);
	*session = s;
	return MPI_SUCCESS;
}

/* The communicators made from the session's groups are the program's to
 * free first (MPI 4.0 says so); the session's end may end the library. */
int PMPI_Session_finalize(MPI_Session *session)
{
	const char *fn = "MPI_Session_finalize";
	struct smpi_session *s;
	int err;

	if (!session)
		return smpi_err(NULL, MPI_ERR_ARG, fn, "session pointer is NULL");
	if ((err = session_check(*session, fn)))
		return err;
	s = *session;
	smpi_bpool_free(&s->bpool);
	s->live = 0;
	smpi_errh_release(s->errh);
	free(s);
	*session = MPI_SESSION_NULL;
	smpi_session_end();
	return MPI_SUCCESS;
}

int PMPI_Session_get_num_psets(MPI_Session session, MPI_Info info, int *npset_names)
{
	const char *fn = "MPI_Session_get_num_psets";
	int err;

	(void)info;
	if ((err = session_check(session, fn)))
		return err;
	if (!npset_names)
		return session_err(session, MPI_ERR_ARG, fn, "npset_names pointer is NULL");
	*npset_names = SESSION_PSETS;
	return MPI_SUCCESS;
}

/* *pset_len 0 asks for the length the name needs (its NUL included);
 * otherwise the name goes into pset_name, cut to *pset_len - 1 bytes. */
int PMPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n, int *pset_len,
			      char *pset_name)
{
	const char *fn = "MPI_Session_get_nth_pset";
	size_t need;
	int err;

	(void)info;
	if ((err = session_check(session, fn)))
		return err;
	if (!pset_len || *pset_len < 0 || (*pset_len > 0 && !pset_name))
		return session_err(session, MPI_ERR_ARG, fn, "bad pset_len or NULL pset_name");
	if (n < 0 || n >= SESSION_PSETS)
		return session_err(session, MPI_ERR_ARG, fn, "n %d is not below the %d process sets",
				   n, SESSION_PSETS);
	need = strlen(session_psets[n]) + 1;
	if (*pset_len == 0) {
		*pset_len = (int)need;
		return MPI_SUCCESS;
	}
	snprintf(pset_name, (size_t)*pset_len, "%s", session_psets[n]);
	return MPI_SUCCESS;
}

int PMPI_Session_get_pset_info(MPI_Session session, const char *pset_name, MPI_Info *info)
{
	const char *fn = "MPI_Session_get_pset_info";
	char size[16];
	int err, p;

	if ((err = session_check(session, fn)))
		return err;
	if (!info)
		return session_err(session, MPI_ERR_ARG, fn, "info pointer is NULL");
	if ((p = session_pset(pset_name)) < 0)
		return session_err(session, MPI_ERR_ARG, fn, "no process set is named '%s'",
				   pset_name ? pset_name : "(NULL)");
	snprintf(size, sizeof size, "%d", p == 0 ? smap_world_size() : 1);
	if ((err = PMPI_Info_create(info)) || (err = PMPI_Info_set(*info, "mpi_size", size)))
		return session_err(session, err, fn, "no memory for the info");
	return MPI_SUCCESS;
}

int PMPI_Session_get_info(MPI_Session session, MPI_Info *info_used)
{
	const char *fn = "MPI_Session_get_info";
	int err;

	if ((err = session_check(session, fn)))
		return err;
	if (!info_used)
		return session_err(session, MPI_ERR_ARG, fn, "info_used pointer is NULL");
	if ((err = PMPI_Info_create(info_used)) ||
	    (err = PMPI_Info_set(*info_used, "thread_level", thread_names[session->thread_level])))
		return session_err(session, err, fn, "no memory for the info");
	return MPI_SUCCESS;
}

int PMPI_Group_from_session_pset(MPI_Session session, const char *pset_name, MPI_Group *newgroup)
{
	const char *fn = "MPI_Group_from_session_pset";
	int err, p, me = smap_world_rank();
	MPI_Group g = MPI_GROUP_NULL;

	if ((err = session_check(session, fn)))
		return err;
	if (!newgroup)
		return session_err(session, MPI_ERR_ARG, fn, "newgroup pointer is NULL");
	if ((p = session_pset(pset_name)) < 0)
		return session_err(session, MPI_ERR_ARG, fn, "no process set is named '%s'",
				   pset_name ? pset_name : "(NULL)");
	/* A group of its own (not MPI_COMM_WORLD's), to carry the session. */
	if (p == 0)
		g = smpi_group_new(MPI_COMM_WORLD->group->size, MPI_COMM_WORLD->group->world);
	else
		g = smpi_group_new(1, &me);
	if (!g)
		return session_err(session, MPI_ERR_NO_MEM, fn, "no memory for a group");
	g->session = session;
	*newgroup = g;
	return MPI_SUCCESS;
}

int PMPI_Session_create_errhandler(MPI_Session_errhandler_function *session_errhandler_fn,
				   MPI_Errhandler *errhandler)
{
	if (!session_errhandler_fn || !errhandler)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Session_create_errhandler", "NULL argument");
	return PMPI_Comm_create_errhandler(
		(MPI_Comm_errhandler_function *)(void (*)(void))session_errhandler_fn, errhandler);
}

int PMPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler)
{
	const char *fn = "MPI_Session_set_errhandler";
	int err;

	if ((err = session_check(session, fn)))
		return err;
	if (!errhandler)
		return session_err(session, MPI_ERR_ARG, fn, "MPI_ERRHANDLER_NULL");
	smpi_errh_replace(&session->errh, errhandler);
	return MPI_SUCCESS;
}

int PMPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler *errhandler)
{
	const char *fn = "MPI_Session_get_errhandler";
	int err;

	if ((err = session_check(session, fn)))
		return err;
	if (!errhandler)
		return session_err(session, MPI_ERR_ARG, fn, "errhandler pointer is NULL");
	*errhandler = smpi_errh_ref(session->errh);
	return MPI_SUCCESS;
}

int PMPI_Session_call_errhandler(MPI_Session session, int errorcode)
{
	const char *fn = "MPI_Session_call_errhandler";
	int err;

	if ((err = session_check(session, fn)))
		return err;
	session_err(session, errorcode, fn, "raised by the program");
	return MPI_SUCCESS;
}

int smpi_session_bpool(MPI_Session s, struct smpi_bpool ***pp, const char *fn)
{
	int err;

	if ((err = session_check(s, fn)))
		return err;
	*pp = &s->bpool;
	return MPI_SUCCESS;
}

struct smpi_bpool **smpi_comm_session_bpool(MPI_Comm c)
{
	return c->session && smpi_live(c->session, SMPI_LIVE_SESSION) ? &c->session->bpool : NULL;
}

SMPI_ALIAS(Session_init)
SMPI_ALIAS(Session_finalize)
SMPI_ALIAS(Session_get_num_psets)
SMPI_ALIAS(Session_get_nth_pset)
SMPI_ALIAS(Session_get_pset_info)
SMPI_ALIAS(Session_get_info)
SMPI_ALIAS(Group_from_session_pset)
SMPI_ALIAS(Session_create_errhandler)
SMPI_ALIAS(Session_set_errhandler)
SMPI_ALIAS(Session_get_errhandler)
SMPI_ALIAS(Session_call_errhandler)
