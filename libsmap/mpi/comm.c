/*
 * comm.c - communicators: creation, comparison, names and attributes.
 *
 * A communicator is a group, a context id and the maps between its ranks
 * and this node's ranks (what the transport and remote_address() take).
 * Context ids are agreed on by the new communicator's members (ctxid.c),
 * which never wait on each other's other agreements, so MPI_Comm_idup is
 * nonblocking.  The collective engine's group is made with the
 * communicator, or - after MPI_Comm_idup, whose completion runs inside
 * progress, where no member may wait for another - at its first
 * collective (smpi_comm_coll).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nbc.h"
#include "../coll/coll.h"

/* The predefined communicators' handles are never freed: their one
 * reference is never dropped. */
struct smpi_comm smpi_comm_world = { .live = SMPI_LIVE_COMM, .errh = &smpi_errh_fatal,
				     .predefined = 1, .refs = 1, .name = "MPI_COMM_WORLD" };
struct smpi_comm smpi_comm_self = { .live = SMPI_LIVE_COMM, .errh = &smpi_errh_fatal,
				    .predefined = 1, .refs = 1, .ctx = 1, .name = "MPI_COMM_SELF" };
/* Every rank, never seen by the program: MPI_Comm_create_from_group and
 * MPI_Intercomm_create_from_groups agree on their context ids over it, so
 * that their messages meet none of the program's. */
static struct smpi_comm comm_sessions = { .live = SMPI_LIVE_COMM, .errh = &smpi_errh_fatal,
					  .predefined = 1, .refs = 1, .ctx = 2,
					  .name = "the sessions' communicator" };

static int comm_fill(struct smpi_comm *c, struct smpi_group *g, int ctx)
{
	int rpn = smap_size(), node = smap_node(), i;

	c->ctx = ctx;
	c->group = g;
	c->size = g->size;
	c->rank = g->rank;
	c->local = malloc(g->size * sizeof(int));
	c->from_local = malloc(rpn * sizeof(int));
	c->from_world = malloc(smap_world_size() * sizeof(int));
	if (!c->local || !c->from_local || !c->from_world)
		return -1;
	for (i = 0; i < smap_world_size(); i++)
		c->from_world[i] = -1;
	c->onnode = 1;
	for (i = 0; i < rpn; i++)
		c->from_local[i] = -1;
	for (i = 0; i < g->size; i++) {
		int w = g->world[i];

		c->from_world[w] = i;
		c->local[i] = w / rpn == node ? w % rpn : -1;
		if (c->local[i] < 0)
			c->onnode = 0;
		else
			c->from_local[c->local[i]] = i;
	}
	smpi_ctx_take(ctx);
	return 0;
}

/* The engine's group for an on-node communicator: collective over members. */
static void comm_coll_group(struct smpi_comm *c)
{
	int *nodes, i;

	c->coll = NULL;
	c->whole = 0;
	if (!c->onnode) {
		/* Across nodes: the engine's span group, over point-to-point on
		 * the library context (coll_span.c).  The whole job in order
		 * keeps the barrier wire for its barriers. */
		for (i = 0; i < c->size && c->group->world[i] == i; i++)
			;
		c->whole = i == smap_world_size();
		c->coll = smpi_coll_span(c);
		return;
	}
	if (c->size == smap_size()) {
		for (i = 0; i < c->size && c->local[i] == i; i++)
			;
		if (i == c->size) {
			c->coll = coll_world();
			return;
		}
	}
	nodes = malloc(c->size * sizeof *nodes);
	if (!nodes)
		smpi_fatal("MPI: no memory for a communicator of %d ranks", c->size);
	for (i = 0; i < c->size; i++)
		nodes[i] = c->local[i];
	if (coll_group_create(coll_world(), c->size, nodes, &c->coll) < 0)
		smpi_fatal("MPI: the collective engine could not make a group of %d ranks", c->size);
	free(nodes);
}

void smpi_comm_init_world(void)
{
	int n = smap_world_size(), me = smap_world_rank(), i;
	int *w = malloc(n * sizeof *w);

	if (!w)
		smpi_fatal("MPI_Init: no memory for MPI_COMM_WORLD");
	smpi_ctx_init();
	for (i = 0; i < n; i++)
		w[i] = i;
	if (comm_fill(&smpi_comm_world, smpi_group_new(n, w), 0) < 0 ||
	    comm_fill(&smpi_comm_self, smpi_group_new(1, &me), 1) < 0 ||
	    comm_fill(&comm_sessions, smpi_group_new(n, w), 2) < 0)
		smpi_fatal("MPI_Init: no memory for MPI_COMM_WORLD");
	smpi_comm_world.group->predefined = 1;
	smpi_comm_self.group->predefined = 1;
	free(w);
	comm_coll_group(&smpi_comm_world);
	comm_coll_group(&smpi_comm_self);
}

int smpi_comm_check(MPI_Comm comm, const char *fn)
{
	if (comm == MPI_COMM_NULL)
		return smpi_err(NULL, MPI_ERR_COMM, fn, "communicator is MPI_COMM_NULL");
	if (!smpi_live(comm, SMPI_LIVE_COMM))
		return smpi_err(NULL, MPI_ERR_COMM, fn,
				"communicator %p is not a live communicator (garbage, or freed)",
				(void *)comm);
	return MPI_SUCCESS;
}

int smpi_intra_check(MPI_Comm comm, const char *fn)
{
	if (comm->inter)
		return smpi_err(comm, MPI_ERR_COMM, fn,
				"the communicator is an intercommunicator: MPI defines this call "
				"on intracommunicators only");
	return MPI_SUCCESS;
}

int smpi_rank_check(MPI_Comm comm, int rank, int any_ok, const char *fn)
{
	if (rank == MPI_PROC_NULL || (any_ok && rank == MPI_ANY_SOURCE))
		return MPI_SUCCESS;
	if (rank < 0 || rank >= comm->size)
		return smpi_err(comm, MPI_ERR_RANK, fn, "rank %d is not in a communicator of %d",
				rank, comm->size);
	if (comm->local[rank] < 0 && !net_up())
		return smpi_err(comm, MPI_ERR_OTHER, fn,
				"rank %d is on another node, and this node has no network", rank);
	return MPI_SUCCESS;
}

/* Every member of parent gets each member's `mine` (nmine ints, in rank
 * order, in all[n * nmine]), on the library's own context. */
static void comm_allgather_ints(MPI_Comm parent, const int *mine, int nmine, int *all)
{
	int64_t rec = (int64_t)nmine * (int64_t)sizeof(int);

	memcpy(all + parent->rank * nmine, mine, (size_t)rec);
	if (parent->rank == 0) {
		for (int i = 1; i < parent->size; i++)
			smpi_sys_recv(all + i * nmine, rec, i, parent);
		for (int i = 1; i < parent->size; i++)
			smpi_sys_send(all, rec * parent->size, i, parent);
	} else {
		smpi_sys_send(mine, rec, 0, parent);
		smpi_sys_recv(all, rec * parent->size, 0, parent);
	}
}

static int comm_no_ctx(MPI_Comm comm, const char *fn)
{
	return smpi_err(comm, MPI_ERR_INTERN, fn, "all %d context ids are in use", SMPI_MAX_CTX);
}

/* Run by every member of parent: the members' `mine` (comm_allgather_ints)
 * and a context id they agree on, taken here (-error when none is free). */
static int comm_agree(MPI_Comm parent, const int *mine, int nmine, int *all, const char *fn)
{
	struct smpi_ctx_voters v = { 0 };
	int ctx;

	if (nmine)
		comm_allgather_ints(parent, mine, nmine, all);
	ctx = smpi_ctx_agree(nbc_new(parent), &v);
	return ctx < 0 ? -comm_no_ctx(parent, fn) : ctx;
}

/* A new communicator of the world ranks w[0..n) (this rank among them);
 * later: its collective engine group waits for its first collective. */
static int comm_new(MPI_Comm parent, int n, const int *w, int ctx, MPI_Comm *out, int later,
		    const char *fn)
{
	struct smpi_comm *c = calloc(1, sizeof *c);
	struct smpi_group *g = smpi_group_new(n, w);

	if (!c || !g || comm_fill(c, g, ctx) < 0)
		smpi_fatal("%s: no memory for a communicator of %d ranks", fn, n);
	c->live = SMPI_LIVE_COMM;
	c->refs = 1;
	c->errh = smpi_errh_ref(parent->errh);
	c->session = g->session = parent->session;
	c->coll_later = later;
	if (!later)
		comm_coll_group(c);
	*out = c;
	return MPI_SUCCESS;
}

static int comm_make(MPI_Comm parent, int n, const int *w, int ctx, MPI_Comm *out,
		     const char *fn)
{
	return comm_new(parent, n, w, ctx, out, 0, fn);
}

struct coll_group *smpi_comm_coll(MPI_Comm c)
{
	if (c->coll_later) {
		c->coll_later = 0;
		comm_coll_group(c);
	}
	return c->coll;
}

/* A duplicate's attributes: a copy callback that fails fails the call
 * and leaves no communicator. */
static int comm_dup_attrs(MPI_Comm from, MPI_Comm *newcomm, const char *fn)
{
	int err = smpi_attr_copy(SMPI_ATTR_COMM, from, *newcomm, fn);

	if (err)
		PMPI_Comm_free(newcomm);
	return err;
}

/*
 * Intercommunicators.  Point-to-point on one addresses the remote group,
 * so the communicator is built on that group: its rank maps turn a remote
 * rank into a destination and a sender back into its rank in the remote
 * group, and the whole point-to-point path (SMARTMAP or network) works
 * unchanged.  What the local group does together - agreeing on context ids
 * free in every member of both groups, merging - goes through `inter`, a
 * private communicator of the local group, and its leader (rank 0)
 * talking to the remote leader.
 */

/* Exchange with `peer` of comm on its library context: both sides post
 * their receive before sending, so two leaders never wait on each other. */
static void comm_sys_sendrecv(const void *sbuf, int64_t slen, void *rbuf, int64_t rlen, int peer,
			      MPI_Comm comm)
{
	struct smpi_req s, r;

	smpi_req_init(&r, SMPI_REQ_RECV, SMPI_MODE_STD, rbuf, rlen, MPI_BYTE, peer, 0, comm);
	smpi_req_init(&s, SMPI_REQ_SEND, SMPI_MODE_STD, sbuf, slen, MPI_BYTE, peer, 0, comm);
	r.ctx = s.ctx = comm->ctx + SMPI_MAX_CTX;
	smpi_p2p_start(&r);
	smpi_p2p_start(&s);
	smpi_req_wait(&s);
	smpi_req_wait(&r);
}

/* A private communicator of local's group (a context id of its own). */
static MPI_Comm comm_private(MPI_Comm local, const char *fn)
{
	MPI_Comm c;
	int ctx, dummy = 0;

	ctx = comm_agree(local, &dummy, 0, &dummy, fn);
	if (ctx < 0)
		return NULL;
	comm_make(local, local->size, local->group->world, ctx, &c, fn);
	return c;
}

static void inter_make(MPI_Comm inter, MPI_Comm errh_from, int rsize, const int *rworld, int ctx,
		       MPI_Comm *out, const char *fn)
{
	struct smpi_comm *c = calloc(1, sizeof *c);
	struct smpi_group *g = smpi_group_new(rsize, rworld);

	if (!c || !g || comm_fill(c, g, ctx) < 0)
		smpi_fatal("%s: no memory for an intercommunicator of %d + %d ranks", fn, inter->size,
			   rsize);
	c->live = SMPI_LIVE_COMM;
	c->refs = 1;
	c->errh = smpi_errh_ref(errh_from->errh);
	c->session = g->session = inter->session;
	c->inter = inter;
	*out = c;
}

/* Who agrees on a context id for a new intercommunicator of ic's groups:
 * each local group through its leader, the leaders over ic. */
static void inter_voters(MPI_Comm ic, struct smpi_ctx_voters *v)
{
	memset(v, 0, sizeof *v);
	v->xcomm = ic;
	v->xctx = ic->ctx + SMPI_MAX_CTX;
	v->xtag = nbc_tag_next(ic);
}

/* Both groups of ic agree on a context id; the leaders also swap `n`
 * ints (mine, theirs), which every local member gets. */
static int inter_agree(MPI_Comm ic, const int *mine, int *theirs, int n, const char *fn)
{
	MPI_Comm l = ic->inter;
	struct smpi_ctx_voters v;
	int ctx;

	inter_voters(ic, &v);
	ctx = smpi_ctx_agree(nbc_new(l), &v);
	if (n) {
		if (l->rank == 0)
			comm_sys_sendrecv(mine, (int64_t)n * (int64_t)sizeof(int), theirs,
					  (int64_t)n * (int64_t)sizeof(int), 0, ic);
		PMPI_Bcast(theirs, n, MPI_INT, 0, l);
	}
	return ctx < 0 ? -comm_no_ctx(ic, fn) : ctx;
}

static int inter_dup(MPI_Comm ic, MPI_Comm *newcomm)
{
	const char *fn = "MPI_Comm_dup";
	MPI_Comm l = comm_private(ic->inter, fn);
	int ctx;

	if (!l)
		return MPI_ERR_INTERN;
	ctx = inter_agree(ic, NULL, NULL, 0, fn);
	if (ctx < 0) {
		smpi_comm_release(l);
		return -ctx;
	}
	inter_make(l, ic, ic->size, ic->group->world, ctx, newcomm, fn);
	return comm_dup_attrs(ic, newcomm, fn);
}

int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
			  int remote_leader, int tag, MPI_Comm *newintercomm)
{
	const char *fn = "MPI_Intercomm_create";
	struct smpi_ctx_voters v = { 0 };
	int err, ctx, lsize, rsize = 0, *rworld, *order;
	MPI_Comm l;

	if ((err = smpi_check_init(fn)) || (err = smpi_comm_check(local_comm, fn)) ||
	    (err = smpi_intra_check(local_comm, fn)))
		return err;
	if (!newintercomm)
		return smpi_err(local_comm, MPI_ERR_ARG, fn, "newintercomm pointer is NULL");
	if (local_leader < 0 || local_leader >= local_comm->size)
		return smpi_err(local_comm, MPI_ERR_RANK, fn,
				"local_leader %d is not in a communicator of %d", local_leader,
				local_comm->size);
	if (local_comm->rank == local_leader &&
	    ((err = smpi_comm_check(peer_comm, fn)) ||
	     (err = smpi_rank_check(peer_comm, remote_leader, 0, fn))))
		return err;
	if (local_comm->rank == local_leader && remote_leader == MPI_PROC_NULL)
		return smpi_err(local_comm, MPI_ERR_RANK, fn, "remote_leader is MPI_PROC_NULL");
	if (!(l = comm_private(local_comm, fn)))
		return MPI_ERR_INTERN;
	/* The leaders agree for their groups, then swap their groups' sizes
	 * and members, on peer_comm with the caller's tag. */
	if (!(order = malloc(l->size * sizeof(int))))
		smpi_fatal("%s: no memory for a group of %d", fn, l->size);
	for (int i = 0; i < l->size; i++)
		order[i] = i == 0 ? local_leader : i <= local_leader ? i - 1 : i;
	v.n = l->size;
	v.rank = order;
	if (l->rank == local_leader) {
		v.xcomm = peer_comm;
		v.xpeer = remote_leader;
		v.xctx = peer_comm->ctx;
		v.xtag = tag;
	}
	ctx = smpi_ctx_agree(nbc_new(l), &v);
	free(order);
	lsize = l->size;
	if (l->rank == local_leader)
		PMPI_Sendrecv(&lsize, 1, MPI_INT, remote_leader, tag, &rsize, 1, MPI_INT,
			      remote_leader, tag, peer_comm, MPI_STATUS_IGNORE);
	PMPI_Bcast(&rsize, 1, MPI_INT, local_leader, l);
	if (!(rworld = malloc(rsize * sizeof(int))))
		smpi_fatal("%s: no memory for a remote group of %d", fn, rsize);
	if (l->rank == local_leader)
		PMPI_Sendrecv(l->group->world, l->size, MPI_INT, remote_leader, tag, rworld, rsize,
			      MPI_INT, remote_leader, tag, peer_comm, MPI_STATUS_IGNORE);
	PMPI_Bcast(rworld, rsize, MPI_INT, local_leader, l);
	if (ctx < 0) {
		free(rworld);
		smpi_comm_release(l);
		return comm_no_ctx(local_comm, fn);
	}
	inter_make(l, local_comm, rsize, rworld, ctx, newintercomm, fn);
	free(rworld);
	return MPI_SUCCESS;
}

int PMPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm)
{
	const char *fn = "MPI_Intercomm_merge";
	int err, ctx, mine[2], theirs[2] = { 0, 0 }, n, *w, lowfirst;
	MPI_Comm l;

	if ((err = smpi_check_init(fn)) || (err = smpi_comm_check(intercomm, fn)))
		return err;
	if (!intercomm->inter)
		return smpi_err(intercomm, MPI_ERR_COMM, fn, "the communicator is not an "
				"intercommunicator");
	if (!newintracomm)
		return smpi_err(intercomm, MPI_ERR_ARG, fn, "newintracomm pointer is NULL");
	l = intercomm->inter;
	mine[0] = !!high;
	mine[1] = l->group->world[0];
	ctx = inter_agree(intercomm, mine, theirs, 2, fn);
	if (ctx < 0)
		return -ctx;
	/* The group that passed high = false goes first; if both passed the
	 * same, the one holding the lower world rank. */
	lowfirst = mine[0] != theirs[0] ? !mine[0] : mine[1] < theirs[1];
	n = l->size + intercomm->size;
	if (!(w = malloc(n * sizeof(int))))
		smpi_fatal("%s: no memory for a group of %d", fn, n);
	memcpy(w + (lowfirst ? 0 : intercomm->size), l->group->world, l->size * sizeof(int));
	memcpy(w + (lowfirst ? l->size : 0), intercomm->group->world,
	       intercomm->size * sizeof(int));
	comm_make(intercomm, n, w, ctx, newintracomm, fn);
	free(w);
	return MPI_SUCCESS;
}

int PMPI_Comm_remote_size(MPI_Comm comm, int *size)
{
	int err;

	if ((err = smpi_check_init("MPI_Comm_remote_size")) ||
	    (err = smpi_comm_check(comm, "MPI_Comm_remote_size")))
		return err;
	if (!comm->inter)
		return smpi_err(comm, MPI_ERR_COMM, "MPI_Comm_remote_size",
				"the communicator is not an intercommunicator");
	if (!size)
		return smpi_err(comm, MPI_ERR_ARG, "MPI_Comm_remote_size", "size pointer is NULL");
	*size = comm->size;
	return MPI_SUCCESS;
}

int PMPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group)
{
	int err;

	if ((err = smpi_check_init("MPI_Comm_remote_group")) ||
	    (err = smpi_comm_check(comm, "MPI_Comm_remote_group")))
		return err;
	if (!comm->inter)
		return smpi_err(comm, MPI_ERR_COMM, "MPI_Comm_remote_group",
				"the communicator is not an intercommunicator");
	if (!group)
		return smpi_err(comm, MPI_ERR_ARG, "MPI_Comm_remote_group", "group pointer is NULL");
	comm->group->refs++;
	*group = comm->group;
	return MPI_SUCCESS;
}

int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
	int ctx, err, dummy;

	if ((err = smpi_check_init("MPI_Comm_dup")) || (err = smpi_comm_check(comm, "MPI_Comm_dup")))
		return err;
	if (!newcomm)
		return smpi_err(comm, MPI_ERR_ARG, "MPI_Comm_dup", "newcomm pointer is NULL");
	if (comm->inter)
		return inter_dup(comm, newcomm);
	ctx = comm_agree(comm, &dummy, 0, &dummy, "MPI_Comm_dup");
	if (ctx < 0)
		return -ctx;
	comm_make(comm, comm->size, comm->group->world, ctx, newcomm, "MPI_Comm_dup");
	(*newcomm)->topo = smpi_topo_dup(comm->topo);
	return comm_dup_attrs(comm, newcomm, "MPI_Comm_dup");
}

/*
 * MPI_Comm_idup: the agreement is a schedule whose last step makes the
 * communicator, with its collective engine group left for its first
 * collective.  An intercommunicator's takes two agreements, one after the
 * other: its local group's new communicator, then its own context id.
 */
struct comm_idup {
	MPI_Comm parent;	/* held until done */
	MPI_Comm *out;
	MPI_Comm l;		/* an intercommunicator's new local group */
	int xtag;		/* its leaders' tag on parent */
	MPI_Info info;		/* MPI_Comm_idup_with_info's, kept */
};

static void idup_end(struct smpi_nbc *s, struct comm_idup *d, MPI_Comm c)
{
	int err = MPI_SUCCESS;

	if (c) {
		*d->out = c;
		if (!d->parent->inter)
			c->topo = smpi_topo_dup(d->parent->topo);
		c->info = d->info;
		err = comm_dup_attrs(d->parent, d->out, "MPI_Comm_idup");
	} else {
		smpi_info_drop(&d->info);
		err = comm_no_ctx(d->parent, "MPI_Comm_idup");
	}
	if (err)
		nbc_fail(s, err);
	smpi_comm_release(d->parent);
}

static void idup_intra_done(struct smpi_nbc *s, int ctx, void *arg)
{
	struct comm_idup *d = arg;
	MPI_Comm p = d->parent, c = NULL;

	if (ctx >= 0)
		comm_new(p, p->size, p->group->world, ctx, &c, 1, "MPI_Comm_idup");
	idup_end(s, d, c);
}

static void idup_inter_done(struct smpi_nbc *s, int ctx, void *arg)
{
	struct comm_idup *d = arg;
	MPI_Comm c = NULL;

	if (ctx >= 0)
		inter_make(d->l, d->parent, d->parent->size, d->parent->group->world, ctx, &c,
			   "MPI_Comm_idup");
	else
		smpi_comm_release(d->l);
	idup_end(s, d, c);
}

static void idup_local_done(struct smpi_nbc *s, int ctx, void *arg)
{
	struct comm_idup *d = arg;
	MPI_Comm lc = d->parent->inter;
	struct smpi_ctx_voters v = { 0 };

	if (ctx < 0) {
		idup_end(s, d, NULL);
		return;
	}
	comm_new(lc, lc->size, lc->group->world, ctx, &d->l, 1, "MPI_Comm_idup");
	v.xcomm = d->parent;
	v.xctx = d->parent->ctx + SMPI_MAX_CTX;
	v.xtag = d->xtag;
	smpi_ctx_agree_build(s, &v, idup_inter_done, d);
}

static int comm_idup(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm, MPI_Request *request,
		     const char *fn)
{
	struct smpi_ctx_voters v = { 0 };
	MPI_Info kept = NULL;
	struct comm_idup *d;
	struct smpi_nbc *s;
	int err;

	if ((err = nbc_check(comm, request, fn)))
		return err;
	if (!newcomm)
		return smpi_err(comm, MPI_ERR_ARG, fn, "newcomm pointer is NULL");
	if ((err = smpi_info_keep(&kept, info, fn)))
		return err;
	*newcomm = MPI_COMM_NULL;
	s = nbc_new(comm->inter ? comm->inter : comm);
	d = nbc_tmp(s, sizeof *d, MPI_BYTE);
	d->parent = comm;
	d->out = newcomm;
	d->l = NULL;
	d->info = kept;
	smpi_comm_hold(comm);
	if (comm->inter) {
		d->xtag = nbc_tag_next(comm);
		smpi_ctx_agree_build(s, &v, idup_local_done, d);
	} else {
		smpi_ctx_agree_build(s, &v, idup_intra_done, d);
	}
	nbc_post(s, request);
	return MPI_SUCCESS;
}

int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
	return comm_idup(comm, MPI_INFO_NULL, newcomm, request, "MPI_Comm_idup");
}

int PMPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm,
			     MPI_Request *request)
{
	return comm_idup(comm, info, newcomm, request, "MPI_Comm_idup_with_info");
}

struct comm_member {
	int color, key, rank;
};

static int comm_member_cmp(const void *a, const void *b)
{
	const struct comm_member *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->rank - y->rank;
}

/*
 * Comm_split and Comm_create on an intercommunicator (MPI 3.1 6.4.2):
 * `sub` is this member's part of the local group (from the same call on
 * the local group's private communicator, so it is a private communicator
 * itself, or NULL); the leaders swap the n ints of `mine` for the other
 * group's rn (every local member gets them), and `pick` turns those into
 * the remote members of the new intercommunicator.  Every part uses the
 * one context id both groups agree on: parts never share a member.
 */
static int inter_sub(MPI_Comm ic, MPI_Comm sub, const int *mine, int n, int rn,
		     int (*pick)(const int *theirs, int rn, const void *arg, int *rworld,
				 MPI_Comm ic),
		     const void *arg, MPI_Comm *newcomm, const char *fn)
{
	MPI_Comm l = ic->inter;
	int ctx = inter_agree(ic, NULL, NULL, 0, fn), *theirs, *rworld, k;

	theirs = malloc(((size_t)rn + (size_t)ic->size + 1) * sizeof(int));
	if (!theirs)
		smpi_fatal("%s: no memory for a remote group of %d", fn, ic->size);
	rworld = theirs + rn;
	if (l->rank == 0)
		comm_sys_sendrecv(mine, (int64_t)n * (int64_t)sizeof(int), theirs,
				  (int64_t)rn * (int64_t)sizeof(int), 0, ic);
	PMPI_Bcast(theirs, rn, MPI_INT, 0, l);
	k = pick(theirs, rn, arg, rworld, ic);
	*newcomm = MPI_COMM_NULL;
	if (ctx >= 0 && sub && k > 0) {
		inter_make(sub, ic, k, rworld, ctx, newcomm, fn);
	} else {
		if (ctx >= 0)
			smpi_ctx_release(ctx);
		if (sub)
			smpi_comm_release(sub);
	}
	free(theirs);
	return ctx < 0 ? -ctx : MPI_SUCCESS;
}

/* The other group's members of my color, in their key order. */
static int inter_split_pick(const int *theirs, int rn, const void *arg, int *rworld, MPI_Comm ic)
{
	int color = *(const int *)arg, k = 0;
	struct comm_member *m = malloc((size_t)(rn / 2 + 1) * sizeof(*m));

	if (!m)
		smpi_fatal("MPI_Comm_split: no memory");
	for (int i = 0; color != MPI_UNDEFINED && i < rn / 2; i++)
		if (theirs[2 * i] == color)
			m[k++] = (struct comm_member){ color, theirs[2 * i + 1], i };
	qsort(m, k, sizeof(*m), comm_member_cmp);
	for (int i = 0; i < k; i++)
		rworld[i] = ic->group->world[m[i].rank];
	free(m);
	return k;
}

static int inter_split(MPI_Comm ic, int color, int key, MPI_Comm *newcomm)
{
	const char *fn = "MPI_Comm_split";
	MPI_Comm l = ic->inter, sub;
	int mine[2] = { color, key }, *all, err;

	if (!(all = malloc(2 * (size_t)l->size * sizeof(int))))
		smpi_fatal("%s: no memory", fn);
	PMPI_Allgather(mine, 2, MPI_INT, all, 2, MPI_INT, l);
	if ((err = PMPI_Comm_split(l, color, key, &sub))) {
		free(all);
		return err;
	}
	err = inter_sub(ic, sub, all, 2 * l->size, 2 * ic->size, inter_split_pick, &color, newcomm,
			fn);
	free(all);
	return err;
}

/* The other group's group argument: its world ranks. */
static int inter_create_pick(const int *theirs, int rn, const void *arg, int *rworld,
			     MPI_Comm ic)
{
	(void)arg;
	(void)ic;
	memcpy(rworld, theirs, (size_t)rn * sizeof(int));
	return rn;
}

static int inter_create(MPI_Comm ic, MPI_Group group, MPI_Comm *newcomm)
{
	const char *fn = "MPI_Comm_create";
	MPI_Comm l = ic->inter, sub;
	int sizes[2] = { group->size, 0 }, err;

	/* Both groups' sizes first: each side then knows what comes. */
	if (l->rank == 0)
		comm_sys_sendrecv(sizes, sizeof(int), sizes + 1, sizeof(int), 0, ic);
	PMPI_Bcast(sizes + 1, 1, MPI_INT, 0, l);
	if (sizes[1] < 0 || sizes[1] > ic->size)
		return smpi_err(ic, MPI_ERR_GROUP, fn, "the other group's group has %d members",
				sizes[1]);
	if ((err = PMPI_Comm_create(l, group, &sub)))
		return err;
	return inter_sub(ic, sub, group->world, group->size, sizes[1], inter_create_pick, NULL,
			 newcomm, fn);
}

int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
	struct comm_member *m;
	int mine[2] = { color, key }, *all, *w, ctx, n = 0, i, err;

	if ((err = smpi_check_init("MPI_Comm_split")) || (err = smpi_comm_check(comm, "MPI_Comm_split")))
		return err;
	if (!newcomm)
		return smpi_err(comm, MPI_ERR_ARG, "MPI_Comm_split", "newcomm pointer is NULL");
	if (color < 0 && color != MPI_UNDEFINED)
		return smpi_err(comm, MPI_ERR_ARG, "MPI_Comm_split", "color %d is negative", color);
	if (comm->inter)
		return inter_split(comm, color, key, newcomm);
	all = malloc(2 * comm->size * sizeof *all);
	m = malloc(comm->size * sizeof *m);
	w = malloc(comm->size * sizeof *w);
	if (!all || !m || !w)
		smpi_fatal("MPI_Comm_split: no memory");
	ctx = comm_agree(comm, mine, 2, all, "MPI_Comm_split");
	if (ctx >= 0 && color != MPI_UNDEFINED) {
		for (i = 0; i < comm->size; i++)
			if (all[2 * i] == color) {
				m[n].color = color;
				m[n].key = all[2 * i + 1];
				m[n].rank = i;
				n++;
			}
		qsort(m, n, sizeof *m, comm_member_cmp);
		for (i = 0; i < n; i++)
			w[i] = comm->group->world[m[i].rank];
		comm_make(comm, n, w, ctx, newcomm, "MPI_Comm_split");
	} else {
		/* Taken by every member: those left out have no use for it. */
		if (ctx >= 0)
			smpi_ctx_release(ctx);
		*newcomm = MPI_COMM_NULL;
	}
	free(all);
	free(m);
	free(w);
	return ctx < 0 ? -ctx : MPI_SUCCESS;
}

/* c's info becomes key = value. */
static int comm_info_say(MPI_Comm c, const char *key, const char *value)
{
	MPI_Info i;
	int err;

	if ((err = PMPI_Info_create(&i)))
		return err;
	if (!(err = PMPI_Info_set(i, key, value)))
		err = PMPI_Comm_set_info(c, i);
	PMPI_Info_free(&i);
	return err;
}

/*
 * The hardware here has two levels: the node, whose ranks share memory
 * (MPI_COMM_TYPE_SHARED; HW_GUIDED's "mpi_shared_memory"), and the core,
 * which runs one rank.  HW_UNGUIDED gives the next level below the whole
 * of comm: its nodes when it spans several, else its cores, else (one
 * rank) nothing.  The new communicator's info names its level.
 */
int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm)
{
	const char *fn = "MPI_Comm_split_type", *level = "mpi_shared_memory";
	char want[MPI_MAX_INFO_VAL];
	int err, color = smap_node(), flag = 0;

	if ((err = smpi_check_init(fn)) || (err = smpi_comm_check(comm, fn)))
		return err;
	if (!newcomm)
		return smpi_err(comm, MPI_ERR_ARG, fn, "newcomm pointer is NULL");
	switch (split_type) {
	case MPI_UNDEFINED:
		color = MPI_UNDEFINED;
		break;
	case MPI_COMM_TYPE_SHARED:
		break;
	case MPI_COMM_TYPE_HW_GUIDED:
		if (info != MPI_INFO_NULL &&
		    (err = PMPI_Info_get(info, "mpi_hw_resource_type", sizeof want - 1, want, &flag)))
			return err;
		if (!flag || strcmp(want, level))
			color = MPI_UNDEFINED;
		break;
	case MPI_COMM_TYPE_HW_UNGUIDED:
		if (comm->onnode) {
			color = comm->size > 1 ? smap_world_rank() : MPI_UNDEFINED;
			level = "core";
		}
		break;
	default:
		return smpi_err(comm, MPI_ERR_ARG, fn, "split_type %d is not known", split_type);
	}
	if ((err = PMPI_Comm_split(comm, color, key, newcomm)) || *newcomm == MPI_COMM_NULL ||
	    split_type == MPI_COMM_TYPE_SHARED)
		return err;
	return comm_info_say(*newcomm, "mpi_hw_resource_type", level);
}

/* MPI 4.1: where this process runs, in the levels Comm_split_type knows
 * (the keys are the implementation's to choose; docs/mpi.md). */
int PMPI_Get_hw_resource_info(MPI_Info *hw_info)
{
	const char *fn = "MPI_Get_hw_resource_info";
	const char *keys[] = { "smapos_node", "smapos_nodes", "smapos_ranks_on_node",
			       "smapos_cpu" };
	int vals[] = { smap_node(), smap_nnodes(), smap_size(), smap_cpu() };
	char v[16];
	int i, err;

	if (!hw_info)
		return smpi_err(NULL, MPI_ERR_ARG, fn, "hw_info pointer is NULL");
	if ((err = PMPI_Info_create(hw_info)) ||
	    (err = PMPI_Info_set(*hw_info, "mpi_hw_resource_type", "mpi_shared_memory")))
		return err;
	for (i = 0; i < 4 && !err; i++) {
		snprintf(v, sizeof v, "%d", vals[i]);
		err = PMPI_Info_set(*hw_info, keys[i], v);
	}
	return err;
}

int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
	int ctx, err, dummy, i;

	if ((err = smpi_check_init("MPI_Comm_create")) ||
	    (err = smpi_comm_check(comm, "MPI_Comm_create")))
		return err;
	if (!newcomm)
		return smpi_err(comm, MPI_ERR_ARG, "MPI_Comm_create", "newcomm pointer is NULL");
	if (!smpi_live(group, SMPI_LIVE_GROUP))
		return smpi_err(comm, MPI_ERR_GROUP, "MPI_Comm_create", "group %p is not a live group",
				(void *)group);
	if (comm->inter)
		return inter_create(comm, group, newcomm);
	for (i = 0; i < group->size; i++) {
		int w = group->world[i], j;

		for (j = 0; j < comm->size && comm->group->world[j] != w; j++)
			;
		if (j == comm->size)
			return smpi_err(comm, MPI_ERR_GROUP, "MPI_Comm_create",
					"world rank %d of the group is not in the communicator", w);
	}
	ctx = comm_agree(comm, &dummy, 0, &dummy, "MPI_Comm_create");
	if (ctx < 0)
		return -ctx;
	if (group->rank == MPI_UNDEFINED) {
		smpi_ctx_release(ctx);
		*newcomm = MPI_COMM_NULL;
		return MPI_SUCCESS;
	}
	return comm_make(comm, group->size, group->world, ctx, newcomm, "MPI_Comm_create");
}

/*
 * The communicator of group, collective over its members only (every one
 * in comm): they agree on a context id on comm's library context, with
 * tag, so that creations on overlapping groups do not mix.
 */
static int comm_of_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm,
			 const char *fn)
{
	struct smpi_ctx_voters v = { 0 };
	int ctx, *rank;

	if (!(rank = malloc(group->size * sizeof(int))))
		smpi_fatal("%s: no memory", fn);
	for (int i = 0; i < group->size; i++) {
		int w = group->world[i];

		rank[i] = w < smap_world_size() ? comm->from_world[w] : -1;
		if (rank[i] < 0) {
			free(rank);
			return smpi_err(comm, MPI_ERR_GROUP, fn,
					"world rank %d of the group is not in the communicator", w);
		}
	}
	v.n = group->size;
	v.rank = rank;
	ctx = smpi_ctx_agree(nbc_new_tagged(comm, tag), &v);
	free(rank);
	if (ctx < 0)
		return comm_no_ctx(comm, fn);
	return comm_make(comm, group->size, group->world, ctx, newcomm, fn);
}

int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
	const char *fn = "MPI_Comm_create_group";
	int err;

	if ((err = smpi_check_init(fn)) || (err = smpi_comm_check(comm, fn)) ||
	    (err = smpi_intra_check(comm, fn)))
		return err;
	if (!newcomm)
		return smpi_err(comm, MPI_ERR_ARG, fn, "newcomm pointer is NULL");
	if (!smpi_live(group, SMPI_LIVE_GROUP))
		return smpi_err(comm, MPI_ERR_GROUP, fn, "group %p is not a live group", (void *)group);
	if (tag < 0 || tag > SMPI_TAG_UB)
		return smpi_err(comm, MPI_ERR_TAG, fn, "tag %d is not valid", tag);
	if (group->rank == MPI_UNDEFINED) {
		*newcomm = MPI_COMM_NULL;
		return MPI_SUCCESS;
	}
	return comm_of_group(comm, group, tag, newcomm, fn);
}

/*
 * MPI 4.0's constructors from groups (of a session's process sets, or any
 * group): no parent communicator, so the members agree over the hidden
 * communicator of every rank, with a tag hashed from the string tag that
 * tells concurrent calls apart.  Errors before the new communicator exists
 * go to the handler the call names.
 */
/* Before the new communicator exists, errors go to the call's handler. */
#define comm_group_err(errh, ...) smpi_err_on((errh), &(MPI_Comm){ MPI_COMM_NULL }, __VA_ARGS__)

/* 0: the arguments both constructors share are good. */
static int comm_group_args(MPI_Group group, const char *stringtag, MPI_Errhandler errh,
			   const void *out, const char *fn)
{
	int err;

	if ((err = smpi_check_init(fn)))
		return err;
	if (!out || !stringtag)
		return comm_group_err(errh, MPI_ERR_ARG, fn, "NULL argument");
	if (strnlen(stringtag, MPI_MAX_STRINGTAG_LEN) == MPI_MAX_STRINGTAG_LEN)
		return comm_group_err(errh, MPI_ERR_ARG, fn,
				      "stringtag is longer than MPI_MAX_STRINGTAG_LEN - 1");
	if (!smpi_live(group, SMPI_LIVE_GROUP))
		return comm_group_err(errh, MPI_ERR_GROUP, fn, "group %p is not a live group",
				      (void *)group);
	return MPI_SUCCESS;
}

static int comm_stringtag(const char *stringtag)
{
	uint32_t h = 2166136261u;

	while (*stringtag)
		h = (h ^ (unsigned char)*stringtag++) * 16777619u;
	return (int)(h & SMPI_TAG_UB);
}

/* The new communicator takes the call's handler and info, and belongs to
 * the session the group came from (its buffered sends use its buffer). */
static void comm_group_finish(MPI_Comm c, MPI_Group from, MPI_Info info, MPI_Errhandler errh)
{
	c->session = c->group->session = from->session;
	if (c->inter)
		c->inter->session = c->inter->group->session = from->session;
	smpi_errh_replace(&c->errh, errh ? errh : MPI_ERRORS_ARE_FATAL);
	if (info != MPI_INFO_NULL)
		PMPI_Comm_set_info(c, info);
}

int PMPI_Comm_create_from_group(MPI_Group group, const char *stringtag, MPI_Info info,
				MPI_Errhandler errhandler, MPI_Comm *newcomm)
{
	const char *fn = "MPI_Comm_create_from_group";
	int err;

	if ((err = comm_group_args(group, stringtag, errhandler, newcomm, fn)))
		return err;
	/* Outside the group (MPI_GROUP_EMPTY, say): no communicator, as
	 * MPI_Comm_create_group gives. */
	if (group->rank == MPI_UNDEFINED) {
		*newcomm = MPI_COMM_NULL;
		return MPI_SUCCESS;
	}
	if ((err = comm_of_group(&comm_sessions, group, comm_stringtag(stringtag), newcomm, fn)))
		return err;
	comm_group_finish(*newcomm, group, info, errhandler);
	return MPI_SUCCESS;
}

int PMPI_Intercomm_create_from_groups(MPI_Group local_group, int local_leader,
				      MPI_Group remote_group, int remote_leader,
				      const char *stringtag, MPI_Info info,
				      MPI_Errhandler errhandler, MPI_Comm *newintercomm)
{
	const char *fn = "MPI_Intercomm_create_from_groups";
	int err, tag;
	MPI_Comm local;

	if ((err = comm_group_args(local_group, stringtag, errhandler, newintercomm, fn)))
		return err;
	if (!smpi_live(remote_group, SMPI_LIVE_GROUP))
		return comm_group_err(errhandler, MPI_ERR_GROUP, fn,
				      "remote_group %p is not a live group", (void *)remote_group);
	if (local_leader < 0 || local_leader >= local_group->size)
		return comm_group_err(errhandler, MPI_ERR_RANK, fn,
				      "local_leader %d is not in a group of %d", local_leader,
				      local_group->size);
	if (remote_leader < 0 || remote_leader >= remote_group->size)
		return comm_group_err(errhandler, MPI_ERR_RANK, fn,
				      "remote_leader %d is not in a group of %d", remote_leader,
				      remote_group->size);
	if (local_group->rank == MPI_UNDEFINED)
		return comm_group_err(errhandler, MPI_ERR_GROUP, fn,
				      "this process is not in local_group");
	if (remote_group->rank != MPI_UNDEFINED)
		return comm_group_err(errhandler, MPI_ERR_GROUP, fn,
				      "this process is in both groups");
	/* Each side makes its local communicator (disjoint members, so the
	 * two agreements never meet), then the leaders meet over the hidden
	 * communicator's own context. */
	tag = comm_stringtag(stringtag);
	if ((err = comm_of_group(&comm_sessions, local_group, tag, &local, fn)))
		return err;
	err = PMPI_Intercomm_create(local, local_leader, &comm_sessions,
				    remote_group->world[remote_leader], tag, newintercomm);
	PMPI_Comm_free(&local);
	if (err)
		return err;
	comm_group_finish(*newintercomm, local_group, info, errhandler);
	return MPI_SUCCESS;
}

/*
 * Collective: attributes are deleted and the collective engine's group
 * (whose destruction is itself collective) goes now; the rest - the rank
 * maps that completing receives read, the context id - stays until the
 * last request on the communicator is freed (smpi_comm_destroy), so
 * pending operations complete normally and no new communicator takes the
 * context while a message for the old one may still arrive.
 */
int PMPI_Comm_free(MPI_Comm *comm)
{
	struct smpi_comm *c;
	int err;

	if (!comm)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Comm_free", "NULL argument");
	if ((err = smpi_check_init("MPI_Comm_free")) || (err = smpi_comm_check(*comm, "MPI_Comm_free")))
		return err;
	c = *comm;
	if (c->predefined)
		return smpi_err(c, MPI_ERR_COMM, "MPI_Comm_free", "%s cannot be freed", c->name);
	smpi_attr_clear(SMPI_ATTR_COMM, c);
	if (c->coll)
		coll_group_destroy(c->coll);
	c->coll = NULL;
	if (c->inter && c->inter->coll) {
		coll_group_destroy(c->inter->coll);
		c->inter->coll = NULL;
	}
	*comm = MPI_COMM_NULL;
	smpi_comm_release(c);
	return MPI_SUCCESS;
}

void smpi_comm_destroy(MPI_Comm c)
{
	smpi_ctx_release(c->ctx);
	if (c->inter)
		smpi_comm_release(c->inter);
	smpi_errh_release(c->errh);
	smpi_group_release(c->group);
	smpi_topo_free(c->topo);
	smpi_info_drop(&c->info);
	smpi_bpool_free(&c->bpool);
	free(c->local);
	free(c->from_local);
	free(c->from_world);
	c->live = 0;
	free(c);
}

int PMPI_Comm_size(MPI_Comm comm, int *size)
{
	int err;

	if ((err = smpi_check_init("MPI_Comm_size")) || (err = smpi_comm_check(comm, "MPI_Comm_size")))
		return err;
	if (!size)
		return smpi_err(comm, MPI_ERR_ARG, "MPI_Comm_size", "size pointer is NULL");
	*size = comm->inter ? comm->inter->size : comm->size;
	return MPI_SUCCESS;
}

int PMPI_Comm_rank(MPI_Comm comm, int *rank)
{
	int err;

	if ((err = smpi_check_init("MPI_Comm_rank")) || (err = smpi_comm_check(comm, "MPI_Comm_rank")))
		return err;
	if (!rank)
		return smpi_err(comm, MPI_ERR_ARG, "MPI_Comm_rank", "rank pointer is NULL");
	*rank = comm->inter ? comm->inter->rank : comm->rank;
	return MPI_SUCCESS;
}

int PMPI_Comm_compare(MPI_Comm c1, MPI_Comm c2, int *result)
{
	int err;

	if ((err = smpi_comm_check(c1, "MPI_Comm_compare")) ||
	    (err = smpi_comm_check(c2, "MPI_Comm_compare")))
		return err;
	if (!result)
		return smpi_err(c1, MPI_ERR_ARG, "MPI_Comm_compare", "result pointer is NULL");
	if (c1 == c2) {
		*result = MPI_IDENT;
		return MPI_SUCCESS;
	}
	if (!c1->inter != !c2->inter) {
		*result = MPI_UNEQUAL;
		return MPI_SUCCESS;
	}
	if (c1->inter) {
		int local;

		/* Both groups alike: the weaker of the two answers. */
		if ((err = PMPI_Group_compare(c1->inter->group, c2->inter->group, &local)) ||
		    (err = PMPI_Group_compare(c1->group, c2->group, result)))
			return err;
		*result = local > *result ? local : *result;
	} else {
		err = PMPI_Group_compare(c1->group, c2->group, result);
	}
	if (*result == MPI_IDENT)
		*result = MPI_CONGRUENT;
	return err;
}

int PMPI_Comm_group(MPI_Comm comm, MPI_Group *group)
{
	int err;

	if ((err = smpi_check_init("MPI_Comm_group")) || (err = smpi_comm_check(comm, "MPI_Comm_group")))
		return err;
	if (!group)
		return smpi_err(comm, MPI_ERR_ARG, "MPI_Comm_group", "group pointer is NULL");
	*group = comm->inter ? comm->inter->group : comm->group;
	(*group)->refs++;
	return MPI_SUCCESS;
}

int PMPI_Comm_test_inter(MPI_Comm comm, int *flag)
{
	int err;

	if ((err = smpi_comm_check(comm, "MPI_Comm_test_inter")))
		return err;
	if (!flag)
		return smpi_err(comm, MPI_ERR_ARG, "MPI_Comm_test_inter", "flag pointer is NULL");
	*flag = comm->inter != NULL;
	return MPI_SUCCESS;
}

int PMPI_Topo_test(MPI_Comm comm, int *status)
{
	int err;

	if ((err = smpi_comm_check(comm, "MPI_Topo_test")))
		return err;
	if (!status)
		return smpi_err(comm, MPI_ERR_ARG, "MPI_Topo_test", "status pointer is NULL");
	*status = smpi_topo_kind(comm->topo);
	return MPI_SUCCESS;
}

int PMPI_Comm_set_name(MPI_Comm comm, const char *name)
{
	int err;

	if ((err = smpi_comm_check(comm, "MPI_Comm_set_name")))
		return err;
	if (!name)
		return smpi_err(comm, MPI_ERR_ARG, "MPI_Comm_set_name", "name is NULL");
	strncpy(comm->name, name, MPI_MAX_OBJECT_NAME - 1);
	comm->name[MPI_MAX_OBJECT_NAME - 1] = 0;
	return MPI_SUCCESS;
}

int PMPI_Comm_get_name(MPI_Comm comm, char *name, int *resultlen)
{
	int err;

	if ((err = smpi_comm_check(comm, "MPI_Comm_get_name")))
		return err;
	if (!name || !resultlen)
		return smpi_err(comm, MPI_ERR_ARG, "MPI_Comm_get_name", "NULL argument");
	strcpy(name, comm->name);
	*resultlen = strlen(name);
	return MPI_SUCCESS;
}

int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function *copy_fn,
			    MPI_Comm_delete_attr_function *delete_fn, int *keyval, void *extra)
{
	return smpi_keyval_create(SMPI_ATTR_COMM, (smpi_attr_fn)copy_fn, (smpi_attr_fn)delete_fn,
				  extra, keyval, "MPI_Comm_create_keyval");
}

int PMPI_Comm_free_keyval(int *keyval)
{
	return smpi_keyval_free(SMPI_ATTR_COMM, keyval, "MPI_Comm_free_keyval");
}

int PMPI_Comm_set_attr(MPI_Comm comm, int keyval, void *val)
{
	int err;

	if ((err = smpi_comm_check(comm, "MPI_Comm_set_attr")))
		return err;
	return smpi_attr_set(SMPI_ATTR_COMM, comm, keyval, val, "MPI_Comm_set_attr");
}

/* The predefined attributes of every communicator. */
static int comm_predef_attr(int keyval, void **val)
{
	static int tag_ub = SMPI_TAG_UB, host = MPI_PROC_NULL, io = MPI_ANY_SOURCE;
	static int wtime_global, universe, appnum;

	universe = smap_world_size();
	switch (keyval) {
	case MPI_TAG_UB:
		*val = &tag_ub;
		return 1;
	case MPI_HOST:
		*val = &host;
		return 1;
	case MPI_IO:
		*val = &io;
		return 1;
	case MPI_WTIME_IS_GLOBAL:
		*val = &wtime_global;
		return 1;
	case MPI_UNIVERSE_SIZE:
		*val = &universe;
		return 1;
	case MPI_APPNUM:
		*val = &appnum;
		return 1;
	case MPI_LASTUSEDCODE:
		*val = &smpi_err_lastused;
		return 1;
	}
	return 0;
}

int PMPI_Comm_get_attr(MPI_Comm comm, int keyval, void *val, int *flag)
{
	int err;

	if ((err = smpi_comm_check(comm, "MPI_Comm_get_attr")))
		return err;
	if (val && flag && (*flag = comm_predef_attr(keyval, val)))
		return MPI_SUCCESS;
	return smpi_attr_get(SMPI_ATTR_COMM, comm, keyval, val, flag, "MPI_Comm_get_attr");
}

int PMPI_Comm_delete_attr(MPI_Comm comm, int keyval)
{
	int err;

	if ((err = smpi_comm_check(comm, "MPI_Comm_delete_attr")))
		return err;
	return smpi_attr_delete(SMPI_ATTR_COMM, comm, keyval, "MPI_Comm_delete_attr");
}

SMPI_ALIAS(Comm_dup)
SMPI_ALIAS(Comm_idup)
SMPI_ALIAS(Comm_idup_with_info)
SMPI_ALIAS(Comm_split)
SMPI_ALIAS(Comm_split_type)
SMPI_ALIAS(Get_hw_resource_info)
SMPI_ALIAS(Comm_create)
SMPI_ALIAS(Comm_free)
SMPI_ALIAS(Comm_size)
SMPI_ALIAS(Comm_rank)
SMPI_ALIAS(Comm_compare)
SMPI_ALIAS(Comm_group)
SMPI_ALIAS(Comm_test_inter)
SMPI_ALIAS(Topo_test)
SMPI_ALIAS(Comm_set_name)
SMPI_ALIAS(Comm_get_name)
SMPI_ALIAS(Comm_create_keyval)
SMPI_ALIAS(Comm_free_keyval)
SMPI_ALIAS(Comm_set_attr)
SMPI_ALIAS(Comm_get_attr)
SMPI_ALIAS(Comm_delete_attr)
SMPI_ALIAS(Intercomm_create)
SMPI_ALIAS(Intercomm_merge)
SMPI_ALIAS(Comm_remote_size)
SMPI_ALIAS(Comm_remote_group)
SMPI_ALIAS(Comm_create_group)
SMPI_ALIAS(Comm_create_from_group)
SMPI_ALIAS(Intercomm_create_from_groups)
