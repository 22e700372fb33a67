# user/rmatest: the one-sided (MPI RMA) test programs (tests/suites/rma.py).
# Standard MPI only: the same sources build with mpicc.mpich and
# mpicc.openmpi; they report through user/mpitest/mpit.h.

RMATEST := $(patsubst user/rmatest/%.c,$(B)/user/%,$(wildcard user/rmatest/rmat_*.c))

$(B)/user/rmat_%: user/rmatest/rmat_%.c user/rmatest/rmat.h user/mpitest/mpit.h $(SMAPCC_DEPS)
	@mkdir -p $(@D)
	$(SMAPCC) -O2 $(WARN) -o $@ $<

ALL += $(RMATEST)
TEST_DEPS += $(RMATEST)

RMA_BENCH := $(B)/user/rma_bench

$(RMA_BENCH): user/bench/rma_bench.c $(SMAPCC_DEPS)
	@mkdir -p $(@D)
	$(SMAPCC) -O2 $(WARN) -o $@ $<

ALL += $(RMA_BENCH)
BENCH_DEPS += $(RMA_BENCH)
