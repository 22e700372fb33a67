# libsmap/shmem: OpenSHMEM 1.5 over SMARTMAP (docs/shmem.md).  The objects
# compile with libsmap/build.mk's pattern rule and go into libsmap.a.
SHMEM_OBJS := $(patsubst %.c,$(B)/%.o,$(wildcard libsmap/shmem/*.c))

$(LIBSMAP): $(SHMEM_OBJS)
