# SMARTMAP micro-benchmarks of libsmap's core (printed figures, run with
# lwkrun -n 2, on the kernel or with --host).
SMAP_BENCH := $(addprefix $(B)/user/,smap_latency smap_bandwidth)

$(B)/user/smap_%: user/bench/smap_%.c user/bench/smap_bench.h $(SMAPCC_DEPS)
	@mkdir -p $(@D)
	$(SMAPCC) -O2 -Wall -Wextra -Werror -pthread -o $@ $<

ALL += $(SMAP_BENCH)
BENCH_DEPS += $(SMAP_BENCH)

# Kernel costs seen from a rank: null syscall, clock_gettime, launch to main.
$(B)/user/kbench: user/bench/kbench.c $(SMAPCC_DEPS)
	@mkdir -p $(@D)
	@echo "  SMAPCC  $@"
	$(Q)$(SMAPCC) -O2 -Wall -Wextra -Werror -o $@ $<

ALL += $(B)/user/kbench
BENCH_DEPS += $(B)/user/kbench

# OS noise (fixed work quantum): a plain static musl program, so the same
# binary runs as smapos ranks, as a Linux guest's /init and natively.
$(B)/user/noise: user/bench/noise.c | $(B)/.deps-build
	@mkdir -p $(@D)
	@echo "  MUSLCC  $@"
	$(Q)$(MUSLCC) -static -O2 $(WARN) -o $@ $<

ALL += $(B)/user/noise
BENCH_DEPS += $(B)/user/noise
TEST_DEPS += $(B)/user/noise

# The standard-MPI benchmarks built with the host's MPICH and Open MPI, for
# the side-by-side runs of `make bench`.  GCC 12 takes MPICH's
# MPI_STATUSES_IGNORE, the constant (MPI_Status *)1, for a zero-sized array
# and warns on every call that passes it: that one warning is off for MPICH.
HOST_MPI_SRC := $(wildcard user/bench/mpi_bench.c user/bench/rma_bench.c)
HOST_MPI_BENCH := $(foreach impl,mpich openmpi,\
	$(patsubst user/bench/%.c,$(B)/bench/%.$(impl),$(HOST_MPI_SRC)))

$(B)/bench/%.mpich: user/bench/%.c | $(B)/.deps-bench
	@mkdir -p $(@D)
	@echo "  MPICC   $@"
	$(Q)mpicc.mpich -O2 $(WARN) -Wno-stringop-overflow -o $@ $<

$(B)/bench/%.openmpi: user/bench/%.c | $(B)/.deps-bench
	@mkdir -p $(@D)
	@echo "  MPICC   $@"
	$(Q)mpicc.openmpi -O2 $(WARN) -o $@ $<

BENCH_DEPS += $(HOST_MPI_BENCH)

# The QEMU runs of the campaign boot the kernel.
BENCH_DEPS += $(KERNEL_ELF)
