# The collective engine's test program (tests/suites/coll.py): drives
# libsmap/coll directly; the same binary runs on the kernel and in host mode.
COLLTEST := $(B)/user/colltest
COLLTEST_SRC := $(wildcard user/colltest/*.c)

$(COLLTEST): $(COLLTEST_SRC) user/colltest/colltest.h libsmap/coll/coll.h $(SMAPCC_DEPS)
	@mkdir -p $(@D)
	$(SMAPCC) -O2 -Wall -Wextra -Werror -Ilibsmap/coll -o $@ $(COLLTEST_SRC)

ALL += $(COLLTEST)
TEST_DEPS += $(COLLTEST)
