# tools/switch: the Ethernet switch between QEMU nodes (lwkrun --nodes K).
SWITCH := $(B)/tools/switch

$(SWITCH): tools/switch/switch.c | $(B)/.deps-build
	@mkdir -p $(@D)
	@echo "  CC      $@"
	$(Q)$(CC) $(HOST_CFLAGS) -o $@ $<

ALL += $(SWITCH)
TEST_DEPS += $(SWITCH)
BENCH_DEPS += $(SWITCH)
