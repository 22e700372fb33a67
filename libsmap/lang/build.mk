# libsmap/lang: C++ and Fortran (docs/languages.md).
#
# libsmap-glibc.a is libsmap.a built a second time, with the host gcc
# against glibc: C++ and Fortran programs link glibc (Debian has no musl C++
# or Fortran runtime), and a musl archive inside a glibc program would mix
# two C libraries.  A sub-make builds the very same libsmap.a target with
# B=$(B)/glibc and MUSLCC=$(CC), so every object any fragment adds to
# libsmap.a (wherever its source lives) is in both archives.  The copy only
# happens when the archive changed, so programs relink only then.
# tools/smapcxx and tools/smapfort (links to tools/smapcc) link with it.

LIBSMAP_GLIBC := $(B)/lib/libsmap-glibc.a
SMAPCXX := tools/smapcxx
SMAPFORT := tools/smapfort
SMAPCXX_DEPS := tools/smapcc tools/smapcxx $(LIBSMAP_GLIBC)

# MPI handle conversion (C API) is part of libsmap proper.
$(LIBSMAP): $(patsubst %.c,$(B)/%.o,$(wildcard libsmap/lang/*.c))

.PHONY: libsmap-glibc-inner
libsmap-glibc-inner: | $(B)/.deps-build
	@$(MAKE) --no-print-directory B=$(B)/glibc MUSLCC=$(CC) $(B)/glibc/lib/libsmap.a

$(LIBSMAP_GLIBC): libsmap-glibc-inner
	@mkdir -p $(@D)
	@cmp -s $(B)/glibc/lib/libsmap.a $@ || cp $(B)/glibc/lib/libsmap.a $@

ALL += $(LIBSMAP_GLIBC)
TEST_DEPS += $(LIBSMAP_GLIBC)
