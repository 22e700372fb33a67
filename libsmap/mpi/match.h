/*
 * match.h - MPI message matching for one context (communicator).
 *
 * Posted receives and unexpected messages are kept per source in arrival
 * (or posting) order, plus one list of ANY_SOURCE receives and one list of
 * every unexpected message, so the common cases - a message meeting a
 * receive posted for its source, a receive for a source finding its
 * message - cost a look at the head of one or two lists.  An `order`
 * stamp decides between a source's list and the ANY_SOURCE list, which
 * keeps MPI's rule: a message matches the earliest posted receive that
 * fits, and a receive the earliest message from a source that fits.
 *
 * Pure logic; entries are embedded in the caller's objects.
 */
#ifndef SMPI_MATCH_H
#define SMPI_MATCH_H

#include <stdint.h>

#define MATCH_ANY	(-1)	/* as a source or tag of a receive */

struct match_link {
	struct match_link *next, *prev;
};

struct match_entry {
	struct match_link link;		/* in its source's (or the ANY) list */
	struct match_link all;		/* unexpected: in arrival order */
	int src, tag;
	uint64_t order;
};

struct match_ctx {
	int nsrc;
	uint64_t order;
	struct match_link *posted;	/* [nsrc] */
	struct match_link *unexp;	/* [nsrc] */
	struct match_link posted_any;
	struct match_link unexp_all;
	long nunexp;
};

/* 0, or -1 when memory is short. */
int match_init(struct match_ctx *m, int nsrc);
void match_destroy(struct match_ctx *m);

/* A receive for e->src (or MATCH_ANY) and e->tag (or MATCH_ANY). */
void match_post(struct match_ctx *m, struct match_entry *e);
/* Removes a posted receive that has not matched. */
void match_cancel(struct match_ctx *m, struct match_entry *e);
/* A message from src with tag arrived: the posted receive it matches,
 * removed, or NULL. */
struct match_entry *match_arrive(struct match_ctx *m, int src, int tag);

/* No posted receive could take a message from src: a receive for src
 * would be the first to match its next one. */
static inline int match_none_posted(const struct match_ctx *m, int src)
{
	return m->posted[src].next == &m->posted[src] && m->posted_any.next == &m->posted_any;
}

/* Keeps e (e->src, e->tag set) as an unexpected message. */
void match_keep(struct match_ctx *m, struct match_entry *e);
/* The earliest unexpected message a receive for (src, tag) takes;
 * removed when take is set (a receive), left in place for a probe. */
struct match_entry *match_find(struct match_ctx *m, int src, int tag, int take);
/* The earliest unexpected message from src that is(e, arg) picks, removed
 * (a send cancelled before any receive took it), or NULL. */
struct match_entry *match_drop(struct match_ctx *m, int src,
			       int (*is)(const struct match_entry *e, const void *arg),
			       const void *arg);

#endif
