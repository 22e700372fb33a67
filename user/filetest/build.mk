# user/filetest: files on the kernel (shipped to the I/O server) and in
# host mode; tests/suites/files.py.
$(B)/user/filetest: user/filetest/filetest.c $(SMAPCC_DEPS)
	@mkdir -p $(@D)
	@echo "  SMAPCC  $@"
	$(Q)$(SMAPCC) -O2 $(WARN) -o $@ $<

ALL += $(B)/user/filetest
TEST_DEPS += $(B)/user/filetest
BENCH_DEPS += $(B)/user/filetest

$(B)/user/mpit_file: user/filetest/mpit_file.c $(SMAPCC_DEPS)
	@mkdir -p $(@D)
	@echo "  SMAPCC  $@"
	$(Q)$(SMAPCC) -O2 $(WARN) -o $@ $<

ALL += $(B)/user/mpit_file
TEST_DEPS += $(B)/user/mpit_file
