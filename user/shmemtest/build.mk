# OpenSHMEM tests (tests/suites/shmem.py) and benchmark: user programs built
# with smapcc, the same binaries for host mode and the kernel; and the host
# unit test of the symmetric heap's allocator.
SHMEMTEST := $(patsubst user/shmemtest/%.c,$(B)/user/%,\
	$(filter-out %_unit.c,$(wildcard user/shmemtest/shmem_*.c)))
SHMEM_BENCH := $(B)/user/shmem_bench
SHMEM_HEAP_UNIT := $(B)/test/shmem_heap_unit

$(B)/user/shmem_%: user/shmemtest/shmem_%.c user/shmemtest/shmemtest.h $(SMAPCC_DEPS)
	@mkdir -p $(@D)
	$(SMAPCC) -O2 -Wall -Wextra -Werror -o $@ $<

$(SHMEM_BENCH): user/bench/shmem_bench.c $(SMAPCC_DEPS)
	@mkdir -p $(@D)
	$(SMAPCC) -O2 -Wall -Wextra -Werror -o $@ $<

$(SHMEM_HEAP_UNIT): user/shmemtest/shmem_heap_unit.c libsmap/shmem/heap.c libsmap/shmem/heap.h
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) -Ilibsmap/shmem -o $@ user/shmemtest/shmem_heap_unit.c libsmap/shmem/heap.c

ALL += $(SHMEMTEST) $(SHMEM_BENCH) $(SHMEM_HEAP_UNIT)
TEST_DEPS += $(SHMEMTEST) $(SHMEM_HEAP_UNIT)
BENCH_DEPS += $(SHMEM_BENCH)
