/*
 * netrma.c - OpenSHMEM's remote accesses to PEs on other nodes, through the
 * network engine (the off-node half of the seam in shmemi.h).
 *
 * Symmetric objects have the same address on every PE of the job (same
 * binary, same region layout, the same deterministic heap), so the remote
 * address is the caller's pointer; the target's engine checks it against
 * the target's memory.  A put of up to net_eager_max() bytes is copied at
 * once and completes at quiet; larger blocking puts wait until the target
 * has the data (the caller's buffer is then free), their _nbi forms leave
 * that to quiet.  The engine keeps one PE's operations to one node in
 * order, which is all fence and put-with-signal need.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "shmemi.h"

static _Noreturn void netrma_fail(const char *fn, int pe, int status)
{
	shmemi_fail(fn, "PE %d on node %d: %s", pe, pe / (int)shmemi.node_npes,
		    status == -EFAULT ? "the address is outside that PE's memory" :
		    net_strerror(status));
}

void shmemi_net_put(void *dest, const void *src, size_t n, int pe, int nbi, const char *fn)
{
	struct net_op op = { 0 };

	if (!n)
		return;
	if (nbi || n <= net_eager_max()) {
		net_cmd_async(SNOP_PUT, 0, 0, (uint32_t)pe, src, (uintptr_t)dest, n, 0, 0, fn);
		return;
	}
	net_cmd(&op, SNOP_PUT, 0, 0, (uint32_t)pe, src, (uintptr_t)dest, n, 0, 0);
	if (net_wait(&op) < 0)
		netrma_fail(fn, pe, op.status);
}

void shmemi_net_get(void *dest, const void *src, size_t n, int pe, int nbi, const char *fn)
{
	struct net_op op = { 0 };

	if (!n)
		return;
	if (nbi) {
		net_cmd_async(SNOP_GETREQ, 0, 0, (uint32_t)pe, dest, (uintptr_t)src, n, 0, 0, fn);
		return;
	}
	net_cmd(&op, SNOP_GETREQ, 0, 0, (uint32_t)pe, dest, (uintptr_t)src, n, 0, 0);
	if (net_wait(&op) < 0)
		netrma_fail(fn, pe, op.status);
}

/* A strided put or get of n elements of es bytes: PE pe's side as rows of
 * one element, rstride elements apart (one command, not one per element),
 * ours (lstride apart) packed first when it is not contiguous.  Both wait
 * until the caller's buffer may be reused. */
void shmemi_net_rows(void *local, void *remote, ptrdiff_t lstride, ptrdiff_t rstride, size_t n,
		     size_t es, int pe, int get, const char *fn)
{
	struct net_op op = { 0 };
	size_t bytes = n * es;
	char *packed = local;

	if (lstride != 1) {
		packed = malloc(bytes);
		if (!packed)
			shmemi_fail(fn, "out of private memory (%zu bytes to pack strided elements)",
				    bytes);
		if (!get)
			shmemi_strided(packed, local, 1, lstride, n, es);
	}
	if (!get && bytes <= net_eager_max()) {
		/* copied at once: completes at quiet, as a small put does */
		net_cmd_rows(NULL, SNOP_PUT, 0, (uint32_t)pe, packed, (uintptr_t)remote, bytes, es,
			     (uint64_t)rstride * es, fn);
	} else {
		net_cmd_rows(&op, get ? SNOP_GETREQ : SNOP_PUT, 0, (uint32_t)pe, packed,
			     (uintptr_t)remote, bytes, es, (uint64_t)rstride * es, fn);
		if (net_wait(&op) < 0)
			netrma_fail(fn, pe, op.status);
	}
	if (packed != local) {
		if (get)
			shmemi_strided(local, packed, lstride, 1, n, es);
		free(packed);
	}
}

int64_t shmemi_net_fetch(uint8_t kind, void *dest, int64_t a0, int64_t a1, int pe, const char *fn)
{
	struct net_op op = { 0 };

	net_cmd(&op, SNOP_AMO, kind, 0, (uint32_t)pe, NULL, (uintptr_t)dest, 0, a0, a1);
	if (net_wait(&op) < 0)
		netrma_fail(fn, pe, op.status);
	return op.value;
}

void shmemi_net_post(uint8_t kind, void *dest, int64_t a0, int pe, const char *fn)
{
	net_cmd_async(SNOP_AMO, kind, 0, (uint32_t)pe, NULL, (uintptr_t)dest, 0, a0, 0, fn);
}

void shmemi_put_bytes(void *dest, const void *src, size_t n, int pe, const char *fn)
{
	void *d = shmemi_local(dest, n, pe, fn);

	if (d)
		memcpy(d, src, n);
	else
		shmemi_net_put(dest, src, n, pe, 0, fn);
}

void shmemi_set64(uint64_t *dest, uint64_t v, int pe, const char *fn)
{
	uint64_t *d = shmemi_local(dest, sizeof(*dest), pe, fn);

	if (d)
		__atomic_store_n(d, v, __ATOMIC_RELEASE);
	else
		shmemi_net_post(SNAMO_SET, dest, (int64_t)v, pe, fn);
}
