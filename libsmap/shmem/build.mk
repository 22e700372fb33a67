# libsmap/shmem: OpenSHMEM 1.5 over SMARTMAP (docs/shmem.md).  The objects
# compile like the rest of libsmap, then tools/pshmem gives every routine
# shmem_X its profiling name pshmem_X and makes shmem_X weak; they go into
# libsmap.a.  libsmap/include/pshmem.h is generated from them (checked
# current by make test).
SHMEM_OBJS := $(patsubst %.c,$(B)/%.o,$(wildcard libsmap/shmem/*.c))

$(B)/libsmap/shmem/%.o: libsmap/shmem/%.c tools/pshmem | $(B)/.deps-build
	@mkdir -p $(@D)
	$(MUSLCC) $(LIBSMAP_CFLAGS) -MT $@ -MF $(@:.o=.d) -c -o $@.raw $<
	tools/pshmem object $@.raw $@
	@rm -f $@.raw

$(LIBSMAP): $(SHMEM_OBJS)
