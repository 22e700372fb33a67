/*
 * nbc.h - schedules: what nonblocking, persistent and neighborhood
 * collectives (and MPI_Isendrecv) run on (nbc.c).
 *
 * A schedule is a list of rounds built once, when the call is made (or at
 * MPI_X_init), and run by progress: a round starts its sends and receives
 * together, and when all of them are complete runs its local steps (copies
 * and reductions) in order, then the next round starts.  Messages are
 * libsmap's own point-to-point, so a schedule reaches members on this
 * node and on others alike; a collective's travel on the communicator's
 * library context under a tag of their own (one per collective call), so
 * they never meet the user's messages, each other, or those of blocking
 * collectives.
 */
#ifndef SMPI_NBC_H
#define SMPI_NBC_H

#include "impl.h"

struct smpi_nbc;

/* A schedule for a collective on comm (which it holds).  Its tag is the
 * next of comm's sequence of collective calls, so every member must create
 * its schedules on comm in the same order, as MPI requires of the calls. */
struct smpi_nbc *nbc_new(MPI_Comm comm);
/* A schedule on comm's library context under a tag the caller chose
 * (creating a communicator from a group: not every member of comm is in
 * it, so comm's sequence cannot move), and the next tag of comm's
 * sequence, for messages a schedule sends on another route. */
struct smpi_nbc *nbc_new_tagged(MPI_Comm comm, int tag);
int nbc_tag_next(MPI_Comm comm);
/* A schedule of the user's own messages on comm (MPI_Isendrecv). */
struct smpi_nbc *nbc_new_p2p(MPI_Comm comm);

/*
 * Steps of the current round.  count elements of type at buf, to or from
 * comm rank peer (MPI_PROC_NULL: no step).  sub (0 or 1) picks one of two
 * tags of the collective, for pairs of messages that must not match out of
 * order; nbc_new_p2p schedules take the user's tag instead.
 */
void nbc_send(struct smpi_nbc *s, const void *buf, int64_t count, MPI_Datatype type, int peer,
	      int sub);
void nbc_recv(struct smpi_nbc *s, void *buf, int64_t count, MPI_Datatype type, int peer,
	      int sub);
/* The same on another route: rank peer of comm, on context ctx, tag tag
 * (the schedule holds comm until it is freed). */
void nbc_send_on(struct smpi_nbc *s, const void *buf, int64_t count, MPI_Datatype type, int peer,
		 MPI_Comm comm, int ctx, int tag);
void nbc_recv_on(struct smpi_nbc *s, void *buf, int64_t count, MPI_Datatype type, int peer,
		 MPI_Comm comm, int ctx, int tag);
/* A local step that runs fn(s, arg): it may add rounds at the end of s
 * (when its round is the last), or fail s with an MPI error class. */
void nbc_call(struct smpi_nbc *s, void (*fn)(struct smpi_nbc *s, void *arg), void *arg);
void nbc_fail(struct smpi_nbc *s, int err);
/* The round's receive whose status the request reports (MPI_Isendrecv). */
void nbc_recv_status(struct smpi_nbc *s);
/* dst gets count elements of stype at src, as rcount elements of rtype. */
void nbc_copy(struct smpi_nbc *s, void *dst, int64_t rcount, MPI_Datatype rtype,
	      const void *src, int64_t scount, MPI_Datatype stype);
/* inout = in op inout, count elements of type (MPI_Reduce_local). */
void nbc_reduce(struct smpi_nbc *s, const void *in, void *inout, int64_t count,
		MPI_Datatype type, MPI_Op op);
/* Ends the current round. */
void nbc_round(struct smpi_nbc *s);
/* Scratch space for count elements of type, laid out as a buffer of the
 * user's would be (so sends, receives and user ops take it as is); freed
 * with the schedule. */
void *nbc_tmp(struct smpi_nbc *s, int64_t count, MPI_Datatype type);

/*
 * The request of a finished schedule: started at once (nonblocking
 * calls), or persistent and idle until MPI_Start.  A schedule nothing
 * could be built for is complete at once.
 */
void nbc_post(struct smpi_nbc *s, MPI_Request *request);
void nbc_persist(struct smpi_nbc *s, MPI_Request *request);
/* A blocking call over a schedule: start and wait (the neighborhood
 * collectives); returns the error the request completed with. */
int nbc_run(struct smpi_nbc *s);

/*
 * Builders shared by the collectives.  The reduce fold is binomial and
 * keeps member order (x0 op x1 op ... op x(n-1)) for any op: the tree has
 * rank 0 at its top, and the result moves on to root when it is not 0
 * and the op does not commute (a commutative op's tree has root on top).
 * src is the caller's contribution (it may equal dst at the root).
 */
void nbc_build_reduce(struct smpi_nbc *s, const void *src, void *dst, int64_t count,
		      MPI_Datatype type, MPI_Op op, int root);
void nbc_build_bcast(struct smpi_nbc *s, void *buf, int64_t count, MPI_Datatype type, int root);

/* The checks every nonblocking or persistent call starts with: MPI is
 * running, comm is valid (an intercommunicator too: the builders that
 * have no form for one refuse it), request is not NULL. */
int nbc_check(MPI_Comm comm, MPI_Request *request, const char *fn);

/*
 * The body of a nonblocking or persistent call MPI_<cname>: the common
 * checks, then `build` (an expression that checks the call's own
 * arguments and sets the schedule s, or returns the error), then
 * finish(s, request): nbc_post or nbc_persist.
 */
#define NBC_ENTRY(cname, params, build, finish) \
	int PMPI_##cname params \
	{ \
		const char *fn = "MPI_" #cname; \
		struct smpi_nbc *s; \
		int err; \
		if ((err = nbc_check(comm, request, fn)) || (err = build)) \
			return err; \
		finish(s, request); \
		return MPI_SUCCESS; \
	} \
	SMPI_ALIAS(cname)

/* The communicator a schedule runs on, and its tag. */
MPI_Comm smpi_nbc_comm(const struct smpi_nbc *s);
int smpi_nbc_tag(const struct smpi_nbc *s);

/*
 * Agreeing on a new context id (ctxid.c).  The voters are the members
 * rank[0..n) of the schedule's communicator (all of it when rank is NULL),
 * rank[0] leading; when xcomm is set (on the leader), the leader also
 * combines with the other group's leader, rank xpeer of xcomm, on context
 * xctx with tag xtag (new intercommunicators).  The id is taken on every
 * voter when they agree; a voter with no use for it releases it.
 */
struct smpi_ctx_voters {
	int n;
	const int *rank;
	MPI_Comm xcomm;
	int xpeer, xctx, xtag;
};

/* Adds the agreement to s; done(s, ctx, arg) runs in its last round, with
 * -1 when no id is free on every voter, and may add rounds to s. */
void smpi_ctx_agree_build(struct smpi_nbc *s, const struct smpi_ctx_voters *v,
			  void (*done)(struct smpi_nbc *s, int ctx, void *arg), void *arg);
/* Blocking: runs the agreement on the new schedule s; the id, or -1. */
int smpi_ctx_agree(struct smpi_nbc *s, const struct smpi_ctx_voters *v);

/* Reductions: MPI_SUCCESS or what `fn` reports for op on type (coll.c). */
int smpi_red_check(MPI_Comm comm, MPI_Op op, MPI_Datatype type, const char *fn);

#endif
