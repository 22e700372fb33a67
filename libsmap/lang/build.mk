# libsmap/lang: C++ and Fortran (docs/languages.md).
#
# libsmap-glibc.a is the whole of libsmap compiled a second time, with the
# host gcc against glibc: C++ and Fortran programs link glibc (Debian has
# no musl C++ or Fortran runtime), and a musl archive inside a glibc
# program would mix two C libraries.  Every libsmap/**/*.c goes in, as in
# libsmap.a, plus the generated Fortran bindings.  tools/smapcxx and
# tools/smapfort (links to tools/smapcc) link with it.

LIBSMAP_GLIBC := $(B)/lib/libsmap-glibc.a
SMAPCXX := tools/smapcxx
SMAPFORT := tools/smapfort
SMAPCXX_DEPS := tools/smapcc tools/smapcxx $(LIBSMAP_GLIBC)
SMAPFORT_DEPS := tools/smapcc tools/smapfort $(LIBSMAP_GLIBC) $(B)/include/mpif.h \
	$(B)/include/mpi.mod

LIBSMAP_GLIBC_OBJ := $(patsubst %.c,$(B)/glibc/%.o,$(shell find libsmap -name '*.c'))

$(B)/glibc/libsmap/%.o: libsmap/%.c | $(B)/.deps-build
	@mkdir -p $(@D)
	$(CC) $(LIBSMAP_CFLAGS) -c -o $@ $<

$(LIBSMAP_GLIBC): $(LIBSMAP_GLIBC_OBJ)
	@mkdir -p $(@D)
	@rm -f $@
	ar rcs $@ $(filter %.o,$^)

-include $(shell find $(B)/glibc -name '*.d' 2>/dev/null)

ALL += $(LIBSMAP_GLIBC)
TEST_DEPS += $(LIBSMAP_GLIBC)
