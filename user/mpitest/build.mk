# user/mpitest: the MPI conformance programs (tests/suites/mpi.py) and the
# MPI benchmark (user/bench/mpi_bench.c).  Standard MPI only: the same
# sources build with mpicc.mpich and mpicc.openmpi.

MPITEST_SRC := $(wildcard user/mpitest/mpit_*.c)
MPITEST := $(patsubst user/mpitest/%.c,$(B)/user/%,$(MPITEST_SRC))
MPI_BENCH := $(B)/user/mpi_bench

$(B)/user/mpit_%: user/mpitest/mpit_%.c user/mpitest/mpit.h $(SMAPCC_DEPS)
	@mkdir -p $(@D)
	$(SMAPCC) -O2 $(WARN) -o $@ $<

$(MPI_BENCH): user/bench/mpi_bench.c $(SMAPCC_DEPS)
	@mkdir -p $(@D)
	$(SMAPCC) -O2 $(WARN) -o $@ $<

# MPI programs link the collective engine: build them once it is in libsmap.
ifneq ($(wildcard libsmap/coll/*.c),)
ALL += $(MPITEST) $(MPI_BENCH)
TEST_DEPS += $(MPITEST)
BENCH_DEPS += $(MPI_BENCH)
endif
