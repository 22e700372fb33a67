/*
 * shmem_prof.c - the profiling interface (OpenSHMEM 1.5 section 9.11), as a
 * tool uses it: this program defines shmem_putmem, shmem_long_atomic_
 * fetch_add and shmem_barrier_all itself, counts the calls and reaches the
 * library through the pshmem_ names; pshmem_ names called directly bypass
 * the wrappers; shmem_pcontrol takes every level.  TAP lines: shmemtest.h.
 */
#include <pshmem.h>
#include "shmemtest.h"

static int puts_seen, adds_seen, barriers_seen;
static long box[T_MAX_PES], counter;

void shmem_putmem(void *dest, const void *source, size_t nelems, int pe)
{
	puts_seen++;
	pshmem_putmem(dest, source, nelems, pe);
}

long shmem_long_atomic_fetch_add(long *dest, long value, int pe)
{
	adds_seen++;
	return pshmem_long_atomic_fetch_add(dest, value, pe);
}

void shmem_barrier_all(void)
{
	barriers_seen++;
	pshmem_barrier_all();
}

static void test_wrappers(void)
{
	long mine = 100 + me, old;
	int puts, adds, barriers;

	puts_seen = adds_seen = barriers_seen = 0;
	shmem_putmem(&box[me], &mine, sizeof mine, right);
	old = shmem_long_atomic_fetch_add(&counter, 1, 0);
	shmem_barrier_all();
	puts = puts_seen;
	adds = adds_seen;
	barriers = barriers_seen;
	EXPECT_EQ(1, puts);
	EXPECT_EQ(1, adds);
	EXPECT_EQ(1, barriers);
	EXPECT_EQ(100 + left, box[left]);
	EXPECT(old >= 0 && old < npes, "fetch_add returned %ld", old);
	if (me == 0)
		EXPECT_EQ(npes, counter);
	t_case("a_tool_defining_shmem_names_sees_the_calls_and_reaches_the_library");
}

static void test_direct(void)
{
	long mine = 200 + me;
	int puts;

	puts_seen = 0;
	pshmem_putmem(&box[me], &mine, sizeof mine, right);
	pshmem_long_atomic_fetch_add(&counter, 1, 0);
	pshmem_barrier_all();
	puts = puts_seen;
	EXPECT_EQ(0, puts);
	EXPECT_EQ(200 + left, box[left]);
	if (me == 0)
		EXPECT_EQ(2 * npes, counter);
	t_case("pshmem_names_reach_the_library_past_the_tool");
}

static void test_pcontrol(void)
{
	shmem_pcontrol(0);
	shmem_pcontrol(1);
	shmem_pcontrol(2, "detail");
	EXPECT_EQ(1, shmem_n_pes() == npes);
	t_case("shmem_pcontrol_takes_every_level");
}

int main(void)
{
	t_init();
	test_wrappers();
	test_direct();
	test_pcontrol();
	shmem_finalize();
	return 0;
}
