/*
 * shmem_rma.c - OpenSHMEM setup queries and remote memory access, checked
 * on every PE: each PE writes to (or reads from) its right neighbour, so
 * with n PEs every pair of neighbours is exercised.  TAP lines: shmemtest.h.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <smap.h>
#include "shmemtest.h"

#define N 64
#define BIG (1 << 20)

static long st_dest[N];			/* static: symmetric for free */
static long st_src[N];
static int st_flagged;
static unsigned char st_big[BIG], st_big_src[BIG];

/* The value PE `pe` writes at index i. */
static long val(int pe, int i)
{
	return (long)pe * 1000 + i;
}

static void test_queries(void)
{
	int major = 0, minor = 0;
	char name[SHMEM_MAX_NAME_LEN];

	EXPECT_EQ(smap_world_rank(), me);
	EXPECT_EQ(smap_world_size(), npes);
	EXPECT_EQ(_my_pe(), me);
	EXPECT_EQ(_num_pes(), npes);
	t_case("my_pe_and_n_pes_are_the_world_rank_and_size");

	shmem_info_get_version(&major, &minor);
	EXPECT(major == 1 && minor == 5, "expected version 1.5, got %d.%d", major, minor);
	shmem_info_get_name(name);
	EXPECT(!strcmp(name, SHMEM_VENDOR_STRING), "expected name '%s', got '%s'",
	       SHMEM_VENDOR_STRING, name);
	t_case("info_reports_version_1_5_and_the_vendor_string");
}

static void test_accessibility(void)
{
	long on_stack = 0;
	long *heap = shmem_malloc(sizeof *heap);
	void *priv = malloc(64);
	int pe;

	for (pe = 0; pe < npes; pe++)
		EXPECT(shmem_pe_accessible(pe), "expected PE %d accessible, got 0", pe);
	EXPECT(!shmem_pe_accessible(-1), "expected PE -1 inaccessible, got 1");
	EXPECT(!shmem_pe_accessible(npes), "expected PE %d inaccessible, got 1", npes);
	t_case("pe_accessible_is_1_for_every_pe_of_the_node_only");

	EXPECT(shmem_addr_accessible(st_dest, right), "expected static data accessible, got 0");
	EXPECT(shmem_addr_accessible(heap, right), "expected heap block accessible, got 0");
	EXPECT(!shmem_addr_accessible(&on_stack, right), "expected stack inaccessible, got 1");
	EXPECT(!shmem_addr_accessible(priv, right), "expected private malloc inaccessible, got 1");
	t_case("addr_accessible_is_1_for_static_and_symmetric_heap_only");
	free(priv);
	shmem_free(heap);
}

static void test_ptr(void)
{
	int pe;

	for (pe = 0; pe < npes; pe++) {
		int here = pe / smap_size() == smap_node();
		void *want = pe == me ? (void *)&st_flagged : !here ? NULL :
			     remote_address(pe - smap_node() * smap_size(), &st_flagged);
		void *got = shmem_ptr(&st_flagged, pe);

		EXPECT(got == want, "expected shmem_ptr(PE %d) = %p, got %p", pe, want, got);
	}
	EXPECT(shmem_ptr(&st_flagged, npes) == NULL, "expected NULL for PE %d, got %p", npes,
	       shmem_ptr(&st_flagged, npes));
	t_case("ptr_is_the_smartmap_address_of_every_pe_of_the_node");

	/* A PE of another node has no address here: its store is a put. */
	if (shmem_ptr(&st_flagged, right))
		*(volatile int *)shmem_ptr(&st_flagged, right) = me + 1;
	else
		shmem_int_p(&st_flagged, me + 1, right);
	shmem_barrier_all();
	EXPECT_EQ(left + 1, st_flagged);
	t_case("store_through_ptr_lands_in_the_neighbour");
}

static void fill(long *a, int pe)
{
	int i;

	for (i = 0; i < N; i++)
		a[i] = val(pe, i);
}

static int check_from(const long *a, int pe)
{
	int i;

	for (i = 0; i < N; i++)
		if (a[i] != val(pe, i)) {
			EXPECT(0, "expected [%d] = %ld, got %ld", i, val(pe, i), a[i]);
			return 0;
		}
	return 1;
}

static long *local_static(void)
{
	static long inside[N];

	return inside;
}

static void test_put_get(void)
{
	long on_stack[N], *heap = shmem_malloc(N * sizeof *heap);
	long *fs = local_static();

	fill(on_stack, me);
	shmem_long_put(st_dest, on_stack, N, right);
	shmem_barrier_all();
	check_from(st_dest, left);
	t_case("put_from_stack_to_static");

	shmem_long_put(heap, on_stack, N, right);
	shmem_barrier_all();
	check_from(heap, left);
	t_case("put_to_symmetric_heap");

	shmem_putmem(fs, on_stack, N * sizeof(long), right);
	shmem_barrier_all();
	check_from(fs, left);
	t_case("putmem_to_function_static");

	fill(st_src, me);
	shmem_barrier_all();
	memset(on_stack, 0, sizeof on_stack);
	shmem_long_get(on_stack, st_src, N, right);
	check_from(on_stack, right);
	t_case("get_from_static_into_stack");

	memset(on_stack, 0, sizeof on_stack);
	shmem_getmem(on_stack, heap, N * sizeof(long), right);
	check_from(on_stack, me);
	t_case("getmem_from_symmetric_heap");

	shmem_long_put(st_dest, st_src, N, me);
	check_from(st_dest, me);
	t_case("put_to_self_is_a_local_copy");
	shmem_free(heap);
}

static void test_nbi(void)
{
	long src[N], back[N];

	shmem_barrier_all();
	fill(src, me);
	shmem_long_put_nbi(st_dest, src, N, right);
	shmem_quiet();
	shmem_barrier_all();
	check_from(st_dest, left);
	t_case("put_nbi_is_delivered_by_quiet");

	shmem_long_get_nbi(back, st_dest, N, right);
	shmem_quiet();
	check_from(back, me);
	t_case("get_nbi_is_complete_after_quiet");
	shmem_barrier_all();
}

static void test_p_g(void)
{
	static double d;
	static long double ld;
	static char c;
	static uint16_t u16;
	static size_t sz;

	shmem_p(&d, me + 0.5, right);
	shmem_p(&ld, (long double)me / 3, right);
	shmem_p(&c, (char)('a' + me), right);
	shmem_p(&u16, (uint16_t)(60000 + me), right);
	shmem_size_p(&sz, (size_t)me << 40, right);
	shmem_barrier_all();
	EXPECT(d == left + 0.5, "expected double %g, got %g", left + 0.5, d);
	EXPECT(ld == (long double)left / 3, "expected long double %Lg, got %Lg",
	       (long double)left / 3, ld);
	EXPECT_EQ('a' + left, c);
	EXPECT_EQ(60000 + left, u16);
	EXPECT_EQ((size_t)left << 40, sz);
	t_case("p_stores_one_element_of_each_type");

	EXPECT(shmem_g(&d, right) == me + 0.5, "expected %g, got %g", me + 0.5, shmem_g(&d, right));
	EXPECT_EQ('a' + me, shmem_char_g(&c, right));
	EXPECT_EQ((size_t)me << 40, shmem_g(&sz, right));
	t_case("g_loads_one_element_of_each_type");
	shmem_barrier_all();
}

static void test_strided(void)
{
	static int idest[3 * N];
	static uint64_t s64[2 * N];
	int isrc[2 * N], i, ok = 1;
	uint64_t got[N];

	for (i = 0; i < 2 * N; i++)
		isrc[i] = me * 100 + i;
	memset(idest, 0xff, sizeof idest);
	shmem_barrier_all();
	/* Every other source element to every third destination slot. */
	shmem_int_iput(idest, isrc, 3, 2, N, right);
	shmem_barrier_all();
	for (i = 0; i < 3 * N && ok; i++) {
		int want = i % 3 ? -1 : left * 100 + 2 * (i / 3);

		ok = idest[i] == want;
		EXPECT(ok, "expected idest[%d] = %d, got %d", i, want, idest[i]);
	}
	t_case("iput_scatters_with_both_strides");

	for (i = 0; i < 2 * N; i++)
		s64[i] = ((uint64_t)me << 32) | (uint64_t)i;
	shmem_barrier_all();
	shmem_iget64(got, s64, 1, 2, N, right);
	for (i = 0; i < N; i++)
		if (got[i] != (((uint64_t)right << 32) | (uint64_t)(2 * i))) {
			EXPECT(0, "expected got[%d] = %#llx, got %#llx", i,
			       (unsigned long long)(((uint64_t)right << 32) | (uint64_t)(2 * i)),
			       (unsigned long long)got[i]);
			break;
		}
	t_case("iget64_gathers_every_second_element");
	shmem_barrier_all();
}

static void test_sized(void)
{
	static unsigned char d8[16 * N];
	unsigned char s[16 * N];
	int bits, i;

	for (bits = 8; bits <= 128; bits *= 2) {
		size_t bytes = 8 * N, n = bytes / (bits / 8);

		for (i = 0; i < 16 * N; i++)
			s[i] = (unsigned char)(me * 7 + i + bits);
		memset(d8, 0, sizeof d8);
		shmem_barrier_all();
		switch (bits) {
		case 8: shmem_put8(d8, s, n, right); break;
		case 16: shmem_put16(d8, s, n, right); break;
		case 32: shmem_put32(d8, s, n, right); break;
		case 64: shmem_put64(d8, s, n, right); break;
		case 128: shmem_put128(d8, s, n, right); break;
		}
		shmem_barrier_all();
		for (i = 0; i < 16 * N; i++) {
			unsigned char want = (size_t)i < bytes ? (unsigned char)(left * 7 + i + bits) : 0;

			if (d8[i] != want) {
				EXPECT(0, "put%d: expected byte %d = %u, got %u", bits, i, want, d8[i]);
				break;
			}
		}
	}
	t_case("sized_puts_copy_nelems_times_size_bytes");
}

static void test_big(void)
{
	size_t i;
	int ok = 1;

	for (i = 0; i < BIG; i++)
		st_big[i] = st_big_src[i] = (unsigned char)(i * 31 + me);
	shmem_barrier_all();
	shmem_getmem(st_big, st_big_src, BIG / 2, right);
	shmem_barrier_all();
	for (i = 0; i < BIG && ok; i++) {
		unsigned char want = (unsigned char)(i * 31 + (i < BIG / 2 ? right : me));

		ok = st_big[i] == want;
		EXPECT(ok, "expected byte %zu = %u, got %u", i, want, st_big[i]);
	}
	t_case("half_mib_get_lands_whole_and_stops_at_its_end");
}

/* Moving nothing checks nothing: 0 bytes at NULL are no error. */
static void test_zero(void)
{
	shmem_putmem(NULL, NULL, 0, right);
	shmem_getmem(NULL, NULL, 0, right);
	shmem_putmem_nbi(NULL, NULL, 0, right);
	shmem_getmem_nbi(NULL, NULL, 0, right);
	shmem_int_iput(NULL, NULL, 1, 1, 0, right);
	shmem_int_iget(NULL, NULL, 1, 1, 0, right);
	shmem_long_put(NULL, NULL, 0, right);
	shmem_quiet();
	shmem_barrier_all();
	t_case("zero_length_calls_take_any_address");
}

int main(void)
{
	t_init();
	test_queries();
	test_accessibility();
	test_ptr();
	test_put_get();
	test_nbi();
	test_p_g();
	test_strided();
	test_sized();
	test_big();
	test_zero();
	shmem_finalize();
	return 0;
}
