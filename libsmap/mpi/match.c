/*
 * match.c - MPI message matching (see match.h).
 */
#include <stddef.h>
#include <stdlib.h>
#include "match.h"

#define match_of(l, field) \
	((struct match_entry *)((char *)(l) - offsetof(struct match_entry, field)))

static void match_list_init(struct match_link *h)
{
	h->next = h->prev = h;
}

static void match_list_add(struct match_link *h, struct match_link *l)
{
	l->prev = h->prev;
	l->next = h;
	h->prev->next = l;
	h->prev = l;
}

static void match_list_del(struct match_link *l)
{
	l->prev->next = l->next;
	l->next->prev = l->prev;
}

static int match_tag(int want, int tag)
{
	return want == MATCH_ANY || want == tag;
}

int match_init(struct match_ctx *m, int nsrc)
{
	int i;

	m->nsrc = nsrc;
	m->order = 0;
	m->nunexp = 0;
	m->posted = malloc(2 * nsrc * sizeof *m->posted);
	if (!m->posted)
		return -1;
	m->unexp = m->posted + nsrc;
	for (i = 0; i < 2 * nsrc; i++)
		match_list_init(&m->posted[i]);
	match_list_init(&m->posted_any);
	match_list_init(&m->unexp_all);
	return 0;
}

void match_destroy(struct match_ctx *m)
{
	free(m->posted);
	m->posted = m->unexp = NULL;
}

void match_post(struct match_ctx *m, struct match_entry *e)
{
	e->order = m->order++;
	match_list_add(e->src == MATCH_ANY ? &m->posted_any : &m->posted[e->src], &e->link);
}

void match_cancel(struct match_ctx *m, struct match_entry *e)
{
	(void)m;
	match_list_del(&e->link);
}

/* The first entry of h that a message with tag matches (posted receives),
 * or, with wild set, that a receive for tag takes (unexpected messages). */
static struct match_entry *match_first(struct match_link *h, int tag, int wild)
{
	struct match_link *l;

	for (l = h->next; l != h; l = l->next) {
		int t = match_of(l, link)->tag;

		if (wild ? match_tag(tag, t) : match_tag(t, tag))
			return match_of(l, link);
	}
	return NULL;
}

struct match_entry *match_arrive(struct match_ctx *m, int src, int tag)
{
	struct match_entry *a = match_first(&m->posted[src], tag, 0);
	struct match_entry *b = match_first(&m->posted_any, tag, 0);

	if (!a || (b && b->order < a->order))
		a = b;
	if (a)
		match_list_del(&a->link);
	return a;
}

void match_keep(struct match_ctx *m, struct match_entry *e)
{
	match_list_add(&m->unexp[e->src], &e->link);
	match_list_add(&m->unexp_all, &e->all);
	m->nunexp++;
}

static void match_unkeep(struct match_ctx *m, struct match_entry *e)
{
	match_list_del(&e->link);
	match_list_del(&e->all);
	m->nunexp--;
}

struct match_entry *match_drop(struct match_ctx *m, int src,
			       int (*is)(const struct match_entry *e, const void *arg),
			       const void *arg)
{
	struct match_link *l;

	for (l = m->unexp[src].next; l != &m->unexp[src]; l = l->next)
		if (is(match_of(l, link), arg)) {
			match_unkeep(m, match_of(l, link));
			return match_of(l, link);
		}
	return NULL;
}

struct match_entry *match_find(struct match_ctx *m, int src, int tag, int take)
{
	struct match_entry *e = NULL;
	struct match_link *l;

	if (m->nunexp == 0)
		return NULL;
	if (src != MATCH_ANY) {
		e = match_first(&m->unexp[src], tag, 1);
	} else {
		for (l = m->unexp_all.next; l != &m->unexp_all; l = l->next)
			if (match_tag(tag, match_of(l, all)->tag)) {
				e = match_of(l, all);
				break;
			}
	}
	if (e && take)
		match_unkeep(m, e);
	return e;
}
