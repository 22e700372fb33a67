# libsmap/rpipe: rmalloc()/rpipe() on SMARTMAP (docs/rpipe.md).  The objects
# join libsmap.a through libsmap/build.mk's pattern rule; the remote heap
# (rheap.c) also builds natively into its unit test (user/rpipetest).

RPIPE_OBJS := $(patsubst %.c,$(B)/%.o,$(wildcard libsmap/rpipe/*.c))
$(LIBSMAP): $(RPIPE_OBJS)
