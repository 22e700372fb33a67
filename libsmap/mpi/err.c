/*
 * err.c - error handlers, error classes and their strings.
 *
 * Every code libsmap returns is an error class.  Under ERRORS_ARE_FATAL
 * (the default) the message names the call and the argument, and the job
 * ends with the class as its status.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "impl.h"

struct smpi_errh smpi_errh_fatal = { NULL, 1, 1, 1 };
struct smpi_errh smpi_errh_return = { NULL, 0, 1, 1 };
struct smpi_errh smpi_errh_abort = { NULL, 1, 1, 1 };

static const char *const err_text[MPI_ERR_LASTCODE + 1] = {
	[MPI_SUCCESS] = "no error",
	[MPI_ERR_BUFFER] = "invalid buffer",
	[MPI_ERR_COUNT] = "invalid count",
	[MPI_ERR_TYPE] = "invalid datatype",
	[MPI_ERR_TAG] = "invalid tag",
	[MPI_ERR_COMM] = "invalid communicator",
	[MPI_ERR_RANK] = "invalid rank",
	[MPI_ERR_REQUEST] = "invalid request",
	[MPI_ERR_ROOT] = "invalid root",
	[MPI_ERR_GROUP] = "invalid group",
	[MPI_ERR_OP] = "invalid reduction operation",
	[MPI_ERR_TOPOLOGY] = "invalid topology",
	[MPI_ERR_DIMS] = "invalid dimensions",
	[MPI_ERR_ARG] = "invalid argument",
	[MPI_ERR_UNKNOWN] = "unknown error",
	[MPI_ERR_TRUNCATE] = "message truncated",
	[MPI_ERR_OTHER] = "other error",
	[MPI_ERR_INTERN] = "internal error",
	[MPI_ERR_IN_STATUS] = "error code is in the status",
	[MPI_ERR_PENDING] = "pending request",
	[MPI_ERR_KEYVAL] = "invalid attribute key",
	[MPI_ERR_NO_MEM] = "out of memory",
	[MPI_ERR_BASE] = "invalid base address",
	[MPI_ERR_INFO_KEY] = "invalid info key",
	[MPI_ERR_INFO_VALUE] = "invalid info value",
	[MPI_ERR_INFO_NOKEY] = "info key not defined",
	[MPI_ERR_SPAWN] = "spawn error",
	[MPI_ERR_PORT] = "invalid port",
	[MPI_ERR_SERVICE] = "invalid service",
	[MPI_ERR_NAME] = "invalid name",
	[MPI_ERR_WIN] = "invalid window",
	[MPI_ERR_SIZE] = "invalid size",
	[MPI_ERR_DISP] = "invalid displacement",
	[MPI_ERR_INFO] = "invalid info",
	[MPI_ERR_LOCKTYPE] = "invalid lock type",
	[MPI_ERR_ASSERT] = "invalid assert",
	[MPI_ERR_RMA_CONFLICT] = "conflicting RMA accesses",
	[MPI_ERR_RMA_SYNC] = "wrong RMA synchronisation",
	[MPI_ERR_FILE] = "invalid file",
	[MPI_ERR_NOT_SAME] = "arguments differ between processes",
	[MPI_ERR_AMODE] = "invalid access mode",
	[MPI_ERR_UNSUPPORTED_DATAREP] = "unsupported data representation",
	[MPI_ERR_UNSUPPORTED_OPERATION] = "unsupported operation",
	[MPI_ERR_NO_SUCH_FILE] = "no such file",
	[MPI_ERR_FILE_EXISTS] = "file exists",
	[MPI_ERR_BAD_FILE] = "bad file name",
	[MPI_ERR_ACCESS] = "permission denied",
	[MPI_ERR_NO_SPACE] = "no space left",
	[MPI_ERR_QUOTA] = "quota exceeded",
	[MPI_ERR_READ_ONLY] = "read-only file",
	[MPI_ERR_FILE_IN_USE] = "file in use",
	[MPI_ERR_DUP_DATAREP] = "data representation already defined",
	[MPI_ERR_CONVERSION] = "data conversion failed",
	[MPI_ERR_IO] = "I/O error",
	[MPI_ERR_RMA_RANGE] = "RMA target out of range",
	[MPI_ERR_RMA_ATTACH] = "RMA memory cannot be attached",
	[MPI_ERR_RMA_SHARED] = "RMA memory cannot be shared",
	[MPI_ERR_RMA_FLAVOR] = "wrong window flavour",
	[MPI_T_ERR_MEMORY] = "MPI_T: out of memory",
	[MPI_T_ERR_NOT_INITIALIZED] = "MPI_T: not initialised",
	[MPI_T_ERR_CANNOT_INIT] = "MPI_T: cannot be initialised",
	[MPI_T_ERR_INVALID_INDEX] = "MPI_T: invalid index",
	[MPI_T_ERR_INVALID_ITEM] = "MPI_T: invalid enumeration item",
	[MPI_T_ERR_INVALID_HANDLE] = "MPI_T: invalid handle",
	[MPI_T_ERR_OUT_OF_HANDLES] = "MPI_T: out of handles",
	[MPI_T_ERR_OUT_OF_SESSIONS] = "MPI_T: out of sessions",
	[MPI_T_ERR_INVALID_SESSION] = "MPI_T: invalid session",
	[MPI_T_ERR_CVAR_SET_NOT_NOW] = "MPI_T: control variable cannot be set now",
	[MPI_T_ERR_CVAR_SET_NEVER] = "MPI_T: control variable cannot be set",
	[MPI_T_ERR_PVAR_NO_STARTSTOP] = "MPI_T: performance variable cannot be started or stopped",
	[MPI_T_ERR_PVAR_NO_WRITE] = "MPI_T: performance variable cannot be written",
	[MPI_T_ERR_PVAR_NO_ATOMIC] = "MPI_T: performance variable cannot be read and reset atomically",
	[MPI_T_ERR_INVALID_NAME] = "MPI_T: no variable or category of that name",
	[MPI_T_ERR_INVALID] = "MPI_T: invalid use",
	[MPI_ERR_SESSION] = "invalid session",
	[MPI_ERR_PROC_ABORTED] = "a process aborted",
	[MPI_ERR_VALUE_TOO_LARGE] = "value too large for its output",
	[MPI_T_ERR_NOT_SUPPORTED] = "MPI_T: not supported",
};

int smpi_verr_on(struct smpi_errh *h, void *obj, int code, const char *fn, const char *fmt,
		 va_list ap)
{
	char msg[MPI_MAX_ERROR_STRING], text[MPI_MAX_ERROR_STRING];
	MPI_Comm world = MPI_COMM_WORLD;
	int len;

	if (!h) {
		h = world->errh;
		obj = &world;
	}
	if (!h->fatal && !h->fn)
		return code;
	vsnprintf(msg, sizeof msg, fmt, ap);
	if (h->fn) {
		((void (*)(void *, int *, ...))(void (*)(void))h->fn)(obj, &code, msg);
		return code;
	}
	if (PMPI_Error_string(code, text, &len) != MPI_SUCCESS)
		snprintf(text, sizeof text, "bad error code");
	fprintf(stderr, "%s: %s (%s); rank %d ends the job\n", fn, msg, text, smap_world_rank());
	smap_abort(code);
}

int smpi_err_on(struct smpi_errh *h, void *obj, int code, const char *fn, const char *fmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = smpi_verr_on(h, obj, code, fn, fmt, ap);
	va_end(ap);
	return err;
}

int smpi_err(MPI_Comm comm, int code, const char *fn, const char *fmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = smpi_verr_on(comm ? comm->errh : NULL, &comm, code, fn, fmt, ap);
	va_end(ap);
	return err;
}

void smpi_fatal(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	smap_abort(MPI_ERR_INTERN);
}

int PMPI_Error_string(int code, char *string, int *resultlen)
{
	if (!string || !resultlen)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Error_string", "NULL argument");
	if (smpi_err_user_text(code)) {
		*resultlen = snprintf(string, MPI_MAX_ERROR_STRING, "%s", smpi_err_user_text(code));
		return MPI_SUCCESS;
	}
	if (code < 0 || code > MPI_ERR_LASTCODE) {
		*resultlen = snprintf(string, MPI_MAX_ERROR_STRING, "unknown error code %d", code);
		return MPI_ERR_ARG;
	}
	*resultlen = snprintf(string, MPI_MAX_ERROR_STRING, "%s", err_text[code]);
	return MPI_SUCCESS;
}

int PMPI_Error_class(int code, int *errorclass)
{
	if (!errorclass)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Error_class", "NULL argument");
	if (smpi_err_user_class(code) >= 0) {
		*errorclass = smpi_err_user_class(code);
		return MPI_SUCCESS;
	}
	if (code < 0 || code > MPI_ERR_LASTCODE)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Error_class", "%d is not an error code", code);
	*errorclass = code;
	return MPI_SUCCESS;
}

int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function *fn, MPI_Errhandler *errhandler)
{
	struct smpi_errh *h;

	if (!fn || !errhandler)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Comm_create_errhandler", "NULL argument");
	h = calloc(1, sizeof *h);
	if (!h)
		return smpi_err(NULL, MPI_ERR_NO_MEM, "MPI_Comm_create_errhandler", "no memory");
	h->fn = fn;
	h->refs = 1;
	*errhandler = h;
	return MPI_SUCCESS;
}

struct smpi_errh *smpi_errh_ref(struct smpi_errh *h)
{
	h->refs++;
	return h;
}

void smpi_errh_release(struct smpi_errh *h)
{
	if (!h->predefined && --h->refs == 0)
		free(h);
}

void smpi_errh_replace(struct smpi_errh **slot, struct smpi_errh *h)
{
	smpi_errh_ref(h);
	smpi_errh_release(*slot);
	*slot = h;
}

int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
	int err;

	if ((err = smpi_comm_check(comm, "MPI_Comm_set_errhandler")))
		return err;
	if (!errhandler)
		return smpi_err(comm, MPI_ERR_ARG, "MPI_Comm_set_errhandler", "MPI_ERRHANDLER_NULL");
	smpi_errh_replace(&comm->errh, errhandler);
	return MPI_SUCCESS;
}

int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
{
	int err;

	if ((err = smpi_comm_check(comm, "MPI_Comm_get_errhandler")))
		return err;
	if (!errhandler)
		return smpi_err(comm, MPI_ERR_ARG, "MPI_Comm_get_errhandler", "NULL argument");
	*errhandler = smpi_errh_ref(comm->errh);
	return MPI_SUCCESS;
}

int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)
{
	int err;

	if ((err = smpi_comm_check(comm, "MPI_Comm_call_errhandler")))
		return err;
	smpi_err(comm, errorcode, "MPI_Comm_call_errhandler", "raised by the program");
	return MPI_SUCCESS;
}

int PMPI_Errhandler_free(MPI_Errhandler *errhandler)
{
	if (!errhandler || !*errhandler)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Errhandler_free", "MPI_ERRHANDLER_NULL");
	smpi_errh_release(*errhandler);
	*errhandler = MPI_ERRHANDLER_NULL;
	return MPI_SUCCESS;
}

SMPI_ALIAS(Error_string)
SMPI_ALIAS(Error_class)
SMPI_ALIAS(Comm_create_errhandler)
SMPI_ALIAS(Comm_set_errhandler)
SMPI_ALIAS(Comm_get_errhandler)
SMPI_ALIAS(Comm_call_errhandler)
SMPI_ALIAS(Errhandler_free)
