/*
 * tools.c - the MPI tools information interface (MPI_T, MPI 3.1 chapter
 * 14): the control variables are libsmap's real settings (the protocol
 * limits point-to-point chose at MPI_Init from SMAP_MPI_EAGER,
 * SMAP_MPI_RING and SMAP_MPI_SPLIT, the network's largest eager message,
 * whether collective arguments are checked across ranks); the performance
 * variables are real counters (point-to-point sends and receives this
 * rank started).  All are read-only: the settings are fixed when MPI_Init
 * reads them, and every rank must agree on some of them.  One category,
 * "libsmap", holds them all.  MPI_T works before MPI_Init and after
 * MPI_Finalize; the settings read 0 until MPI_Init made them.  MPI 4.0's
 * events: libsmap raises none, so there is no event type; the one
 * timestamp source is the job's clock.
 */
#include <stdlib.h>
#include <string.h>
#include "impl.h"

struct smpi_pv smpi_pv;

#define T_LIVE_CVAR	0x72617663u	/* "cvar" */
#define T_LIVE_PVAR	0x72617670u	/* "pvar" */
#define T_LIVE_SESS	0x73736573u	/* "sess" */

static int t_inits;

static uint64_t cv_limit_eager(void)
{
	return smpi_started ? smpi_p2p_limit(SMPI_LIMIT_EAGER) : 0;
}

static uint64_t cv_limit_ring(void)
{
	return smpi_started ? smpi_p2p_limit(SMPI_LIMIT_RING) : 0;
}

static uint64_t cv_limit_split(void)
{
	return smpi_started ? smpi_p2p_limit(SMPI_LIMIT_SPLIT) : 0;
}

static uint64_t cv_net_eager(void)
{
	return net_up() ? net_eager_max() : 0;
}

/* Written values read back as written (a tool writes a value and reads
 * it to check), any non-zero one meaning on, as a C boolean. */
static uint64_t cv_coll_check_written;
static int cv_coll_check_was_written;

static uint64_t cv_coll_check(void)
{
	if (cv_coll_check_was_written)
		return cv_coll_check_written;
	return (smpi_coll_checking < 0 ? smpi_coll_check_setup() : smpi_coll_checking) != 0;
}

/* Safe between any two collectives, even on some ranks only: a member
 * that checks compares only with members that publish a check word. */
static int cv_coll_check_set(uint64_t v)
{
	if (smpi_coll_checking < 0)
		smpi_coll_check_setup();
	smpi_coll_checking = v != 0;
	cv_coll_check_written = v;
	cv_coll_check_was_written = 1;
	return MPI_SUCCESS;
}

static const struct t_cvar {
	const char *name, *desc;
	uint64_t (*get)(void);
	int scope;
	int (*set)(uint64_t);	/* NULL: read-only */
} t_cvars[] = {
	{ "smap_mpi_eager", "largest point-to-point message sent eagerly on a node, bytes "
	  "(SMAP_MPI_EAGER)", cv_limit_eager, MPI_T_SCOPE_READONLY, NULL },
	{ "smap_mpi_ring", "bytes of each peer's eager ring (SMAP_MPI_RING)", cv_limit_ring,
	  MPI_T_SCOPE_READONLY, NULL },
	{ "smap_mpi_split", "rendezvous messages from this size up are copied by both sides, "
	  "bytes (SMAP_MPI_SPLIT)", cv_limit_split, MPI_T_SCOPE_READONLY, NULL },
	{ "smap_net_eager", "largest message sent eagerly between nodes, bytes (one frame)",
	  cv_net_eager, MPI_T_SCOPE_CONSTANT, NULL },
	{ "smap_coll_check", "collective arguments checked across ranks, 0 (off) or not "
	  "(SMAP_COLL_CHECK; writable between collectives)", cv_coll_check, MPI_T_SCOPE_ALL_EQ,
	  cv_coll_check_set },
};
#define T_NCVARS	((int)(sizeof t_cvars / sizeof *t_cvars))

static const struct t_pvar {
	const char *name, *desc;
	uint64_t *counter;
} t_pvars[] = {
	{ "smap_p2p_sends", "point-to-point sends this rank started (every mode, blocking or "
	  "not)", &smpi_pv.sends },
	{ "smap_p2p_recvs", "point-to-point receives this rank posted", &smpi_pv.recvs },
};
#define T_NPVARS	((int)(sizeof t_pvars / sizeof *t_pvars))

struct smpi_t_cvar_handle {
	uint32_t live;
	int index;
};

struct smpi_t_pvar_session {
	uint32_t live;
};

struct smpi_t_pvar_handle {
	uint32_t live;
	MPI_T_pvar_session session;
	int index;
	int started;
	uint64_t base;		/* counter value at the last start or reset */
	uint64_t acc;		/* counted while started, up to the last stop */
};

/* Copies s into buf of *len characters (NUL included); *len becomes the
 * length needed.  Either may be NULL / 0 to ask only the length. */
static void t_str(const char *s, char *buf, int *len)
{
	int n = (int)strlen(s);

	if (!len)
		return;
	if (buf && *len > 0) {
		int m = n < *len - 1 ? n : *len - 1;

		memcpy(buf, s, m);
		buf[m] = 0;
	}
	*len = n + 1;
}

int PMPI_T_init_thread(int required, int *provided)
{
	if (!provided)
		return MPI_ERR_ARG;
	*provided = required < MPI_THREAD_FUNNELED ? required : MPI_THREAD_FUNNELED;
	if (*provided < MPI_THREAD_SINGLE)
		*provided = MPI_THREAD_SINGLE;
	t_inits++;
	return MPI_SUCCESS;
}

int PMPI_T_finalize(void)
{
	if (!t_inits)
		return MPI_T_ERR_NOT_INITIALIZED;
	t_inits--;
	return MPI_SUCCESS;
}

#define T_READY() do { if (!t_inits) return MPI_T_ERR_NOT_INITIALIZED; } while (0)

int PMPI_T_enum_get_info(MPI_T_enum enumtype, int *num, char *name, int *name_len)
{
	(void)enumtype;
	(void)num;
	(void)name;
	(void)name_len;
	T_READY();
	/* No variable here is of an enumerated type. */
	return MPI_T_ERR_INVALID_HANDLE;
}

int PMPI_T_enum_get_item(MPI_T_enum enumtype, int index, int *value, char *name, int *name_len)
{
	(void)enumtype;
	(void)index;
	(void)value;
	(void)name;
	(void)name_len;
	T_READY();
	return MPI_T_ERR_INVALID_HANDLE;
}

static int t_num(int *num, int n)
{
	T_READY();
	if (!num)
		return MPI_ERR_ARG;
	*num = n;
	return MPI_SUCCESS;
}

/* What every variable here shares: a user-level unsigned long long bound
 * to no object, of no enumerated type. */
static void t_var_info(const char *nm, const char *ds, char *name, int *name_len, char *desc,
		       int *desc_len, int *verbosity, MPI_Datatype *datatype,
		       MPI_T_enum *enumtype, int *bind)
{
	t_str(nm, name, name_len);
	t_str(ds, desc, desc_len);
	if (verbosity)
		*verbosity = MPI_T_VERBOSITY_USER_BASIC;
	if (datatype)
		*datatype = MPI_UNSIGNED_LONG_LONG;
	if (enumtype)
		*enumtype = MPI_T_ENUM_NULL;
	if (bind)
		*bind = MPI_T_BIND_NO_OBJECT;
}

int PMPI_T_cvar_get_num(int *num_cvar)
{
	return t_num(num_cvar, T_NCVARS);
}

int PMPI_T_cvar_get_info(int cvar_index, char *name, int *name_len, int *verbosity,
			 MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len,
			 int *bind, int *scope)
{
	T_READY();
	if (cvar_index < 0 || cvar_index >= T_NCVARS)
		return MPI_T_ERR_INVALID_INDEX;
	t_var_info(t_cvars[cvar_index].name, t_cvars[cvar_index].desc, name, name_len, desc,
		   desc_len, verbosity, datatype, enumtype, bind);
	if (scope)
		*scope = t_cvars[cvar_index].scope;
	return MPI_SUCCESS;
}

int PMPI_T_cvar_get_index(const char *name, int *cvar_index)
{
	T_READY();
	if (!name || !cvar_index)
		return MPI_ERR_ARG;
	for (int i = 0; i < T_NCVARS; i++)
		if (!strcmp(name, t_cvars[i].name)) {
			*cvar_index = i;
			return MPI_SUCCESS;
		}
	return MPI_T_ERR_INVALID_NAME;
}

int PMPI_T_cvar_handle_alloc(int cvar_index, void *obj_handle, MPI_T_cvar_handle *handle,
			     int *count)
{
	MPI_T_cvar_handle h;

	(void)obj_handle;
	T_READY();
	if (cvar_index < 0 || cvar_index >= T_NCVARS)
		return MPI_T_ERR_INVALID_INDEX;
	if (!handle || !count)
		return MPI_ERR_ARG;
	if (!(h = malloc(sizeof *h)))
		return MPI_T_ERR_MEMORY;
	h->live = T_LIVE_CVAR;
	h->index = cvar_index;
	*handle = h;
	*count = 1;
	return MPI_SUCCESS;
}

static int cvar_live(MPI_T_cvar_handle h)
{
	return h && smpi_in_region(h, sizeof *h) && h->live == T_LIVE_CVAR;
}

int PMPI_T_cvar_handle_free(MPI_T_cvar_handle *handle)
{
	T_READY();
	if (!handle || !cvar_live(*handle))
		return MPI_T_ERR_INVALID_HANDLE;
	(*handle)->live = 0;
	free(*handle);
	*handle = MPI_T_CVAR_HANDLE_NULL;
	return MPI_SUCCESS;
}

int PMPI_T_cvar_read(MPI_T_cvar_handle handle, void *buf)
{
	T_READY();
	if (!cvar_live(handle))
		return MPI_T_ERR_INVALID_HANDLE;
	if (!buf)
		return MPI_ERR_ARG;
	*(unsigned long long *)buf = t_cvars[handle->index].get();
	return MPI_SUCCESS;
}

int PMPI_T_cvar_write(MPI_T_cvar_handle handle, const void *buf)
{
	T_READY();
	if (!cvar_live(handle))
		return MPI_T_ERR_INVALID_HANDLE;
	/* The others are read when MPI_Init sets the protocol up, and alike
	 * on every rank. */
	if (!t_cvars[handle->index].set)
		return MPI_T_ERR_CVAR_SET_NEVER;
	if (!buf)
		return MPI_ERR_ARG;
	return t_cvars[handle->index].set(*(const unsigned long long *)buf);
}

int PMPI_T_pvar_get_num(int *num_pvar)
{
	return t_num(num_pvar, T_NPVARS);
}

int PMPI_T_pvar_get_info(int pvar_index, char *name, int *name_len, int *verbosity,
			 int *var_class, MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc,
			 int *desc_len, int *bind, int *readonly, int *continuous, int *atomic)
{
	T_READY();
	if (pvar_index < 0 || pvar_index >= T_NPVARS)
		return MPI_T_ERR_INVALID_INDEX;
	t_var_info(t_pvars[pvar_index].name, t_pvars[pvar_index].desc, name, name_len, desc,
		   desc_len, verbosity, datatype, enumtype, bind);
	if (var_class)
		*var_class = MPI_T_PVAR_CLASS_COUNTER;
	if (readonly)
		*readonly = 1;
	if (continuous)
		*continuous = 0;
	if (atomic)
		*atomic = 0;
	return MPI_SUCCESS;
}

int PMPI_T_pvar_get_index(const char *name, int var_class, int *pvar_index)
{
	T_READY();
	if (!name || !pvar_index)
		return MPI_ERR_ARG;
	for (int i = 0; i < T_NPVARS; i++)
		if (var_class == MPI_T_PVAR_CLASS_COUNTER && !strcmp(name, t_pvars[i].name)) {
			*pvar_index = i;
			return MPI_SUCCESS;
		}
	return MPI_T_ERR_INVALID_NAME;
}

static int sess_live(MPI_T_pvar_session s)
{
	return s && smpi_in_region(s, sizeof *s) && s->live == T_LIVE_SESS;
}

int PMPI_T_pvar_session_create(MPI_T_pvar_session *session)
{
	T_READY();
	if (!session)
		return MPI_ERR_ARG;
	if (!(*session = malloc(sizeof **session)))
		return MPI_T_ERR_MEMORY;
	(*session)->live = T_LIVE_SESS;
	return MPI_SUCCESS;
}

int PMPI_T_pvar_session_free(MPI_T_pvar_session *session)
{
	T_READY();
	if (!session || !sess_live(*session))
		return MPI_T_ERR_INVALID_SESSION;
	(*session)->live = 0;
	free(*session);
	*session = MPI_T_PVAR_SESSION_NULL;
	return MPI_SUCCESS;
}

int PMPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index, void *obj_handle,
			     MPI_T_pvar_handle *handle, int *count)
{
	MPI_T_pvar_handle h;

	(void)obj_handle;
	T_READY();
	if (!sess_live(session))
		return MPI_T_ERR_INVALID_SESSION;
	if (pvar_index < 0 || pvar_index >= T_NPVARS)
		return MPI_T_ERR_INVALID_INDEX;
	if (!handle || !count)
		return MPI_ERR_ARG;
	if (!(h = calloc(1, sizeof *h)))
		return MPI_T_ERR_MEMORY;
	h->live = T_LIVE_PVAR;
	h->session = session;
	h->index = pvar_index;
	*handle = h;
	*count = 1;
	return MPI_SUCCESS;
}

/* The handle, or NULL with *err set. */
static MPI_T_pvar_handle pvar_get(MPI_T_pvar_session s, MPI_T_pvar_handle h, int *err)
{
	*err = !t_inits ? MPI_T_ERR_NOT_INITIALIZED : !sess_live(s) ? MPI_T_ERR_INVALID_SESSION :
	       h == MPI_T_PVAR_ALL_HANDLES ? MPI_SUCCESS :
	       !h || !smpi_in_region(h, sizeof *h) || h->live != T_LIVE_PVAR || h->session != s ?
	       MPI_T_ERR_INVALID_HANDLE : MPI_SUCCESS;
	return *err ? NULL : h;
}

int PMPI_T_pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle *handle)
{
	int err;

	if (!handle || !pvar_get(session, *handle, &err) || *handle == MPI_T_PVAR_ALL_HANDLES)
		return handle && *handle != MPI_T_PVAR_ALL_HANDLES ? err : MPI_T_ERR_INVALID_HANDLE;
	(*handle)->live = 0;
	free(*handle);
	*handle = MPI_T_PVAR_HANDLE_NULL;
	return MPI_SUCCESS;
}

static uint64_t pvar_now(MPI_T_pvar_handle h)
{
	return *t_pvars[h->index].counter;
}

/* What the handle counted: while started, up to now. */
static uint64_t pvar_value(MPI_T_pvar_handle h)
{
	return h->acc + (h->started ? pvar_now(h) - h->base : 0);
}

int PMPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
	int err;
	MPI_T_pvar_handle h = pvar_get(session, handle, &err);

	if (err)
		return err;
	if (h == MPI_T_PVAR_ALL_HANDLES)
		return MPI_SUCCESS;	/* handles are started one by one here */
	if (!h->started) {
		h->started = 1;
		h->base = pvar_now(h);
	}
	return MPI_SUCCESS;
}

int PMPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
	int err;
	MPI_T_pvar_handle h = pvar_get(session, handle, &err);

	if (err)
		return err;
	if (h == MPI_T_PVAR_ALL_HANDLES)
		return MPI_SUCCESS;
	if (h->started) {
		h->acc += pvar_now(h) - h->base;
		h->started = 0;
	}
	return MPI_SUCCESS;
}

int PMPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf)
{
	int err;
	MPI_T_pvar_handle h = pvar_get(session, handle, &err);

	if (err)
		return err;
	if (h == MPI_T_PVAR_ALL_HANDLES || !buf)
		return MPI_ERR_ARG;
	*(unsigned long long *)buf = pvar_value(h);
	return MPI_SUCCESS;
}

int PMPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void *buf)
{
	int err;

	(void)buf;
	if (!pvar_get(session, handle, &err) && err)
		return err;
	return MPI_T_ERR_PVAR_NO_WRITE;
}

int PMPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
	int err;
	MPI_T_pvar_handle h = pvar_get(session, handle, &err);

	if (err)
		return err;
	if (h == MPI_T_PVAR_ALL_HANDLES)
		return MPI_SUCCESS;
	h->acc = 0;
	h->base = pvar_now(h);
	return MPI_SUCCESS;
}

int PMPI_T_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf)
{
	int err = PMPI_T_pvar_read(session, handle, buf);

	return err ? err : PMPI_T_pvar_reset(session, handle);
}

int PMPI_T_category_get_num(int *num_cat)
{
	return t_num(num_cat, 1);
}

int PMPI_T_category_get_info(int cat_index, char *name, int *name_len, char *desc,
			     int *desc_len, int *num_cvars, int *num_pvars, int *num_categories)
{
	T_READY();
	if (cat_index != 0)
		return MPI_T_ERR_INVALID_INDEX;
	t_str("libsmap", name, name_len);
	t_str("libsmap's protocol settings and point-to-point counters", desc, desc_len);
	if (num_cvars)
		*num_cvars = T_NCVARS;
	if (num_pvars)
		*num_pvars = T_NPVARS;
	if (num_categories)
		*num_categories = 0;
	return MPI_SUCCESS;
}

int PMPI_T_category_get_index(const char *name, int *cat_index)
{
	T_READY();
	if (!name || !cat_index)
		return MPI_ERR_ARG;
	if (strcmp(name, "libsmap"))
		return MPI_T_ERR_INVALID_NAME;
	*cat_index = 0;
	return MPI_SUCCESS;
}

static int t_indices(int cat_index, int len, int indices[], int n)
{
	T_READY();
	if (cat_index != 0)
		return MPI_T_ERR_INVALID_INDEX;
	if (len > 0 && !indices)
		return MPI_ERR_ARG;
	for (int i = 0; i < len && i < n; i++)
		indices[i] = i;
	return MPI_SUCCESS;
}

int PMPI_T_category_get_cvars(int cat_index, int len, int indices[])
{
	return t_indices(cat_index, len, indices, T_NCVARS);
}

int PMPI_T_category_get_pvars(int cat_index, int len, int indices[])
{
	return t_indices(cat_index, len, indices, T_NPVARS);
}

int PMPI_T_category_get_categories(int cat_index, int len, int indices[])
{
	return t_indices(cat_index, len, indices, 0);
}

int PMPI_T_category_changed(int *stamp)
{
	T_READY();
	if (!stamp)
		return MPI_ERR_ARG;
	*stamp = 0;	/* the variables never change */
	return MPI_SUCCESS;
}

/* ---- MPI 4.0 events: none; one timestamp source ---- */

int PMPI_T_event_get_num(int *num_events)
{
	return t_num(num_events, 0);
}

int PMPI_T_event_get_info(int event_index, char *name, int *name_len, int *verbosity,
			  MPI_Datatype array_of_datatypes[], MPI_Aint array_of_displacements[],
			  int *num_elements, MPI_T_enum *enumtype, MPI_Info *info, char *desc,
			  int *desc_len, int *bind)
{
	(void)event_index, (void)name, (void)name_len, (void)verbosity;
	(void)array_of_datatypes, (void)array_of_displacements, (void)num_elements;
	(void)enumtype, (void)info, (void)desc, (void)desc_len, (void)bind;
	T_READY();
	return MPI_T_ERR_INVALID_INDEX;
}

int PMPI_T_event_get_index(const char *name, int *event_index)
{
	T_READY();
	if (!name || !event_index)
		return MPI_ERR_ARG;
	return MPI_T_ERR_INVALID_NAME;
}

int PMPI_T_event_handle_alloc(int event_index, void *obj_handle, MPI_Info info,
			      MPI_T_event_registration *event_registration)
{
	(void)event_index, (void)obj_handle, (void)info, (void)event_registration;
	T_READY();
	return MPI_T_ERR_INVALID_INDEX;
}

/* No registration can exist (no event type does), so every call on one
 * has an invalid handle, as has every call on an event instance. */
static int t_no_registration(void)
{
	T_READY();
	return MPI_T_ERR_INVALID_HANDLE;
}

int PMPI_T_event_handle_set_info(MPI_T_event_registration event_registration, MPI_Info info)
{
	(void)event_registration, (void)info;
	return t_no_registration();
}

int PMPI_T_event_handle_get_info(MPI_T_event_registration event_registration,
				 MPI_Info *info_used)
{
	(void)event_registration, (void)info_used;
	return t_no_registration();
}

int PMPI_T_event_register_callback(MPI_T_event_registration event_registration,
				   MPI_T_cb_safety cb_safety, MPI_Info info, void *user_data,
				   MPI_T_event_cb_function *event_cb_function)
{
	(void)event_registration, (void)cb_safety, (void)info, (void)user_data;
	(void)event_cb_function;
	return t_no_registration();
}

int PMPI_T_event_callback_set_info(MPI_T_event_registration event_registration,
				   MPI_T_cb_safety cb_safety, MPI_Info info)
{
	(void)event_registration, (void)cb_safety, (void)info;
	return t_no_registration();
}

int PMPI_T_event_callback_get_info(MPI_T_event_registration event_registration,
				   MPI_T_cb_safety cb_safety, MPI_Info *info_used)
{
	(void)event_registration, (void)cb_safety, (void)info_used;
	return t_no_registration();
}

int PMPI_T_event_handle_free(MPI_T_event_registration event_registration, void *user_data,
			     MPI_T_event_free_cb_function *free_cb_function)
{
	(void)event_registration, (void)user_data, (void)free_cb_function;
	return t_no_registration();
}

int PMPI_T_event_set_dropped_handler(MPI_T_event_registration event_registration,
				     MPI_T_event_dropped_cb_function *dropped_cb_function)
{
	(void)event_registration, (void)dropped_cb_function;
	return t_no_registration();
}

int PMPI_T_event_read(MPI_T_event_instance event_instance, int element_index, void *buffer)
{
	(void)event_instance, (void)element_index, (void)buffer;
	return t_no_registration();
}

int PMPI_T_event_copy(MPI_T_event_instance event_instance, void *buffer)
{
	(void)event_instance, (void)buffer;
	return t_no_registration();
}

int PMPI_T_event_get_timestamp(MPI_T_event_instance event_instance, MPI_Count *event_timestamp)
{
	(void)event_instance, (void)event_timestamp;
	return t_no_registration();
}

int PMPI_T_event_get_source(MPI_T_event_instance event_instance, int *source_index)
{
	(void)event_instance, (void)source_index;
	return t_no_registration();
}

int PMPI_T_source_get_num(int *num_sources)
{
	return t_num(num_sources, 1);
}

int PMPI_T_source_get_info(int source_index, char *name, int *name_len, char *desc,
			   int *desc_len, MPI_T_source_order *ordering,
			   MPI_Count *ticks_per_second, MPI_Count *max_ticks, MPI_Info *info)
{
	T_READY();
	if (source_index != 0)
		return MPI_T_ERR_INVALID_INDEX;
	t_str("libsmap_clock", name, name_len);
	t_str("the job's clock (MPI_Wtime's), in nanoseconds", desc, desc_len);
	if (ordering)
		*ordering = MPI_T_SOURCE_ORDERED;
	if (ticks_per_second)
		*ticks_per_second = 1000000000;
	if (max_ticks)
		*max_ticks = INT64_MAX;
	return info ? PMPI_Info_create(info) : MPI_SUCCESS;
}

int PMPI_T_source_get_timestamp(int source_index, MPI_Count *timestamp)
{
	T_READY();
	if (source_index != 0)
		return MPI_T_ERR_INVALID_INDEX;
	if (!timestamp)
		return MPI_ERR_ARG;
	*timestamp = (MPI_Count)(smap_wtime() * 1e9);
	return MPI_SUCCESS;
}

int PMPI_T_category_get_num_events(int cat_index, int *num_events)
{
	T_READY();
	if (cat_index != 0)
		return MPI_T_ERR_INVALID_INDEX;
	return t_num(num_events, 0);
}

int PMPI_T_category_get_events(int cat_index, int len, int indices[])
{
	return t_indices(cat_index, len, indices, 0);
}

SMPI_ALIAS(T_init_thread)
SMPI_ALIAS(T_finalize)
SMPI_ALIAS(T_enum_get_info)
SMPI_ALIAS(T_enum_get_item)
SMPI_ALIAS(T_cvar_get_num)
SMPI_ALIAS(T_cvar_get_info)
SMPI_ALIAS(T_cvar_get_index)
SMPI_ALIAS(T_cvar_handle_alloc)
SMPI_ALIAS(T_cvar_handle_free)
SMPI_ALIAS(T_cvar_read)
SMPI_ALIAS(T_cvar_write)
SMPI_ALIAS(T_pvar_get_num)
SMPI_ALIAS(T_pvar_get_info)
SMPI_ALIAS(T_pvar_get_index)
SMPI_ALIAS(T_pvar_session_create)
SMPI_ALIAS(T_pvar_session_free)
SMPI_ALIAS(T_pvar_handle_alloc)
SMPI_ALIAS(T_pvar_handle_free)
SMPI_ALIAS(T_pvar_start)
SMPI_ALIAS(T_pvar_stop)
SMPI_ALIAS(T_pvar_read)
SMPI_ALIAS(T_pvar_write)
SMPI_ALIAS(T_pvar_reset)
SMPI_ALIAS(T_pvar_readreset)
SMPI_ALIAS(T_category_get_num)
SMPI_ALIAS(T_category_get_info)
SMPI_ALIAS(T_category_get_index)
SMPI_ALIAS(T_category_get_cvars)
SMPI_ALIAS(T_category_get_pvars)
SMPI_ALIAS(T_category_get_categories)
SMPI_ALIAS(T_category_changed)
SMPI_ALIAS(T_event_get_num)
SMPI_ALIAS(T_event_get_info)
SMPI_ALIAS(T_event_get_index)
SMPI_ALIAS(T_event_handle_alloc)
SMPI_ALIAS(T_event_handle_set_info)
SMPI_ALIAS(T_event_handle_get_info)
SMPI_ALIAS(T_event_register_callback)
SMPI_ALIAS(T_event_callback_set_info)
SMPI_ALIAS(T_event_callback_get_info)
SMPI_ALIAS(T_event_handle_free)
SMPI_ALIAS(T_event_set_dropped_handler)
SMPI_ALIAS(T_event_read)
SMPI_ALIAS(T_event_copy)
SMPI_ALIAS(T_event_get_timestamp)
SMPI_ALIAS(T_event_get_source)
SMPI_ALIAS(T_source_get_num)
SMPI_ALIAS(T_source_get_info)
SMPI_ALIAS(T_source_get_timestamp)
SMPI_ALIAS(T_category_get_num_events)
SMPI_ALIAS(T_category_get_events)
