/*
 * dynproc.c - dynamic processes, ports and name publishing: calls that
 * cannot work on a lightweight kernel, where a job's ranks are fixed when
 * it is launched and no process starts or connects later.  Each links and
 * fails through the communicator's error handler with the class the
 * standard names and one line naming the call; MPI_Comm_get_parent
 * answers MPI_COMM_NULL (no rank was spawned) and MPI_Comm_disconnect
 * frees a communicator once its pending communication is done, as the
 * standard defines it for any communicator.
 */
#include <string.h>
#include "impl.h"

#define NO_DYNAMIC "a job's ranks are fixed at launch on smapos: no process starts or connects later"

int PMPI_Comm_spawn(const char *command, char *argv[], int maxprocs, MPI_Info info, int root,
		    MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[])
{
	(void)argv;
	(void)info;
	(void)root;
	if (intercomm)
		*intercomm = MPI_COMM_NULL;
	if (array_of_errcodes)
		for (int i = 0; i < maxprocs; i++)
			array_of_errcodes[i] = MPI_ERR_SPAWN;
	return smpi_err(comm, MPI_ERR_SPAWN, "MPI_Comm_spawn", "cannot start %d of \"%s\": %s",
			maxprocs, command ? command : "(null)", NO_DYNAMIC);
}

int PMPI_Comm_spawn_multiple(int count, char *array_of_commands[], char **array_of_argv[],
			     const int array_of_maxprocs[], const MPI_Info array_of_info[],
			     int root, MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[])
{
	int n = 0;

	(void)array_of_commands;
	(void)array_of_argv;
	(void)array_of_info;
	(void)root;
	if (intercomm)
		*intercomm = MPI_COMM_NULL;
	for (int i = 0; array_of_maxprocs && i < count; i++)
		n += array_of_maxprocs[i];
	if (array_of_errcodes)
		for (int i = 0; i < n; i++)
			array_of_errcodes[i] = MPI_ERR_SPAWN;
	return smpi_err(comm, MPI_ERR_SPAWN, "MPI_Comm_spawn_multiple", "%s", NO_DYNAMIC);
}

int PMPI_Comm_get_parent(MPI_Comm *parent)
{
	if (!parent)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Comm_get_parent", "parent pointer is NULL");
	*parent = MPI_COMM_NULL;
	return MPI_SUCCESS;
}

int PMPI_Open_port(MPI_Info info, char *port_name)
{
	(void)info;
	if (port_name)
		port_name[0] = 0;
	return smpi_err(NULL, MPI_ERR_PORT, "MPI_Open_port", "%s", NO_DYNAMIC);
}

int PMPI_Close_port(const char *port_name)
{
	return smpi_err(NULL, MPI_ERR_PORT, "MPI_Close_port", "no port \"%s\" is open: %s",
			port_name ? port_name : "(null)", NO_DYNAMIC);
}

int PMPI_Comm_accept(const char *port_name, MPI_Info info, int root, MPI_Comm comm,
		     MPI_Comm *newcomm)
{
	(void)info;
	(void)root;
	if (newcomm)
		*newcomm = MPI_COMM_NULL;
	return smpi_err(comm, MPI_ERR_PORT, "MPI_Comm_accept", "no port \"%s\": %s",
			port_name ? port_name : "(null)", NO_DYNAMIC);
}

int PMPI_Comm_connect(const char *port_name, MPI_Info info, int root, MPI_Comm comm,
		      MPI_Comm *newcomm)
{
	(void)info;
	(void)root;
	if (newcomm)
		*newcomm = MPI_COMM_NULL;
	return smpi_err(comm, MPI_ERR_PORT, "MPI_Comm_connect", "no port \"%s\": %s",
			port_name ? port_name : "(null)", NO_DYNAMIC);
}

int PMPI_Comm_join(int fd, MPI_Comm *intercomm)
{
	if (intercomm)
		*intercomm = MPI_COMM_NULL;
	return smpi_err(NULL, MPI_ERR_UNSUPPORTED_OPERATION, "MPI_Comm_join",
			"socket %d: %s", fd, NO_DYNAMIC);
}

int PMPI_Comm_disconnect(MPI_Comm *comm)
{
	if (!comm)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Comm_disconnect", "comm pointer is NULL");
	/* Pending operations complete on their own: the communicator lives
	 * until its last request is freed (smpi_comm_destroy). */
	return PMPI_Comm_free(comm);
}

int PMPI_Publish_name(const char *service_name, MPI_Info info, const char *port_name)
{
	(void)info;
	(void)port_name;
	return smpi_err(NULL, MPI_ERR_NAME, "MPI_Publish_name", "cannot publish \"%s\": %s",
			service_name ? service_name : "(null)", NO_DYNAMIC);
}

int PMPI_Unpublish_name(const char *service_name, MPI_Info info, const char *port_name)
{
	(void)info;
	(void)port_name;
	return smpi_err(NULL, MPI_ERR_NAME, "MPI_Unpublish_name", "\"%s\" is not published: %s",
			service_name ? service_name : "(null)", NO_DYNAMIC);
}

int PMPI_Lookup_name(const char *service_name, MPI_Info info, char *port_name)
{
	(void)info;
	if (port_name)
		port_name[0] = 0;
	return smpi_err(NULL, MPI_ERR_NAME, "MPI_Lookup_name", "\"%s\" is not published: %s",
			service_name ? service_name : "(null)", NO_DYNAMIC);
}

int PMPI_Register_datarep(const char *datarep,
			  MPI_Datarep_conversion_function *read_conversion_fn,
			  MPI_Datarep_conversion_function *write_conversion_fn,
			  MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state)
{
	(void)read_conversion_fn;
	(void)write_conversion_fn;
	(void)dtype_file_extent_fn;
	(void)extra_state;
	return smpi_err(NULL, MPI_ERR_UNSUPPORTED_DATAREP, "MPI_Register_datarep",
			"data representation \"%s\": files are read and written in \"native\" only",
			datarep ? datarep : "(null)");
}

int PMPI_Register_datarep_c(const char *datarep,
			    MPI_Datarep_conversion_function_c *read_conversion_fn,
			    MPI_Datarep_conversion_function_c *write_conversion_fn,
			    MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state)
{
	(void)read_conversion_fn;
	(void)write_conversion_fn;
	return PMPI_Register_datarep(datarep, NULL, NULL, dtype_file_extent_fn, extra_state);
}

SMPI_ALIAS(Comm_spawn)
SMPI_ALIAS(Comm_spawn_multiple)
SMPI_ALIAS(Comm_get_parent)
SMPI_ALIAS(Open_port)
SMPI_ALIAS(Close_port)
SMPI_ALIAS(Comm_accept)
SMPI_ALIAS(Comm_connect)
SMPI_ALIAS(Comm_join)
SMPI_ALIAS(Comm_disconnect)
SMPI_ALIAS(Publish_name)
SMPI_ALIAS(Unpublish_name)
SMPI_ALIAS(Lookup_name)
SMPI_ALIAS(Register_datarep)
SMPI_ALIAS(Register_datarep_c)
