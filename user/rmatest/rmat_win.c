/*
 * rmat_win.c - windows: the attributes of each flavour, Win_allocate,
 * Win_allocate_shared with contiguous segments and Win_shared_query
 * (every rank, MPI_PROC_NULL, ranks of size 0), dynamic windows with
 * attach/detach, windows over a split communicator (window ranks are not
 * world ranks), the window's group, names, attribute caching with delete
 * callbacks, and many windows created and freed in turn.
 */
#include <stdint.h>
#include "rmat.h"

#define N	64

static void test_attributes(void)
{
	int buf[N], *size_unit, *flavor, *model, flag, *ab;
	MPI_Aint *size;
	void *base;
	MPI_Win w;

	MPI_Win_create(buf, sizeof buf, sizeof buf[0], MPI_INFO_NULL, MPI_COMM_WORLD, &w);
	MPI_Win_get_attr(w, MPI_WIN_BASE, &base, &flag);
	mpit_expect_int("MPI_WIN_BASE is the buffer", 1, flag && base == buf);
	MPI_Win_get_attr(w, MPI_WIN_SIZE, &size, &flag);
	mpit_expect_int("MPI_WIN_SIZE", sizeof buf, flag ? *size : -1);
	MPI_Win_get_attr(w, MPI_WIN_DISP_UNIT, &size_unit, &flag);
	mpit_expect_int("MPI_WIN_DISP_UNIT", sizeof buf[0], flag ? *size_unit : -1);
	MPI_Win_get_attr(w, MPI_WIN_CREATE_FLAVOR, &flavor, &flag);
	mpit_expect_int("flavour of Win_create", MPI_WIN_FLAVOR_CREATE, flag ? *flavor : -1);
	MPI_Win_get_attr(w, MPI_WIN_MODEL, &model, &flag);
	mpit_expect_int("memory model", MPI_WIN_UNIFIED, flag ? *model : -1);
	MPI_Win_free(&w);
	mpit_expect_int("Win_free sets MPI_WIN_NULL", 1, w == MPI_WIN_NULL);

	MPI_Win_allocate(N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &ab, &w);
	MPI_Win_get_attr(w, MPI_WIN_CREATE_FLAVOR, &flavor, &flag);
	mpit_expect_int("flavour of Win_allocate", MPI_WIN_FLAVOR_ALLOCATE, *flavor);
	MPI_Win_get_attr(w, MPI_WIN_BASE, &base, &flag);
	mpit_expect_int("MPI_WIN_BASE is baseptr", 1, base == ab);
	ab[N - 1] = me;
	MPI_Win_fence(0, w);
	MPI_Get(buf, 1, MPI_INT, right, N - 1, 1, MPI_INT, w);
	MPI_Win_fence(MPI_MODE_NOSUCCEED, w);
	mpit_expect_int("last int of the right neighbour's allocation", right, buf[0]);
	MPI_Win_free(&w);
	mpit_report("rma_window_attributes_create_and_allocate");
}

static void test_shared(void)
{
	MPI_Aint sz, mysz = (me + 1) * sizeof(int), q;
	int *mine, *p, *first, du, r, i;
	MPI_Win w;

	/* Rank r has r + 1 ints; segments follow each other without a gap. */
	MPI_Win_allocate_shared(mysz, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mine, &w);
	MPI_Win_shared_query(w, 0, &sz, &du, &first);
	for (r = 0, q = 0; r < np; q += r + 1, r++) {
		MPI_Win_shared_query(w, r, &sz, &du, &p);
		mpit_expect_int("segment size", (r + 1) * sizeof(int), sz);
		mpit_expect_int("segment is contiguous with the previous", 1, p == first + q);
	}
	mpit_expect_int("own segment is baseptr", 1, mine == first + me * (me + 1) / 2);
	MPI_Win_lock_all(0, w);
	for (i = 0; i <= me; i++)
		mine[i] = rmat_val(me, me, i);
	MPI_Win_sync(w);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Win_sync(w);
	for (r = 0, i = 0; r < np; r++)
		for (q = 0; q <= r; q++, i++)
			if (first[i] != rmat_val(r, r, q)) {
				mpit_fail("int %d of the whole window: expected %d, got %d", i,
					  rmat_val(r, r, q), first[i]);
				r = np;
				break;
			}
	MPI_Win_unlock_all(w);
	MPI_Win_free(&w);
	mpit_report("rma_allocate_shared_is_contiguous_and_queryable");

	/* Only the last rank has memory: MPI_PROC_NULL finds it. */
	MPI_Win_allocate_shared(me == np - 1 ? 8 : 0, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mine, &w);
	MPI_Win_shared_query(w, MPI_PROC_NULL, &sz, &du, &p);
	mpit_expect_int("size of the first non-empty segment", 8, sz);
	MPI_Win_shared_query(w, np - 1, &sz, &du, &first);
	mpit_expect_int("MPI_PROC_NULL gives the last rank's segment", 1, p == first);
	MPI_Win_free(&w);
	mpit_report("rma_shared_query_proc_null");
}

static void test_dynamic(void)
{
	MPI_Aint *addr = malloc(np * sizeof *addr), *size;
	int *mem = malloc(N * sizeof *mem), got[N], flag, *flavor;
	void *base;
	MPI_Win w;

	MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w);
	MPI_Win_get_attr(w, MPI_WIN_CREATE_FLAVOR, &flavor, &flag);
	mpit_expect_int("flavour of Win_create_dynamic", MPI_WIN_FLAVOR_DYNAMIC, *flavor);
	MPI_Win_get_attr(w, MPI_WIN_SIZE, &size, &flag);
	mpit_expect_int("size of a dynamic window", 0, *size);
	MPI_Win_get_attr(w, MPI_WIN_BASE, &base, &flag);
	mpit_expect_int("base of a dynamic window is MPI_BOTTOM", 1, base == MPI_BOTTOM);
	rmat_fill(mem, N, me, me);
	MPI_Win_attach(w, mem, N * sizeof *mem);
	MPI_Get_address(mem, &addr[me]);
	MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, addr, 1, MPI_AINT, MPI_COMM_WORLD);
	MPI_Win_lock(MPI_LOCK_SHARED, right, 0, w);
	MPI_Get(got, N, MPI_INT, right, addr[right], N, MPI_INT, w);
	MPI_Win_unlock(right, w);
	rmat_expect("get at an attached address", got, N, right, right);
	rmat_fill(got, N, me, right);
	MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, w);
	MPI_Put(got, N / 2, MPI_INT, right, addr[right] + N / 2 * sizeof(int), N / 2, MPI_INT, w);
	MPI_Win_unlock(right, w);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Win_lock(MPI_LOCK_SHARED, me, 0, w);
	rmat_expect("first half untouched", mem, N / 2, me, me);
	rmat_expect("second half put by the left neighbour", mem + N / 2, N / 2, left, me);
	MPI_Win_unlock(me, w);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Win_detach(w, mem);
	MPI_Win_free(&w);
	free(mem);
	free(addr);
	mpit_report("rma_dynamic_window_attach_put_get_detach");
}

static void test_split(void)
{
	MPI_Comm half;
	MPI_Group wg, cg;
	int hr, hn, v, res, *base;
	MPI_Win w;

	/* Reversed halves: window rank 0 is the highest world rank of a parity. */
	MPI_Comm_split(MPI_COMM_WORLD, me % 2, -me, &half);
	MPI_Comm_rank(half, &hr);
	MPI_Comm_size(half, &hn);
	MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, half, &base, &w);
	MPI_Win_get_group(w, &wg);
	MPI_Comm_group(half, &cg);
	MPI_Group_compare(wg, cg, &res);
	mpit_expect_int("window group is the communicator's", MPI_IDENT, res);
	MPI_Group_free(&wg);
	MPI_Group_free(&cg);
	*base = -1;
	v = me;
	MPI_Win_fence(0, w);
	MPI_Put(&v, 1, MPI_INT, (hr + 1) % hn, 0, 1, MPI_INT, w);
	MPI_Win_fence(MPI_MODE_NOSUCCEED, w);
	/* Window rank hr - 1 is world rank me + 2 (ranks descend). */
	mpit_expect_int("put from the previous window rank", hn == 1 ? me :
			hr == 0 ? me % 2 : me + 2, *base);
	MPI_Win_free(&w);
	MPI_Comm_free(&half);
	mpit_report("rma_window_over_a_split_communicator");
}

static int deleted;

static int count_delete(MPI_Win w, int key, void *val, void *extra)
{
	(void)w;
	(void)key;
	deleted += *(int *)val + (extra == &deleted);
	return MPI_SUCCESS;
}

static void test_names_and_attrs(void)
{
	static int seven = 7;
	char name[MPI_MAX_OBJECT_NAME];
	int key, len, flag, *got;
	MPI_Win w;

	MPI_Win_create(NULL, 0, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w);
	MPI_Win_set_name(w, "halo window");
	MPI_Win_get_name(w, name, &len);
	mpit_expect_int("name round trip", 0, strcmp(name, "halo window"));
	mpit_expect_int("name length", 11, len);
	MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, count_delete, &key, &deleted);
	MPI_Win_set_attr(w, key, &seven);
	MPI_Win_get_attr(w, key, &got, &flag);
	mpit_expect_int("attribute found", 1, flag && got == &seven);
	deleted = 0;
	MPI_Win_free(&w);
	mpit_expect_int("delete callback at Win_free", 8, deleted);
	MPI_Win_free_keyval(&key);
	mpit_expect_int("keyval reset", MPI_KEYVAL_INVALID, key);
	mpit_report("rma_window_names_and_attribute_caching");
}

/* Windows hold resources (context ids, engine groups): all come back. */
static void test_many_windows(void)
{
	int i, v, *base;
	MPI_Win w;

	for (i = 0; i < 300; i++) {
		MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &w);
		v = i;
		MPI_Win_fence(0, w);
		MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, w);
		MPI_Win_fence(MPI_MODE_NOSUCCEED, w);
		if (*base != i) {
			mpit_fail("window %d: expected %d, got %d", i, i, *base);
			i = 300;
		}
		MPI_Win_free(&w);
	}
	mpit_report("rma_three_hundred_windows_created_and_freed");
}

int main(int argc, char **argv)
{
	rmat_init(&argc, &argv);
	test_attributes();
	test_shared();
	test_dynamic();
	test_split();
	test_names_and_attrs();
	test_many_windows();
	MPI_Finalize();
	return 0;
}
