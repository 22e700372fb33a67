# arch/x86_64: the architecture half of the kernel (objects only; the link
# is in kernel/build.mk).

ARCH_DIR := arch/x86_64
ARCH_C := $(wildcard $(ARCH_DIR)/*.c)
ARCH_ASM := $(ARCH_DIR)/boot.asm $(ARCH_DIR)/entry.asm
ARCH_OBJS := $(ARCH_C:%.c=$(B)/%.o) $(ARCH_ASM:%.asm=$(B)/%.o)

$(B)/$(ARCH_DIR)/trampoline.bin: $(ARCH_DIR)/trampoline.asm | $(B)/.deps-build
	@mkdir -p $(dir $@)
	@echo "  NASM    $<"
	$(Q)$(NASM) -f bin -o $@ $<

$(B)/$(ARCH_DIR)/boot.o: $(B)/$(ARCH_DIR)/trampoline.bin

$(B)/$(ARCH_DIR)/%.o: $(ARCH_DIR)/%.asm | $(B)/.deps-build
	@mkdir -p $(dir $@)
	@echo "  NASM    $<"
	$(Q)$(NASM) -f elf64 -g -F dwarf -I$(B)/$(ARCH_DIR)/ -o $@ $<
