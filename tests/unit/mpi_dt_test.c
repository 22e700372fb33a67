/*
 * mpi_dt_test.c - host unit tests of the datatype engine (libsmap/mpi/dt.c):
 * layouts and bounds of each constructor, and copies between layouts
 * checked against data packed by hand.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../libsmap/mpi/dt.h"

static int failed;

static void check(int ok, const char *name, const char *fmt, long long want, long long got)
{
	if (ok) {
		printf("ok %s\n", name);
		return;
	}
	printf("not ok %s - expected ", name);
	printf(fmt, want);
	printf(", got ");
	printf(fmt, got);
	printf("\n");
	failed = 1;
}

static void check_eq(const char *name, long long want, long long got)
{
	check(want == got, name, "%lld", want, got);
}

/* Packs count elements of t at buf and compares with want[0..n). */
static void check_pack(const char *name, const struct dt *t, const void *buf,
		       long count, const int *want, size_t n)
{
	struct dt_cursor src, dst;
	int *out = calloc(n + 4, sizeof *out);
	size_t got, i;

	dt_cursor_init(&src, t, buf, count);
	dt_cursor_bytes(&dst, out, (n + 4) * sizeof *out);
	got = dt_copy(&dst, &src, (size_t)-1);
	if (got != n * sizeof(int)) {
		check(0, name, "%lld bytes", n * sizeof(int), got);
		free(out);
		return;
	}
	for (i = 0; i < n; i++)
		if (out[i] != want[i]) {
			check(0, name, "%lld", want[i], out[i]);
			free(out);
			return;
		}
	check(1, name, "", 0, 0);
	free(out);
}

static int seq[64];

static void test_contiguous(void)
{
	struct dt *i = dt_basic(4, 4), *c = dt_vector(1, 5, 0, i);
	int want[10] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 };

	check_eq("contiguous_collapses_to_one_run", 1, dt_is_dense(c));
	check_eq("contiguous_size", 20, dt_root(c)->size);
	check_pack("contiguous_two_elements_pack_in_order", c, seq, 2, want, 10);
	free(i);
	free(c);
}

static void test_vector(void)
{
	struct dt *i = dt_basic(4, 4), *v = dt_vector(3, 2, 5 * 4, i);
	int want[] = { 0, 1, 5, 6, 10, 11 };
	int want2[] = { 0, 1, 5, 6, 10, 11, 12, 13, 17, 18, 22, 23 };

	check_eq("vector_size", 24, dt_root(v)->size);
	check_eq("vector_extent_ends_at_last_block", 48, dt_root(v)->extent);
	check_eq("vector_true_ub", 48, dt_root(v)->true_ub);
	check_pack("vector_pack_picks_strided_blocks", v, seq, 1, want, 6);
	check_pack("vector_second_element_starts_at_extent", v, seq, 2, want2, 12);
	free(i);
	free(v);
}

static void test_negative_stride(void)
{
	struct dt *i = dt_basic(4, 4), *v = dt_vector(3, 1, -8, i);
	int want[] = { 20, 18, 16 };

	check_eq("negative_stride_lb", -16, dt_root(v)->lb);
	check_eq("negative_stride_extent", 20, dt_root(v)->extent);
	check_pack("negative_stride_pack_walks_backwards", v, seq + 20, 1, want, 3);
	free(i);
	free(v);
}

static void test_indexed(void)
{
	struct dt *i = dt_basic(4, 4);
	const struct dt *ch[3] = { i, i, i };
	int64_t bl[3] = { 2, 1, 3 }, disp[3] = { 4 * 4, 0, 10 * 4 };
	struct dt *x = dt_blocks(3, bl, disp, ch, 0);
	int want[] = { 4, 5, 0, 10, 11, 12 };

	check_eq("indexed_lb_is_lowest_block", 0, dt_root(x)->lb);
	check_eq("indexed_extent", 52, dt_root(x)->extent);
	check_pack("indexed_pack_in_block_order", x, seq, 1, want, 6);
	check_eq("indexed_elements_in_10_bytes_is_undefined", -1, dt_count_basic(x, 10));
	check_eq("indexed_elements_in_12_bytes", 3, dt_count_basic(x, 12));
	check_eq("indexed_elements_in_two_and_a_bit", 13, dt_count_basic(x, 48 + 4));
	free(i);
	free(x);
}

static void test_adjacent_blocks_collapse(void)
{
	struct dt *i = dt_basic(4, 4);
	const struct dt *ch[2] = { i, i };
	int64_t bl[2] = { 2, 3 }, disp[2] = { 8, 16 };
	struct dt *x = dt_blocks(2, bl, disp, ch, 0);
	int want[] = { 2, 3, 4, 5, 6 };

	check_eq("adjacent_blocks_collapse_to_leaf", DT_LEAF, dt_root(x)->kind);
	check_eq("adjacent_blocks_keep_their_offset", 8, dt_root(x)->off);
	check_pack("adjacent_blocks_pack", x, seq, 1, want, 5);
	free(i);
	free(x);
}

struct pair {
	double d;
	int i;
};

static void test_struct(void)
{
	struct dt *d = dt_basic(8, 8), *i = dt_basic(4, 4);
	const struct dt *ch[2] = { d, i };
	int64_t bl[2] = { 1, 1 }, disp[2] = { 0, 8 };
	struct dt *s = dt_blocks(2, bl, disp, ch, 1);
	struct pair in[2] = { { 1.5, 7 }, { 2.5, 9 } }, out[2];
	struct dt_cursor a, b;
	char packed[24];

	check_eq("struct_extent_padded_to_alignment", (long long)sizeof(struct pair),
		 dt_root(s)->extent);
	check_eq("struct_size_has_no_padding", 12, dt_root(s)->size);
	check_eq("struct_counts_two_basic_elements", 4, dt_count_basic(s, 24));
	dt_cursor_init(&a, s, in, 2);
	dt_cursor_bytes(&b, packed, sizeof packed);
	check_eq("struct_pack_bytes", 24, dt_copy(&b, &a, (size_t)-1));
	memset(out, 0, sizeof out);
	dt_cursor_bytes(&a, packed, sizeof packed);
	dt_cursor_init(&b, s, out, 2);
	dt_copy(&b, &a, (size_t)-1);
	check(out[1].d == 2.5 && out[1].i == 9 && out[0].i == 7, "struct_unpack_round_trip",
	      "%lld", 9, out[1].i);
	free(d);
	free(i);
	free(s);
}

static void test_resized_and_nested(void)
{
	struct dt *i = dt_basic(4, 4), *v = dt_vector(2, 1, 8, i);
	struct dt *r = dt_resized(v, 0, 4), *c = dt_vector(1, 3, 0, r);
	/* Three interleaved pairs {0,2},{1,3},{2,4}. */
	int want[] = { 0, 2, 1, 3, 2, 4 };

	check_eq("resized_extent", 4, dt_root(r)->extent);
	check_eq("resized_keeps_true_extent", 12, dt_root(r)->true_ub);
	check_pack("contiguous_of_resized_interleaves", c, seq, 1, want, 6);
	free(i);
	free(v);
	free(r);
	free(c);
}

/* A vector sender into an indexed receiver: cursors on both sides. */
static void test_typed_to_typed(void)
{
	struct dt *i = dt_basic(4, 4), *v = dt_vector(4, 1, 8, i);
	const struct dt *ch[2] = { i, i };
	int64_t bl[2] = { 3, 1 }, disp[2] = { 4, 0 };
	struct dt *x = dt_blocks(2, bl, disp, ch, 0);
	int out[4] = { -1, -1, -1, -1 };
	struct dt_cursor a, b;

	dt_cursor_init(&a, v, seq, 1);
	dt_cursor_init(&b, x, out, 1);
	check_eq("typed_to_typed_bytes", 16, dt_copy(&b, &a, (size_t)-1));
	check(out[1] == 0 && out[2] == 2 && out[3] == 4 && out[0] == 6,
	      "typed_to_typed_lands_in_receiver_layout", "%lld", 6, out[0]);
	dt_cursor_init(&a, v, seq, 1);
	dt_cursor_init(&b, x, out, 1);
	check_eq("copy_stops_at_max", 6, dt_copy(&b, &a, 6));
	free(i);
	free(v);
	free(x);
}

/* dt_copy_whole's tight loop (dense or rows on each side) against the
 * cursors: vectors of 1-3 blocks of 1-, 4- and 8-byte elements at
 * several strides, to and from each other and plain bytes, whole and cut
 * short; and a layout that is neither (indexed), which takes the cursors. */
static void test_copy_whole(void)
{
	enum { N = 4096 };
	static unsigned char src[N], want[N], got[N];
	const int64_t sizes[3] = { 1, 4, 8 };
	int bad = 0, cases = 0;

	for (int k = 0; k < N; k++)
		src[k] = (unsigned char)(k * 13 + 5);
	for (int a = 0; a < 3; a++)
		for (int b = 0; b < 3; b++)
			for (int64_t bl = 1; bl <= 3; bl++)
				for (int64_t gap = 0; gap <= 2; gap++) {
					struct dt *ea = dt_basic((uint32_t)sizes[a], (uint32_t)sizes[a]);
					struct dt *eb = dt_basic((uint32_t)sizes[b], (uint32_t)sizes[b]);
					int64_t rs = bl * sizes[a], n = 24;
					struct dt *va = dt_vector(n, bl, rs + gap * sizes[a], ea);
					struct dt *vb = dt_vector(n * rs / sizes[b] / 2, 2,
								  2 * sizes[b] + gap * 3, eb);
					size_t bytes = (size_t)(n * rs), cut[2] = { bytes, bytes / 2 + 1 };

					for (int c = 0; c < 2; c++) {
						struct dt_cursor x, y;
						size_t w, g;

						memset(want, 0, N);
						memset(got, 0, N);
						dt_cursor_init(&x, va, src, 1);
						dt_cursor_init(&y, vb, want, 1);
						w = dt_copy(&y, &x, cut[c]);
						g = dt_copy_whole(got, vb, NULL, 1, src, va, NULL, 1, cut[c]);
						bad += w != g || memcmp(want, got, N) != 0;
						memset(want, 0, N);
						memset(got, 0, N);
						dt_cursor_bytes(&x, src, cut[c]);
						dt_cursor_init(&y, va, want, 1);
						w = dt_copy(&y, &x, cut[c]);
						g = dt_copy_whole(got, va, NULL, 1, src, NULL, NULL, 0, cut[c]);
						bad += w != g || memcmp(want, got, N) != 0;
						cases += 2;
					}
					free(va);
					free(vb);
					free(ea);
					free(eb);
				}
	/* a 2-D subarray's shape: the vector as one block at an offset */
	for (int64_t disp = 0; disp <= 24; disp += 12) {
		struct dt *e = dt_basic(4, 4), *v = dt_vector(20, 2, 16, e), *x;
		const struct dt *ch[1] = { v };
		int64_t one = 1, n = 160;
		struct dt_cursor c1, c2;
		size_t w, g;

		x = dt_blocks(1, &one, &disp, ch, 0);
		memset(want, 0, N);
		memset(got, 0, N);
		dt_cursor_init(&c1, x, src, 1);
		dt_cursor_bytes(&c2, want, (size_t)n);
		w = dt_copy(&c2, &c1, (size_t)n);
		g = dt_copy_whole(got, x, NULL, 0, src, x, NULL, 1, (size_t)n);
		bad += g != 0;	/* no room on the receiving side */
		memset(got, 0, N);
		{
			struct dt *flat = dt_basic(1, 1);

			g = dt_copy_whole(got, flat, NULL, n, src, x, NULL, 1, (size_t)n);
			free(flat);
		}
		bad += w != g || memcmp(want, got, N) != 0;
		cases++;
		free(e);
		free(v);
		free(x);
	}
	/* count columns resized to one element's extent (a transpose), and
	 * count whole vectors: elements an extent apart */
	for (int64_t cnt = 2; cnt <= 5; cnt++)
		for (int r = 0; r < 2; r++) {
			struct dt *e = dt_basic(8, 8), *v = dt_vector(6, 1, 8 * cnt, e);
			struct dt *x = r ? dt_resized(v, 0, 8) : dt_vector(1, 1, 0, v);
			struct dt_cursor c1, c2;
			size_t bytes = (size_t)(cnt * 48), w, g;

			memset(want, 0, N);
			memset(got, 0, N);
			dt_cursor_init(&c1, x, src, cnt);
			dt_cursor_bytes(&c2, want, bytes);
			w = dt_copy(&c2, &c1, bytes);
			g = dt_copy_whole(got, e, NULL, (int64_t)bytes / 8, src, x, NULL, cnt, bytes);
			bad += w != g || memcmp(want, got, N) != 0;
			memset(want, 0, N);
			memset(got, 0, N);
			dt_cursor_bytes(&c1, src, bytes);
			dt_cursor_init(&c2, x, want, cnt);
			w = dt_copy(&c2, &c1, bytes);
			g = dt_copy_whole(got, x, NULL, cnt, src, NULL, NULL, 0, bytes);
			bad += w != g || memcmp(want, got, N) != 0;
			cases += 2;
			free(e);
			free(v);
			free(x);
		}
	check_eq("copy_whole_rows_match_the_cursors", 0, bad);
	check(cases == 343, "copy_whole_cases_run", "%lld", 343, cases);
	{
		struct dt *i = dt_basic(4, 4);
		int64_t bl[2] = { 2, 1 }, disp[2] = { 4, 0 };
		const struct dt *ch[2] = { i, i };
		struct dt *x = dt_blocks(2, bl, disp, ch, 0);
		int out[4] = { -1, -1, -1, -1 };

		check_eq("copy_whole_other_layouts_take_the_cursors", 12,
			 dt_copy_whole(out, x, NULL, 1, seq, NULL, NULL, 0, 12));
		check(out[1] == 0 && out[2] == 1 && out[0] == 2 && out[3] == -1,
		      "copy_whole_indexed_placement", "%lld", 2, out[0]);
		free(i);
		free(x);
	}
}

/* The segment loops (dt_segments) against the cursors: gathers into plain
 * bytes and scatters back, 1 and 3 elements, whole and cut at an odd
 * byte, for layouts the row walks do not take: an irregular indexed block
 * (with adjacent blocks to merge), a struct of two ints and a column (one
 * segment), a transpose (a vector of columns), 2-byte pieces. */
static void test_segments(void)
{
	enum { N = 16384 };
	static unsigned char src[N], want[N], got[N];
	struct dt *d8 = dt_basic(8, 8), *i4 = dt_basic(4, 4), *s2 = dt_basic(2, 2);
	struct dt *col = dt_vector(12, 1, 96, d8), *col2 = dt_vector(12, 1, 24, d8);
	int64_t ibl[6] = { 1, 1, 1, 2, 1, 1 }, idisp[6] = { 0, 12, 16, 40, 48, 100 };
	const struct dt *i6[6] = { i4, i4, i4, i4, i4, i4 };
	int64_t sbl[2] = { 2, 1 }, sdisp[2] = { 0, 64 };
	const struct dt *sch[2] = { i4, col2 };
	int64_t hbl[3] = { 1, 3, 1 }, hdisp[3] = { 0, 6, 20 };
	const struct dt *h3[3] = { s2, s2, s2 };
	struct dt *lay[4] = {
		dt_blocks(6, ibl, idisp, i6, 0),
		dt_blocks(2, sbl, sdisp, sch, 0),
		dt_vector(12, 1, 8, col),
		dt_blocks(3, hbl, hdisp, h3, 0),
	};
	int bad = 0, cases = 0, with_segs = 0;

	for (int k = 0; k < N; k++)
		src[k] = (unsigned char)(k * 7 + 3);
	for (int l = 0; l < 4; l++) {
		struct dt_segs *sg = dt_segments(lay[l]);

		with_segs += sg != NULL;
		for (int64_t count = 1; count <= 3; count += 2) {
			size_t total = (size_t)(count * dt_root(lay[l])->size);
			size_t cut[2] = { total, total / 2 + 1 };

			for (int c = 0; c < 2; c++) {
				struct dt_cursor x, y;
				size_t w, g;

				/* gather */
				memset(want, 0, N);
				memset(got, 0, N);
				dt_cursor_init(&x, lay[l], src, count);
				dt_cursor_bytes(&y, want, cut[c]);
				w = dt_copy(&y, &x, cut[c]);
				g = dt_copy_whole(got, i4, NULL, (int64_t)(total / 4) + 1, src, lay[l], sg,
						  count, cut[c]);
				bad += w != g || memcmp(want, got, N) != 0;
				/* scatter */
				memset(want, 0, N);
				memset(got, 0, N);
				dt_cursor_bytes(&x, src, cut[c]);
				dt_cursor_init(&y, lay[l], want, count);
				w = dt_copy(&y, &x, cut[c]);
				g = dt_copy_whole(got, lay[l], sg, count, src, NULL, NULL, 0, cut[c]);
				bad += w != g || memcmp(want, got, N) != 0;
				/* the same layout on both sides: data only, holes kept */
				memset(want, 0, N);
				memset(got, 0, N);
				dt_cursor_init(&x, lay[l], src, count);
				dt_cursor_init(&y, lay[l], want, count);
				w = dt_copy(&y, &x, cut[c]);
				g = dt_copy_whole(got, lay[l], sg, count, src, lay[l], sg, count, cut[c]);
				bad += w != g || memcmp(want, got, N) != 0;
				cases += 3;
			}
		}
		free(sg);
		free(lay[l]);
	}
	check_eq("segments_match_the_cursors", 0, bad);
	check(cases == 48, "segments_cases_run", "%lld", 48, cases);
	check_eq("segments_made_for_each_layout", 4, with_segs);
	free(d8);
	free(i4);
	free(s2);
	free(col);
	free(col2);
}

static void test_empty(void)
{
	struct dt *i = dt_basic(4, 4), *v = dt_vector(0, 3, 8, i);
	struct dt_cursor a, b;
	int out;

	check_eq("empty_vector_size", 0, dt_root(v)->size);
	check_eq("empty_vector_extent", 0, dt_root(v)->extent);
	dt_cursor_init(&a, v, seq, 5);
	dt_cursor_bytes(&b, &out, sizeof out);
	check_eq("empty_vector_copies_nothing", 0, dt_copy(&b, &a, (size_t)-1));
	free(i);
	free(v);
}

/* Bound markers are sticky (MPI 3.1 section 4.1.6). */
static void test_markers(void)
{
	struct dt *d = dt_basic(8, 8), *c = dt_basic(1, 1), *lb = dt_marker(0), *ub = dt_marker(1);
	struct dt *r = dt_resized(c, 4, 8), *e = dt_vector(0, 1, 1, d);
	const struct dt *ch[3] = { lb, d, ub }, *mix[2] = { r, d }, *only[1] = { lb };
	const struct dt *gap[2] = { e, d }, *pad[2] = { d, c }, *padub[3] = { d, c, ub };
	int64_t bl[3] = { 1, 1, 1 }, disp[3] = { -4, 0, 24 }, mdisp[2] = { 0, -16 };
	int64_t one[1] = { 10 }, gdisp[2] = { 100, 0 }, pdisp[3] = { 0, 8, 12 };
	struct dt *s = dt_blocks(3, bl, disp, ch, 1), *m = dt_blocks(2, bl, mdisp, mix, 1);
	struct dt *o = dt_blocks(1, bl, one, only, 1), *g = dt_blocks(2, bl, gdisp, gap, 1);
	struct dt *p = dt_blocks(2, bl, pdisp, pad, 1), *pu = dt_blocks(3, bl, pdisp, padub, 1);
	struct dt *v = dt_vector(3, 1, 32, s);

	check(dt_root(s)->lb == -4 && dt_root(s)->extent == 28 && dt_root(s)->size == 8,
	      "markers_set_lb_and_ub", "%lld", 28, dt_root(s)->extent);
	check_eq("a_marked_child_overrides_an_unmarked_lower_one", 4, dt_root(m)->lb);
	check_eq("a_lone_lb_marker_gives_ub_0", -10, dt_root(o)->extent);
	check(dt_root(g)->lb == 0 && dt_root(g)->extent == 8, "an_empty_child_gives_no_bounds",
	      "%lld", 8, dt_root(g)->extent);
	check_eq("unmarked_struct_is_padded_to_its_alignment", 16, dt_root(p)->extent);
	check_eq("an_ub_marker_stops_the_padding", 12, dt_root(pu)->extent);
	check(dt_root(v)->lb == -4 && dt_root(v)->extent == 92,
	      "markers_stay_sticky_in_a_vector", "%lld", 92, dt_root(v)->extent);
	free(d);
	free(c);
	free(lb);
	free(ub);
	free(r);
	free(e);
	free(s);
	free(m);
	free(o);
	free(g);
	free(p);
	free(pu);
	free(v);
}

int main(void)
{
	int k;

	for (k = 0; k < 64; k++)
		seq[k] = k;
	test_contiguous();
	test_vector();
	test_negative_stride();
	test_indexed();
	test_adjacent_blocks_collapse();
	test_struct();
	test_resized_and_nested();
	test_typed_to_typed();
	test_copy_whole();
	test_segments();
	test_empty();
	test_markers();
	return failed;
}
