/*
 * mpit_fuzz.c - randomized derived datatypes through every data-moving call,
 * checked against the program's own model of each type map.
 *
 * Usage: mpit_fuzz [SEED0 [NSEEDS [NCASES [CASE]]]].  Every rank draws the
 * same sequence from (seed, case), so every rank builds the same types, and
 * a case depends on nothing else: "mpit_fuzz SEED 1 NCASES CASE" replays one
 * case (and describes its types on stderr).
 *
 * A case picks an operation, a unit signature U of basic types, a send type
 * of signature U^ks and a receive type of signature U^kr (they match only in
 * signature), counts from 0 to over 70,000 bytes, and sometimes MPI_IN_PLACE
 * or MPI_BOTTOM.  Types nest up to three levels of every constructor (zero,
 * negative and overlapping strides, unsorted and empty blocks, resized
 * bounds inside the data, subarray, darray, interleaved "transpose" types).
 * Checks: the model agrees with MPI_Type_get_extent, get_true_extent and
 * size; no byte outside the receive type map changes; the received bytes are
 * the sender's values in signature order (the values are a function of the
 * sender and the position in its stream); reductions equal an exact oracle
 * computed in rank order; user ops only see datatypes the program made;
 * send buffers are untouched; no call returns an error.  One TAP line per
 * family of calls; a failure names the first failing seed, case, call and rank.
 */
#include <stdint.h>
#include <stdlib.h>
#include "mpit.h"

#define PAD		64	/* sentinel bytes on each side of every buffer */
#define MAX_TYPES	4096
#define MAX_UNIT	8
#define GOLDEN		0x9E3779B97F4A7C15ULL
#define DEFAULT_SEEDS	5
#define DEFAULT_CASES	60

static int rank, nproc;

/* splitmix64: counter-based, so a stream can skip ahead by adding GOLDEN. */
static uint64_t mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

static uint64_t case_rng;	/* types, counts and layouts: equal on every rank */
static uint64_t data_rng;	/* values in the type maps */
static uint64_t noise_rng;	/* bytes in send buffers' holes */

static uint64_t case_next(void)
{
	return mix(case_rng += GOLDEN);
}

static uint64_t data_next(void)
{
	return mix(data_rng += GOLDEN);
}

static long rand_below(long n)
{
	return n <= 0 ? 0 : (long)(case_next() % (uint64_t)n);
}

static long rand_range(long lo, long hi)
{
	return lo + rand_below(hi - lo + 1);
}

static void shuffle(long *a, int k)
{
	int i, j;
	long x;

	for (i = k - 1; i > 0; i--) {
		j = rand_below(i + 1);
		x = a[i];
		a[i] = a[j];
		a[j] = x;
	}
}

/* ---- basic types ---- */

enum { K_SIGNED, K_UNSIGNED, K_FLOAT, K_BYTE, K_PAIR };

struct basic {
	MPI_Datatype handle;
	int size, kind, reducible, pair_size;
	const char *name;
	long extent;
};

static struct basic basics[32];
static int nbasics, nplain;	/* nplain: the basics before the pair types */
static int bi_char, bi_byte, bi_long, bi_ulong, bi_2int, bi_short_int, bi_long_int;

static int add_basic(MPI_Datatype h, int size, int kind, const char *name, int reducible)
{
	struct basic *b = &basics[nbasics];
	MPI_Aint lb, extent;

	MPI_Type_get_extent(h, &lb, &extent);
	b->handle = h;
	b->size = size;
	b->kind = kind;
	b->name = name;
	b->reducible = reducible;
	b->pair_size = 0;
	b->extent = extent;
	return nbasics++;
}

static void init_basics(void)
{
	bi_char = add_basic(MPI_CHAR, 1, K_SIGNED, "char", 0);
	bi_byte = add_basic(MPI_BYTE, 1, K_BYTE, "byte", 0);
	add_basic(MPI_SIGNED_CHAR, 1, K_SIGNED, "schar", 1);
	add_basic(MPI_UNSIGNED_CHAR, 1, K_UNSIGNED, "uchar", 1);
	add_basic(MPI_SHORT, 2, K_SIGNED, "short", 1);
	add_basic(MPI_UNSIGNED_SHORT, 2, K_UNSIGNED, "ushort", 1);
	add_basic(MPI_INT, 4, K_SIGNED, "int", 1);
	add_basic(MPI_UNSIGNED, 4, K_UNSIGNED, "uint", 1);
	bi_long = add_basic(MPI_LONG, 8, K_SIGNED, "long", 1);
	bi_ulong = add_basic(MPI_UNSIGNED_LONG, 8, K_UNSIGNED, "ulong", 1);
	add_basic(MPI_LONG_LONG, 8, K_SIGNED, "llong", 1);
	add_basic(MPI_UNSIGNED_LONG_LONG, 8, K_UNSIGNED, "ullong", 1);
	add_basic(MPI_INT8_T, 1, K_SIGNED, "i8", 1);
	add_basic(MPI_UINT16_T, 2, K_UNSIGNED, "u16", 1);
	add_basic(MPI_INT32_T, 4, K_SIGNED, "i32", 1);
	add_basic(MPI_UINT64_T, 8, K_UNSIGNED, "u64", 1);
	add_basic(MPI_FLOAT, 4, K_FLOAT, "float", 1);
	add_basic(MPI_DOUBLE, 8, K_FLOAT, "double", 1);
	nplain = nbasics;
	bi_2int = add_basic(MPI_2INT, 8, K_PAIR, "2int", 0);
	bi_short_int = add_basic(MPI_SHORT_INT, 6, K_PAIR, "shortint", 0);
	bi_long_int = add_basic(MPI_LONG_INT, 12, K_PAIR, "longint", 0);
	basics[bi_2int].pair_size = 4;
	basics[bi_short_int].pair_size = 2;
	basics[bi_long_int].pair_size = 8;
}

/* The data bytes of a basic type: a pair type's padding is not data. */
static int basic_parts(int bi, long *off, long *len)
{
	int ps = basics[bi].pair_size;

	off[0] = 0;
	if (basics[bi].kind != K_PAIR) {
		len[0] = basics[bi].size;
		return 1;
	}
	len[0] = ps;
	off[1] = bi == bi_2int || ps == 2 ? 4 : 8;
	len[1] = 4;
	return 2;
}

static long basic_true_ub(int bi)
{
	long off[2], len[2];
	int n = basic_parts(bi, off, len);

	return off[n - 1] + len[n - 1];
}

/* ---- the type map model ---- */

struct entry {
	long disp;
	int basic;
};

struct type {
	MPI_Datatype handle;
	int n, cap;
	struct entry *map;
	long lb, ub, true_lb, true_ub, size;
	int has_lb, has_ub;	/* explicit bounds (resized, subarray, darray) */
	char desc[200];
};

static struct type *registry[MAX_TYPES];
static int nregistry;
static struct type *basic_types[32];
static int model_mismatch, normalize_struct;

static long extent_of(const struct type *t)
{
	return t->ub - t->lb;
}

static void compute_true_bounds(struct type *t)
{
	int i;

	t->true_lb = t->true_ub = t->size = 0;
	for (i = 0; i < t->n; i++) {
		long lo = t->map[i].disp, hi = lo + basic_true_ub(t->map[i].basic);

		if (i == 0 || lo < t->true_lb)
			t->true_lb = lo;
		if (i == 0 || hi > t->true_ub)
			t->true_ub = hi;
		t->size += basics[t->map[i].basic].size;
	}
}

/* Bounds of a type built from placed copies of others. */
struct bounds {
	long lb_mark, ub_mark, lo, hi;
	int has_lb, has_ub, any;
};

/* Appends a copy of o's type map shifted by shift, and merges its bounds. */
static void place(struct type *t, struct bounds *b, const struct type *o, long shift)
{
	int i;

	if (t->n + o->n > t->cap) {
		t->cap = (t->n + o->n) * 2 + 16;
		t->map = realloc(t->map, sizeof(*t->map) * t->cap);
	}
	for (i = 0; i < o->n; i++) {
		t->map[t->n].disp = o->map[i].disp + shift;
		t->map[t->n++].basic = o->map[i].basic;
	}
	if (o->has_lb && (!b->has_lb || o->lb + shift < b->lb_mark)) {
		b->lb_mark = o->lb + shift;
		b->has_lb = 1;
	}
	if (o->has_ub && (!b->has_ub || o->ub + shift > b->ub_mark)) {
		b->ub_mark = o->ub + shift;
		b->has_ub = 1;
	}
	if (!b->any || o->lb + shift < b->lo)
		b->lo = o->lb + shift;
	if (!b->any || o->ub + shift > b->hi)
		b->hi = o->ub + shift;
	b->any = 1;
}

/* Explicit bounds dominate the natural ones (MPI 4.1, 5.1.7). */
static void set_bounds(struct type *t, const struct bounds *b)
{
	t->has_lb = b->has_lb;
	t->has_ub = b->has_ub;
	t->lb = b->any ? (b->has_lb ? b->lb_mark : b->lo) : 0;
	t->ub = b->any ? (b->has_ub ? b->ub_mark : b->hi) : 0;
	compute_true_bounds(t);
}

static void resize_to_model(struct type *t)
{
	MPI_Datatype h;

	MPI_Type_create_resized(t->handle, t->lb, t->ub - t->lb, &h);
	MPI_Type_commit(&h);
	MPI_Type_free(&t->handle);
	t->handle = h;
	t->has_lb = t->has_ub = 1;
}

/*
 * Alignment padding of structs (and of pair types) is up to the
 * implementation: such types are resized to the model's natural bounds.
 */
static void check_model(struct type *t)
{
	MPI_Aint lb, extent, true_lb, true_extent;
	int i, size, has_pair = 0;

	for (i = 0; i < t->n; i++)
		if (basics[t->map[i].basic].kind == K_PAIR)
			has_pair = 1;
	if (t->n == 0 || (!t->has_ub && (normalize_struct || has_pair))) {
		if (t->n == 0)
			t->lb = t->ub = 0;
		resize_to_model(t);
	}
	normalize_struct = 0;
	MPI_Type_get_extent(t->handle, &lb, &extent);
	if (t->n > 0 && lb == t->lb && extent > extent_of(t) && extent - extent_of(t) < 16) {
		resize_to_model(t);
		MPI_Type_get_extent(t->handle, &lb, &extent);
	}
	MPI_Type_get_true_extent(t->handle, &true_lb, &true_extent);
	MPI_Type_size(t->handle, &size);
	if (lb != t->lb || extent != extent_of(t) || size != t->size ||
	    (t->n > 0 && (true_lb != t->true_lb || true_extent != t->true_ub - t->true_lb))) {
		if (!model_mismatch)
			fprintf(stderr, "rank %d: model mismatch %s: MPI lb %ld extent %ld "
				"true lb %ld extent %ld size %d; model %ld %ld %ld %ld %ld\n",
				rank, t->desc, (long)lb, (long)extent, (long)true_lb,
				(long)true_extent, size, t->lb, extent_of(t), t->true_lb,
				t->true_ub - t->true_lb, t->size);
		model_mismatch++;
	}
}

static struct type *commit(struct type *t)
{
	MPI_Type_commit(&t->handle);
	check_model(t);
	if (nregistry < MAX_TYPES)
		registry[nregistry++] = t;
	return t;
}

static void free_types_from(int keep)
{
	int i;

	for (i = keep; i < nregistry; i++) {
		MPI_Type_free(&registry[i]->handle);
		free(registry[i]->map);
		free(registry[i]);
	}
	nregistry = keep;
}

static struct type *new_type(void)
{
	return calloc(1, sizeof(struct type));
}

static struct type *make_basic(int bi)
{
	struct type *t = new_type();
	struct bounds b = { 0 };
	struct type one = { .n = 1, .map = &(struct entry){ 0, bi }, .ub = basics[bi].extent };

	place(t, &b, &one, 0);
	set_bounds(t, &b);
	t->handle = basics[bi].handle;
	snprintf(t->desc, sizeof t->desc, "%s", basics[bi].name);
	registry[nregistry++] = t;
	return t;
}

static struct type *make_contig(int count, const struct type *o)
{
	struct type *t = new_type();
	struct bounds b = { 0 };
	int i;

	for (i = 0; i < count; i++)
		place(t, &b, o, i * extent_of(o));
	set_bounds(t, &b);
	MPI_Type_contiguous(count, o->handle, &t->handle);
	snprintf(t->desc, sizeof t->desc, "ctg(%d,%.150s)", count, o->desc);
	return commit(t);
}

/* A vector when stride (in extents) is given, else an hvector of byte_stride. */
static struct type *make_vector(int count, int blocklen, long byte_stride, const struct type *o,
				int is_vector, long stride)
{
	struct type *t = new_type();
	struct bounds b = { 0 };
	int i, j;

	for (i = 0; i < count; i++)
		for (j = 0; j < blocklen; j++)
			place(t, &b, o, i * byte_stride + j * extent_of(o));
	set_bounds(t, &b);
	if (is_vector) {
		MPI_Type_vector(count, blocklen, (int)stride, o->handle, &t->handle);
		snprintf(t->desc, sizeof t->desc, "vec(%d,%d,%ld,%.150s)", count, blocklen,
			 stride, o->desc);
	} else {
		MPI_Type_create_hvector(count, blocklen, byte_stride, o->handle, &t->handle);
		snprintf(t->desc, sizeof t->desc, "hvec(%d,%d,%ld,%.150s)", count, blocklen,
			 byte_stride, o->desc);
	}
	return commit(t);
}

enum { IDX, HIDX, IDX_BLOCK, HIDX_BLOCK };

static struct type *make_indexed(int k, const int *blocklen, const long *disp,
				 const struct type *o, int kind)
{
	static const char *names[] = { "idx", "hidx", "idxb", "hidxb" };
	struct type *t = new_type();
	struct bounds b = { 0 };
	int *idisp = malloc(sizeof(int) * (k + 1));
	MPI_Aint *adisp = malloc(sizeof(MPI_Aint) * (k + 1));
	int i, j;

	for (i = 0; i < k; i++) {
		int is_bytes = kind == HIDX || kind == HIDX_BLOCK;
		long base = is_bytes ? disp[i] : disp[i] * extent_of(o);
		int len = kind >= IDX_BLOCK ? blocklen[0] : blocklen[i];

		for (j = 0; j < len; j++)
			place(t, &b, o, base + j * extent_of(o));
		idisp[i] = (int)disp[i];
		adisp[i] = disp[i];
	}
	set_bounds(t, &b);
	if (kind == IDX)
		MPI_Type_indexed(k, blocklen, idisp, o->handle, &t->handle);
	else if (kind == HIDX)
		MPI_Type_create_hindexed(k, blocklen, adisp, o->handle, &t->handle);
	else if (kind == IDX_BLOCK)
		MPI_Type_create_indexed_block(k, blocklen[0], idisp, o->handle, &t->handle);
	else
		MPI_Type_create_hindexed_block(k, blocklen[0], adisp, o->handle, &t->handle);
	snprintf(t->desc, sizeof t->desc, "%s(%d,%ld:%d..,%.150s)", names[kind], k,
		 k ? disp[0] : 0, blocklen[0], o->desc);
	free(idisp);
	free(adisp);
	return commit(t);
}

static struct type *make_struct(int k, const int *blocklen, const long *disp,
				struct type **o)
{
	struct type *t = new_type();
	struct bounds b = { 0 };
	MPI_Aint adisp[MAX_UNIT] = { 0 };
	MPI_Datatype handles[MAX_UNIT] = { 0 };
	int i, j, pos;

	for (i = 0; i < k; i++) {
		for (j = 0; j < blocklen[i]; j++)
			place(t, &b, o[i], disp[i] + j * extent_of(o[i]));
		adisp[i] = disp[i];
		handles[i] = o[i]->handle;
	}
	set_bounds(t, &b);
	MPI_Type_create_struct(k, blocklen, adisp, handles, &t->handle);
	normalize_struct = 1;
	pos = snprintf(t->desc, sizeof t->desc, "st(%d", k);
	for (i = 0; i < k && pos < 150; i++)
		pos += snprintf(t->desc + pos, sizeof t->desc - pos, ",%ld:%d*%.30s", disp[i],
				blocklen[i], o[i]->desc);
	if (pos < 199)
		strcat(t->desc, ")");
	return commit(t);
}

static struct type *make_resized(const struct type *o, long lb, long extent)
{
	struct type *t = new_type();
	struct bounds b = { 0 };

	place(t, &b, o, 0);
	set_bounds(t, &b);
	t->lb = lb;
	t->ub = lb + extent;
	t->has_lb = t->has_ub = 1;
	MPI_Type_create_resized(o->handle, lb, extent, &t->handle);
	snprintf(t->desc, sizeof t->desc, "rsz(%ld,%ld,%.150s)", lb, extent, o->desc);
	return commit(t);
}

/*
 * Places o at the elements of an nd-dimensional array of sizes size[] given
 * by the index lists idx[d][0..nidx[d]), in the array's memory order.
 */
static void place_grid(struct type *t, const struct type *o, int nd, const int *size,
		       int **idx, const int *nidx, int order)
{
	struct bounds b = { 0 };
	int at[3] = { 0, 0, 0 }, d;
	long q, n = 1, total = 1;

	for (d = 0; d < nd; d++) {
		n *= nidx[d];
		total *= size[d];
	}
	for (q = 0; q < n; q++) {
		long lin = 0;

		if (order == MPI_ORDER_C)
			for (d = 0; d < nd; d++)
				lin = lin * size[d] + idx[d][at[d]];
		else
			for (d = nd - 1; d >= 0; d--)
				lin = lin * size[d] + idx[d][at[d]];
		place(t, &b, o, lin * extent_of(o));
		if (order == MPI_ORDER_C) {
			for (d = nd - 1; d >= 0; d--) {
				if (++at[d] < nidx[d])
					break;
				at[d] = 0;
			}
		} else {
			for (d = 0; d < nd; d++) {
				if (++at[d] < nidx[d])
					break;
				at[d] = 0;
			}
		}
	}
	set_bounds(t, &b);
	t->lb = 0;
	t->ub = total * extent_of(o);
	t->has_lb = t->has_ub = 1;
}

static struct type *make_subarray(int nd, int *size, int *sub, int *start, int order,
				  const struct type *o)
{
	struct type *t = new_type();
	int *idx[3], d, i;

	for (d = 0; d < nd; d++) {
		idx[d] = malloc(sizeof(int) * sub[d]);
		for (i = 0; i < sub[d]; i++)
			idx[d][i] = start[d] + i;
	}
	place_grid(t, o, nd, size, idx, sub, order);
	for (d = 0; d < nd; d++)
		free(idx[d]);
	MPI_Type_create_subarray(nd, size, sub, start, order, o->handle, &t->handle);
	snprintf(t->desc, sizeof t->desc, "sub(%d,%c,%d/%d@%d..,%.140s)", nd,
		 order == MPI_ORDER_C ? 'C' : 'F', sub[0], size[0], start[0], o->desc);
	return commit(t);
}

enum { DIST_NONE, DIST_BLOCK, DIST_CYCLIC };

/* darg[d] <= 0 means the default distribution argument. */
static struct type *make_darray(int size, int drank, int nd, int *gsize, int *dist,
				int *darg, int *psize, int order, const struct type *o)
{
	struct type *t = new_type();
	int coord[3], *own[3], nown[3], mdist[3], mdarg[3], d, g, r = drank;

	/* Processes are numbered in row-major order whatever the array order. */
	for (d = nd - 1; d >= 0; d--) {
		coord[d] = r % psize[d];
		r /= psize[d];
	}
	for (d = 0; d < nd; d++) {
		int block = darg[d] > 0 ? darg[d] : (gsize[d] + psize[d] - 1) / psize[d];
		int cyc = darg[d] > 0 ? darg[d] : 1;

		own[d] = malloc(sizeof(int) * gsize[d]);
		nown[d] = 0;
		for (g = 0; g < gsize[d]; g++)
			if (dist[d] == DIST_NONE ||
			    (dist[d] == DIST_BLOCK && g / block == coord[d]) ||
			    (dist[d] == DIST_CYCLIC && (g / cyc) % psize[d] == coord[d]))
				own[d][nown[d]++] = g;
		mdist[d] = dist[d] == DIST_NONE ? MPI_DISTRIBUTE_NONE :
			   dist[d] == DIST_BLOCK ? MPI_DISTRIBUTE_BLOCK : MPI_DISTRIBUTE_CYCLIC;
		mdarg[d] = darg[d] > 0 ? darg[d] : MPI_DISTRIBUTE_DFLT_DARG;
	}
	place_grid(t, o, nd, gsize, own, nown, order);
	for (d = 0; d < nd; d++)
		free(own[d]);
	MPI_Type_create_darray(size, drank, nd, gsize, mdist, mdarg, psize, order, o->handle,
			       &t->handle);
	snprintf(t->desc, sizeof t->desc, "darr(%d,%d,%d,%c,g%d d%d a%d p%d,%.120s)", size,
		 drank, nd, order == MPI_ORDER_C ? 'C' : 'F', gsize[0], dist[0], darg[0],
		 psize[0], o->desc);
	return commit(t);
}

/* ---- random types of a given signature U^m ---- */

struct unit {
	int n, basic[MAX_UNIT];
};

static int allow_overlap;	/* a send type: entries may overlap */

/* A random factorization m = a * b. */
static void factor(int m, int *a, int *b)
{
	int divisors[64], n = 0, i;

	for (i = 1; i <= m && n < 64; i++)
		if (m % i == 0)
			divisors[n++] = i;
	*a = divisors[rand_below(n)];
	*b = m / *a;
}

/* One unit: a basic type (maybe resized) or a struct of its members. */
static struct type *gen_unit(const struct unit *u, int depth)
{
	struct type *o[MAX_UNIT];
	int blocklen[MAX_UNIT], k = 0, i, j, q;
	long disp[MAX_UNIT], order[MAX_UNIT], pos;

	if (u->n == 1) {
		struct type *t = basic_types[u->basic[0]];

		if (depth > 0 && rand_below(4) == 0)
			return make_resized(t, rand_range(-8, 8), extent_of(t) + rand_range(0, 12));
		return t;
	}
	/* Runs of one basic type become one block, or not. */
	for (i = 0; i < u->n; i = j + 1) {
		for (j = i; j + 1 < u->n && u->basic[j + 1] == u->basic[i] && rand_below(2); j++)
			;
		blocklen[k] = j - i + 1;
		o[k++] = basic_types[u->basic[i]];
	}
	for (i = 0; i < k; i++)
		order[i] = i;
	shuffle(order, k);
	pos = rand_range(-16, 8);
	for (q = 0; q < k; q++) {
		i = order[q];
		disp[i] = pos;
		pos += blocklen[i] * extent_of(o[i]) + rand_below(3) * rand_range(1, 8);
	}
	return make_struct(k, blocklen, disp, o);
}

static struct type *gen_type(const struct unit *u, int m, int depth);

static struct type *gen_vector(const struct unit *u, int m, int depth, int is_vector)
{
	struct type *in = gen_type(u, 1, depth - 1);
	long ex = extent_of(in), s;
	int count, blocklen, r = rand_below(6);

	factor(m, &count, &blocklen);
	if (!is_vector) {
		s = blocklen * ex + rand_range(0, 9);
		if (rand_below(3) == 0)
			s = -s;
		if (allow_overlap && rand_below(5) == 0)
			s = 0;
		return make_vector(count, blocklen, s, in, 0, 0);
	}
	if (r == 0)
		s = blocklen + rand_below(4);
	else if (r == 1)
		s = -(blocklen + rand_below(3));
	else if (r == 2 && allow_overlap)
		s = 0;
	else if (r == 3 && allow_overlap)
		s = rand_below(blocklen + 1);
	else
		s = blocklen + rand_below(2);
	return make_vector(count, blocklen, s * ex, in, 1, s);
}

/* indexed or hindexed: blocks in random order, sometimes an empty one */
static struct type *gen_indexed(const struct unit *u, int m, int depth, int bytes)
{
	struct type *in = gen_type(u, 1, depth - 1);
	long ex = extent_of(in), order[8], disp[8], pos;
	int k = rand_range(1, m < 6 ? m : 6), blocklen[8], rem = m, i, q;

	for (i = 0; i < k; i++) {
		blocklen[i] = i == k - 1 ? rem : rand_range(1, rem - (k - 1 - i));
		rem -= blocklen[i];
	}
	if (rand_below(3) == 0 && k > 1)
		blocklen[k++] = 0;
	for (i = 0; i < k; i++)
		order[i] = i;
	shuffle(order, k);
	pos = bytes ? rand_range(-64, 16) : rand_range(-5, 3);
	for (q = 0; q < k; q++) {
		i = order[q];
		disp[i] = pos;
		pos += bytes ? blocklen[i] * ex + rand_below(5) : blocklen[i] + rand_below(3);
	}
	return make_indexed(k, blocklen, disp, in, bytes ? HIDX : IDX);
}

static struct type *gen_indexed_block(const struct unit *u, int m, int depth, int bytes)
{
	struct type *in = gen_type(u, 1, depth - 1);
	long ex = extent_of(in), order[64], disp[64], pos;
	int count, blocklen, i, q;

	factor(m, &count, &blocklen);
	if (count > 64)
		return make_contig(m, in);
	for (i = 0; i < count; i++)
		order[i] = i;
	shuffle(order, count);
	pos = rand_range(-4, 2) * (bytes ? ex : 1);
	for (q = 0; q < count; q++) {
		disp[order[q]] = pos;
		pos += bytes ? blocklen * ex + rand_below(6) : blocklen + rand_below(3);
	}
	return make_indexed(count, &blocklen, disp, in, bytes ? HIDX_BLOCK : IDX_BLOCK);
}

static struct type *gen_subarray(const struct unit *u, int m, int depth)
{
	struct type *in = gen_type(u, 1, depth - 1);
	int nd = rand_range(1, 3), sub[3], size[3], start[3], rem = m, d;
	long total = 1;

	for (d = 0; d < nd; d++) {
		if (d == nd - 1)
			sub[d] = rem;
		else
			factor(rem, &sub[d], &rem);
		size[d] = sub[d] + rand_below(3);
		start[d] = rand_below(size[d] - sub[d] + 1);
		total *= size[d];
	}
	if (total > 200000)
		return make_contig(m, in);
	return make_subarray(nd, size, sub, start, rand_below(2) ? MPI_ORDER_C :
			     MPI_ORDER_FORTRAN, in);
}

/* A struct of parts of the signature, placed in random order. */
static struct type *gen_struct(const struct unit *u, int m, int depth)
{
	struct type *o[8];
	int k = rand_range(1, m < 4 ? m : 4), parts[8], blocklen[8], rem = m, i, q, a, b;
	long order[8], disp[8], pos;

	for (i = 0; i < k; i++) {
		parts[i] = i == k - 1 ? rem : rand_range(1, rem - (k - 1 - i));
		rem -= parts[i];
	}
	for (i = 0; i < k; i++) {
		factor(parts[i], &a, &b);
		if (rand_below(2)) {
			o[i] = gen_type(u, a, depth - 1);
			blocklen[i] = b;
		} else {
			o[i] = gen_type(u, parts[i], depth - 1);
			blocklen[i] = 1;
		}
	}
	for (i = 0; i < k; i++)
		order[i] = i;
	shuffle(order, k);
	pos = rand_range(-32, 8);
	for (q = 0; q < k; q++) {
		long ex, tex, span;

		i = order[q];
		ex = extent_of(o[i]);
		tex = o[i]->true_ub - o[i]->true_lb;
		span = (blocklen[i] - 1) * ex + tex;
		/* Copies that overlap each other: leave generous room. */
		if (ex < tex && blocklen[i] > 1)
			span = blocklen[i] * tex + blocklen[i] * labs(ex);
		disp[i] = pos - o[i]->true_lb;
		if (ex < 0)
			disp[i] -= (blocklen[i] - 1) * ex;
		pos += span + rand_below(6);
	}
	return make_struct(k, blocklen, disp, o);
}

static struct type *gen_resized(const struct unit *u, int m, int depth)
{
	struct type *in = gen_type(u, m, depth - 1);
	long tlb = in->true_lb, tex = in->true_ub - in->true_lb, lb, ex;

	switch (rand_below(4)) {
	case 0:
		lb = tlb - rand_below(9);
		ex = tex + (tlb - lb) + rand_below(9);
		break;
	case 1:		/* lb inside the data */
		lb = tlb + rand_below(tex + 1);
		ex = tex + rand_below(5);
		break;
	case 2:
		lb = -rand_range(1, 40);
		ex = tex + rand_range(0, 40) + (tlb > 0 ? tlb : 0) + 41;
		break;
	default:
		lb = tlb;
		ex = allow_overlap ? rand_range(1, tex + 1) : tex + rand_below(3);
	}
	return make_resized(in, lb, ex > 0 ? ex : 1);
}

static struct type *gen_darray(const struct unit *u, int m, int depth)
{
	struct type *in = gen_type(u, 1, depth - 1);
	int nd = rand_range(1, 2), gsize[3], dist[3], darg[3], psize[3], size = 1, rem = m;
	int d, own, a;
	long total = 1;

	for (d = 0; d < nd; d++) {
		if (d == nd - 1)
			own = rem;
		else
			factor(rem, &own, &rem);
		psize[d] = rand_range(1, 3);
		dist[d] = rand_below(3);
		if (dist[d] == DIST_NONE)
			psize[d] = 1;
		size *= psize[d];
		gsize[d] = own * psize[d];
		darg[d] = -1;
		if (dist[d] == DIST_BLOCK && rand_below(2))
			darg[d] = own;	/* the default, given explicitly */
		if (dist[d] == DIST_CYCLIC) {
			factor(own, &a, &own);
			if (rand_below(3))
				darg[d] = a;
		}
		total *= gsize[d];
	}
	if (total > 200000)
		return make_contig(m, in);
	return make_darray(size, rand_below(size), nd, gsize, dist, darg, psize,
			   rand_below(2) ? MPI_ORDER_C : MPI_ORDER_FORTRAN, in);
}

static struct type *gen_type(const struct unit *u, int m, int depth)
{
	int choice = depth <= 0 ? 0 : rand_below(13), count, blocklen;
	struct type *in, *v;

	if (m == 0) {
		int zero = 0;
		long disp = rand_range(-3, 3);

		in = gen_unit(u, depth);
		if (rand_below(2))
			return make_contig(0, in);
		return make_indexed(1, &zero, &disp, in, IDX);
	}
	if (m == 1 && choice >= 2 && choice <= 4)
		choice = rand_below(2) ? 8 : 9;
	switch (choice) {
	case 0:
		if (m == 1)
			return gen_unit(u, depth);
		return make_contig(m, gen_type(u, 1, depth - 1));
	case 1:
	case 2:
		return gen_vector(u, m, depth, choice == 1);
	case 3:
	case 4:
		return gen_indexed(u, m, depth, choice == 4);
	case 5:
	case 6:
		return gen_indexed_block(u, m, depth, choice == 6);
	case 7:
		return gen_subarray(u, m, depth);
	case 8:
		return gen_struct(u, m, depth);
	case 9:
		return gen_resized(u, m, depth);
	case 10:
		return gen_darray(u, m, depth);
	case 11:
		/* Elements interleave: the true extent passes the extent. */
		factor(m, &count, &blocklen);
		in = gen_type(u, 1, depth - 1);
		v = make_vector(count, blocklen, rand_range(2, 70) * blocklen * extent_of(in),
				in, 0, 0);
		if (count == 1)
			return v;
		return make_resized(v, v->lb, blocklen * extent_of(in));
	default:
		return make_contig(1, gen_type(u, m, depth - 1));
	}
}

/* The byte range count elements of t at off cover, merged into [*lo, *hi). */
static void footprint(const struct type *t, long count, long off, long *lo, long *hi)
{
	long a, b, mn, mx;

	if (count == 0 || t->n == 0)
		return;
	a = off + t->true_lb;
	b = off + (count - 1) * extent_of(t) + t->true_lb;
	mn = a < b ? a : b;
	mx = (a > b ? a : b) + t->true_ub - t->true_lb;
	if (mn < *lo)
		*lo = mn;
	if (mx > *hi)
		*hi = mx;
}

static int overlaps(const struct type *t, long count)
{
	long lo = 0, hi = 0, c, q, o[2], l[2];
	unsigned char *seen;
	int i, j, n, bad = 0;

	footprint(t, count, 0, &lo, &hi);
	seen = calloc(hi - lo + 1, 1);
	for (c = 0; c < count && !bad; c++)
		for (i = 0; i < t->n && !bad; i++) {
			n = basic_parts(t->map[i].basic, o, l);
			for (j = 0; j < n; j++)
				for (q = 0; q < l[j]; q++) {
					long p = c * extent_of(t) + t->map[i].disp + o[j] + q - lo;

					bad |= seen[p];
					seen[p] = 1;
				}
		}
	free(seen);
	return bad;
}

/* A type of signature U^k for count elements; a receive type never overlaps. */
static struct type *gen_usable(const struct unit *u, int k, long count, int recv)
{
	int tries;

	for (tries = 0; tries < 30; tries++) {
		struct type *t;
		long lo = 0, hi = 0;

		allow_overlap = !recv;
		t = gen_type(u, k, rand_range(0, 3));
		footprint(t, count, 0, &lo, &hi);
		if (hi - lo > 6000000)
			continue;
		if (recv && overlaps(t, count))
			continue;
		return t;
	}
	allow_overlap = 0;
	return make_contig(k, gen_unit(u, 0));
}

/* ---- buffers ---- */

/* base = bytes - lo; in_map and filled are per byte of bytes. */
struct buf {
	unsigned char *bytes, *in_map, *filled;
	long size, lo;
};

static int layout_overlaps;	/* values or receive blocks overwrite each other */

static unsigned char sentinel(long k)
{
	return (unsigned char)(0x5A ^ (((uint32_t)k * 2654435761u) >> 13));
}

static void buf_alloc(struct buf *b, long lo, long hi)
{
	long k;

	if (hi < lo)
		lo = hi = 0;
	b->lo = lo - PAD;
	b->size = hi - lo + 2 * PAD;
	b->bytes = malloc(b->size);
	b->in_map = calloc(b->size, 1);
	b->filled = calloc(b->size, 1);
	for (k = 0; k < b->size; k++)
		b->bytes[k] = sentinel(k);
}

static char *base(struct buf *b)
{
	return (char *)b->bytes - b->lo;
}

static void buf_free(struct buf *b)
{
	free(b->bytes);
	free(b->in_map);
	free(b->filled);
	memset(b, 0, sizeof *b);
}

/* Runs the body for every data byte of count elements of t at off in b. */
#define for_each_byte(t, count, off, pos) \
	for (long c_ = 0; c_ < (count); c_++) \
		for (int i_ = 0; i_ < (t)->n; i_++) \
			for (long o_[2], l_[2], n_ = basic_parts((t)->map[i_].basic, o_, l_), \
			     j_ = 0; j_ < n_; j_++) \
				for (long q_ = 0, pos = (off) + c_ * extent_of(t) + \
				     (t)->map[i_].disp + o_[j_]; q_ < l_[j_]; q_++, pos++)

/* Marks the receive type map: bytes outside it must keep their sentinel. */
static void mark(struct buf *b, const struct type *t, long count, long off)
{
	for_each_byte(t, count, off, pos) {
		layout_overlaps |= b->in_map[pos - b->lo];
		b->in_map[pos - b->lo] = 1;
	}
}

static int value_mode;	/* small values: products and floats stay exact */

/* Stores the next value of data_rng as basic type bi; one draw per call. */
static void put_value(char *p, int bi)
{
	uint64_t r = data_next();
	int kind = basics[bi].kind, size = basics[bi].size;
	long off[2], len[2], v;
	double d;

	if (kind == K_PAIR) {
		int ix = (int)((r >> 8) % 5);

		v = (long)(r % 7) - 3;
		basic_parts(bi, off, len);
		if (len[0] == 2)
			memcpy(p, &(short){ v }, 2);
		else if (len[0] == 4)
			memcpy(p, &(int){ v }, 4);
		else
			memcpy(p, &v, 8);
		memcpy(p + off[1], &ix, 4);
		return;
	}
	if (kind == K_FLOAT) {
		d = value_mode ? (double)((long)(r % 5) - 2) : (double)((long)(r % 41) - 20);
		if (size == 4)
			memcpy(p, &(float){ d }, 4);
		else
			memcpy(p, &d, 8);
		return;
	}
	if (value_mode) {
		v = kind == K_UNSIGNED ? (long)(r % 3) : (long)(r % 5) - 2;
		if (size == 1)
			memcpy(p, &(signed char){ v }, 1);
		else if (size == 2)
			memcpy(p, &(short){ v }, 2);
		else if (size == 4)
			memcpy(p, &(int){ v }, 4);
		else
			memcpy(p, &v, 8);
		return;
	}
	/* external32 has 4-byte longs and 7-bit chars. */
	if (bi == bi_long)
		r = (uint64_t)(long)(int32_t)r;
	else if (bi == bi_ulong)
		r = (uint32_t)r;
	else if (bi == bi_char)
		r &= 0x7f;
	memcpy(p, &r, size);
}

static long run_seed;
static int run_case_no;

/* The state of data_rng before value number start of a stream. */
static uint64_t stream_state(int stream, long start)
{
	return (uint64_t)run_seed * 7777ULL + run_case_no * 131ULL + stream * 1000000007ULL +
	       0xD00DULL + (uint64_t)start * GOLDEN;
}

/* Fills the next block of a buffer that one stream fills block by block. */
static void fill_more(struct buf *b, const struct type *t, long count, long off)
{
	long c;
	int i;

	for (c = 0; c < count; c++)
		for (i = 0; i < t->n; i++)
			put_value(base(b) + off + c * extent_of(t) + t->map[i].disp,
				  t->map[i].basic);
	for_each_byte(t, count, off, pos) {
		layout_overlaps |= b->filled[pos - b->lo];
		b->filled[pos - b->lo] = 1;
	}
}

/* Fills count elements of t at off with stream's values from its start. */
static void fill(struct buf *b, const struct type *t, long count, long off, int stream)
{
	data_rng = stream_state(stream, 0);
	fill_more(b, t, count, off);
}

static void noise(struct buf *b)
{
	long k;

	for (k = 0; k < b->size; k++)
		b->bytes[k] = (unsigned char)mix(noise_rng += GOLDEN);
}

static long changed_holes(const struct buf *b)
{
	long k, n = 0;

	for (k = 0; k < b->size; k++)
		if (!b->in_map[k] && b->bytes[k] != sentinel(k))
			n++;
	return n;
}

/* ---- failures ---- */

enum { F_TYPES, F_P2P, F_COLL, F_RED, F_PACK, F_RMA, NFAMILIES };

static const char *family_names[NFAMILIES] = {
	"fuzz_types", "fuzz_p2p", "fuzz_collectives", "fuzz_reductions", "fuzz_pack", "fuzz_rma"
};
static char family_why[NFAMILIES][MPIT_MSG];
static char case_why[MPIT_MSG];
static int case_failed;

static void case_fail(const char *fmt, ...)
{
	va_list ap;

	if (case_failed)
		return;
	case_failed = 1;
	va_start(ap, fmt);
	vsnprintf(case_why, sizeof case_why, fmt, ap);
	va_end(ap);
}

/* ---- operations on one element ---- */

static MPI_Op op_commutative, op_noncommutative;

static uint64_t load(const char *p, int size)
{
	uint64_t v = 0;

	memcpy(&v, p, size);
	return v;
}

static int64_t load_signed(const char *p, int size)
{
	if (size == 1)
		return *(const int8_t *)p;
	if (size == 2)
		return (int16_t)load(p, 2);
	if (size == 4)
		return (int32_t)load(p, 4);
	return (int64_t)load(p, 8);
}

/* io = in op io for one element of basic type bi, as MPI defines op. */
static void combine(MPI_Op op, int bi, const char *in, char *io)
{
	int size = basics[bi].size, kind = basics[bi].kind;
	long off[2], len[2];

	if (op == MPI_NO_OP)
		return;
	if (op == MPI_REPLACE) {
		memcpy(io, in, size);
		return;
	}
	if (kind == K_PAIR) {
		int64_t va, vb;
		int32_t ia, ib;
		int take;

		basic_parts(bi, off, len);
		va = load_signed(in, len[0]);
		vb = load_signed(io, len[0]);
		memcpy(&ia, in + off[1], 4);
		memcpy(&ib, io + off[1], 4);
		if (op == MPI_MAXLOC)
			take = va > vb || (va == vb && ia < ib);
		else
			take = va < vb || (va == vb && ia < ib);
		if (take) {
			memcpy(io, in, len[0]);
			memcpy(io + off[1], in + off[1], 4);
		}
	} else if (kind == K_FLOAT) {
		double x, y, r;
		float f;

		if (size == 4) {
			memcpy(&f, in, 4);
			x = f;
			memcpy(&f, io, 4);
			y = f;
		} else {
			memcpy(&x, in, 8);
			memcpy(&y, io, 8);
		}
		r = op == MPI_SUM ? x + y : op == MPI_PROD ? x * y :
		    op == MPI_MAX ? (x > y ? x : y) : x < y ? x : y;
		if (size == 4)
			memcpy(io, &(float){ r }, 4);
		else
			memcpy(io, &r, 8);
	} else {
		uint64_t x = load(in, size), y = load(io, size), r;
		int64_t sx = load_signed(in, size), sy = load_signed(io, size);
		int half = size == 8 ? 32 : size * 4;
		uint64_t m = (1ULL << half) - 1;

		if (op == MPI_SUM)
			r = x + y;
		else if (op == MPI_PROD)
			r = x * y;
		else if (op == MPI_BAND)
			r = x & y;
		else if (op == MPI_BOR)
			r = x | y;
		else if (op == MPI_BXOR)
			r = x ^ y;
		else if (op == MPI_MAX)
			r = kind == K_UNSIGNED ? (x > y ? x : y) : (uint64_t)(sx > sy ? sx : sy);
		else if (op == MPI_MIN)
			r = kind == K_UNSIGNED ? (x < y ? x : y) : (uint64_t)(sx < sy ? sx : sy);
		else if (op == op_commutative)
			r = x + y + 2 * x * y;
		else	/* affine maps (a, b) on the two halves: in o io, associative only */
			r = ((x & m) * (y & m) & m) |
			    ((((x & m) * ((y >> half) & m) + ((x >> half) & m)) & m) << half);
		memcpy(io, &r, size);
	}
}

static struct type *lookup(MPI_Datatype h)
{
	int i;

	for (i = nregistry - 1; i >= 0; i--)
		if (registry[i]->handle == h)
			return registry[i];
	return NULL;
}

static int unknown_datatype;

static void reduce_local(MPI_Op op, const struct type *t, long count, const char *in, char *io)
{
	long c;
	int i;

	for (c = 0; c < count; c++)
		for (i = 0; i < t->n; i++) {
			long at = c * extent_of(t) + t->map[i].disp;

			combine(op, t->map[i].basic, in + at, io + at);
		}
}

/* The user ops learn the layout from the registry: any other datatype is a bug. */
static void user_op(void *in, void *io, int *len, MPI_Datatype *dt, MPI_Op op)
{
	struct type *t = lookup(*dt);

	if (!t) {
		unknown_datatype++;
		return;
	}
	reduce_local(op, t, *len, in, io);
}

static void user_commutative(void *in, void *io, int *len, MPI_Datatype *dt)
{
	user_op(in, io, len, dt, op_commutative);
}

static void user_noncommutative(void *in, void *io, int *len, MPI_Datatype *dt)
{
	user_op(in, io, len, dt, op_noncommutative);
}

/* ---- one case ---- */

enum {
	O_SEND, O_ISEND, O_SENDRECV, O_SRREPLACE, O_PERSIST, O_SSEND, O_BCAST, O_IBCAST,
	O_GATHER, O_GATHERV, O_SCATTER, O_SCATTERV, O_ALLGATHER, O_ALLGATHERV, O_ALLTOALL,
	O_ALLTOALLV, O_ALLTOALLW, O_REDUCE, O_ALLREDUCE, O_SCAN, O_EXSCAN, O_RSCATTER,
	O_RSCATTER_BLOCK, O_PACK, O_PACK_EXTERNAL, O_PUT, O_GET, O_ACC, O_GET_ACC, NOPS
};

static const char *op_names[NOPS] = {
	"send", "isend", "sendrecv", "sendrecv_replace", "persistent", "ssend", "bcast",
	"ibcast", "gather", "gatherv", "scatter", "scatterv", "allgather", "allgatherv",
	"alltoall", "alltoallv", "alltoallw", "reduce", "allreduce", "scan", "exscan",
	"reduce_scatter", "reduce_scatter_block", "pack", "pack_external", "put", "get",
	"accumulate", "get_accumulate"
};

static int family_of(int op)
{
	if (op <= O_SSEND)
		return F_P2P;
	if (op <= O_ALLTOALLW)
		return F_COLL;
	if (op <= O_RSCATTER_BLOCK)
		return F_RED;
	if (op <= O_PACK_EXTERNAL)
		return F_PACK;
	return F_RMA;
}

/* A data check, run once every rank knows no layout overwrites itself. */
struct check {
	struct buf *b;
	const struct type *t;
	long count, off, start;
	int stream, target_stream;	/* target_stream >= 0: an accumulate's result */
	MPI_Op op;
};

static struct check checks[80];
static int nchecks;

static void expect(struct buf *b, const struct type *t, long count, long off, int stream,
		   long start)
{
	if (nchecks < (int)(sizeof checks / sizeof checks[0]))
		checks[nchecks++] = (struct check){ b, t, count, off, start, stream, -1,
						    MPI_OP_NULL };
}

/* The first data byte of basic type bi where got and want differ, or -1. */
static long first_difference(const char *got, const char *want, int bi)
{
	long o[2], l[2], q;
	int j, n = basic_parts(bi, o, l);

	for (j = 0; j < n; j++)
		for (q = o[j]; q < o[j] + l[j]; q++)
			if (got[q] != want[q])
				return q;
	return -1;
}

/* Compares the bytes of the type map with the expected values in signature order. */
static void run_check(const struct check *k)
{
	const struct type *t = k->t;
	uint64_t origin = stream_state(k->stream, k->start), target = 0;
	char value[16], old[16];
	long c, q;
	int i;

	if (k->target_stream >= 0)
		target = stream_state(k->target_stream, 0);
	for (c = 0; c < k->count; c++)
		for (i = 0; i < t->n; i++) {
			char *at = base(k->b) + k->off + c * extent_of(t) + t->map[i].disp;
			int bi = t->map[i].basic;

			data_rng = origin;
			put_value(value, bi);
			origin = data_rng;
			if (k->target_stream >= 0) {
				data_rng = target;
				put_value(old, bi);
				target = data_rng;
				combine(k->op, bi, value, old);
				memcpy(value, old, sizeof value);
			}
			q = first_difference(at, value, bi);
			if (q >= 0) {
				case_fail("element %ld entry %d byte %ld: expected 0x%02x "
					  "(from rank %d), got 0x%02x", c, i, q, value[q] & 0xff,
					  k->stream % nproc, at[q] & 0xff);
				return;
			}
		}
}

static long pick_count(int big, long unit_size)
{
	int r = big ? 9 : rand_below(10);

	if (r == 0)
		return 0;
	if (r <= 2)
		return 1;
	if (r <= 6)
		return rand_range(2, 5);
	if (r <= 8)
		return rand_range(6, 40);
	return 70000 / (unit_size > 0 ? unit_size : 1) + rand_range(1, 50);
}

enum { SIG_ANY, SIG_PREDEFINED_OP, SIG_USER_OP, SIG_PAIR };

static void gen_signature(struct unit *u, int use)
{
	int pool[32] = { 0 }, np = 0, i;

	if (use == SIG_PAIR) {
		int r = rand_below(3);

		u->n = 1;
		u->basic[0] = r == 0 ? bi_2int : r == 1 ? bi_short_int : bi_long_int;
		return;
	}
	for (i = 0; i < nplain; i++) {
		if (use != SIG_ANY && !basics[i].reducible)
			continue;
		if (use == SIG_USER_OP && basics[i].kind == K_FLOAT)
			continue;
		if (use == SIG_ANY && i == bi_byte && rand_below(2))
			continue;
		pool[np++] = i;
	}
	if (use == SIG_ANY && rand_below(6) == 0) {
		pool[np++] = bi_2int;
		pool[np++] = bi_short_int;
	}
	if (use == SIG_PREDEFINED_OP) {
		u->n = 1;
		u->basic[0] = pool[rand_below(np)];
		return;
	}
	u->n = rand_below(3) ? 1 : rand_range(2, 4);
	for (i = 0; i < u->n; i++)
		u->basic[i] = pool[rand_below(np)];
	if (u->n == 1 && rand_below(2)) {
		u->n = rand_range(1, 3);
		for (i = 1; i < u->n; i++)
			u->basic[i] = u->basic[0];
	}
}

static int gcd(int a, int b)
{
	while (b) {
		int t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static int first_error;

static void comm_errors(MPI_Comm *comm, int *code, ...)
{
	(void)comm;
	if (!first_error)
		first_error = *code;
}

static void win_errors(MPI_Win *win, int *code, ...)
{
	(void)win;
	if (!first_error)
		first_error = *code;
}

/* The case being run: every rank builds the same one. */
static struct {
	int op, ks, kr, lcm, inplace, bottom, root, next, prev, big, rc;
	struct unit unit;
	struct type *send, *recv;
	long count, send_count, recv_count, units;	/* count * lcm units of U a message */
	MPI_Op mop;
	const char *mop_name;
	struct buf sb, rb, result;
	unsigned char *sent;	/* the send buffer as it was filled */
} cc;

static MPI_Comm comm;

static void wait_for(MPI_Request *req)
{
	cc.rc |= MPI_Wait(req, MPI_STATUS_IGNORE);
}

/* Where message number block starts in a stream of equal messages. */
static long message_start(long block)
{
	return block * cc.units * cc.unit.n;
}

/* With MPI_BOTTOM, a struct of one absolute address stands for (buf, count, type). */
static MPI_Datatype absolute_types[2];

static void buffer_args(struct buf *b, const struct type *t, long count, int which,
			void **addr, int *n, MPI_Datatype *h)
{
	MPI_Aint a;
	int one = (int)count;

	*addr = base(b);
	*n = (int)count;
	*h = t->handle;
	if (!cc.bottom)
		return;
	MPI_Get_address(base(b), &a);
	MPI_Type_create_struct(1, &one, &a, &t->handle, &absolute_types[which]);
	MPI_Type_commit(&absolute_types[which]);
	*addr = MPI_BOTTOM;
	*n = 1;
	*h = absolute_types[which];
}

static void keep_sent(void)
{
	cc.sent = malloc(cc.sb.size);
	memcpy(cc.sent, cc.sb.bytes, cc.sb.size);
}

static void send_buffer(const struct type *t, long count)
{
	long lo = 0, hi = 0;

	footprint(t, count, 0, &lo, &hi);
	buf_alloc(&cc.sb, lo, hi);
	noise(&cc.sb);
	fill(&cc.sb, t, count, 0, rank);
	keep_sent();
}

static void recv_buffer(struct buf *b, const struct type *t, long count)
{
	long lo = 0, hi = 0;

	footprint(t, count, 0, &lo, &hi);
	buf_alloc(b, lo, hi);
	mark(b, t, count, 0);
}

static void run_p2p(void)
{
	struct type *S = cc.send, *R = cc.recv;
	MPI_Request req[2];
	MPI_Datatype sh, rh;
	MPI_Status st;
	void *sbuf, *rbuf;
	int sn, rn, got, it;

	if (cc.op == O_SRREPLACE) {
		recv_buffer(&cc.rb, R, cc.recv_count);
		fill(&cc.rb, R, cc.recv_count, 0, rank);
		cc.rc |= MPI_Sendrecv_replace(base(&cc.rb), (int)cc.recv_count, R->handle,
					      cc.next, 3, cc.prev, 3, comm, MPI_STATUS_IGNORE);
		expect(&cc.rb, R, cc.recv_count, 0, cc.prev, 0);
		return;
	}
	send_buffer(S, cc.send_count);
	recv_buffer(&cc.rb, R, cc.recv_count);
	buffer_args(&cc.sb, S, cc.send_count, 0, &sbuf, &sn, &sh);
	buffer_args(&cc.rb, R, cc.recv_count, 1, &rbuf, &rn, &rh);
	switch (cc.op) {
	case O_SEND:
		/* Odd ranks post an Irecv first (and a lone rank must). */
		if (rank % 2 == 0 && nproc > 1) {
			cc.rc |= MPI_Send(sbuf, sn, sh, cc.next, 7, comm);
			cc.rc |= MPI_Recv(rbuf, rn, rh, cc.prev, 7, comm, MPI_STATUS_IGNORE);
		} else {
			cc.rc |= MPI_Irecv(rbuf, rn, rh, cc.prev, 7, comm, &req[0]);
			cc.rc |= MPI_Send(sbuf, sn, sh, cc.next, 7, comm);
			wait_for(&req[0]);
		}
		break;
	case O_ISEND:
		cc.rc |= MPI_Irecv(rbuf, rn, rh, cc.prev, 7, comm, &req[0]);
		cc.rc |= MPI_Isend(sbuf, sn, sh, cc.next, 7, comm, &req[1]);
		cc.rc |= MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
		break;
	case O_SSEND:
		cc.rc |= MPI_Irecv(rbuf, rn, rh, cc.prev, 7, comm, &req[0]);
		cc.rc |= MPI_Ssend(sbuf, sn, sh, cc.next, 7, comm);
		wait_for(&req[0]);
		break;
	case O_SENDRECV:
		cc.rc |= MPI_Sendrecv(sbuf, sn, sh, cc.next, 7, rbuf, rn, rh, cc.prev, 7, comm,
				      &st);
		MPI_Get_count(&st, rh, &got);
		if (cc.recv_count > 0 && got != rn)
			case_fail("MPI_Get_count: expected %d, got %d", rn, got);
		break;
	default:	/* persistent requests, started twice */
		cc.rc |= MPI_Recv_init(rbuf, rn, rh, cc.prev, 7, comm, &req[0]);
		cc.rc |= MPI_Send_init(sbuf, sn, sh, cc.next, 7, comm, &req[1]);
		for (it = 0; it < 2; it++) {
			cc.rc |= MPI_Startall(2, req);
			cc.rc |= MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
		}
		MPI_Request_free(&req[0]);
		MPI_Request_free(&req[1]);
	}
	expect(&cc.rb, R, cc.recv_count, 0, cc.prev, 0);
}

static void run_bcast(void)
{
	struct type *t = rank == cc.root ? cc.send : cc.recv;
	long count = rank == cc.root ? cc.send_count : cc.recv_count;
	MPI_Request req;
	MPI_Datatype h;
	void *addr;
	int n;

	recv_buffer(&cc.rb, t, count);
	if (rank == cc.root)
		fill(&cc.rb, t, count, 0, rank);
	buffer_args(&cc.rb, t, count, 1, &addr, &n, &h);
	if (cc.op == O_BCAST) {
		cc.rc |= MPI_Bcast(addr, n, h, cc.root, comm);
	} else {
		cc.rc |= MPI_Ibcast(addr, n, h, cc.root, comm, &req);
		wait_for(&req);
	}
	expect(&cc.rb, t, count, 0, cc.root, 0);
}

static void run_scatter(void)
{
	struct type *S = cc.send, *R = cc.recv;
	int n = nproc, inplace = cc.inplace && rank == cc.root;

	if (rank == cc.root)
		send_buffer(S, cc.send_count * n);
	if (inplace) {
		/* The root's buffer is both: all of it must stay as it was. */
		cc.rb = cc.sb;
		memset(&cc.sb, 0, sizeof cc.sb);
		memset(cc.rb.in_map, 1, cc.rb.size);
		cc.rc |= MPI_Scatter(base(&cc.rb), (int)cc.send_count, S->handle, MPI_IN_PLACE,
				     (int)cc.recv_count, R->handle, cc.root, comm);
		expect(&cc.rb, S, cc.send_count * n, 0, rank, 0);
		return;
	}
	recv_buffer(&cc.rb, R, cc.recv_count);
	cc.rc |= MPI_Scatter(base(&cc.sb), (int)cc.send_count, S->handle, base(&cc.rb),
			     (int)cc.recv_count, R->handle, cc.root, comm);
	expect(&cc.rb, R, cc.recv_count, 0, cc.root, message_start(rank));
}

/* Gather, Allgather and Alltoall. */
static void run_gather(void)
{
	struct type *S = cc.send, *R = cc.recv;
	int n = nproc, blocks = cc.op == O_ALLTOALL ? n : 1, i;
	int here = cc.op != O_GATHER || rank == cc.root, inplace = cc.inplace && here;
	long ex = extent_of(R);
	MPI_Request req;
	void *sbuf;

	send_buffer(S, cc.send_count * blocks);
	if (here)
		recv_buffer(&cc.rb, R, cc.recv_count * n);
	if (inplace && cc.op == O_ALLTOALL)
		fill(&cc.rb, R, cc.recv_count * n, 0, rank);
	else if (inplace)
		fill(&cc.rb, R, cc.recv_count, rank * cc.recv_count * ex, rank);
	sbuf = inplace ? MPI_IN_PLACE : base(&cc.sb);
	if (cc.op == O_GATHER) {
		cc.rc |= MPI_Gather(sbuf, (int)cc.send_count, S->handle, base(&cc.rb),
				    (int)cc.recv_count, R->handle, cc.root, comm);
	} else if (cc.op == O_ALLGATHER && rand_below(2)) {
		cc.rc |= MPI_Iallgather(sbuf, (int)cc.send_count, S->handle, base(&cc.rb),
					(int)cc.recv_count, R->handle, comm, &req);
		wait_for(&req);
	} else if (cc.op == O_ALLGATHER) {
		cc.rc |= MPI_Allgather(sbuf, (int)cc.send_count, S->handle, base(&cc.rb),
				       (int)cc.recv_count, R->handle, comm);
	} else if (inplace) {
		cc.rc |= MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, base(&cc.rb),
				      (int)cc.recv_count, R->handle, comm);
	} else if (rand_below(2)) {
		cc.rc |= MPI_Alltoall(sbuf, (int)cc.send_count, S->handle, base(&cc.rb),
				      (int)cc.recv_count, R->handle, comm);
	} else {
		cc.rc |= MPI_Ialltoall(sbuf, (int)cc.send_count, S->handle, base(&cc.rb),
				       (int)cc.recv_count, R->handle, comm, &req);
		wait_for(&req);
	}
	if (here)
		for (i = 0; i < n; i++)
			expect(&cc.rb, R, cc.recv_count, i * cc.recv_count * ex, i,
			       cc.op == O_ALLTOALL ? message_start(rank) : 0);
}

/* Blocks at displacements (in elements) in random order with gaps. */
static long layout(int *disp, const int *count)
{
	long order[64], pos = 0;
	int q, i;

	for (i = 0; i < nproc; i++)
		order[i] = i;
	shuffle(order, nproc);
	for (q = 0; q < nproc; q++) {
		i = order[q];
		disp[i] = pos;
		pos += count[i] + rand_below(3);
	}
	return pos;
}


static void alloc_for(struct buf *b, const struct type *t, long count)
{
	long lo = 0, hi = 0;

	footprint(t, count, 0, &lo, &hi);
	buf_alloc(b, lo, hi);
}

/* Fills blocks in rank order from one stream, as a sender of a v-collective does. */
static void fill_blocks(struct buf *b, const struct type *t, const int *count,
			const int *disp)
{
	int i;

	data_rng = stream_state(rank, 0);
	for (i = 0; i < nproc; i++)
		fill_more(b, t, count[i], disp[i] * extent_of(t));
}

/* Where rank from's message to rank to starts in from's stream. */
static long vector_start(const int *uc, int from, int to)
{
	long start = 0;
	int j;

	for (j = 0; j < to; j++)
		start += (long)uc[from * nproc + j] * cc.lcm * cc.unit.n;
	return start;
}

/* Gatherv, Scatterv, Allgatherv, Alltoallv. */
static void run_vector_coll(void)
{
	struct type *S = cc.send, *R = cc.recv;
	int n = nproc, L = cc.lcm, op = cc.op, root = cc.root, i, j, inplace, here, mine;
	int *uc = malloc(sizeof(int) * n * n);	/* uc[i * n + j] * L units from i to j */
	int scount[64] = { 0 }, sdisp[64], rcount[64] = { 0 }, rdisp[64];
	long ex = extent_of(R), smax, rmax;
	MPI_Request req;
	void *sbuf;

	for (i = 0; i < n * n; i++)
		uc[i] = rand_below(4) == 0 ? 0 : rand_range(0, cc.count + 1);
	if (op == O_ALLGATHERV)
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++)
				uc[i * n + j] = uc[i * n];
	for (i = 0; i < n; i++) {
		int to = op == O_GATHERV ? root : op == O_ALLGATHERV ? 0 : rank;

		rcount[i] = uc[i * n + to] * L / cc.kr;
		scount[i] = uc[(op == O_SCATTERV ? root : rank) * n + i] * L / cc.ks;
	}
	rmax = layout(rdisp, rcount);
	smax = layout(sdisp, scount);
	if (op == O_ALLTOALLV) {
		alloc_for(&cc.sb, S, smax);
		alloc_for(&cc.rb, R, rmax);
		noise(&cc.sb);
		fill_blocks(&cc.sb, S, scount, sdisp);
		keep_sent();
		for (i = 0; i < n; i++)
			mark(&cc.rb, R, rcount[i], rdisp[i] * ex);
		inplace = cc.inplace && cc.kr == cc.ks;
		for (i = 0; i < n; i++)
			if (rcount[i] != scount[i])
				inplace = 0;
		if (inplace) {
			fill_blocks(&cc.rb, R, rcount, rdisp);
			cc.rc |= MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL,
					       base(&cc.rb), rcount, rdisp, R->handle, comm);
		} else if (rand_below(2)) {
			cc.rc |= MPI_Alltoallv(base(&cc.sb), scount, sdisp, S->handle, base(&cc.rb),
					       rcount, rdisp, R->handle, comm);
		} else {
			cc.rc |= MPI_Ialltoallv(base(&cc.sb), scount, sdisp, S->handle,
						base(&cc.rb), rcount, rdisp, R->handle, comm, &req);
			wait_for(&req);
		}
		for (i = 0; i < n; i++)
			expect(&cc.rb, R, rcount[i], rdisp[i] * ex, i, vector_start(uc, i, rank));
	} else if (op == O_SCATTERV) {
		if (rank == root) {
			alloc_for(&cc.sb, S, smax);
			noise(&cc.sb);
			fill_blocks(&cc.sb, S, scount, sdisp);
			keep_sent();
		}
		mine = uc[root * n + rank] * L / cc.kr;
		recv_buffer(&cc.rb, R, mine);
		cc.rc |= MPI_Scatterv(base(&cc.sb), scount, sdisp, S->handle, base(&cc.rb), mine,
				      R->handle, root, comm);
		expect(&cc.rb, R, mine, 0, root, vector_start(uc, root, rank));
	} else {
		here = op == O_ALLGATHERV || rank == root;
		mine = uc[rank * n + (op == O_GATHERV ? root : 0)] * L / cc.ks;
		send_buffer(S, mine);
		if (here) {
			alloc_for(&cc.rb, R, rmax);
			for (i = 0; i < n; i++)
				mark(&cc.rb, R, rcount[i], rdisp[i] * ex);
		}
		inplace = cc.inplace && here;
		if (inplace)
			fill(&cc.rb, R, rcount[rank], rdisp[rank] * ex, rank);
		sbuf = inplace ? MPI_IN_PLACE : base(&cc.sb);
		if (op == O_GATHERV) {
			cc.rc |= MPI_Gatherv(sbuf, mine, S->handle, base(&cc.rb), rcount, rdisp,
					     R->handle, root, comm);
		} else if (rand_below(2)) {
			cc.rc |= MPI_Allgatherv(sbuf, mine, S->handle, base(&cc.rb), rcount, rdisp,
						R->handle, comm);
		} else {
			cc.rc |= MPI_Iallgatherv(sbuf, mine, S->handle, base(&cc.rb), rcount, rdisp,
						 R->handle, comm, &req);
			wait_for(&req);
		}
		if (here)
			for (i = 0; i < n; i++)
				expect(&cc.rb, R, rcount[i], rdisp[i] * ex, i, 0);
	}
	free(uc);
}

/* Each pair of ranks gets its own send and receive types. */
static void run_alltoallw(void)
{
	int n = nproc, i, j, scount[64], rcount[64], sdisp[64], rdisp[64];
	int *uc = malloc(sizeof(int) * n * n);
	struct type **ts = malloc(sizeof(*ts) * n * n), **tr = malloc(sizeof(*tr) * n * n);
	MPI_Datatype sh[64], rh[64];
	long spos = 0, rpos = 0, slo = 0, shi = 0, rlo = 0, rhi = 0, start;
	MPI_Request req;

	for (i = 0; i < n * n; i++)
		uc[i] = rand_below(4) == 0 ? 0 : rand_range(0, cc.count + 1);
	for (i = 0; i < n * n; i++) {
		ts[i] = gen_usable(&cc.unit, cc.ks, uc[i], 0);
		tr[i] = gen_usable(&cc.unit, cc.ks, uc[i], 1);
	}
	for (j = 0; j < n; j++) {
		long lo = 0, hi = 0;

		scount[j] = uc[rank * n + j];
		rcount[j] = uc[j * n + rank];
		sh[j] = ts[rank * n + j]->handle;
		rh[j] = tr[j * n + rank]->handle;
		footprint(ts[rank * n + j], scount[j], 0, &lo, &hi);
		sdisp[j] = spos - lo;
		spos += hi - lo + rand_below(8);
		lo = hi = 0;
		footprint(tr[j * n + rank], rcount[j], 0, &lo, &hi);
		rdisp[j] = rpos - lo;
		rpos += hi - lo + rand_below(8);
	}
	for (j = 0; j < n; j++) {
		footprint(ts[rank * n + j], scount[j], sdisp[j], &slo, &shi);
		footprint(tr[j * n + rank], rcount[j], rdisp[j], &rlo, &rhi);
	}
	buf_alloc(&cc.sb, slo, shi);
	noise(&cc.sb);
	data_rng = stream_state(rank, 0);
	for (j = 0; j < n; j++)
		fill_more(&cc.sb, ts[rank * n + j], scount[j], sdisp[j]);
	keep_sent();
	buf_alloc(&cc.rb, rlo, rhi);
	for (j = 0; j < n; j++)
		mark(&cc.rb, tr[j * n + rank], rcount[j], rdisp[j]);
	if (rand_below(2)) {
		cc.rc |= MPI_Alltoallw(base(&cc.sb), scount, sdisp, sh, base(&cc.rb), rcount, rdisp,
				       rh, comm);
	} else {
		cc.rc |= MPI_Ialltoallw(base(&cc.sb), scount, sdisp, sh, base(&cc.rb), rcount,
					rdisp, rh, comm, &req);
		wait_for(&req);
	}
	for (i = 0; i < n; i++) {
		for (start = 0, j = 0; j < rank; j++)
			start += (long)uc[i * n + j] * cc.ks * cc.unit.n;
		expect(&cc.rb, tr[i * n + rank], rcount[i], rdisp[i], i, start);
	}
	free(uc);
	free(ts);
	free(tr);
}

/* The exact result of ranks 0..upto in rank order, compared on the type map. */
static void check_reduction(struct buf *got, const struct type *t, long count, int upto,
			    long first)
{
	struct buf acc, next;
	long lo = 0, hi = 0, c, q;
	int r, i;

	footprint(t, count + first, 0, &lo, &hi);
	buf_alloc(&acc, lo, hi);
	fill(&acc, t, count + first, 0, 0);
	for (r = 1; r <= upto; r++) {
		buf_alloc(&next, lo, hi);
		fill(&next, t, count + first, 0, r);
		reduce_local(cc.mop, t, count + first, base(&acc), base(&next));
		buf_free(&acc);
		acc = next;
	}
	for (c = 0; c < count && !case_failed; c++)
		for (i = 0; i < t->n && !case_failed; i++) {
			char *at = base(got) + c * extent_of(t) + t->map[i].disp;
			char *want = base(&acc) + (c + first) * extent_of(t) + t->map[i].disp;

			q = first_difference(at, want, t->map[i].basic);
			if (q >= 0)
				case_fail("element %ld entry %d byte %ld: expected 0x%02x, got "
					  "0x%02x", c, i, q, want[q] & 0xff, at[q] & 0xff);
		}
	buf_free(&acc);
}

static void run_reduce_scatter(void)
{
	struct type *t = cc.recv;
	int n = nproc, per = (int)cc.send_count, *rcounts = malloc(sizeof(int) * n), i;
	long total = 0, first = 0;
	MPI_Request req;
	void *sbuf;

	for (i = 0; i < n; i++) {
		rcounts[i] = cc.op == O_RSCATTER_BLOCK ? per :
			     rand_below(4) == 0 ? 0 : rand_range(0, per + 1);
		total += rcounts[i];
		if (i < rank)
			first += rcounts[i];
	}
	alloc_for(&cc.sb, t, total);
	if (!cc.inplace)
		noise(&cc.sb);
	fill(&cc.sb, t, total, 0, rank);
	if (cc.inplace) {
		/* Only the first block is defined afterwards: the rest may change. */
		cc.rb = cc.sb;
		memset(&cc.sb, 0, sizeof cc.sb);
		mark(&cc.rb, t, total, 0);
		sbuf = MPI_IN_PLACE;
	} else {
		keep_sent();
		recv_buffer(&cc.rb, t, rcounts[rank]);
		sbuf = base(&cc.sb);
	}
	if (cc.op == O_RSCATTER_BLOCK && rand_below(2)) {
		cc.rc |= MPI_Ireduce_scatter_block(sbuf, base(&cc.rb), per, t->handle, cc.mop,
						   comm, &req);
		wait_for(&req);
	} else if (cc.op == O_RSCATTER_BLOCK) {
		cc.rc |= MPI_Reduce_scatter_block(sbuf, base(&cc.rb), per, t->handle, cc.mop,
						  comm);
	} else if (rand_below(2)) {
		cc.rc |= MPI_Ireduce_scatter(sbuf, base(&cc.rb), rcounts, t->handle, cc.mop, comm,
					     &req);
		wait_for(&req);
	} else {
		cc.rc |= MPI_Reduce_scatter(sbuf, base(&cc.rb), rcounts, t->handle, cc.mop, comm);
	}
	if (!cc.rc)
		check_reduction(&cc.rb, t, rcounts[rank], n - 1, first);
	free(rcounts);
}

/* Reduce, Allreduce, Scan, Exscan. */
static void run_reduce(void)
{
	struct type *t = cc.recv;
	long count = cc.send_count;
	int op = cc.op, here = op != O_REDUCE || rank == cc.root, nonblocking = rand_below(2);
	int inplace = cc.inplace && here, upto;
	MPI_Request req;
	void *sbuf;

	send_buffer(t, count);
	recv_buffer(&cc.rb, t, count);
	if (inplace)
		fill(&cc.rb, t, count, 0, rank);
	sbuf = inplace ? MPI_IN_PLACE : base(&cc.sb);
	if (op == O_REDUCE && nonblocking)
		cc.rc |= MPI_Ireduce(sbuf, base(&cc.rb), count, t->handle, cc.mop, cc.root, comm,
				     &req);
	else if (op == O_REDUCE)
		cc.rc |= MPI_Reduce(sbuf, base(&cc.rb), count, t->handle, cc.mop, cc.root, comm);
	else if (op == O_ALLREDUCE && nonblocking)
		cc.rc |= MPI_Iallreduce(sbuf, base(&cc.rb), count, t->handle, cc.mop, comm, &req);
	else if (op == O_ALLREDUCE)
		cc.rc |= MPI_Allreduce(sbuf, base(&cc.rb), count, t->handle, cc.mop, comm);
	else if (op == O_SCAN && nonblocking)
		cc.rc |= MPI_Iscan(sbuf, base(&cc.rb), count, t->handle, cc.mop, comm, &req);
	else if (op == O_SCAN)
		cc.rc |= MPI_Scan(sbuf, base(&cc.rb), count, t->handle, cc.mop, comm);
	else if (nonblocking)
		cc.rc |= MPI_Iexscan(sbuf, base(&cc.rb), count, t->handle, cc.mop, comm, &req);
	else
		cc.rc |= MPI_Exscan(sbuf, base(&cc.rb), count, t->handle, cc.mop, comm);
	if (nonblocking)
		wait_for(&req);
	/* Exscan leaves rank 0's buffer undefined. */
	upto = op == O_SCAN ? rank : op == O_EXSCAN ? rank - 1 : nproc - 1;
	if (!cc.rc && here && upto >= 0)
		check_reduction(&cc.rb, t, count, upto, 0);
}

static void run_pack(void)
{
	struct type *S = cc.send, *R = cc.recv;
	int pre = rand_below(8), size, pos = pre, upos = pre, half;
	MPI_Aint xsize, xpos = pre, xupos = pre;
	char *packed;

	send_buffer(S, cc.send_count);
	recv_buffer(&cc.rb, R, cc.recv_count);
	if (cc.op == O_PACK) {
		MPI_Pack_size((int)cc.send_count, S->handle, comm, &size);
		packed = malloc(size + pre + 16);
		cc.rc |= MPI_Pack(base(&cc.sb), (int)cc.send_count, S->handle, packed, size + pre,
				  &pos, comm);
		/* Unpacking in two pieces resumes in the middle of the stream. */
		if (cc.recv_count > 1 && rand_below(2)) {
			half = cc.recv_count / 2;
			cc.rc |= MPI_Unpack(packed, pos, &upos, base(&cc.rb), half, R->handle,
					    comm);
			cc.rc |= MPI_Unpack(packed, pos, &upos, base(&cc.rb) + half * extent_of(R),
					    (int)(cc.recv_count - half), R->handle, comm);
		} else {
			cc.rc |= MPI_Unpack(packed, pos, &upos, base(&cc.rb), (int)cc.recv_count,
					    R->handle, comm);
		}
		if (upos != pos)
			case_fail("unpack ended at %d, pack at %d", upos, pos);
	} else {
		MPI_Pack_external_size("external32", (int)cc.send_count, S->handle, &xsize);
		packed = malloc(xsize + pre + 16);
		cc.rc |= MPI_Pack_external("external32", base(&cc.sb), (int)cc.send_count,
					   S->handle, packed, xsize + pre, &xpos);
		cc.rc |= MPI_Unpack_external("external32", packed, xpos, &xupos, base(&cc.rb),
					     (int)cc.recv_count, R->handle);
		if (xupos != xpos)
			case_fail("unpack_external ended at %ld, pack at %ld", (long)xupos,
				  (long)xpos);
	}
	free(packed);
	expect(&cc.rb, R, cc.recv_count, 0, rank, 0);
}

/*
 * Every rank's window holds recv_count elements of the receive type, and its
 * origin send_count elements of the send type; the target is the next rank.
 * Windows hold stream nproc + rank, origins stream rank.
 */
static void run_rma(void)
{
	struct type *S = cc.send, *R = cc.recv;
	long scount = cc.send_count, rcount = cc.recv_count, disp;
	int unit = rand_below(2) ? 1 : 4, op = cc.op, sn;
	MPI_Errhandler eh;
	MPI_Datatype sh;
	MPI_Win win;
	void *sbuf;

	/* What the origin receives must not overlap itself. */
	if ((op == O_GET || op == O_GET_ACC) && overlaps(S, scount))
		scount = rcount = 0;
	if (op == O_GET)
		recv_buffer(&cc.result, S, scount);
	else
		send_buffer(S, scount);
	if (op == O_GET_ACC)
		recv_buffer(&cc.result, S, scount);
	recv_buffer(&cc.rb, R, rcount);
	if (op != O_PUT)
		fill(&cc.rb, R, rcount, 0, nproc + rank);
	disp = -cc.rb.lo;
	if (disp % unit)
		unit = 1;
	MPI_Win_create(cc.rb.bytes, cc.rb.size, unit, MPI_INFO_NULL, comm, &win);
	MPI_Win_create_errhandler(win_errors, &eh);
	MPI_Win_set_errhandler(win, eh);
	MPI_Errhandler_free(&eh);
	MPI_Win_fence(0, win);
	if (op == O_GET) {
		cc.rc |= MPI_Get(base(&cc.result), (int)scount, S->handle, cc.next, disp / unit,
				 (int)rcount, R->handle, win);
	} else {
		buffer_args(&cc.sb, S, scount, 0, &sbuf, &sn, &sh);
		if (op == O_PUT)
			cc.rc |= MPI_Put(sbuf, sn, sh, cc.next, disp / unit, (int)rcount, R->handle,
					 win);
		else if (op == O_ACC)
			cc.rc |= MPI_Accumulate(sbuf, sn, sh, cc.next, disp / unit, (int)rcount,
						R->handle, cc.mop, win);
		else
			cc.rc |= MPI_Get_accumulate(sbuf, sn, sh, base(&cc.result), (int)scount,
						    S->handle, cc.next, disp / unit, (int)rcount,
						    R->handle, cc.mop, win);
	}
	MPI_Win_fence(0, win);
	MPI_Win_free(&win);
	if (op == O_PUT)
		expect(&cc.rb, R, rcount, 0, cc.prev, 0);
	if (op == O_GET || op == O_GET_ACC)
		expect(&cc.result, S, scount, 0, nproc + cc.next, 0);
	if (op == O_ACC || op == O_GET_ACC) {
		expect(&cc.rb, R, rcount, 0, cc.prev, 0);
		checks[nchecks - 1].target_stream = nproc + rank;
		checks[nchecks - 1].op = cc.mop;
	}
}

/* Draws the case: the same on every rank. */
static void draw_case(long seed, int case_no)
{
	static const MPI_Op ops[] = {
		MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN, MPI_BAND, MPI_BOR, MPI_BXOR, MPI_REPLACE
	};
	static const char *names[] = { "sum", "prod", "max", "min", "band", "bor", "bxor",
				       "replace" };
	int op, reduction, rma_acc, use = SIG_ANY, i;
	long unit_size = 0, span;

	case_rng = (uint64_t)seed * 1000003ULL + case_no * 7919ULL + 12345;
	noise_rng = case_rng ^ (uint64_t)rank << 40;
	memset(&cc, 0, sizeof cc);
	op = cc.op = rand_below(NOPS);
	cc.big = rand_below(8) == 0;
	reduction = op >= O_REDUCE && op <= O_RSCATTER_BLOCK;
	rma_acc = op == O_ACC || op == O_GET_ACC;
	if (reduction) {
		int r = rand_below(10);

		use = r < 4 ? SIG_PREDEFINED_OP : r < 5 ? SIG_PAIR : SIG_USER_OP;
	}
	if (rma_acc)
		use = SIG_PREDEFINED_OP;
	gen_signature(&cc.unit, use);
	value_mode = 0;
	cc.mop = MPI_SUM;
	cc.mop_name = "sum";
	if (use == SIG_PREDEFINED_OP) {
		i = rand_below(rma_acc ? 8 : 7);
		/* No bitwise ops on floats. */
		if (basics[cc.unit.basic[0]].kind == K_FLOAT && i >= 4 && i < 7)
			i = rand_below(4);
		cc.mop = ops[i];
		cc.mop_name = names[i];
		/* Get_accumulate's product stands for MPI_NO_OP (a fetch). */
		if (op == O_GET_ACC && i == 1) {
			cc.mop = MPI_NO_OP;
			cc.mop_name = "no_op";
		}
		value_mode = i == 1 || basics[cc.unit.basic[0]].kind == K_FLOAT;
	} else if (use == SIG_PAIR) {
		cc.mop = rand_below(2) ? MPI_MAXLOC : MPI_MINLOC;
		cc.mop_name = cc.mop == MPI_MAXLOC ? "maxloc" : "minloc";
	} else if (use == SIG_USER_OP) {
		cc.mop = rand_below(2) ? op_noncommutative : op_commutative;
		cc.mop_name = cc.mop == op_commutative ? "user_commutative" :
			      "user_noncommutative";
	}
	for (i = 0; i < cc.unit.n; i++)
		unit_size += basics[cc.unit.basic[i]].size;
	cc.ks = rand_range(1, 3);
	cc.kr = rand_range(1, 3);
	if (reduction || op == O_SRREPLACE || op == O_ALLTOALLW || rand_below(3) == 0)
		cc.kr = cc.ks;
	cc.lcm = cc.ks * cc.kr / gcd(cc.ks, cc.kr);
	cc.count = pick_count(cc.big, unit_size * cc.lcm);
	cc.units = cc.count * cc.lcm;
	cc.send_count = cc.units / cc.ks;
	cc.recv_count = cc.units / cc.kr;
	cc.inplace = rand_below(4) == 0;
	cc.bottom = op <= O_SSEND && op != O_SRREPLACE && rand_below(6) == 0;
	/* A buffer of one block per rank must not overlap itself either. */
	span = cc.recv_count;
	if (op >= O_GATHER && op <= O_ALLTOALLV && op != O_SCATTER && op != O_SCATTERV)
		span = (cc.recv_count + cc.lcm) * nproc + 3 * nproc;
	if (op == O_RSCATTER || op == O_RSCATTER_BLOCK)
		span = (cc.recv_count + 1) * nproc;
	if (reduction || op == O_SRREPLACE) {
		cc.recv = cc.send = gen_usable(&cc.unit, cc.ks, span, 1);
		cc.recv_count = cc.send_count;
	} else {
		cc.send = gen_usable(&cc.unit, cc.ks, cc.send_count, 0);
		cc.recv = gen_usable(&cc.unit, cc.kr, span, 1);
	}
	cc.root = rand_below(nproc);
	cc.next = (rank + 1) % nproc;
	cc.prev = (rank + nproc - 1) % nproc;
}

static void run_case(long seed, int case_no, int describe)
{
	int keep = nregistry, family, overlap, i;
	char msg[MPI_MAX_ERROR_STRING];

	run_seed = seed;
	run_case_no = case_no;
	model_mismatch = unknown_datatype = case_failed = layout_overlaps = nchecks = 0;
	first_error = 0;
	draw_case(seed, case_no);
	family = family_of(cc.op);
	if (describe && rank == 0)
		fprintf(stderr, "seed %ld case %d: %s %s, %ld x %s -> %ld x %s, in place %d, "
			"bottom %d, root %d\n", seed, case_no, op_names[cc.op], cc.mop_name,
			cc.send_count, cc.send->desc, cc.recv_count, cc.recv->desc, cc.inplace,
			cc.bottom, cc.root);
	if (cc.op <= O_SSEND)
		run_p2p();
	else if (cc.op <= O_IBCAST)
		run_bcast();
	else if (cc.op == O_SCATTER)
		run_scatter();
	else if (cc.op == O_GATHER || cc.op == O_ALLGATHER || cc.op == O_ALLTOALL)
		run_gather();
	else if (cc.op <= O_ALLTOALLV)
		run_vector_coll();
	else if (cc.op == O_ALLTOALLW)
		run_alltoallw();
	else if (cc.op <= O_EXSCAN)
		run_reduce();
	else if (cc.op <= O_RSCATTER_BLOCK)
		run_reduce_scatter();
	else if (cc.op <= O_PACK_EXTERNAL)
		run_pack();
	else
		run_rma();
	/* Values that overwrite each other have no order to check against. */
	overlap = layout_overlaps;
	MPI_Allreduce(MPI_IN_PLACE, &overlap, 1, MPI_INT, MPI_MAX, comm);
	if (!cc.rc && !overlap)
		for (i = 0; i < nchecks && !case_failed; i++)
			run_check(&checks[i]);
	if (cc.rc) {
		int len;

		MPI_Error_string(first_error ? first_error : cc.rc, msg, &len);
		case_fail("error: %s", msg);
	}
	if (unknown_datatype)
		case_fail("a user op got a datatype the program did not make");
	if (changed_holes(&cc.rb))
		case_fail("%ld bytes outside the receive type map changed", changed_holes(&cc.rb));
	if (cc.result.bytes && changed_holes(&cc.result))
		case_fail("%ld bytes outside the result type map changed",
			  changed_holes(&cc.result));
	if (cc.sent && cc.sb.bytes && memcmp(cc.sent, cc.sb.bytes, cc.sb.size))
		case_fail("the send buffer changed");
	free(cc.sent);
	if (model_mismatch && !family_why[F_TYPES][0])
		snprintf(family_why[F_TYPES], MPIT_MSG, "seed %ld case %d: %d types differ from "
			 "the model (details on stderr)", seed, case_no, model_mismatch);
	if (case_failed && !family_why[family][0])
		snprintf(family_why[family], MPIT_MSG, "seed %ld case %d %s %s: %.150s", seed,
			 case_no, op_names[cc.op], cc.mop_name, case_why);
	for (i = 0; i < 2; i++)
		if (absolute_types[i] != MPI_DATATYPE_NULL)
			MPI_Type_free(&absolute_types[i]);
	buf_free(&cc.sb);
	buf_free(&cc.rb);
	buf_free(&cc.result);
	free_types_from(keep);
}

int main(int argc, char **argv)
{
	long seed0 = 1, nseeds = DEFAULT_SEEDS, seed;
	int ncases = DEFAULT_CASES, only = -1, c, i;
	MPI_Errhandler eh;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nproc);
	if (nproc > 64) {
		fprintf(stderr, "mpit_fuzz: at most 64 ranks\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	/* Errors come back as codes, to be reported with the case that made them. */
	MPI_Comm_dup(MPI_COMM_WORLD, &comm);
	MPI_Comm_create_errhandler(comm_errors, &eh);
	MPI_Comm_set_errhandler(comm, eh);
	MPI_Comm_set_errhandler(MPI_COMM_SELF, eh);
	MPI_Errhandler_free(&eh);
	if (argc > 1)
		seed0 = atol(argv[1]);
	if (argc > 2)
		nseeds = atol(argv[2]);
	if (argc > 3)
		ncases = atoi(argv[3]);
	if (argc > 4)
		only = atoi(argv[4]);
	absolute_types[0] = absolute_types[1] = MPI_DATATYPE_NULL;
	init_basics();
	for (i = 0; i < nbasics; i++)
		basic_types[i] = make_basic(i);
	MPI_Op_create(user_commutative, 1, &op_commutative);
	MPI_Op_create(user_noncommutative, 0, &op_noncommutative);
	for (seed = seed0; seed < seed0 + nseeds; seed++)
		for (c = 0; c < ncases; c++)
			if (only < 0 || c == only)
				run_case(seed, c, only >= 0);
	for (i = 0; i < NFAMILIES; i++) {
		if (family_why[i][0])
			mpit_fail("%s", family_why[i]);
		mpit_report(family_names[i]);
	}
	MPI_Op_free(&op_commutative);
	MPI_Op_free(&op_noncommutative);
	MPI_Comm_free(&comm);
	MPI_Finalize();
	return 0;
}
