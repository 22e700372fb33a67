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
