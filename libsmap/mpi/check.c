/*
 * check.c - arguments checked at the door: request handles that are not
 * live objects and buffers that cannot hold data (impl.h says how a handle
 * is judged live).  Communicators, datatypes and ops are checked where
 * their own checks live (comm.c, type.c, op.c), with the same test.
 *
 * Then the collective arguments checked across members: the message a
 * mismatch the engine found (libsmap/coll/check.c) becomes, raised
 * through the communicator's error handler.
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "impl.h"
#include "../coll/coll.h"

int smpi_req_check(int n, struct smpi_req *const *reqs, const char *fn)
{
	for (int i = 0; i < n; i++) {
		if (reqs[i] == MPI_REQUEST_NULL || smpi_live(reqs[i], SMPI_LIVE_REQ))
			continue;
		if (n == 1)
			return smpi_err(NULL, MPI_ERR_REQUEST, fn,
					"request %p is not a live request (garbage, or freed)",
					(const void *)reqs[i]);
		return smpi_err(NULL, MPI_ERR_REQUEST, fn,
				"request %p at index %d is not a live request (garbage, or freed)",
				(const void *)reqs[i], i);
	}
	return MPI_SUCCESS;
}

int smpi_buf_check(MPI_Comm comm, const void *buf, int64_t count, MPI_Datatype type,
		   const char *fn)
{
	if (!buf && count > 0 && smpi_type_size(type) > 0 &&
	    dt_root(type->dt)->true_lb < (int64_t)CORE_PAGE)
		return smpi_err(comm, MPI_ERR_BUFFER, fn, "buffer is NULL with count %lld",
				(long long)count);
	return MPI_SUCCESS;
}

int smpi_coll_alias(MPI_Comm comm, const void *sbuf, const void *rbuf, const void *own,
		    int mine, const char *fn)
{
	if (mine && sbuf && sbuf != MPI_IN_PLACE && (sbuf == rbuf || sbuf == own) && comm &&
	    !comm->inter)
		return smpi_err(comm, MPI_ERR_BUFFER, fn,
				"the send buffer %p is the receive buffer, or this rank's block of it: "
				"MPI_IN_PLACE says that", sbuf);
	return MPI_SUCCESS;
}

/* The address of block `at` elements of type into buf (NULL stays NULL). */
const void *smpi_coll_block(const void *buf, int64_t at, MPI_Datatype type)
{
	if (!buf || buf == MPI_IN_PLACE || !smpi_live(type, SMPI_LIVE_TYPE))
		return NULL;
	return (const char *)buf + at * smpi_type_extent(type);
}

/* ---- collective arguments checked across members ---- */

int smpi_coll_checking = -1;
void *smpi_coll_jump;
int smpi_coll_err;

static const char *coll_kind_name(int32_t kind)
{
	if (kind == SMPI_K_NONE)
		return "mixed";
	if (kind > SMPI_K_NONE && kind < SMPI_K_COUNT_OF)
		return smpi_type_of_kind(kind)->name;
	return "?";
}

/* Untyped data: MPI_PACKED matches any data of its bytes (MPI 3.1 4.2),
 * and MPI_BYTE is taken to, as other MPIs let it. */
static int coll_untyped(int32_t kind)
{
	return kind == SMPI_K_PACKED || kind == SMPI_K_BYTE;
}

/* Two members' descriptions of one call: the first argument that differs,
 * in the order call, root, op, datatype signature, count.  Returns only
 * when they agree after all: untyped data against data of its bytes. */
static int coll_check_fail_mpi(void *ctx, int me, int peer, const void *mine, const void *theirs)
{
	struct smpi_coll_desc a, b;
	const struct smpi_coll_desc *lo = &a, *hi = &b;
	MPI_Comm comm = ctx;
	int rlo = me, rhi = peer, code, err;
	char msg[400];

	memcpy(&a, mine, sizeof a);
	memcpy(&b, theirs, sizeof b);
	if (peer < me) {
		lo = &b;
		hi = &a;
		rlo = peer;
		rhi = me;
	}
	if (b.call && a.call == b.call && a.root == b.root && a.op == b.op &&
	    a.bytes == b.bytes && (coll_untyped(a.kind) || coll_untyped(b.kind)))
		return 0;
	if (!b.call) {
		code = MPI_ERR_OTHER;
		snprintf(msg, sizeof msg, "arguments differ from rank %d's, which went on to other calls",
			 peer);
	} else if (a.call != b.call) {
		code = MPI_ERR_OTHER;
		snprintf(msg, sizeof msg, "call differs: rank %d calls %s, rank %d calls %s", rlo,
			 lo->call, rhi, hi->call);
	} else if (a.root != b.root) {
		code = MPI_ERR_ROOT;
		snprintf(msg, sizeof msg, "root differs: rank %d says %d, rank %d says %d", rlo,
			 lo->root, rhi, hi->root);
	} else if (a.op != b.op) {
		code = MPI_ERR_OP;
		snprintf(msg, sizeof msg, "op differs: rank %d says %s, rank %d says %s", rlo,
			 lo->op ? lo->op : "none", rhi, hi->op ? hi->op : "none");
	} else if (a.kind != b.kind) {
		code = MPI_ERR_TYPE;
		snprintf(msg, sizeof msg,
			 "datatype signature differs: rank %d has %lld x %s, rank %d has %lld x %s",
			 rlo, (long long)lo->count, coll_kind_name(lo->kind), rhi,
			 (long long)hi->count, coll_kind_name(hi->kind));
	} else if (a.count != b.count) {
		code = MPI_ERR_COUNT;
		snprintf(msg, sizeof msg, "count differs: rank %d has %lld x %s, rank %d has %lld x %s",
			 rlo, (long long)lo->count, coll_kind_name(lo->kind), rhi,
			 (long long)hi->count, coll_kind_name(hi->kind));
	} else {
		code = MPI_ERR_TYPE;
		snprintf(msg, sizeof msg,
			 "datatype signature differs: ranks %d and %d have %lld elements of different types",
			 rlo, rhi, (long long)lo->count);
	}
	err = smpi_err(comm, code, a.call, "%s", msg);
	if (!smpi_coll_jump)
		smpi_fatal("%s: %s; the call cannot return here", a.call, msg);
	smpi_coll_err = err;
	coll_spread(comm->coll);
	longjmp(*(jmp_buf *)smpi_coll_jump, 1);
}

int smpi_coll_check_setup(void)
{
	const char *v = getenv("SMAP_COLL_CHECK");

	smpi_coll_checking = !(v && !strcmp(v, "0"));
	coll_check_fail = coll_check_fail_mpi;
	return smpi_coll_checking;
}
