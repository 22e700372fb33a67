# libsmap/net: ranks' side of the network engine, and host mode's engine:
# the kernel's own kernel/net/engine.c, compiled into libsmap.a as well.
NET_OBJS := $(patsubst %.c,$(B)/%.o,$(wildcard libsmap/net/*.c)) $(B)/libsmap/net/engine.o \
	$(B)/libsmap/net/acc.o $(B)/libsmap/net/crc32c.o $(B)/libsmap/net/crc32c_hw.o

$(B)/libsmap/net/engine.o $(B)/libsmap/net/acc.o: $(B)/libsmap/net/%.o: kernel/net/%.c | $(B)/.deps-build
	@mkdir -p $(@D)
	$(MUSLCC) $(LIBSMAP_CFLAGS) -c -o $@ $<

$(B)/libsmap/net/crc32c.o: kernel/lib/crc32c.c | $(B)/.deps-build
	@mkdir -p $(@D)
	$(MUSLCC) $(LIBSMAP_CFLAGS) -Ikernel/include -c -o $@ $<

$(LIBSMAP): $(NET_OBJS)

$(B)/libsmap/net/crc32c_hw.o: arch/x86_64/crc32c.c | $(B)/.deps-build
	@mkdir -p $(@D)
	$(MUSLCC) $(LIBSMAP_CFLAGS) -Ikernel/include -c -o $@ $<
