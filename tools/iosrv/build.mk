# tools/iosrv: the I/O server lwkrun runs beside each QEMU job (file
# system calls shipped by kernel/fileio.c; docs/fileio.md).

IOSRV := $(B)/tools/iosrv

$(IOSRV): tools/iosrv/iosrv.c kernel/uapi/smapos_fileio.h
	@mkdir -p $(@D)
	@echo "  CC      $@"
	$(Q)$(CC) $(HOST_CFLAGS) -Ikernel/uapi -o $@ tools/iosrv/iosrv.c

ALL += $(IOSRV)
TEST_DEPS += $(IOSRV)
BENCH_DEPS += $(IOSRV)
