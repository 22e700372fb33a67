# The demo job `make run` boots (and the default entry of build/smapos.iso).
$(B)/user/demo: user/demo/demo.c $(SMAPCC_DEPS)
	@mkdir -p $(@D)
	@echo "  SMAPCC  $@"
	$(Q)$(SMAPCC) -O2 -Wall -Wextra -Werror -o $@ $<

ALL += $(B)/user/demo
TEST_DEPS += $(B)/user/demo
