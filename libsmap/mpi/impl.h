/*
 * impl.h - libsmap's MPI internals shared by the files of libsmap/mpi.
 *
 * Naming: smpi_<file>_* for what a file exports to the others, PMPI_* for
 * the standard calls (MPI_* are weak aliases, made by SMPI_ALIAS).  Inside
 * the library, calls go to PMPI_* so a profiling wrapper sees only the
 * user's own calls.
 */
#ifndef SMPI_IMPL_H
#define SMPI_IMPL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include "mpi.h"
#include "smap.h"
#include "dt.h"
#include "match.h"
#include "../net/net.h"
#include "../core/core.h"

#define SMPI_ALIAS(name) \
	extern __typeof__(PMPI_##name) MPI_##name __attribute__((weak, alias("PMPI_" #name)));

#define SMPI_TAG_UB	0x7fffffff
/* Context ids: each communicator owns one for point-to-point. */
#define SMPI_MAX_CTX	2048

/* ---- errors (err.c) ---- */

struct smpi_errh {
	MPI_Comm_errhandler_function *fn;	/* NULL: fatal or return */
	int fatal;
	int refs;
	int predefined;
};

/*
 * Reports an error of class `code` raised in call `fn` on comm (NULL for
 * calls without one: MPI_COMM_WORLD's handler applies).  Prints the message
 * and ends the job under ERRORS_ARE_FATAL; returns code otherwise.
 */
int smpi_err(MPI_Comm comm, int code, const char *fn, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The same on h, the handler of the object whose handle is at obj (a
 * window's, a session's, or the one a constructor names; NULL:
 * MPI_COMM_WORLD's): a handler made for that kind of object gets obj. */
int smpi_err_on(struct smpi_errh *h, void *obj, int code, const char *fn, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
int smpi_verr_on(struct smpi_errh *h, void *obj, int code, const char *fn, const char *fmt,
		 va_list ap);
/*
 * Handlers are shared by reference between communicators, windows and the
 * program's handles: take a reference (returned for convenience), drop one
 * (a user handler goes with its last), or put h in *slot in place of the
 * handler there.
 */
struct smpi_errh *smpi_errh_ref(struct smpi_errh *h);
void smpi_errh_release(struct smpi_errh *h);
void smpi_errh_replace(struct smpi_errh **slot, struct smpi_errh *h);
/* Unrecoverable internal trouble (out of memory in the transport...). */
_Noreturn void smpi_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- handles and buffers checked at the door (check.c) ---- */

/*
 * Every object a handle points to carries its kind's mark in `live` from
 * its making to its freeing (cleared before its memory goes back).  A
 * handle is live when it points, aligned, inside this rank's own region -
 * so reading the mark cannot fault, whatever garbage the handle holds -
 * and the mark is there: two compares and a load on the fast paths.
 */
enum {
	SMPI_LIVE_COMM = 0x6d6d6f63,	/* "comm" */
	SMPI_LIVE_TYPE = 0x65707974,	/* "type" */
	SMPI_LIVE_OP = 0x2e2e706f,	/* "op.." */
	SMPI_LIVE_REQ = 0x20716572,	/* "req " */
	SMPI_LIVE_GROUP = 0x70726f67,	/* "grop" */
	SMPI_LIVE_SESSION = 0x7369706d,	/* "mpis" */
};

static inline int smpi_in_region(const void *p, size_t size)
{
	uintptr_t a = (uintptr_t)p;

	return !(a & 7) && a >= core.ji.region_base && a <= core.region_end - size;
}

#define smpi_live(p, mark)	(smpi_in_region((p), sizeof *(p)) && (p)->live == (mark))

/* MPI_SUCCESS, or MPI_ERR_REQUEST from `fn` for a handle that is neither
 * MPI_REQUEST_NULL nor a live request; n handles at reqs. */
int smpi_req_check(int n, struct smpi_req *const *reqs, const char *fn);
/*
 * MPI_SUCCESS, or MPI_ERR_BUFFER from `fn` when count elements of type
 * (checked already) at buf cannot be data: buf NULL with data that would
 * start in the first page.  NULL is MPI_BOTTOM, so a type at absolute
 * addresses (MPI_Get_address) with a NULL buffer stays good.
 */
int smpi_buf_check(MPI_Comm comm, const void *buf, int64_t count, MPI_Datatype type,
		   const char *fn);
/* A send buffer that is the receive buffer or own, this rank's block of
 * it (NULL: none), where mine says this rank's both matter: MPI_ERR_BUFFER
 * (MPI forbids the aliasing; MPI_IN_PLACE is the way), before any
 * communication, so the peers can go on (MPICH checks the same). */
int smpi_coll_alias(MPI_Comm comm, const void *sbuf, const void *rbuf, const void *own,
		    int mine, const char *fn);
/* The address of block `at` elements of type into buf (NULL stays NULL). */
const void *smpi_coll_block(const void *buf, int64_t at, MPI_Datatype type);

/*
 * An array of counts or displacements as the call took it: int in the MPI
 * 3.1 calls, 64 bits (MPI_Count, MPI_Aint) in MPI 4.0's _c calls.  The v
 * and w collectives read theirs through smpi_at, so one implementation
 * serves both forms and a _c count past INT_MAX is just a count.
 */
struct smpi_ints {
	const void *p;		/* NULL: no array */
	int wide;
};
#define SMPI_INTS(a)	((struct smpi_ints){ (a), 0 })
#define SMPI_WIDE(a)	((struct smpi_ints){ (a), 1 })
_Static_assert(sizeof(MPI_Count) == 8 && sizeof(MPI_Aint) == 8, "smpi_at reads both as int64_t");

static inline int64_t smpi_at(struct smpi_ints v, int i)
{
	return v.wide ? ((const int64_t *)v.p)[i] : ((const int *)v.p)[i];
}

/*
 * Collective arguments checked across members (check.c, coll.c): what a
 * blocking collective's members must agree on, as coll.c describes it to
 * the engine (coll_expect, coll_describe).  Pointers are to static names: one binary
 * runs on every rank, so a peer's pointer is good here too.
 */
struct smpi_coll_desc {
	const char *call;	/* "MPI_Bcast" */
	const char *op;		/* the op's name, NULL for none */
	union {
		struct {
			int32_t root;	/* -1: none */
			int32_t kind;	/* enum smpi_kind of the data, SMPI_K_NONE mixed, -1 none */
		};
		/* Both written in one store: coll_describe copies 8 bytes
		 * at a time, and a load that spans two stores misses
		 * forwarding. */
		uint64_t root_kind;
	};
	int64_t count;		/* basic elements (of a block, for the data movers) */
	int64_t bytes;		/* and their bytes */
};

/* SMAP_COLL_CHECK: 1 (default) or 0; -1 until read. */
extern int smpi_coll_checking;
int smpi_coll_check_setup(void);
/* Armed by a collective that may return an error (not under
 * MPI_ERRORS_ARE_FATAL): a mismatch jumps there with smpi_coll_err set. */
extern void *smpi_coll_jump;
extern int smpi_coll_err;

/* ---- environment (env.c) ---- */

/* The world model: MPI_Init was called, MPI_Finalize was called. */
extern int smpi_initialized, smpi_finalized;
/* The library started (MPI_Init or MPI_Session_init); it serves calls
 * (started, and the world model or a session still uses it). */
extern int smpi_started, smpi_active;
/* Returns the error for `fn` when MPI serves no calls. */
int smpi_check_init(const char *fn);
/* The thread level given for one asked for. */
int smpi_thread_level(int required);
/* A session begins (starting the library if it is the first user) and
 * ends (ending the library if it was the last). */
void smpi_session_start(void);
void smpi_session_end(void);
/* Spin-wait step: pause, and let other ranks run on an oversubscribed host. */
void smpi_spin(unsigned *spins);

/* ---- groups and communicators (group.c, comm.c) ---- */

struct smpi_group {
	uint32_t live;		/* SMPI_LIVE_GROUP while it exists */
	int refs;
	int predefined;
	int size;
	int rank;		/* of this process, or MPI_UNDEFINED */
	int *world;		/* group rank -> MPI_COMM_WORLD rank */
	MPI_Session session;	/* made from its process set (or from such a group) */
};

struct smpi_attr {
	struct smpi_attr *next;
	int key;
	int fortran;	/* set from Fortran: val is the integer itself */
	void *val;
};

#include "attr.h"

struct smpi_comm {
	uint32_t live;		/* SMPI_LIVE_COMM while it exists */
	int ctx;
	int size, rank;
	struct smpi_group *group;
	int *local;		/* comm rank -> on-node rank, -1 on another node */
	int *from_local;	/* on-node rank -> comm rank, -1 if not a member */
	int *from_world;	/* world rank -> comm rank, -1 if not a member */
	int onnode;		/* every member is on this node */
	int whole;		/* spans nodes: the whole job, in world order */
	int predefined;
	int refs;		/* the user's handle (until Comm_free) and each request */
	struct smpi_errh *errh;
	struct smpi_attr *attrs;
	struct coll_group *coll;	/* the collective engine's view */
	char name[MPI_MAX_OBJECT_NAME];
	unsigned nbc_seq;	/* schedules made on it so far (nbc.c) */
	int coll_later;		/* coll is made at its first collective */
	struct smpi_topo *topo;	/* its topology, or NULL (topo.c) */
	MPI_Info info;		/* a copy of the info set on it, or NULL (info.c) */
	MPI_Session session;	/* derived from a session's group, or NULL */
	struct smpi_bpool *bpool;	/* its buffer for buffered sends (bsend.c) */
	/* An intercommunicator: group, size and the rank maps are the remote
	 * group's (point-to-point addresses it); inter is a private
	 * communicator of the local group.  NULL for the others. */
	struct smpi_comm *inter;
};

/* ---- error classes and codes the program adds (compat.c) ---- */

extern int smpi_err_lastused;	/* MPI_LASTUSEDCODE */
/* An added code's class, or -1; its string ("" if none), or NULL. */
int smpi_err_user_class(int code);
const char *smpi_err_user_text(int code);

/* ---- collectives on intercommunicators (intercoll.c) ---- */

int smpi_icoll_barrier(MPI_Comm ic);
int smpi_icoll_bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm ic);
int smpi_icoll_gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
		      MPI_Datatype rtype, int root, MPI_Comm ic);
int smpi_icoll_scatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
		       MPI_Datatype rtype, int root, MPI_Comm ic);
int smpi_icoll_reduce(const void *sbuf, void *rbuf, int64_t count, MPI_Datatype type, MPI_Op op,
		      int root, MPI_Comm ic, const char *fn);
int smpi_icoll_allreduce(const void *sbuf, void *rbuf, int64_t count, MPI_Datatype type,
			 MPI_Op op, MPI_Comm ic, const char *fn);
int smpi_icoll_allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
			 int rcount, MPI_Datatype rtype, MPI_Comm ic);
int smpi_icoll_alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
			MPI_Datatype rtype, MPI_Comm ic);
int smpi_icoll_alltoallw(const void *sbuf, struct smpi_ints scounts, struct smpi_ints sdispls,
			 const MPI_Datatype stypes[], MPI_Datatype stype, void *rbuf,
			 struct smpi_ints rcounts, struct smpi_ints rdispls,
			 const MPI_Datatype rtypes[], MPI_Datatype rtype, int byte_disps, MPI_Comm ic,
			 const char *fn);
int smpi_icoll_allgatherv(const void *sbuf, int64_t scount, MPI_Datatype stype, void *rbuf,
			  struct smpi_ints rcounts, struct smpi_ints displs, MPI_Datatype rtype,
			  MPI_Comm ic, const char *fn);
int smpi_icoll_gatherv(const void *sbuf, int64_t scount, MPI_Datatype stype, void *rbuf,
		       struct smpi_ints rcounts, struct smpi_ints displs, MPI_Datatype rtype,
		       int root, MPI_Comm ic, const char *fn);
int smpi_icoll_scatterv(const void *sbuf, struct smpi_ints scounts, struct smpi_ints displs,
			MPI_Datatype stype, void *rbuf, int64_t rcount, MPI_Datatype rtype, int root,
			MPI_Comm ic, const char *fn);
int smpi_icoll_reduce_scatter(const void *sbuf, void *rbuf, struct smpi_ints rcounts,
			      int64_t block, MPI_Datatype type, MPI_Op op, MPI_Comm ic,
			      const char *fn);

/* MPI_Reduce of a 64-bit count, errors naming fn (coll.c). */
int smpi_reduce(const void *sbuf, void *rbuf, int64_t count, MPI_Datatype type, MPI_Op op,
		int root, MPI_Comm comm, const char *fn);
/* MPI_Scatterv on either form of its arrays (coll.c). */
int smpi_scatterv(const void *sbuf, struct smpi_ints scounts, struct smpi_ints displs,
		  MPI_Datatype stype, void *rbuf, int64_t rcount, MPI_Datatype rtype, int root,
		  MPI_Comm comm, const char *fn);

/* ---- generalized requests (grequest.c) ---- */

void smpi_greq_query(struct smpi_req *r);
void smpi_greq_cancel(struct smpi_req *r);
void smpi_greq_free(struct smpi_req *r);

/* ---- info (info.c) ---- */

/* *kept becomes a copy of info (MPI_INFO_NULL: none); errors name fn. */
int smpi_info_keep(MPI_Info *kept, MPI_Info info, const char *fn);
void smpi_info_drop(MPI_Info *kept);
/* For get_info: a new copy of kept (empty when NULL) in *out. */
int smpi_info_give(MPI_Info kept, MPI_Info *out, const char *fn);
void smpi_info_env_init(int argc, char *const *argv);

/* Builds a group of n world ranks (copied); NULL when memory is short. */
struct smpi_group *smpi_group_new(int n, const int *world);
void smpi_group_release(struct smpi_group *g);
void smpi_comm_init_world(void);
/* Frees a communicator and hands its context id back: at the last
 * reference, which may be a request completing after MPI_Comm_free. */
void smpi_comm_destroy(MPI_Comm comm);

static inline void smpi_comm_hold(MPI_Comm comm)
{
	comm->refs++;
}

static inline void smpi_comm_release(MPI_Comm comm)
{
	if (--comm->refs == 0)
		smpi_comm_destroy(comm);
}
/* Validity checks that report through the right handler. */
int smpi_comm_check(MPI_Comm comm, const char *fn);
int smpi_rank_check(MPI_Comm comm, int rank, int any_ok, const char *fn);
/* MPI_ERR_COMM for an intercommunicator, where fn is not implemented. */
int smpi_intra_check(MPI_Comm comm, const char *fn);

/* ---- datatypes (type.c) ---- */

/* gfortran's INTEGER(16), REAL(16) (IEEE quad, in software) and COMPLEX(16). */
typedef __int128 smpi_i128;
typedef __float128 smpi_f128;
typedef _Complex float __attribute__((mode(TC))) smpi_cf128;

/* What the element-wise reduction kernels see of a type. */
enum smpi_kind {
	SMPI_K_NONE, SMPI_K_CHAR, SMPI_K_SCHAR, SMPI_K_UCHAR, SMPI_K_BYTE,
	SMPI_K_WCHAR, SMPI_K_SHORT, SMPI_K_USHORT, SMPI_K_INT, SMPI_K_UINT,
	SMPI_K_LONG, SMPI_K_ULONG, SMPI_K_LLONG, SMPI_K_ULLONG, SMPI_K_FLOAT,
	SMPI_K_DOUBLE, SMPI_K_LDOUBLE, SMPI_K_BOOL, SMPI_K_I8, SMPI_K_I16,
	SMPI_K_I32, SMPI_K_I64, SMPI_K_U8, SMPI_K_U16, SMPI_K_U32, SMPI_K_U64,
	SMPI_K_AINT, SMPI_K_OFFSET, SMPI_K_COUNT, SMPI_K_CFLOAT, SMPI_K_CDOUBLE,
	SMPI_K_CLDOUBLE, SMPI_K_I128, SMPI_K_F128, SMPI_K_CF128, SMPI_K_PACKED,
	SMPI_K_FLOAT_INT, SMPI_K_DOUBLE_INT, SMPI_K_LONG_INT, SMPI_K_2INT, SMPI_K_SHORT_INT,
	SMPI_K_LDOUBLE_INT, SMPI_K_2FLOAT, SMPI_K_2DOUBLE,
	SMPI_K_COUNT_OF
};

struct smpi_type {
	uint32_t live;		/* SMPI_LIVE_TYPE while it exists */
	struct dt *dt;
	int refs;
	int predefined;
	int committed;
	int kind;		/* enum smpi_kind of its elements, NONE if mixed */
	int combiner;
	char name[MPI_MAX_OBJECT_NAME];
	struct smpi_type_args *args;	/* the constructor's arguments (type_ext.c) */
	struct dt_segs *segs;	/* its segments (dt_segments), made at its first copy */
	int segs_made;
	struct smpi_attr *attrs;	/* cached attributes (attr.c) */
};

#define SMPI_NTYPES	(SMPI_K_COUNT_OF)

void smpi_type_init(void);
/* The predefined type of a kind (enum smpi_kind, not NONE). */
MPI_Datatype smpi_type_of_kind(int kind);
/* 0 if type is usable for communication, else the error from `fn`. */
int smpi_type_check(MPI_Comm comm, MPI_Datatype type, const char *fn);
void smpi_type_hold(MPI_Datatype type);
void smpi_type_release(MPI_Datatype type);
/* type_ext.c: records the arguments of the constructor that made *out
 * (when err is 0) for MPI_Type_get_contents; returns err or its own. */
int smpi_type_args(int err, MPI_Datatype *out, int ni, const int *ints, int na,
		   const MPI_Aint *addrs, int nd, const MPI_Datatype *types);
/* What a freed type drops: its attributes and constructor arguments. */
void smpi_type_drop_extras(MPI_Datatype type);

static inline int64_t smpi_type_size(MPI_Datatype t)
{
	return dt_root(t->dt)->size;
}

static inline int64_t smpi_type_extent(MPI_Datatype t)
{
	return dt_root(t->dt)->extent;
}

/* A predefined type with no padding (not DOUBLE_INT, LONG_INT, ...): the
 * collective engine may move its elements as bytes. */
static inline int smpi_type_padless(MPI_Datatype t)
{
	return t->predefined && smpi_type_size(t) == smpi_type_extent(t);
}

/* The type's segments for the copy loops (dt_segments), or NULL. */
const struct dt_segs *smpi_type_segs(MPI_Datatype t);
/* Copies count elements of stype at src to count elements of rtype at dst
 * (up to the smaller amount of data); returns bytes copied. */
size_t smpi_type_copy(void *dst, int64_t rcount, MPI_Datatype rtype,
		      const void *src, int64_t scount, MPI_Datatype stype);

/* ---- reduction operations (op.c) ---- */

typedef void smpi_op_fn(const void *in, void *inout, int64_t n, int kind);

struct coll_op;

struct smpi_op {
	uint32_t live;		/* SMPI_LIVE_OP while it exists */
	smpi_op_fn *fn;		/* predefined */
	MPI_User_function *user;	/* user ops: set (the _c function's, cast, for those) */
	MPI_User_function_c *user_c;	/* MPI_Op_create_c's: called instead */
	int commute;
	int predefined;		/* families of kinds it applies to (op.c) */
	const char *name;
	/* Predefined: the collective engine's operator for each kind of
	 * predefined type, fn NULL where the op does not apply (op.c). */
	const struct coll_op *engine;
};

/* Fills the predefined ops' engine operators, once the types exist. */
void smpi_op_init(void);

/* MPI_SUCCESS, or the error `fn` reports for op on type. */
int smpi_op_check(MPI_Comm comm, MPI_Op op, MPI_Datatype type, const char *fn);
/* inout[i] = in[i] op inout[i] for count elements of type (contiguous). */
void smpi_op_apply(MPI_Op op, const void *in, void *inout, int64_t count,
		   MPI_Datatype type);

/* ---- point-to-point (p2p.c, req.c) ---- */

/* SMPI_REQ_LOCAL: one the library completes by setting its state (an
 * RMA R-call's, done at once; a buffer flush's, once its blocks are gone). */
enum { SMPI_REQ_SEND, SMPI_REQ_RECV, SMPI_REQ_LOCAL, SMPI_REQ_COLL, SMPI_REQ_GREQ,
       SMPI_REQ_PART_SEND, SMPI_REQ_PART_RECV };
enum { SMPI_MODE_STD, SMPI_MODE_SYNC, SMPI_MODE_BUF, SMPI_MODE_READY };
enum {
	SMPI_ST_IDLE,		/* persistent, not started */
	SMPI_ST_QUEUED,		/* send waiting for queue space */
	SMPI_ST_POSTED,		/* receive posted / rendezvous send posted */
	SMPI_ST_DONE
};

/*
 * The part of a rendezvous send its receiver writes, through SMARTMAP, on
 * a cache line of its own: the waiting sender polls it, and nothing the
 * sender writes while waiting shares the line.  A large copy is cut into
 * pieces that both sides claim (p2p.c), so a sender blocked in its send
 * copies half of its own message.
 */
struct smpi_rndv {
	uint32_t done;		/* the receiver is finished: the send is complete */
	uint32_t help;		/* dst and len are set: pieces are up for grabs */
	uint64_t dst;		/* the receive buffer, as every rank reaches it */
	uint64_t len;		/* bytes to copy */
	uint64_t next;		/* first byte nobody claimed (both sides, lock cmpxchg) */
	uint64_t copied;	/* bytes the sender's pieces hold, once they do */
	uint32_t claim;		/* a send that may withdraw: who came first (p2p.c) */
	uint32_t cancel;	/* a cancelled send: its receiver's answer (p2p.c) */
	uint64_t copy;		/* a withdrawn send's data, packed (malloc'd) */
} __attribute__((aligned(64)));

struct smpi_req {
	struct match_entry m;	/* a posted receive */
	struct smpi_req *next;	/* pending sends to one peer; free list */
	int kind, mode, state;
	uint32_t live;		/* SMPI_LIVE_REQ from smpi_req_init to smpi_req_free */
	int persistent, freed;
	int cancel;		/* a send's MPI_Cancel, once per start (p2p.c) */
	int cancel_rndv;	/* it was a rendezvous still waiting for its receiver */
	uint64_t sseq;		/* a send: its slot's number at an on-node receiver, its
				 * name (p2pnet.c) across nodes; a receive across
				 * nodes: the RTS it fetches */
	int rts_served;		/* send across nodes: its fetch has completed */
	int helped;		/* rendezvous: this sender took its pieces */
	int withdraw;		/* a send that may still withdraw to a copy (p2p.c) */
	int withdrawn;		/* it did: complete for its caller, not yet received */
	uint64_t deadline;	/* TSC after which it withdraws; 0: not waited for yet */
	const void *buf;
	int64_t count;
	MPI_Datatype type;
	MPI_Comm comm;
	int peer, tag;		/* comm rank (or MPI_ANY_*), tag */
	int ctx;		/* comm->ctx, or comm->ctx + SMPI_MAX_CTX inside the library */
	int lpeer;		/* on-node rank of the peer */
	void *bbuf;		/* buffered send: the copy in the attached buffer */
	struct smpi_req *inner;	/* a program's buffered send: the send of its copy */
	MPI_Status status;
	int net;		/* in the network engine's hands (p2pnet.c) */
	void *packed;		/* p2pnet.c: the message packed, for a derived type */
	struct net_op nop;
	struct smpi_nbc *nbc;	/* SMPI_REQ_COLL: its schedule (nbc.c) */
	struct smpi_greq *greq;	/* SMPI_REQ_GREQ: its functions (grequest.c) */
	struct smpi_part *part;	/* SMPI_REQ_PART_*: its pairing and partitions (part.c) */
	struct smpi_rndv rv;
};

void smpi_p2p_init(void);
/* The protocol limits as set at MPI_Init (bytes), for MPI_T. */
enum { SMPI_LIMIT_EAGER, SMPI_LIMIT_RING, SMPI_LIMIT_SPLIT };
uint64_t smpi_p2p_limit(int which);
/* Point-to-point calls made by this rank, for MPI_T (tools.c). */
extern struct smpi_pv {
	uint64_t sends, recvs;
} smpi_pv;
void smpi_p2p_finalize(void);
/* One pass over every incoming queue and the sends waiting for space. */
void smpi_progress(void);
/* Starts req (a send or receive with its fields set). */
void smpi_p2p_start(struct smpi_req *req);
/* Completion of a started request that is not done yet, without progress
 * (a rendezvous sender its receiver asked for help copies its pieces first). */
int smpi_p2p_done(struct smpi_req *req);

static inline int smpi_req_done(struct smpi_req *req)
{
	return req->state == SMPI_ST_DONE || smpi_p2p_done(req);
}
/*
 * A send that may withdraw (req->withdraw) and has been waited for, in a
 * wait or test, for P2P_WITHDRAW_NS without its receiver claiming it,
 * copies its data aside and withdraws: 1 when it did (req->withdrawn),
 * after which the caller's buffer is free and the request complete for
 * its caller, though the receiver still reads the copy through it.
 */
int smpi_p2p_send_due(struct smpi_req *req);

/* Complete for the caller: done, or a send withdrawn to a copy. */
static inline int smpi_req_complete(struct smpi_req *req)
{
	return smpi_req_done(req) || req->withdrawn ||
	       (req->withdraw && smpi_p2p_send_due(req));
}
/* Spins with progress until req is complete (smpi_req_complete). */
void smpi_req_wait(struct smpi_req *req);
/* Starts the nonblocking send req; up to SMAP_MPI_EAGER bytes it may
 * withdraw when waited for, so that it completes like a blocking send. */
void smpi_p2p_isend(struct smpi_req *req);
/* Hands a started request nobody will wait for to progress, which frees it
 * (also a withdrawn send whose receiver has not read its copy yet). */
void smpi_p2p_orphan(struct smpi_req *req);
/* Removes a posted receive; 1 if it was still unmatched. */
int smpi_p2p_cancel(struct smpi_req *req);
/* An unexpected message a receive for (source, tag) would take. */
int smpi_p2p_probe(MPI_Comm comm, int source, int tag, MPI_Status *status);
/* The tag of the first message from world rank world_src in context ctx
 * that no receive has taken yet: 1 and *tag, or 0 if none (no progress). */
int smpi_p2p_peek(int ctx, int world_src, int *tag);
/* MPI_Get_count's answer in full (pt2pt.c), for fn. */
int smpi_get_count(const MPI_Status *status, MPI_Datatype type, MPI_Count *count, const char *fn);

/*
 * A send that leaves at once, with nothing to complete later (inline and
 * eager messages, when the queue has room): 1, or 0 for a send that needs
 * a request (the library's own sends: a user's nonblocking send keeps a
 * request, which MPI_Cancel needs).
 */
int smpi_p2p_send_now(const void *buf, int64_t count, MPI_Datatype type, int peer, int tag,
		      MPI_Comm comm, int ctx, int mode);

/*
 * Blocking send and receive of `count` elements of `type` to or from comm
 * rank `peer` (not MPI_PROC_NULL), on context ctx (comm->ctx for the
 * user's messages).  The send returns once buf may be reused; the receive
 * fills *status (never MPI_STATUS_IGNORE) and returns its error class.
 * Small sends and receives from a named source take no request.
 */
void smpi_p2p_send(const void *buf, int64_t count, MPI_Datatype type, int peer, int tag,
		   MPI_Comm comm, int ctx, int mode);
int smpi_p2p_recv(void *buf, int64_t count, MPI_Datatype type, int peer, int tag,
		  MPI_Comm comm, int ctx, MPI_Status *status);

static inline void smpi_req_init(struct smpi_req *r, int kind, int mode, const void *buf,
				 int64_t count, MPI_Datatype type, int peer, int tag,
				 MPI_Comm comm)
{
	r->kind = kind;
	r->mode = mode;
	r->state = SMPI_ST_IDLE;
	r->live = SMPI_LIVE_REQ;
	r->persistent = 0;
	r->freed = 0;
	r->cancel = 0;
	r->inner = NULL;
	r->buf = buf;
	r->count = count;
	r->type = type;
	r->comm = comm;
	r->peer = peer;
	r->tag = tag;
	r->ctx = comm->ctx;
	r->bbuf = NULL;
	r->withdraw = 0;
	r->withdrawn = 0;
	r->deadline = 0;
	r->net = 0;
	r->packed = NULL;
	r->rv.copy = 0;
}

/* Requests of nonblocking calls come from a free list (req.c); they hold
 * a reference to their datatype and their communicator until freed. */
struct smpi_req *smpi_req_alloc(int kind, int mode, const void *buf, int64_t count,
				MPI_Datatype type, int peer, int tag, MPI_Comm comm);
void smpi_req_free(struct smpi_req *req);

/* Blocking exchanges on a communicator's library context, invisible to
 * the user's messages (communicator construction). */
static inline void smpi_sys_send(const void *buf, int64_t bytes, int dest, MPI_Comm comm)
{
	smpi_p2p_send(buf, bytes, MPI_BYTE, dest, 0, comm, comm->ctx + SMPI_MAX_CTX,
		      SMPI_MODE_STD);
}

static inline void smpi_sys_recv(void *buf, int64_t bytes, int source, MPI_Comm comm)
{
	MPI_Status st;

	smpi_p2p_recv(buf, bytes, MPI_BYTE, source, 0, comm, comm->ctx + SMPI_MAX_CTX, &st);
}

/*
 * Schedules (nbc.c, nbc.h): nonblocking, persistent and neighborhood
 * collectives.  smpi_progress runs the started ones; a request of kind
 * SMPI_REQ_COLL is started (again) by smpi_nbc_start, and its schedule
 * goes with it (smpi_req_free).
 */
extern int smpi_nbc_active;
void smpi_nbc_progress(void);
/* Lets the collective engine's waits run progress (nbc.c). */
void smpi_nbc_init(void);
void smpi_nbc_start(struct smpi_req *req);
void smpi_nbc_free(struct smpi_nbc *s);
/* Partitioned requests (part.c): progress runs them while any is started
 * or unpaired; MPI_Start and smpi_req_free come here for them. */
extern int smpi_part_active;
void smpi_part_progress(void);
void smpi_part_start(struct smpi_req *req);
void smpi_part_free(struct smpi_req *req);
/* A communicator's topology goes with it; a duplicate gets a copy (topo.c). */
void smpi_topo_free(struct smpi_topo *t);
struct smpi_topo *smpi_topo_dup(const struct smpi_topo *t);
int smpi_topo_kind(const struct smpi_topo *t);

/* The collective engine's view of c, made now if it was left for later
 * (MPI_Comm_idup): collective, so called where all members call. */
struct coll_group *smpi_comm_coll(MPI_Comm c);
/* The bytes of count basic elements of type, as a status records them
 * (MPI_Status_set_elements and _x). */
int64_t smpi_elements_bytes(MPI_Datatype type, int64_t count);

/* Context ids free on this rank (ctxid.c); agreeing on one is nbc.h's. */
void smpi_ctx_init(void);
void smpi_ctx_take(int ctx);
void smpi_ctx_release(int ctx);

/* The collective engine's group of a communicator spanning nodes, over
 * point-to-point on its library context (coll_span.c). */
struct coll_group *smpi_coll_span(MPI_Comm comm);

/* Point-to-point with ranks on other nodes (p2pnet.c), under p2p.c. */
struct p2p_unexp;
/* 0 when the job spans nodes and the network is up. */
int smpi_pnet_init(void);
void smpi_pnet_send(struct smpi_req *req);
int smpi_pnet_send_now(const void *buf, int64_t count, MPI_Datatype type, int peer, int tag,
		       MPI_Comm comm, int ctx, int mode);
void smpi_pnet_send_blocking(const void *buf, int64_t count, MPI_Datatype type, int peer,
			     int tag, MPI_Comm comm, int ctx, int mode);
/* The receive r takes the unexpected network message u. */
void smpi_pnet_deliver(struct smpi_req *r, struct p2p_unexp *u);

/* Buffered sends (bsend.c). */
/* keep: req is the program's request, which keeps the send of the copy
 * (req->inner) until it is freed or started again, for MPI_Cancel. */
int smpi_bsend_copy(struct smpi_req *req, int keep, const char *fn);
void smpi_bsend_release(struct smpi_req *req);
/* A communicator's or a session's buffer, when it goes (after its sends). */
void smpi_bpool_free(struct smpi_bpool **pp);
/* Where a session keeps its buffer (session.c); where the session of a
 * communicator derived from one does, or NULL. */
int smpi_session_bpool(MPI_Session s, struct smpi_bpool ***pp, const char *fn);
struct smpi_bpool **smpi_comm_session_bpool(MPI_Comm c);

/* MPI 3.1 3.2.5: a call that hands out one status leaves its MPI_ERROR as
 * the caller left it, the return value saying the same: the public
 * functions take it before (smpi_status_error) and put it back after. */
static inline int smpi_status_error(const MPI_Status *st)
{
	return st != MPI_STATUS_IGNORE ? st->MPI_ERROR : 0;
}

/* A single-completion call leaves MPI_ERROR as the caller left it (MPI
 * 3.1 section 3.2.5), except in an empty status (an inactive or null
 * request's: no source, no tag), whose error is MPI_SUCCESS (section
 * 3.7.3). */
static inline int smpi_status_keep(MPI_Status *st, int kept, int err)
{
	if (st != MPI_STATUS_IGNORE &&
	    !(st->MPI_SOURCE == MPI_ANY_SOURCE && st->MPI_TAG == MPI_ANY_TAG))
		st->MPI_ERROR = kept;
	return err;
}

static inline void smpi_status_set(MPI_Status *st, int src, int tag, int err,
				   int64_t bytes)
{
	st->MPI_SOURCE = src;
	st->MPI_TAG = tag;
	st->MPI_ERROR = err;
	st->smpi_cancelled = 0;
	st->smpi_bytes = bytes;
}

#endif
