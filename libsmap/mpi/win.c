/*
 * win.c - RMA windows: creation in the four flavours, Win_free, shared
 * queries, dynamic attachment, groups, names, attributes and error
 * handlers.
 *
 * A window keeps a private communicator made from the user's (so the user
 * may free theirs): its group, its maps from window ranks to on-node ranks
 * and its collective-engine group, over which creation exchanges every
 * member's base, size, displacement unit and shared-state address in one
 * allgather.  That communicator's own handler is MPI_ERRORS_RETURN: checks
 * that go through the communicator layer come back here and are reported
 * through the window's handler (smpi_win_err), as MPI wants.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "win.h"
#include "../coll/coll.h"

int smpi_win_err(MPI_Win win, int code, const char *fn, const char *fmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = smpi_verr_on(win->errh, &win, code, fn, fmt, ap);
	va_end(ap);
	return err;
}

int smpi_win_check(MPI_Win win, const char *fn)
{
	int err;

	if ((err = smpi_check_init(fn)))
		return err;
	if (win == MPI_WIN_NULL)
		return smpi_err(NULL, MPI_ERR_WIN, fn, "window is MPI_WIN_NULL");
	return MPI_SUCCESS;
}

int smpi_win_rank(MPI_Win win, int rank, int procnull, const char *fn)
{
	if (rank == MPI_PROC_NULL && procnull)
		return MPI_SUCCESS;
	if (rank < 0 || rank >= win->size)
		return smpi_win_err(win, MPI_ERR_RANK, fn, "rank %d is not in a window of %d", rank,
				    win->size);
	return MPI_SUCCESS;
}

void smpi_win_spin(unsigned *spins)
{
	smpi_progress();
	smpi_spin(spins);
}

/* What each member publishes at creation. */
struct win_rec {
	uintptr_t base;
	int64_t size;
	uintptr_t sh;
	int32_t disp_unit;
	int32_t ok;
};

/*
 * Win_allocate_shared lays the members' memory out contiguously, as the
 * standard wants when alloc_shared_noncontig is not given: one block in
 * the memory of window rank 0, which every member addresses through rank
 * 0's slot, so the whole window has one address in every process.
 * SMAP_WIN_SHARED=noncontig gives each member its own memory instead (what
 * that info key would allow: a window larger than one rank's region).
 */
static int win_shared_contig(void)
{
	const char *e = getenv("SMAP_WIN_SHARED");

	return !e || strcmp(e, "noncontig") != 0;
}

static void win_release(MPI_Win w)
{
	if (w->comm != MPI_COMM_NULL)
		PMPI_Comm_free(&w->comm);
	smpi_errh_release(w->errh);
	free(w->peer);
	free(w->sh);
	free(w->acc);
	free(w->posts_seen);
	free(w->completes_seen);
	free(w->start);
	free(w->post);
	free(w->region);
	free(w);
}

static void *win_alloc_mem(MPI_Aint size)
{
	void *p = NULL;

	if (size == 0)
		return NULL;
	return posix_memalign(&p, 64, size) ? NULL : p;
}

/*
 * Collective over comm: builds the window over `base`/`size` (for
 * MPI_WIN_FLAVOR_ALLOCATE and _SHARED, the memory is allocated here and
 * *base set).  Returns MPI_SUCCESS with *out, or the error class, the same
 * on every member.
 */
/* Every member's record, on every member: the engine's allgather on a
 * node, point-to-point on the library's context across nodes. */
static void win_allgather(MPI_Comm comm, const void *mine, void *all, size_t bytes)
{
	int i;

	if (smpi_comm_coll(comm)) {
		coll_allgather(comm->coll, mine, all, bytes);
		return;
	}
	memcpy((char *)all + bytes * comm->rank, mine, bytes);
	if (comm->rank == 0) {
		for (i = 1; i < comm->size; i++)
			smpi_sys_recv((char *)all + bytes * i, bytes, i, comm);
		for (i = 1; i < comm->size; i++)
			smpi_sys_send(all, bytes * comm->size, i, comm);
	} else {
		smpi_sys_send(mine, bytes, 0, comm);
		smpi_sys_recv(all, bytes * comm->size, 0, comm);
	}
}

/* The SMARTMAP slot of an address: 0 for this rank's own memory, r + 1 for
 * rank r's as every rank on the node reaches it. */
static unsigned win_slot(uintptr_t a)
{
	return (unsigned)(a >> 39) & 0x1ff;
}

/* Memory every member can reach: in this rank's region, or in another
 * rank's on this node through its SMARTMAP slot (a window on memory a
 * peer shares, MPI_Win_shared_query's addresses). */
static int win_reachable(const void *base, MPI_Aint size)
{
	uintptr_t a = (uintptr_t)base;
	unsigned s = win_slot(a);

	if (!s)
		return smap_is_remote_ok(smap_rank(), base, size);
	return s <= (unsigned)smap_size() &&
	       smap_is_remote_ok(s - 1, (const void *)(a & ((1ULL << 39) - 1)), size);
}

static int win_make(void **base, MPI_Aint size, int disp_unit, int flavor, MPI_Comm comm,
		    MPI_Win *out, const char *fn)
{
	struct win_rec me, *all;
	struct smpi_win *w;
	uintptr_t blk = 0, at;
	int n, i, err, contig = flavor == MPI_WIN_FLAVOR_SHARED && win_shared_contig(), ok;
	size_t shbytes;

	if ((err = smpi_check_init(fn)) || (err = smpi_comm_check(comm, fn)) ||
	    (err = smpi_intra_check(comm, fn)))
		return err;
	if (!out)
		return smpi_err(comm, MPI_ERR_ARG, fn, "win pointer is NULL");
	if (size < 0)
		return smpi_err(comm, MPI_ERR_SIZE, fn, "size %ld is negative", (long)size);
	if (disp_unit <= 0)
		return smpi_err(comm, MPI_ERR_DISP, fn, "disp_unit %d is not positive", disp_unit);
	if (!comm->onnode && flavor == MPI_WIN_FLAVOR_SHARED)
		return smpi_err(comm, MPI_ERR_COMM, fn,
				"the communicator spans %d nodes: shared memory is one node's",
				smap_nnodes());
	if (!comm->onnode && !net_up())
		return smpi_err(comm, MPI_ERR_OTHER, fn,
				"the communicator spans nodes, and this node has no network");
	if (flavor == MPI_WIN_FLAVOR_CREATE && size > 0 && !win_reachable(*base, size))
		return smpi_err(comm, MPI_ERR_BASE, fn,
				"memory [%p, +%ld) is not in this rank's region, where peers could reach it",
				*base, (long)size);
	n = comm->size;
	w = calloc(1, sizeof *w);
	all = malloc(n * sizeof *all);
	if (!w || !all)
		smpi_fatal("%s: no memory for a window of %d ranks", fn, n);
	w->errh = MPI_ERRORS_ARE_FATAL;
	if ((err = PMPI_Comm_create(comm, comm->group, &w->comm))) {
		w->comm = MPI_COMM_NULL;
		win_release(w);
		free(all);
		return err;
	}
	PMPI_Comm_set_errhandler(w->comm, MPI_ERRORS_RETURN);
	w->rank = comm->rank;
	w->size = n;
	w->flavor = flavor;
	w->model = MPI_WIN_UNIFIED;
	w->disp_unit = disp_unit;
	w->wsize = size;
	shbytes = sizeof *w->sh + n * sizeof w->sh->pscw[0];
	if (posix_memalign((void **)&w->sh, 64, shbytes))
		w->sh = NULL;
	w->peer = malloc(n * sizeof *w->peer);
	w->acc = calloc(n, 1);
	w->posts_seen = calloc(n, sizeof *w->posts_seen);
	w->completes_seen = calloc(n, sizeof *w->completes_seen);
	if (!w->sh || !w->peer || !w->acc || !w->posts_seen || !w->completes_seen)
		smpi_fatal("%s: no memory for a window of %d ranks", fn, n);
	memset(w->sh, 0, shbytes);
	if (flavor == MPI_WIN_FLAVOR_ALLOCATE || (flavor == MPI_WIN_FLAVOR_SHARED && !contig))
		*base = w->alloc = win_alloc_mem(size);
	me.base = (uintptr_t)*base;
	me.size = size;
	me.sh = (uintptr_t)w->sh;
	me.disp_unit = disp_unit;
	me.ok = size == 0 || *base;
	win_allgather(w->comm, &me, all, sizeof me);
	if (contig) {
		int64_t total = 0;

		for (i = 0; i < n; i++)
			total += all[i].size;
		if (w->rank == 0)
			blk = (uintptr_t)(w->alloc = win_alloc_mem(total ? total : 1));
		coll_bcast(w->comm->coll, &blk, sizeof blk, 0);
		for (i = 0; i < n; i++)
			all[i].ok = blk != 0;
	}
	for (ok = 1, i = 0; i < n; i++)
		ok &= all[i].ok;
	if (!ok) {
		free(w->alloc);
		win_release(w);
		free(all);
		return smpi_err(comm, MPI_ERR_NO_MEM, fn, "a member could not allocate its window memory");
	}
	for (at = blk, i = 0; i < n; i++) {
		struct win_peer *p = &w->peer[i];

		p->node = w->comm->local[i];
		p->world = w->comm->group->world[i];
		p->size = all[i].size;
		p->disp_unit = all[i].disp_unit;
		/* A member on another node: its own addresses, for the network. */
		p->sh = i == w->rank ? w->sh : p->node < 0 ? (struct win_shared *)all[i].sh :
			remote_address(p->node, (void *)all[i].sh);
		if (p->node < 0) {
			p->base = (char *)all[i].base;
		} else if (contig) {
			p->base = remote_address(w->comm->local[0], (char *)at);
			at += all[i].size;
		} else if (i == w->rank || !all[i].base || win_slot(all[i].base)) {
			/* A SMARTMAP address reaches the same memory from every rank. */
			p->base = (char *)all[i].base;
		} else {
			p->base = remote_address(p->node, (void *)all[i].base);
		}
	}
	if (contig)
		*base = w->peer[w->rank].base;
	w->base = flavor == MPI_WIN_FLAVOR_DYNAMIC ? MPI_BOTTOM : *base;
	free(all);
	*out = w;
	return MPI_SUCCESS;
}

int PMPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
		    MPI_Win *win)
{
	(void)info;
	return win_make(&base, size, disp_unit, MPI_WIN_FLAVOR_CREATE, comm, win, "MPI_Win_create");
}

/* Win_allocate and Win_allocate_shared: the memory comes from win_make. */
static int win_allocate(MPI_Aint size, int disp_unit, MPI_Comm comm, void *baseptr, MPI_Win *win,
			int flavor, const char *fn)
{
	void *base = NULL;
	int err;

	if (!baseptr)
		return smpi_err(comm, MPI_ERR_ARG, fn, "baseptr is NULL");
	err = win_make(&base, size, disp_unit, flavor, comm, win, fn);
	if (!err)
		*(void **)baseptr = base;
	return err;
}

int PMPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
		      MPI_Win *win)
{
	(void)info;
	return win_allocate(size, disp_unit, comm, baseptr, win, MPI_WIN_FLAVOR_ALLOCATE,
			    "MPI_Win_allocate");
}

int PMPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
			     void *baseptr, MPI_Win *win)
{
	(void)info;
	return win_allocate(size, disp_unit, comm, baseptr, win, MPI_WIN_FLAVOR_SHARED,
			    "MPI_Win_allocate_shared");
}

int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
	void *base = NULL;

	(void)info;
	return win_make(&base, 0, 1, MPI_WIN_FLAVOR_DYNAMIC, comm, win, "MPI_Win_create_dynamic");
}

int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr)
{
	const char *fn = "MPI_Win_shared_query";
	int err, r;

	if ((err = smpi_win_check(win, fn)) || (err = smpi_win_rank(win, rank, 1, fn)))
		return err;
	if (!size || !disp_unit || !baseptr)
		return smpi_win_err(win, MPI_ERR_ARG, fn, "NULL argument");
	r = rank;
	if (r == MPI_PROC_NULL)
		for (r = 0; r < win->size - 1 && win->peer[r].size == 0; r++)
			;
	/* Every window's memory on this node is load/store reachable here, so
	 * any flavour answers (as MPI 4.0 allows); a member on another node,
	 * a dynamic window, or an empty segment: size 0 and NULL. */
	if (win->flavor == MPI_WIN_FLAVOR_DYNAMIC || win->peer[r].node < 0 ||
	    win->peer[r].size == 0) {
		*size = 0;
		*disp_unit = win->peer[r].disp_unit;
		*(void **)baseptr = NULL;
		return MPI_SUCCESS;
	}
	*size = win->peer[r].size;
	*disp_unit = win->peer[r].disp_unit;
	*(void **)baseptr = win->peer[r].base;
	return MPI_SUCCESS;
}

int PMPI_Win_attach(MPI_Win win, void *base, MPI_Aint size)
{
	const char *fn = "MPI_Win_attach";
	struct win_region *r;
	int err, i;

	if ((err = smpi_win_check(win, fn)))
		return err;
	if (win->flavor != MPI_WIN_FLAVOR_DYNAMIC)
		return smpi_win_err(win, MPI_ERR_RMA_FLAVOR, fn,
				    "the window was not made by MPI_Win_create_dynamic");
	if (size < 0)
		return smpi_win_err(win, MPI_ERR_SIZE, fn, "size %ld is negative", (long)size);
	if (size > 0 && !smap_is_remote_ok(smap_rank(), base, size))
		return smpi_win_err(win, MPI_ERR_RMA_ATTACH, fn,
				    "memory [%p, +%ld) is not in this rank's region, where peers could reach it",
				    base, (long)size);
	for (i = 0; i < win->nregion; i++) {
		r = &win->region[i];
		if ((uintptr_t)base < r->base + r->size && r->base < (uintptr_t)base + size)
			return smpi_win_err(win, MPI_ERR_RMA_ATTACH, fn,
					    "[%p, +%ld) overlaps memory attached at %p",
					    base, (long)size, (void *)r->base);
	}
	if (win->nregion == win->maxregion) {
		int m = win->maxregion ? 2 * win->maxregion : 8;

		r = realloc(win->region, m * sizeof *r);
		if (!r)
			return smpi_win_err(win, MPI_ERR_NO_MEM, fn, "no memory");
		win->region = r;
		win->maxregion = m;
	}
	win->region[win->nregion].base = (uintptr_t)base;
	win->region[win->nregion].size = size;
	win->nregion++;
	return MPI_SUCCESS;
}

int PMPI_Win_detach(MPI_Win win, const void *base)
{
	const char *fn = "MPI_Win_detach";
	int err, i;

	if ((err = smpi_win_check(win, fn)))
		return err;
	if (win->flavor != MPI_WIN_FLAVOR_DYNAMIC)
		return smpi_win_err(win, MPI_ERR_RMA_FLAVOR, fn,
				    "the window was not made by MPI_Win_create_dynamic");
	for (i = 0; i < win->nregion && win->region[i].base != (uintptr_t)base; i++)
		;
	if (i == win->nregion)
		return smpi_win_err(win, MPI_ERR_RMA_ATTACH, fn, "nothing is attached at %p", base);
	win->region[i] = win->region[--win->nregion];
	return MPI_SUCCESS;
}

int PMPI_Win_free(MPI_Win *win)
{
	const char *fn = "MPI_Win_free";
	struct smpi_win *w;
	int err;

	if (!win)
		return smpi_err(NULL, MPI_ERR_ARG, fn, "win pointer is NULL");
	if ((err = smpi_win_check(*win, fn)))
		return err;
	w = *win;
	if (w->nlocked || w->lock_all || w->start || w->post)
		return smpi_win_err(w, MPI_ERR_RMA_SYNC, fn,
				    "an epoch is still open (%s)",
				    w->nlocked || w->lock_all ? "a lock is held" :
				    w->start ? "MPI_Win_start without MPI_Win_complete" :
				    "MPI_Win_post without MPI_Win_wait");
	/* Nobody leaves before every member stopped reaching our memory. */
	smpi_win_quiet(w);
	smpi_win_barrier(w);
	smpi_attr_clear(SMPI_ATTR_WIN, w);
	smpi_info_drop(&w->info);
	free(w->alloc);
	win_release(w);
	*win = MPI_WIN_NULL;
	return MPI_SUCCESS;
}

int PMPI_Win_get_group(MPI_Win win, MPI_Group *group)
{
	int err;

	if ((err = smpi_win_check(win, "MPI_Win_get_group")))
		return err;
	if (!group)
		return smpi_win_err(win, MPI_ERR_ARG, "MPI_Win_get_group", "group pointer is NULL");
	return PMPI_Comm_group(win->comm, group);
}

/* MPI_Info objects do not exist in libsmap yet, so MPI_INFO_NULL is the
 * only info a program can hold. */
int PMPI_Win_set_info(MPI_Win win, MPI_Info info)
{
	int err;

	if ((err = smpi_win_check(win, "MPI_Win_set_info")))
		return err;
	return smpi_info_keep(&win->info, info, "MPI_Win_set_info");
}

int PMPI_Win_get_info(MPI_Win win, MPI_Info *info_used)
{
	int err;

	if ((err = smpi_win_check(win, "MPI_Win_get_info")))
		return err;
	return smpi_info_give(win->info, info_used, "MPI_Win_get_info");
}

int PMPI_Win_set_name(MPI_Win win, const char *name)
{
	int err;

	if ((err = smpi_win_check(win, "MPI_Win_set_name")))
		return err;
	if (!name)
		return smpi_win_err(win, MPI_ERR_ARG, "MPI_Win_set_name", "name is NULL");
	snprintf(win->name, sizeof win->name, "%s", name);
	return MPI_SUCCESS;
}

int PMPI_Win_get_name(MPI_Win win, char *name, int *resultlen)
{
	int err;

	if ((err = smpi_win_check(win, "MPI_Win_get_name")))
		return err;
	if (!name || !resultlen)
		return smpi_win_err(win, MPI_ERR_ARG, "MPI_Win_get_name", "NULL argument");
	strcpy(name, win->name);
	*resultlen = strlen(name);
	return MPI_SUCCESS;
}

/* ---- error handlers ---- */

/* A window handler is a communicator handler object whose function
 * smpi_win_err calls back with its own type. */
int PMPI_Win_create_errhandler(MPI_Win_errhandler_function *fn, MPI_Errhandler *errhandler)
{
	if (!fn || !errhandler)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Win_create_errhandler", "NULL argument");
	return PMPI_Comm_create_errhandler((MPI_Comm_errhandler_function *)(void (*)(void))fn,
					   errhandler);
}

int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler)
{
	int err;

	if ((err = smpi_win_check(win, "MPI_Win_set_errhandler")))
		return err;
	if (!errhandler)
		return smpi_win_err(win, MPI_ERR_ARG, "MPI_Win_set_errhandler", "MPI_ERRHANDLER_NULL");
	smpi_errh_replace(&win->errh, errhandler);
	return MPI_SUCCESS;
}

int PMPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler)
{
	int err;

	if ((err = smpi_win_check(win, "MPI_Win_get_errhandler")))
		return err;
	if (!errhandler)
		return smpi_win_err(win, MPI_ERR_ARG, "MPI_Win_get_errhandler", "NULL argument");
	*errhandler = smpi_errh_ref(win->errh);
	return MPI_SUCCESS;
}

int PMPI_Win_call_errhandler(MPI_Win win, int errorcode)
{
	int err;

	if ((err = smpi_win_check(win, "MPI_Win_call_errhandler")))
		return err;
	smpi_win_err(win, errorcode, "MPI_Win_call_errhandler", "raised by the program");
	return MPI_SUCCESS;
}

/* ---- attributes ---- */

int PMPI_Win_create_keyval(MPI_Win_copy_attr_function *copy_fn,
			   MPI_Win_delete_attr_function *delete_fn, int *keyval, void *extra)
{
	return smpi_keyval_create(SMPI_ATTR_WIN, (smpi_attr_fn)copy_fn, (smpi_attr_fn)delete_fn,
				  extra, keyval, "MPI_Win_create_keyval");
}

int PMPI_Win_free_keyval(int *keyval)
{
	return smpi_keyval_free(SMPI_ATTR_WIN, keyval, "MPI_Win_free_keyval");
}

int PMPI_Win_set_attr(MPI_Win win, int keyval, void *val)
{
	int err;

	if ((err = smpi_win_check(win, "MPI_Win_set_attr")))
		return err;
	return smpi_attr_set(SMPI_ATTR_WIN, win, keyval, val, "MPI_Win_set_attr");
}

int PMPI_Win_get_attr(MPI_Win win, int keyval, void *val, int *flag)
{
	int err;

	if ((err = smpi_win_check(win, "MPI_Win_get_attr")))
		return err;
	if (!val || !flag)
		return smpi_win_err(win, MPI_ERR_ARG, "MPI_Win_get_attr", "NULL argument");
	*flag = 1;
	switch (keyval) {
	case MPI_WIN_BASE:
		*(void **)val = win->base;
		return MPI_SUCCESS;
	case MPI_WIN_SIZE:
		*(MPI_Aint **)val = &win->wsize;
		return MPI_SUCCESS;
	case MPI_WIN_DISP_UNIT:
		*(int **)val = &win->disp_unit;
		return MPI_SUCCESS;
	case MPI_WIN_CREATE_FLAVOR:
		*(int **)val = &win->flavor;
		return MPI_SUCCESS;
	case MPI_WIN_MODEL:
		*(int **)val = &win->model;
		return MPI_SUCCESS;
	}
	return smpi_attr_get(SMPI_ATTR_WIN, win, keyval, val, flag, "MPI_Win_get_attr");
}

int PMPI_Win_delete_attr(MPI_Win win, int keyval)
{
	int err;

	if ((err = smpi_win_check(win, "MPI_Win_delete_attr")))
		return err;
	return smpi_attr_delete(SMPI_ATTR_WIN, win, keyval, "MPI_Win_delete_attr");
}

SMPI_ALIAS(Win_create)
SMPI_ALIAS(Win_allocate)
SMPI_ALIAS(Win_allocate_shared)
SMPI_ALIAS(Win_create_dynamic)
SMPI_ALIAS(Win_shared_query)
SMPI_ALIAS(Win_attach)
SMPI_ALIAS(Win_detach)
SMPI_ALIAS(Win_free)
SMPI_ALIAS(Win_get_group)
SMPI_ALIAS(Win_set_info)
SMPI_ALIAS(Win_get_info)
SMPI_ALIAS(Win_set_name)
SMPI_ALIAS(Win_get_name)
SMPI_ALIAS(Win_create_errhandler)
SMPI_ALIAS(Win_set_errhandler)
SMPI_ALIAS(Win_get_errhandler)
SMPI_ALIAS(Win_call_errhandler)
SMPI_ALIAS(Win_create_keyval)
SMPI_ALIAS(Win_free_keyval)
SMPI_ALIAS(Win_set_attr)
SMPI_ALIAS(Win_get_attr)
SMPI_ALIAS(Win_delete_attr)
