# tests: host unit tests of the kernel's pure logic.  Each test compiles
# the kernel's own source file with the host compiler: the same code, no
# #ifdef.  Kernel headers are reached with -iquote so that names like
# time.h or errno.h never shadow the host's system headers.

UNIT_DIR := $(B)/tests/unit
UNIT_CFLAGS := $(HOST_CFLAGS) -iquote kernel/include -iquote tests/unit
UNIT_TESTS := $(addprefix $(UNIT_DIR)/,test_pmem test_multiboot test_cmdline test_elf test_format test_urange \
	test_smartmap test_net test_waits)

$(UNIT_DIR)/test_pmem: kernel/pmem.c
$(UNIT_DIR)/test_multiboot: kernel/multiboot.c
$(UNIT_DIR)/test_cmdline: kernel/cmdline.c
$(UNIT_DIR)/test_elf: kernel/elf.c
$(UNIT_DIR)/test_smartmap: UNIT_CFLAGS += -Ilibsmap/include -Iarch/x86_64/include
$(UNIT_DIR)/test_waits: libsmap/core/waitrule.h
$(UNIT_DIR)/test_net: kernel/net/engine.c kernel/net/acc.c kernel/lib/crc32c.c arch/x86_64/crc32c.c \
	kernel/net/engine.h kernel/net/acc.h kernel/net/proto.h kernel/uapi/smapos_net.h
$(UNIT_DIR)/test_net: UNIT_CFLAGS += -Ikernel/uapi

$(UNIT_DIR)/test_%: tests/unit/test_%.c tests/unit/unit.h | $(B)/.deps-build
	@mkdir -p $(@D)
	@echo "  HOSTCC  $@"
	$(Q)$(CC) $(UNIT_CFLAGS) -o $@ $< $(filter %.c,$(filter-out $<,$^)) $(filter %.o,$^)

# vsnprintf is renamed so the test can compare it with the host libc's.
$(UNIT_DIR)/kformat.o: kernel/lib/format.c | $(B)/.deps-build
	@mkdir -p $(@D)
	$(Q)$(CC) $(UNIT_CFLAGS) -Dvsnprintf=k_vsnprintf -Dsnprintf=k_snprintf -c -o $@ $<
$(UNIT_DIR)/test_format: $(UNIT_DIR)/kformat.o

TEST_DEPS += $(UNIT_TESTS)
