# Kernel test programs: plain static musl programs (the route an
# unmodified application takes) and, for SMARTMAP, libsmap programs.
KTEST_MUSL := $(addprefix $(B)/user/,ktest_libc ktest_fault ktest_fuzz)
KTEST_SMAP := $(addprefix $(B)/user/,ktest_smap ktest_harden)

$(KTEST_MUSL): $(B)/user/%: user/ktest/%.c user/ktest/tap.h | $(B)/.deps-build
	@mkdir -p $(@D)
	@echo "  MUSLCC  $@"
	$(Q)$(MUSLCC) -static -O2 -Wall -Wextra -Werror -Ilibsmap/include -Ikernel/uapi -o $@ $< -lm

$(KTEST_SMAP): $(B)/user/%: user/ktest/%.c user/ktest/tap.h $(SMAPCC_DEPS)
	@mkdir -p $(@D)
	@echo "  SMAPCC  $@"
	$(Q)$(SMAPCC) -O2 -Wall -Wextra -Werror -o $@ $<

ALL += $(KTEST_MUSL) $(KTEST_SMAP)
TEST_DEPS += $(KTEST_MUSL) $(KTEST_SMAP)

# make fuzz: the long campaign (docs/syscalls.md): 4 ranks x FUZZ_CALLS
# random system calls while they rewrite each other's arguments (file calls
# confined to a scratch directory), then a job that must still run.  Fails
# on a kernel fault, a foreign write or a dead next job.
FUZZ_CALLS ?= 250000
FUZZ_SEED ?= 1
.PHONY: fuzz
fuzz: $(KERNEL_ELF) $(B)/user/ktest_fuzz $(B)/user/ktest_libc | $(B)/.deps-qemu
	@rm -rf $(B)/fuzz-files && mkdir -p $(B)/fuzz-files && \
	$(PYTHON) tools/lwkrun -q -c 4 --files $(B)/fuzz-files -n 4 --timeout 3600 \
		$(B)/user/ktest_fuzz $(FUZZ_CALLS) $(FUZZ_SEED) --next -n 1 $(B)/user/ktest_libc \
		exit 0 < /dev/null > $(B)/fuzz.log 2>&1; \
	rm -rf $(B)/fuzz-files; \
	grep -a -v 'is not supported (ENOSYS)' $(B)/fuzz.log; \
	echo "fuzz: kernel faults: $$(grep -a -c 'kernel fault' $(B)/fuzz.log)"; \
	grep -a -q '^ok fuzz: .* no foreign write' $(B)/fuzz.log && \
	grep -a -q '^job 1: ktest_libc: 1 rank, status 0' $(B)/fuzz.log && \
	! grep -a -q 'kernel fault' $(B)/fuzz.log
