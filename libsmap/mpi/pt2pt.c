/*
 * pt2pt.c - the point-to-point calls: argument checks, then the transport
 * (p2p.c).  Blocking calls keep their request on the stack.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "impl.h"

/*
 * The arguments of a send or receive with a peer on this node (or, for a
 * receive, MPI_ANY_SOURCE) are valid: the case that counts, in a few
 * compares (the largest int is SMPI_TAG_UB, so a tag only has to be
 * non-negative).  Whatever this turns down goes through pt_check_all,
 * which reports the error, or accepts MPI_PROC_NULL (or MPI_BOTTOM).
 */
static inline int pt_fast(const void *buf, MPI_Comm comm, int count, MPI_Datatype type, int peer,
			  int tag, int recv)
{
	return __builtin_expect(smpi_active && smpi_live(comm, SMPI_LIVE_COMM) && count >= 0 &&
				(buf || !count) &&
				smpi_live(type, SMPI_LIVE_TYPE) && type->committed &&
				(tag >= 0 || (recv && tag == MPI_ANY_TAG)) &&
				((unsigned)peer < (unsigned)comm->size ? comm->local[peer] >= 0 :
				 recv && peer == MPI_ANY_SOURCE), 1);
}

/* An empty message may name MPI_DATATYPE_NULL (MPICH and Open MPI accept
 * it, and test suites send it): it moves as zero bytes. */
static inline MPI_Datatype pt_type(MPI_Datatype type, int count)
{
	return type == MPI_DATATYPE_NULL && count == 0 ? MPI_BYTE : type;
}

static int pt_check_all(const void *buf, MPI_Comm comm, int count, MPI_Datatype type, int peer,
			int tag, int recv, const char *fn)
{
	int err;

	if ((err = smpi_check_init(fn)) || (err = smpi_comm_check(comm, fn)))
		return err;
	if (count < 0)
		return smpi_err(comm, MPI_ERR_COUNT, fn, "count %d is negative", count);
	if ((err = smpi_type_check(comm, type, fn)) ||
	    (peer != MPI_PROC_NULL && (err = smpi_buf_check(comm, buf, count, type, fn))))
		return err;
	if (tag > SMPI_TAG_UB || (tag < 0 && !(recv && tag == MPI_ANY_TAG)))
		return smpi_err(comm, MPI_ERR_TAG, fn, "tag %d is not valid", tag);
	return smpi_rank_check(comm, peer, recv, fn);
}

/* Checks shared by every send and receive; recv allows the wildcards. */
static inline int pt_check(const void *buf, MPI_Comm comm, int count, MPI_Datatype type, int peer,
			   int tag, int recv, const char *fn)
{
	core_call = fn;
	if (pt_fast(buf, comm, count, type, peer, tag, recv))
		return MPI_SUCCESS;
	return pt_check_all(buf, comm, count, type, peer, tag, recv, fn);
}

/* A blocking send after pt_fast turned it down; kept out of line so the
 * fast path saves no registers for it. */
static __attribute__((noinline)) int pt_send_slow(const void *buf, int count, MPI_Datatype type,
						  int dest, int tag, MPI_Comm comm, int mode,
						  const char *fn)
{
	int err;

	type = pt_type(type, count);
	if ((err = pt_check_all(buf, comm, count, type, dest, tag, 0, fn)))
		return err;
	if (dest != MPI_PROC_NULL)
		smpi_p2p_send(buf, count, type, dest, tag, comm, comm->ctx, mode);
	return MPI_SUCCESS;
}

static inline int pt_send(const void *buf, int count, MPI_Datatype type, int dest, int tag,
			  MPI_Comm comm, int mode, const char *fn)
{
	core_call = fn;
	smpi_pv.sends++;
	if (!pt_fast(buf, comm, count, type, dest, tag, 0))
		return pt_send_slow(buf, count, type, dest, tag, comm, mode, fn);
	smpi_p2p_send(buf, count, type, dest, tag, comm, comm->ctx, mode);
	return MPI_SUCCESS;
}

int PMPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
	return pt_send(buf, count, type, dest, tag, comm, SMPI_MODE_STD, "MPI_Send");
}

int PMPI_Ssend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
	return pt_send(buf, count, type, dest, tag, comm, SMPI_MODE_SYNC, "MPI_Ssend");
}

/* A ready send may assume the receive is posted; a standard send is a
 * correct way to deliver it. */
int PMPI_Rsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
	return pt_send(buf, count, type, dest, tag, comm, SMPI_MODE_READY, "MPI_Rsend");
}

int PMPI_Bsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
	struct smpi_req r;
	int err;

	type = pt_type(type, count);
	if ((err = pt_check(buf, comm, count, type, dest, tag, 0, "MPI_Bsend")))
		return err;
	if (dest == MPI_PROC_NULL)
		return MPI_SUCCESS;
	smpi_req_init(&r, SMPI_REQ_SEND, SMPI_MODE_BUF, buf, count, type, dest, tag, comm);
	return smpi_bsend_copy(&r, 0, "MPI_Bsend");
}

static int pt_recv_error(MPI_Comm comm, const MPI_Status *st, const char *fn)
{
	if (st->MPI_ERROR == MPI_ERR_TYPE)
		return smpi_err(comm, MPI_ERR_TYPE, fn,
				"message from rank %d tag %d of %lld bytes ends inside an element of "
				"the receive type (the type signatures differ)",
				st->MPI_SOURCE, st->MPI_TAG, (long long)st->smpi_bytes);
	return smpi_err(comm, st->MPI_ERROR, fn,
			"message from rank %d tag %d truncated to the %lld bytes of the receive buffer",
			st->MPI_SOURCE, st->MPI_TAG, (long long)st->smpi_bytes);
}

static __attribute__((noinline)) int pt_recv_slow(void *buf, int count, MPI_Datatype type,
						  int source, int tag, MPI_Comm comm,
						  MPI_Status *status)
{
	MPI_Status st;
	int err;

	type = pt_type(type, count);
	if ((err = pt_check_all(buf, comm, count, type, source, tag, 1, "MPI_Recv")))
		return err;
	if (status == MPI_STATUS_IGNORE)
		status = &st;
	if (source == MPI_PROC_NULL) {
		smpi_status_set(status, MPI_PROC_NULL, MPI_ANY_TAG, MPI_SUCCESS, 0);
		return MPI_SUCCESS;
	}
	if (smpi_p2p_recv(buf, count, type, source, tag, comm, comm->ctx, status))
		return pt_recv_error(comm, status, "MPI_Recv");
	return MPI_SUCCESS;
}

static int recv_one(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
		    MPI_Status *status)
{
	MPI_Status st;

	core_call = "MPI_Recv";
	smpi_pv.recvs++;
	if (!pt_fast(buf, comm, count, type, source, tag, 1))
		return pt_recv_slow(buf, count, type, source, tag, comm, status);
	if (status == MPI_STATUS_IGNORE)
		status = &st;
	if (smpi_p2p_recv(buf, count, type, source, tag, comm, comm->ctx, status))
		return pt_recv_error(comm, status, "MPI_Recv");
	return MPI_SUCCESS;
}

int PMPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
	      MPI_Status *status)
{
	int kept = smpi_status_error(status);

	return smpi_status_keep(status, kept, recv_one(buf, count, type, source, tag, comm, status));
}

static int pt_isend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
		    MPI_Comm comm, MPI_Request *request, int mode, const char *fn)
{
	struct smpi_req *r;
	int err;

	smpi_pv.sends++;
	type = pt_type(type, count);
	if ((err = pt_check(buf, comm, count, type, dest, tag, 0, fn)))
		return err;
	if (!request)
		return smpi_err(comm, MPI_ERR_ARG, fn, "request pointer is NULL");
	/* Every nonblocking send keeps a request of its own, which
	 * MPI_Cancel needs. */
	r = smpi_req_alloc(SMPI_REQ_SEND, mode, buf, count, type, dest, tag, comm);
	if (mode == SMPI_MODE_BUF) {
		err = dest == MPI_PROC_NULL ? 0 : smpi_bsend_copy(r, 1, fn);
		smpi_status_set(&r->status, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_SUCCESS, 0);
		r->state = SMPI_ST_DONE;
		*request = r;
		return err;
	}
	smpi_p2p_isend(r);
	*request = r;
	return MPI_SUCCESS;
}

int PMPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
	       MPI_Request *request)
{
	return pt_isend(buf, count, type, dest, tag, comm, request, SMPI_MODE_STD, "MPI_Isend");
}

int PMPI_Issend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
		MPI_Request *request)
{
	return pt_isend(buf, count, type, dest, tag, comm, request, SMPI_MODE_SYNC, "MPI_Issend");
}

int PMPI_Irsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
		MPI_Request *request)
{
	return pt_isend(buf, count, type, dest, tag, comm, request, SMPI_MODE_READY, "MPI_Irsend");
}

int PMPI_Ibsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
		MPI_Request *request)
{
	return pt_isend(buf, count, type, dest, tag, comm, request, SMPI_MODE_BUF, "MPI_Ibsend");
}

int PMPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
	       MPI_Request *request)
{
	struct smpi_req *r;
	int err;

	smpi_pv.recvs++;
	type = pt_type(type, count);
	if ((err = pt_check(buf, comm, count, type, source, tag, 1, "MPI_Irecv")))
		return err;
	if (!request)
		return smpi_err(comm, MPI_ERR_ARG, "MPI_Irecv", "request pointer is NULL");
	r = smpi_req_alloc(SMPI_REQ_RECV, SMPI_MODE_STD, buf, count, type, source, tag, comm);
	smpi_p2p_start(r);
	*request = r;
	return MPI_SUCCESS;
}

static int pt_init(int kind, int mode, const void *buf, int count, MPI_Datatype type,
		   int peer, int tag, MPI_Comm comm, MPI_Request *request, const char *fn)
{
	int err;

	type = pt_type(type, count);
	if ((err = pt_check(buf, comm, count, type, peer, tag, kind == SMPI_REQ_RECV, fn)))
		return err;
	if (!request)
		return smpi_err(comm, MPI_ERR_ARG, fn, "request pointer is NULL");
	*request = smpi_req_alloc(kind, mode, buf, count, type, peer, tag, comm);
	(*request)->persistent = 1;
	return MPI_SUCCESS;
}

/* MPI_<name>_init: a persistent request for what MPI_<name> does. */
#define PT_INIT(name, kind, mode, qual) \
	int PMPI_##name##_init(qual void *buf, int count, MPI_Datatype type, int peer, int tag, \
			       MPI_Comm comm, MPI_Request *request) \
	{ \
		return pt_init(kind, mode, buf, count, type, peer, tag, comm, request, \
			       "MPI_" #name "_init"); \
	}

PT_INIT(Send, SMPI_REQ_SEND, SMPI_MODE_STD, const)
PT_INIT(Ssend, SMPI_REQ_SEND, SMPI_MODE_SYNC, const)
PT_INIT(Rsend, SMPI_REQ_SEND, SMPI_MODE_READY, const)
PT_INIT(Bsend, SMPI_REQ_SEND, SMPI_MODE_BUF, const)
PT_INIT(Recv, SMPI_REQ_RECV, SMPI_MODE_STD, )

static int sendrecv_one(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
			int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,
			int recvtag, MPI_Comm comm, MPI_Status *status)
{
	struct smpi_req s, r;
	MPI_Status st;
	int err;

	smpi_pv.sends++;
	smpi_pv.recvs++;
	sendtype = pt_type(sendtype, sendcount);
	recvtype = pt_type(recvtype, recvcount);
	if ((err = pt_check(sendbuf, comm, sendcount, sendtype, dest, sendtag, 0, "MPI_Sendrecv")) ||
	    (err = pt_check(recvbuf, comm, recvcount, recvtype, source, recvtag, 1, "MPI_Sendrecv")))
		return err;
	if (status == MPI_STATUS_IGNORE)
		status = &st;
	/* A send that leaves at once leaves a blocking receive, with its fast
	 * paths; any other is started first, so that two ranks exchanging
	 * large messages both get to their receives. */
	if (dest != MPI_PROC_NULL && source != MPI_PROC_NULL &&
	    smpi_p2p_send_now(sendbuf, sendcount, sendtype, dest, sendtag, comm, comm->ctx,
			      SMPI_MODE_STD)) {
		if (smpi_p2p_recv(recvbuf, recvcount, recvtype, source, recvtag, comm, comm->ctx,
				  status))
			return pt_recv_error(comm, status, "MPI_Sendrecv");
		return MPI_SUCCESS;
	}
	smpi_req_init(&r, SMPI_REQ_RECV, SMPI_MODE_STD, recvbuf, recvcount, recvtype, source,
		      recvtag, comm);
	smpi_req_init(&s, SMPI_REQ_SEND, SMPI_MODE_STD, sendbuf, sendcount, sendtype, dest,
		      sendtag, comm);
	smpi_p2p_start(&r);
	smpi_p2p_start(&s);
	smpi_req_wait(&s);
	smpi_req_wait(&r);
	*status = r.status;
	if (r.status.MPI_ERROR)
		return pt_recv_error(comm, &r.status, "MPI_Sendrecv");
	return MPI_SUCCESS;
}

int PMPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
		  int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,
		  int recvtag, MPI_Comm comm, MPI_Status *status)
{
	int kept = smpi_status_error(status);

	return smpi_status_keep(status, kept,
				sendrecv_one(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
					     recvcount, recvtype, source, recvtag, comm, status));
}

static int sendrecv_replace_one(void *buf, int count, MPI_Datatype type, int dest, int sendtag,
				int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
	int64_t bytes;
	char *tmp;
	int err;

	smpi_pv.sends++;
	smpi_pv.recvs++;
	type = pt_type(type, count);
	if ((err = pt_check(buf, comm, count, type, dest, sendtag, 0, "MPI_Sendrecv_replace")) ||
	    (err = pt_check(buf, comm, count, type, source, recvtag, 1, "MPI_Sendrecv_replace")))
		return err;
	bytes = count * smpi_type_size(type);
	tmp = malloc(bytes ? bytes : 1);
	if (!tmp)
		return smpi_err(comm, MPI_ERR_NO_MEM, "MPI_Sendrecv_replace",
				"no memory for a copy of %lld bytes", (long long)bytes);
	smpi_type_copy(tmp, bytes, MPI_BYTE, buf, count, type);
	err = PMPI_Sendrecv(tmp, bytes, MPI_BYTE, dest, sendtag, buf, count, type, source,
			    recvtag, comm, status);
	free(tmp);
	return err;
}

int PMPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest, int sendtag,
			  int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
	int kept = smpi_status_error(status);

	return smpi_status_keep(status, kept,
				sendrecv_replace_one(buf, count, type, dest, sendtag, source,
						     recvtag, comm, status));
}

static int probe_one(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
	MPI_Status st;
	unsigned spins = 0;
	int err;

	if ((err = pt_check(NULL, comm, 0, MPI_BYTE, source, tag, 1, "MPI_Probe")))
		return err;
	if (source == MPI_PROC_NULL) {
		if (status != MPI_STATUS_IGNORE)
			smpi_status_set(status, MPI_PROC_NULL, MPI_ANY_TAG, MPI_SUCCESS, 0);
		return MPI_SUCCESS;
	}
	while (!smpi_p2p_probe(comm, source, tag, &st))
		smpi_spin(&spins);
	if (status != MPI_STATUS_IGNORE)
		*status = st;
	return MPI_SUCCESS;
}

int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
	int kept = smpi_status_error(status);

	return smpi_status_keep(status, kept, probe_one(source, tag, comm, status));
}

static int iprobe_one(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
	MPI_Status st;
	int err;

	if ((err = pt_check(NULL, comm, 0, MPI_BYTE, source, tag, 1, "MPI_Iprobe")))
		return err;
	if (!flag)
		return smpi_err(comm, MPI_ERR_ARG, "MPI_Iprobe", "flag pointer is NULL");
	if (source == MPI_PROC_NULL) {
		*flag = 1;
		if (status != MPI_STATUS_IGNORE)
			smpi_status_set(status, MPI_PROC_NULL, MPI_ANY_TAG, MPI_SUCCESS, 0);
		return MPI_SUCCESS;
	}
	*flag = smpi_p2p_probe(comm, source, tag, &st);
	core_poll(*flag);
	if (*flag && status != MPI_STATUS_IGNORE)
		*status = st;
	return MPI_SUCCESS;
}

int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
	int kept = smpi_status_error(status);

	return smpi_status_keep(status, kept, iprobe_one(source, tag, comm, flag, status));
}

int smpi_get_count(const MPI_Status *status, MPI_Datatype type, MPI_Count *count, const char *fn)
{
	int64_t size;
	int err;

	if (!status || !count)
		return smpi_err(NULL, MPI_ERR_ARG, fn, "status or count pointer is NULL");
	if ((err = smpi_type_check(NULL, type, fn)))
		return err;
	size = smpi_type_size(type);
	if (size == 0)
		*count = 0;
	else if (status->smpi_bytes % size)
		*count = MPI_UNDEFINED;
	else
		*count = status->smpi_bytes / size;
	return MPI_SUCCESS;
}

int PMPI_Get_count(const MPI_Status *status, MPI_Datatype type, int *count)
{
	MPI_Count c = 0;
	int err = smpi_get_count(status, type, count ? &c : NULL, "MPI_Get_count");

	if (!err)
		*count = c > INT_MAX ? MPI_UNDEFINED : (int)c;
	return err;
}

int PMPI_Get_elements_x(const MPI_Status *status, MPI_Datatype type, MPI_Count *count)
{
	int64_t n;
	int err;

	if (!status || !count)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Get_elements", "status or count pointer is NULL");
	if ((err = smpi_type_check(NULL, type, "MPI_Get_elements")))
		return err;
	n = dt_count_basic(type->dt, status->smpi_bytes);
	*count = n < 0 ? MPI_UNDEFINED : n;
	return MPI_SUCCESS;
}

int PMPI_Get_elements(const MPI_Status *status, MPI_Datatype type, int *count)
{
	MPI_Count n = 0;
	int err = PMPI_Get_elements_x(status, type, &n);

	if (!err)
		*count = n > INT_MAX ? MPI_UNDEFINED : (int)n;
	return err;
}

/* Sets what Get_elements will report: count basic elements of type. */
int PMPI_Status_set_elements(MPI_Status *status, MPI_Datatype type, int count)
{
	int err;

	if (!status)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Status_set_elements", "status pointer is NULL");
	if ((err = smpi_type_check(NULL, type, "MPI_Status_set_elements")))
		return err;
	status->smpi_bytes = smpi_elements_bytes(type, count);
	return MPI_SUCCESS;
}

int64_t smpi_elements_bytes(MPI_Datatype type, int64_t count)
{
	int64_t n = dt_root(type->dt)->nbasic;

	/* Elements of a type larger than 2 GiB times their number need not
	 * fit 64 bits on the way. */
	return n ? (int64_t)((__int128)count * smpi_type_size(type) / n) : 0;
}

int PMPI_Status_set_cancelled(MPI_Status *status, int flag)
{
	if (!status)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Status_set_cancelled", "status pointer is NULL");
	status->smpi_cancelled = flag;
	return MPI_SUCCESS;
}

/* MPI 4.1's accessors of the public fields, for languages that cannot
 * name them (the tools and the bindings of other languages). */
#define STATUS_FIELD(FIELD, name)						\
	int PMPI_Status_get_##name(MPI_Status *status, int *name)			\
	{									\
		if (!status || !name)						\
			return smpi_err(NULL, MPI_ERR_ARG, "MPI_Status_get_" #name,	\
					"NULL argument");				\
		*name = status->FIELD;						\
		return MPI_SUCCESS;						\
	}									\
	int PMPI_Status_set_##name(MPI_Status *status, int name)			\
	{									\
		if (!status)							\
			return smpi_err(NULL, MPI_ERR_ARG, "MPI_Status_set_" #name,	\
					"status pointer is NULL");			\
		status->FIELD = name;						\
		return MPI_SUCCESS;						\
	}									\
	SMPI_ALIAS(Status_get_##name)						\
	SMPI_ALIAS(Status_set_##name)
STATUS_FIELD(MPI_SOURCE, source)
STATUS_FIELD(MPI_TAG, tag)
STATUS_FIELD(MPI_ERROR, error)
#undef STATUS_FIELD

SMPI_ALIAS(Send)
SMPI_ALIAS(Ssend)
SMPI_ALIAS(Rsend)
SMPI_ALIAS(Bsend)
SMPI_ALIAS(Recv)
SMPI_ALIAS(Isend)
SMPI_ALIAS(Issend)
SMPI_ALIAS(Irsend)
SMPI_ALIAS(Ibsend)
SMPI_ALIAS(Irecv)
SMPI_ALIAS(Send_init)
SMPI_ALIAS(Ssend_init)
SMPI_ALIAS(Rsend_init)
SMPI_ALIAS(Bsend_init)
SMPI_ALIAS(Recv_init)
SMPI_ALIAS(Sendrecv)
SMPI_ALIAS(Sendrecv_replace)
SMPI_ALIAS(Probe)
SMPI_ALIAS(Iprobe)
SMPI_ALIAS(Get_count)
SMPI_ALIAS(Get_elements)
SMPI_ALIAS(Get_elements_x)
SMPI_ALIAS(Status_set_elements)
SMPI_ALIAS(Status_set_cancelled)
