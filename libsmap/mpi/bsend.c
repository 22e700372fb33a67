/*
 * bsend.c - buffered sends: attached buffers, carved first-fit into one
 * block per message in flight.
 *
 * A buffer belongs to the process (MPI_Buffer_attach), to a communicator
 * or to a session (MPI 4.1); a buffered send uses its communicator's,
 * else its communicator's session's, else the process's.  Each block
 * starts with a header of MPI_BSEND_OVERHEAD bytes (what the standard
 * tells users to reserve per message) linking the live blocks of its pool
 * in address order.  A buffered send packs its data into a block and hands
 * a standard send of the packed bytes to progress; the block is released
 * when that send completes.  MPI_BUFFER_AUTOMATIC: each block is allocated
 * for its message and freed with it.
 */
#include <stdlib.h>
#include <string.h>
#include "impl.h"

char smpi_buffer_automatic[1];

/* An MPI_Buffer_iflush (or Comm_/Session_) not yet complete: its request
 * (SMPI_REQ_LOCAL) is done once every block older than it is gone. */
struct bsend_flush {
	struct bsend_flush *next;
	struct smpi_req *req;
	uint64_t upto;		/* blocks numbered below it were in flight */
};

struct smpi_bpool {
	char *buf;		/* 16-byte aligned start of the room */
	size_t size;
	void *user;		/* as attached, MPI_BUFFER_AUTOMATIC, or NULL: none */
	MPI_Count user_size;
	struct bsend_blk *live;	/* in address order (automatic: newest first) */
	uint64_t seq;		/* blocks handed out so far */
	struct bsend_flush *flushes;
};

struct bsend_blk {
	struct bsend_blk *next;
	struct smpi_bpool *pool;
	size_t len;		/* header included */
	uint64_t seq;
};

_Static_assert(sizeof(struct bsend_blk) <= MPI_BSEND_OVERHEAD, "header fits the overhead");

static struct smpi_bpool bsend_process;

static size_t bsend_align(size_t n)
{
	return (n + 15) & ~(size_t)15;
}

static int pool_attach(struct smpi_bpool *p, void *buffer, MPI_Count size, MPI_Comm comm,
		       const char *fn)
{
	int err;

	if ((err = smpi_check_init(fn)))
		return err;
	if (p->user)
		return smpi_err(comm, MPI_ERR_BUFFER, fn, "a buffer is already attached");
	if (buffer == MPI_BUFFER_AUTOMATIC) {
		p->user = buffer;
		p->user_size = 0;
		return MPI_SUCCESS;
	}
	if (size < 0 || (size && !buffer))
		return smpi_err(comm, MPI_ERR_BUFFER, fn, "bad buffer (size %lld)", (long long)size);
	/* Blocks are 16-byte aligned inside the buffer; detach hands back
	 * what the program attached. */
	p->user = buffer;
	p->user_size = size;
	p->buf = (char *)bsend_align((uintptr_t)buffer);
	p->size = (char *)buffer + size < p->buf ? 0 :
		(size_t)size - (size_t)(p->buf - (char *)buffer);
	return MPI_SUCCESS;
}

/* Progress until every block of the pool is gone (a detach, a flush). */
static void pool_drain(struct smpi_bpool *p)
{
	unsigned spins = 0;

	while (p->live) {
		smpi_progress();
		smpi_spin(&spins);
	}
}

/* The size as attached goes out through an int or an MPI_Count. */
static int pool_detach(struct smpi_bpool *p, void *buffer_addr, MPI_Count *size, const char *fn)
{
	int err;

	if ((err = smpi_check_init(fn)))
		return err;
	if (!buffer_addr || !size)
		return smpi_err(NULL, MPI_ERR_ARG, fn, "NULL argument");
	pool_drain(p);
	*(void **)buffer_addr = p->user;
	*size = p->user ? p->user_size : 0;
	p->user = NULL;
	p->buf = NULL;
	p->size = 0;
	return MPI_SUCCESS;
}

/* Completes the pool's flushes that no live block is older than. */
static void pool_flushed(struct smpi_bpool *p)
{
	struct bsend_flush **fp = &p->flushes, *f;
	uint64_t oldest = p->seq;
	struct bsend_blk *b;

	for (b = p->live; b; b = b->next)
		if (b->seq < oldest)
			oldest = b->seq;
	while ((f = *fp)) {
		if (f->upto > oldest) {
			fp = &f->next;
			continue;
		}
		__atomic_store_n(&f->req->state, SMPI_ST_DONE, __ATOMIC_RELEASE);
		*fp = f->next;
		free(f);
	}
}

static int pool_iflush(struct smpi_bpool *p, MPI_Request *request, const char *fn)
{
	struct bsend_flush *f;
	int err;

	if ((err = smpi_check_init(fn)))
		return err;
	if (!request)
		return smpi_err(NULL, MPI_ERR_ARG, fn, "request pointer is NULL");
	if (!(f = calloc(1, sizeof *f)))
		return smpi_err(NULL, MPI_ERR_NO_MEM, fn, "no memory");
	f->req = smpi_req_alloc(SMPI_REQ_LOCAL, SMPI_MODE_STD, NULL, 0, MPI_BYTE, MPI_PROC_NULL, 0,
				MPI_COMM_SELF);
	smpi_status_set(&f->req->status, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_SUCCESS, 0);
	f->req->state = SMPI_ST_POSTED;
	*request = f->req;
	f->upto = p->seq;
	f->next = p->flushes;
	p->flushes = f;
	pool_flushed(p);
	return MPI_SUCCESS;
}

static int pool_flush(struct smpi_bpool *p, const char *fn)
{
	int err;

	if ((err = smpi_check_init(fn)))
		return err;
	pool_drain(p);
	return MPI_SUCCESS;
}

int PMPI_Buffer_attach(void *buffer, int size)
{
	return pool_attach(&bsend_process, buffer, size, NULL, "MPI_Buffer_attach");
}

/* The int forms of the detaches: the size as attached through an int. */
static int int_size(int err, const MPI_Count *n, int *size)
{
	if (!err)
		*size = (int)*n;
	return err;
}

int PMPI_Buffer_detach(void *buffer_addr, int *size)
{
	MPI_Count n = 0;

	return int_size(pool_detach(&bsend_process, buffer_addr, size ? &n : NULL,
				    "MPI_Buffer_detach"), &n, size);
}

int PMPI_Buffer_attach_c(void *buffer, MPI_Count size)
{
	return pool_attach(&bsend_process, buffer, size, NULL, "MPI_Buffer_attach_c");
}

int PMPI_Buffer_detach_c(void *buffer_addr, MPI_Count *size)
{
	return pool_detach(&bsend_process, buffer_addr, size, "MPI_Buffer_detach_c");
}

int PMPI_Buffer_flush(void)
{
	return pool_flush(&bsend_process, "MPI_Buffer_flush");
}

int PMPI_Buffer_iflush(MPI_Request *request)
{
	return pool_iflush(&bsend_process, request, "MPI_Buffer_iflush");
}

/* A communicator's or a session's pool, made at its first attach. */
static struct smpi_bpool *pool_of(struct smpi_bpool **pp, MPI_Comm comm, const char *fn)
{
	if (!*pp && !(*pp = calloc(1, sizeof **pp)))
		smpi_err(comm, MPI_ERR_NO_MEM, fn, "no memory");
	return *pp;
}

void smpi_bpool_free(struct smpi_bpool **pp)
{
	if (!*pp)
		return;
	pool_drain(*pp);
	free(*pp);
	*pp = NULL;
}

static int comm_pool(MPI_Comm comm, const char *fn)
{
	int err;

	if ((err = smpi_check_init(fn)) || (err = smpi_comm_check(comm, fn)))
		return err;
	return pool_of(&comm->bpool, comm, fn) ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

int PMPI_Comm_attach_buffer_c(MPI_Comm comm, void *buffer, MPI_Count size)
{
	const char *fn = "MPI_Comm_attach_buffer";
	int err;

	if ((err = comm_pool(comm, fn)))
		return err;
	return pool_attach(comm->bpool, buffer, size, comm, fn);
}

int PMPI_Comm_attach_buffer(MPI_Comm comm, void *buffer, int size)
{
	return PMPI_Comm_attach_buffer_c(comm, buffer, size);
}

int PMPI_Comm_detach_buffer_c(MPI_Comm comm, void *buffer_addr, MPI_Count *size)
{
	const char *fn = "MPI_Comm_detach_buffer";
	int err;

	if ((err = comm_pool(comm, fn)))
		return err;
	return pool_detach(comm->bpool, buffer_addr, size, fn);
}

int PMPI_Comm_detach_buffer(MPI_Comm comm, void *buffer_addr, int *size)
{
	MPI_Count n = 0;

	return int_size(PMPI_Comm_detach_buffer_c(comm, buffer_addr, size ? &n : NULL), &n, size);
}

int PMPI_Comm_flush_buffer(MPI_Comm comm)
{
	const char *fn = "MPI_Comm_flush_buffer";
	int err;

	if ((err = comm_pool(comm, fn)))
		return err;
	return pool_flush(comm->bpool, fn);
}

int PMPI_Comm_iflush_buffer(MPI_Comm comm, MPI_Request *request)
{
	const char *fn = "MPI_Comm_iflush_buffer";
	int err;

	if ((err = comm_pool(comm, fn)))
		return err;
	return pool_iflush(comm->bpool, request, fn);
}

/* The session's pool, made when first asked for (make). */
static int session_pool(MPI_Session session, int make, struct smpi_bpool **out, const char *fn)
{
	struct smpi_bpool **pp;
	int err;

	if ((err = smpi_check_init(fn)) || (err = smpi_session_bpool(session, &pp, fn)))
		return err;
	if (make && !pool_of(pp, NULL, fn))
		return MPI_ERR_NO_MEM;
	*out = *pp;
	return MPI_SUCCESS;
}

int PMPI_Session_attach_buffer_c(MPI_Session session, void *buffer, MPI_Count size)
{
	const char *fn = "MPI_Session_attach_buffer";
	struct smpi_bpool *p;
	int err;

	if ((err = session_pool(session, 1, &p, fn)))
		return err;
	return pool_attach(p, buffer, size, NULL, fn);
}

int PMPI_Session_attach_buffer(MPI_Session session, void *buffer, int size)
{
	return PMPI_Session_attach_buffer_c(session, buffer, size);
}

int PMPI_Session_detach_buffer_c(MPI_Session session, void *buffer_addr, MPI_Count *size)
{
	const char *fn = "MPI_Session_detach_buffer";
	struct smpi_bpool *p;
	int err;

	if ((err = session_pool(session, 1, &p, fn)))
		return err;
	return pool_detach(p, buffer_addr, size, fn);
}

int PMPI_Session_detach_buffer(MPI_Session session, void *buffer_addr, int *size)
{
	MPI_Count n = 0;

	return int_size(PMPI_Session_detach_buffer_c(session, buffer_addr, size ? &n : NULL), &n,
			size);
}

int PMPI_Session_flush_buffer(MPI_Session session)
{
	const char *fn = "MPI_Session_flush_buffer";
	struct smpi_bpool *p;
	int err;

	if ((err = session_pool(session, 0, &p, fn)))
		return err;
	return p ? pool_flush(p, fn) : MPI_SUCCESS;
}

int PMPI_Session_iflush_buffer(MPI_Session session, MPI_Request *request)
{
	const char *fn = "MPI_Session_iflush_buffer";
	struct smpi_bpool *p;
	int err;

	if ((err = session_pool(session, 1, &p, fn)))
		return err;
	return pool_iflush(p, request, fn);
}

/* A block of len bytes (header included), or NULL.  Blocks start 16-byte
 * aligned; only the space between them is rounded, so one message of n
 * bytes fits a buffer of n + MPI_BSEND_OVERHEAD, as the standard says. */
static struct bsend_blk *bsend_alloc(struct smpi_bpool *p, size_t len)
{
	struct bsend_blk **pp = &p->live, *b;
	char *at = p->buf;

	if (p->user == MPI_BUFFER_AUTOMATIC) {
		if (!(b = malloc(len)))
			return NULL;
	} else {
		for (;;) {
			char *end = *pp ? (char *)*pp : p->buf + p->size;

			if (end >= at && (size_t)(end - at) >= len)
				break;
			if (!*pp)
				return NULL;
			at = (char *)bsend_align((uintptr_t)*pp + (*pp)->len);
			pp = &(*pp)->next;
		}
		b = (struct bsend_blk *)at;
	}
	b->len = len;
	b->pool = p;
	b->seq = p->seq++;
	b->next = *pp;
	*pp = b;
	return b;
}

/* The communicator's buffer, its session's, or the process's. */
static struct smpi_bpool *bsend_pool(MPI_Comm comm)
{
	struct smpi_bpool **sp;

	if (comm->bpool && comm->bpool->user)
		return comm->bpool;
	sp = smpi_comm_session_bpool(comm);
	if (sp && *sp && (*sp)->user)
		return *sp;
	return &bsend_process;
}

/*
 * A buffered send is local: without room in the buffer now (after
 * progress has had a chance to complete earlier sends) it fails with
 * MPI_ERR_BUFFER, as the standard says, rather than wait for a receiver.
 */
int smpi_bsend_copy(struct smpi_req *tmpl, int keep, const char *fn)
{
	int64_t bytes = tmpl->count * smpi_type_size(tmpl->type);
	size_t len = MPI_BSEND_OVERHEAD + bytes;
	struct smpi_bpool *p = bsend_pool(tmpl->comm);
	struct bsend_blk *b;
	struct smpi_req *r;
	char *data;

	if (!p->user)
		return smpi_err(tmpl->comm, MPI_ERR_BUFFER, fn, "no buffer attached (MPI_Buffer_attach)");
	if (!(b = bsend_alloc(p, len))) {
		smpi_progress();
		b = bsend_alloc(p, len);
	}
	if (!b && p->user == MPI_BUFFER_AUTOMATIC)
		return smpi_err(tmpl->comm, MPI_ERR_BUFFER, fn,
				"no memory for %lld bytes (MPI_BUFFER_AUTOMATIC)", (long long)bytes);
	if (!b)
		return smpi_err(tmpl->comm, MPI_ERR_BUFFER, fn,
				"no room for %lld bytes plus MPI_BSEND_OVERHEAD in the attached "
				"buffer of %zu bytes: earlier buffered sends still hold it",
				(long long)bytes, p->size);
	data = (char *)b + MPI_BSEND_OVERHEAD;
	smpi_type_copy(data, bytes, MPI_BYTE, tmpl->buf, tmpl->count, tmpl->type);
	r = smpi_req_alloc(SMPI_REQ_SEND, SMPI_MODE_STD, data, bytes, MPI_BYTE, tmpl->peer,
			   tmpl->tag, tmpl->comm);
	r->bbuf = b;
	smpi_p2p_start(r);
	if (keep && tmpl->inner)
		smpi_p2p_orphan(tmpl->inner);
	if (keep)
		tmpl->inner = r;
	else
		smpi_p2p_orphan(r);
	return MPI_SUCCESS;
}

void smpi_bsend_release(struct smpi_req *r)
{
	struct bsend_blk *b = r->bbuf;
	struct smpi_bpool *p = b->pool;
	struct bsend_blk **pp = &p->live;

	while (*pp && *pp != b)
		pp = &(*pp)->next;
	if (*pp)
		*pp = b->next;
	r->bbuf = NULL;
	if (p->user == MPI_BUFFER_AUTOMATIC)
		free(b);
	if (p->flushes)
		pool_flushed(p);
}

SMPI_ALIAS(Buffer_attach)
SMPI_ALIAS(Buffer_detach)
SMPI_ALIAS(Buffer_attach_c)
SMPI_ALIAS(Buffer_detach_c)
SMPI_ALIAS(Buffer_flush)
SMPI_ALIAS(Buffer_iflush)
SMPI_ALIAS(Comm_attach_buffer)
SMPI_ALIAS(Comm_detach_buffer)
SMPI_ALIAS(Comm_attach_buffer_c)
SMPI_ALIAS(Comm_detach_buffer_c)
SMPI_ALIAS(Comm_flush_buffer)
SMPI_ALIAS(Comm_iflush_buffer)
SMPI_ALIAS(Session_attach_buffer)
SMPI_ALIAS(Session_detach_buffer)
SMPI_ALIAS(Session_attach_buffer_c)
SMPI_ALIAS(Session_detach_buffer_c)
SMPI_ALIAS(Session_flush_buffer)
SMPI_ALIAS(Session_iflush_buffer)
