# The self-test job every image carries (docs/flashing.md), and argecho,
# which prints its argv and environment so tests can compare what the
# -kernel and GRUB paths deliver.
SELFTEST := $(B)/user/selftest
ARGECHO := $(B)/user/argecho

$(SELFTEST) $(ARGECHO): $(B)/user/%: user/selftest/%.c $(SMAPCC_DEPS)
	@mkdir -p $(@D)
	@echo "  SMAPCC  $@"
	$(Q)$(SMAPCC) -O2 -Wall -Wextra -Werror -o $@ $<

ALL += $(SELFTEST) $(ARGECHO)
TEST_DEPS += $(SELFTEST) $(ARGECHO)
