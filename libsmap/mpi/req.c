/*
 * req.c - request objects and the calls that complete them: Wait, Test and
 * their all/any/some forms, Start, Request_free, Cancel.
 *
 * Requests come from a free list grown in batches, so a nonblocking call
 * allocates nothing in the common case.  Blocking calls keep their request
 * on the stack and never come here.
 */
#include <stdlib.h>
#include <string.h>
#include "impl.h"

#define REQ_BATCH	64

static struct smpi_req *req_free_list;

struct smpi_req *smpi_req_alloc(int kind, int mode, const void *buf, int64_t count,
				MPI_Datatype type, int peer, int tag, MPI_Comm comm)
{
	struct smpi_req *r = req_free_list;
	int i;

	if (!r) {
		/* Aligned like the rendezvous line inside each request. */
		r = aligned_alloc(_Alignof(struct smpi_req), REQ_BATCH * sizeof *r);
		if (!r)
			smpi_fatal("MPI: no memory for requests");
		for (i = 0; i < REQ_BATCH - 1; i++)
			r[i].next = &r[i + 1];
		r[REQ_BATCH - 1].next = NULL;
	}
	req_free_list = r->next;
	smpi_req_init(r, kind, mode, buf, count, type, peer, tag, comm);
	smpi_type_hold(type);
	smpi_comm_hold(comm);
	return r;
}

void smpi_req_free(struct smpi_req *r)
{
	if (r->bbuf)
		smpi_bsend_release(r);
	if (r->inner) {
		smpi_p2p_orphan(r->inner);
		r->inner = NULL;
	}
	if (r->rv.copy) {
		free((void *)(uintptr_t)r->rv.copy);
		r->rv.copy = 0;
	}
	if (r->kind == SMPI_REQ_COLL)
		smpi_nbc_free(r->nbc);
	if (r->kind == SMPI_REQ_GREQ)
		smpi_greq_free(r);
	if (r->kind == SMPI_REQ_PART_SEND || r->kind == SMPI_REQ_PART_RECV)
		smpi_part_free(r);
	smpi_type_release(r->type);
	smpi_comm_release(r->comm);
	r->live = 0;
	r->state = SMPI_ST_IDLE;
	r->next = req_free_list;
	req_free_list = r;
}

static void req_empty_status(MPI_Status *st)
{
	if (st != MPI_STATUS_IGNORE)
		smpi_status_set(st, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_SUCCESS, 0);
}

/* Active: started and not yet completed by a Wait or Test. */
static int req_active(MPI_Request r)
{
	return r != MPI_REQUEST_NULL && r->state != SMPI_ST_IDLE;
}

/* Hands a complete request's status out and retires it; returns its
 * error.  A withdrawn send lives on in progress until its receiver has
 * read the copy. */
static int req_retire(MPI_Request *h, MPI_Status *st)
{
	struct smpi_req *r = *h;
	int err;

	if (r->kind == SMPI_REQ_GREQ)
		smpi_greq_query(r);
	err = r->status.MPI_ERROR;
	if (st != MPI_STATUS_IGNORE)
		*st = r->status;
	if (r->persistent) {
		r->state = SMPI_ST_IDLE;
	} else {
		if (r->withdrawn)
			smpi_p2p_orphan(r);
		else
			smpi_req_free(r);
		*h = MPI_REQUEST_NULL;
	}
	return err;
}

/* Retires the complete request *h and reports a failed receive on its
 * communicator, held meanwhile: the request may have been the last
 * reference to a communicator already freed.  For the calls that hand out
 * one status: its MPI_ERROR stays as the caller left it (MPI 3.1 3.2.5),
 * the return value says it. */
static int req_finish(MPI_Request *h, MPI_Status *st, const char *fn)
{
	MPI_Comm comm = (*h)->comm;
	int err, kept = st != MPI_STATUS_IGNORE ? st->MPI_ERROR : 0;

	if (!(*h)->status.MPI_ERROR) {
		req_retire(h, st);
		if (st != MPI_STATUS_IGNORE)
			st->MPI_ERROR = kept;
		return MPI_SUCCESS;
	}
	smpi_comm_hold(comm);
	err = req_retire(h, st);
	if (st != MPI_STATUS_IGNORE)
		st->MPI_ERROR = kept;
	err = smpi_err(comm, err, fn, err == MPI_ERR_TYPE ?
		       "the message ends inside an element of the receive type (the type "
		       "signatures differ)" : "message truncated: larger than the receive buffer");
	smpi_comm_release(comm);
	return err;
}

int PMPI_Wait(MPI_Request *request, MPI_Status *status)
{
	int err;

	if ((err = smpi_check_init("MPI_Wait")))
		return err;
	if (!request)
		return smpi_err(NULL, MPI_ERR_REQUEST, "MPI_Wait", "request pointer is NULL");
	if ((err = smpi_req_check(1, request, "MPI_Wait")))
		return err;
	if (!req_active(*request)) {
		req_empty_status(status);
		return MPI_SUCCESS;
	}
	smpi_req_wait(*request);
	return req_finish(request, status, "MPI_Wait");
}

int PMPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
	int err;

	if ((err = smpi_check_init("MPI_Test")))
		return err;
	if (!request || !flag)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Test", "request or flag pointer is NULL");
	if ((err = smpi_req_check(1, request, "MPI_Test")))
		return err;
	if (!req_active(*request)) {
		*flag = 1;
		req_empty_status(status);
		return MPI_SUCCESS;
	}
	if (!smpi_req_complete(*request))
		smpi_progress();
	*flag = smpi_req_complete(*request);
	core_poll(*flag);
	if (!*flag)
		return MPI_SUCCESS;
	return req_finish(request, status, "MPI_Test");
}

/* Retires every done request of the array into statuses; returns how many
 * are still active and sets *err to MPI_ERR_IN_STATUS if any failed. */
static int req_sweep(int n, MPI_Request reqs[], MPI_Status sts[], int *err)
{
	int i, left = 0;

	for (i = 0; i < n; i++) {
		MPI_Status *st = sts == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &sts[i];

		if (!req_active(reqs[i]))
			continue;
		if (!smpi_req_complete(reqs[i])) {
			left++;
			continue;
		}
		if (req_retire(&reqs[i], st))
			*err = MPI_ERR_IN_STATUS;
	}
	return left;
}

int PMPI_Waitall(int count, MPI_Request reqs[], MPI_Status sts[])
{
	unsigned spins = 0;
	int i, err = 0;

	if ((err = smpi_check_init("MPI_Waitall")))
		return err;
	if (count < 0 || (count && !reqs))
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Waitall", "bad request array (count %d)", count);
	if ((err = smpi_req_check(count, reqs, "MPI_Waitall")))
		return err;
	for (i = 0; i < count; i++)
		if (!req_active(reqs[i]) && sts != MPI_STATUSES_IGNORE)
			req_empty_status(&sts[i]);
	while (req_sweep(count, reqs, sts, &err)) {
		smpi_progress();
		smpi_spin(&spins);
	}
	if (err)
		return smpi_err(NULL, err, "MPI_Waitall", "a request failed; see its status");
	return MPI_SUCCESS;
}

int PMPI_Testall(int count, MPI_Request reqs[], int *flag, MPI_Status sts[])
{
	int i, err = 0;

	if ((err = smpi_check_init("MPI_Testall")))
		return err;
	if (count < 0 || (count && !reqs) || !flag)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Testall", "bad request array (count %d)", count);
	if ((err = smpi_req_check(count, reqs, "MPI_Testall")))
		return err;
	smpi_progress();
	/* All or nothing: retire only when every request is done. */
	for (i = 0; i < count; i++)
		if (req_active(reqs[i]) && !smpi_req_complete(reqs[i])) {
			*flag = 0;
			core_poll(0);
			return MPI_SUCCESS;
		}
	for (i = 0; i < count; i++)
		if (!req_active(reqs[i]) && sts != MPI_STATUSES_IGNORE)
			req_empty_status(&sts[i]);
	req_sweep(count, reqs, sts, &err);
	*flag = 1;
	core_poll(1);
	if (err)
		return smpi_err(NULL, err, "MPI_Testall", "a request failed; see its status");
	return MPI_SUCCESS;
}

/* The first done request, -1 if none, MPI_UNDEFINED if none is active. */
static int req_any(int count, MPI_Request reqs[])
{
	int i, active = 0;

	for (i = 0; i < count; i++) {
		if (!req_active(reqs[i]))
			continue;
		active = 1;
		if (smpi_req_complete(reqs[i]))
			return i;
	}
	return active ? -1 : MPI_UNDEFINED;
}

static int req_take(MPI_Request reqs[], int i, int *index, MPI_Status *st,
		    const char *fn)
{
	*index = i;
	return req_finish(&reqs[i], st, fn);
}

int PMPI_Waitany(int count, MPI_Request reqs[], int *index, MPI_Status *status)
{
	unsigned spins = 0;
	int i, err;

	if ((err = smpi_check_init("MPI_Waitany")))
		return err;
	if (count < 0 || (count && !reqs) || !index)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Waitany", "bad request array (count %d)", count);
	if ((err = smpi_req_check(count, reqs, "MPI_Waitany")))
		return err;
	while ((i = req_any(count, reqs)) == -1) {
		smpi_progress();
		if ((i = req_any(count, reqs)) != -1)
			break;
		smpi_spin(&spins);
	}
	if (i == MPI_UNDEFINED) {
		*index = MPI_UNDEFINED;
		req_empty_status(status);
		return MPI_SUCCESS;
	}
	return req_take(reqs, i, index, status, "MPI_Waitany");
}

int PMPI_Testany(int count, MPI_Request reqs[], int *index, int *flag, MPI_Status *status)
{
	int i, err;

	if ((err = smpi_check_init("MPI_Testany")))
		return err;
	if (count < 0 || (count && !reqs) || !index || !flag)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Testany", "bad request array (count %d)", count);
	if ((err = smpi_req_check(count, reqs, "MPI_Testany")))
		return err;
	smpi_progress();
	i = req_any(count, reqs);
	*flag = i != -1;
	core_poll(*flag);
	if (i == -1) {
		*index = MPI_UNDEFINED;
		return MPI_SUCCESS;
	}
	if (i == MPI_UNDEFINED) {
		*index = MPI_UNDEFINED;
		req_empty_status(status);
		return MPI_SUCCESS;
	}
	return req_take(reqs, i, index, status, "MPI_Testany");
}

/* A complete request's status, the request left as it is (the
 * MPI_Request_get_status family); a generalized request asks its query
 * function, as MPI_Wait would. */
static void req_peek(MPI_Request r, MPI_Status *st)
{
	if (r->kind == SMPI_REQ_GREQ)
		smpi_greq_query(r);
	if (st != MPI_STATUS_IGNORE)
		*st = r->status;
}

/* The done requests' indices and statuses, each retired, or left as it is
 * (keep: MPI_Request_get_status_some); *out as MPI says. */
static int req_some(int n, MPI_Request reqs[], int *out, int idx[], MPI_Status sts[], int keep)
{
	int i, k = 0, active = 0, err = 0;

	for (i = 0; i < n; i++) {
		MPI_Status *st = sts == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &sts[k];

		if (!req_active(reqs[i]))
			continue;
		active = 1;
		if (!smpi_req_complete(reqs[i]))
			continue;
		idx[k] = i;
		if (keep) {
			req_peek(reqs[i], st);
			if (reqs[i]->status.MPI_ERROR)
				err = MPI_ERR_IN_STATUS;
		} else if (req_retire(&reqs[i], st)) {
			err = MPI_ERR_IN_STATUS;
		}
		k++;
	}
	*out = active ? k : MPI_UNDEFINED;
	return err;
}

int PMPI_Waitsome(int incount, MPI_Request reqs[], int *outcount, int indices[],
		  MPI_Status sts[])
{
	unsigned spins = 0;
	int err;

	if ((err = smpi_check_init("MPI_Waitsome")))
		return err;
	if (incount < 0 || (incount && (!reqs || !indices)) || !outcount)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Waitsome", "bad request array (count %d)", incount);
	if ((err = smpi_req_check(incount, reqs, "MPI_Waitsome")))
		return err;
	while (req_any(incount, reqs) == -1) {
		smpi_progress();
		smpi_spin(&spins);
	}
	err = req_some(incount, reqs, outcount, indices, sts, 0);
	return err ? smpi_err(NULL, err, "MPI_Waitsome", "a request failed; see its status") : 0;
}

int PMPI_Testsome(int incount, MPI_Request reqs[], int *outcount, int indices[],
		  MPI_Status sts[])
{
	int err;

	if ((err = smpi_check_init("MPI_Testsome")))
		return err;
	if (incount < 0 || (incount && (!reqs || !indices)) || !outcount)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Testsome", "bad request array (count %d)", incount);
	if ((err = smpi_req_check(incount, reqs, "MPI_Testsome")))
		return err;
	smpi_progress();
	err = req_some(incount, reqs, outcount, indices, sts, 0);
	core_poll(*outcount != 0);
	return err ? smpi_err(NULL, err, "MPI_Testsome", "a request failed; see its status") : 0;
}

static int request_get_status_one(MPI_Request request, int *flag, MPI_Status *status)
{
	int err;

	if ((err = smpi_check_init("MPI_Request_get_status")))
		return err;
	if (!flag)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Request_get_status", "flag pointer is NULL");
	if ((err = smpi_req_check(1, &request, "MPI_Request_get_status")))
		return err;
	if (!req_active(request)) {
		*flag = 1;
		req_empty_status(status);
		return MPI_SUCCESS;
	}
	if (!smpi_req_complete(request))
		smpi_progress();
	*flag = smpi_req_complete(request);
	core_poll(*flag);
	if (*flag)
		req_peek(request, status);
	return MPI_SUCCESS;
}

int PMPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
	int kept = smpi_status_error(status);

	return smpi_status_keep(status, kept, request_get_status_one(request, flag, status));
}

/* The MPI 4.1 forms over arrays: MPI_Testall, Testany and Testsome that
 * leave every request as it is. */
static int request_array(int count, MPI_Request reqs[], const void *out, const char *fn)
{
	int err;

	if ((err = smpi_check_init(fn)))
		return err;
	if (count < 0 || (count && !reqs) || !out)
		return smpi_err(NULL, MPI_ERR_ARG, fn, "bad request array (count %d)", count);
	if ((err = smpi_req_check(count, reqs, fn)))
		return err;
	smpi_progress();
	return MPI_SUCCESS;
}

int PMPI_Request_get_status_all(int count, MPI_Request reqs[], int *flag, MPI_Status sts[])
{
	const char *fn = "MPI_Request_get_status_all";
	int i, err = 0;

	if ((err = request_array(count, reqs, flag, fn)))
		return err;
	*flag = 1;
	for (i = 0; i < count; i++)
		if (req_active(reqs[i]) && !smpi_req_complete(reqs[i]))
			*flag = 0;
	core_poll(*flag);
	if (!*flag)
		return MPI_SUCCESS;
	for (i = 0; i < count; i++) {
		MPI_Status *st = sts == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &sts[i];

		if (!req_active(reqs[i])) {
			req_empty_status(st);
			continue;
		}
		req_peek(reqs[i], st);
		if (reqs[i]->status.MPI_ERROR)
			err = MPI_ERR_IN_STATUS;
	}
	return err ? smpi_err(NULL, err, fn, "a request failed; see its status") : 0;
}

int PMPI_Request_get_status_any(int count, MPI_Request reqs[], int *index, int *flag,
				MPI_Status *status)
{
	const char *fn = "MPI_Request_get_status_any";
	int i, err, kept = smpi_status_error(status);

	if ((err = request_array(count, reqs, index, fn)))
		return err;
	if (!flag)
		return smpi_err(NULL, MPI_ERR_ARG, fn, "flag pointer is NULL");
	i = req_any(count, reqs);
	*flag = i != -1;
	*index = i >= 0 ? i : MPI_UNDEFINED;
	core_poll(*flag);
	if (i == MPI_UNDEFINED)
		req_empty_status(status);
	else if (i >= 0)
		req_peek(reqs[i], status);
	return smpi_status_keep(status, kept, MPI_SUCCESS);
}

int PMPI_Request_get_status_some(int incount, MPI_Request reqs[], int *outcount, int indices[],
				 MPI_Status sts[])
{
	const char *fn = "MPI_Request_get_status_some";
	int err;

	if ((err = request_array(incount, reqs, outcount, fn)))
		return err;
	if (incount && !indices)
		return smpi_err(NULL, MPI_ERR_ARG, fn, "indices array is NULL");
	err = req_some(incount, reqs, outcount, indices, sts, 1);
	core_poll(*outcount != 0 && *outcount != MPI_UNDEFINED);
	return err ? smpi_err(NULL, err, fn, "a request failed; see its status") : 0;
}

int PMPI_Request_free(MPI_Request *request)
{
	struct smpi_req *r;
	int err;

	if ((err = smpi_check_init("MPI_Request_free")))
		return err;
	if (!request || *request == MPI_REQUEST_NULL)
		return smpi_err(NULL, MPI_ERR_REQUEST, "MPI_Request_free", "request is MPI_REQUEST_NULL");
	if ((err = smpi_req_check(1, request, "MPI_Request_free")))
		return err;
	r = *request;
	*request = MPI_REQUEST_NULL;
	if (r->state == SMPI_ST_IDLE)
		smpi_req_free(r);
	else
		smpi_p2p_orphan(r);
	return MPI_SUCCESS;
}

int PMPI_Cancel(MPI_Request *request)
{
	int err;

	if ((err = smpi_check_init("MPI_Cancel")))
		return err;
	if (!request || *request == MPI_REQUEST_NULL)
		return smpi_err(NULL, MPI_ERR_REQUEST, "MPI_Cancel", "request is MPI_REQUEST_NULL");
	if ((err = smpi_req_check(1, request, "MPI_Cancel")))
		return err;
	/* A send that cannot be taken back (across nodes, or received
	 * already) completes instead, and MPI_Test_cancelled says so. */
	if ((*request)->kind == SMPI_REQ_GREQ)
		smpi_greq_cancel(*request);
	else
		smpi_p2p_cancel(*request);
	return MPI_SUCCESS;
}

int PMPI_Test_cancelled(const MPI_Status *status, int *flag)
{
	if (!status || !flag)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Test_cancelled", "status or flag pointer is NULL");
	*flag = status->smpi_cancelled;
	return MPI_SUCCESS;
}

int PMPI_Start(MPI_Request *request)
{
	struct smpi_req *r;
	int err;

	if ((err = smpi_check_init("MPI_Start")))
		return err;
	if (request && (err = smpi_req_check(1, request, "MPI_Start")))
		return err;
	if (!request || !*request || !(*request)->persistent)
		return smpi_err(NULL, MPI_ERR_REQUEST, "MPI_Start", "not a persistent request");
	r = *request;
	if (r->state != SMPI_ST_IDLE)
		return smpi_err(r->comm, MPI_ERR_REQUEST, "MPI_Start", "request is already active");
	if (r->kind == SMPI_REQ_COLL) {
		smpi_nbc_start(r);
		return MPI_SUCCESS;
	}
	if (r->kind == SMPI_REQ_PART_SEND || r->kind == SMPI_REQ_PART_RECV) {
		smpi_part_start(r);
		return MPI_SUCCESS;
	}
	if (r->kind == SMPI_REQ_SEND)
		smpi_pv.sends++;
	else if (r->kind == SMPI_REQ_RECV)
		smpi_pv.recvs++;
	if (r->mode == SMPI_MODE_BUF) {
		r->cancel = 0;
		err = smpi_bsend_copy(r, 1, "MPI_Start");
		if (err)
			return err;
		smpi_status_set(&r->status, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_SUCCESS, 0);
		r->state = SMPI_ST_DONE;
		return MPI_SUCCESS;
	}
	smpi_p2p_start(r);
	return MPI_SUCCESS;
}

int PMPI_Startall(int count, MPI_Request reqs[])
{
	int i, err;

	for (i = 0; i < count; i++)
		if ((err = PMPI_Start(&reqs[i])))
			return err;
	return MPI_SUCCESS;
}

SMPI_ALIAS(Wait)
SMPI_ALIAS(Test)
SMPI_ALIAS(Waitall)
SMPI_ALIAS(Testall)
SMPI_ALIAS(Waitany)
SMPI_ALIAS(Testany)
SMPI_ALIAS(Waitsome)
SMPI_ALIAS(Testsome)
SMPI_ALIAS(Request_get_status)
SMPI_ALIAS(Request_get_status_all)
SMPI_ALIAS(Request_get_status_any)
SMPI_ALIAS(Request_get_status_some)
SMPI_ALIAS(Request_free)
SMPI_ALIAS(Cancel)
SMPI_ALIAS(Test_cancelled)
SMPI_ALIAS(Start)
SMPI_ALIAS(Startall)
