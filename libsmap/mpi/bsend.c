/*
 * bsend.c - buffered sends: the user's attached buffer, carved first-fit
 * into one block per message in flight.
 *
 * Each block starts with a header of MPI_BSEND_OVERHEAD bytes (what the
 * standard tells users to reserve per message) linking the live blocks in
 * address order.  A buffered send packs its data into a block and hands a
 * standard send of the packed bytes to progress; the block is released
 * when that send completes.
 */
#include <string.h>
#include "impl.h"

struct bsend_blk {
	struct bsend_blk *next;
	size_t len;		/* header included */
};

_Static_assert(sizeof(struct bsend_blk) <= MPI_BSEND_OVERHEAD, "header fits the overhead");

static char *bsend_buf;
static size_t bsend_size;
static void *bsend_user;		/* the buffer as attached */
static int bsend_user_size;
static struct bsend_blk *bsend_live;	/* in address order */

static size_t bsend_align(size_t n)
{
	return (n + 15) & ~(size_t)15;
}

int PMPI_Buffer_attach(void *buffer, int size)
{
	int err;

	if ((err = smpi_check_init("MPI_Buffer_attach")))
		return err;
	if (bsend_buf)
		return smpi_err(NULL, MPI_ERR_BUFFER, "MPI_Buffer_attach", "a buffer is already attached");
	if (size < 0 || (size && !buffer))
		return smpi_err(NULL, MPI_ERR_BUFFER, "MPI_Buffer_attach", "bad buffer (size %d)", size);
	/* Blocks are 16-byte aligned inside the buffer; detach hands back
	 * what the program attached. */
	bsend_user = buffer;
	bsend_user_size = size;
	bsend_size = size - (bsend_align((uintptr_t)buffer) - (uintptr_t)buffer);
	bsend_buf = (char *)bsend_align((uintptr_t)buffer);
	if ((char *)buffer + size < bsend_buf)
		bsend_size = 0;
	return MPI_SUCCESS;
}

int PMPI_Buffer_detach(void *buffer_addr, int *size)
{
	unsigned spins = 0;
	int err;

	if ((err = smpi_check_init("MPI_Buffer_detach")))
		return err;
	if (!buffer_addr || !size)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Buffer_detach", "NULL argument");
	while (bsend_live) {
		smpi_progress();
		smpi_spin(&spins);
	}
	*(void **)buffer_addr = bsend_buf ? bsend_user : NULL;
	*size = bsend_buf ? bsend_user_size : 0;
	bsend_buf = NULL;
	bsend_size = 0;
	return MPI_SUCCESS;
}

/* A block of len bytes (header included), or NULL.  Blocks start 16-byte
 * aligned; only the space between them is rounded, so one message of n
 * bytes fits a buffer of n + MPI_BSEND_OVERHEAD, as the standard says. */
static struct bsend_blk *bsend_alloc(size_t len)
{
	struct bsend_blk **pp = &bsend_live, *b;
	char *at = bsend_buf;

	for (;;) {
		char *end = *pp ? (char *)*pp : bsend_buf + bsend_size;

		if (end >= at && (size_t)(end - at) >= len) {
			b = (struct bsend_blk *)at;
			b->len = len;
			b->next = *pp;
			*pp = b;
			return b;
		}
		if (!*pp)
			return NULL;
		at = (char *)bsend_align((uintptr_t)*pp + (*pp)->len);
		pp = &(*pp)->next;
	}
}

int smpi_bsend_copy(struct smpi_req *tmpl, int keep, const char *fn)
{
	int64_t bytes = tmpl->count * smpi_type_size(tmpl->type);
	size_t len = MPI_BSEND_OVERHEAD + bytes;
	struct bsend_blk *b;
	struct smpi_req *r;
	char *data;
	unsigned spins = 0;

	if (!bsend_buf)
		return smpi_err(tmpl->comm, MPI_ERR_BUFFER, fn, "no buffer attached (MPI_Buffer_attach)");
	/* Room frees up as earlier buffered sends complete. */
	while (!(b = bsend_alloc(len))) {
		struct bsend_blk *first = bsend_live;

		if (!first)
			return smpi_err(tmpl->comm, MPI_ERR_BUFFER, fn,
					"attached buffer of %zu bytes cannot hold %lld bytes plus MPI_BSEND_OVERHEAD",
					bsend_size, (long long)bytes);
		while (bsend_live == first) {
			smpi_progress();
			smpi_spin(&spins);
		}
	}
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
	struct bsend_blk **pp = &bsend_live;

	while (*pp && *pp != r->bbuf)
		pp = &(*pp)->next;
	if (*pp)
		*pp = (*pp)->next;
	r->bbuf = NULL;
}

SMPI_ALIAS(Buffer_attach)
SMPI_ALIAS(Buffer_detach)
