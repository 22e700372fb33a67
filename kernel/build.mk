# kernel: the portable kernel, linked with arch/x86_64 into smapos.elf.
#
# The image carries its own symbol table for stack traces.  The table is
# placed after .data, so text addresses do not move when it is filled in:
# link once with an empty table, generate it, link again.

KERNEL_ELF := $(B)/kernel/smapos.elf
KERNEL_C := $(wildcard kernel/*.c kernel/lib/*.c kernel/drivers/*.c kernel/net/*.c)
KERNEL_OBJS := $(KERNEL_C:%.c=$(B)/%.o) $(B)/gen/font.o

GCC_INCLUDE := $(shell $(CC) -print-file-name=include)
KERNEL_CFLAGS := -std=gnu11 -O2 -g $(WARN) -ffreestanding -nostdinc -isystem $(GCC_INCLUDE) \
	-isystem kernel/include/libc -Ikernel/include -Iarch/x86_64/include -Ikernel/uapi \
	-fno-pic -fno-pie -mcmodel=kernel -mno-red-zone -mgeneral-regs-only \
	-fno-stack-protector -fno-omit-frame-pointer -fno-common \
	-fno-asynchronous-unwind-tables -MMD -MP

$(B)/kernel/%.o: kernel/%.c | $(B)/.deps-build
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(KERNEL_CFLAGS) -c -o $@ $<

# The engine's accumulate combines floating elements: SSE, on the engine's
# CPU only (kernel/net/acc.c).
$(B)/kernel/net/acc.o: KERNEL_CFLAGS := $(filter-out -mgeneral-regs-only,$(KERNEL_CFLAGS))

$(B)/arch/%.o: arch/%.c | $(B)/.deps-build
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(KERNEL_CFLAGS) -c -o $@ $<

$(B)/gen/font.c: tools/mkfont | $(B)/.deps-build $(B)/.deps-image
	@mkdir -p $(dir $@)
	$(PYTHON) tools/mkfont /usr/share/grub/ascii.pf2 $@

$(B)/gen/font.o: $(B)/gen/font.c
	@echo "  CC      $<"
	$(Q)$(CC) $(KERNEL_CFLAGS) -c -o $@ $<

KERNEL_LINK = ld -nostdlib -z max-page-size=0x1000 -T arch/x86_64/kernel.ld

$(B)/kernel/ksyms0.o: tools/ksyms | $(B)/.deps-build
	@mkdir -p $(dir $@)
	$(Q)$(PYTHON) tools/ksyms /dev/null $(B)/kernel/ksyms0.c
	$(Q)$(CC) $(KERNEL_CFLAGS) -c -o $@ $(B)/kernel/ksyms0.c

$(KERNEL_ELF): $(ARCH_OBJS) $(KERNEL_OBJS) $(B)/kernel/ksyms0.o arch/x86_64/kernel.ld tools/ksyms
	@echo "  LD      $@"
	$(Q)$(KERNEL_LINK) -o $@.pass1 $(ARCH_OBJS) $(KERNEL_OBJS) $(B)/kernel/ksyms0.o
	$(Q)nm -n $@.pass1 > $@.syms
	$(Q)$(PYTHON) tools/ksyms $@.syms $(B)/kernel/ksyms.c
	$(Q)$(CC) $(KERNEL_CFLAGS) -c -o $(B)/kernel/ksyms.o $(B)/kernel/ksyms.c
	$(Q)$(KERNEL_LINK) -o $@ $(ARCH_OBJS) $(KERNEL_OBJS) $(B)/kernel/ksyms.o
	$(Q)nm -n $@ | $(PYTHON) tools/ksyms --check $@.syms

ALL += $(KERNEL_ELF)
TEST_DEPS += $(KERNEL_ELF)

-include $(KERNEL_OBJS:.o=.d) $(ARCH_OBJS:.o=.d)
