/*
 * team.c - teams and contexts: SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED,
 * split_strided, split_2d, translate_pe, team queries, team_sync,
 * destroy, the teams behind the deprecated active sets, and contexts.
 *
 * A team is an arithmetic progression of world PEs (shmemi.h) plus, when
 * all its PEs are on this node, a group of the collective engine, on which
 * every collective of the team runs.  A team that spans nodes has no group:
 * only sync on the world team works across nodes (smap_barrier, the
 * hierarchical barrier); its other collectives fail naming the call.
 *
 * A context is a team to number PEs by plus the options it was made with.
 * Every RMA completes before it returns, so all contexts share one ordering
 * domain: quiet on one is quiet on all.
 */
#include <stdlib.h>
#include "shmemi.h"

#define TEAM_CTX_OPTIONS	(SHMEM_CTX_SERIALIZED | SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE)

struct shmemi_team shmemi_team_world, shmemi_team_shared;
struct shmemi_ctx shmemi_ctx_default = { &shmemi_team_world, 0, NULL };

/* A few words of private memory a team cannot do without: running out
 * here leaves the job unusable, so it fails rather than returns. */
static void *team_alloc(size_t bytes, const char *fn)
{
	void *p = calloc(1, bytes);

	if (!p)
		shmemi_fail(fn, "out of private memory (%zu bytes for a team)", bytes);
	return p;
}

/* Teams of active sets, by (start, log stride, size), kept until finalize. */
static struct shmemi_team *team_active_list;

static int team_on_node(int start, int stride, int size)
{
	int last = start + (size - 1) * stride;

	return start >= shmemi.node_first && last < shmemi.node_first + (int)shmemi.node_npes;
}

/*
 * A team object for PEs start + i * stride, called by its members only
 * (collectively: the engine's group creation is a rendezvous of them).
 * NULL when the engine ran out of memory, on every member alike.
 */
static struct shmemi_team *team_new(int start, int stride, int size,
				    const shmem_team_config_t *config, long mask,
				    const char *fn)
{
	struct shmemi_team *t = team_alloc(sizeof *t, fn);
	int members[SMAP_MAX_RANKS];
	int i;

	t->start = start;
	t->stride = stride;
	t->size = size;
	t->my_pe = (shmemi.me - start) / stride;
	if (config && (mask & SHMEM_TEAM_NUM_CONTEXTS)) {
		t->config.num_contexts = config->num_contexts;
		t->config_mask = SHMEM_TEAM_NUM_CONTEXTS;
	}
	if (!team_on_node(start, stride, size))
		return t;
	t->scratch = team_alloc(2 * (size_t)size * sizeof *t->scratch, fn);
	for (i = 0; i < size; i++)
		members[i] = start + i * stride - shmemi.node_first;
	if (coll_group_create(coll_world(), size, members, &t->group) < 0) {
		free(t->scratch);
		free(t);
		return NULL;
	}
	return t;
}

void shmemi_team_init(void)
{
	struct shmemi_team *w = &shmemi_team_world, *s = &shmemi_team_shared;

	*w = (struct shmemi_team){ .start = 0, .stride = 1, .size = shmemi.npes,
				   .my_pe = shmemi.me, .predefined = 1 };
	*s = (struct shmemi_team){ .start = shmemi.node_first, .stride = 1,
				   .size = (int)shmemi.node_npes,
				   .my_pe = (int)shmemi.node_me, .predefined = 1 };
	s->group = coll_world();
	s->scratch = team_alloc(2 * (size_t)s->size * sizeof *s->scratch, "shmem_init");
	if (shmemi.nnodes == 1) {
		w->group = s->group;
		w->scratch = team_alloc(2 * (size_t)w->size * sizeof *w->scratch, "shmem_init");
	}
}

static void team_free(struct shmemi_team *t)
{
	while (t->ctxs) {
		struct shmemi_ctx *c = t->ctxs;

		t->ctxs = c->next;
		free(c);
	}
	if (t->group && t->group != coll_world())
		coll_group_destroy(t->group);
	free(t->scratch);
	t->scratch = NULL;
	if (!t->predefined)
		free(t);
}

/* Collective over the world (shmem_finalize), after its barrier. */
void shmemi_team_fini(void)
{
	while (team_active_list) {
		struct shmemi_team *t = team_active_list;

		team_active_list = t->next;
		team_free(t);
	}
	team_free(&shmemi_team_world);
	team_free(&shmemi_team_shared);
}

void shmemi_team_check(shmem_team_t team, const char *fn)
{
	shmemi_check_ready(fn);
	if (team == SHMEM_TEAM_INVALID)
		shmemi_fail(fn, "the team is SHMEM_TEAM_INVALID");
}

struct coll_group *shmemi_team_group(shmem_team_t team, const char *fn)
{
	shmemi_team_check(team, fn);
	if (!team->group)
		return shmemi_span_group(team, fn);
	return team->group;
}

struct shmemi_team *shmemi_team_active(int start, int log_stride, int size, const char *fn)
{
	struct shmemi_team *t;
	int stride;

	shmemi_check_ready(fn);
	if (log_stride < 0 || log_stride > 30 || size < 1 || start < 0 ||
	    start + (long long)(size - 1) * (1LL << log_stride) >= shmemi.npes)
		shmemi_fail(fn, "active set (PE_start %d, logPE_stride %d, PE_size %d) is not "
			    "within the job's %d PEs", start, log_stride, size, shmemi.npes);
	stride = 1 << log_stride;
	if (shmemi.me < start || (shmemi.me - start) % stride ||
	    (shmemi.me - start) / stride >= size)
		shmemi_fail(fn, "this PE is not in the active set (PE_start %d, logPE_stride %d, "
			    "PE_size %d)", start, log_stride, size);
	for (t = team_active_list; t; t = t->next)
		if (t->start == start && t->stride == stride && t->size == size)
			return t;
	t = team_new(start, stride, size, NULL, 0, fn);
	if (!t)
		shmemi_fail(fn, "out of memory for the active set's team");
	t->next = team_active_list;
	team_active_list = t;
	return t;
}

int shmem_team_my_pe(shmem_team_t team)
{
	if (team == SHMEM_TEAM_INVALID)
		return -1;
	return team->my_pe;
}

int shmem_team_n_pes(shmem_team_t team)
{
	if (team == SHMEM_TEAM_INVALID)
		return -1;
	return team->size;
}

int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config)
{
	if (team == SHMEM_TEAM_INVALID || (config_mask & ~SHMEM_TEAM_NUM_CONTEXTS) || !config)
		return -1;
	if (config_mask & SHMEM_TEAM_NUM_CONTEXTS)
		config->num_contexts = team->config.num_contexts;
	return 0;
}

int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team)
{
	int pe, d;

	if (src_team == SHMEM_TEAM_INVALID || dest_team == SHMEM_TEAM_INVALID ||
	    src_pe < 0 || src_pe >= src_team->size)
		return -1;
	pe = src_team->start + src_pe * src_team->stride;
	d = pe - dest_team->start;
	if (d < 0 || d % dest_team->stride || d / dest_team->stride >= dest_team->size)
		return -1;
	return d / dest_team->stride;
}

/*
 * The team of parent's PEs start + i * stride (parent numbering), created
 * by its members; everyone else gets SHMEM_TEAM_INVALID.  *ok is cleared
 * when this PE is a member and the team could not be made.
 */
static shmem_team_t team_split(shmem_team_t parent, int start, int stride, int size,
			       const shmem_team_config_t *config, long mask, int *ok,
			       const char *fn)
{
	int d = parent->my_pe - start;
	shmem_team_t t;

	if (d < 0 || d % stride || d / stride >= size)
		return SHMEM_TEAM_INVALID;
	t = team_new(parent->start + start * parent->stride, parent->stride * stride, size,
		     config, mask, fn);
	if (!t)
		*ok = 0;
	return t;
}

/*
 * The specification wants a split to succeed on every PE of the parent or
 * on none: one AND over the parent, and on failure the teams that were
 * made go again.  A parent spanning nodes has no group to agree on; its
 * members can only fail together when the engine runs out of memory on
 * the same group, which is every member of that group.
 */
static int team_agree(shmem_team_t parent, int ok, shmem_team_t *a, shmem_team_t *b)
{
	if (parent->group)
		ok = shmemi_all(parent->group, ok);
	if (ok)
		return 0;
	if (*a)
		team_free(*a);
	if (b && *b)
		team_free(*b);
	*a = SHMEM_TEAM_INVALID;
	if (b)
		*b = SHMEM_TEAM_INVALID;
	return -1;
}

int shmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size,
			     const shmem_team_config_t *config, long config_mask,
			     shmem_team_t *new_team)
{
	int ok = 1;

	*new_team = SHMEM_TEAM_INVALID;
	if (parent_team == SHMEM_TEAM_INVALID)
		return -1;
	shmemi_check_ready(__func__);
	if (size < 1 || stride < 1 || start < 0 ||
	    start + (long long)(size - 1) * stride >= parent_team->size ||
	    (config_mask & ~SHMEM_TEAM_NUM_CONTEXTS))
		return -1;
	*new_team = team_split(parent_team, start, stride, size, config, config_mask, &ok,
			       __func__);
	return team_agree(parent_team, ok, new_team, NULL);
}

/*
 * The parent's PEs as a grid of rows of xrange: the x team of a PE is its
 * row, the y team its column (the last row may be short).
 */
int shmem_team_split_2d(shmem_team_t parent_team, int xrange,
			const shmem_team_config_t *xaxis_config, long xaxis_mask,
			shmem_team_t *xaxis_team,
			const shmem_team_config_t *yaxis_config, long yaxis_mask,
			shmem_team_t *yaxis_team)
{
	int n, me, x, y, rows, xsize, ysize, ok = 1;

	*xaxis_team = *yaxis_team = SHMEM_TEAM_INVALID;
	if (parent_team == SHMEM_TEAM_INVALID)
		return -1;
	shmemi_check_ready(__func__);
	if (xrange < 1 || ((xaxis_mask | yaxis_mask) & ~SHMEM_TEAM_NUM_CONTEXTS))
		return -1;
	n = parent_team->size;
	me = parent_team->my_pe;
	if (xrange > n)
		xrange = n;
	x = me % xrange;
	y = me / xrange;
	rows = (n + xrange - 1) / xrange;
	xsize = y == rows - 1 ? n - y * xrange : xrange;
	ysize = x < n - (rows - 1) * xrange ? rows : rows - 1;
	*xaxis_team = team_split(parent_team, y * xrange, 1, xsize, xaxis_config, xaxis_mask,
				 &ok, __func__);
	*yaxis_team = team_split(parent_team, x, xrange, ysize, yaxis_config, yaxis_mask,
				 &ok, __func__);
	return team_agree(parent_team, ok, xaxis_team, yaxis_team);
}

/* A team of every PE may span nodes: then the hierarchical barrier. */
void shmemi_team_sync(shmem_team_t team, const char *fn)
{
	shmemi_team_check(team, fn);
	/* The world across nodes syncs with the job barrier, never the span
	 * mailboxes: a mailbox barrier's last acknowledgements are still on
	 * their way when it returns, and shmem_finalize's must not outlive
	 * the PEs they go to. */
	if (team->start == 0 && team->stride == 1 && team->size == shmemi.npes &&
	    (!team->group || shmemi.nnodes > 1))
		smap_barrier();
	else
		coll_barrier(shmemi_team_group(team, fn));
}

int shmem_team_sync(shmem_team_t team)
{
	shmemi_team_sync(team, __func__);
	return 0;
}

/* shmem_ptr for a PE named by its number in team (NULL when the team or
 * the PE is not valid, or the PE is on another node). */
void *shmem_team_ptr(shmem_team_t team, const void *dest, int pe)
{
	int w;

	shmemi_check_ready(__func__);
	if (team == SHMEM_TEAM_INVALID)
		return NULL;
	w = shmem_team_translate_pe(team, pe, SHMEM_TEAM_WORLD);
	return w < 0 ? NULL : shmem_ptr(dest, w);
}

/* No profiling library sits in between: nothing to control. */
void shmem_pcontrol(const int level, ...)
{
	(void)level;
}

void shmem_team_destroy(shmem_team_t team)
{
	/* As the 1.5 standard and the reference implementation: a no-op. */
	if (team == SHMEM_TEAM_INVALID)
		return;
	shmemi_team_check(team, __func__);
	if (team->predefined)
		shmemi_fail(__func__, "the predefined teams cannot be destroyed");
	shmem_quiet();
	team_free(team);
}

int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx)
{
	struct shmemi_ctx *c;

	*ctx = SHMEM_CTX_INVALID;
	if (team == SHMEM_TEAM_INVALID)
		return -1;
	shmemi_check_ready(__func__);
	if (options & ~TEAM_CTX_OPTIONS)
		shmemi_fail(__func__, "unknown options 0x%lx", options);
	if ((team->config_mask & SHMEM_TEAM_NUM_CONTEXTS) &&
	    team->nctx >= team->config.num_contexts)
		return -1;
	c = team_alloc(sizeof *c, __func__);
	*c = (struct shmemi_ctx){ team, options, team->ctxs };
	team->ctxs = c;
	team->nctx++;
	*ctx = c;
	return 0;
}

int shmem_ctx_create(long options, shmem_ctx_t *ctx)
{
	return shmem_team_create_ctx(SHMEM_TEAM_WORLD, options, ctx);
}

void shmem_ctx_destroy(shmem_ctx_t ctx)
{
	struct shmemi_ctx **p;

	if (ctx == SHMEM_CTX_INVALID)
		return;
	if (ctx == SHMEM_CTX_DEFAULT)
		shmemi_fail(__func__, "the default context cannot be destroyed");
	shmem_quiet();
	for (p = &ctx->team->ctxs; *p && *p != ctx; p = &(*p)->next)
		;
	if (!*p)
		shmemi_fail(__func__, "%p is not a live context", (void *)ctx);
	*p = ctx->next;
	ctx->team->nctx--;
	free(ctx);
}

int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team)
{
	if (ctx == SHMEM_CTX_INVALID || !team) {
		if (team)
			*team = SHMEM_TEAM_INVALID;
		return -1;
	}
	*team = ctx->team;
	return 0;
}
