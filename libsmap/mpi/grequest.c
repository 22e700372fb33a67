/*
 * grequest.c - generalized requests (MPI_Grequest_start/complete): a
 * request the program completes itself.  It waits like any other; when a
 * Wait or Test retires it, its query function fills the status (and its
 * return is the request's error), then its free function runs; MPI_Cancel
 * calls its cancel function with whether it has completed.
 */
#include <stdlib.h>
#include "impl.h"

struct smpi_greq {
	MPI_Grequest_query_function *query;
	MPI_Grequest_free_function *free;
	MPI_Grequest_cancel_function *cancel;
	void *extra;
};

int PMPI_Grequest_start(MPI_Grequest_query_function *query_fn,
			MPI_Grequest_free_function *free_fn,
			MPI_Grequest_cancel_function *cancel_fn, void *extra_state,
			MPI_Request *request)
{
	struct smpi_greq *g;
	int err;

	if ((err = smpi_check_init("MPI_Grequest_start")))
		return err;
	if (!query_fn || !free_fn || !cancel_fn || !request)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Grequest_start",
				"a function or the request pointer is NULL");
	if (!(g = calloc(1, sizeof *g)))
		return smpi_err(NULL, MPI_ERR_NO_MEM, "MPI_Grequest_start", "no memory");
	g->query = query_fn;
	g->free = free_fn;
	g->cancel = cancel_fn;
	g->extra = extra_state;
	*request = smpi_req_alloc(SMPI_REQ_GREQ, SMPI_MODE_STD, NULL, 0, MPI_BYTE, MPI_ANY_SOURCE,
				  MPI_ANY_TAG, MPI_COMM_SELF);
	(*request)->greq = g;
	(*request)->state = SMPI_ST_POSTED;
	return MPI_SUCCESS;
}

int PMPI_Grequest_complete(MPI_Request request)
{
	int err;

	if ((err = smpi_check_init("MPI_Grequest_complete")))
		return err;
	if (request == MPI_REQUEST_NULL || !smpi_live(request, SMPI_LIVE_REQ) ||
	    request->kind != SMPI_REQ_GREQ)
		return smpi_err(NULL, MPI_ERR_REQUEST, "MPI_Grequest_complete",
				"request %p is not a generalized request", (void *)request);
	__atomic_store_n(&request->state, SMPI_ST_DONE, __ATOMIC_RELEASE);
	return MPI_SUCCESS;
}

/* Retiring a complete one: the status from its query function. */
void smpi_greq_query(struct smpi_req *r)
{
	smpi_status_set(&r->status, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_SUCCESS, 0);
	r->status.MPI_ERROR = r->greq->query(r->greq->extra, &r->status);
}

void smpi_greq_cancel(struct smpi_req *r)
{
	r->greq->cancel(r->greq->extra, r->state == SMPI_ST_DONE);
}

void smpi_greq_free(struct smpi_req *r)
{
	r->greq->free(r->greq->extra);
	free(r->greq);
	r->greq = NULL;
}

SMPI_ALIAS(Grequest_start)
SMPI_ALIAS(Grequest_complete)
