/*
 * attr.c - attribute caching (MPI 3.1 section 6.7) for the three kinds of
 * object that carry attributes: communicators, windows and datatypes.
 * Keyvals of all three kinds share one numbering, so one of another kind
 * is refused; each object has a list of attributes, the latest set first.
 *
 * A keyval lives while the program has not freed it or an attribute still
 * uses it (6.7.2: freeing one in use is not erroneous, and its delete
 * callback must still run).  Freeing it again while it lives does nothing,
 * as in MPICH: a delete callback that frees its own keyval is a common
 * idiom.  Keyval numbers are never reused, so a stale one is an error
 * rather than another keyval.
 *
 * An attribute set from Fortran keeps its integer in val, and C's get
 * hands out a pointer to it (MPI 3.1 section 17.2.7, as MPICH does).
 *
 * A callback that fails makes its call fail with the error code it
 * returned, or MPI_ERR_OTHER when that is no MPI error code: a delete
 * keeps the attribute, a copy fails the duplication.  Only freeing the
 * object drops its attributes whatever the callbacks say.
 */
#include <stdio.h>
#include <stdlib.h>
#include "impl.h"
#include "win.h"

struct keyval {
	smpi_attr_fn copy, del;
	void *extra;
	int kind;		/* SMPI_ATTR_COMM ... */
	int freed;		/* by the program */
	int64_t attached;	/* attributes that use it */
};

static struct keyval *keys;
static int nkeys, capkeys;

static const char *const kind_name[SMPI_ATTR_KINDS] = { "communicator", "window", "datatype" };

static struct smpi_attr **attr_list(int kind, void *h)
{
	switch (kind) {
	case SMPI_ATTR_COMM:
		return &((MPI_Comm)h)->attrs;
	case SMPI_ATTR_WIN:
		return &((MPI_Win)h)->attrs;
	default:
		return &((MPI_Datatype)h)->attrs;
	}
}

/* Reports through the object's error handler (a datatype, or no object:
 * MPI_COMM_WORLD's). */
static int attr_err(int kind, void *h, int code, const char *fn, const char *msg)
{
	if (kind == SMPI_ATTR_WIN && h)
		return smpi_win_err(h, code, fn, "%s", msg);
	return smpi_err(kind == SMPI_ATTR_COMM ? h : NULL, code, fn, "%s", msg);
}

static int keyval_check(int kind, void *h, int keyval, const char *fn)
{
	char msg[96];

	if (keyval >= 0 && keyval < nkeys && keys[keyval].kind == kind &&
	    (!keys[keyval].freed || keys[keyval].attached))
		return MPI_SUCCESS;
	snprintf(msg, sizeof msg, "%d is not a live %s keyval", keyval, kind_name[kind]);
	return attr_err(kind, h, MPI_ERR_KEYVAL, fn, msg);
}

int smpi_keyval_create(int kind, smpi_attr_fn copy, smpi_attr_fn del, void *extra, int *keyval,
		       const char *fn)
{
	if (!keyval)
		return smpi_err(NULL, MPI_ERR_ARG, fn, "keyval pointer is NULL");
	if (nkeys == capkeys) {
		int cap = capkeys ? 2 * capkeys : 16;
		struct keyval *k = realloc(keys, cap * sizeof *k);

		if (!k)
			return smpi_err(NULL, MPI_ERR_NO_MEM, fn, "no memory");
		keys = k;
		capkeys = cap;
	}
	keys[nkeys] = (struct keyval){ .copy = copy, .del = del, .extra = extra, .kind = kind };
	*keyval = nkeys++;
	return MPI_SUCCESS;
}

int smpi_keyval_free(int kind, int *keyval, const char *fn)
{
	int err;

	if (!keyval)
		return smpi_err(NULL, MPI_ERR_ARG, fn, "keyval pointer is NULL");
	if ((err = keyval_check(kind, NULL, *keyval, fn)))
		return err;
	keys[*keyval].freed = 1;
	*keyval = MPI_KEYVAL_INVALID;
	return MPI_SUCCESS;
}

static int call_delete(int kind, void *h, struct smpi_attr *a)
{
	struct keyval *k = &keys[a->key];

	if (!k->del)
		return MPI_SUCCESS;
	switch (kind) {
	case SMPI_ATTR_COMM:
		return ((MPI_Comm_delete_attr_function *)k->del)(h, a->key, a->val, k->extra);
	case SMPI_ATTR_WIN:
		return ((MPI_Win_delete_attr_function *)k->del)(h, a->key, a->val, k->extra);
	default:
		return ((MPI_Type_delete_attr_function *)k->del)(h, a->key, a->val, k->extra);
	}
}

static int call_copy(int kind, void *h, struct smpi_attr *a, void *out, int *flag)
{
	struct keyval *k = &keys[a->key];

	switch (kind) {
	case SMPI_ATTR_COMM:
		return ((MPI_Comm_copy_attr_function *)k->copy)(h, a->key, k->extra, a->val, out,
								 flag);
	case SMPI_ATTR_WIN:
		return ((MPI_Win_copy_attr_function *)k->copy)(h, a->key, k->extra, a->val, out,
								flag);
	default:
		return ((MPI_Type_copy_attr_function *)k->copy)(h, a->key, k->extra, a->val, out,
								 flag);
	}
}

static int callback_failed(int kind, void *h, const char *fn, const char *what, int key, int rc)
{
	char msg[128];

	snprintf(msg, sizeof msg, "the %s callback of keyval %d returned %d", what, key, rc);
	/* An MPI error code (one the program added too) is passed on. */
	return attr_err(kind, h, (rc > 0 && rc <= MPI_ERR_LASTCODE) || smpi_err_user_class(rc) >= 0 ?
				 rc : MPI_ERR_OTHER, fn, msg);
}

static struct smpi_attr **attr_find(int kind, void *h, int keyval)
{
	struct smpi_attr **p = attr_list(kind, h);

	while (*p && (*p)->key != keyval)
		p = &(*p)->next;
	return p;
}

/* Frees an attribute already unlinked; its keyval may die with it. */
static void attr_drop(struct smpi_attr *a)
{
	keys[a->key].attached--;
	free(a);
}

int smpi_attr_set(int kind, void *h, int keyval, void *val, const char *fn)
{
	struct smpi_attr **p, *a;
	int err, rc;

	if ((err = keyval_check(kind, h, keyval, fn)))
		return err;
	if ((a = *attr_find(kind, h, keyval))) {
		if ((rc = call_delete(kind, h, a)))
			return callback_failed(kind, h, fn, "delete", keyval, rc);
		a->val = val;
		a->fortran = 0;
		return MPI_SUCCESS;
	}
	if (!(a = malloc(sizeof *a)))
		return attr_err(kind, h, MPI_ERR_NO_MEM, fn, "no memory");
	p = attr_list(kind, h);
	*a = (struct smpi_attr){ .next = *p, .key = keyval, .val = val };
	*p = a;
	keys[keyval].attached++;
	return MPI_SUCCESS;
}

int smpi_attr_get(int kind, void *h, int keyval, void *val, int *flag, const char *fn)
{
	struct smpi_attr *a;
	int err;

	if (!val || !flag)
		return attr_err(kind, h, MPI_ERR_ARG, fn, "NULL argument");
	if ((err = keyval_check(kind, h, keyval, fn)))
		return err;
	a = *attr_find(kind, h, keyval);
	*flag = a != NULL;
	if (a)
		*(void **)val = a->fortran ? (void *)&a->val : a->val;
	return MPI_SUCCESS;
}

int smpi_attr_delete(int kind, void *h, int keyval, const char *fn)
{
	struct smpi_attr **p, *a;
	char msg[96];
	int err, rc;

	if ((err = keyval_check(kind, h, keyval, fn)))
		return err;
	if (!*(p = attr_find(kind, h, keyval))) {
		snprintf(msg, sizeof msg, "no attribute for keyval %d", keyval);
		return attr_err(kind, h, MPI_ERR_KEYVAL, fn, msg);
	}
	if ((rc = call_delete(kind, h, *p)))
		return callback_failed(kind, h, fn, "delete", keyval, rc);
	/* The callback may have changed the list: find the attribute again. */
	if ((a = *(p = attr_find(kind, h, keyval)))) {
		*p = a->next;
		attr_drop(a);
	}
	return MPI_SUCCESS;
}

int smpi_attr_copy(int kind, void *from, void *to, const char *fn)
{
	for (struct smpi_attr *a = *attr_list(kind, from); a; a = a->next) {
		void *val = NULL;
		int flag = 0, err, rc;

		if (!keys[a->key].copy)
			continue;
		if ((rc = call_copy(kind, from, a, &val, &flag)))
			return callback_failed(kind, from, fn, "copy", a->key, rc);
		if (flag && (err = smpi_attr_set(kind, to, a->key, val, fn)))
			return err;
		if (flag && a->fortran)
			smpi_attr_mark_fortran(kind, to, a->key);
	}
	return MPI_SUCCESS;
}

void smpi_attr_mark_fortran(int kind, void *h, int keyval)
{
	struct smpi_attr *a = *attr_find(kind, h, keyval);

	if (a)
		a->fortran = 1;
}

int smpi_attr_is_fortran(int kind, void *h, int keyval)
{
	struct smpi_attr *a = *attr_find(kind, h, keyval);

	return a && a->fortran;
}

void smpi_attr_clear(int kind, void *h)
{
	struct smpi_attr **p = attr_list(kind, h), *a;

	while ((a = *p)) {
		*p = a->next;
		call_delete(kind, h, a);
		attr_drop(a);
	}
}

/* The predefined copy callbacks MPI_COMM_DUP_FN, MPI_TYPE_DUP_FN and
 * MPI_WIN_DUP_FN: the copy gets the value itself. */
static int attr_dup(void *in, void *out, int *flag)
{
	*(void **)out = in;
	*flag = 1;
	return MPI_SUCCESS;
}

int smpi_comm_dup_fn(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag)
{
	(void)comm;
	(void)keyval;
	(void)extra;
	return attr_dup(in, out, flag);
}

int smpi_type_dup_fn(MPI_Datatype type, int keyval, void *extra, void *in, void *out, int *flag)
{
	(void)type;
	(void)keyval;
	(void)extra;
	return attr_dup(in, out, flag);
}

int smpi_win_dup_fn(MPI_Win win, int keyval, void *extra, void *in, void *out, int *flag)
{
	(void)win;
	(void)keyval;
	(void)extra;
	return attr_dup(in, out, flag);
}
