/*
 * dt.h - the datatype engine: layouts of typed data and cursors over them.
 *
 * A layout (struct dt) is one immutable, pointer-free block: nodes and
 * blocks refer to each other by index, never by address.  So a rank can
 * walk a layout that lives in another rank's memory through its SMARTMAP
 * address exactly as it walks its own: that is how non-contiguous data
 * moves straight from the sender's buffer into the receiver's, with no
 * packing buffer in between.
 *
 * Pure logic: no MPI, no SMARTMAP; the same file builds into libsmap and
 * into the host unit tests.
 */
#ifndef SMPI_DT_H
#define SMPI_DT_H

#include <stddef.h>
#include <stdint.h>

/* Deepest nesting of constructors; a cursor's stack has one frame per level. */
#define DT_MAXDEPTH	24

enum { DT_LEAF, DT_VECTOR, DT_BLOCKS };

/*
 * LEAF: `size` contiguous bytes starting `off` bytes after the element's
 * origin, all basic elements of `basic` bytes.
 * VECTOR: `count` blocks of `blocklen` child elements, block i at
 * i * stride bytes.
 * BLOCKS: `count` blocks described by blocks[first .. first+count-1].
 */
struct dt_node {
	uint32_t kind;
	uint32_t basic;		/* LEAF */
	uint32_t child;		/* VECTOR: node index; BLOCKS: first block index */
	uint32_t align;		/* largest basic alignment inside, 1 if resized */
	int64_t count;
	int64_t blocklen;	/* VECTOR */
	int64_t stride;		/* VECTOR: bytes between blocks */
	int64_t off;		/* LEAF */
	int64_t size;		/* bytes of data in one element */
	int64_t nbasic;		/* basic elements in one element */
	int64_t lb, extent;
	int64_t true_lb, true_ub;
	uint32_t depth;
	uint32_t marks;		/* DT_LB_MARK ... */
	uint32_t ext;		/* LEAF: external32 conversion, DT_EXT() */
	int64_t xsize;		/* bytes of one element in external32 */
};

/*
 * external32 (MPI 3.1 section 13.5.2) is big-endian IEEE with sizes of
 * its own: a leaf's data is a run of units of one conversion.  SWAP
 * reverses each unit (a complex number is two units); LONG and ULONG
 * keep the low 4 bytes of 8 (sign- or zero-extended back), WCHAR the low
 * 2 of 4, and LDOUBLE turns x87's 80-bit format into IEEE quad.
 */
enum { DT_X_SWAP, DT_X_LONG, DT_X_ULONG, DT_X_WCHAR, DT_X_LDOUBLE };
#define DT_EXT(conv, unit)	((uint32_t)(conv) << 8 | (unit))
#define DT_EXT_CONV(ext)	((ext) >> 8)
#define DT_EXT_UNIT(ext)	((ext) & 0xff)

/* Bytes of one unit of conversion ext in external32. */
static inline uint32_t dt_ext_bytes(uint32_t ext)
{
	switch (DT_EXT_CONV(ext)) {
	case DT_X_LONG:
	case DT_X_ULONG:
		return 4;
	case DT_X_WCHAR:
		return 2;
	default:
		return DT_EXT_UNIT(ext);
	}
}

/*
 * Bound markers (MPI 3.1 section 4.1.6): MPI_Type_create_resized sets both,
 * MPI-1's MPI_LB and MPI_UB one each.  They are sticky: a type built from
 * marked children takes its lower bound from the marked ones only, and
 * likewise its upper bound (and no alignment padding then).  NO_LB/NO_UB:
 * the type gives no bound of that side (an empty type, a lone marker).
 */
enum { DT_LB_MARK = 1, DT_UB_MARK = 2, DT_NO_LB = 4, DT_NO_UB = 8 };

struct dt_block {
	int64_t disp;
	int64_t blocklen;
	uint32_t child;
	uint32_t pad;
};

struct dt {
	uint64_t bytes;		/* of this whole block */
	uint32_t nnodes;	/* node[nnodes - 1] is the root */
	uint32_t nblocks;	/* struct dt_block follow the nodes */
	struct dt_node node[];
};

static inline const struct dt_node *dt_root(const struct dt *t)
{
	return &t->node[t->nnodes - 1];
}

/* A single contiguous run of data fills [lb, lb + extent): plain memcpy. */
static inline int dt_is_dense(const struct dt *t)
{
	const struct dt_node *r = dt_root(t);

	return r->kind == DT_LEAF && r->off == 0 && r->lb == 0 && r->extent == r->size;
}

/* Whether count elements of t at buf are rows in the order of the data:
 * one element of a vector of dense blocks (a column, a halo), or of a
 * 2-D subarray (the vector placed at an offset), or one dense block:
 * *rows blocks of *row bytes, *stride bytes apart, the first at buf +
 * *first. */
int dt_rows(const struct dt *t, int64_t count, uint64_t *row, uint64_t *stride, uint64_t *rows,
	    int64_t *first);

/*
 * One element's data as segments: count pieces of len bytes, stride apart,
 * the first off bytes from the element's base (a column is one segment, an
 * indexed block of single doubles one per double, adjacent ones merged).
 * A copy between such a layout and contiguous bytes loops over the list
 * instead of walking the tree for every piece, which costs 7.8 ns a piece.
 */
struct dt_seg {
	int64_t off;		/* DT_SEG_LIST: the first of its offsets in offs */
	uint64_t len;
	int64_t stride;		/* DT_SEG_LIST: count pieces at offs[off...] */
	uint64_t count;
};

/* Single pieces of one length in a row (an indexed block's) become one
 * segment listing their offsets: a piece then costs a load of its offset. */
#define DT_SEG_LIST	INT64_MIN

struct dt_segs {
	uint64_t n;
	uint64_t cap;		/* seg[] has room for cap; the lists' offsets follow */
	struct dt_seg seg[];
};

/* Found by position, not by pointer, so that a peer reading the segments
 * through SMARTMAP finds them too. */
static inline int64_t *dt_segs_offs(const struct dt_segs *s)
{
	return (int64_t *)&s->seg[s->cap];
}

/* t's segments (malloc'd), or NULL: dense, rows (dt_rows), or more than
 * DT_SEGS_MAX of them. */
struct dt_segs *dt_segments(const struct dt *t);

/*
 * Constructors.  They return a new malloc'd layout, or NULL when memory is
 * short; the caller checks nesting (dt_root()->depth < DT_MAXDEPTH) first.
 */
struct dt *dt_basic(uint32_t size, uint32_t align);
/* A basic layout whose units convert to external32 as ext says. */
struct dt *dt_basic_ext(uint32_t size, uint32_t align, uint32_t ext);
struct dt *dt_vector(int64_t count, int64_t blocklen, int64_t stride,
		     const struct dt *child);
/* Block i: blocklen[i] elements of child[i] at disp[i] bytes.  pad rounds
 * the extent up to the largest alignment, as C lays out a struct. */
struct dt *dt_blocks(int64_t count, const int64_t *blocklen,
		     const int64_t *disp, const struct dt *const *child, int pad);
struct dt *dt_resized(const struct dt *child, int64_t lb, int64_t extent);
/* MPI_LB's (upper 0) or MPI_UB's layout: no data, one marker at 0. */
struct dt *dt_marker(int upper);

/*
 * A cursor walks the data of `count` elements at `buf` as contiguous runs.
 * `t` may be another rank's layout seen through SMARTMAP, and `buf` an
 * address in any rank.
 */
struct dt_frame {
	const struct dt_node *n;
	int64_t i, j;
	uintptr_t base;
};

struct dt_cursor {
	const struct dt *t;
	uintptr_t buf;
	int64_t count, elem;
	char *p;		/* current run */
	size_t left;
	uint32_t basic;
	int depth;
	struct dt_frame f[DT_MAXDEPTH];
};

void dt_cursor_init(struct dt_cursor *c, const struct dt *t, const void *buf,
		    int64_t count);
/* A cursor over len plain bytes. */
void dt_cursor_bytes(struct dt_cursor *c, const void *buf, size_t len);
/* Copy up to max bytes from src's data to dst's; returns the bytes copied
 * (less than max only when one side ran out). */
size_t dt_copy(struct dt_cursor *dst, struct dt_cursor *src, size_t max);
/* dt_copy from the start of count elements of two layouts (st NULL: max
 * plain bytes at src), with a tight loop when each is dense or any count
 * of elements that are rows (dt_rows' shapes, elements an extent apart),
 * or when one is dense and the other's segments are given (dsegs, ssegs:
 * NULL when not). */
size_t dt_copy_whole(void *dst, const struct dt *dt, const struct dt_segs *dsegs, int64_t dcount,
		     const void *src, const struct dt *st, const struct dt_segs *ssegs,
		     int64_t scount, size_t max);
/* The length of the run at c->p (0 when the data is done). */
size_t dt_next_run(struct dt_cursor *c);
/* Skip up to n bytes of data; returns the bytes skipped. */
size_t dt_skip(struct dt_cursor *c, size_t n);

/* Basic elements in the first nbytes of data of a run of elements of t,
 * or -1 if nbytes ends inside a basic element. */
int64_t dt_count_basic(const struct dt *t, int64_t nbytes);

#endif
