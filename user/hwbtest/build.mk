# user/hwbtest: the hardware barrier's test and benchmark programs, run on
# several QEMU nodes by tests/suites/hwbarrier.py and
# user/bench/hwbarrier_bench.

HWBTEST := $(addprefix $(B)/user/,hwbtest hwbench)

$(B)/user/hwb%: user/hwbtest/hwb%.c $(SMAPCC_DEPS)
	@mkdir -p $(@D)
	@echo "  SMAPCC  $@"
	$(Q)$(SMAPCC) -O2 $(WARN) -Ikernel/uapi -o $@ $<

ALL += $(HWBTEST)
TEST_DEPS += $(HWBTEST)
BENCH_DEPS += $(HWBTEST)
