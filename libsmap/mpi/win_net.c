/*
 * win_net.c - RMA windows whose members are on other nodes: the network
 * half of the seam in win.h (docs/rma.md, docs/network.md).
 *
 * Data moves with the engine's put and get, straight between the origin's
 * buffer and the target's memory; they complete at the next
 * synchronisation (smpi_win_quiet), as MPI allows.  Accumulates stay
 * atomic per element against origins on the target's own node, because
 * the target's engine runs the same instructions they do: a 4- or 8-byte
 * element is one engine atomic (add, swap) or a compare-and-swap loop
 * around the op; a 1- or 2-byte one a compare-and-swap loop on the aligned
 * 4-byte word that holds it (atomic with the byte instructions on-node
 * origins use); anything else takes the same stripe lock in the target's
 * memory that on-node origins take.  An accumulate of more than one
 * element without a fetch, on integer or floating elements the target's
 * engine can combine itself, goes as one stream (SNOP_ACC) that the engine
 * applies element by element with those same instructions
 * (kernel/net/acc.c), so it costs what a put costs; a fetching one goes in
 * frames of up to SNET_FACC_MAX bytes that the engine answers with the old
 * values (SNOP_FACC), 32 at a time in flight.  Lock words and PSCW
 * counters are 64-bit words reached the same way (smpi_win_word).
 */
#include <stdlib.h>
#include <string.h>
#include "win.h"
#include "../coll/coll.h"
#include "../../kernel/net/acc.h"

static _Noreturn void win_net_fail(MPI_Win win, int i, int status)
{
	smpi_fatal("MPI RMA: rank %d of the window (world rank %d): the network failed: %s",
		   i, win->peer[i].world, net_strerror(status));
}

static int64_t win_amo(MPI_Win win, int i, uintptr_t w, uint8_t kind, int64_t v, int64_t cond)
{
	struct net_op op = { 0 };

	net_cmd(&op, SNOP_AMO, kind, 0, (uint32_t)win->peer[i].world, NULL, w, 0, v, cond);
	if (net_wait(&op) < 0)
		win_net_fail(win, i, op.status);
	return op.value;
}

uint64_t smpi_win_word(MPI_Win win, int i, uint64_t *w, uint8_t kind, uint64_t v, uint64_t cond)
{
	if (smpi_win_remote(win, i))
		return (uint64_t)win_amo(win, i, (uintptr_t)w, kind, (int64_t)v, (int64_t)cond);
	switch (kind) {
	case SNAMO_FETCH:
		return __atomic_load_n(w, __ATOMIC_ACQUIRE);
	case SNAMO_ADD:
		return __atomic_fetch_add(w, v, __ATOMIC_SEQ_CST);
	case SNAMO_AND:
		return __atomic_fetch_and(w, v, __ATOMIC_SEQ_CST);
	case SNAMO_OR:
		return __atomic_fetch_or(w, v, __ATOMIC_SEQ_CST);
	case SNAMO_SWAP:
	case SNAMO_SET:
		return __atomic_exchange_n(w, v, __ATOMIC_SEQ_CST);
	default:
		__atomic_compare_exchange_n(w, &cond, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
		return cond;
	}
}

static const char *const win_net_what[] = { [SNOP_GETREQ] = "MPI_Get", [SNOP_PUT] = "MPI_Put",
					     [SNOP_ACC] = "MPI_Accumulate" };

/* 0, or (wait) the engine's -errno: a get, put or accumulate (opc; amo:
 * the accumulate's element code) of n bytes. */
static int win_net_op(MPI_Win win, int i, void *local, uintptr_t remote, uint64_t n, uint8_t opc,
		      uint8_t amo, int wait)
{
	struct net_op op = { 0 };
	uint32_t dst = (uint32_t)win->peer[i].world;

	if (!n)
		return 0;
	if (!wait) {
		net_cmd_async(opc, amo, 0, dst, local, remote, n, 0, 0, win_net_what[opc]);
		return 0;
	}
	net_cmd(&op, opc, amo, 0, dst, local, remote, n, 0, 0);
	return net_wait(&op);
}

static void win_net_must(MPI_Win win, int i, void *local, uintptr_t remote, uint64_t n, int get)
{
	int rc = win_net_op(win, i, local, remote, n, get ? SNOP_GETREQ : SNOP_PUT, 0, 1);

	if (rc < 0)
		win_net_fail(win, i, rc);
}

/* Runs of a target layout gathered into rows: `rows` runs of `row` bytes,
 * `stride` apart from `at`, moving the origin's bytes from `off` on. */
struct win_rows {
	uintptr_t at;
	uint64_t row, stride, rows, off;
};

/* Whether the run of n bytes at p continues r's rows. */
static int win_rows_extend(struct win_rows *r, uintptr_t p, uint64_t n)
{
	if (!r->rows || n != r->row)
		return 0;
	if (r->rows == 1) {
		if (p < r->at + r->row)
			return 0;
		r->stride = p - r->at;
	} else if (p != r->at + r->rows * r->stride) {
		return 0;
	}
	r->rows++;
	return 1;
}

/* r's rows as one command nobody waits for (a single run: a plain one). */
static void win_rows_issue(MPI_Win win, int i, char *o, const struct win_rows *r, uint8_t opc,
			   uint8_t amo)
{
	if (r->rows == 1)
		win_net_op(win, i, o + r->off, r->at, r->row, opc, amo, 0);
	else if (r->rows)
		net_cmd_rows(NULL, opc, amo, (uint32_t)win->peer[i].world, o + r->off, r->at,
			     r->rows * r->row, r->row, r->stride, win_net_what[opc]);
}

/* smpi_win_net_move, or an accumulate when opc is SNOP_ACC. */
static int win_net_move(MPI_Win win, int i, void *obuf, int64_t ocount, MPI_Datatype otype,
			char *at, int64_t tcount, MPI_Datatype ttype, uint8_t opc, uint8_t amo,
			int wait)
{
	uint64_t bytes = tcount * smpi_type_size(ttype), done = 0;
	char *o = obuf, *packed = NULL;
	int get = opc == SNOP_GETREQ, rc = 0;
	struct dt_cursor c;

	if (!bytes)
		return 0;
	if (!dt_is_dense(otype->dt)) {
		packed = malloc(bytes);
		if (!packed)
			smpi_fatal("MPI RMA: no memory to pack %llu bytes", (unsigned long long)bytes);
		if (!get)
			smpi_type_copy(packed, bytes, MPI_BYTE, obuf, ocount, otype);
		o = packed;
		wait = 1;
	}
	if (dt_is_dense(ttype->dt)) {
		rc = win_net_op(win, i, o, (uintptr_t)at, bytes, opc, amo, wait);
	} else {
		/* Runs of one length, evenly spaced (a vector's blocks, a
		 * subarray's rows) go as one command whose target side is
		 * rows: the target's engine places them. */
		struct win_rows r = { 0 };
		int64_t first;

		if (dt_rows(ttype->dt, tcount, &r.row, &r.stride, &r.rows, &first)) {
			r.at = (uintptr_t)(at + first);
			done = bytes;
		}
		dt_cursor_init(&c, ttype->dt, at, tcount);
		while (done < bytes) {
			uint64_t n = dt_next_run(&c);

			if (!n)
				break;
			if (n > bytes - done)
				n = bytes - done;
			if (!win_rows_extend(&r, (uintptr_t)c.p, n)) {
				win_rows_issue(win, i, o, &r, opc, amo);
				r = (struct win_rows){ (uintptr_t)c.p, n, 0, 1, done };
			}
			done += n;
			dt_skip(&c, n);
		}
		win_rows_issue(win, i, o, &r, opc, amo);
		if (wait)
			net_quiet();
	}
	if (packed) {
		if (get && !rc)
			smpi_type_copy(obuf, ocount, otype, packed, bytes, MPI_BYTE);
		free(packed);
	}
	return rc;
}

int smpi_win_net_move(MPI_Win win, int i, void *obuf, int64_t ocount, MPI_Datatype otype,
		      char *at, int64_t tcount, MPI_Datatype ttype, int get, int wait)
{
	return win_net_move(win, i, obuf, ocount, otype, at, tcount, ttype,
			    get ? SNOP_GETREQ : SNOP_PUT, 0, wait);
}

/* The engine's element type for a kind (-1: none it can combine). */
static int win_acc_type(int kind)
{
	switch (kind) {
	case SMPI_K_CHAR: case SMPI_K_SCHAR: case SMPI_K_I8: return SNACC_I8;
	case SMPI_K_UCHAR: case SMPI_K_BYTE: case SMPI_K_BOOL: case SMPI_K_U8: return SNACC_U8;
	case SMPI_K_SHORT: case SMPI_K_I16: return SNACC_I16;
	case SMPI_K_USHORT: case SMPI_K_U16: return SNACC_U16;
	case SMPI_K_INT: case SMPI_K_WCHAR: case SMPI_K_I32: return SNACC_I32;
	case SMPI_K_UINT: case SMPI_K_U32: return SNACC_U32;
	case SMPI_K_LONG: case SMPI_K_LLONG: case SMPI_K_I64: case SMPI_K_AINT:
	case SMPI_K_OFFSET: case SMPI_K_COUNT: return SNACC_I64;
	case SMPI_K_ULONG: case SMPI_K_ULLONG: case SMPI_K_U64: return SNACC_U64;
	case SMPI_K_FLOAT: return SNACC_F32;
	case SMPI_K_DOUBLE: return SNACC_F64;
	}
	return -1;
}

/* The engine's element code for op on elements of kind at `at`, or -1. */
static int win_acc_code(MPI_Op op, int kind, const char *at)
{
	static const MPI_Op ops[SNACC_NOPS] = {
		[SNACC_SUM] = MPI_SUM, [SNACC_PROD] = MPI_PROD, [SNACC_MAX] = MPI_MAX,
		[SNACC_MIN] = MPI_MIN, [SNACC_BAND] = MPI_BAND, [SNACC_BOR] = MPI_BOR,
		[SNACC_BXOR] = MPI_BXOR, [SNACC_LAND] = MPI_LAND, [SNACC_LOR] = MPI_LOR,
		[SNACC_LXOR] = MPI_LXOR, [SNACC_REPLACE] = MPI_REPLACE, [SNACC_NOOP] = MPI_NO_OP
	};
	int type = win_acc_type(kind), o = 0;
	unsigned width;

	while (o < SNACC_NOPS && ops[o] != op)
		o++;
	if (type < 0 || o == SNACC_NOPS)
		return -1;
	width = eng_acc_width(SNACC_CODE(type, o));
	/* Elements no single instruction reaches (misaligned) take the
	 * element path and its stripe locks. */
	return width && (uintptr_t)at % width == 0 ? SNACC_CODE(type, o) : -1;
}

/* Every contiguous run of tcount ttype at `at` starts on a multiple of
 * width (whole elements follow: the type is made of one basic type). */
static int win_runs_aligned(char *at, int64_t tcount, MPI_Datatype ttype, size_t width)
{
	struct dt_cursor c;
	size_t n;

	dt_cursor_init(&c, ttype->dt, at, tcount);
	while ((n = dt_next_run(&c))) {
		if ((uintptr_t)c.p % width)
			return 0;
		dt_skip(&c, n);
	}
	return 1;
}

int smpi_win_net_combines(MPI_Op op, char *at, int64_t tcount, MPI_Datatype ttype)
{
	int code = win_acc_code(op, ttype->kind, at);

	return code >= 0 && (dt_is_dense(ttype->dt) ||
			     win_runs_aligned(at, tcount, ttype, eng_acc_width((uint8_t)code)));
}

int smpi_win_net_acc(MPI_Win win, int i, const void *obuf, int64_t ocount, MPI_Datatype otype,
		     char *at, int64_t tcount, MPI_Datatype ttype, MPI_Op op, int wait)
{
	int code = win_acc_code(op, ttype->kind, at);

	/* A layout with holes goes as one stream per run, all in flight. */
	return win_net_move(win, i, (void *)obuf, ocount, otype, at, tcount, ttype, SNOP_ACC,
			    (uint8_t)code, wait) < 0 ? -1 : 0;
}

int smpi_win_net_facc(MPI_Win win, int i, const void *obuf, void *rbuf, char *at,
		      int64_t tcount, MPI_Datatype ttype, MPI_Op op)
{
	enum { BATCH = 32 };
	struct net_op ops[BATCH];
	int code = win_acc_code(op, ttype->kind, at), n = 0, rc = 0;
	uint64_t bytes = tcount * smpi_type_size(ttype), off = 0;
	struct dt_cursor c;

	/* Each run of the target's layout in pieces of at most one frame's
	 * answer, BATCH in flight. */
	dt_cursor_init(&c, ttype->dt, at, tcount);
	while (off < bytes) {
		uint64_t run = dt_next_run(&c), len;

		if (!run)
			break;
		len = run < SNET_FACC_MAX ? run : SNET_FACC_MAX;
		if (len > bytes - off)
			len = bytes - off;
		memset(&ops[n], 0, sizeof ops[n]);
		net_cmd(&ops[n], SNOP_FACC, (uint8_t)code, 0, (uint32_t)win->peer[i].world,
			op == MPI_NO_OP ? NULL : (const char *)obuf + off, (uintptr_t)c.p, len,
			(int64_t)(uintptr_t)((char *)rbuf + off), 0);
		dt_skip(&c, len);
		off += len;
		if (++n == BATCH || off == bytes) {
			for (int k = 0; k < n; k++)
				if (net_wait(&ops[k]) < 0)
					rc = -1;
			n = 0;
		}
	}
	for (int k = 0; k < n; k++)
		if (net_wait(&ops[k]) < 0)
			rc = -1;
	return rc;
}

/* The stripe lock of element t in member i's memory (as on-node origins
 * choose it: by the address within the region). */
static uint64_t *win_net_stripe(MPI_Win win, int i, const char *t)
{
	uintptr_t a = (uintptr_t)t & ((1ULL << 39) - 1);
	uint64_t *l = &win->peer[i].sh->stripe[(a >> 4) % WIN_STRIPES].v;
	unsigned spins = 0;

	while (win_amo(win, i, (uintptr_t)l, SNAMO_CAS, 1, 0) != 0)
		smpi_win_spin(&spins);
	return l;
}

uint64_t *smpi_win_net_acc_lock(MPI_Win win, int i)
{
	uint64_t *l = &win->peer[i].sh->acc.v;
	unsigned spins = 0;

	while (win_amo(win, i, (uintptr_t)l, SNAMO_CAS, 1, 0) != 0)
		smpi_win_spin(&spins);
	return l;
}

void smpi_win_net_acc_unlock(MPI_Win win, int i, uint64_t *l)
{
	win_amo(win, i, (uintptr_t)l, SNAMO_SET, 0, 0);
}

/* in op old -> new, for one element (MPI_NO_OP leaves it). */
static void win_apply(void *elem, const void *in, MPI_Op op, int kind, size_t width)
{
	if (op == MPI_REPLACE)
		memcpy(elem, in, width);
	else if (op != MPI_NO_OP)
		op->fn(in, elem, 1, kind);
}

/*
 * A 1- or 2-byte element at a of member i, updated by compare-and-swap on
 * the aligned 4-byte word that holds it (atomic with the byte and word
 * instructions on-node origins use): next(&e, arg) turns the element's
 * value into the new one, or returns 0 to leave it; old gets the value
 * the update replaced.
 */
static void win_subword(MPI_Win win, int i, uintptr_t a, size_t width,
			int (*next)(uint32_t *e, void *arg), void *arg, void *old)
{
	uintptr_t wa = a & ~(uintptr_t)3;
	unsigned shift = (unsigned)(a - wa) * 8;
	uint32_t mask = (width == 1 ? 0xffu : 0xffffu) << shift, ow, nw, e, got;

	ow = (uint32_t)win_amo(win, i, wa, SNAMO_FETCH | SNAMO_32, 0, 0);
	for (;;) {
		e = (ow & mask) >> shift;
		if (old)
			memcpy(old, &e, width);
		if (!next(&e, arg))
			return;
		nw = (ow & ~mask) | ((e << shift) & mask);
		got = (uint32_t)win_amo(win, i, wa, SNAMO_CAS | SNAMO_32, (int32_t)nw, (int32_t)ow);
		if (got == ow)
			return;
		ow = got;
	}
}

struct acc_arg {
	const void *in;
	MPI_Op op;
	int kind;
	size_t width;
};

static int acc_next(uint32_t *e, void *arg)
{
	const struct acc_arg *x = arg;

	if (x->op == MPI_NO_OP)
		return 0;
	win_apply(e, x->in, x->op, x->kind, x->width);
	return 1;
}

/* x[0]: the condition, x[1]: the new value. */
static int cas_next(uint32_t *e, void *arg)
{
	const uint32_t *x = arg;

	if (*e != x[0])
		return 0;
	*e = x[1];
	return 1;
}

void smpi_win_net_element(MPI_Win win, int i, char *t, size_t width, const void *in, void *old,
			  MPI_Op op, int kind)
{
	uintptr_t a = (uintptr_t)t;
	int64_t o = 0, n, r, v = 0;

	if ((width == 4 || width == 8) && a % width == 0) {
		uint8_t w32 = width == 4 ? SNAMO_32 : 0;

		if (in)
			memcpy(&v, in, width);
		if (op == MPI_NO_OP) {
			o = win_amo(win, i, a, SNAMO_FETCH | w32, 0, 0);
		} else if (op == MPI_REPLACE) {
			o = win_amo(win, i, a, SNAMO_SWAP | w32, v, 0);
		} else if (op == MPI_SUM && rma_kind_in(kind, RMA_INT_KINDS)) {
			o = win_amo(win, i, a, SNAMO_ADD | w32, v, 0);
		} else {
			o = win_amo(win, i, a, SNAMO_FETCH | w32, 0, 0);
			for (;;) {
				n = o;
				op->fn(in, &n, 1, kind);
				r = win_amo(win, i, a, SNAMO_CAS | w32, n, o);
				if ((width == 4 ? (uint32_t)r == (uint32_t)o : r == o))
					break;
				o = r;
			}
		}
		if (old)
			memcpy(old, &o, width);
		return;
	}
	if ((width == 1 || width == 2) && a % width == 0) {
		struct acc_arg x = { in, op, kind, width };

		win_subword(win, i, a, width, acc_next, &x, old);
		return;
	}
	{
		char buf[64];
		uint64_t *l = win_net_stripe(win, i, t);

		win_net_must(win, i, buf, a, width, 1);
		if (old)
			memcpy(old, buf, width);
		if (op != MPI_NO_OP) {
			win_apply(buf, in, op, kind, width);
			win_net_must(win, i, buf, a, width, 0);
		}
		win_amo(win, i, (uintptr_t)l, SNAMO_SET, 0, 0);
	}
}

void smpi_win_net_cas(MPI_Win win, int i, char *t, size_t size, const void *obuf,
		      const void *cbuf, void *rbuf)
{
	uintptr_t a = (uintptr_t)t;
	int64_t v = 0, c = 0, r;

	memcpy(&v, obuf, size);
	memcpy(&c, cbuf, size);
	if ((size == 4 || size == 8) && a % size == 0) {
		r = win_amo(win, i, a, SNAMO_CAS | (size == 4 ? SNAMO_32 : 0), v, c);
		memcpy(rbuf, &r, size);
		return;
	}
	if ((size == 1 || size == 2) && a % size == 0) {
		uint32_t x[2] = { (uint32_t)c & (size == 1 ? 0xffu : 0xffffu), (uint32_t)v };

		win_subword(win, i, a, size, cas_next, x, rbuf);
		return;
	}
	{
		char buf[16];
		uint64_t *l = win_net_stripe(win, i, t);

		win_net_must(win, i, buf, a, size, 1);
		memcpy(rbuf, buf, size);
		if (!memcmp(buf, cbuf, size))
			win_net_must(win, i, (void *)obuf, a, size, 0);
		win_amo(win, i, (uintptr_t)l, SNAMO_SET, 0, 0);
	}
}

void smpi_win_quiet(MPI_Win win)
{
	(void)win;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (net_up())
		net_quiet();
}

void smpi_win_barrier(MPI_Win win)
{
	if (win->comm->coll)
		coll_barrier(win->comm->coll);
	else
		PMPI_Barrier(win->comm);
}
