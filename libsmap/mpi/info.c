/*
 * info.c - MPI_Info: ordered (key, value) strings that keep what they are
 * given, and the info of communicators and windows.
 *
 * An info keeps its keys in the order they were first set (get_nthkey
 * enumerates them so).  Communicators and windows keep a duplicate of the
 * info last set on them and hand a fresh duplicate to get_info; libsmap
 * acts on no hint yet (docs/mpi.md says which it would), so every key is
 * kept and reported back, as the standard allows for hints an
 * implementation ignores.  MPI_INFO_ENV (and MPI_Info_create_env's
 * infos) hold what the launcher told this process: "maxprocs" (the job's
 * ranks), "command" and "argv" (when the program passed its arguments).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "impl.h"

#define SMPI_LIVE_INFO	0x6f666e69u	/* "info" */

struct smpi_info {
	uint32_t live;
	int predefined;
	int n, cap;
	struct info_kv {
		char *key, *val;
	} *kv;
};

struct smpi_info smpi_info_env = { .live = SMPI_LIVE_INFO, .predefined = 1 };

static int info_live(MPI_Info info)
{
	return info && smpi_in_region(info, sizeof *info) && info->live == SMPI_LIVE_INFO;
}

static int info_check(MPI_Info info, int writable, const char *fn)
{
	if (!info_live(info))
		return smpi_err(NULL, MPI_ERR_INFO, fn, "info %p is not a live info object",
				(void *)info);
	if (writable && info->predefined)
		return smpi_err(NULL, MPI_ERR_INFO, fn, "MPI_INFO_ENV cannot be changed or freed");
	return MPI_SUCCESS;
}

static int info_key_check(const char *key, const char *fn)
{
	size_t n;

	if (!key)
		return smpi_err(NULL, MPI_ERR_INFO_KEY, fn, "key is NULL");
	n = strnlen(key, MPI_MAX_INFO_KEY + 1);
	if (n == 0 || n > MPI_MAX_INFO_KEY)
		return smpi_err(NULL, MPI_ERR_INFO_KEY, fn, "key of %s characters (1 to %d allowed)",
				n ? "more than 255" : "0", MPI_MAX_INFO_KEY);
	return MPI_SUCCESS;
}

static struct info_kv *info_find(MPI_Info info, const char *key)
{
	for (int i = 0; i < info->n; i++)
		if (!strcmp(info->kv[i].key, key))
			return &info->kv[i];
	return NULL;
}

/* Sets key to val (both checked); 0, or -1 when memory is short. */
static int info_put(MPI_Info info, const char *key, const char *val)
{
	struct info_kv *e = info_find(info, key);
	char *v = strdup(val);

	if (!v)
		return -1;
	if (e) {
		free(e->val);
		e->val = v;
		return 0;
	}
	if (info->n == info->cap) {
		int cap = info->cap ? 2 * info->cap : 8;
		struct info_kv *kv = realloc(info->kv, cap * sizeof *kv);

		if (!kv) {
			free(v);
			return -1;
		}
		info->kv = kv;
		info->cap = cap;
	}
	e = &info->kv[info->n];
	if (!(e->key = strdup(key))) {
		free(v);
		return -1;
	}
	e->val = v;
	info->n++;
	return 0;
}

static MPI_Info info_new(void)
{
	MPI_Info info = calloc(1, sizeof *info);

	if (info)
		info->live = SMPI_LIVE_INFO;
	return info;
}

static void info_destroy(MPI_Info info)
{
	for (int i = 0; i < info->n; i++) {
		free(info->kv[i].key);
		free(info->kv[i].val);
	}
	free(info->kv);
	info->live = 0;
	free(info);
}

/* A copy of info (NULL for MPI_INFO_NULL or short memory: *err says). */
static MPI_Info info_copy(MPI_Info info, int *err)
{
	MPI_Info c;

	*err = MPI_SUCCESS;
	if (info == MPI_INFO_NULL)
		return NULL;
	if (!(c = info_new())) {
		*err = MPI_ERR_NO_MEM;
		return NULL;
	}
	for (int i = 0; i < info->n; i++)
		if (info_put(c, info->kv[i].key, info->kv[i].val) < 0) {
			info_destroy(c);
			*err = MPI_ERR_NO_MEM;
			return NULL;
		}
	return c;
}

/* MPI_INFO_ENV's keys (MPI 4.0 section 11.2.3): the job's ranks, and the
 * command and its arguments when the program passed them on. */
static int info_env_fill(MPI_Info info, int argc, char *const *argv)
{
	char n[16], *args;
	size_t len = 1;
	int i, bad;

	snprintf(n, sizeof n, "%d", smap_world_size());
	if (info_put(info, "maxprocs", n) < 0)
		return -1;
	if (argc < 1 || !argv || !argv[0])
		return 0;
	for (i = 1; i < argc && argv[i]; i++)
		len += strlen(argv[i]) + 1;
	if (!(args = malloc(len)))
		return -1;
	args[0] = 0;
	for (i = 1; i < argc && argv[i]; i++) {
		if (i > 1)
			strcat(args, " ");
		strcat(args, argv[i]);
	}
	bad = info_put(info, "command", argv[0]) < 0 || (argc > 1 && info_put(info, "argv", args) < 0);
	free(args);
	return bad ? -1 : 0;
}

void smpi_info_env_init(int argc, char *const *argv)
{
	if (info_env_fill(&smpi_info_env, argc, argv) < 0)
		smpi_fatal("MPI_Init: no memory for MPI_INFO_ENV");
}

int PMPI_Info_create_env(int argc, char *argv[], MPI_Info *info)
{
	if (!info)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Info_create_env", "info pointer is NULL");
	if (!(*info = info_new()) || info_env_fill(*info, argc, argv) < 0) {
		if (*info)
			info_destroy(*info);
		*info = MPI_INFO_NULL;
		return smpi_err(NULL, MPI_ERR_NO_MEM, "MPI_Info_create_env", "no memory");
	}
	return MPI_SUCCESS;
}

int PMPI_Info_create(MPI_Info *info)
{
	if (!info)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Info_create", "info pointer is NULL");
	if (!(*info = info_new()))
		return smpi_err(NULL, MPI_ERR_NO_MEM, "MPI_Info_create", "no memory");
	return MPI_SUCCESS;
}

int PMPI_Info_set(MPI_Info info, const char *key, const char *value)
{
	const char *fn = "MPI_Info_set";
	int err;

	if ((err = info_check(info, 1, fn)) || (err = info_key_check(key, fn)))
		return err;
	if (!value)
		return smpi_err(NULL, MPI_ERR_INFO_VALUE, fn, "value is NULL");
	if (strnlen(value, MPI_MAX_INFO_VAL + 1) > MPI_MAX_INFO_VAL)
		return smpi_err(NULL, MPI_ERR_INFO_VALUE, fn,
				"value of more than %d characters for key \"%s\"", MPI_MAX_INFO_VAL,
				key);
	if (info_put(info, key, value) < 0)
		return smpi_err(NULL, MPI_ERR_NO_MEM, fn, "no memory for key \"%s\"", key);
	return MPI_SUCCESS;
}

int PMPI_Info_delete(MPI_Info info, const char *key)
{
	const char *fn = "MPI_Info_delete";
	struct info_kv *e;
	int err;

	if ((err = info_check(info, 1, fn)) || (err = info_key_check(key, fn)))
		return err;
	if (!(e = info_find(info, key)))
		return smpi_err(NULL, MPI_ERR_INFO_NOKEY, fn, "no key \"%s\"", key);
	free(e->key);
	free(e->val);
	memmove(e, e + 1, (size_t)(info->kv + info->n - (e + 1)) * sizeof *e);
	info->n--;
	return MPI_SUCCESS;
}

int PMPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag)
{
	const char *fn = "MPI_Info_get";
	struct info_kv *e;
	int err;

	if ((err = info_check(info, 0, fn)) || (err = info_key_check(key, fn)))
		return err;
	if (!flag || valuelen < 0 || (valuelen > 0 && !value))
		return smpi_err(NULL, MPI_ERR_ARG, fn, "flag or value is NULL, or valuelen %d < 0",
				valuelen);
	e = info_find(info, key);
	*flag = e != NULL;
	if (e) {
		/* At most valuelen characters, and the terminating NUL. */
		size_t n = strnlen(e->val, (size_t)valuelen);

		memcpy(value, e->val, n);
		value[n] = 0;
	}
	return MPI_SUCCESS;
}

/* MPI 4.0: *buflen in, the value's length with its NUL out; the value
 * truncated to fit. */
int PMPI_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag)
{
	const char *fn = "MPI_Info_get_string";
	struct info_kv *e;
	int err;

	if ((err = info_check(info, 0, fn)) || (err = info_key_check(key, fn)))
		return err;
	if (!flag || !buflen || *buflen < 0 || (*buflen > 0 && !value))
		return smpi_err(NULL, MPI_ERR_ARG, fn, "flag, buflen or value is NULL, or *buflen < 0");
	e = info_find(info, key);
	*flag = e != NULL;
	if (e) {
		size_t len = strlen(e->val);

		if (*buflen > 0) {
			size_t n = len < (size_t)*buflen - 1 ? len : (size_t)*buflen - 1;

			memcpy(value, e->val, n);
			value[n] = 0;
		}
		*buflen = (int)len + 1;
	}
	return MPI_SUCCESS;
}

int PMPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag)
{
	const char *fn = "MPI_Info_get_valuelen";
	struct info_kv *e;
	int err;

	if ((err = info_check(info, 0, fn)) || (err = info_key_check(key, fn)))
		return err;
	if (!valuelen || !flag)
		return smpi_err(NULL, MPI_ERR_ARG, fn, "valuelen or flag pointer is NULL");
	e = info_find(info, key);
	*flag = e != NULL;
	if (e)
		*valuelen = (int)strlen(e->val);
	return MPI_SUCCESS;
}

int PMPI_Info_get_nkeys(MPI_Info info, int *nkeys)
{
	int err;

	if ((err = info_check(info, 0, "MPI_Info_get_nkeys")))
		return err;
	if (!nkeys)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Info_get_nkeys", "nkeys pointer is NULL");
	*nkeys = info->n;
	return MPI_SUCCESS;
}

int PMPI_Info_get_nthkey(MPI_Info info, int n, char *key)
{
	const char *fn = "MPI_Info_get_nthkey";
	int err;

	if ((err = info_check(info, 0, fn)))
		return err;
	if (!key)
		return smpi_err(NULL, MPI_ERR_ARG, fn, "key pointer is NULL");
	if (n < 0 || n >= info->n)
		return smpi_err(NULL, MPI_ERR_ARG, fn, "key %d of an info with %d keys", n, info->n);
	strcpy(key, info->kv[n].key);
	return MPI_SUCCESS;
}

int PMPI_Info_dup(MPI_Info info, MPI_Info *newinfo)
{
	int err;

	if ((err = info_check(info, 0, "MPI_Info_dup")))
		return err;
	if (!newinfo)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Info_dup", "newinfo pointer is NULL");
	*newinfo = info_copy(info, &err);
	return err ? smpi_err(NULL, err, "MPI_Info_dup", "no memory") : MPI_SUCCESS;
}

int PMPI_Info_free(MPI_Info *info)
{
	int err;

	if (!info)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Info_free", "info pointer is NULL");
	if ((err = info_check(*info, 1, "MPI_Info_free")))
		return err;
	info_destroy(*info);
	*info = MPI_INFO_NULL;
	return MPI_SUCCESS;
}

/* The info an object keeps: *kept replaced by a copy of info. */
int smpi_info_keep(MPI_Info *kept, MPI_Info info, const char *fn)
{
	MPI_Info c;
	int err;

	if (info != MPI_INFO_NULL && (err = info_check(info, 0, fn)))
		return err;
	c = info_copy(info, &err);
	if (err)
		return smpi_err(NULL, err, fn, "no memory");
	smpi_info_drop(kept);
	*kept = c;
	return MPI_SUCCESS;
}

void smpi_info_drop(MPI_Info *kept)
{
	if (*kept)
		info_destroy(*kept);
	*kept = NULL;
}

/* get_info: a new info the caller frees, empty when none was set. */
int smpi_info_give(MPI_Info kept, MPI_Info *out, const char *fn)
{
	int err;

	if (!out)
		return smpi_err(NULL, MPI_ERR_ARG, fn, "info pointer is NULL");
	*out = kept ? info_copy(kept, &err) : info_new();
	if (!*out)
		return smpi_err(NULL, MPI_ERR_NO_MEM, fn, "no memory");
	return MPI_SUCCESS;
}

int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info)
{
	int err;

	if ((err = smpi_check_init("MPI_Comm_set_info")) ||
	    (err = smpi_comm_check(comm, "MPI_Comm_set_info")))
		return err;
	return smpi_info_keep(&comm->info, info, "MPI_Comm_set_info");
}

int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used)
{
	int err;

	if ((err = smpi_check_init("MPI_Comm_get_info")) ||
	    (err = smpi_comm_check(comm, "MPI_Comm_get_info")))
		return err;
	return smpi_info_give(comm->info, info_used, "MPI_Comm_get_info");
}

int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
	int err;

	if (info != MPI_INFO_NULL && (err = info_check(info, 0, "MPI_Comm_dup_with_info")))
		return err;
	if ((err = PMPI_Comm_dup(comm, newcomm)))
		return err;
	return smpi_info_keep(&(*newcomm)->info, info, "MPI_Comm_dup_with_info");
}

SMPI_ALIAS(Info_create)
SMPI_ALIAS(Info_create_env)
SMPI_ALIAS(Info_get_string)
SMPI_ALIAS(Info_set)
SMPI_ALIAS(Info_delete)
SMPI_ALIAS(Info_get)
SMPI_ALIAS(Info_get_valuelen)
SMPI_ALIAS(Info_get_nkeys)
SMPI_ALIAS(Info_get_nthkey)
SMPI_ALIAS(Info_dup)
SMPI_ALIAS(Info_free)
SMPI_ALIAS(Comm_set_info)
SMPI_ALIAS(Comm_get_info)
SMPI_ALIAS(Comm_dup_with_info)
