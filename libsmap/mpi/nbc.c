/*
 * nbc.c - the schedule engine under nonblocking, persistent and
 * neighborhood collectives (nbc.h).
 *
 * Progress: every schedule that is started and not complete sits on one
 * list, and smpi_progress (p2p.c) - which every MPI call that waits or
 * tests runs, as do blocking point-to-point calls while they wait - calls
 * smpi_nbc_progress, which moves each of them as far as its messages
 * allow.  Nothing runs in the background: a schedule moves when its rank
 * is inside MPI.  A blocking collective of the SMARTMAP engine runs
 * progress while it waits too (coll_idle): a member may be waiting for
 * this rank's part of a nonblocking collective before it joins, or for
 * point-to-point progress here.
 */
#include <stdlib.h>
#include <string.h>
#include "nbc.h"
#include "../coll/coll.h"

/* The library context's tags 0 and 1 are communicator construction's
 * and blocking collectives' across nodes (coll_span.c); a collective's
 * two tags are NBC_TAG0 + 2 * (its sequence number) and the next. */
#define NBC_TAG0	2
#define NBC_SEQS	(1u << 29)

enum { NBC_SEND, NBC_RECV, NBC_COPY, NBC_REDUCE, NBC_CALL, NBC_END };

struct nbc_step {
	int what;
	int peer, tag;
	MPI_Comm comm;		/* SEND, RECV on another route (nbc_send_on), or NULL */
	int ctx;
	void (*call)(struct smpi_nbc *s, void *arg);	/* CALL, with dst */
	const void *src;	/* SEND, COPY, REDUCE */
	void *dst;		/* RECV, COPY, REDUCE */
	int64_t count, scount;
	MPI_Datatype type, stype;
	MPI_Op op;
	int status;		/* RECV: its status is the request's */
	struct smpi_req *req;	/* a message in flight */
};

/*
 * Scratch blocks of finished schedules, kept for the next ones: a large
 * block from malloc is fresh mmap'd memory each time, and faulting its
 * pages in cost a 1 MiB Iallreduce 10x the time of the blocking one.
 */
#define NBC_KEEP	8

struct nbc_block {
	size_t cap;
	char data[] __attribute__((aligned(64)));
};

/* A user op's copy: the user may free the op before the schedule runs. */
struct nbc_uop {
	struct nbc_uop *next;
	MPI_Op of;
	struct smpi_op op;
};

struct smpi_nbc {
	MPI_Comm comm;
	int ctx, tag;
	int p2p;		/* the user's messages: tags are the user's */
	struct nbc_step *step;
	int n, cap;
	int cur;		/* first step of the round under way */
	int posted;		/* its messages are started */
	int err;
	MPI_Status status;
	struct nbc_block **tmp;	/* its scratch */
	int ntmp;
	struct nbc_uop *uops;
	struct smpi_req *req;
	struct smpi_nbc *next;	/* started schedules */
};

static struct smpi_nbc *nbc_active;
int smpi_nbc_active;

static struct nbc_block *nbc_kept[NBC_KEEP];

static void *nbc_alloc(size_t bytes)
{
	void *p = malloc(bytes ? bytes : 1);

	if (!p)
		smpi_fatal("MPI: no memory for a collective's schedule (%zu bytes)", bytes);
	return p;
}

static struct smpi_nbc *nbc_make(MPI_Comm comm)
{
	struct smpi_nbc *s = nbc_alloc(sizeof *s);

	memset(s, 0, sizeof *s);
	s->comm = comm;
	smpi_comm_hold(comm);
	return s;
}

int nbc_tag_next(MPI_Comm comm)
{
	return NBC_TAG0 + 2 * (int)(comm->nbc_seq++ % NBC_SEQS);
}

struct smpi_nbc *nbc_new(MPI_Comm comm)
{
	struct smpi_nbc *s = nbc_make(comm);

	s->ctx = comm->ctx + SMPI_MAX_CTX;
	s->tag = nbc_tag_next(comm);
	return s;
}

struct smpi_nbc *nbc_new_tagged(MPI_Comm comm, int tag)
{
	struct smpi_nbc *s = nbc_make(comm);

	s->ctx = comm->ctx + SMPI_MAX_CTX;
	s->tag = tag;
	return s;
}

MPI_Comm smpi_nbc_comm(const struct smpi_nbc *s)
{
	return s->comm;
}

int smpi_nbc_tag(const struct smpi_nbc *s)
{
	return s->tag;
}

struct smpi_nbc *nbc_new_p2p(MPI_Comm comm)
{
	struct smpi_nbc *s = nbc_make(comm);

	s->ctx = comm->ctx;
	s->p2p = 1;
	return s;
}

static struct nbc_step *nbc_add(struct smpi_nbc *s, int what)
{
	struct nbc_step *st;

	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->step = realloc(s->step, s->cap * sizeof *s->step);
		if (!s->step)
			smpi_fatal("MPI: no memory for a collective's schedule (%d steps)", s->cap);
	}
	st = &s->step[s->n++];
	memset(st, 0, sizeof *st);
	st->what = what;
	return st;
}

static void nbc_msg(struct smpi_nbc *s, int what, const void *buf, int64_t count,
		    MPI_Datatype type, int peer, int sub)
{
	struct nbc_step *st;

	if (peer == MPI_PROC_NULL)
		return;
	st = nbc_add(s, what);
	st->src = buf;
	st->dst = (void *)buf;
	st->count = count;
	st->type = type;
	st->peer = peer;
	st->tag = s->p2p ? sub : s->tag + sub;
	smpi_type_hold(type);
}

void nbc_send(struct smpi_nbc *s, const void *buf, int64_t count, MPI_Datatype type, int peer,
	      int sub)
{
	nbc_msg(s, NBC_SEND, buf, count, type, peer, sub);
}

void nbc_recv(struct smpi_nbc *s, void *buf, int64_t count, MPI_Datatype type, int peer,
	      int sub)
{
	nbc_msg(s, NBC_RECV, buf, count, type, peer, sub);
}

static void nbc_msg_on(struct smpi_nbc *s, int what, const void *buf, int64_t count,
		       MPI_Datatype type, int peer, MPI_Comm comm, int ctx, int tag)
{
	struct nbc_step *st;

	nbc_msg(s, what, buf, count, type, peer, 0);
	st = &s->step[s->n - 1];
	st->comm = comm;
	st->ctx = ctx;
	st->tag = tag;
	smpi_comm_hold(comm);
}

void nbc_send_on(struct smpi_nbc *s, const void *buf, int64_t count, MPI_Datatype type, int peer,
		 MPI_Comm comm, int ctx, int tag)
{
	nbc_msg_on(s, NBC_SEND, buf, count, type, peer, comm, ctx, tag);
}

void nbc_recv_on(struct smpi_nbc *s, void *buf, int64_t count, MPI_Datatype type, int peer,
		 MPI_Comm comm, int ctx, int tag)
{
	nbc_msg_on(s, NBC_RECV, buf, count, type, peer, comm, ctx, tag);
}

void nbc_call(struct smpi_nbc *s, void (*fn)(struct smpi_nbc *s, void *arg), void *arg)
{
	struct nbc_step *st = nbc_add(s, NBC_CALL);

	st->call = fn;
	st->dst = arg;
}

void nbc_fail(struct smpi_nbc *s, int err)
{
	if (!s->err)
		s->err = err;
}

void nbc_recv_status(struct smpi_nbc *s)
{
	if (s->n && s->step[s->n - 1].what == NBC_RECV)
		s->step[s->n - 1].status = 1;
}

void nbc_copy(struct smpi_nbc *s, void *dst, int64_t rcount, MPI_Datatype rtype,
	      const void *src, int64_t scount, MPI_Datatype stype)
{
	struct nbc_step *st = nbc_add(s, NBC_COPY);

	st->dst = dst;
	st->count = rcount;
	st->type = rtype;
	st->src = src;
	st->scount = scount;
	st->stype = stype;
	smpi_type_hold(rtype);
	smpi_type_hold(stype);
}

/* op as the schedule keeps it: a user op as a copy of its own (MPI lets
 * the user free it while a nonblocking reduction is pending). */
static MPI_Op nbc_op(struct smpi_nbc *s, MPI_Op op)
{
	struct nbc_uop *u;

	if (!op->user)
		return op;
	for (u = s->uops; u; u = u->next)
		if (u->of == op)
			return &u->op;
	u = nbc_alloc(sizeof *u);
	u->of = op;
	u->op = *op;
	u->next = s->uops;
	s->uops = u;
	return &u->op;
}

void nbc_reduce(struct smpi_nbc *s, const void *in, void *inout, int64_t count,
		MPI_Datatype type, MPI_Op op)
{
	struct nbc_step *st = nbc_add(s, NBC_REDUCE);

	st->src = in;
	st->dst = inout;
	st->count = count;
	st->type = type;
	st->op = nbc_op(s, op);
	smpi_type_hold(type);
}

void nbc_round(struct smpi_nbc *s)
{
	if (s->n && s->step[s->n - 1].what != NBC_END)
		nbc_add(s, NBC_END);
}

/* The smallest kept block of at least `bytes`, or a new one. */
static struct nbc_block *nbc_block_get(size_t bytes)
{
	struct nbc_block *b;
	int i, best = -1;

	for (i = 0; i < NBC_KEEP; i++)
		if (nbc_kept[i] && nbc_kept[i]->cap >= bytes &&
		    (best < 0 || nbc_kept[i]->cap < nbc_kept[best]->cap))
			best = i;
	if (best >= 0) {
		b = nbc_kept[best];
		nbc_kept[best] = NULL;
		return b;
	}
	b = nbc_alloc(sizeof *b + bytes);
	b->cap = bytes;
	return b;
}

/* Keeps b in place of an empty or smaller kept block, else frees it. */
static void nbc_block_put(struct nbc_block *b)
{
	int i, low = 0;

	for (i = 0; i < NBC_KEEP; i++) {
		if (!nbc_kept[i]) {
			nbc_kept[i] = b;
			return;
		}
		if (nbc_kept[i]->cap < nbc_kept[low]->cap)
			low = i;
	}
	if (nbc_kept[low]->cap < b->cap) {
		free(nbc_kept[low]);
		nbc_kept[low] = b;
		return;
	}
	free(b);
}

void *nbc_tmp(struct smpi_nbc *s, int64_t count, MPI_Datatype type)
{
	const struct dt_node *t = dt_root(type->dt);
	int64_t last = count > 0 ? (count - 1) * t->extent : 0;
	int64_t lo = (last < 0 ? last : 0) + t->true_lb;
	int64_t hi = (last > 0 ? last : 0) + t->true_ub;
	struct nbc_block *b;

	if (count <= 0)
		lo = hi = 0;
	b = nbc_block_get(hi - lo);
	s->tmp = realloc(s->tmp, (s->ntmp + 1) * sizeof *s->tmp);
	if (!s->tmp)
		smpi_fatal("MPI: no memory for a collective's schedule");
	s->tmp[s->ntmp++] = b;
	return b->data - lo;
}

int nbc_check(MPI_Comm comm, MPI_Request *request, const char *fn)
{
	int err;

	if ((err = smpi_check_init(fn)) || (err = smpi_comm_check(comm, fn)))
		return err;
	if (!request)
		return smpi_err(comm, MPI_ERR_ARG, fn, "request pointer is NULL");
	return MPI_SUCCESS;
}

/* ---- running ---- */

static void nbc_start_msg(struct smpi_nbc *s, struct nbc_step *st)
{
	MPI_Comm comm = st->comm ? st->comm : s->comm;
	int ctx = st->comm ? st->ctx : s->ctx;
	struct smpi_req *r;

	if (st->what == NBC_SEND) {
		if (smpi_p2p_send_now(st->src, st->count, st->type, st->peer, st->tag, comm, ctx,
				      SMPI_MODE_STD))
			return;
		r = smpi_req_alloc(SMPI_REQ_SEND, SMPI_MODE_STD, st->src, st->count, st->type,
				   st->peer, st->tag, comm);
	} else {
		r = smpi_req_alloc(SMPI_REQ_RECV, SMPI_MODE_STD, st->dst, st->count, st->type,
				   st->peer, st->tag, comm);
	}
	r->ctx = ctx;
	smpi_p2p_start(r);
	st->req = r;
}

/* The message of st, complete: its status (a receive's) and request go. */
static void nbc_end_msg(struct smpi_nbc *s, struct nbc_step *st)
{
	struct smpi_req *r = st->req;

	if (r->kind == SMPI_REQ_RECV) {
		if (r->status.MPI_ERROR && !s->err)
			s->err = r->status.MPI_ERROR;
		if (st->status)
			s->status = r->status;
	}
	smpi_req_free(r);
	st->req = NULL;
}

/* Step i of s: a call may add rounds to s, which moves its steps. */
static void nbc_local(struct smpi_nbc *s, int i)
{
	struct nbc_step *st = &s->step[i];

	if (st->what == NBC_CALL)
		st->call(s, st->dst);
	else if (st->what == NBC_COPY)
		smpi_type_copy(st->dst, st->count, st->type, st->src, st->scount, st->stype);
	else if (st->what == NBC_REDUCE)
		PMPI_Reduce_local_c(st->src, st->dst, st->count, st->type, st->op);
}

/* Moves s on as far as its messages allow; 1 when it is complete. */
static int nbc_advance(struct smpi_nbc *s)
{
	struct nbc_step *st;
	int i;

	for (;;) {
		if (s->posted) {
			for (i = s->cur; s->step[i].what != NBC_END; i++) {
				st = &s->step[i];
				if (!st->req)
					continue;
				if (!smpi_req_done(st->req))
					return 0;
				nbc_end_msg(s, st);
			}
			for (i = s->cur; s->step[i].what != NBC_END; i++)
				nbc_local(s, i);
			s->cur = i + 1;
			s->posted = 0;
		}
		if (s->cur >= s->n)
			return 1;
		for (i = s->cur; s->step[i].what != NBC_END; i++)
			if (s->step[i].what == NBC_SEND || s->step[i].what == NBC_RECV)
				nbc_start_msg(s, &s->step[i]);
		s->posted = 1;
	}
}

static void nbc_complete(struct smpi_nbc *s)
{
	struct smpi_req *r = s->req;

	if (s->p2p) {
		r->status = s->status;
		r->status.MPI_ERROR = s->err;
	} else {
		smpi_status_set(&r->status, MPI_ANY_SOURCE, MPI_ANY_TAG, s->err, 0);
	}
	r->state = SMPI_ST_DONE;
}

/* Guards against a schedule's own messages running progress inside it. */
static int nbc_busy;

void smpi_nbc_progress(void)
{
	struct smpi_nbc *s, **pp = &nbc_active;

	if (nbc_busy)
		return;
	nbc_busy = 1;
	while ((s = *pp)) {
		if (nbc_advance(s)) {
			*pp = s->next;
			smpi_nbc_active--;
			nbc_complete(s);
		} else {
			pp = &s->next;
		}
	}
	nbc_busy = 0;
}

/* The collective engine's waits: progress while schedules are pending,
 * and every 64th turn anyway, so that what a peer waits for meanwhile
 * moves too (its synchronous send to a receive posted here, its
 * MPI_Cancel's answer); a wait that ends sooner pays nothing. */
static void nbc_idle(void)
{
	static unsigned turns;

	if (smpi_nbc_active || !(++turns % 64))
		smpi_progress();
}

void smpi_nbc_init(void)
{
	coll_idle = nbc_idle;
}

void smpi_nbc_start(struct smpi_req *r)
{
	struct smpi_nbc *s = r->nbc;
	int busy = nbc_busy, done;

	s->cur = 0;
	s->posted = 0;
	s->err = 0;
	smpi_status_set(&s->status, MPI_PROC_NULL, MPI_ANY_TAG, MPI_SUCCESS, 0);
	r->state = SMPI_ST_POSTED;
	nbc_busy = 1;
	done = nbc_advance(s);
	nbc_busy = busy;
	if (done) {
		nbc_complete(s);
		return;
	}
	s->next = nbc_active;
	nbc_active = s;
	smpi_nbc_active++;
}

void smpi_nbc_free(struct smpi_nbc *s)
{
	int i;

	for (i = 0; i < s->n; i++) {
		struct nbc_step *st = &s->step[i];

		if (st->what == NBC_END || st->what == NBC_CALL)
			continue;
		if (st->comm)
			smpi_comm_release(st->comm);
		smpi_type_release(st->type);
		if (st->what == NBC_COPY)
			smpi_type_release(st->stype);
	}
	for (i = 0; i < s->ntmp; i++)
		nbc_block_put(s->tmp[i]);
	while (s->uops) {
		struct nbc_uop *u = s->uops;

		s->uops = u->next;
		u->op.live = 0;
		free(u);
	}
	free(s->tmp);
	free(s->step);
	smpi_comm_release(s->comm);
	free(s);
}

static struct smpi_req *nbc_request(struct smpi_nbc *s)
{
	struct smpi_req *r = smpi_req_alloc(SMPI_REQ_COLL, SMPI_MODE_STD, NULL, 0, MPI_BYTE,
					    MPI_PROC_NULL, 0, s->comm);

	nbc_round(s);
	r->nbc = s;
	s->req = r;
	return r;
}

void nbc_post(struct smpi_nbc *s, MPI_Request *request)
{
	struct smpi_req *r = nbc_request(s);

	smpi_nbc_start(r);
	*request = r;
}

void nbc_persist(struct smpi_nbc *s, MPI_Request *request)
{
	struct smpi_req *r = nbc_request(s);

	r->persistent = 1;
	smpi_status_set(&r->status, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_SUCCESS, 0);
	*request = r;
}

int nbc_run(struct smpi_nbc *s)
{
	struct smpi_req *r = nbc_request(s);
	int err;

	smpi_nbc_start(r);
	smpi_req_wait(r);
	err = r->status.MPI_ERROR;
	smpi_req_free(r);
	return err;
}

/* ---- builders ---- */

void nbc_build_bcast(struct smpi_nbc *s, void *buf, int64_t count, MPI_Datatype type, int root)
{
	int p = s->comm->size, v = (s->comm->rank - root + p) % p, mask;

	for (mask = 1; mask < p; mask <<= 1)
		if (v & mask) {
			nbc_recv(s, buf, count, type, (v - mask + root) % p, 0);
			nbc_round(s);
			break;
		}
	for (mask >>= 1; mask > 0; mask >>= 1)
		if (v + mask < p)
			nbc_send(s, buf, count, type, (v + mask + root) % p, 0);
	nbc_round(s);
}

void nbc_build_reduce(struct smpi_nbc *s, const void *src, void *dst, int64_t count,
		      MPI_Datatype type, MPI_Op op, int root)
{
	MPI_Comm comm = s->comm;
	int p = comm->size, top = op->commute ? root : 0;
	int v = (comm->rank - top + p) % p, mask, i = 0;
	const void *acc = src;
	void *tmp[2] = { NULL, NULL };

	/* Member v's subtree is [v, v + mask) before each step, its child's
	 * the next mask members: acc op child keeps member order. */
	for (mask = 1; mask < p; mask <<= 1) {
		if (v & mask) {
			nbc_send(s, acc, count, type, (v - mask + top) % p, 0);
			nbc_round(s);
			break;
		}
		if (v + mask < p) {
			if (!tmp[i])
				tmp[i] = nbc_tmp(s, count, type);
			nbc_recv(s, tmp[i], count, type, (v + mask + top) % p, 0);
			nbc_reduce(s, acc, tmp[i], count, type, op);
			nbc_round(s);
			acc = tmp[i];
			i ^= 1;
		}
	}
	if (v == 0) {
		if (top == comm->rank && root == comm->rank) {
			if (acc != dst)
				nbc_copy(s, dst, count, type, acc, count, type);
		} else {
			nbc_send(s, acc, count, type, root, 1);
		}
		nbc_round(s);
	} else if (comm->rank == root) {
		nbc_recv(s, dst, count, type, top, 1);
		nbc_round(s);
	}
}
