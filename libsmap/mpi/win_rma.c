/*
 * win_rma.c - the RMA data calls: Put, Get, Accumulate, Get_accumulate,
 * Fetch_and_op, Compare_and_swap and the request forms.
 *
 * The origin reaches the target's window memory through SMARTMAP and
 * does the whole operation itself: Put and Get are one copy between the
 * two layouts (the datatype engine's cursors, no packing), and every call
 * has completed at both ends when it returns.  MPI_PROC_NULL targets do
 * nothing.
 *
 * Accumulates are atomic per element, as MPI requires, without any lock
 * where an instruction can do it: an element of 1, 2, 4 or 8 bytes at an
 * address aligned to its size is updated by a plain store (MPI_REPLACE;
 * xchg when the old value is fetched), lock xadd (MPI_SUM on integers), a
 * plain load (MPI_NO_OP), and otherwise by a lock cmpxchg loop around the
 * op's own kernel on the element's bit pattern (floats, the 8-byte
 * MINLOC/MAXLOC pairs, min/max/prod/logical ops).
 * Wider elements (long double, the complex doubles, the wide pairs) and
 * misaligned ones take one of WIN_STRIPES spin locks in the target's
 * memory, chosen by the element's address; a given element always takes
 * the same path, so the two never race on one location.  An origin holding
 * an exclusive lock on the target applies the op to contiguous runs in one
 * go: nobody else may touch that window meanwhile.
 *
 * An accumulate of several elements is also atomic as a whole against the
 * others on the same target (it holds the target's accumulate lock while
 * it applies its elements, each still atomic on its own): MPI promises
 * only per-element atomicity, but MPICH and Open MPI give whole calls, and
 * codes count on it - MPICH's linked-list tests swap a 16-byte (rank,
 * displacement) pointer as MPI_BYTE and must never read half of one.
 */
#include <stdlib.h>
#include <string.h>
#include "win.h"

static int rma_type(MPI_Win win, int count, MPI_Datatype t, const char *which, const char *fn)
{
	if (count < 0)
		return smpi_win_err(win, MPI_ERR_COUNT, fn, "%s count %d is negative", which, count);
	if (t == MPI_DATATYPE_NULL)
		return smpi_win_err(win, MPI_ERR_TYPE, fn, "%s datatype is MPI_DATATYPE_NULL", which);
	if (!t->committed)
		return smpi_win_err(win, MPI_ERR_TYPE, fn, "%s datatype is not committed", which);
	return MPI_SUCCESS;
}

static const char *rma_type_name(MPI_Datatype t)
{
	return t->name[0] ? t->name : "(derived)";
}

/*
 * *at = where count elements of t at displacement disp of rank's window
 * start, as this rank addresses them, after checking that every byte they
 * touch lies inside the window (or, for a dynamic window, inside the
 * target's memory: disp is then an address there).
 */
static int rma_target(MPI_Win win, int rank, MPI_Aint disp, int64_t count, MPI_Datatype t,
		      char **at, const char *fn)
{
	const struct win_peer *p = &win->peer[rank];
	const struct dt_node *r = dt_root(t->dt);
	int64_t last = count > 0 ? (count - 1) * r->extent : 0, lo, hi, off;

	lo = r->true_lb + (last < 0 ? last : 0);
	hi = r->true_ub + (last > 0 ? last : 0);
	if (count == 0 || r->size == 0) {
		*at = NULL;
		return MPI_SUCCESS;
	}
	if (win->flavor == MPI_WIN_FLAVOR_DYNAMIC && smpi_win_remote(win, rank)) {
		/* the target's engine checks the range against its memory */
		*at = (char *)disp;
		return MPI_SUCCESS;
	}
	if (win->flavor == MPI_WIN_FLAVOR_DYNAMIC) {
		*at = rank == win->rank ? (char *)disp : remote_address(p->node, (void *)disp);
		if (!smap_is_remote_ok(p->node, *at + lo, hi - lo))
			return smpi_win_err(win, MPI_ERR_RMA_RANGE, fn,
					    "address 0x%lx (+%ld bytes) is not in rank %d's memory",
					    (unsigned long)disp + lo, (long)(hi - lo), rank);
		return MPI_SUCCESS;
	}
	/* overflow-safe: a displacement or count that wraps is out of range */
	if (__builtin_mul_overflow((int64_t)disp, (int64_t)p->disp_unit, &off) ||
	    __builtin_add_overflow(off, lo, &lo) || __builtin_add_overflow(off, hi, &hi) ||
	    lo < 0 || hi > p->size)
		return smpi_win_err(win, MPI_ERR_RMA_RANGE, fn,
				    "bytes [%ld, %ld) are outside rank %d's window of %ld bytes",
				    (long)lo, (long)hi, rank, (long)p->size);
	*at = p->base + off;
	return MPI_SUCCESS;
}

/* Checks common to every data call; *skip when the target is MPI_PROC_NULL. */
static int rma_begin(MPI_Win win, int rank, int passive, MPI_Request *req, int *skip,
		     const char *fn)
{
	int err;

	if ((err = smpi_win_check(win, fn)) || (err = smpi_win_rank(win, rank, 1, fn)))
		return err;
	if (req)
		*req = MPI_REQUEST_NULL;
	*skip = rank == MPI_PROC_NULL;
	if (*skip)
		return MPI_SUCCESS;
	return smpi_win_epoch(win, rank, passive, fn);
}

/* The request of an R-call: the operation is already complete. */
static void rma_request(MPI_Win win, MPI_Request *req)
{
	struct smpi_req *r = smpi_req_alloc(SMPI_REQ_LOCAL, SMPI_MODE_STD, NULL, 0, MPI_BYTE,
					    MPI_PROC_NULL, 0, win->comm);

	smpi_status_set(&r->status, MPI_PROC_NULL, MPI_ANY_TAG, MPI_SUCCESS, 0);
	r->state = SMPI_ST_DONE;
	*req = r;
}

/* A contiguous put or get: the small ones are a load and a store. */
static void rma_copy(void *d, const void *s, size_t n)
{
	switch (n) {
	case 1: __builtin_memcpy(d, s, 1); return;
	case 2: __builtin_memcpy(d, s, 2); return;
	case 4: __builtin_memcpy(d, s, 4); return;
	case 8: __builtin_memcpy(d, s, 8); return;
	case 16: __builtin_memcpy(d, s, 16); return;
	}
	memmove(d, s, n);
}

static int rma_no_request(const char *fn)
{
	return smpi_err(NULL, MPI_ERR_REQUEST, fn, "request pointer is NULL");
}

static int rma_move(void *obuf, int ocount, MPI_Datatype otype, int rank, MPI_Aint disp,
		    int tcount, MPI_Datatype ttype, MPI_Win win, MPI_Request *req, int get,
		    const char *fn)
{
	int64_t obytes, tbytes;
	char *at;
	int err, skip;

	if ((err = rma_begin(win, rank, req != NULL, req, &skip, fn)) ||
	    (err = rma_type(win, ocount, otype, "origin", fn)) ||
	    (err = rma_type(win, tcount, ttype, "target", fn)))
		return err;
	if (!skip) {
		obytes = ocount * smpi_type_size(otype);
		tbytes = tcount * smpi_type_size(ttype);
		if (obytes != tbytes)
			return smpi_win_err(win, MPI_ERR_TYPE, fn,
					    "origin data of %lld bytes does not match target data of %lld bytes",
					    (long long)obytes, (long long)tbytes);
		if ((err = rma_target(win, rank, disp, tcount, ttype, &at, fn)))
			return err;
		if (smpi_win_remote(win, rank)) {
			/* A dynamic window's address is only known good to the
			 * target: wait for its verdict. */
			int dyn = win->flavor == MPI_WIN_FLAVOR_DYNAMIC;

			if (smpi_win_net_move(win, rank, obuf, ocount, otype, at, tcount, ttype, get,
					      req != NULL || dyn) < 0)
				return smpi_win_err(win, MPI_ERR_RMA_RANGE, fn,
						    "address 0x%lx (+%lld bytes) is not in rank %d's memory",
						    (unsigned long)disp, (long long)tbytes, rank);
		} else if (dt_is_dense(otype->dt) && dt_is_dense(ttype->dt))
			rma_copy(get ? obuf : at, get ? at : obuf, obytes);
		else if (get)
			smpi_type_copy(obuf, ocount, otype, at, tcount, ttype);
		else
			smpi_type_copy(at, tcount, ttype, obuf, ocount, otype);
	}
	if (req)
		rma_request(win, req);
	return MPI_SUCCESS;
}

int PMPI_Put(const void *obuf, int ocount, MPI_Datatype otype, int rank, MPI_Aint disp,
	     int tcount, MPI_Datatype ttype, MPI_Win win)
{
	return rma_move((void *)obuf, ocount, otype, rank, disp, tcount, ttype, win, NULL, 0,
			"MPI_Put");
}

int PMPI_Get(void *obuf, int ocount, MPI_Datatype otype, int rank, MPI_Aint disp,
	     int tcount, MPI_Datatype ttype, MPI_Win win)
{
	return rma_move(obuf, ocount, otype, rank, disp, tcount, ttype, win, NULL, 1, "MPI_Get");
}

int PMPI_Rput(const void *obuf, int ocount, MPI_Datatype otype, int rank, MPI_Aint disp,
	      int tcount, MPI_Datatype ttype, MPI_Win win, MPI_Request *req)
{
	if (!req)
		return rma_no_request("MPI_Rput");
	return rma_move((void *)obuf, ocount, otype, rank, disp, tcount, ttype, win, req, 0,
			"MPI_Rput");
}

int PMPI_Rget(void *obuf, int ocount, MPI_Datatype otype, int rank, MPI_Aint disp,
	      int tcount, MPI_Datatype ttype, MPI_Win win, MPI_Request *req)
{
	if (!req)
		return rma_no_request("MPI_Rget");
	return rma_move(obuf, ocount, otype, rank, disp, tcount, ttype, win, req, 1, "MPI_Rget");
}

/* ---- accumulates ---- */

/* The MINLOC/MAXLOC pair of a kind, NULL for the others. */
static MPI_Datatype rma_pair(int kind)
{
	switch (kind) {
	case SMPI_K_FLOAT_INT: return MPI_FLOAT_INT;
	case SMPI_K_DOUBLE_INT: return MPI_DOUBLE_INT;
	case SMPI_K_LONG_INT: return MPI_LONG_INT;
	case SMPI_K_2INT: return MPI_2INT;
	case SMPI_K_SHORT_INT: return MPI_SHORT_INT;
	case SMPI_K_LDOUBLE_INT: return MPI_LONG_DOUBLE_INT;
	case SMPI_K_2FLOAT: return MPI_2REAL;
	case SMPI_K_2DOUBLE: return MPI_2DOUBLE_PRECISION;
	}
	return NULL;
}

/*
 * Walks the basic elements of count elements of t at buf, one address at a
 * time.  An element is `size` bytes of data spanning `span` bytes (the
 * pairs have a hole), laid out as C lays out its type wherever it sits.
 */
struct rma_walk {
	struct dt_cursor c;
	char *next;		/* dense layouts: no cursor */
	size_t size, span;
	int dense;
};

static void rma_walk_init(struct rma_walk *w, const void *buf, int64_t count, MPI_Datatype t,
			  size_t size, size_t span)
{
	w->size = size;
	w->span = span;
	w->dense = dt_is_dense(t->dt) && size == span;
	w->next = (char *)buf;
	if (!w->dense)
		dt_cursor_init(&w->c, t->dt, buf, count);
}

static char *rma_walk_next(struct rma_walk *w)
{
	char *p = w->next;

	if (w->dense) {
		w->next += w->size;
		return p;
	}
	/* Elements never straddle runs: after skipping one, it ends here. */
	dt_skip(&w->c, w->size);
	return w->c.p - w->span;
}

/* One element of `width` bytes: old (if not NULL) gets the target's value
 * before op. */
#define RMA_ATOMIC(T) do { \
	T *p_ = (T *)t, o_, n_; \
	if (op == MPI_NO_OP) { \
		o_ = __atomic_load_n(p_, __ATOMIC_SEQ_CST); \
	} else if (op == MPI_REPLACE && !old) { \
		/* An aligned store is atomic: no lock needed to replace. */ \
		memcpy(&n_, in, sizeof n_); \
		__atomic_store_n(p_, n_, __ATOMIC_RELAXED); \
		o_ = n_; \
	} else if (op == MPI_REPLACE) { \
		memcpy(&n_, in, sizeof n_); \
		o_ = __atomic_exchange_n(p_, n_, __ATOMIC_SEQ_CST); \
	} else if (op == MPI_SUM && rma_kind_in(kind, RMA_INT_KINDS)) { \
		memcpy(&n_, in, sizeof n_); \
		o_ = __atomic_fetch_add(p_, n_, __ATOMIC_SEQ_CST); \
	} else { \
		o_ = __atomic_load_n(p_, __ATOMIC_RELAXED); \
		do { \
			n_ = o_; \
			op->fn(in, &n_, 1, kind); \
		} while (!__atomic_compare_exchange_n(p_, &o_, n_, 0, __ATOMIC_SEQ_CST, \
						      __ATOMIC_RELAXED)); \
	} \
	if (old) \
		memcpy(old, &o_, sizeof o_); \
} while (0)

/* The stripe lock for target element t, chosen by its address within the
 * target's memory: the same whichever slot a rank reaches it through. */
static void rma_spin_lock(uint64_t *l)
{
	unsigned spins = 0;

	while (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(l, __ATOMIC_RELAXED))
			smpi_spin(&spins);
}

static uint64_t *rma_stripe_lock(struct win_shared *sh, const char *t)
{
	uintptr_t a = (uintptr_t)t & ((1ULL << 39) - 1);
	uint64_t *l = &sh->stripe[(a >> 4) % WIN_STRIPES].v;

	rma_spin_lock(l);
	return l;
}

static void rma_stripe_unlock(uint64_t *l)
{
	__atomic_store_n(l, 0, __ATOMIC_RELEASE);
}

/* Elements only whole-width instructions cannot reach atomically. */
static int rma_lock_free(const char *t, size_t width)
{
	return (width == 1 || width == 2 || width == 4 || width == 8) && (uintptr_t)t % width == 0;
}

static void rma_element(MPI_Win win, int rank, char *t, size_t width, const void *in, void *old,
			MPI_Op op, int kind)
{
	uint64_t *l;

	if (smpi_win_remote(win, rank)) {
		smpi_win_net_element(win, rank, t, width, in, old, op, kind);
		return;
	}
	switch (rma_lock_free(t, width) ? width : 0) {
	case 1: RMA_ATOMIC(uint8_t); return;
	case 2: RMA_ATOMIC(uint16_t); return;
	case 4: RMA_ATOMIC(uint32_t); return;
	case 8: RMA_ATOMIC(uint64_t); return;
	}
	l = rma_stripe_lock(win->peer[rank].sh, t);
	if (old)
		memcpy(old, t, width);
	if (op == MPI_REPLACE)
		memcpy(t, in, width);
	else if (op != MPI_NO_OP)
		op->fn(in, t, 1, kind);
	rma_stripe_unlock(l);
}

/* Elements of one basic type in a count of t: *n, with their size and span. */
static void rma_elems(MPI_Datatype t, int64_t count, int64_t *n, size_t *size, size_t *span)
{
	MPI_Datatype pair = rma_pair(t->kind);
	const struct dt_node *r = dt_root((pair ? pair : t)->dt);

	if (pair) {
		*size = r->size;
		*span = r->true_ub;
		*n = count * smpi_type_size(t) / *size;
	} else if (t->predefined) {
		*size = *span = r->size;
		*n = count;
	} else {
		*size = *span = r->nbasic ? r->size / r->nbasic : 1;
		*n = count * r->size / *size;
	}
}

/* Bytes of target a batch of rma_acc_blocks computes at a time. */
#define RMA_BATCH	1024

/*
 * Dense runs of elements of 1-8 bytes on this node, under the target's
 * accumulate lock: a batch is computed, vectorised, from a snapshot of the
 * target, and each 16-byte block of it goes in with one compare-and-swap.
 * Single-element atomics do not take the lock; a block one of them changed
 * since the snapshot fails its swap and is computed again from what is
 * there (a replace's is only swapped again), so every element stays whole
 * to them, at one locked instruction per 16 bytes instead of one per
 * element.  Returns the elements done (the whole blocks); the caller walks
 * the rest.
 */
__attribute__((target("cx16")))
static int64_t rma_acc_blocks(char *t, const char *in, char *old, int64_t n, size_t size,
			      MPI_Op op, int kind)
{
	typedef unsigned __int128 u128;
	u128 snap[RMA_BATCH / 16], calc[RMA_BATCH / 16];
	size_t per = 16 / size, total = (size_t)n * size / 16 * 16;

	for (size_t off = 0; off < total; off += RMA_BATCH) {
		size_t len = total - off < RMA_BATCH ? total - off : RMA_BATCH;
		u128 *blk = (u128 *)(t + off);

		memcpy(snap, blk, len);
		if (op == MPI_REPLACE) {
			memcpy(calc, in + off, len);
		} else {
			memcpy(calc, snap, len);
			op->fn(in + off, calc, (int64_t)(len / size), kind);
		}
		for (size_t k = 0; k < len / 16; k++) {
			u128 was = __sync_val_compare_and_swap(&blk[k], snap[k], calc[k]);

			while (was != snap[k]) {
				snap[k] = was;
				if (op != MPI_REPLACE) {
					calc[k] = was;
					op->fn(in + off + 16 * k, &calc[k], (int64_t)per, kind);
				}
				was = __sync_val_compare_and_swap(&blk[k], snap[k], calc[k]);
			}
		}
		if (old)
			memcpy(old + off, snap, len);
	}
	return (int64_t)(total / size);
}

/*
 * A dense run of n aligned elements of 1-8 bytes on this node replaced
 * from in (old NULL) or read into old (NO_OP): an aligned store or load of
 * an element is atomic already, so one plain loop keeps every element
 * whole to the single-element atomics.
 */
#define RMA_MOVES(T) do { \
	T *t_ = (T *)t, v_; \
	for (int64_t k = 0; k < n; k++) { \
		if (old) { \
			v_ = __atomic_load_n(&t_[k], __ATOMIC_RELAXED); \
			memcpy(old + k * sizeof v_, &v_, sizeof v_); \
		} else { \
			memcpy(&v_, in + k * sizeof v_, sizeof v_); \
			__atomic_store_n(&t_[k], v_, __ATOMIC_RELAXED); \
		} \
	} \
} while (0)

static void rma_moves(char *t, const char *in, char *old, int64_t n, size_t size)
{
	switch (size) {
	case 1: RMA_MOVES(uint8_t); break;
	case 2: RMA_MOVES(uint16_t); break;
	case 4: RMA_MOVES(uint32_t); break;
	case 8: RMA_MOVES(uint64_t); break;
	}
}
#undef RMA_MOVES

/* The elements of an accumulate, walked on all three sides. */
static void rma_acc_runs(MPI_Win win, int rank, char *at, const void *obuf, int ocount,
			 MPI_Datatype otype, void *rbuf, int rcount, MPI_Datatype rtype, int tcount,
			 MPI_Datatype ttype, MPI_Op op, int fetch)
{
	struct rma_walk wo, wr, wt;
	size_t size, span;
	int64_t n, i;
	int kind = ttype->kind;
	uint64_t *l;

	rma_elems(ttype, tcount, &n, &size, &span);
	rma_walk_init(&wt, at, tcount, ttype, size, span);
	if (op != MPI_NO_OP)
		rma_walk_init(&wo, obuf, ocount, otype, size, span);
	if (fetch)
		rma_walk_init(&wr, rbuf, rcount, rtype, size, span);
	/* Inside an exclusive lock no other origin can reach the target (MPI
	 * makes that erroneous), so whole runs need no atomics. */
	if ((win->acc[rank] & WIN_ACC_EXCL) && wt.dense && (op == MPI_NO_OP || wo.dense) &&
	    (!fetch || wr.dense) && smpi_win_remote(win, rank)) {
		/* the run comes over, takes the op here, and goes back */
		char *run = malloc(n * size);

		if (!run)
			smpi_fatal("MPI RMA: no memory for %lld elements", (long long)n);
		smpi_win_net_move(win, rank, run, n * size, MPI_BYTE, at, n * size, MPI_BYTE, 1, 1);
		if (fetch)
			memcpy(wr.next, run, n * size);
		if (op == MPI_REPLACE)
			memcpy(run, wo.next, n * size);
		else if (op != MPI_NO_OP)
			op->fn(wo.next, run, n, kind);
		if (op != MPI_NO_OP)
			smpi_win_net_move(win, rank, run, n * size, MPI_BYTE, at, n * size, MPI_BYTE,
					  0, 1);
		free(run);
		return;
	}
	if ((win->acc[rank] & WIN_ACC_EXCL) && wt.dense && (op == MPI_NO_OP || wo.dense) &&
	    (!fetch || wr.dense)) {
		if (fetch)
			memcpy(wr.next, at, n * size);
		if (op == MPI_REPLACE)
			memmove(at, wo.next, n * size);
		else if (op != MPI_NO_OP)
			op->fn(wo.next, at, n, kind);
		return;
	}
	l = NULL;
	if (n > 1 && smpi_win_remote(win, rank)) {
		l = smpi_win_net_acc_lock(win, rank);
	} else if (n > 1) {
		l = &win->peer[rank].sh->acc.v;
		rma_spin_lock(l);
	}
	i = 0;
	if (!smpi_win_remote(win, rank) && wt.dense && rma_lock_free(at, size) &&
	    ((op == MPI_NO_OP && fetch && wr.dense) || (op == MPI_REPLACE && !fetch && wo.dense))) {
		rma_moves(wt.next, op == MPI_NO_OP ? NULL : wo.next, op == MPI_NO_OP ? wr.next : NULL,
			  n, size);
		i = n;
	}
	/* Whole 16-byte blocks at once, from the first one on. */
	if (i < n && op != MPI_NO_OP && !smpi_win_remote(win, rank) && wt.dense &&
	    wo.dense && (!fetch || wr.dense) && rma_lock_free(at, size) && 16 % size == 0) {
		for (; i < n && (uintptr_t)wt.next % 16; i++)
			rma_element(win, rank, rma_walk_next(&wt), span, rma_walk_next(&wo),
				    fetch ? rma_walk_next(&wr) : NULL, op, kind);
		if (i < n) {
			int64_t done = rma_acc_blocks(wt.next, wo.next, fetch ? wr.next : NULL,
						      n - i, size, op, kind);

			wt.next += done * size;
			wo.next += done * size;
			if (fetch)
				wr.next += done * size;
			i += done;
		}
	}
	for (; i < n; i++)
		rma_element(win, rank, rma_walk_next(&wt), span,
			    op != MPI_NO_OP ? rma_walk_next(&wo) : NULL,
			    fetch ? rma_walk_next(&wr) : NULL, op, kind);
	if (l && smpi_win_remote(win, rank))
		smpi_win_net_acc_unlock(win, rank, l);
	else if (l)
		rma_stripe_unlock(l);
}

/* smpi_win_net_acc under the target's accumulate lock, as rma_acc_runs
 * takes it: an accumulate of several elements is whole to the others of
 * several elements (MPI promises atomicity per element only, but linked
 * lists built with accumulates of MPI_BYTE runs, as MPICH's tests build
 * them, rely on it).  The unlock follows the stream on the same channel,
 * so the target has applied it by then. */
static int rma_acc_stream(MPI_Win win, int rank, const void *obuf, int ocount,
			  MPI_Datatype otype, char *at, int tcount, MPI_Datatype ttype, MPI_Op op,
			  int wait)
{
	uint64_t *l;
	int r;

	/* Asked before the lock and the packing: no round trip for nothing. */
	if (!smpi_win_net_combines(op, at, tcount, ttype))
		return 1;
	l = win->acc[rank] & WIN_ACC_EXCL ? NULL : smpi_win_net_acc_lock(win, rank);
	r = smpi_win_net_acc(win, rank, obuf, ocount, otype, at, tcount, ttype, op, wait);
	if (l)
		smpi_win_net_acc_unlock(win, rank, l);
	return r;
}

/* The fetching form through the target's engine (1: walk the elements):
 * origin and result data go packed when their layouts have holes. */
static int rma_facc_stream(MPI_Win win, int rank, const void *obuf, int ocount,
			   MPI_Datatype otype, void *rbuf, int rcount, MPI_Datatype rtype, char *at,
			   int tcount, MPI_Datatype ttype, int64_t bytes, MPI_Op op)
{
	int pack_o = op != MPI_NO_OP && !dt_is_dense(otype->dt), pack_r = !dt_is_dense(rtype->dt);
	char *o, *r;
	uint64_t *l = NULL;
	int rc;

	if (!smpi_win_net_combines(op, at, tcount, ttype))
		return 1;
	o = pack_o ? malloc(bytes) : (char *)obuf;
	r = pack_r ? malloc(bytes) : rbuf;

	if ((pack_o && !o) || (pack_r && !r))
		smpi_fatal("MPI RMA: no memory to pack %lld bytes", (long long)bytes);
	if (pack_o)
		smpi_type_copy(o, bytes, MPI_BYTE, obuf, ocount, otype);
	if (!(win->acc[rank] & WIN_ACC_EXCL))
		l = smpi_win_net_acc_lock(win, rank);
	rc = smpi_win_net_facc(win, rank, o, r, at, tcount, ttype, op);
	if (l)
		smpi_win_net_acc_unlock(win, rank, l);
	if (pack_r && rc == 0)
		smpi_type_copy(rbuf, rcount, rtype, r, bytes, MPI_BYTE);
	if (pack_o)
		free(o);
	if (pack_r)
		free(r);
	return rc;
}

/* Accumulate and the fetching forms (fetch: rbuf/rcount/rtype are used). */
static int rma_acc(const void *obuf, int ocount, MPI_Datatype otype, void *rbuf, int rcount,
		   MPI_Datatype rtype, int rank, MPI_Aint disp, int tcount, MPI_Datatype ttype,
		   MPI_Op op, MPI_Win win, MPI_Request *req, int fetch, const char *fn)
{
	int64_t n, tbytes, obytes, rbytes;
	size_t size, span;
	int err, skip, kind;
	char *at;

	if ((err = rma_begin(win, rank, req != NULL, req, &skip, fn)) ||
	    (err = rma_type(win, tcount, ttype, "target", fn)) ||
	    (op != MPI_NO_OP && (err = rma_type(win, ocount, otype, "origin", fn))) ||
	    (fetch && (err = rma_type(win, rcount, rtype, "result", fn))))
		return err;
	kind = ttype->kind;
	if (op == MPI_OP_NULL || op->user || (op == MPI_NO_OP && !fetch))
		return smpi_win_err(win, MPI_ERR_OP, fn, "%s cannot be used here: %s",
				    op ? op->name : "MPI_OP_NULL",
				    op && op->user ? "one-sided accumulates take predefined operations only"
						   : "not an accumulate operation");
	/* No element to move (zero counts or zero-size types): nothing to
	 * agree on, whatever the types are made of. */
	if (tcount * smpi_type_size(ttype) == 0 &&
	    (op == MPI_NO_OP || ocount * smpi_type_size(otype) == 0) &&
	    (!fetch || rcount * smpi_type_size(rtype) == 0)) {
		if (req)
			rma_request(win, req);
		return MPI_SUCCESS;
	}
	if (kind == SMPI_K_NONE || kind == SMPI_K_PACKED)
		return smpi_win_err(win, MPI_ERR_TYPE, fn,
				    "target datatype %s is not made of one predefined type",
				    rma_type_name(ttype));
	if ((op != MPI_NO_OP && otype->kind != kind) || (fetch && rtype->kind != kind))
		return smpi_win_err(win, MPI_ERR_TYPE, fn,
				    "origin, result and target datatypes must be made of the same predefined type");
	if (op != MPI_REPLACE && op != MPI_NO_OP && smpi_op_check(win->comm, op, ttype, fn))
		return smpi_win_err(win, MPI_ERR_OP, fn, "%s is not defined on datatype %s", op->name,
				    rma_type_name(ttype));
	if (!skip) {
		/* One basic type everywhere: equal bytes are equal elements. */
		tbytes = tcount * smpi_type_size(ttype);
		obytes = op != MPI_NO_OP ? ocount * smpi_type_size(otype) : tbytes;
		rbytes = fetch ? rcount * smpi_type_size(rtype) : tbytes;
		if (obytes != tbytes || rbytes != tbytes)
			return smpi_win_err(win, MPI_ERR_TYPE, fn,
					    "%lld bytes of target data, %lld of origin and %lld of result data",
					    (long long)tbytes, (long long)obytes, (long long)rbytes);
		rma_elems(ttype, tcount, &n, &size, &span);
		if ((err = rma_target(win, rank, disp, tcount, ttype, &at, fn)))
			return err;
		/* Elements of another node that its engine can combine: one
		 * stream, as a put (a dynamic window's target judges the range). */
		if (!fetch && n > 1 && smpi_win_remote(win, rank) &&
		    (err = rma_acc_stream(win, rank, obuf, ocount, otype, at, tcount, ttype, op,
					  req != NULL ||
					  win->flavor == MPI_WIN_FLAVOR_DYNAMIC)) <= 0) {
			if (err < 0)
				return smpi_win_err(win, MPI_ERR_RMA_RANGE, fn,
						    "address 0x%lx (+%lld bytes) is not in rank %d's memory",
						    (unsigned long)disp, (long long)tbytes, rank);
		} else if (fetch && n > 1 && smpi_win_remote(win, rank) &&
			   (err = rma_facc_stream(win, rank, obuf, ocount, otype, rbuf, rcount,
						  rtype, at, tcount, ttype, tbytes, op)) <= 0) {
			if (err < 0)
				return smpi_win_err(win, MPI_ERR_RMA_RANGE, fn,
						    "address 0x%lx (+%lld bytes) is not in rank %d's memory",
						    (unsigned long)disp, (long long)tbytes, rank);
		/* One predefined element (Fetch_and_op's shape): no layouts to walk. */
		} else if (n == 1 && ttype->predefined && (op == MPI_NO_OP || otype->predefined) &&
			   (!fetch || rtype->predefined))
			rma_element(win, rank, at, span, obuf,
				    fetch ? rbuf : NULL, op, kind);
		else
			rma_acc_runs(win, rank, at, obuf, ocount, otype, rbuf, rcount, rtype, tcount,
				     ttype, op, fetch);
	}
	if (req)
		rma_request(win, req);
	return MPI_SUCCESS;
}

int PMPI_Accumulate(const void *obuf, int ocount, MPI_Datatype otype, int rank, MPI_Aint disp,
		    int tcount, MPI_Datatype ttype, MPI_Op op, MPI_Win win)
{
	return rma_acc(obuf, ocount, otype, NULL, 0, NULL, rank, disp, tcount, ttype, op, win, NULL,
		       0, "MPI_Accumulate");
}

int PMPI_Raccumulate(const void *obuf, int ocount, MPI_Datatype otype, int rank, MPI_Aint disp,
		     int tcount, MPI_Datatype ttype, MPI_Op op, MPI_Win win, MPI_Request *req)
{
	if (!req)
		return rma_no_request("MPI_Raccumulate");
	return rma_acc(obuf, ocount, otype, NULL, 0, NULL, rank, disp, tcount, ttype, op, win, req,
		       0, "MPI_Raccumulate");
}

int PMPI_Get_accumulate(const void *obuf, int ocount, MPI_Datatype otype, void *rbuf, int rcount,
			MPI_Datatype rtype, int rank, MPI_Aint disp, int tcount,
			MPI_Datatype ttype, MPI_Op op, MPI_Win win)
{
	return rma_acc(obuf, ocount, otype, rbuf, rcount, rtype, rank, disp, tcount, ttype, op, win,
		       NULL, 1, "MPI_Get_accumulate");
}

int PMPI_Rget_accumulate(const void *obuf, int ocount, MPI_Datatype otype, void *rbuf,
			 int rcount, MPI_Datatype rtype, int rank, MPI_Aint disp, int tcount,
			 MPI_Datatype ttype, MPI_Op op, MPI_Win win, MPI_Request *req)
{
	if (!req)
		return rma_no_request("MPI_Rget_accumulate");
	return rma_acc(obuf, ocount, otype, rbuf, rcount, rtype, rank, disp, tcount, ttype, op, win,
		       req, 1, "MPI_Rget_accumulate");
}

int PMPI_Fetch_and_op(const void *obuf, void *rbuf, MPI_Datatype type, int rank, MPI_Aint disp,
		      MPI_Op op, MPI_Win win)
{
	return rma_acc(obuf, 1, type, rbuf, 1, type, rank, disp, 1, type, op, win, NULL, 1,
		       "MPI_Fetch_and_op");
}

#define RMA_CAS(T) do { \
	T c_, v_; \
	memcpy(&c_, cbuf, sizeof c_); \
	memcpy(&v_, obuf, sizeof v_); \
	__atomic_compare_exchange_n((T *)t, &c_, v_, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
	memcpy(rbuf, &c_, sizeof c_); \
} while (0)

int PMPI_Compare_and_swap(const void *obuf, const void *cbuf, void *rbuf, MPI_Datatype type,
			  int rank, MPI_Aint disp, MPI_Win win)
{
	const char *fn = "MPI_Compare_and_swap";
	uint64_t *l;
	size_t size;
	int err, skip;
	char *t;

	if ((err = rma_begin(win, rank, 0, NULL, &skip, fn)) ||
	    (err = rma_type(win, 1, type, "", fn)))
		return err;
	if (!type->predefined || !rma_kind_in(type->kind, RMA_CAS_KINDS))
		return smpi_win_err(win, MPI_ERR_TYPE, fn,
				    "datatype %s is not a predefined integer, logical or byte type",
				    rma_type_name(type));
	if (skip)
		return MPI_SUCCESS;
	if ((err = rma_target(win, rank, disp, 1, type, &t, fn)))
		return err;
	size = smpi_type_size(type);
	if (smpi_win_remote(win, rank)) {
		smpi_win_net_cas(win, rank, t, size, obuf, cbuf, rbuf);
		return MPI_SUCCESS;
	}
	switch (rma_lock_free(t, size) ? size : 0) {
	case 1: RMA_CAS(uint8_t); return MPI_SUCCESS;
	case 2: RMA_CAS(uint16_t); return MPI_SUCCESS;
	case 4: RMA_CAS(uint32_t); return MPI_SUCCESS;
	case 8: RMA_CAS(uint64_t); return MPI_SUCCESS;
	}
	/* Misaligned: the stripe lock accumulates on this element take too. */
	l = rma_stripe_lock(win->peer[rank].sh, t);
	memcpy(rbuf, t, size);
	if (!memcmp(t, cbuf, size))
		memcpy(t, obuf, size);
	rma_stripe_unlock(l);
	return MPI_SUCCESS;
}

SMPI_ALIAS(Put)
SMPI_ALIAS(Get)
SMPI_ALIAS(Rput)
SMPI_ALIAS(Rget)
SMPI_ALIAS(Accumulate)
SMPI_ALIAS(Raccumulate)
SMPI_ALIAS(Get_accumulate)
SMPI_ALIAS(Rget_accumulate)
SMPI_ALIAS(Fetch_and_op)
SMPI_ALIAS(Compare_and_swap)
