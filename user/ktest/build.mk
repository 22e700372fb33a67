# Kernel test programs: plain static musl programs (the route an
# unmodified application takes) and, for SMARTMAP, libsmap programs.
KTEST_MUSL := $(addprefix $(B)/user/,ktest_libc ktest_fault ktest_fuzz)
KTEST_SMAP := $(addprefix $(B)/user/,ktest_smap ktest_harden)

$(KTEST_MUSL): $(B)/user/%: user/ktest/%.c user/ktest/tap.h | $(B)/.deps-build
	@mkdir -p $(@D)
	@echo "  MUSLCC  $@"
	$(Q)$(MUSLCC) -static -O2 -Wall -Wextra -Werror -o $@ $< -lm

$(KTEST_SMAP): $(B)/user/%: user/ktest/%.c user/ktest/tap.h $(SMAPCC_DEPS)
	@mkdir -p $(@D)
	@echo "  SMAPCC  $@"
	$(Q)$(SMAPCC) -O2 -Wall -Wextra -Werror -o $@ $<

ALL += $(KTEST_MUSL) $(KTEST_SMAP)
TEST_DEPS += $(KTEST_MUSL) $(KTEST_SMAP)
