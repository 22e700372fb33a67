# SMARTMAP test programs: the same binaries run on the kernel and in host
# mode (tests/suites/smap_host.py).
SMAPTEST := $(addprefix $(B)/user/,smaptest_remote smaptest_sync smaptest_malloc smaptest_fail)

$(B)/user/smaptest_%: user/smaptest/smaptest_%.c user/smaptest/tap.h $(SMAPCC_DEPS)
	@mkdir -p $(@D)
	$(SMAPCC) -O2 -Wall -Wextra -Werror -o $@ $<

ALL += $(SMAPTEST)
TEST_DEPS += $(SMAPTEST)
