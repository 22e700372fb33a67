/*
 * collective.c - barriers, broadcast, collect, fcollect, alltoall(s): the
 * team forms of OpenSHMEM 1.5 and the deprecated active-set forms, all on
 * the collective engine (libsmap/coll) through the team's group.
 *
 * SHMEM's argument orders and element counts are translated to the
 * engine's bytes; pSync arrays are accepted and never touched (the engine
 * keeps its own state), so they keep SHMEM_SYNC_VALUE.  The one thing the
 * engine does not move is strided data: alltoalls packs each PE's blocks
 * into a contiguous buffer, runs alltoall, and unpacks.
 */
#include <stdlib.h>
#include <string.h>
#include "shmemi.h"

void shmem_barrier_all(void)
{
	shmemi_check_ready(__func__);
	shmem_quiet();
	shmemi_team_sync(SHMEM_TEAM_WORLD, __func__);
}

void shmem_sync_all(void)
{
	shmemi_check_ready(__func__);
	shmemi_team_sync(SHMEM_TEAM_WORLD, __func__);
}

void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
	(void)pSync;
	shmem_quiet();
	shmemi_team_sync(shmemi_team_active(PE_start, logPE_stride, PE_size, __func__), __func__);
}

void (shmem_sync)(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
	(void)pSync;
	shmemi_team_sync(shmemi_team_active(PE_start, logPE_stride, PE_size, "shmem_sync"),
			 "shmem_sync");
}

/* root_too: the root's dest gets the data as well (team form). */
static void coll_broadcast(shmem_team_t team, void *dest, const void *source, size_t bytes,
			   int root, int root_too, const char *fn)
{
	struct coll_group *g = shmemi_team_group(team, fn);

	if (root < 0 || root >= team->size)
		shmemi_fail(fn, "PE_root %d is not in the team of %d PEs", root, team->size);
	if (team->my_pe != root) {
		coll_bcast(g, dest, bytes, root);
		return;
	}
	if (root_too && dest != source)
		memcpy(dest, source, bytes);
	/* The engine only reads the root's buffer. */
	coll_bcast(g, (void *)source, bytes, root);
}

/* Blocks of any size, concatenated in team order. */
static void coll_collect(shmem_team_t team, void *dest, const void *source, size_t bytes,
			 const char *fn)
{
	struct coll_group *g = shmemi_team_group(team, fn);
	size_t *counts = team->scratch, *displs = team->scratch + team->size, at = 0;
	int i;

	coll_allgather(g, &bytes, counts, sizeof bytes);
	for (i = 0; i < team->size; i++) {
		displs[i] = at;
		at += counts[i];
	}
	coll_allgatherv(g, source, dest, counts, displs);
}

static void coll_fcollect(shmem_team_t team, void *dest, const void *source, size_t bytes,
			  const char *fn)
{
	coll_allgather(shmemi_team_group(team, fn), source, dest, bytes);
}

static void coll_exchange(shmem_team_t team, void *dest, const void *source, size_t bytes,
			  const char *fn)
{
	coll_alltoall(shmemi_team_group(team, fn), source, dest, bytes);
}

/* Element e of the block for PE j is source[(j * nelems + e) * sst]; it
 * lands at dest[(i * nelems + e) * dst] on PE j, i being the sender. */
static void coll_exchange_strided(shmem_team_t team, void *dest, const void *source,
				  ptrdiff_t dst, ptrdiff_t sst, size_t nelems, size_t es,
				  const char *fn)
{
	struct coll_group *g = shmemi_team_group(team, fn);
	size_t n = nelems * (size_t)team->size;
	char *packed;

	if (dst < 1 || sst < 1)
		shmemi_fail(fn, "strides must be at least 1 (dst %td, sst %td)", dst, sst);
	if (dst == 1 && sst == 1) {
		coll_alltoall(g, source, dest, nelems * es);
		return;
	}
	packed = malloc(2 * n * es + 1);	/* + 1: never malloc(0) */
	if (!packed)
		shmemi_fail(fn, "out of private memory (%zu bytes to pack strided blocks)",
			    2 * n * es);
	shmemi_strided(packed, source, 1, sst, n, es);
	coll_alltoall(g, packed, packed + n * es, nelems * es);
	shmemi_strided(dest, packed + n * es, dst, 1, n, es);
	free(packed);
}

/* The team forms, typed and mem. */
#define COLL_TEAM(NAME, T, ES)						\
int shmem_##NAME##broadcast(shmem_team_t team, T *dest, const T *source, \
			    size_t nelems, int PE_root)			\
{									\
	coll_broadcast(team, dest, source, nelems * ES, PE_root, 1, __func__); \
	return 0;							\
}									\
int shmem_##NAME##collect(shmem_team_t team, T *dest, const T *source, size_t nelems) \
{									\
	coll_collect(team, dest, source, nelems * ES, __func__);	\
	return 0;							\
}									\
int shmem_##NAME##fcollect(shmem_team_t team, T *dest, const T *source, size_t nelems) \
{									\
	coll_fcollect(team, dest, source, nelems * ES, __func__);	\
	return 0;							\
}									\
int shmem_##NAME##alltoall(shmem_team_t team, T *dest, const T *source, size_t nelems) \
{									\
	coll_exchange(team, dest, source, nelems * ES, __func__);	\
	return 0;							\
}									\
int shmem_##NAME##alltoalls(shmem_team_t team, T *dest, const T *source, ptrdiff_t dst, \
			    ptrdiff_t sst, size_t nelems)		\
{									\
	coll_exchange_strided(team, dest, source, dst, sst, nelems, ES, __func__); \
	return 0;							\
}
#define COLL_TYPED(T, N)	COLL_TEAM(N##_, T, sizeof(T))
SHMEMI_RMA_TYPES(COLL_TYPED)
int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source, size_t nelems,
		       int PE_root)
{
	coll_broadcast(team, dest, source, nelems, PE_root, 1, __func__);
	return 0;
}

int shmem_collectmem(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
	coll_collect(team, dest, source, nelems, __func__);
	return 0;
}

int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
	coll_fcollect(team, dest, source, nelems, __func__);
	return 0;
}

int shmem_alltoallmem(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
	coll_exchange(team, dest, source, nelems, __func__);
	return 0;
}

int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst,
		       ptrdiff_t sst, size_t nelems)
{
	coll_exchange_strided(team, dest, source, dst, sst, nelems, 1, __func__);
	return 0;
}

/* The active-set forms: 32 or 64-bit elements; the root keeps its dest. */
#define COLL_ACTIVE(S)							\
void shmem_broadcast##S(void *dest, const void *source, size_t nelems, int PE_root, \
			int PE_start, int logPE_stride, int PE_size, long *pSync) \
{									\
	(void)pSync;							\
	coll_broadcast(shmemi_team_active(PE_start, logPE_stride, PE_size, __func__), \
		       dest, source, nelems * (S / 8), PE_root, 0, __func__); \
}									\
void shmem_collect##S(void *dest, const void *source, size_t nelems, int PE_start, \
		      int logPE_stride, int PE_size, long *pSync)	\
{									\
	(void)pSync;							\
	coll_collect(shmemi_team_active(PE_start, logPE_stride, PE_size, __func__), \
		     dest, source, nelems * (S / 8), __func__);		\
}									\
void shmem_fcollect##S(void *dest, const void *source, size_t nelems, int PE_start, \
		       int logPE_stride, int PE_size, long *pSync)	\
{									\
	(void)pSync;							\
	coll_fcollect(shmemi_team_active(PE_start, logPE_stride, PE_size, __func__), \
		      dest, source, nelems * (S / 8), __func__);	\
}									\
void shmem_alltoall##S(void *dest, const void *source, size_t nelems, int PE_start, \
		       int logPE_stride, int PE_size, long *pSync)	\
{									\
	(void)pSync;							\
	coll_exchange(shmemi_team_active(PE_start, logPE_stride, PE_size, __func__), \
		      dest, source, nelems * (S / 8), __func__);	\
}									\
void shmem_alltoalls##S(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, \
			size_t nelems, int PE_start, int logPE_stride, int PE_size, \
			long *pSync)					\
{									\
	(void)pSync;							\
	coll_exchange_strided(shmemi_team_active(PE_start, logPE_stride, PE_size, \
						 __func__),		\
			      dest, source, dst, sst, nelems, S / 8, __func__); \
}
COLL_ACTIVE(32)
COLL_ACTIVE(64)
