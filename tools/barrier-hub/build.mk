# tools/barrier-hub: the barrier box for QEMU nodes (a libfuse3 program)
# and the host unit test of its state machine, which shares hubstate.c.

BARRIER_HUB := $(B)/tools/barrier-hub
HUBSTATE_TEST := $(B)/tests/unit/hubstate_test
HUB_CFLAGS = $(HOST_CFLAGS) $(shell pkg-config --cflags fuse3)
HUB_LIBS = $(shell pkg-config --libs fuse3)

$(BARRIER_HUB): tools/barrier-hub/hub.c tools/barrier-hub/hubstate.c tools/barrier-hub/hubstate.h | $(B)/.deps-hub
	@mkdir -p $(@D)
	@echo "  CC      $@"
	$(Q)$(CC) $(HUB_CFLAGS) -o $@ tools/barrier-hub/hub.c tools/barrier-hub/hubstate.c $(HUB_LIBS)

$(HUBSTATE_TEST): tools/barrier-hub/hubstate_test.c tools/barrier-hub/hubstate.c \
		tools/barrier-hub/hubstate.h tests/unit/unit.h
	@mkdir -p $(@D)
	@echo "  HOSTCC  $@"
	$(Q)$(CC) $(HOST_CFLAGS) -iquote tests/unit -o $@ tools/barrier-hub/hubstate_test.c \
		tools/barrier-hub/hubstate.c

ALL += $(BARRIER_HUB) $(HUBSTATE_TEST)
TEST_DEPS += $(BARRIER_HUB) $(HUBSTATE_TEST)
BENCH_DEPS += $(BARRIER_HUB)
