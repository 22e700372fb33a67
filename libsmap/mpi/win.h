/*
 * win.h - MPI one-sided communication (RMA windows) over SMARTMAP: what
 * win.c (windows, attributes, errors), win_sync.c (epochs) and win_rma.c
 * (the data calls) share.  docs/rma.md has the design.
 *
 * Every window memory of every member is reachable by load and store, so a
 * Put is a copy into the target's memory and is complete, at the origin and
 * at the target, when the call returns.  Synchronisation only orders and
 * excludes: counters and locks live in each member's own memory (struct
 * win_shared) and peers reach them through SMARTMAP, so no call ever needs
 * the target to do anything.
 */
#ifndef SMPI_WIN_H
#define SMPI_WIN_H

#include "impl.h"

/* Accumulates on elements no instruction updates atomically take one of
 * these locks in the target's memory, chosen by the element's address. */
#define WIN_STRIPES	64

struct win_line {
	uint64_t v;
} __attribute__((aligned(64)));

/* Active-target counters that member j keeps in this member's memory: only
 * j writes them, and they only grow. */
struct win_pscw {
	uint64_t posted;	/* j posted an exposure epoch to this member */
	uint64_t completed;	/* j completed an access epoch to this member */
} __attribute__((aligned(64)));

/* The part of a member's window state its peers use (in its own memory). */
struct win_shared {
	struct win_line lock;			/* passive target: WIN_LOCK_* bits | sharers */
	struct win_line stripe[WIN_STRIPES];
	struct win_line acc;			/* accumulates of several elements */
	struct win_pscw pscw[];			/* indexed by window rank */
};

/* The passive-target lock word: an exclusive holder, a waiting exclusive
 * locker (new shared lockers then hold back), and the number of sharers. */
#define WIN_LOCK_X	(1ULL << 63)
#define WIN_LOCK_W	(1ULL << 62)

/* What this rank knows of member i. */
struct win_peer {
	char *base;		/* member i's window memory as this rank addresses it */
	int64_t size;
	int disp_unit;
	int node;		/* on-node rank: what remote_address() takes; -1 on another node */
	int world;		/* world rank: what the network takes */
	struct win_shared *sh;	/* member i's shared state, as this rank addresses it */
};

/* Per-target access state of this origin (bits of smpi_win.acc[t]). */
#define WIN_ACC_SHARED	1	/* MPI_Win_lock(MPI_LOCK_SHARED, t) */
#define WIN_ACC_EXCL	2	/* MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t) */
#define WIN_ACC_NOCHECK	4	/* that lock was taken with MPI_MODE_NOCHECK: nothing to release */
#define WIN_ACC_START	8	/* t is in the group of MPI_Win_start */

/* One attached region of a dynamic window. */
struct win_region {
	uintptr_t base;
	MPI_Aint size;
};

struct smpi_win {
	MPI_Comm comm;		/* private: group, rank maps, engine group; errors return */
	int rank, size;
	int flavor;
	int model;		/* MPI_WIN_UNIFIED, for MPI_WIN_MODEL */
	void *base;		/* this member's memory, for the attributes */
	MPI_Aint wsize;
	int disp_unit;
	void *alloc;		/* what this rank allocated for the window and frees with it */
	struct smpi_errh *errh;
	MPI_Info info;		/* a copy of the info set on it, or NULL (info.c) */
	struct win_peer *peer;
	struct win_shared *sh;	/* this member's, in its own memory */
	/* access epochs of this origin */
	int fence;		/* a fence without NOSUCCEED opened one */
	unsigned char *acc;	/* per target: WIN_ACC_* */
	int nlocked;		/* targets locked one by one */
	int lock_all;		/* 0, 1, or 2 when taken with MPI_MODE_NOCHECK */
	int *start;		/* targets of the PSCW access epoch, NULL when none */
	int nstart;
	uint64_t *posts_seen;	/* per target: posts our starts consumed */
	/* exposure epoch of this target */
	int *post;		/* origins of the PSCW exposure epoch, NULL when none */
	int npost;
	uint64_t *completes_seen;	/* per origin: completions our waits consumed */
	/* dynamic windows */
	struct win_region *region;
	int nregion, maxregion;
	struct smpi_attr *attrs;
	char name[MPI_MAX_OBJECT_NAME];
};

/* Kinds whose MPI_SUM is an integer add (lock xadd). */
#define RMA_INT_KINDS \
	(1ULL << SMPI_K_CHAR | 1ULL << SMPI_K_SCHAR | 1ULL << SMPI_K_UCHAR | 1ULL << SMPI_K_WCHAR | \
	 1ULL << SMPI_K_SHORT | 1ULL << SMPI_K_USHORT | 1ULL << SMPI_K_INT | 1ULL << SMPI_K_UINT | \
	 1ULL << SMPI_K_LONG | 1ULL << SMPI_K_ULONG | 1ULL << SMPI_K_LLONG | \
	 1ULL << SMPI_K_ULLONG | 1ULL << SMPI_K_I8 | 1ULL << SMPI_K_I16 | 1ULL << SMPI_K_I32 | \
	 1ULL << SMPI_K_I64 | 1ULL << SMPI_K_U8 | 1ULL << SMPI_K_U16 | 1ULL << SMPI_K_U32 | \
	 1ULL << SMPI_K_U64 | 1ULL << SMPI_K_AINT | 1ULL << SMPI_K_OFFSET | 1ULL << SMPI_K_COUNT)
/* Compare_and_swap takes the integers, logicals and bytes. */
#define RMA_CAS_KINDS	(RMA_INT_KINDS | 1ULL << SMPI_K_BOOL | 1ULL << SMPI_K_BYTE)

static inline int rma_kind_in(int kind, uint64_t set)
{
	return (set >> kind) & 1;
}

/* Reports error class `code` of call fn through the window's handler. */
int smpi_win_err(MPI_Win win, int code, const char *fn, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* MPI initialised and win a window: 0, else the error for fn. */
int smpi_win_check(MPI_Win win, const char *fn);
/* Checks the rank of a target (MPI_PROC_NULL allowed when procnull). */
int smpi_win_rank(MPI_Win win, int rank, int procnull, const char *fn);
/* Spin-wait step for the synchronisation calls: other MPI traffic keeps
 * moving while a rank waits on a peer's flag. */
void smpi_win_spin(unsigned *spins);
/*
 * The seam under RMA (win_net.c): member i's memory by load, store and
 * lock-prefixed instruction on this node, through the network beyond it,
 * where base and sh are addresses in member i (its own view).
 */
static inline int smpi_win_remote(MPI_Win win, int i)
{
	return win->peer[i].node < 0;
}
/* An atomic (SNAMO_* kind) on the 64-bit word w of member i: the old value. */
uint64_t smpi_win_word(MPI_Win win, int i, uint64_t *w, uint8_t kind, uint64_t v, uint64_t cond);
/* Put or get between count elements of otype at obuf and tcount of ttype
 * at `at` in member i (not on this node); done by the next smpi_win_quiet,
 * or before returning when wait is set: then 0 or the engine's -errno. */
int smpi_win_net_move(MPI_Win win, int i, void *obuf, int64_t ocount, MPI_Datatype otype,
		      char *at, int64_t tcount, MPI_Datatype ttype, int get, int wait);
/* Whether the target's engine can combine tcount ttype at `at` with op
 * (a predefined op on a kind it has, each run of the layout aligned to an
 * element); if not, the caller walks the elements. */
int smpi_win_net_combines(MPI_Op op, char *at, int64_t tcount, MPI_Datatype ttype);
/* An accumulate (op, no fetch) of those elements through member i's
 * engine, each element atomic at the target, done as a put is (only when
 * smpi_win_net_combines): 0, or -1 when the target refused it (wait set). */
int smpi_win_net_acc(MPI_Win win, int i, const void *obuf, int64_t ocount, MPI_Datatype otype,
		     char *at, int64_t tcount, MPI_Datatype ttype, MPI_Op op, int wait);
/* The fetching form, from packed origin data at obuf (unused for
 * MPI_NO_OP) into packed results at rbuf, on tcount ttype at `at` (only
 * when smpi_win_net_combines): the old values land in rbuf before it
 * returns; 0, or -1 when the target refused it. */
int smpi_win_net_facc(MPI_Win win, int i, const void *obuf, void *rbuf, char *at,
		      int64_t tcount, MPI_Datatype ttype, MPI_Op op);
/* One accumulate element of `width` bytes at t in member i (not on this
 * node): atomic with what origins on member i's node do to it. */
/* The accumulate lock of member i on another node (win_rma.c's, taken
 * through the network's atomics). */
uint64_t *smpi_win_net_acc_lock(MPI_Win win, int i);
void smpi_win_net_acc_unlock(MPI_Win win, int i, uint64_t *l);
void smpi_win_net_element(MPI_Win win, int i, char *t, size_t width, const void *in, void *old,
			  MPI_Op op, int kind);
/* Compare_and_swap of one element of `size` bytes at t in member i. */
void smpi_win_net_cas(MPI_Win win, int i, char *t, size_t size, const void *obuf,
		      const void *cbuf, void *rbuf);
/* Every operation this origin issued has completed at its target. */
void smpi_win_quiet(MPI_Win win);
/* A barrier of the window's group. */
void smpi_win_barrier(MPI_Win win);

/* 0 if an access epoch of this origin covers target (only a passive-target
 * one when passive is set: the request-based calls), else the error. */
int smpi_win_epoch(MPI_Win win, int target, int passive, const char *fn);

#endif
