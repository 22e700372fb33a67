/*
 * span.c - the collectives of a group whose members sit on several nodes:
 * messages between members over the face's transport (coll_transport),
 * which reaches a member on this node through SMARTMAP and one on another
 * node through the network.
 *
 * Algorithms: dissemination barrier; binomial-tree broadcast; small
 * reductions folded per node and combined at the root in member order
 * (x0 op x1 op ... op x(n-1), the same evaluation on every run, as the
 * engine promises for every reduction); allreduces folded per node,
 * among the nodes' leaders recursive doubling, or for large chunks among
 * 4 or more reduce-scatter and allgather (Rabenseifner), chunked and
 * pipelined;
 * reduces above SPAN_RUNS_MAX folded per node and up a tree of leaders,
 * chunked and pipelined; gathers and scatters through
 * one member per node; alltoall as n-1 pairwise exchanges, or all at
 * once where the transport can (exchange); scans as
 * a chain in member order.  The "uniform" argument of the v forms gives
 * the block size of the uniform calls (then the vectors are NULL).
 */
#include <stdlib.h>
#include "impl.h"

static void *span_alloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		core_fatal("libsmap coll: no memory for %zu bytes of a collective across nodes", n);
	return p;
}

static void sp_send(struct coll_group *g, int to, const void *buf, size_t len)
{
	g->span.send(g->span.ctx, to, buf, len);
}

static void sp_recv(struct coll_group *g, int from, void *buf, size_t len)
{
	g->span.recv(g->span.ctx, from, buf, len);
}

struct coll_group *coll_span_create(int size, int rank, const struct coll_transport *t)
{
	struct coll_group *g = calloc(1, sizeof(*g) + (t->host ? 2 * size * sizeof(int) : 0));

	if (!g)
		return NULL;
	g->size = size;
	g->rank = rank;
	g->span = *t;
	g->block = g;
	if (t->host) {
		g->node = (int *)(g + 1);
		g->lead = g->node + size;
		for (int i = 0; i < size; i++) {
			g->node[i] = t->host[i];
			g->lead[i] = i;
			for (int j = 0; j < i && g->lead[i] == i; j++)
				if (t->host[j] == t->host[i])
					g->lead[i] = j;
		}
		g->span.host = g->node;
	}
	return g;
}

/* Dissemination among the n members who[0..n-1] (all members in order
 * when who is NULL); this member is who[me]. */
static void span_dissem(struct coll_group *g, const int *who, int n, int me)
{
	char in, out = 0;

	for (int k = 1; k < n; k <<= 1) {
		int to = (me + k) % n, from = (me - k + n) % n;

		g->span.sendrecv(g->span.ctx, who ? who[to] : to, &out, 0, who ? who[from] : from,
				 &in, 0);
	}
}

/* The leader of a node is its first member; a leader's node-mates report
 * to it and wait for its release, so only leaders cross the network. */
void span_barrier(struct coll_group *g)
{
	int n = 0, me = 0, lead = -1, *who;
	char b = 0;

	if (!g->node) {
		span_dissem(g, NULL, g->size, g->rank);
		return;
	}
	for (int i = 0; i < g->size && lead < 0; i++)
		if (g->node[i] == g->node[g->rank])
			lead = i;
	if (lead != g->rank) {
		sp_send(g, lead, &b, 0);
		sp_recv(g, lead, &b, 0);
		return;
	}
	who = span_alloc(g->size * sizeof(int));
	for (int i = 0; i < g->size; i++) {
		int first = 1;

		for (int j = 0; j < i && first; j++)
			first = g->node[j] != g->node[i];
		if (first) {
			if (i == g->rank)
				me = n;
			who[n++] = i;
		} else if (g->node[i] == g->node[g->rank]) {
			sp_recv(g, i, &b, 0);
		}
	}
	span_dissem(g, who, n, me);
	for (int i = g->rank + 1; i < g->size; i++)
		if (g->node[i] == g->node[g->rank])
			sp_send(g, i, &b, 0);
	free(who);
}

/* Binomial tree over who[0..n-1] (all members when who is NULL) from
 * who[root]; this member is who[me]. */
static void span_tree(struct coll_group *g, const int *who, int n, int me, int root, void *buf,
		      size_t bytes)
{
	int v = (me - root + n) % n, mask = 1;

	while (mask < n) {
		if (v & mask) {
			int from = (me - mask + n) % n;

			sp_recv(g, who ? who[from] : from, buf, bytes);
			break;
		}
		mask <<= 1;
	}
	for (mask >>= 1; mask > 0; mask >>= 1)
		if (v + mask < n) {
			int to = (me + mask) % n;

			sp_send(g, who ? who[to] : to, buf, bytes);
		}
}

/* With nodes known: a tree among one member per node (the root on its
 * own node, the first member on the others), then a tree on each node
 * from that member, so the data crosses the network once per node. */
void span_bcast(struct coll_group *g, void *buf, size_t bytes, int root)
{
	int *lead, *mates, nl = 0, nm = 1, ml = -1, mm = 0, rl = 0, mine, me;

	if (!g->node) {
		span_tree(g, NULL, g->size, g->rank, root, buf, bytes);
		return;
	}
	lead = span_alloc(2 * g->size * sizeof(int));
	mates = lead + g->size;
	mine = g->node[g->rank];
	for (int i = 0; i < g->size; i++) {
		int first = 1;

		for (int j = 0; j < i && first; j++)
			first = g->node[j] != g->node[i];
		if (first) {
			int l = g->node[i] == g->node[root] ? root : i;

			if (l == g->rank)
				ml = nl;
			if (l == root)
				rl = nl;
			lead[nl++] = l;
			if (g->node[i] == mine)
				mates[0] = l;
		}
	}
	for (int i = 0; i < g->size; i++)
		if (g->node[i] == mine && i != mates[0]) {
			if (i == g->rank)
				mm = nm;
			mates[nm++] = i;
		}
	me = g->rank;
	if (ml >= 0)
		span_tree(g, lead, nl, ml, rl, buf, bytes);
	span_tree(g, mates, nm, mates[0] == me ? 0 : mm, 0, buf, bytes);
	free(lead);
}

static size_t vlen(const size_t *counts, size_t uniform, int i)
{
	return counts ? counts[i] : uniform;
}

static size_t voff(const size_t *displs, size_t uniform, int i)
{
	return displs ? displs[i] : (size_t)i * uniform;
}

/*
 * Gathers and scatters go through one member per node: the members on
 * the root's node talk to the root directly (SMARTMAP), those on another
 * node through its first member, which packs its node's blocks in member
 * order, so each node's data crosses the network in one message.  The v
 * forms (uniform 0) carry each block's size ahead of it on the node, since
 * only the root knows the counts.  The blocks of a node land straight in
 * the root's buffer when they are adjacent there in member order.
 */
/* Members of node leader l's node after l, in member order: their count;
 * their indices in *mates (caller frees). */
static int span_mates(const struct coll_group *g, int l, int **mates)
{
	int n = 0;

	*mates = span_alloc(g->size * sizeof(int));
	for (int i = l + 1; i < g->size; i++)
		if (g->lead[i] == l)
			(*mates)[n++] = i;
	return n;
}

/* Where node leader l's blocks go in the root's buffer: the start, when
 * they are adjacent in member order, else NULL; their total in *total. */
static char *span_node_run(const size_t *counts, const size_t *displs, size_t uniform, char *buf,
			   int l, const int *mates, int n, size_t *total)
{
	size_t end = voff(displs, uniform, l) + vlen(counts, uniform, l);
	int adjacent = 1;

	*total = vlen(counts, uniform, l);
	for (int k = 0; k < n; k++) {
		adjacent &= voff(displs, uniform, mates[k]) == end;
		end = voff(displs, uniform, mates[k]) + vlen(counts, uniform, mates[k]);
		*total += vlen(counts, uniform, mates[k]);
	}
	return adjacent ? buf + voff(displs, uniform, l) : NULL;
}

static void span_gather_root(struct coll_group *g, const void *sbuf, size_t sbytes, char *rbuf,
			     const size_t *rcounts, const size_t *rdispls, size_t uniform,
			     int root)
{
	for (int i = 0; i < g->size; i++) {
		char *at = rbuf + voff(rdispls, uniform, i), *to, *pack;
		size_t total, off;
		int *mates, n;

		if (i == root) {
			if (at != sbuf)
				memmove(at, sbuf, sbytes);
		} else if (!g->node || g->node[i] == g->node[root]) {
			sp_recv(g, i, at, vlen(rcounts, uniform, i));
		} else if (g->lead[i] == i) {
			n = span_mates(g, i, &mates);
			to = span_node_run(rcounts, rdispls, uniform, rbuf, i, mates, n, &total);
			pack = to ? to : span_alloc(total);
			sp_recv(g, i, pack, total);
			if (!to) {
				off = vlen(rcounts, uniform, i);
				memcpy(at, pack, off);
				for (int k = 0; k < n; k++) {
					size_t b = vlen(rcounts, uniform, mates[k]);

					memcpy(rbuf + voff(rdispls, uniform, mates[k]), pack + off, b);
					off += b;
				}
				free(pack);
			}
			free(mates);
		}
	}
}

void span_gatherv(struct coll_group *g, const void *sbuf, size_t sbytes, void *rbuf,
		  const size_t *rcounts, const size_t *rdispls, size_t uniform, int root)
{
	int me = g->rank, l, n, *mates;
	size_t *sizes, total;
	char *pack;

	if (me == root) {
		span_gather_root(g, sbuf, sbytes, rbuf, rcounts, rdispls, uniform, root);
		return;
	}
	if (!g->node || g->node[me] == g->node[root]) {
		sp_send(g, root, sbuf, sbytes);
		return;
	}
	l = g->lead[me];
	if (l != me) {
		if (!uniform)
			sp_send(g, l, &sbytes, sizeof(sbytes));
		sp_send(g, l, sbuf, sbytes);
		return;
	}
	n = span_mates(g, me, &mates);
	sizes = span_alloc((n + 1) * sizeof(size_t));
	total = sbytes;
	for (int k = 0; k < n; k++) {
		sizes[k] = uniform;
		if (!uniform)
			sp_recv(g, mates[k], &sizes[k], sizeof(sizes[k]));
		total += sizes[k];
	}
	pack = span_alloc(total);
	memcpy(pack, sbuf, sbytes);
	total = sbytes;
	for (int k = 0; k < n; k++) {
		sp_recv(g, mates[k], pack + total, sizes[k]);
		total += sizes[k];
	}
	sp_send(g, root, pack, total);
	free(pack);
	free(sizes);
	free(mates);
}

static void span_scatter_root(struct coll_group *g, const char *sbuf, const size_t *scounts,
			      const size_t *sdispls, size_t uniform, void *rbuf, size_t rbytes,
			      int root)
{
	for (int i = 0; i < g->size; i++) {
		const char *at = sbuf + voff(sdispls, uniform, i), *from;
		char *pack = NULL;
		size_t total, off, *sizes;
		int *mates, n;

		if (i == root) {
			if (at != rbuf)
				memmove(rbuf, at, rbytes);
		} else if (!g->node || g->node[i] == g->node[root]) {
			sp_send(g, i, at, vlen(scounts, uniform, i));
		} else if (g->lead[i] == i) {
			n = span_mates(g, i, &mates);
			from = span_node_run(scounts, sdispls, uniform, (char *)sbuf, i, mates, n,
					     &total);
			if (!uniform) {
				sizes = span_alloc((n + 1) * sizeof(size_t));
				for (int k = 0; k < n; k++)
					sizes[k] = vlen(scounts, uniform, mates[k]);
				sp_send(g, i, sizes, n * sizeof(size_t));
				free(sizes);
			}
			if (!from) {
				from = pack = span_alloc(total);
				off = vlen(scounts, uniform, i);
				memcpy(pack, at, off);
				for (int k = 0; k < n; k++) {
					size_t b = vlen(scounts, uniform, mates[k]);

					memcpy(pack + off, sbuf + voff(sdispls, uniform, mates[k]), b);
					off += b;
				}
			}
			sp_send(g, i, from, total);
			free(pack);
			free(mates);
		}
	}
}

void span_scatterv(struct coll_group *g, const void *sbuf, const size_t *scounts,
		   const size_t *sdispls, size_t uniform, void *rbuf, size_t rbytes, int root)
{
	int me = g->rank, l, n, *mates;
	size_t *sizes, total;
	char *pack;

	if (me == root) {
		span_scatter_root(g, sbuf, scounts, sdispls, uniform, rbuf, rbytes, root);
		return;
	}
	if (!g->node || g->node[me] == g->node[root]) {
		sp_recv(g, root, rbuf, rbytes);
		return;
	}
	l = g->lead[me];
	if (l != me) {
		sp_recv(g, l, rbuf, rbytes);
		return;
	}
	n = span_mates(g, me, &mates);
	sizes = span_alloc((n + 1) * sizeof(size_t));
	for (int k = 0; k < n; k++)
		sizes[k] = uniform;
	if (!uniform)
		sp_recv(g, root, sizes, n * sizeof(size_t));
	total = rbytes;
	for (int k = 0; k < n; k++)
		total += sizes[k];
	pack = span_alloc(total);
	sp_recv(g, root, pack, total);
	memcpy(rbuf, pack, rbytes);
	total = rbytes;
	for (int k = 0; k < n; k++) {
		sp_send(g, mates[k], pack + total, sizes[k]);
		total += sizes[k];
	}
	free(pack);
	free(sizes);
	free(mates);
}

/* Gather to member 0 and broadcast the blocks packed, so the gaps of a v
 * layout are never written. */
void span_allgatherv(struct coll_group *g, const void *sbuf, void *rbuf, const size_t *rcounts,
		     const size_t *rdispls, size_t uniform)
{
	size_t total = 0, at = 0, mine = vlen(rcounts, uniform, g->rank);
	char *packed;

	for (int i = 0; i < g->size; i++)
		total += vlen(rcounts, uniform, i);
	packed = span_alloc(total);
	{
		size_t *offs = span_alloc(g->size * sizeof(size_t));

		for (int i = 0; i < g->size; i++) {
			offs[i] = at;
			at += vlen(rcounts, uniform, i);
		}
		span_gatherv(g, sbuf, mine, packed, rcounts ? rcounts : NULL, offs, uniform, 0);
		free(offs);
	}
	span_bcast(g, packed, total, 0);
	at = 0;
	for (int i = 0; i < g->size; i++) {
		size_t n = vlen(rcounts, uniform, i);

		memmove((char *)rbuf + voff(rdispls, uniform, i), packed + at, n);
		at += n;
	}
	free(packed);
}

/* Every other member's block in flight at once (the transport's exchange). */
static void span_alltoall_at_once(struct coll_group *g, const char *s, const size_t *scounts,
				  const size_t *sdispls, void *rbuf, const size_t *rcounts,
				  const size_t *rdispls, size_t uniform)
{
	int n = g->size - 1, me = g->rank;
	int *peer = span_alloc(n * sizeof(*peer));
	const void **sb = span_alloc(n * sizeof(*sb));
	void **rb = span_alloc(n * sizeof(*rb));
	size_t *sl = span_alloc(2 * n * sizeof(*sl)), *rl = sl + n;

	for (int k = 0; k < n; k++) {
		int q = (me + 1 + k) % g->size;

		peer[k] = q;
		sb[k] = s + voff(sdispls, uniform, q);
		sl[k] = vlen(scounts, uniform, q);
		rb[k] = (char *)rbuf + voff(rdispls, uniform, q);
		rl[k] = vlen(rcounts, uniform, q);
	}
	g->span.exchange(g->span.ctx, n, peer, sb, sl, rb, rl);
	free(peer);
	free(sb);
	free(rb);
	free(sl);
}

/*
 * A uniform alltoall of small blocks through one member per node: each
 * node's members hand their whole send buffer to their leader, the
 * leaders swap one packet per pair of nodes (the blocks from each of the
 * node's members to each of the other's, in member order), and each
 * leader hands every member of its node its whole receive buffer.  One
 * network message per pair of nodes instead of one per pair of members:
 * at this size the messages' count is the cost.
 */
#define SPAN_A2A_NODES_MAX	1024	/* block bytes */

/* Node p's packets among the other nodes', seen from node my. */
static int a2a_slot(int p, int my)
{
	return p < my ? p : p - 1;
}

static void span_alltoall_nodes(struct coll_group *g, const char *s, char *rbuf, size_t b)
{
	int n = g->size, me = g->rank, nl = 0, my;
	int *node = span_alloc((5 * (size_t)n + 1) * sizeof(int));
	int *pos = node + n, *cnt = pos + n, *mem = cnt + n, *off = mem + n;
	size_t row = (size_t)n * b;
	char *all, *res, **out, **in;
	int *peer;

	if (g->lead[me] != me) {
		sp_send(g, g->lead[me], s, row);
		sp_recv(g, g->lead[me], rbuf, row);
		free(node);
		return;
	}
	/* Nodes numbered by their leaders in member order; each member's
	 * node and place among its node's members. */
	for (int i = 0; i < n; i++) {
		if (g->lead[i] == i) {
			node[i] = nl;
			cnt[nl++] = 0;
		} else {
			node[i] = node[g->lead[i]];
		}
		pos[i] = cnt[node[i]]++;
	}
	off[0] = 0;
	for (int k = 0; k < nl; k++)
		off[k + 1] = off[k] + cnt[k];
	for (int i = 0; i < n; i++)
		mem[off[node[i]] + pos[i]] = i;
	my = node[me];
	all = span_alloc((size_t)cnt[my] * row);
	memcpy(all, s, row);
	for (int k = 1; k < cnt[my]; k++)
		sp_recv(g, mem[off[my] + k], all + k * row, row);
	out = span_alloc(2 * (size_t)nl * sizeof(char *));
	in = out + nl;
	peer = span_alloc((size_t)nl * sizeof(int));
	for (int p = 0, k = 0; p < nl; p++) {
		size_t len = (size_t)cnt[my] * cnt[p] * b;

		if (p == my)
			continue;
		out[k] = span_alloc(len);
		in[k] = span_alloc(len);
		peer[k] = mem[off[p]];
		for (int i = 0; i < cnt[my]; i++)
			for (int j = 0; j < cnt[p]; j++)
				memcpy(out[k] + ((size_t)i * cnt[p] + j) * b,
				       all + i * row + (size_t)mem[off[p] + j] * b, b);
		k++;
	}
	if (g->span.exchange) {
		size_t *len = span_alloc((size_t)nl * sizeof(size_t));

		for (int k = 0; k < nl - 1; k++)
			len[k] = (size_t)cnt[my] * cnt[node[peer[k]]] * b;
		g->span.exchange(g->span.ctx, nl - 1, peer, (const void *const *)out, len,
				 (void *const *)in, len);
		free(len);
	} else {
		/* Pairwise in rounds: node my + r sends to node my - r. */
		for (int r = 1; r < nl; r++) {
			int to = (my + r) % nl, from = (my - r + nl) % nl;
			g->span.sendrecv(g->span.ctx, mem[off[to]], out[a2a_slot(to, my)],
					 (size_t)cnt[my] * cnt[to] * b, mem[off[from]],
					 in[a2a_slot(from, my)],
					 (size_t)cnt[my] * cnt[from] * b);
		}
	}
	res = span_alloc(row);
	for (int t = cnt[my] - 1; t >= 0; t--) {
		char *r = t ? res : rbuf;

		for (int q = 0; q < n; q++) {
			int p = node[q];
			const char *from = p == my ? all + pos[q] * row + (size_t)mem[off[my] + t] * b
						   : in[a2a_slot(p, my)] +
							     ((size_t)pos[q] * cnt[my] + t) * b;

			memcpy(r + (size_t)q * b, from, b);
		}
		if (t)
			sp_send(g, mem[off[my] + t], res, row);
	}
	for (int k = 0; k < nl - 1; k++) {
		free(out[k]);
		free(in[k]);
	}
	free(res);
	free(out);
	free(peer);
	free(all);
	free(node);
}

void span_alltoallv(struct coll_group *g, const void *sbuf, const size_t *scounts,
		    const size_t *sdispls, void *rbuf, const size_t *rcounts,
		    const size_t *rdispls, size_t uniform)
{
	int n = g->size, me = g->rank;
	const char *s = sbuf;
	char *copy = NULL;

	/* In place: what is sent is what rbuf holds now. */
	if (sbuf == rbuf) {
		size_t end = 0;

		for (int i = 0; i < n; i++) {
			size_t e = voff(rdispls, uniform, i) + vlen(rcounts, uniform, i);

			end = e > end ? e : end;
		}
		copy = span_alloc(end);
		memcpy(copy, rbuf, end);
		s = copy;
		scounts = rcounts;
		sdispls = rdispls;
	}
	if (uniform && uniform <= SPAN_A2A_NODES_MAX && g->node) {
		span_alltoall_nodes(g, s, rbuf, uniform);
		free(copy);
		return;
	}
	memmove((char *)rbuf + voff(rdispls, uniform, me), s + voff(sdispls, uniform, me),
		vlen(rcounts, uniform, me));
	if (g->span.exchange && n > 2) {
		span_alltoall_at_once(g, s, scounts, sdispls, rbuf, rcounts, rdispls, uniform);
		free(copy);
		return;
	}
	for (int k = 1; k < n; k++) {
		int to = (me + k) % n, from = (me - k + n) % n;

		g->span.sendrecv(g->span.ctx, to, s + voff(sdispls, uniform, to),
				 vlen(scounts, uniform, to), from,
				 (char *)rbuf + voff(rdispls, uniform, from),
				 vlen(rcounts, uniform, from));
	}
	free(copy);
}

/* *acc = *acc op *x: the engine's callbacks combine inout = in op inout,
 * so the result lands in *x and the two buffers trade places. */
static void span_combine(const struct coll_op *op, char **acc, char **x, size_t count)
{
	char *t = *acc;

	op->fn(*x, t, count, op->ctx);
	*acc = *x;
	*x = t;
}

/* Above this, a reduce is pipelined in chunks up a tree of leaders
 * (span_reduce_pipe); up to it, one message per node to the root costs
 * less. */
#define SPAN_RUNS_MAX	16384

/* Whether every node's members form one run in member order (node-major
 * ranks in order or reversed do): then a reduction may combine each run on
 * its node first and keep x0 op x1 op ... op x(n-1). */
static int span_runs(const struct coll_group *g)
{
	if (!g->node)
		return 0;
	for (int i = 1; i < g->size; i++)
		if (g->node[i] != g->node[i - 1])
			for (int j = 0; j < i - 1; j++)
				if (g->node[j] == g->node[i])
					return 0;
	return 1;
}

/* Each run's first member folds its run left to right (node-mates over
 * SMARTMAP) and sends the partial to the root, which folds the partials
 * in run order: one network message per node instead of one per member. */
static void span_reduce_runs(struct coll_group *g, const void *sbuf, void *rbuf, size_t count,
			     const struct coll_op *op, int root)
{
	size_t bytes = count * op->size;
	int lead = g->rank, end = g->rank + 1;
	char *acc, *x, *part = NULL;

	while (lead > 0 && g->node[lead - 1] == g->node[g->rank])
		lead--;
	if (lead != g->rank)
		sp_send(g, lead, sbuf, bytes);
	if (lead == g->rank || g->rank == root) {
		acc = span_alloc(bytes);
		x = span_alloc(bytes);
		if (lead == g->rank) {
			while (end < g->size && g->node[end] == g->node[lead])
				end++;
			memcpy(acc, sbuf, bytes);
			for (int i = lead + 1; i < end; i++) {
				sp_recv(g, i, x, bytes);
				span_combine(op, &acc, &x, count);
			}
			if (g->rank != root)
				sp_send(g, root, acc, bytes);
			else
				part = acc;
		}
		if (g->rank == root) {
			char *res = span_alloc(bytes);
			int first = 1;

			for (int i = 0; i < g->size; i++) {
				if (i && g->node[i] == g->node[i - 1])
					continue;
				if (i == g->rank)
					memcpy(x, part, bytes);
				else
					sp_recv(g, i, x, bytes);
				if (first)
					memcpy(res, x, bytes);
				else
					span_combine(op, &res, &x, count);
				first = 0;
			}
			memcpy(rbuf, res, bytes);
			free(res);
		}
		free(acc);
		free(x);
	}
}

static void span_reduce_pipe(struct coll_group *g, const void *sbuf, void *rbuf, size_t count,
			     const struct coll_op *op, int root);

void span_reduce(struct coll_group *g, const void *sbuf, void *rbuf, size_t count,
		 const struct coll_op *op, int root)
{
	size_t bytes = count * op->size;
	char *acc, *x;

	if (bytes <= SPAN_RUNS_MAX && span_runs(g)) {
		span_reduce_runs(g, sbuf, rbuf, count, op, root);
		return;
	}
	if (bytes > SPAN_RUNS_MAX && g->span.post) {
		span_reduce_pipe(g, sbuf, rbuf, count, op, root);
		return;
	}
	if (bytes > SPAN_RUNS_MAX) {
		/* Without sends in flight a tree would block on the root; the
		 * allreduce keeps every leader's link busy at once instead of
		 * the root's node receiving every vector in turn. */
		acc = g->rank == root ? rbuf : span_alloc(bytes);
		span_allreduce(g, sbuf, acc, count, op);
		if (g->rank != root)
			free(acc);
		return;
	}
	if (g->rank != root) {
		sp_send(g, root, sbuf, bytes);
		return;
	}
	acc = span_alloc(bytes);
	x = span_alloc(bytes);
	for (int i = 0; i < g->size; i++) {
		char *in = i == 0 ? acc : x;

		if (i == root)
			memcpy(in, sbuf, bytes);
		else
			sp_recv(g, i, in, bytes);
		if (i)
			span_combine(op, &acc, &x, count);
	}
	memcpy(rbuf, acc, bytes);
	free(acc);
	free(x);
}

/* acc = acc op x evaluated so, whatever the op says of commuting (x is
 * scratch): in one pass where the op has fn3. */
static void span_fold_left(const struct coll_op *op, char *acc, char *x, size_t count)
{
	if (op->fn3) {
		op->fn3(acc, acc, x, count, op->ctx);
		return;
	}
	op->fn(x, acc, count, op->ctx);
	memcpy(acc, x, count * op->size);
}

/* acc = acc op x, the result staying in acc (x is scratch). */
static void span_fold(const struct coll_op *op, char *acc, char *x, size_t count)
{
	if (op->commute) {
		op->fn(acc, x, count, op->ctx);
		return;
	}
	span_fold_left(op, acc, x, count);
}

static void *sp_post(struct coll_group *g, int to, const void *sbuf, size_t slen, int from,
		     void *rbuf, size_t rlen)
{
	if (g->span.post)
		return g->span.post(g->span.ctx, to, sbuf, slen, from, rbuf, rlen);
	if (from < 0)
		sp_send(g, to, sbuf, slen);
	else
		g->span.sendrecv(g->span.ctx, to, sbuf, slen, from, rbuf, rlen);
	return NULL;
}

/*
 * Allreduce: each node's run folds into its first member (its leader)
 * over SMARTMAP, the leaders combine their partials over the network, and
 * each leader hands the result back to its node.  Small chunks go by
 * recursive doubling (log2 p exchanges of the whole chunk); chunks of
 * SPAN_AR_HALVE bytes or more among 4 or more leaders by recursive
 * halving, then doubling of the halves back (Rabenseifner: a
 * reduce-scatter, then an allgather), where each leader sends and
 * receives 2(p-1)/p of a chunk and folds (p-1)/p of one, against log2 p
 * whole chunks each way and folded.  Large vectors go in chunks of
 * SPAN_AR_CHUNK, pipelined: a chunk's first
 * exchange between leaders is in flight while the node folds the next
 * chunk, so the on-node and network phases overlap.  Partners combine
 * lower op higher, so every leader computes the same bits and the result
 * is a fixed bracketing of x0 op ... op x(n-1) on every run and member;
 * halving also takes its partners at distances 1, 2, 4, ..., so each
 * partial is of a contiguous run of leaders and the bracketing is the
 * same as doubling's.
 * With a number of leaders that is not a power of two, the first 2r of
 * them pair off first (r = leaders - 2^k): the even one hands its chunk to
 * the odd one and gets the result at the end.  A group whose nodes are not
 * runs in member order (or whose nodes are unknown) is flat: every member
 * is its own leader.
 */
/* Host mode, 2 nodes x 2 ranks, allreduce of 1/4/16 MiB, medians of 2
 * runs (docs/performance/net/span-reduce-2026-11-28.txt): 256 KiB chunks
 * 1.73/7.68/28.2 ms, 512 KiB 1.40/5.18/20.4, 1 MiB 1.22/5.30/25.3, 2 MiB
 * 1.35/5.40/23.5, one piece 1.65/6.16/38.1.  512 KiB to 2 MiB sit within
 * the runs' spread; smaller chunks pay two handshakes between processes
 * each, and one piece overlaps nothing. */
#define SPAN_AR_CHUNK	(1024 * 1024)
#define SPAN_AR_HALVE	(64 * 1024)

/* SMAP_SPAN_CHUNK=bytes overrides it, for such measurements: every member
 * must see the same value (lwkrun gives every rank the same environment). */
static size_t span_ar_chunk(void)
{
	static size_t bytes;

	if (!bytes) {
		const char *v = getenv("SMAP_SPAN_CHUNK");
		long long n = v ? atoll(v) : 0;

		bytes = n > 0 ? (size_t)n : SPAN_AR_CHUNK;
	}
	return bytes;
}

struct span_ar {
	struct coll_group *g;
	const struct coll_op *op;
	const char *sbuf;
	char *rbuf, *x[2];
	size_t chunk;			/* elements per chunk */
	size_t count;
	int lead, *mates, nm;		/* this member's leader; a leader's mates */
	int *who, nl, li, p, rem, vme;	/* leaders; this leader's index among them */
	void *h;			/* the current chunk's first exchange */
};

/* Sets a->chunk (elements, at most the count) and returns the chunks. */
static size_t ar_chunks(struct span_ar *a)
{
	size_t per = span_ar_chunk() / a->op->size;

	a->chunk = per == 0 ? 1 : per < a->count ? per : a->count;
	return (a->count + a->chunk - 1) / a->chunk;
}

/* An even leader of the first 2r, which hands its chunks to the next. */
static int ar_hands_off(const struct span_ar *a)
{
	return a->li < 2 * a->rem && !(a->li & 1);
}

static size_t ar_len(const struct span_ar *a, size_t c)
{
	size_t off = c * a->chunk;

	return a->count - off < a->chunk ? a->count - off : a->chunk;
}

/* The rank among the leaders of virtual leader v. */
static int ar_real(const struct span_ar *a, int v)
{
	return a->who[v < a->rem ? v * 2 + 1 : v + a->rem];
}

/* acc = mine op (what members from[0..nfrom) send, in turn), n elements.
 * The first arrives straight in acc, folded as mine op acc: no copy of
 * mine, unless there is nothing to fold or acc is mine (in place). */
static void span_fold_in(struct coll_group *g, const struct coll_op *op, char *acc,
			 const char *mine, char *x, size_t n, const int *from, int nfrom)
{
	int k = 0;

	if (acc != mine && nfrom) {
		sp_recv(g, from[k++], acc, n * op->size);
		op->fn(acc, mine, n, op->ctx);
	} else if (acc != mine) {
		memcpy(acc, mine, n * op->size);
	}
	for (; k < nfrom; k++) {
		sp_recv(g, from[k], x, n * op->size);
		span_fold(op, acc, x, n);
	}
}

/* Chunk c of this node's run (and of the even partner's) into rbuf. */
static void ar_fold(struct span_ar *a, size_t c)
{
	size_t n = ar_len(a, c), bytes = n * a->op->size, off = c * a->chunk * a->op->size;
	char *acc = a->rbuf + off, *x = a->x[c & 1];

	span_fold_in(a->g, a->op, acc, a->sbuf + off, x, n, a->mates, a->nm);
	if (a->li < 2 * a->rem && (a->li & 1)) {
		sp_recv(a->g, a->who[a->li - 1], x, bytes);
		a->op->fn(acc, x, n, a->op->ctx);		/* acc = x(li-1) op acc */
	}
}

/* Chunk c goes by halving: every leader decides alike from its length.
 * Two leaders send a chunk each way either way, and halving adds a round
 * (host mode, 2 nodes x 1: 1 MiB 154-167 -> 164-326 us, 64 KiB 18-26 ->
 * 24-37), so it takes four or more. */
static int ar_halves(const struct span_ar *a, size_t c)
{
	return a->p >= 4 && ar_len(a, c) * a->op->size >= SPAN_AR_HALVE;
}

/* Halving at distance d within elements [lo, hi) of a chunk: this
 * leader keeps [*klo, *khi) and sends the rest, [*slo, *shi). */
static void ar_split(const struct span_ar *a, int d, size_t lo, size_t hi, size_t *klo,
		     size_t *khi, size_t *slo, size_t *shi)
{
	size_t mid = lo + (hi - lo) / 2;

	*klo = a->vme & d ? mid : lo;
	*khi = a->vme & d ? hi : mid;
	*slo = a->vme & d ? lo : mid;
	*shi = a->vme & d ? mid : hi;
}

/* acc = x op acc when the partner is the lower one, else acc op x: both
 * evaluate lower op higher, even for an op that says it commutes, so
 * doubling gives the same bits on both. */
static void ar_combine(const struct span_ar *a, int vpeer, char *acc, char *x, size_t n)
{
	if (vpeer < a->vme)
		a->op->fn(acc, x, n, a->op->ctx);
	else
		span_fold_left(a->op, acc, x, n);
}

static void ar_start(struct span_ar *a, size_t c)
{
	size_t sz = a->op->size, bytes = ar_len(a, c) * sz, klo, khi, slo, shi;
	char *acc = a->rbuf + c * a->chunk * sz;
	int peer;

	a->h = NULL;
	if (ar_hands_off(a)) {
		a->h = sp_post(a->g, a->who[a->li + 1], acc, bytes, -1, NULL, 0);
		return;
	}
	if (a->p == 1)
		return;
	peer = ar_real(a, a->vme ^ 1);
	if (!ar_halves(a, c)) {
		a->h = sp_post(a->g, peer, acc, bytes, peer, a->x[c & 1], bytes);
		return;
	}
	ar_split(a, 1, 0, ar_len(a, c), &klo, &khi, &slo, &shi);
	a->h = sp_post(a->g, peer, acc + slo * sz, (shi - slo) * sz, peer, a->x[c & 1],
		       (khi - klo) * sz);
}

/* Chunk c by halving, its first exchange done: fold and halve on at
 * distances 1, 2, 4, ..., then send the folded part and take the
 * partner's back at distances ..., 4, 2, 1. */
static void ar_halve(struct span_ar *a, size_t c)
{
	size_t sz = a->op->size, lo = 0, hi = ar_len(a, c), klo, khi, slo, shi;
	size_t outer[2 * 31];			/* [lo, hi) before each halving; p < 2^31 */
	char *acc = a->rbuf + c * a->chunk * sz, *x = a->x[c & 1];
	int d, steps = 0;

	for (d = 1; d < a->p; d *= 2) {
		int peer = ar_real(a, a->vme ^ d);

		ar_split(a, d, lo, hi, &klo, &khi, &slo, &shi);
		if (d > 1)
			a->g->span.sendrecv(a->g->span.ctx, peer, acc + slo * sz, (shi - slo) * sz,
					    peer, x, (khi - klo) * sz);
		ar_combine(a, a->vme ^ d, acc + klo * sz, x, khi - klo);
		outer[steps++] = lo;
		outer[steps++] = hi;
		lo = klo;
		hi = khi;
	}
	for (d = a->p / 2; d >= 1; d /= 2) {
		int peer = ar_real(a, a->vme ^ d);

		hi = outer[--steps];
		lo = outer[--steps];
		ar_split(a, d, lo, hi, &klo, &khi, &slo, &shi);
		a->g->span.sendrecv(a->g->span.ctx, peer, acc + klo * sz, (khi - klo) * sz, peer,
				    acc + slo * sz, (shi - slo) * sz);
	}
}

/* Chunk c by recursive doubling, its first exchange done. */
static void ar_double(struct span_ar *a, size_t c)
{
	size_t n = ar_len(a, c), bytes = n * a->op->size;
	char *acc = a->rbuf + c * a->chunk * a->op->size, *x = a->x[c & 1];

	for (int d = 1; d < a->p; d *= 2) {
		int vpeer = a->vme ^ d;

		if (d > 1) {
			int peer = ar_real(a, vpeer);

			a->g->span.sendrecv(a->g->span.ctx, peer, acc, bytes, peer, x, bytes);
		}
		ar_combine(a, vpeer, acc, x, n);
	}
}

static void ar_finish(struct span_ar *a, size_t c)
{
	size_t bytes = ar_len(a, c) * a->op->size;
	char *acc = a->rbuf + c * a->chunk * a->op->size;

	if (a->h)
		a->g->span.complete(a->g->span.ctx, a->h);
	if (ar_hands_off(a))
		sp_recv(a->g, a->who[a->li + 1], acc, bytes);
	else if (ar_halves(a, c))
		ar_halve(a, c);
	else
		ar_double(a, c);
	if (a->li < 2 * a->rem && (a->li & 1))
		sp_send(a->g, a->who[a->li - 1], acc, bytes);
	for (int k = 0; k < a->nm; k++)
		sp_send(a->g, a->mates[k], acc, bytes);
}

/* The leaders (every member when flat), this one's index among them and
 * its node-mates; the recursive doubling's 2^k and remainder. */
static void ar_leaders(struct span_ar *a, int flat)
{
	struct coll_group *g = a->g;

	a->who = span_alloc(g->size * sizeof(int));
	a->nl = 0;
	for (int i = 0; i < g->size; i++)
		if (flat || g->lead[i] == i) {
			if (i == g->rank)
				a->li = a->nl;
			a->who[a->nl++] = i;
		}
	a->nm = flat ? 0 : span_mates(g, g->rank, &a->mates);
	if (flat)
		a->mates = NULL;
	for (a->p = 1; a->p * 2 <= a->nl; a->p *= 2)
		;
	a->rem = a->nl - a->p;
	a->vme = a->li < 2 * a->rem ? a->li / 2 : a->li - a->rem;
}

static void ar_leaders_free(struct span_ar *a)
{
	free(a->mates);
	free(a->who);
}

/* A leader's part: fold, exchange and release, one chunk ahead. */
static void ar_lead(struct span_ar *a, size_t nchunks)
{
	ar_fold(a, 0);
	ar_start(a, 0);
	for (size_t c = 0; c < nchunks; c++) {
		void *h = a->h, *next = NULL;

		if (c + 1 < nchunks) {
			ar_fold(a, c + 1);
			ar_start(a, c + 1);
			next = a->h;
		}
		a->h = h;
		ar_finish(a, c);
		a->h = next;
	}
}

void span_allreduce(struct coll_group *g, const void *sbuf, void *rbuf, size_t count,
		    const struct coll_op *op)
{
	struct span_ar a = { .g = g, .op = op, .sbuf = sbuf, .rbuf = rbuf, .count = count };
	size_t nchunks, sz = op->size;
	int flat = !span_runs(g);

	if (count == 0)
		return;
	nchunks = ar_chunks(&a);
	a.lead = flat ? g->rank : g->lead[g->rank];
	if (a.lead != g->rank) {
		/* One chunk ahead of the results, as the leader folds. */
		for (size_t c = 0; c < nchunks; c++) {
			sp_send(g, a.lead, (const char *)sbuf + c * a.chunk * sz, ar_len(&a, c) * sz);
			if (c)
				sp_recv(g, a.lead, (char *)rbuf + (c - 1) * a.chunk * sz,
					ar_len(&a, c - 1) * sz);
		}
		sp_recv(g, a.lead, (char *)rbuf + (nchunks - 1) * a.chunk * sz,
			ar_len(&a, nchunks - 1) * sz);
		return;
	}
	ar_leaders(&a, flat);
	a.x[0] = span_alloc(2 * a.chunk * sz);
	a.x[1] = a.x[0] + a.chunk * sz;
	ar_lead(&a, nchunks);
	free(a.x[0]);
	ar_leaders_free(&a);
}

/*
 * A reduce above SPAN_RUNS_MAX: each node's run folds into its leader and
 * the leaders fold up a binomial tree to a top leader (virtual leader v's
 * partial covers [v, v + 2^k) when it takes in its child's [v + 2^k,
 * v + 2^(k+1)) on the right), which hands each chunk to the root unless it
 * is the root.  The top is the root's leader for a commutative op, and
 * member 0 otherwise, so a non-commutative op still folds in member order
 * (one fixed parenthesisation).  In the same chunks as allreduce: a
 * leader's send of chunk c up the tree is in flight while it folds chunk
 * c + 1, and the data crosses each link once, in one direction.  The top's
 * sends to the root all stay in flight until the end, so nothing up the
 * tree waits for the root, which may still be sending its own chunks to
 * its leader.
 */
static void span_reduce_pipe(struct coll_group *g, const void *sbuf, void *rbuf, size_t count,
			     const struct coll_op *op, int root)
{
	struct span_ar a = { .g = g, .op = op, .sbuf = sbuf, .count = count };
	size_t nchunks, sz = op->size, cb;
	int flat = !span_runs(g), top = 0, *from, nfrom;
	void *up = NULL, **out = NULL;
	char *res, *x;

	if (count == 0)
		return;
	nchunks = ar_chunks(&a);
	cb = a.chunk * sz;
	if (op->commute)
		top = flat ? root : g->lead[root];
	a.lead = flat ? g->rank : g->lead[g->rank];
	if (a.lead != g->rank) {
		for (size_t c = 0; c < nchunks; c++)
			sp_send(g, a.lead, (const char *)sbuf + c * cb, ar_len(&a, c) * sz);
	} else {
		int rl = 0, v;

		ar_leaders(&a, flat);
		while (a.who[rl] != top)
			rl++;
		v = (a.li - rl + a.nl) % a.nl;
		if (g->rank == top && top == root)
			res = rbuf;
		else
			res = span_alloc(g->rank == top ? count * sz : 2 * cb);
		if (g->rank == top && top != root)
			out = span_alloc(nchunks * sizeof(*out));
		x = span_alloc(cb);
		/* What this leader folds: its mates', then its children's. */
		from = span_alloc((a.nm + 32) * sizeof(int));
		for (nfrom = 0; nfrom < a.nm; nfrom++)
			from[nfrom] = a.mates[nfrom];
		for (int d = 1; !(v & d) && v + d < a.nl; d <<= 1)
			from[nfrom++] = a.who[(v + d + rl) % a.nl];
		for (size_t c = 0; c < nchunks; c++) {
			size_t n = ar_len(&a, c);
			const char *mine = (const char *)sbuf + c * cb, *part = mine;
			char *acc = res + (g->rank == top ? c : c & 1) * cb;

			/* Nothing to fold: the chunk goes up as it is. */
			if (!v || nfrom) {
				span_fold_in(g, op, acc, mine, x, n, from, nfrom);
				part = acc;
			}
			if (v) {
				if (up)
					g->span.complete(g->span.ctx, up);
				up = sp_post(g, a.who[((v & (v - 1)) + rl) % a.nl], part, n * sz, -1,
					     NULL, 0);
			} else if (out) {
				out[c] = sp_post(g, root, part, n * sz, -1, NULL, 0);
			}
		}
		if (up)
			g->span.complete(g->span.ctx, up);
		for (size_t c = 0; out && c < nchunks; c++)
			if (out[c])
				g->span.complete(g->span.ctx, out[c]);
		if (res != rbuf)
			free(res);
		free(from);
		free(out);
		free(x);
		ar_leaders_free(&a);
	}
	if (g->rank == root && root != top)
		for (size_t c = 0; c < nchunks; c++)
			sp_recv(g, top, (char *)rbuf + c * cb, ar_len(&a, c) * sz);
}

void span_reduce_scatter(struct coll_group *g, const void *sbuf, void *rbuf,
			 const size_t *counts, size_t block, const struct coll_op *op)
{
	size_t total = 0, *bytes = span_alloc(g->size * sizeof(size_t));
	size_t *offs = span_alloc(g->size * sizeof(size_t));
	char *all;

	for (int i = 0; i < g->size; i++) {
		bytes[i] = vlen(counts, block, i) * op->size;
		offs[i] = total;
		total += bytes[i];
	}
	all = span_alloc(total);
	span_reduce(g, sbuf, all, total / op->size, op, 0);
	span_scatterv(g, all, bytes, offs, 0, rbuf, bytes[g->rank], 0);
	free(all);
	free(bytes);
	free(offs);
}

void span_scan(struct coll_group *g, const void *sbuf, void *rbuf, size_t count,
	       const struct coll_op *op, int ex)
{
	size_t bytes = count * op->size;
	char *prefix = span_alloc(bytes), *mine = span_alloc(bytes);

	memcpy(mine, sbuf, bytes);
	if (g->rank > 0) {
		sp_recv(g, g->rank - 1, prefix, bytes);
		if (ex)
			memcpy(rbuf, prefix, bytes);
		span_combine(op, &prefix, &mine, count);	/* prefix = prefix op mine */
	} else {
		memcpy(prefix, mine, bytes);
	}
	if (!ex)
		memcpy(rbuf, prefix, bytes);
	if (g->rank + 1 < g->size)
		sp_send(g, g->rank + 1, prefix, bytes);
	free(prefix);
	free(mine);
}
