/*
 * fhandle.c - the handle tables behind MPI_<Handle>_c2f/_f2c and the
 * Fortran bindings' argument conversions (fhandle.h, docs/languages.md).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fhandle.h"

static void fh_lock(struct fh_table *t)
{
	while (__atomic_exchange_n(&t->lock, 1, __ATOMIC_ACQUIRE))
		__builtin_ia32_pause();
}

static void fh_unlock(struct fh_table *t)
{
	__atomic_store_n(&t->lock, 0, __ATOMIC_RELEASE);
}

static size_t fh_hash(const void *p, size_t cap)
{
	uint64_t x = (uint64_t)(uintptr_t)p;

	x ^= x >> 29;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 32;
	return (size_t)x & (cap - 1);
}

static void fh_hash_put(struct fh_table *t, const void *p, MPI_Fint f);

/* Keep the hash at most half full (and its size a power of two). */
static int fh_hash_grow(struct fh_table *t)
{
	struct fh_slot *old = t->hash;
	size_t oldcap = t->hcap, i;

	if (t->hused * 2 < t->hcap)
		return 0;
	t->hcap = oldcap ? oldcap * 2 : 64;
	t->hash = calloc(t->hcap, sizeof *t->hash);
	if (!t->hash) {
		t->hash = old;
		t->hcap = oldcap;
		return -1;
	}
	t->hused = 0;
	for (i = 0; i < oldcap; i++)
		if (old[i].p)
			fh_hash_put(t, old[i].p, old[i].f);
	free(old);
	return 0;
}

static void fh_hash_put(struct fh_table *t, const void *p, MPI_Fint f)
{
	size_t i = fh_hash(p, t->hcap);

	while (t->hash[i].p)
		i = (i + 1) & (t->hcap - 1);
	t->hash[i].p = (void *)p;
	t->hash[i].f = f;
	t->hused++;
}

static size_t fh_hash_find(const struct fh_table *t, const void *p)
{
	size_t i;

	if (!t->hcap)
		return SIZE_MAX;
	for (i = fh_hash(p, t->hcap); t->hash[i].p; i = (i + 1) & (t->hcap - 1))
		if (t->hash[i].p == p)
			return i;
	return SIZE_MAX;
}

/* Linear probing deletion: shift later entries of the run back. */
static void fh_hash_del(struct fh_table *t, size_t i)
{
	size_t j = i, mask = t->hcap - 1;

	t->hash[i].p = NULL;
	t->hused--;
	for (;;) {
		size_t home;

		j = (j + 1) & mask;
		if (!t->hash[j].p)
			return;
		home = fh_hash(t->hash[j].p, t->hcap);
		/* entry j may move to i if i lies cyclically in [home, j) */
		if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
			t->hash[i] = t->hash[j];
			t->hash[j].p = NULL;
			i = j;
		}
	}
}

static int fh_start(struct fh_table *t)
{
	int i;

	if (t->obj)
		return 0;
	t->cap = t->npre < 64 ? 64 : t->npre * 2;
	t->obj = calloc((size_t)t->cap, sizeof *t->obj);
	t->uses = calloc((size_t)t->cap, sizeof *t->uses);
	t->free_idx = malloc((size_t)t->cap * sizeof *t->free_idx);
	if (!t->obj || !t->uses || !t->free_idx)
		return -1;
	t->n = t->npre;
	for (i = 1; i < t->npre; i++) {
		t->obj[i] = t->pre[i];
		/* an alias (a Fortran type naming a C one) keeps the first number */
		if (fh_hash_find(t, t->pre[i]) == SIZE_MAX) {
			if (fh_hash_grow(t) < 0)
				return -1;
			fh_hash_put(t, t->pre[i], i);
		}
	}
	return 0;
}

/* p's number, made when it has none; `ref`: the caller hands Fortran
 * another reference to p, which an existing number then counts. */
static MPI_Fint fh_number(struct fh_table *t, const void *p, int ref)
{
	MPI_Fint f = 0;
	size_t h;

	if (!p)
		return 0;
	fh_lock(t);
	if (fh_start(t) < 0)
		goto out;
	h = fh_hash_find(t, p);
	if (h != SIZE_MAX) {
		f = t->hash[h].f;
		if (ref && f >= t->npre)
			t->uses[f]++;
		goto out;
	}
	if (t->nfree) {
		f = t->free_idx[--t->nfree];
	} else {
		if (t->n == t->cap) {
			void **o = realloc(t->obj, (size_t)t->cap * 2 * sizeof *o);
			int *u = o ? realloc(t->uses, (size_t)t->cap * 2 * sizeof *u) : NULL;
			int *fi = u ? realloc(t->free_idx, (size_t)t->cap * 2 * sizeof *fi) : NULL;

			if (o)
				t->obj = o;
			if (u) {
				t->uses = u;
				memset(u + t->cap, 0, (size_t)t->cap * sizeof *u);
			}
			if (!fi)
				goto out;
			t->free_idx = fi;
			t->cap *= 2;
		}
		f = t->n++;
	}
	if (fh_hash_grow(t) < 0) {
		t->free_idx[t->nfree++] = f;
		f = 0;
		goto out;
	}
	t->obj[f] = (void *)p;
	fh_hash_put(t, p, f);
out:
	fh_unlock(t);
	return f;
}

MPI_Fint smpi_fh_c2f(struct fh_table *t, const void *p)
{
	return fh_number(t, p, 0);
}

void *smpi_fh_f2c(struct fh_table *t, MPI_Fint f)
{
	void *p = NULL;

	if (f <= 0)
		return NULL;
	fh_lock(t);
	if (fh_start(t) == 0 && f < t->n)
		p = t->obj[f];
	fh_unlock(t);
	return p;
}

static void fh_release(struct fh_table *t, MPI_Fint f)
{
	size_t h;

	fh_lock(t);
	if (f >= t->npre && f < t->n && t->obj[f] && t->uses[f]) {
		t->uses[f]--;
	} else if (f >= t->npre && f < t->n && t->obj[f]) {
		h = fh_hash_find(t, t->obj[f]);
		if (h != SIZE_MAX && t->hash[h].f == f)
			fh_hash_del(t, h);
		t->obj[f] = NULL;
		t->free_idx[t->nfree++] = f;
	}
	fh_unlock(t);
}

MPI_Fint smpi_fh_update(struct fh_table *t, MPI_Fint f_old, const void *c_old, const void *c_new,
			int release)
{
	if (!c_new) {
		if (release && c_old)
			fh_release(t, f_old);
		return 0;
	}
	/* Another object than went in: a reference the call made. */
	return fh_number(t, c_new, c_new != c_old);
}

void **smpi_fh_array(struct fh_table *t, const MPI_Fint *f, int n)
{
	void **c = malloc((size_t)(n > 0 ? n : 1) * sizeof *c);
	int i;

	for (i = 0; c && i < n; i++)
		c[i] = smpi_fh_f2c(t, f[i]);
	return c;
}

void smpi_fh_array_back(struct fh_table *t, MPI_Fint *f, void **c, int n, int release)
{
	int i;

	for (i = 0; c && i < n; i++)
		f[i] = smpi_fh_update(t, f[i], smpi_fh_f2c(t, f[i]), c[i], release);
}

void smpi_fh_array_free(void *c, int n)
{
	(void)n;
	free(c);
}

int smpi_fh_comm_size(const MPI_Fint *comm)
{
	int n = 0;

	if (PMPI_Comm_size((MPI_Comm)smpi_fh_f2c(&smpi_fh_comm, *comm), &n) != MPI_SUCCESS)
		return 0;
	return n;
}

void *smpi_fbuf(const void *p)
{
	if (p == smpi_fbottom_)
		return MPI_BOTTOM;
	if (p == smpi_finplace_)
		return MPI_IN_PLACE;
	if (p == smpi_fbuffer_automatic_)
		return MPI_BUFFER_AUTOMATIC;
	return (void *)p;
}

const int *smpi_fints(const int *p)
{
	if (p == smpi_ferrcodes_ignore_)
		return MPI_ERRCODES_IGNORE;
	if (p == smpi_funweighted_)
		return MPI_UNWEIGHTED;
#ifdef MPI_WEIGHTS_EMPTY
	if (p == smpi_fweights_empty_)
		return MPI_WEIGHTS_EMPTY;
#endif
	return p;
}

MPI_Aint *smpi_faints(const MPI_Fint *f, int n)
{
	MPI_Aint *a = n > 0 ? malloc((size_t)n * sizeof(*a)) : NULL;

	for (int i = 0; a && i < n; i++)
		a[i] = f[i];
	return a;
}

int smpi_faint_out(MPI_Fint *f, MPI_Aint v, const char *fn)
{
	*f = (MPI_Fint)v;
	if (*f == v)
		return MPI_SUCCESS;
	fprintf(stderr, "%s: %lld does not fit in a default INTEGER (MPI-1's Fortran binding; "
		"the MPI-2 call takes INTEGER(KIND=MPI_ADDRESS_KIND))\n", fn, (long long)v);
	PMPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_ARG);
	return MPI_ERR_ARG;
}

char *smpi_fstr_in(const char *s, size_t len)
{
	char *c;

	while (len > 0 && s[len - 1] == ' ')
		len--;
	c = malloc(len + 1);
	if (c) {
		memcpy(c, s, len);
		c[len] = 0;
	}
	return c;
}

char *smpi_fstr_in_info(const char *s, size_t len)
{
	while (len > 0 && *s == ' ') {
		s++;
		len--;
	}
	return smpi_fstr_in(s, len);
}

/* The C call may write up to its own maximum (MPI_MAX_INFO_VAL and
 * friends), whatever the Fortran variable's length. */
#define SMPI_FSTR_MIN	4096

char *smpi_fstr_buf(size_t len)
{
	return calloc((len > SMPI_FSTR_MIN ? len : SMPI_FSTR_MIN) + 1, 1);
}

void smpi_fstr_out(char *dst, size_t len, char *src)
{
	size_t n = src ? strnlen(src, len) : 0;

	if (src)
		memcpy(dst, src, n);
	memset(dst + n, ' ', len - n);
	free(src);
}

int PMPI_Status_c2f(const MPI_Status *c, MPI_Fint *f)
{
	if (!c || !f || c == MPI_STATUS_IGNORE)
		return MPI_ERR_ARG;
	memcpy(f, c, sizeof *c);
	return MPI_SUCCESS;
}

int PMPI_Status_f2c(const MPI_Fint *f, MPI_Status *c)
{
	if (!c || !f || f == smpi_fstatus_ignore_)
		return MPI_ERR_ARG;
	memcpy(c, f, sizeof *c);
	return MPI_SUCCESS;
}

/* mpi_f08's type(MPI_Status) is the same six words, its IGNOREs the same
 * COMMON blocks as mpif.h's. */
MPI_F08_status *const smpi_f08_status_ignore = (MPI_F08_status *)smpi_fstatus_ignore_;
MPI_F08_status *const smpi_f08_statuses_ignore = (MPI_F08_status *)smpi_fstatuses_ignore_;

int PMPI_Status_c2f08(const MPI_Status *c, MPI_F08_status *f08)
{
	return PMPI_Status_c2f(c, (MPI_Fint *)f08);
}

int PMPI_Status_f082c(const MPI_F08_status *f08, MPI_Status *c)
{
	return PMPI_Status_f2c((const MPI_Fint *)f08, c);
}

int PMPI_Status_f082f(const MPI_F08_status *f08, MPI_Fint *f)
{
	if (f08 == MPI_F08_STATUS_IGNORE)
		return MPI_ERR_ARG;
	return PMPI_Status_c2f((const MPI_Status *)(const void *)f08, f);
}

int PMPI_Status_f2f08(const MPI_Fint *f, MPI_F08_status *f08)
{
	return PMPI_Status_f2c(f, (MPI_Status *)(void *)f08);
}

extern __typeof__(PMPI_Status_c2f) MPI_Status_c2f __attribute__((weak, alias("PMPI_Status_c2f")));
extern __typeof__(PMPI_Status_f2c) MPI_Status_f2c __attribute__((weak, alias("PMPI_Status_f2c")));
extern __typeof__(PMPI_Status_c2f08) MPI_Status_c2f08 __attribute__((weak, alias("PMPI_Status_c2f08")));
extern __typeof__(PMPI_Status_f082c) MPI_Status_f082c __attribute__((weak, alias("PMPI_Status_f082c")));
extern __typeof__(PMPI_Status_f082f) MPI_Status_f082f __attribute__((weak, alias("PMPI_Status_f082f")));
extern __typeof__(PMPI_Status_f2f08) MPI_Status_f2f08 __attribute__((weak, alias("PMPI_Status_f2f08")));
