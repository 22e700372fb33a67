/*
 * check.c - arguments checked at the door: request handles that are not
 * live objects and buffers that cannot hold data (impl.h says how a handle
 * is judged live).  Communicators, datatypes and ops are checked where
 * their own checks live (comm.c, type.c, op.c), with the same test.
 */
#include "impl.h"

int smpi_req_check(int n, struct smpi_req *const *reqs, const char *fn)
{
	for (int i = 0; i < n; i++) {
		if (reqs[i] == MPI_REQUEST_NULL || smpi_live(reqs[i], SMPI_LIVE_REQ))
			continue;
		if (n == 1)
			return smpi_err(NULL, MPI_ERR_REQUEST, fn,
					"request %p is not a live request (garbage, or freed)",
					(const void *)reqs[i]);
		return smpi_err(NULL, MPI_ERR_REQUEST, fn,
				"request %p at index %d is not a live request (garbage, or freed)",
				(const void *)reqs[i], i);
	}
	return MPI_SUCCESS;
}

int smpi_buf_check(MPI_Comm comm, const void *buf, int64_t count, MPI_Datatype type,
		   const char *fn)
{
	if (!buf && count > 0 && smpi_type_size(type) > 0 &&
	    dt_root(type->dt)->true_lb < (int64_t)CORE_PAGE)
		return smpi_err(comm, MPI_ERR_BUFFER, fn, "buffer is NULL with count %lld",
				(long long)count);
	return MPI_SUCCESS;
}
