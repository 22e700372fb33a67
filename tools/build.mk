# tools: the boot images.  Plain `make` writes $(B)/smapos.iso, which
# `make run` boots: the demo on every CPU (default entry, no menu delay),
# the self-test, and the demo on the serial console only.
#
#   make image APP=prog [NP=N] [ARGS="a 'b c'"] [MEM=SIZE] [EXIT=halt]
#              [APPEND="kernel options"] [SELFTEST_ARGS="--cpus 64"]
#              [TIMEOUT=S] [IMAGE=path.iso] [NETDIR=dir] [NODES=K]
#
# writes a flashable image for real nodes (docs/flashing.md).  APP is a
# path or the name of a program in $(B)/user/ (built first); ARGS are shell
# words, as typed after the program on a command line.

SMAPOS_ISO := $(B)/smapos.iso
IMAGE ?= $(B)/image.iso
# user/*/build.mk come after this fragment: name their outputs by path.
MKIMAGE_DEPS := tools/mkimage tools/lwk/image.py tools/lwk/boot.py tools/lwk/cli.py \
	$(KERNEL_ELF) $(B)/user/selftest

$(SMAPOS_ISO): $(MKIMAGE_DEPS) $(B)/user/demo | $(B)/.deps-image
	@echo "  MKIMAGE $@"
	$(Q)$(PYTHON) tools/mkimage -o $@ --timeout 0 $(B)/user/demo >/dev/null

ifneq ($(filter image,$(MAKECMDGOALS)),)
ifeq ($(APP),)
$(error make image needs APP=program (and NP=ranks, ARGS="arguments"); see docs/flashing.md)
endif
endif

IMAGE_APP := $(if $(findstring /,$(APP)),$(APP),$(B)/user/$(APP))

image: $(MKIMAGE_DEPS) $(IMAGE_APP) | $(B)/.deps-image
	$(Q)$(PYTHON) tools/mkimage -o $(IMAGE) -n $(or $(NP),all) $(if $(MEM),--mem $(MEM)) \
		$(if $(EXIT),--exit $(EXIT)) $(if $(TIMEOUT),--timeout $(TIMEOUT)) \
		$(if $(APPEND),--append "$(APPEND)") \
		$(if $(SELFTEST_ARGS),--selftest-args "$(SELFTEST_ARGS)") \
		$(if $(NETDIR),--netdir $(NETDIR)) $(if $(NODES),--nodes $(NODES)) \
		$(IMAGE_APP) $(ARGS)

ALL += $(SMAPOS_ISO)
TEST_DEPS += $(SMAPOS_ISO)

# Host unit tests of the pieces the image and hardware suites cannot reach
# under QEMU/TCG (rules in tests/build.mk).
HW_UNIT_TESTS := $(UNIT_DIR)/test_grub_quoting $(UNIT_DIR)/test_apic_mode
$(UNIT_DIR)/test_grub_quoting: kernel/cmdline.c
$(UNIT_DIR)/test_apic_mode: arch/x86_64/apic.h
$(UNIT_DIR)/test_apic_mode: UNIT_CFLAGS += -iquote arch/x86_64

TEST_DEPS += $(HW_UNIT_TESTS)
