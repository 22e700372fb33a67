/*
 * group.c - groups: the world group, creation by rendezvous through a
 * per-rank mailbox, split, destruction and the queries.
 *
 * A created group's state is one zeroed block per member (shared part
 * first, then the local view and its tables), published to the peers only
 * once initialised, so a new group never sees an old group's flags.  The
 * world group's state is static: the same address on every rank, found
 * without any exchange.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "impl.h"

/*
 * coll_box[j] in rank i's memory carries one message from rank j to rank i
 * (key 0: empty).  The sender waits for it to be empty before writing, the
 * receiver empties it, so a pair of ranks may exchange any number of
 * messages as long as both see their creations in the same order.
 */
struct coll_box {
	_Alignas(64) uint64_t key;
	const void *ptr;
};

static struct coll_box coll_box[SMAP_MAX_RANKS];

static struct coll_member world_member;
static struct coll_group world;
static struct coll_member *world_peer[SMAP_MAX_RANKS];
static const void *world_src[SMAP_MAX_RANKS];
static const void *world_res[SMAP_MAX_RANKS];
static size_t world_cursor[SMAP_MAX_RANKS];
static int world_node[SMAP_MAX_RANKS];

static int group_rounds(int n)
{
	int k = 0;

	while ((1 << k) < n)
		k++;
	return k;
}

struct coll_group *coll_world(void)
{
	if (!world.me) {
		int n = smap_size();

		world.size = n;
		world.rank = smap_rank();
		world.rounds = group_rounds(n);
		world.peer = world_peer;
		world.src = world_src;
		world.res = world_res;
		world.cursor = world_cursor;
		world.node = world_node;
		for (int i = 0; i < n; i++) {
			world_node[i] = i;
			world_peer[i] = i == world.rank ? &world_member :
				remote_address(i, &world_member);
		}
		world.me = &world_member;
	}
	return &world;
}

int coll_size(const struct coll_group *g)
{
	return g->size;
}

int coll_rank(const struct coll_group *g)
{
	return g->rank;
}

int coll_node(const struct coll_group *g, int i)
{
	return g->node[i];
}

/* One block: the shared state (cache-line aligned) then the local view. */
static struct coll_group *group_alloc(int n)
{
	size_t tab = (size_t)n * sizeof(void *);
	size_t size = sizeof(struct coll_member) + sizeof(struct coll_group) +
		      4 * tab + (size_t)n * (sizeof(size_t) + sizeof(int));
	char *b = aligned_alloc(64, (size + 63) & ~(size_t)63);
	struct coll_group *g;
	char *p;

	if (!b)
		return NULL;
	memset(b, 0, size);
	g = (struct coll_group *)(b + sizeof(struct coll_member));
	p = (char *)(g + 1);
	g->me = (struct coll_member *)b;
	g->block = b;
	g->peer = (struct coll_member **)p;
	g->src = (const void **)(p + tab);
	g->res = (const void **)(p + 2 * tab);
	g->me->table = (const struct coll_member *const *)(p + 3 * tab);
	g->cursor = (size_t *)(p + 4 * tab);
	g->node = (int *)(p + 4 * tab + (size_t)n * sizeof(size_t));
	g->size = n;
	g->rounds = group_rounds(n);
	return g;
}

static void box_send(int to, uint64_t key, const void *ptr)
{
	struct coll_box *b = remote_address(to, &coll_box[smap_rank()]);
	unsigned spins = 0;

	while (__atomic_load_n(&b->key, __ATOMIC_ACQUIRE))
		coll_spin(&spins);
	b->ptr = ptr;
	__atomic_store_n(&b->key, key, __ATOMIC_RELEASE);
}

static const void *box_recv(int from, uint64_t key)
{
	struct coll_box *b = &coll_box[from];
	unsigned spins = 0;
	const void *ptr;
	uint64_t k;

	while (!(k = __atomic_load_n(&b->key, __ATOMIC_ACQUIRE)))
		coll_spin(&spins);
	if (k != key)
		core_fatal("libsmap coll_group_create: ranks %d and %d create their common groups in different orders",
			   smap_rank(), from);
	ptr = b->ptr;
	__atomic_store_n(&b->key, 0, __ATOMIC_RELEASE);
	return ptr;
}

/* Names the member list, so a message for another creation is caught. */
static uint64_t group_key(int n, const int *node)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (int i = 0; i < n; i++) {
		h ^= (uint64_t)node[i] + 1;
		h *= 0x100000001b3ull;
	}
	return h | 1;
}

/* Member 0 collects every member's state, then answers each with its own,
 * whose table lists them all; NULL anywhere means somebody had no memory. */
static int group_rendezvous(struct coll_group *g, int me, int n, const int *node)
{
	const struct coll_member **table = g ? (const struct coll_member **)g->me->table : NULL;
	const struct coll_member *lead, *const *remote;
	uint64_t key = group_key(n, node);
	int ok = g != NULL;

	if (me == 0) {
		for (int i = 1; i < n; i++) {
			const struct coll_member *m = box_recv(node[i], key);

			ok = ok && m;
			if (table)
				table[i] = m;
		}
		if (ok)
			table[0] = g->me;
		for (int i = 1; i < n; i++)
			box_send(node[i], key, ok ? g->me : NULL);
		if (!ok)
			return -ENOMEM;
		for (int i = 1; i < n; i++)
			g->peer[i] = coll_remote(node[i], table[i]);
		return 0;
	}
	box_send(node[0], key, g ? g->me : NULL);
	lead = box_recv(node[0], key);
	if (!lead)
		return -ENOMEM;
	lead = coll_remote(node[0], lead);
	remote = coll_remote(node[0], lead->table);
	for (int i = 0; i < n; i++)
		if (i != me)
			g->peer[i] = coll_remote(node[i], remote[i]);
	return 0;
}

/* Groups destroyed here whose blocks a peer may still touch. */
static struct coll_group *group_dying;

/* Member 0 frees once every member is in, the others once member 0 has
 * said bye: by then no call on the group runs anywhere, so nobody reads
 * anybody's state.  1 when g's block (g with it) is freed. */
static int group_release(struct coll_group *g)
{
	if (g->rank == 0) {
		if (__atomic_load_n(&g->me->gone, __ATOMIC_ACQUIRE) != (uint64_t)g->size - 1)
			return 0;
		for (int i = 1; i < g->size; i++)
			__atomic_store_n(&g->peer[i]->bye, 1, __ATOMIC_RELEASE);
	} else if (!__atomic_load_n(&g->me->bye, __ATOMIC_ACQUIRE)) {
		return 0;
	}
	free(g->block);
	return 1;
}

static void group_reap(void)
{
	struct coll_group **pp = &group_dying, *g;

	while ((g = *pp)) {
		struct coll_group *next = g->dying_next;

		if (group_release(g))
			*pp = next;
		else
			pp = &g->dying_next;
	}
}

int coll_group_create(struct coll_group *parent, int n, const int *members,
		      struct coll_group **out)
{
	int pn = parent->size, me = -1, r;
	struct coll_group *g;

	*out = NULL;
	group_reap();
	if (n < 1 || n > pn)
		return -EINVAL;
	int node[n];
	unsigned char seen[pn];

	memset(seen, 0, sizeof seen);
	for (int i = 0; i < n; i++) {
		int m = members[i];

		if (m < 0 || m >= pn || seen[m])
			return -EINVAL;
		seen[m] = 1;
		node[i] = parent->node[m];
		if (m == parent->rank)
			me = i;
	}
	if (me < 0)
		return -EINVAL;
	g = group_alloc(n);
	if (g) {
		g->rank = me;
		g->peer[me] = g->me;
		memcpy(g->node, node, sizeof node);
	}
	r = group_rendezvous(g, me, n, node);
	if (r < 0) {
		free(g ? g->block : NULL);
		return r;
	}
	*out = g;
	return 0;
}

struct split_entry {
	int color, key;
};

int coll_group_split(struct coll_group *parent, int color, int key,
		     struct coll_group **out)
{
	int n = parent->size, cnt = 0;
	struct split_entry mine = { color, key }, all[n];
	int list[n];

	/* The engine's own call: no face's description applies to it. */
	parent->word = 0;
	parent->word_pending = 0;
	coll_allgather(parent, &mine, all, sizeof mine);
	*out = NULL;
	if (color < 0)
		return 0;
	/* Insertion in parent order keeps equal keys in parent order. */
	for (int i = 0; i < n; i++) {
		int j;

		if (all[i].color != color)
			continue;
		for (j = cnt; j > 0 && all[list[j - 1]].key > all[i].key; j--)
			list[j] = list[j - 1];
		list[j] = i;
		cnt++;
	}
	return coll_group_create(parent, cnt, list, out);
}

void coll_group_destroy(struct coll_group *g)
{
	if (!g || !g->block)
		return;
	if (coll_is_span(g)) {
		free(g);
		return;
	}
	if (g->rank != 0)
		__atomic_add_fetch(&g->peer[0]->gone, 1, __ATOMIC_ACQ_REL);
	g->dying_next = group_dying;
	group_dying = g;
	group_reap();
}
