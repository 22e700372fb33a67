/*
 * shmemi.h - what the files of libsmap's OpenSHMEM share: the library state,
 * the PE-to-address step every RMA and atomic routine takes, team and
 * context objects, and the macros that define a routine in both of its
 * flavours (default context, explicit context).  Private to libsmap/shmem.
 *
 * Invariants: shmemi.state moves NONE -> READY (shmem_init) -> DONE
 * (shmem_finalize) once.  World PE p lives on node p / node_npes as on-node
 * rank p % node_npes; every team is an arithmetic progression of world PEs
 * (start + i * stride, 0 <= i < size), which split_strided and split_2d
 * preserve, so translating a PE number is arithmetic, never a table.
 */
#ifndef SHMEMI_H
#define SHMEMI_H

#include <stddef.h>
#include <stdint.h>
#include "shmem.h"
#include "smap.h"
#include "heap.h"
#include "../coll/coll.h"
#include "../net/net.h"
#include "../core/core.h"

enum shmemi_stage { SHMEMI_NONE, SHMEMI_READY, SHMEMI_DONE };

struct shmemi_state {
	enum shmemi_stage stage;
	int me, npes;		/* world */
	int node_first;		/* world PE of this node's rank 0 */
	unsigned node_npes;	/* PEs per node */
	unsigned node_me;	/* on-node rank: what remote_address() takes */
	int node, nnodes;
	int thread_level;
	char *heap_base;	/* the symmetric heap: same address on every PE */
	size_t heap_size;
	struct heap heap;
};

extern struct shmemi_state shmemi;

struct shmemi_team {
	int start, stride, size;	/* world PEs of the team */
	int my_pe;			/* this PE's index in it */
	int predefined;			/* WORLD or SHARED */
	shmem_team_config_t config;
	long config_mask;
	struct coll_group *group;	/* NULL when the team spans nodes */
	size_t *scratch;		/* 2 * size words for the collectives */
	struct shmemi_ctx *ctxs;	/* contexts made from it */
	int nctx;
	struct shmemi_team *next;	/* the active-set teams' list */
};

struct shmemi_ctx {
	struct shmemi_team *team;
	long options;
	struct shmemi_ctx *next;	/* in team->ctxs */
};

/* "shmem PE <me>: <call>: <message>" on stderr, then the job fails. */
_Noreturn void shmemi_fail(const char *fn, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Why world PE `pe` cannot be reached from here (never returns). */
_Noreturn void shmemi_pe_fail(const char *fn, int pe);
/* Fails unless shmem_init has run and shmem_finalize has not. */
void shmemi_check_ready(const char *fn);

/* n bytes at symmetric address p are outside every PE's memory. */
_Noreturn void shmemi_range_fail(const char *fn, const volatile void *p, size_t n, int pe);

/*
 * The transport seam: where this PE reaches p of world PE `pe` by loads and
 * stores - p itself for this PE, the SMARTMAP address for another PE of the
 * node - or NULL for a PE on another node, which the routines then reach
 * through the network (netrma.c).  First, the n bytes at p must lie in the
 * PE's memory (core_range_in): a bad range fails here, blaming the caller,
 * instead of overwriting (or faulting in) the target.
 */
static inline void *shmemi_local(const volatile void *p, size_t n, int pe, const char *fn)
{
	unsigned r = (unsigned)pe - (unsigned)shmemi.node_first;

	if (__builtin_expect(!core_range_in(0, (uintptr_t)p, n), 0))
		shmemi_range_fail(fn, p, n, pe);

	if (__builtin_expect(r >= shmemi.node_npes, 0)) {
		if ((unsigned)pe >= (unsigned)shmemi.npes || !net_up())
			shmemi_pe_fail(fn, pe);
		return NULL;
	}
	if (r == shmemi.node_me)
		return (void *)p;
	return remote_address(r, (void *)p);
}

/* Routines a program may call in a polling loop (the tests, test_lock,
 * signal_fetch, _g and fetching atomics on this node) drive host mode's
 * network every 16th call: its engine moves only while a rank of its node
 * is in the library (core_progress), so two nodes each polling for the
 * other's store would otherwise wait forever.  Waits drive it in
 * core_spin; the kernel's engine has a CPU of its own. */
static inline void shmemi_poll(void)
{
	static unsigned polls;

	if (__builtin_expect(core_progress != NULL, 0) && !(++polls & 15))
		core_progress();
}

/* The bytes n elements of es bytes, stride elements apart, span from p:
 * the lowest address and the length, or (p, SIZE_MAX) when that
 * overflows, which no range check accepts. */
static inline const char *shmemi_span(const void *p, ptrdiff_t stride, size_t n, size_t es,
				      size_t *len)
{
	ptrdiff_t last, lo;
	size_t span;

	*len = 0;
	if (!n)
		return p;
	if (n - 1 > (size_t)PTRDIFF_MAX || __builtin_mul_overflow((ptrdiff_t)(n - 1), stride, &last) ||
	    __builtin_mul_overflow(last, (ptrdiff_t)es, &last) ||
	    __builtin_add_overflow(last < 0 ? -(size_t)last : (size_t)last, es, &span)) {
		*len = SIZE_MAX;
		return p;
	}
	lo = last < 0 ? last : 0;
	*len = span;
	return (const char *)p + lo;
}

/* shmemi_local for the strided routines: the whole span is checked. */
static inline void *shmemi_local_strided(const volatile void *p, ptrdiff_t stride, size_t n,
					 size_t es, int pe, const char *fn)
{
	size_t len;
	const char *lo = shmemi_span((const void *)p, stride, n, es, &len);

	if (__builtin_expect(!core_range_in(0, (uintptr_t)lo, len), 0))
		shmemi_range_fail(fn, lo, len, pe);
	return shmemi_local(p, 0, pe, fn);
}

/* Off the node (netrma.c): nbi leaves completion to quiet. */
void shmemi_net_put(void *dest, const void *src, size_t n, int pe, int nbi, const char *fn);
void shmemi_net_get(void *dest, const void *src, size_t n, int pe, int nbi, const char *fn);
/* Strided (rstride >= 1 elements apart on pe; lstride here): one command. */
void shmemi_net_rows(void *local, void *remote, ptrdiff_t lstride, ptrdiff_t rstride, size_t n,
		     size_t es, int pe, int get, const char *fn);
/* An atomic (SNAMO_* kind, SNAMO_32 for 4-byte words) on dest of pe:
 * the old value (fetch), or nothing waited for (post). */
int64_t shmemi_net_fetch(uint8_t kind, void *dest, int64_t a0, int64_t a1, int pe, const char *fn);
void shmemi_net_post(uint8_t kind, void *dest, int64_t a0, int pe, const char *fn);

/* Where this PE reaches p of a PE of this node (fails for another node). */
static inline void *shmemi_addr(const volatile void *p, int pe, const char *fn)
{
	unsigned r = (unsigned)pe - (unsigned)shmemi.node_first;

	if (__builtin_expect(r >= shmemi.node_npes, 0))
		shmemi_pe_fail(fn, pe);
	if (r == shmemi.node_me)
		return (void *)p;
	return remote_address(r, (void *)p);
}

/* World PE of PE `pe` of ctx's team. */
static inline int shmemi_ctx_pe(shmem_ctx_t ctx, int pe, const char *fn)
{
	const struct shmemi_team *t;

	if (__builtin_expect(ctx == SHMEM_CTX_INVALID, 0))
		shmemi_fail(fn, "the context is SHMEM_CTX_INVALID");
	t = ctx->team;
	if (__builtin_expect((unsigned)pe >= (unsigned)t->size, 0))
		shmemi_fail(fn, "PE %d is not in the context's team of %d PEs", pe, t->size);
	return t->start + pe * t->stride;
}

/*
 * Every RMA and atomic routine exists as shmem_X(args) on the default
 * context and shmem_ctx_X(ctx, args) on a context: a definition macro takes
 * the flavour F (world or ctx) and uses SHMEMI_FN for the name,
 * SHMEMI_PARAM for the extra parameter and SHMEMI_ADDR for the address.
 */
#define SHMEMI_FN(F, N, S)	SHMEMI_FN_(SHMEMI_PREFIX_##F, N, S)
#define SHMEMI_FN_(P, N, S)	SHMEMI_FN__(P, N, S)
#define SHMEMI_FN__(P, N, S)	P##N##S
#define SHMEMI_PREFIX_world	shmem_
#define SHMEMI_PREFIX_ctx	shmem_ctx_
#define SHMEMI_PARAM_world
#define SHMEMI_PARAM_ctx	shmem_ctx_t ctx,
#define SHMEMI_PE_world(pe)	(pe)
#define SHMEMI_PE_ctx(pe)	shmemi_ctx_pe(ctx, pe, __func__)
#define SHMEMI_ADDR(F, p, pe)	shmemi_addr(p, SHMEMI_PE_##F(pe), __func__)
#define SHMEMI_LOCAL(F, p, pe)	shmemi_local(p, sizeof(*(p)), SHMEMI_PE_##F(pe), __func__)
#define SHMEMI_BOTH(DEF, ...)	DEF(world, __VA_ARGS__) DEF(ctx, __VA_ARGS__)

/* Teams spanning nodes (span.c): mailboxes at shmem_init, and the team's
 * span group on its first collective. */
void shmemi_span_init(void);
struct coll_group *shmemi_span_group(struct shmemi_team *t, const char *fn);
/* A put of n bytes, and an 8-byte atomic store, to world PE pe through
 * the seam (netrma.c). */
void shmemi_put_bytes(void *dest, const void *src, size_t n, int pe, const char *fn);
void shmemi_set64(uint64_t *dest, uint64_t v, int pe, const char *fn);

/* Teams (team.c). */
void shmemi_team_init(void);
void shmemi_team_fini(void);
/* The team of an active set, created on first use and kept. */
struct shmemi_team *shmemi_team_active(int start, int log_stride, int size, const char *fn);
/* Fails unless `team` is a team (non-members hold SHMEM_TEAM_INVALID). */
void shmemi_team_check(shmem_team_t team, const char *fn);
/* The team's engine group; fails when the team spans nodes. */
struct coll_group *shmemi_team_group(shmem_team_t team, const char *fn);
/* 1 when ok is nonzero on every member of g (collective, reduce.c). */
int shmemi_all(struct coll_group *g, int ok);
/* Barrier of the team's PEs, across nodes for a team of the whole job. */
void shmemi_team_sync(shmem_team_t team, const char *fn);

/* n elements of es bytes from src[i * sst] to dest[i * dst]; es is a
 * constant where this is inlined, so each case is a plain loop. */
typedef struct {
	uint64_t w[2];
} shmemi_u128;

static inline __attribute__((always_inline)) void
shmemi_strided(void *dest, const void *src, ptrdiff_t dst, ptrdiff_t sst, size_t n, size_t es)
{
	size_t i;

#define SHMEMI_STRIDED_AS(E)						\
	for (i = 0; i < n; i++)						\
		((E *)dest)[(ptrdiff_t)i * dst] = ((const E *)src)[(ptrdiff_t)i * sst]; \
	break
	switch (es) {
	case 1: SHMEMI_STRIDED_AS(uint8_t);
	case 2: SHMEMI_STRIDED_AS(uint16_t);
	case 4: SHMEMI_STRIDED_AS(uint32_t);
	case 8: SHMEMI_STRIDED_AS(uint64_t);
	case 16: SHMEMI_STRIDED_AS(shmemi_u128);
	}
#undef SHMEMI_STRIDED_AS
}

#endif
