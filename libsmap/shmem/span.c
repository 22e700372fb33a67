/*
 * span.c - the transport of a SHMEM team that spans nodes: the collective
 * engine's span groups (libsmap/coll/span.c) run over mailboxes in the
 * symmetric heap, written with the RMA seam (SMARTMAP on the node, the
 * network beyond it), so OpenSHMEM needs no MPI to reach other nodes.
 *
 * PE p's mailbox from PE q is boxes[q] in p's heap: one chunk at a time.
 * The sender waits until the receiver acknowledged the previous chunk
 * (acks[p] in the sender's heap, written by p), puts the chunk, then sets
 * the box's sequence number: the engine keeps a PE's operations to one node
 * in order, and x86 keeps stores in order, so a receiver that sees the new
 * number sees the data.  A chunk a sender may put before its receiver is
 * ready is what makes sendrecv between two PEs safe in both orders.
 */
#include <stdlib.h>
#include <string.h>
#include "../core/core.h"
#include "shmemi.h"

#define SPAN_CHUNK	4096

struct span_box {
	uint64_t seq;
	uint64_t len;
	char data[SPAN_CHUNK];
};

static struct span_box *boxes;	/* symmetric, npes */
static uint64_t *acks;		/* symmetric, npes: chunks each receiver took from us */
static uint64_t *sent, *taken;	/* local, npes */

void shmemi_span_init(void)
{
	if (shmemi.nnodes < 2)
		return;
	boxes = shmem_calloc((size_t)shmemi.npes, sizeof(*boxes));
	acks = shmem_calloc((size_t)shmemi.npes, sizeof(*acks));
	sent = calloc((size_t)shmemi.npes, sizeof(*sent));
	taken = calloc((size_t)shmemi.npes, sizeof(*taken));
	if (!boxes || !acks || !sent || !taken)
		shmemi_fail("shmem_init", "no memory for the mailboxes of %d PEs", shmemi.npes);
}

static void span_wait(volatile uint64_t *w, uint64_t want)
{
	unsigned spins = 0;

	while (__atomic_load_n(w, __ATOMIC_ACQUIRE) < want)
		core_spin(&spins);
}

/* Chunk k of a message to world PE `to`. */
static void chunk_send(int to, const char *p, size_t n)
{
	const char *fn = "shmem collective";
	struct span_box *b = &boxes[shmemi.me];

	span_wait(&acks[to], sent[to]);
	shmemi_put_bytes(b->data, p, n, to, fn);
	shmemi_put_bytes(&b->len, &(uint64_t){ n }, sizeof(uint64_t), to, fn);
	shmemi_set64(&b->seq, ++sent[to], to, fn);
}

static void chunk_recv(int from, char *p, size_t n)
{
	struct span_box *b = &boxes[from];

	span_wait(&b->seq, taken[from] + 1);
	memcpy(p, b->data, n < b->len ? n : b->len);
	shmemi_set64(&acks[shmemi.me], ++taken[from], from, "shmem collective");
}

/* Members of the team are its indices; the transport works in world PEs. */
static int world_pe(void *ctx, int i)
{
	const struct shmemi_team *t = ctx;

	return t->start + i * t->stride;
}

static void span_send(void *ctx, int to, const void *buf, size_t len)
{
	int pe = world_pe(ctx, to);
	size_t off = 0;

	do {
		size_t n = len - off < SPAN_CHUNK ? len - off : SPAN_CHUNK;

		chunk_send(pe, (const char *)buf + off, n);
		off += n;
	} while (off < len);
}

static void span_recv(void *ctx, int from, void *buf, size_t len)
{
	int pe = world_pe(ctx, from);
	size_t off = 0;

	do {
		size_t n = len - off < SPAN_CHUNK ? len - off : SPAN_CHUNK;

		chunk_recv(pe, (char *)buf + off, n);
		off += n;
	} while (off < len);
}

/* Chunks alternate, so two PEs exchanging with each other never wait on
 * each other's receive. */
static void span_sendrecv(void *ctx, int to, const void *sbuf, size_t slen, int from, void *rbuf,
			  size_t rlen)
{
	int tpe = world_pe(ctx, to), fpe = world_pe(ctx, from);
	size_t so = 0, ro = 0;
	int sdone = 0, rdone = 0;

	while (!sdone || !rdone) {
		if (!sdone) {
			size_t n = slen - so < SPAN_CHUNK ? slen - so : SPAN_CHUNK;

			chunk_send(tpe, (const char *)sbuf + so, n);
			so += n;
			sdone = so >= slen;
		}
		if (!rdone) {
			size_t n = rlen - ro < SPAN_CHUNK ? rlen - ro : SPAN_CHUNK;

			chunk_recv(fpe, (char *)rbuf + ro, n);
			ro += n;
			rdone = ro >= rlen;
		}
	}
}

struct coll_group *shmemi_span_group(struct shmemi_team *t, const char *fn)
{
	struct coll_transport tr = { span_send, span_recv, span_sendrecv, t, NULL, NULL, NULL, NULL };
	int *host;

	if (!boxes)
		shmemi_fail(fn, "the team's %d PEs span nodes, and this node has no network",
			    t->size);
	/* Each member's node: the engine then runs barriers, broadcasts,
	 * small reductions, gathers and scatters through one PE per node. */
	host = malloc((size_t)t->size * sizeof(*host));
	for (int i = 0; host && i < t->size; i++)
		host[i] = world_pe(t, i) / (int)shmemi.node_npes;
	tr.host = host;
	t->group = host ? coll_span_create(t->size, t->my_pe, &tr) : NULL;
	free(host);
	if (!t->scratch)
		t->scratch = calloc(2 * (size_t)t->size, sizeof(*t->scratch));
	if (!t->group || !t->scratch)
		shmemi_fail(fn, "no memory for a team of %d PEs", t->size);
	return t->group;
}
