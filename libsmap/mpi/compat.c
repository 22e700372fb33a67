/*
 * compat.c - the MPI-1 names that old codes still call, mapped onto their
 * MPI-2 replacements (attribute caching, error handlers, datatype
 * constructors and extents), MPI_Status_set_elements_x, MPI_Pcontrol, and
 * user-defined error classes, codes and strings.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "impl.h"

int PMPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val)
{
	return PMPI_Comm_set_attr(comm, keyval, attribute_val);
}

int PMPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
	return PMPI_Comm_get_attr(comm, keyval, attribute_val, flag);
}

int PMPI_Attr_delete(MPI_Comm comm, int keyval)
{
	return PMPI_Comm_delete_attr(comm, keyval);
}

int PMPI_Keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval,
		       void *extra_state)
{
	return PMPI_Comm_create_keyval(copy_fn, delete_fn, keyval, extra_state);
}

int PMPI_Keyval_free(int *keyval)
{
	return PMPI_Comm_free_keyval(keyval);
}

int PMPI_Errhandler_create(MPI_Handler_function *function, MPI_Errhandler *errhandler)
{
	return PMPI_Comm_create_errhandler(function, errhandler);
}

int PMPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler)
{
	return PMPI_Comm_set_errhandler(comm, errhandler);
}

int PMPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *errhandler)
{
	return PMPI_Comm_get_errhandler(comm, errhandler);
}

int PMPI_Type_struct(int count, int blocklens[], MPI_Aint displs[], MPI_Datatype types[],
		     MPI_Datatype *newtype)
{
	return PMPI_Type_create_struct(count, blocklens, displs, types, newtype);
}

int PMPI_Type_hvector(int count, int blocklen, MPI_Aint stride, MPI_Datatype oldtype,
		      MPI_Datatype *newtype)
{
	return PMPI_Type_create_hvector(count, blocklen, stride, oldtype, newtype);
}

int PMPI_Type_hindexed(int count, int blocklens[], MPI_Aint displs[], MPI_Datatype oldtype,
		       MPI_Datatype *newtype)
{
	return PMPI_Type_create_hindexed(count, blocklens, displs, oldtype, newtype);
}

int PMPI_Address(void *location, MPI_Aint *address)
{
	return PMPI_Get_address(location, address);
}

int PMPI_Type_extent(MPI_Datatype type, MPI_Aint *extent)
{
	MPI_Aint lb;

	if (!extent)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Type_extent", "extent pointer is NULL");
	return PMPI_Type_get_extent(type, &lb, extent);
}

int PMPI_Type_lb(MPI_Datatype type, MPI_Aint *displacement)
{
	MPI_Aint extent;

	if (!displacement)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Type_lb", "displacement pointer is NULL");
	return PMPI_Type_get_extent(type, displacement, &extent);
}

int PMPI_Type_ub(MPI_Datatype type, MPI_Aint *displacement)
{
	MPI_Aint lb, extent;
	int err;

	if (!displacement)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Type_ub", "displacement pointer is NULL");
	if ((err = PMPI_Type_get_extent(type, &lb, &extent)))
		return err;
	*displacement = lb + extent;
	return MPI_SUCCESS;
}

int PMPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype type, MPI_Count count)
{
	int err;

	if (!status)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Status_set_elements_x",
				"status pointer is NULL");
	if ((err = smpi_type_check(NULL, type, "MPI_Status_set_elements_x")))
		return err;
	if (count < 0)
		return smpi_err(NULL, MPI_ERR_COUNT, "MPI_Status_set_elements_x",
				"count %lld is negative", count);
	status->smpi_bytes = smpi_elements_bytes(type, count);
	return MPI_SUCCESS;
}

/* Without a profiling library in between there is nothing to control. */
int PMPI_Pcontrol(const int level, ...)
{
	(void)level;
	return MPI_SUCCESS;
}

/*
 * Error classes and codes a program adds: numbered after MPI_ERR_LASTCODE
 * in one sequence (MPI_LASTUSEDCODE is the latest), each code with its
 * class - a class is its own code - and an optional string.
 */
#define ERR_USER_MAX	1024

static struct {
	int cls;
	char *text;
} err_user[ERR_USER_MAX];
int smpi_err_lastused = MPI_ERR_LASTCODE;

static int err_add(int cls, const char *fn)
{
	int code = smpi_err_lastused + 1;

	if (code - MPI_ERR_LASTCODE > ERR_USER_MAX)
		return -smpi_err(NULL, MPI_ERR_OTHER, fn, "all %d user error codes are in use",
				 ERR_USER_MAX);
	err_user[code - MPI_ERR_LASTCODE - 1].cls = cls < 0 ? code : cls;
	smpi_err_lastused = code;
	return code;
}

/* The class of a code added here, or -1. */
int smpi_err_user_class(int code)
{
	return code > MPI_ERR_LASTCODE && code <= smpi_err_lastused &&
	       err_user[code - MPI_ERR_LASTCODE - 1].cls ?
		err_user[code - MPI_ERR_LASTCODE - 1].cls : -1;
}

/* The string given to an added code or class ("" if none), or NULL. */
const char *smpi_err_user_text(int code)
{
	if (smpi_err_user_class(code) < 0)
		return NULL;
	return err_user[code - MPI_ERR_LASTCODE - 1].text ?
		err_user[code - MPI_ERR_LASTCODE - 1].text : "";
}

int PMPI_Add_error_class(int *errorclass)
{
	int c;

	if (!errorclass)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Add_error_class", "errorclass pointer is NULL");
	if ((c = err_add(-1, "MPI_Add_error_class")) < 0)
		return -c;
	*errorclass = c;
	return MPI_SUCCESS;
}

int PMPI_Add_error_code(int errorclass, int *errorcode)
{
	int c;

	if (!errorcode)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Add_error_code", "errorcode pointer is NULL");
	/* A predefined class (MPI_SUCCESS is none) or one the program added:
	 * an added class is its own code. */
	if ((errorclass <= MPI_SUCCESS || errorclass > MPI_ERR_LASTCODE) &&
	    smpi_err_user_class(errorclass) != errorclass)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Add_error_code",
				"%d is not an error class", errorclass);
	if ((c = err_add(errorclass, "MPI_Add_error_code")) < 0)
		return -c;
	*errorcode = c;
	return MPI_SUCCESS;
}

int PMPI_Add_error_string(int errorcode, const char *string)
{
	char *s;

	if (!string)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Add_error_string", "string is NULL");
	if (smpi_err_user_class(errorcode) < 0)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Add_error_string",
				"%d is not an error code or class the program added", errorcode);
	if (strnlen(string, MPI_MAX_ERROR_STRING) >= MPI_MAX_ERROR_STRING)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Add_error_string",
				"string of %d characters or more", MPI_MAX_ERROR_STRING);
	if (!(s = strdup(string)))
		return smpi_err(NULL, MPI_ERR_NO_MEM, "MPI_Add_error_string", "no memory");
	free(err_user[errorcode - MPI_ERR_LASTCODE - 1].text);
	err_user[errorcode - MPI_ERR_LASTCODE - 1].text = s;
	return MPI_SUCCESS;
}

/* MPI 4.1: a removed class or code is gone for good (its class 0, no
 * class there is); its number is not handed out again, so
 * MPI_LASTUSEDCODE never shrinks. */
enum { ERR_REMOVED = 0 };

int PMPI_Remove_error_class(int errorclass)
{
	const char *fn = "MPI_Remove_error_class";
	int c;

	if (smpi_err_user_class(errorclass) != errorclass)
		return smpi_err(NULL, MPI_ERR_ARG, fn, "%d is not an error class the program added",
				errorclass);
	for (c = MPI_ERR_LASTCODE + 1; c <= smpi_err_lastused; c++)
		if (c != errorclass && smpi_err_user_class(c) == errorclass)
			return smpi_err(NULL, MPI_ERR_ARG, fn,
					"error class %d still has code %d (MPI_Remove_error_code first)",
					errorclass, c);
	PMPI_Remove_error_string(errorclass);
	err_user[errorclass - MPI_ERR_LASTCODE - 1].cls = ERR_REMOVED;
	return MPI_SUCCESS;
}

int PMPI_Remove_error_code(int errorcode)
{
	int cls = smpi_err_user_class(errorcode);

	if (cls < 0 || cls == errorcode)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Remove_error_code",
				"%d is not an error code the program added", errorcode);
	PMPI_Remove_error_string(errorcode);
	err_user[errorcode - MPI_ERR_LASTCODE - 1].cls = ERR_REMOVED;
	return MPI_SUCCESS;
}

int PMPI_Remove_error_string(int errorcode)
{
	if (smpi_err_user_class(errorcode) < 0)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Remove_error_string",
				"%d is not an error code or class the program added", errorcode);
	free(err_user[errorcode - MPI_ERR_LASTCODE - 1].text);
	err_user[errorcode - MPI_ERR_LASTCODE - 1].text = NULL;
	return MPI_SUCCESS;
}

SMPI_ALIAS(Attr_put)
SMPI_ALIAS(Attr_get)
SMPI_ALIAS(Attr_delete)
SMPI_ALIAS(Keyval_create)
SMPI_ALIAS(Keyval_free)
SMPI_ALIAS(Errhandler_create)
SMPI_ALIAS(Errhandler_set)
SMPI_ALIAS(Errhandler_get)
SMPI_ALIAS(Type_struct)
SMPI_ALIAS(Type_hvector)
SMPI_ALIAS(Type_hindexed)
SMPI_ALIAS(Address)
SMPI_ALIAS(Type_extent)
SMPI_ALIAS(Type_lb)
SMPI_ALIAS(Type_ub)
SMPI_ALIAS(Status_set_elements_x)
SMPI_ALIAS(Pcontrol)
SMPI_ALIAS(Add_error_class)
SMPI_ALIAS(Add_error_code)
SMPI_ALIAS(Add_error_string)
SMPI_ALIAS(Remove_error_class)
SMPI_ALIAS(Remove_error_code)
SMPI_ALIAS(Remove_error_string)
