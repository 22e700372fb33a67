/*
 * dt.c - the datatype engine (see dt.h).
 *
 * Constructors copy their children's nodes into the new layout (children
 * are immutable, so sharing would only save memory) and collapse anything
 * that is really one contiguous run into a LEAF, so contiguous data of any
 * construction costs one memcpy.
 */
#include <stdlib.h>
#include <string.h>
#include "dt.h"
#include "../../kernel/include/copy_piece.h"

static struct dt_block *dt_blocks_of(const struct dt *t)
{
	return (struct dt_block *)&t->node[t->nnodes];
}

static struct dt *dt_alloc(uint32_t nnodes, uint32_t nblocks)
{
	size_t bytes = sizeof(struct dt) + nnodes * sizeof(struct dt_node) +
		       nblocks * sizeof(struct dt_block);
	struct dt *t = calloc(1, bytes);

	if (!t)
		return NULL;
	t->bytes = bytes;
	t->nnodes = nnodes;
	t->nblocks = nblocks;
	return t;
}

/* Copies child's nodes and blocks to t at (nodes, blocks), relocating the
 * indices; returns the index of the child's root inside t. */
static uint32_t dt_graft(struct dt *t, uint32_t nodes, uint32_t blocks,
			 const struct dt *child)
{
	const struct dt_block *cb = dt_blocks_of(child);
	struct dt_block *tb = dt_blocks_of(t);
	uint32_t i;

	for (i = 0; i < child->nnodes; i++) {
		struct dt_node *n = &t->node[nodes + i];

		*n = child->node[i];
		if (n->kind == DT_VECTOR)
			n->child += nodes;
		else if (n->kind == DT_BLOCKS)
			n->child += blocks;
	}
	for (i = 0; i < child->nblocks; i++) {
		tb[blocks + i] = cb[i];
		tb[blocks + i].child += nodes;
	}
	return nodes + child->nnodes - 1;
}

static int dt_node_dense(const struct dt_node *n)
{
	return n->kind == DT_LEAF && n->off == 0 && n->lb == 0 && n->extent == n->size;
}

/* One bound of the union of the typemaps seen so far: marked candidates
 * win over unmarked ones. */
struct dt_bound {
	int any, marked;
	int64_t v;
};

struct dt_bounds {
	struct dt_bound lb, ub;
	int anydata;
	int64_t true_lb, true_ub;
};

static void dt_bound_take(struct dt_bound *b, int64_t v, int marked, int lower)
{
	if (b->any && marked < b->marked)
		return;
	if (!b->any || marked > b->marked || (lower ? v < b->v : v > b->v))
		b->v = v;
	b->any = 1;
	b->marked = marked;
}

/* Adds blocklen elements of c starting at disp. */
static void dt_bounds_add(struct dt_bounds *b, const struct dt_node *c,
			  int64_t disp, int64_t blocklen)
{
	int64_t last = disp + (blocklen - 1) * c->extent;
	int64_t lo = disp < last ? disp : last;
	int64_t hi = disp < last ? last : disp;

	if (blocklen <= 0)
		return;
	if (!(c->marks & DT_NO_LB))
		dt_bound_take(&b->lb, lo + c->lb, !!(c->marks & DT_LB_MARK), 1);
	if (!(c->marks & DT_NO_UB))
		dt_bound_take(&b->ub, hi + c->lb + c->extent, !!(c->marks & DT_UB_MARK), 0);
	if (c->size == 0)
		return;
	if (!b->anydata || lo + c->true_lb < b->true_lb)
		b->true_lb = lo + c->true_lb;
	if (!b->anydata || hi + c->true_ub > b->true_ub)
		b->true_ub = hi + c->true_ub;
	b->anydata = 1;
}

static void dt_bounds_set(struct dt_node *n, const struct dt_bounds *b)
{
	n->lb = b->lb.any ? b->lb.v : 0;
	n->extent = (b->ub.any ? b->ub.v : 0) - n->lb;
	n->marks = (b->lb.marked ? DT_LB_MARK : 0) | (b->ub.marked ? DT_UB_MARK : 0) |
		   (b->lb.any ? 0 : DT_NO_LB) | (b->ub.any ? 0 : DT_NO_UB);
	n->true_lb = b->anydata ? b->true_lb : 0;
	n->true_ub = b->anydata ? b->true_ub : 0;
}

struct dt *dt_basic_ext(uint32_t size, uint32_t align, uint32_t ext)
{
	struct dt *t = dt_alloc(1, 0);
	struct dt_node *n;

	if (!t)
		return NULL;
	n = &t->node[0];
	n->kind = DT_LEAF;
	n->basic = size;
	n->align = align;
	n->size = size;
	n->nbasic = 1;
	n->extent = size;
	n->true_ub = size;
	n->ext = ext;
	n->xsize = DT_EXT_UNIT(ext) ? size / DT_EXT_UNIT(ext) * dt_ext_bytes(ext) : 0;
	return t;
}

struct dt *dt_basic(uint32_t size, uint32_t align)
{
	return dt_basic_ext(size, align, DT_EXT(DT_X_SWAP, size));
}

/* Turns the finished root n into a LEAF when its data is one run of the
 * dense child c starting at off. */
static void dt_collapse(struct dt_node *n, const struct dt_node *c, int64_t off)
{
	n->kind = DT_LEAF;
	n->basic = c->basic;
	n->ext = c->ext;
	n->child = 0;
	n->count = 0;
	n->blocklen = 0;
	n->stride = 0;
	n->off = off;
	n->depth = 0;
}

struct dt *dt_vector(int64_t count, int64_t blocklen, int64_t stride,
		     const struct dt *child)
{
	const struct dt_node *c = dt_root(child);
	struct dt_bounds b = { 0 };
	struct dt *t = dt_alloc(child->nnodes + 1, child->nblocks);
	struct dt_node *n;

	if (!t)
		return NULL;
	n = &t->node[t->nnodes - 1];
	n->kind = DT_VECTOR;
	n->child = dt_graft(t, 0, 0, child);
	n->count = count;
	n->blocklen = blocklen;
	n->stride = stride;
	n->align = c->align;
	n->size = count * blocklen * c->size;
	n->nbasic = count * blocklen * c->nbasic;
	n->xsize = count * blocklen * c->xsize;
	n->depth = c->depth + 1;
	if (count > 0) {
		dt_bounds_add(&b, c, 0, blocklen);
		dt_bounds_add(&b, c, (count - 1) * stride, blocklen);
	}
	dt_bounds_set(n, &b);
	if (dt_node_dense(c) && (count <= 1 || stride == blocklen * c->size))
		dt_collapse(n, c, 0);
	return t;
}

struct dt *dt_blocks(int64_t count, const int64_t *blocklen,
		     const int64_t *disp, const struct dt *const *child, int pad)
{
	uint32_t nnodes = 1, nblocks = count, *root;
	struct dt_bounds b = { 0 };
	struct dt_block *tb;
	struct dt_node *n;
	struct dt *t;
	int64_t i, next;
	int dense = 1;

	for (i = 0; i < count; i++) {
		if (i > 0 && child[i] == child[i - 1])
			continue;
		nnodes += child[i]->nnodes;
		nblocks += child[i]->nblocks;
	}
	t = dt_alloc(nnodes, nblocks);
	root = malloc((count ? count : 1) * sizeof *root);
	if (!t || !root) {
		free(t);
		free(root);
		return NULL;
	}
	n = &t->node[nnodes - 1];
	n->kind = DT_BLOCKS;
	n->child = 0;
	n->count = count;
	n->align = 1;
	nnodes = 0;
	nblocks = count;
	for (i = 0; i < count; i++) {
		if (i > 0 && child[i] == child[i - 1]) {
			root[i] = root[i - 1];
			continue;
		}
		root[i] = dt_graft(t, nnodes, nblocks, child[i]);
		nnodes += child[i]->nnodes;
		nblocks += child[i]->nblocks;
	}
	tb = dt_blocks_of(t);
	next = count ? disp[0] : 0;
	for (i = 0; i < count; i++) {
		const struct dt_node *c = &t->node[root[i]];

		tb[i].disp = disp[i];
		tb[i].blocklen = blocklen[i];
		tb[i].child = root[i];
		n->size += blocklen[i] * c->size;
		n->nbasic += blocklen[i] * c->nbasic;
		n->xsize += blocklen[i] * c->xsize;
		if (c->align > n->align)
			n->align = c->align;
		if (c->depth + 1 > n->depth)
			n->depth = c->depth + 1;
		dt_bounds_add(&b, c, disp[i], blocklen[i]);
		if (!dt_node_dense(c) || disp[i] != next || c->basic != t->node[root[0]].basic ||
		    c->ext != t->node[root[0]].ext)
			dense = 0;
		next = disp[i] + blocklen[i] * c->size;
	}
	dt_bounds_set(n, &b);
	if (pad && !(n->marks & DT_UB_MARK) && n->align > 1 && n->extent % n->align)
		n->extent += n->align - n->extent % n->align;
	if (count > 0 && dense)
		dt_collapse(n, &t->node[root[0]], disp[0]);
	else if (count == 0)
		dt_collapse(n, n, 0);
	free(root);
	return t;
}

struct dt *dt_resized(const struct dt *child, int64_t lb, int64_t extent)
{
	struct dt *t = malloc(child->bytes);
	struct dt_node *n;

	if (!t)
		return NULL;
	memcpy(t, child, child->bytes);
	n = &t->node[t->nnodes - 1];
	n->lb = lb;
	n->extent = extent;
	n->align = 1;
	n->marks = DT_LB_MARK | DT_UB_MARK;
	return t;
}

struct dt *dt_marker(int upper)
{
	struct dt *t = dt_basic(0, 1);

	if (t) {
		t->node[0].basic = 1;	/* an empty run of bytes */
		t->node[0].ext = DT_EXT(DT_X_SWAP, 1);
		t->node[0].marks = upper ? DT_UB_MARK | DT_NO_LB : DT_LB_MARK | DT_NO_UB;
	}
	return t;
}

void dt_cursor_init(struct dt_cursor *c, const struct dt *t, const void *buf,
		    int64_t count)
{
	c->t = t;
	c->buf = (uintptr_t)buf;
	c->count = count;
	c->elem = 0;
	c->p = NULL;
	c->left = 0;
	c->basic = 1;
	c->depth = 0;
}

void dt_cursor_bytes(struct dt_cursor *c, const void *buf, size_t len)
{
	c->t = NULL;
	c->count = 0;
	c->elem = 0;
	c->p = (char *)buf;
	c->left = len;
	c->basic = 1;
	c->depth = 0;
}

static void dt_run(struct dt_cursor *c, uintptr_t at, const struct dt_node *leaf,
		   int64_t n)
{
	c->p = (char *)(at + leaf->off);
	c->left = n * leaf->size;
	c->basic = leaf->basic;
}

/* Makes c->left non-zero; 0 when the data is exhausted. */
static int dt_fill(struct dt_cursor *c)
{
	const struct dt_node *nodes, *n, *ch;
	const struct dt_block *bl;
	struct dt_frame *f;
	int64_t blen;
	uintptr_t at;

	while (c->left == 0) {
		if (c->depth == 0) {
			if (c->elem >= c->count)
				return 0;
			n = dt_root(c->t);
			at = c->buf + c->elem * n->extent;
			if (n->kind == DT_LEAF) {
				int64_t k = n->extent == n->size ? c->count - c->elem : 1;

				dt_run(c, at, n, k);
				c->elem += k;
				continue;
			}
			c->elem++;
			f = &c->f[c->depth++];
			f->n = n;
			f->i = f->j = 0;
			f->base = at;
			continue;
		}
		f = &c->f[c->depth - 1];
		n = f->n;
		if (f->i >= n->count) {
			c->depth--;
			continue;
		}
		nodes = c->t->node;
		if (n->kind == DT_VECTOR) {
			ch = &nodes[n->child];
			blen = n->blocklen;
			at = f->base + f->i * n->stride;
		} else {
			bl = dt_blocks_of(c->t) + n->child + f->i;
			ch = &nodes[bl->child];
			blen = bl->blocklen;
			at = f->base + bl->disp;
		}
		if (f->j >= blen) {
			f->i++;
			f->j = 0;
			continue;
		}
		at += f->j * ch->extent;
		if (ch->kind == DT_LEAF) {
			int64_t k = ch->extent == ch->size ? blen - f->j : 1;

			dt_run(c, at, ch, k);
			/* on to the next block now: one pass less per run */
			f->j += k;
			if (f->j >= blen) {
				f->i++;
				f->j = 0;
			}
			continue;
		}
		f->j++;
		f = &c->f[c->depth++];
		f->n = ch;
		f->i = f->j = 0;
		f->base = at;
	}
	return 1;
}

#define DT_SEGS_MAX	65536

/* Segments as they are found: counted (seg NULL), then written. */
struct dt_segs_out {
	struct dt_seg *seg;
	uint64_t n, visits;
	struct dt_seg last;
};

static int dt_seg_add(struct dt_segs_out *o, int64_t off, uint64_t len, int64_t stride,
		      uint64_t count)
{
	if (!len || !count)
		return 0;
	/* Adjacent pieces merge, but not two small ones: kept apart, a row of
	 * small pieces of one length makes a DT_SEG_LIST, which moves them at
	 * a load each, where a run of varying small lengths costs a branchy
	 * copy_piece a piece. */
	if (count == 1 && o->n && o->last.count == 1 && o->last.off + (int64_t)o->last.len == off &&
	    (len > 16 || o->last.len > 16)) {
		o->last.len += len;
	} else {
		if (o->n >= DT_SEGS_MAX)
			return -1;
		o->last = (struct dt_seg){ off, len, stride, count };
		o->n++;
	}
	if (o->seg)
		o->seg[o->n - 1] = o->last;
	return 0;
}

static int dt_leaf_dense(const struct dt_node *n)
{
	return n->kind == DT_LEAF && n->extent == n->size;
}

/* The segments of node n's element at base; -1 when there are too many,
 * or too many pieces to look at (merging can keep a long walk's list
 * short: such a walk is left to the cursor). */
static int dt_segs_emit(const struct dt *t, const struct dt_node *n, int64_t base,
			struct dt_segs_out *o)
{
	const struct dt_node *c;
	int64_t i, j;

	if (++o->visits > 4 * DT_SEGS_MAX)
		return -1;
	if (n->kind == DT_LEAF)
		return dt_seg_add(o, base + n->off, (uint64_t)n->size, 0, 1);
	if (n->kind == DT_VECTOR) {
		c = &t->node[n->child];
		if (dt_leaf_dense(c))
			return dt_seg_add(o, base + c->off, (uint64_t)(n->blocklen * c->size),
					  n->stride, (uint64_t)n->count);
		for (i = 0; i < n->count; i++)
			for (j = 0; j < n->blocklen; j++)
				if (dt_segs_emit(t, c, base + i * n->stride + j * c->extent, o))
					return -1;
		return 0;
	}
	for (i = 0; i < n->count; i++) {
		const struct dt_block *b = dt_blocks_of(t) + n->child + i;

		c = &t->node[b->child];
		if (dt_leaf_dense(c)) {
			if (dt_seg_add(o, base + b->disp + c->off, (uint64_t)(b->blocklen * c->size),
				       0, 1))
				return -1;
			continue;
		}
		for (j = 0; j < b->blocklen; j++)
			if (dt_segs_emit(t, c, base + b->disp + j * c->extent, o))
				return -1;
	}
	return 0;
}

static int dt_elem_rows(const struct dt *t, uint64_t *row, uint64_t *stride, uint64_t *rows,
			int64_t *first);

/* Folds each row of at least four single pieces of one length into a
 * DT_SEG_LIST segment. */
static void dt_segs_lists(struct dt_segs *s)
{
	uint64_t i = 0, j, out = 0, noffs = 0;

	while (i < s->n) {
		const struct dt_seg *g = &s->seg[i];

		for (j = i; j < s->n && s->seg[j].count == 1 && s->seg[j].len == g->len; j++)
			dt_segs_offs(s)[noffs + j - i] = s->seg[j].off;
		if (j - i >= 4) {
			s->seg[out++] = (struct dt_seg){ (int64_t)noffs, g->len, DT_SEG_LIST, j - i };
			noffs += j - i;
			i = j;
		} else {
			s->seg[out++] = s->seg[i++];
		}
	}
	s->n = out;
}

struct dt_segs *dt_segments(const struct dt *t)
{
	struct dt_segs_out o = { 0 };
	uint64_t row, stride, rows;
	struct dt_segs *s;
	int64_t first;

	if (dt_is_dense(t) || dt_root(t)->size == 0 ||
	    dt_elem_rows(t, &row, &stride, &rows, &first) || dt_segs_emit(t, dt_root(t), 0, &o))
		return NULL;
	s = malloc(sizeof *s + o.n * (sizeof(struct dt_seg) + sizeof(int64_t)));
	if (!s)
		return NULL;
	s->n = s->cap = o.n;
	o = (struct dt_segs_out){ .seg = s->seg };
	dt_segs_emit(t, dt_root(t), 0, &o);
	dt_segs_lists(s);
	return s;
}

/*
 * k pieces of len bytes between a layout, piece r at PIECE(r), and the
 * contiguous bytes at q: one move each for the common sizes.  scatter is
 * the same for the whole loop, so the branch costs next to nothing.
 */
#define DT_MOVE(T, PIECE) do { \
	T v_; \
	for (r = 0; r < k; r++) { \
		if (scatter) { \
			memcpy(&v_, q + r * sizeof v_, sizeof v_); \
			memcpy(PIECE(r), &v_, sizeof v_); \
		} else { \
			memcpy(&v_, PIECE(r), sizeof v_); \
			memcpy(q + r * sizeof v_, &v_, sizeof v_); \
		} \
	} \
} while (0)
#define DT_PIECES(PIECE) do { \
	if (len == 8) \
		DT_MOVE(uint64_t, PIECE); \
	else if (len == 4) \
		DT_MOVE(uint32_t, PIECE); \
	else \
		for (r = 0; r < k; r++) { \
			if (scatter) \
				copy_piece(PIECE(r), q + r * len, len); \
			else \
				copy_piece(q + r * len, PIECE(r), len); \
		} \
	if (k < g->count && (k + 1) * len > room) { /* the last piece, cut by max */ \
		if (scatter) \
			copy_piece(PIECE(k), q + k * len, room - k * len); \
		else \
			copy_piece(q + k * len, PIECE(k), room - k * len); \
	} \
} while (0)
#define DT_LISTED(r)	(base + offs[r])
#define DT_STRIDED(r)	(at + (r) * g->stride)

/*
 * count elements of a layout with segments at buf, from or to contiguous
 * bytes at p: gathers into p, or scatters from p, up to max bytes.
 */
static size_t dt_segs_copy(const struct dt_segs *sg, int64_t extent, int64_t count, char *buf,
			   char *p, size_t max, int scatter)
{
	size_t done = 0;
	int64_t e;
	uint64_t i, r;

	for (e = 0; e < count && done < max; e++) {
		char *base = buf + e * extent;

		for (i = 0; i < sg->n && done < max; i++) {
			const struct dt_seg *g = &sg->seg[i];
			uint64_t len = g->len, k = g->count, room = max - done;
			char *q = p + done;

			if (k * len > room)
				k = room / len;
			if (g->stride == DT_SEG_LIST) {
				const int64_t *offs = dt_segs_offs(sg) + g->off;

				DT_PIECES(DT_LISTED);
			} else {
				char *at = base + g->off;

				DT_PIECES(DT_STRIDED);
			}
			done = k < g->count ? max : done + k * len;
		}
	}
	return done;
}

/* n pieces of len bytes, stride apart, from s to the same places at d (the
 * common lengths as constants, so that copy_piece is one move). */
static void dt_rows_same(char *d, const char *s, uint64_t len, int64_t stride, uint64_t n)
{
	uint64_t r;

	if (len == 8)
		for (r = 0; r < n; r++)
			copy_piece(d + (int64_t)r * stride, s + (int64_t)r * stride, 8);
	else if (len == 4)
		for (r = 0; r < n; r++)
			copy_piece(d + (int64_t)r * stride, s + (int64_t)r * stride, 4);
	else
		for (r = 0; r < n; r++)
			copy_piece(d + (int64_t)r * stride, s + (int64_t)r * stride, len);
}

/*
 * count whole elements of a layout with segments from src to the same
 * layout at dst (a reduction's results into the user's type): segment by
 * segment, a single piece's as one row over every element.  Pieces do not
 * overlap (a receive layout), so order is free.
 */
static void dt_segs_copy_same(const struct dt_segs *sg, int64_t extent, int64_t count,
			      char *dst, const char *src)
{
	for (uint64_t i = 0; i < sg->n; i++) {
		const struct dt_seg *g = &sg->seg[i];
		const int64_t *offs = dt_segs_offs(sg) + g->off;

		if (g->stride != DT_SEG_LIST && g->count == 1) {
			dt_rows_same(dst + g->off, src + g->off, g->len, extent, (uint64_t)count);
			continue;
		}
		for (int64_t e = 0; e < count; e++) {
			char *d = dst + e * extent;
			const char *s = src + e * extent;

			if (g->stride != DT_SEG_LIST) {
				dt_rows_same(d + g->off, s + g->off, g->len, g->stride, g->count);
				continue;
			}
			for (uint64_t r = 0; r < g->count; r++)
				copy_piece(d + offs[r], s + offs[r], g->len);
		}
	}
}

#undef DT_MOVE
#undef DT_PIECES
#undef DT_LISTED
#undef DT_STRIDED

/* One element of t as rows (dt_rows' shapes), the first at *first. */
static int dt_elem_rows(const struct dt *t, uint64_t *row, uint64_t *stride, uint64_t *rows,
			int64_t *first)
{
	const struct dt_node *v = dt_root(t), *b;

	*first = 0;
	/* a subarray's start offset: one block of one element */
	if (v->kind == DT_BLOCKS && v->count == 1 && dt_blocks_of(t)[v->child].blocklen == 1) {
		*first = dt_blocks_of(t)[v->child].disp;
		v = &t->node[dt_blocks_of(t)[v->child].child];
	}
	if (v->kind == DT_LEAF && v->size > 0) {
		*first += v->off;
		*row = *stride = (uint64_t)v->size;
		*rows = 1;
		return 1;
	}
	if (v->kind != DT_VECTOR || v->count < 1)
		return 0;
	b = &t->node[v->child];
	if (b->kind != DT_LEAF || b->extent != b->size || v->blocklen < 1 ||
	    v->stride < v->blocklen * b->size)
		return 0;
	*first += b->off;
	*row = (uint64_t)(v->blocklen * b->size);
	*stride = (uint64_t)v->stride;
	*rows = (uint64_t)v->count;
	return 1;
}

int dt_rows(const struct dt *t, int64_t count, uint64_t *row, uint64_t *stride, uint64_t *rows,
	    int64_t *first)
{
	return count == 1 && dt_elem_rows(t, row, stride, rows, first);
}

/*
 * A layout a tight loop walks: elements `extent` apart (count of them, as
 * a cursor places them), each rows of `row` bytes `stride` apart - a
 * column, a subarray, count columns resized to one element's extent (a
 * transpose's type) - or dense data as one row.
 */
struct dt_walk {
	char *elem, *at;	/* the current element's first row, the current row */
	uint64_t row, stride, rows, left_rows, off;
	int64_t extent;
};

static int dt_walk_init(struct dt_walk *w, const struct dt *t, int64_t count, const void *buf,
			uint64_t *total)
{
	int64_t first;

	if (dt_is_dense(t)) {
		w->row = w->stride = *total = (uint64_t)(count * dt_root(t)->size);
		w->rows = 1;
		w->extent = 0;
		first = 0;
	} else if (count >= 1 && dt_root(t)->extent >= 0 &&
		   dt_elem_rows(t, &w->row, &w->stride, &w->rows, &first)) {
		w->extent = dt_root(t)->extent;
		*total = (uint64_t)count * w->rows * w->row;
	} else {
		return 0;
	}
	w->elem = w->at = (char *)buf + first;
	w->left_rows = w->rows;
	w->off = 0;
	return w->row != 0;
}

/* k bytes of the current row are done. */
static inline void dt_walk_on(struct dt_walk *w, uint64_t k)
{
	w->off += k;
	if (w->off < w->row)
		return;
	w->off = 0;
	if (--w->left_rows) {
		w->at += w->stride;
	} else {
		w->elem += w->extent;
		w->at = w->elem;
		w->left_rows = w->rows;
	}
}

/* n whole rows of w are done, from the start of its current row (n is at
 * most the rows left in its element). */
static inline void dt_walk_rows_on(struct dt_walk *w, uint64_t n)
{
	w->left_rows -= n;
	if (w->left_rows) {
		w->at += n * w->stride;
	} else {
		w->elem += w->extent;
		w->at = w->elem;
		w->left_rows = w->rows;
	}
}

/*
 * Whole rows at once where one side's rows meet the other's row for row
 * (the same length, both at a row's start) or fall one after another into
 * the other's current row (a column into a dense buffer): a loop of one
 * move per row, no walk between them.  A vector of 2-byte blocks paid ~5
 * ns a block through the general loop below.  Returns the bytes moved (0:
 * nothing to gain here).
 */
static uint64_t dt_walk_rows(struct dt_walk *d, struct dt_walk *s, uint64_t room)
{
	/* Which sides step by their own rows (else along one row). */
	int drows = d->off == 0, srows = s->off == 0;
	uint64_t n, row;
	char *dp = d->at + d->off;
	const char *sp = s->at + s->off;

	if (drows && srows && d->row == s->row) {
		row = d->row;
		n = d->left_rows < s->left_rows ? d->left_rows : s->left_rows;
	} else if (drows && s->row - s->off >= 2 * d->row) {
		row = d->row;
		n = (s->row - s->off) / row;
		n = n < d->left_rows ? n : d->left_rows;
		srows = 0;
	} else if (srows && d->row - d->off >= 2 * s->row) {
		row = s->row;
		n = (d->row - d->off) / row;
		n = n < s->left_rows ? n : s->left_rows;
		drows = 0;
	} else {
		return 0;
	}
	if (n > room / row)
		n = room / row;
	if (n < 2)
		return 0;
	for (uint64_t i = 0, dstep = drows ? d->stride : row, sstep = srows ? s->stride : row;
	     i < n; i++, dp += dstep, sp += sstep)
		copy_piece(dp, sp, row);
	if (drows)
		dt_walk_rows_on(d, n);
	else
		dt_walk_on(d, n * row);
	if (srows)
		dt_walk_rows_on(s, n);
	else
		dt_walk_on(s, n * row);
	return n * row;
}

size_t dt_copy_whole(void *dst, const struct dt *dt, const struct dt_segs *dsegs, int64_t dcount,
		     const void *src, const struct dt *st, const struct dt_segs *ssegs,
		     int64_t scount, size_t max)
{
	struct dt_walk d, s = { (char *)src, (char *)src, max, max, 1, 1, 0, 0 };
	uint64_t dtotal, stotal = max;
	struct dt_cursor a, b;
	size_t done = 0;

	if (dt_walk_init(&d, dt, dcount, dst, &dtotal) &&
	    (!st || dt_walk_init(&s, st, scount, src, &stotal))) {
		if (max > dtotal)
			max = dtotal;
		if (max > stotal)
			max = stotal;
		while (done < max) {
			uint64_t k = dt_walk_rows(&d, &s, max - done);

			if (k) {
				done += k;
				continue;
			}
			k = d.row - d.off < s.row - s.off ? d.row - d.off : s.row - s.off;
			if (k > max - done)
				k = max - done;
			copy_piece(d.at + d.off, s.at + s.off, k);
			done += k;
			dt_walk_on(&d, k);
			dt_walk_on(&s, k);
		}
		return done;
	}
	if (dsegs && (!st || dt_is_dense(st))) {
		if (st && (uint64_t)scount * dt_root(st)->size < max)
			max = (uint64_t)scount * dt_root(st)->size;
		return dt_segs_copy(dsegs, dt_root(dt)->extent, dcount, dst, (char *)src, max, 1);
	}
	if (ssegs && dt_is_dense(dt)) {
		if ((uint64_t)dcount * dt_root(dt)->size < max)
			max = (uint64_t)dcount * dt_root(dt)->size;
		return dt_segs_copy(ssegs, dt_root(st)->extent, scount, (char *)src, dst, max, 0);
	}
	if (dsegs && st == dt && dt_root(dt)->size > 0 && max % dt_root(dt)->size == 0) {
		int64_t n = max / dt_root(dt)->size;

		if (n > dcount)
			n = dcount;
		dt_segs_copy_same(dsegs, dt_root(dt)->extent, n, dst, src);
		return n * dt_root(dt)->size;
	}
	if (st)
		dt_cursor_init(&a, st, src, scount);
	else
		dt_cursor_bytes(&a, src, max);
	dt_cursor_init(&b, dt, dst, dcount);
	return dt_copy(&b, &a, max);
}

size_t dt_copy(struct dt_cursor *dst, struct dt_cursor *src, size_t max)
{
	size_t done = 0, n;

	while (done < max && (dst->left || dt_fill(dst)) && (src->left || dt_fill(src))) {
		n = dst->left < src->left ? dst->left : src->left;
		if (n > max - done)
			n = max - done;
		copy_piece(dst->p, src->p, n);
		dst->p += n;
		dst->left -= n;
		src->p += n;
		src->left -= n;
		done += n;
	}
	return done;
}

size_t dt_next_run(struct dt_cursor *c)
{
	return dt_fill(c) ? c->left : 0;
}

size_t dt_skip(struct dt_cursor *c, size_t n)
{
	size_t done = 0, k;

	while (done < n && dt_fill(c)) {
		k = c->left < n - done ? c->left : n - done;
		c->p += k;
		c->left -= k;
		done += k;
	}
	return done;
}

int64_t dt_count_basic(const struct dt *t, int64_t nbytes)
{
	const struct dt_node *r = dt_root(t);
	struct dt_cursor c;
	int64_t full, rem, elems;
	size_t k;

	if (r->size == 0)
		return 0;
	full = nbytes / r->size;
	rem = nbytes % r->size;
	elems = full * r->nbasic;
	dt_cursor_init(&c, t, NULL, 1);
	while (rem > 0 && dt_fill(&c)) {
		k = c.left < (size_t)rem ? c.left : (size_t)rem;
		if (k % c.basic)
			return -1;
		elems += k / c.basic;
		rem -= k;
		c.left -= k;
	}
	return elems;
}
