/*
 * part.c - MPI 4.0 partitioned point-to-point: MPI_Psend_init,
 * MPI_Precv_init, MPI_Pready(_range, _list), MPI_Parrived.
 *
 * A partitioned pair moves its whole buffer as one message of libsmap's
 * own point-to-point, on the communicator's library context (so it never
 * meets the user's messages, wildcards included), when the last send
 * partition is marked ready; MPI_Parrived says true for every partition
 * once that message is in.  Partition counts may differ on the two sides:
 * only the total matters.
 *
 * Pairing.  MPI matches partitioned operations in the order of their init
 * calls per (peer, tag, communicator), as it does messages, and each pair
 * then lives for many starts.  Psend_init gives the send a number of its
 * own and tells the receiver (tag, number) in a handshake message; every
 * Precv_init posts one receive for a handshake from its source.  The
 * handshakes from one source arrive in the order of its inits, whichever
 * of this rank's receives takes them, so part_pair gives each receive, in
 * init order, the first handshake from its source with its tag: what MPI's
 * ordering rule pairs it with.  Every start's message is tagged with the
 * sender's number, so pairs never mix, whatever order they start and
 * complete in.
 */
#include <stdlib.h>
#include <string.h>
#include "impl.h"

/* Library-context tags: nbc.c's collectives take 2 .. 2^30 + 1. */
#define PART_HS_TAG	((1 << 30) + 2)
#define PART_TAG0	((1 << 30) + 3)
#define PART_IDS	((1u << 30) - 4)

struct part_hs {
	int32_t tag;		/* the user's tag */
	uint32_t id;		/* the sender's number */
};

struct smpi_part {
	struct smpi_part *next;	/* every live partitioned request */
	struct smpi_req *req;
	int parts;		/* this side's partitions */
	int nready;		/* send: partitions marked ready since the start */
	uint8_t *ready;
	int paired;		/* recv: id is its sender's */
	uint32_t id;
	struct part_hs hs;	/* recv: what hsreq received */
	struct smpi_req *hsreq;
	struct smpi_req *data;	/* this start's message */
};

/* A handshake taken by some receive, not yet given to its pair. */
struct part_arrived {
	struct part_arrived *next;
	int ctx, src;
	struct part_hs hs;
};

static struct smpi_part *part_list, **part_tail = &part_list;
static struct part_arrived *part_arrived, **part_arrived_tail = &part_arrived;
static uint32_t part_next_id;
int smpi_part_active;		/* started requests and unpaired receives */

static int part_lib_ctx(MPI_Comm comm)
{
	return comm->ctx + SMPI_MAX_CTX;
}

static struct smpi_req *part_msg(int kind, void *buf, int64_t count, MPI_Datatype type, int peer,
				 int tag, MPI_Comm comm)
{
	struct smpi_req *r = smpi_req_alloc(kind, SMPI_MODE_STD, buf, count, type, peer, tag, comm);

	r->ctx = part_lib_ctx(comm);
	smpi_p2p_start(r);
	return r;
}

/* Handshakes in, in the order they arrived; then each unpaired receive,
 * in init order, takes the first from its source with its tag. */
static void part_pair(void)
{
	struct smpi_part *p;

	for (p = part_list; p; p = p->next) {
		struct part_arrived *a;

		if (!p->hsreq || !smpi_req_done(p->hsreq))
			continue;
		a = malloc(sizeof *a);
		if (!a)
			smpi_fatal("MPI: no memory for a partitioned handshake");
		a->next = NULL;
		a->ctx = p->hsreq->ctx;
		a->src = p->req->peer;
		a->hs = p->hs;
		*part_arrived_tail = a;
		part_arrived_tail = &a->next;
		smpi_req_free(p->hsreq);
		p->hsreq = NULL;
	}
	for (p = part_list; p; p = p->next) {
		struct part_arrived **pa, *a;

		if (p->req->kind != SMPI_REQ_PART_RECV || p->paired)
			continue;
		for (pa = &part_arrived; *pa; pa = &(*pa)->next)
			if ((*pa)->ctx == part_lib_ctx(p->req->comm) && (*pa)->src == p->req->peer &&
			    (*pa)->hs.tag == p->req->tag)
				break;
		if (!*pa)
			continue;
		a = *pa;
		p->id = a->hs.id;
		p->paired = 1;
		smpi_part_active--;
		*pa = a->next;
		if (!*pa)
			part_arrived_tail = pa;
		free(a);
	}
}

/* One step of a started request: its message posted once it can be,
 * and the request done once the message is. */
static void part_step(struct smpi_part *p)
{
	struct smpi_req *r = p->req;

	if (r->state != SMPI_ST_POSTED)
		return;
	if (!p->data && r->kind == SMPI_REQ_PART_RECV && p->paired)
		p->data = part_msg(SMPI_REQ_RECV, (void *)r->buf, r->count, r->type, r->peer,
				   PART_TAG0 + (int)p->id, r->comm);
	if (!p->data && r->kind == SMPI_REQ_PART_SEND && p->nready == p->parts)
		p->data = part_msg(SMPI_REQ_SEND, (void *)r->buf, r->count, r->type, r->peer,
				   PART_TAG0 + (int)p->id, r->comm);
	if (!p->data || !smpi_req_done(p->data))
		return;
	r->status = p->data->status;
	r->status.MPI_SOURCE = r->kind == SMPI_REQ_PART_RECV ? r->peer : MPI_ANY_SOURCE;
	r->status.MPI_TAG = r->kind == SMPI_REQ_PART_RECV ? r->tag : MPI_ANY_TAG;
	smpi_req_free(p->data);
	p->data = NULL;
	r->state = SMPI_ST_DONE;
	smpi_part_active--;
}

void smpi_part_progress(void)
{
	struct smpi_part *p;

	part_pair();
	for (p = part_list; p; p = p->next)
		part_step(p);
}

void smpi_part_start(struct smpi_req *r)
{
	struct smpi_part *p = r->part;

	smpi_status_set(&r->status, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_SUCCESS, 0);
	if (r->peer == MPI_PROC_NULL) {
		smpi_status_set(&r->status, MPI_PROC_NULL, MPI_ANY_TAG, MPI_SUCCESS, 0);
		r->state = SMPI_ST_DONE;
		return;
	}
	p->nready = 0;
	if (p->ready)
		memset(p->ready, 0, (size_t)p->parts);
	r->state = SMPI_ST_POSTED;
	smpi_part_active++;
	smpi_part_progress();
}

void smpi_part_free(struct smpi_req *r)
{
	struct smpi_part *p = r->part, **pp;

	/* A handshake this receive took may be another's: hand it on first. */
	part_pair();
	for (pp = &part_list; *pp != p; pp = &(*pp)->next)
		;
	*pp = p->next;
	if (!*pp)
		part_tail = pp;
	if (p->hsreq) {
		smpi_p2p_cancel(p->hsreq);
		if (smpi_req_done(p->hsreq))
			smpi_req_free(p->hsreq);
		else
			smpi_p2p_orphan(p->hsreq);
	}
	if (r->kind == SMPI_REQ_PART_RECV && !p->paired && r->peer != MPI_PROC_NULL)
		smpi_part_active--;
	free(p->ready);
	free(p);
	r->part = NULL;
}

static int part_init(int kind, const void *buf, int partitions, MPI_Count count,
		     MPI_Datatype type, int peer, int tag, MPI_Comm comm, MPI_Request *request,
		     const char *fn)
{
	int recv = kind == SMPI_REQ_PART_RECV, err;
	struct smpi_part *p;
	struct smpi_req *r;
	int64_t total;

	if ((err = smpi_check_init(fn)) || (err = smpi_comm_check(comm, fn)))
		return err;
	if (!request)
		return smpi_err(comm, MPI_ERR_ARG, fn, "request pointer is NULL");
	if (partitions < 1)
		return smpi_err(comm, MPI_ERR_ARG, fn, "%d partitions: at least 1", partitions);
	if (count < 0 || __builtin_mul_overflow((int64_t)partitions, (int64_t)count, &total))
		return smpi_err(comm, MPI_ERR_COUNT, fn, "count %lld is not valid", (long long)count);
	if ((err = smpi_type_check(comm, type, fn)) ||
	    (peer != MPI_PROC_NULL && (err = smpi_buf_check(comm, buf, total, type, fn))))
		return err;
	if (tag < 0 || tag > SMPI_TAG_UB)
		return smpi_err(comm, MPI_ERR_TAG, fn, "tag %d is not valid (no wildcards)", tag);
	if ((err = smpi_rank_check(comm, peer, 0, fn)))
		return err;
	p = calloc(1, sizeof *p);
	if (!p || (!recv && !(p->ready = calloc((size_t)partitions, 1))))
		smpi_fatal("%s: no memory for %d partitions", fn, partitions);
	r = smpi_req_alloc(kind, SMPI_MODE_STD, buf, total, type, peer, tag, comm);
	r->persistent = 1;
	r->part = p;
	p->req = r;
	p->parts = partitions;
	*part_tail = p;
	part_tail = &p->next;
	if (peer != MPI_PROC_NULL && recv) {
		p->hsreq = part_msg(SMPI_REQ_RECV, &p->hs, sizeof p->hs, MPI_BYTE, peer, PART_HS_TAG,
				    comm);
		smpi_part_active++;
	} else if (peer != MPI_PROC_NULL) {
		struct part_hs hs = { tag, part_next_id++ % PART_IDS };

		p->id = hs.id;
		smpi_p2p_send(&hs, sizeof hs, MPI_BYTE, peer, PART_HS_TAG, comm, part_lib_ctx(comm),
			      SMPI_MODE_STD);
	}
	*request = r;
	return MPI_SUCCESS;
}

int PMPI_Psend_init(const void *buf, int partitions, MPI_Count count, MPI_Datatype type,
		    int dest, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	(void)info;
	return part_init(SMPI_REQ_PART_SEND, buf, partitions, count, type, dest, tag, comm, request,
			 "MPI_Psend_init");
}

int PMPI_Precv_init(void *buf, int partitions, MPI_Count count, MPI_Datatype type, int source,
		    int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	(void)info;
	return part_init(SMPI_REQ_PART_RECV, buf, partitions, count, type, source, tag, comm,
			 request, "MPI_Precv_init");
}

/* The partitioned request of `kind` behind r, or an error from fn. */
static int part_check(MPI_Request r, int kind, const char *fn)
{
	int err;

	if ((err = smpi_check_init(fn)))
		return err;
	if (r == MPI_REQUEST_NULL || (err = smpi_req_check(1, &r, fn)))
		return r == MPI_REQUEST_NULL ?
			smpi_err(NULL, MPI_ERR_REQUEST, fn, "request is MPI_REQUEST_NULL") : err;
	if (r->kind != kind)
		return smpi_err(r->comm, MPI_ERR_REQUEST, fn, "not a partitioned %s request",
				kind == SMPI_REQ_PART_SEND ? "send" : "receive");
	return MPI_SUCCESS;
}

static int part_ready(MPI_Request r, int partition, const char *fn)
{
	struct smpi_part *p = r->part;

	if (partition < 0 || partition >= p->parts)
		return smpi_err(r->comm, MPI_ERR_ARG, fn, "partition %d is not in 0..%d", partition,
				p->parts - 1);
	if (r->peer == MPI_PROC_NULL)
		return MPI_SUCCESS;
	if (r->state != SMPI_ST_POSTED)
		return smpi_err(r->comm, MPI_ERR_REQUEST, fn, "the request is not active");
	if (p->ready[partition])
		return smpi_err(r->comm, MPI_ERR_ARG, fn, "partition %d is ready already", partition);
	p->ready[partition] = 1;
	if (++p->nready == p->parts)
		part_step(p);
	return MPI_SUCCESS;
}

int PMPI_Pready(int partition, MPI_Request request)
{
	int err = part_check(request, SMPI_REQ_PART_SEND, "MPI_Pready");

	return err ? err : part_ready(request, partition, "MPI_Pready");
}

int PMPI_Pready_range(int low, int high, MPI_Request request)
{
	int err = part_check(request, SMPI_REQ_PART_SEND, "MPI_Pready_range"), i;

	for (i = low; !err && i <= high; i++)
		err = part_ready(request, i, "MPI_Pready_range");
	return err;
}

int PMPI_Pready_list(int length, const int partitions[], MPI_Request request)
{
	int err = part_check(request, SMPI_REQ_PART_SEND, "MPI_Pready_list"), i;

	if (!err && length > 0 && !partitions)
		return smpi_err(request->comm, MPI_ERR_ARG, "MPI_Pready_list", "partitions is NULL");
	for (i = 0; !err && i < length; i++)
		err = part_ready(request, partitions[i], "MPI_Pready_list");
	return err;
}

int PMPI_Parrived(MPI_Request request, int partition, int *flag)
{
	int err = part_check(request, SMPI_REQ_PART_RECV, "MPI_Parrived");

	if (err)
		return err;
	if (!flag)
		return smpi_err(request->comm, MPI_ERR_ARG, "MPI_Parrived", "flag pointer is NULL");
	if (partition < 0 || partition >= request->part->parts)
		return smpi_err(request->comm, MPI_ERR_ARG, "MPI_Parrived",
				"partition %d is not in 0..%d", partition, request->part->parts - 1);
	if (request->state == SMPI_ST_POSTED)
		smpi_progress();
	/* An inactive request has nothing on its way. */
	*flag = request->state != SMPI_ST_POSTED;
	core_poll(*flag);
	return MPI_SUCCESS;
}

SMPI_ALIAS(Psend_init)
SMPI_ALIAS(Precv_init)
SMPI_ALIAS(Pready)
SMPI_ALIAS(Pready_range)
SMPI_ALIAS(Pready_list)
SMPI_ALIAS(Parrived)
