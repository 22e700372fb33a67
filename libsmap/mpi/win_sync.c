/*
 * win_sync.c - RMA synchronisation: fence, post/start/complete/wait/test,
 * lock/unlock (shared and exclusive), lock_all/unlock_all, the flushes and
 * Win_sync.
 *
 * Every Put, Get and accumulate to a member on this node has reached its
 * target when it returns (SMARTMAP stores and loads, not messages); those
 * to other nodes complete in smpi_win_quiet, which every call that ends
 * an epoch or flushes runs first.  Beyond that the calls order memory and
 * exclude conflicting epochs; the counters and lock words are reached
 * through smpi_win_word, on the node or across the network.
 *
 *   fence      a full fence, then a barrier of the window's group
 *   post       lock xadd on pscw[me].posted in each origin's memory
 *   start      waits until pscw[t].posted in our memory passes what we saw
 *   complete   lock xadd on pscw[me].completed in each target's memory
 *   wait/test  wait/check until pscw[o].completed passes what we saw
 *   lock       a reader-writer lock word in the target's memory
 *
 * Each pscw counter has one writer (the peer it is indexed by) and only
 * grows, so a slow rank cannot miss a flag and nothing is ever reset.  A
 * lock-prefixed instruction is a full barrier on x86, so the xadd that
 * announces a completion also publishes every store before it.
 */
#include <stdlib.h>
#include "win.h"
#include "../coll/coll.h"

int smpi_win_epoch(MPI_Win win, int target, int passive, const char *fn)
{
	unsigned char a = win->acc[target];

	if (win->lock_all || (a & (WIN_ACC_SHARED | WIN_ACC_EXCL)))
		return MPI_SUCCESS;
	if (!passive && (win->fence || (a & WIN_ACC_START)))
		return MPI_SUCCESS;
	return smpi_win_err(win, MPI_ERR_RMA_SYNC, fn,
			    passive ? "no passive-target epoch (MPI_Win_lock or MPI_Win_lock_all) covers rank %d"
				    : "no access epoch covers rank %d (MPI_Win_fence, MPI_Win_start, MPI_Win_lock or MPI_Win_lock_all opens one)",
			    target);
}

static int win_assert(MPI_Win win, int assert, int allowed, const char *fn)
{
	if (assert & ~allowed)
		return smpi_win_err(win, MPI_ERR_ASSERT, fn, "assert 0x%x has bits this call does not take",
				    assert);
	return MPI_SUCCESS;
}

static inline void win_mfence(void)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

int PMPI_Win_fence(int assert, MPI_Win win)
{
	const char *fn = "MPI_Win_fence";
	int err;

	if ((err = smpi_win_check(win, fn)) ||
	    (err = win_assert(win, assert, MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE |
				     MPI_MODE_NOSUCCEED, fn)))
		return err;
	if (win->nlocked || win->lock_all || win->start || win->post)
		return smpi_win_err(win, MPI_ERR_RMA_SYNC, fn,
				    "a lock or post/start epoch is open on the window");
	/* Even with NOPRECEDE or NOSUCCEED the barrier stays: it separates the
	 * members' own loads and stores from the peers' accesses. */
	smpi_win_quiet(win);
	smpi_win_barrier(win);
	win->fence = !(assert & MPI_MODE_NOSUCCEED);
	return MPI_SUCCESS;
}

/* The window ranks of group's members, in a new array *out of *n. */
static int win_group(MPI_Win win, MPI_Group group, int **out, int *n, const char *fn)
{
	int i, *r;

	if (group == MPI_GROUP_NULL)
		return smpi_win_err(win, MPI_ERR_GROUP, fn, "group is MPI_GROUP_NULL");
	r = malloc((group->size + 1) * sizeof *r);
	if (!r)
		return smpi_win_err(win, MPI_ERR_NO_MEM, fn, "no memory for a group of %d",
				    group->size);
	for (i = 0; i < group->size; i++) {
		int w = group->world[i];

		r[i] = win->comm->from_world[w];
		if (r[i] < 0) {
			free(r);
			return smpi_win_err(win, MPI_ERR_GROUP, fn, "world rank %d is not in the window",
					    w);
		}
	}
	*out = r;
	*n = group->size;
	return MPI_SUCCESS;
}

int PMPI_Win_post(MPI_Group group, int assert, MPI_Win win)
{
	const char *fn = "MPI_Win_post";
	int err, i, n;
	int *origins;

	if ((err = smpi_win_check(win, fn)) ||
	    (err = win_assert(win, assert, MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT, fn)))
		return err;
	if (win->post)
		return smpi_win_err(win, MPI_ERR_RMA_SYNC, fn, "an exposure epoch is already open");
	if ((err = win_group(win, group, &origins, &n, fn)))
		return err;
	win->post = origins;
	win->npost = n;
	/* With NOCHECK the matching starts do not wait for us, and neither
	 * side counts. */
	if (!(assert & MPI_MODE_NOCHECK))
		for (i = 0; i < n; i++)
			smpi_win_word(win, origins[i], &win->peer[origins[i]].sh->pscw[win->rank].posted,
				      SNAMO_ADD, 1, 0);
	return MPI_SUCCESS;
}

int PMPI_Win_start(MPI_Group group, int assert, MPI_Win win)
{
	const char *fn = "MPI_Win_start";
	unsigned spins = 0;
	int err, i, n, t;
	int *targets;

	if ((err = smpi_win_check(win, fn)) ||
	    (err = win_assert(win, assert, MPI_MODE_NOCHECK, fn)))
		return err;
	if (win->start || win->lock_all || win->nlocked)
		return smpi_win_err(win, MPI_ERR_RMA_SYNC, fn, "an access epoch is already open (%s)",
				    win->start ? "MPI_Win_start" : "a lock");
	if ((err = win_group(win, group, &targets, &n, fn)))
		return err;
	for (i = 0; i < n; i++) {
		t = targets[i];
		win->acc[t] |= WIN_ACC_START;
		if (assert & MPI_MODE_NOCHECK)
			continue;
		while (__atomic_load_n(&win->sh->pscw[t].posted, __ATOMIC_ACQUIRE) == win->posts_seen[t])
			smpi_win_spin(&spins);
		win->posts_seen[t]++;
	}
	win->start = targets;
	win->nstart = n;
	return MPI_SUCCESS;
}

int PMPI_Win_complete(MPI_Win win)
{
	const char *fn = "MPI_Win_complete";
	int err, i, t;

	if ((err = smpi_win_check(win, fn)))
		return err;
	if (!win->start)
		return smpi_win_err(win, MPI_ERR_RMA_SYNC, fn, "no MPI_Win_start epoch is open");
	smpi_win_quiet(win);
	for (i = 0; i < win->nstart; i++) {
		t = win->start[i];
		win->acc[t] &= ~WIN_ACC_START;
		smpi_win_word(win, t, &win->peer[t].sh->pscw[win->rank].completed, SNAMO_ADD, 1, 0);
	}
	free(win->start);
	win->start = NULL;
	win->nstart = 0;
	return MPI_SUCCESS;
}

/* Consumes every origin's completion if all have arrived: 1, else 0. */
static int win_completed(MPI_Win win)
{
	int i, o;

	for (i = 0; i < win->npost; i++) {
		o = win->post[i];
		if (__atomic_load_n(&win->sh->pscw[o].completed, __ATOMIC_ACQUIRE) ==
		    win->completes_seen[o])
			return 0;
	}
	for (i = 0; i < win->npost; i++)
		win->completes_seen[win->post[i]]++;
	free(win->post);
	win->post = NULL;
	win->npost = 0;
	return 1;
}

int PMPI_Win_wait(MPI_Win win)
{
	const char *fn = "MPI_Win_wait";
	unsigned spins = 0;
	int err;

	if ((err = smpi_win_check(win, fn)))
		return err;
	if (!win->post)
		return smpi_win_err(win, MPI_ERR_RMA_SYNC, fn, "no MPI_Win_post epoch is open");
	while (!win_completed(win))
		smpi_win_spin(&spins);
	return MPI_SUCCESS;
}

int PMPI_Win_test(MPI_Win win, int *flag)
{
	const char *fn = "MPI_Win_test";
	int err;

	if ((err = smpi_win_check(win, fn)))
		return err;
	if (!flag)
		return smpi_win_err(win, MPI_ERR_ARG, fn, "flag pointer is NULL");
	if (!win->post)
		return smpi_win_err(win, MPI_ERR_RMA_SYNC, fn, "no MPI_Win_post epoch is open");
	smpi_progress();
	*flag = win_completed(win);
	core_poll(*flag);
	return MPI_SUCCESS;
}

/* ---- passive target ---- */

/*
 * The lock word lives in the target's memory; lockers reach it through
 * SMARTMAP (or the target node's engine), so the target takes no part.  An
 * exclusive locker that finds the lock taken sets WIN_LOCK_W, and while it
 * is set new sharers hold back and other exclusive lockers too: the lock
 * goes to the one that set it, which clears it by taking the lock.  So
 * neither a stream of sharers nor lockers that retry faster (on the
 * target's node, against others a network round trip away, and the other
 * way round) starve a waiter: MPICH's linked_list test, whose lockers
 * wait for one that cannot get the lock, livelocked without it.
 */
static void win_lock_excl(MPI_Win win, int t)
{
	uint64_t *l = &win->peer[t].sh->lock.v;
	unsigned spins = 0;
	uint64_t v;
	int mine = 0;		/* this locker set WIN_LOCK_W */

	for (;;) {
		v = smpi_win_word(win, t, l, SNAMO_FETCH, 0, 0);
		if ((v & ~WIN_LOCK_W) == 0 && (mine || !(v & WIN_LOCK_W))) {
			if (smpi_win_word(win, t, l, SNAMO_CAS, WIN_LOCK_X, v) == v)
				return;
			continue;
		}
		if (!(v & WIN_LOCK_W) && smpi_win_word(win, t, l, SNAMO_CAS, v | WIN_LOCK_W, v) == v)
			mine = 1;
		smpi_win_spin(&spins);
	}
}

static void win_lock_shared(MPI_Win win, int t)
{
	uint64_t *l = &win->peer[t].sh->lock.v;
	unsigned spins = 0;

	for (;;) {
		if (!(smpi_win_word(win, t, l, SNAMO_FETCH, 0, 0) & (WIN_LOCK_X | WIN_LOCK_W))) {
			if (!(smpi_win_word(win, t, l, SNAMO_ADD, 1, 0) & (WIN_LOCK_X | WIN_LOCK_W)))
				return;
			smpi_win_word(win, t, l, SNAMO_ADD, (uint64_t)-1, 0);
		}
		smpi_win_spin(&spins);
	}
}

/* Everything this origin did under the lock has completed at the target
 * before the lock word says so. */
static void win_unlock_word(MPI_Win win, int t, int excl)
{
	uint64_t *l = &win->peer[t].sh->lock.v;

	smpi_win_quiet(win);
	if (excl)
		smpi_win_word(win, t, l, SNAMO_AND, ~WIN_LOCK_X, 0);
	else
		smpi_win_word(win, t, l, SNAMO_ADD, (uint64_t)-1, 0);
}

int PMPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win)
{
	const char *fn = "MPI_Win_lock";
	int err;

	if ((err = smpi_win_check(win, fn)) || (err = smpi_win_rank(win, rank, 1, fn)) ||
	    (err = win_assert(win, assert, MPI_MODE_NOCHECK, fn)))
		return err;
	if (lock_type != MPI_LOCK_SHARED && lock_type != MPI_LOCK_EXCLUSIVE)
		return smpi_win_err(win, MPI_ERR_LOCKTYPE, fn, "lock_type %d is neither "
				    "MPI_LOCK_SHARED nor MPI_LOCK_EXCLUSIVE", lock_type);
	if (rank == MPI_PROC_NULL)
		return MPI_SUCCESS;
	if (win->lock_all || (win->acc[rank] & (WIN_ACC_SHARED | WIN_ACC_EXCL)))
		return smpi_win_err(win, MPI_ERR_RMA_SYNC, fn, "rank %d is already locked", rank);
	if (win->start)
		return smpi_win_err(win, MPI_ERR_RMA_SYNC, fn, "an MPI_Win_start epoch is open");
	if (!(assert & MPI_MODE_NOCHECK)) {
		if (lock_type == MPI_LOCK_EXCLUSIVE)
			win_lock_excl(win, rank);
		else
			win_lock_shared(win, rank);
	}
	win->acc[rank] |= (lock_type == MPI_LOCK_EXCLUSIVE ? WIN_ACC_EXCL : WIN_ACC_SHARED) |
			  (assert & MPI_MODE_NOCHECK ? WIN_ACC_NOCHECK : 0);
	win->nlocked++;
	return MPI_SUCCESS;
}

int PMPI_Win_unlock(int rank, MPI_Win win)
{
	const char *fn = "MPI_Win_unlock";
	unsigned char a;
	int err;

	if ((err = smpi_win_check(win, fn)) || (err = smpi_win_rank(win, rank, 1, fn)))
		return err;
	if (rank == MPI_PROC_NULL)
		return MPI_SUCCESS;
	a = win->acc[rank];
	if (!(a & (WIN_ACC_SHARED | WIN_ACC_EXCL)))
		return smpi_win_err(win, MPI_ERR_RMA_SYNC, fn, "rank %d is not locked by MPI_Win_lock",
				    rank);
	if (a & WIN_ACC_NOCHECK)
		smpi_win_quiet(win);
	else
		win_unlock_word(win, rank, a & WIN_ACC_EXCL);
	win->acc[rank] = a & WIN_ACC_START;
	win->nlocked--;
	return MPI_SUCCESS;
}

int PMPI_Win_lock_all(int assert, MPI_Win win)
{
	const char *fn = "MPI_Win_lock_all";
	int err, t;

	if ((err = smpi_win_check(win, fn)) ||
	    (err = win_assert(win, assert, MPI_MODE_NOCHECK, fn)))
		return err;
	if (win->lock_all || win->nlocked || win->start)
		return smpi_win_err(win, MPI_ERR_RMA_SYNC, fn, "an access epoch is already open (%s)",
				    win->start ? "MPI_Win_start" : "a lock");
	if (!(assert & MPI_MODE_NOCHECK))
		for (t = 0; t < win->size; t++)
			win_lock_shared(win, t);
	win->lock_all = assert & MPI_MODE_NOCHECK ? 2 : 1;
	return MPI_SUCCESS;
}

int PMPI_Win_unlock_all(MPI_Win win)
{
	const char *fn = "MPI_Win_unlock_all";
	int err, t;

	if ((err = smpi_win_check(win, fn)))
		return err;
	if (!win->lock_all)
		return smpi_win_err(win, MPI_ERR_RMA_SYNC, fn, "no MPI_Win_lock_all epoch is open");
	if (win->lock_all == 2)
		smpi_win_quiet(win);
	else
		for (t = 0; t < win->size; t++)
			win_unlock_word(win, t, 0);
	win->lock_all = 0;
	return MPI_SUCCESS;
}

/*
 * Flushes: every operation is already complete at its target, so a flush
 * only has to make this origin's stores globally visible before whatever
 * the program does next (an mfence).
 */
static int win_flush(MPI_Win win, int rank, int all, const char *fn)
{
	int err;

	if ((err = smpi_win_check(win, fn)))
		return err;
	if (!all) {
		if ((err = smpi_win_rank(win, rank, 1, fn)))
			return err;
		if (rank != MPI_PROC_NULL && (err = smpi_win_epoch(win, rank, 1, fn)))
			return err;
	} else if (!win->lock_all && !win->nlocked) {
		return smpi_win_err(win, MPI_ERR_RMA_SYNC, fn, "no passive-target epoch is open");
	}
	smpi_win_quiet(win);
	return MPI_SUCCESS;
}

int PMPI_Win_flush(int rank, MPI_Win win)
{
	return win_flush(win, rank, 0, "MPI_Win_flush");
}

int PMPI_Win_flush_local(int rank, MPI_Win win)
{
	return win_flush(win, rank, 0, "MPI_Win_flush_local");
}

int PMPI_Win_flush_all(MPI_Win win)
{
	return win_flush(win, 0, 1, "MPI_Win_flush_all");
}

int PMPI_Win_flush_local_all(MPI_Win win)
{
	return win_flush(win, 0, 1, "MPI_Win_flush_local_all");
}

/* The unified model: window memory is coherent, so synchronising the
 * public and private copies is a memory barrier. */
int PMPI_Win_sync(MPI_Win win)
{
	int err;

	if ((err = smpi_win_check(win, "MPI_Win_sync")))
		return err;
	win_mfence();
	return MPI_SUCCESS;
}

SMPI_ALIAS(Win_fence)
SMPI_ALIAS(Win_post)
SMPI_ALIAS(Win_start)
SMPI_ALIAS(Win_complete)
SMPI_ALIAS(Win_wait)
SMPI_ALIAS(Win_test)
SMPI_ALIAS(Win_lock)
SMPI_ALIAS(Win_unlock)
SMPI_ALIAS(Win_lock_all)
SMPI_ALIAS(Win_unlock_all)
SMPI_ALIAS(Win_flush)
SMPI_ALIAS(Win_flush_local)
SMPI_ALIAS(Win_flush_all)
SMPI_ALIAS(Win_flush_local_all)
SMPI_ALIAS(Win_sync)
