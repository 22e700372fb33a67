# libsmap/lang: C++ and Fortran (docs/languages.md).
#
# libsmap-glibc.a is libsmap.a built a second time, with the host gcc
# against glibc: C++ and Fortran programs link glibc (Debian has no musl C++
# or Fortran runtime), and a musl archive inside a glibc program would mix
# two C libraries.  A sub-make builds the very same libsmap.a target with
# B=$(B)/glibc and MUSLCC=$(CC), so every object any fragment adds to
# libsmap.a (wherever its source lives) is in both archives.  The copy only
# happens when the archive changed, so programs relink only then.
#
# The Fortran bindings, the handle tables, mpif.h and the mpi module are
# generated from mpi.h by genf.py at build time (nothing generated is
# committed), so a C function added to mpi.h is bound at the next make.

LIBSMAP_GLIBC := $(B)/lib/libsmap-glibc.a
SMAPCXX := tools/smapcxx
SMAPFORT := tools/smapfort
SMAPCXX_DEPS := tools/smapcc tools/smapcxx $(LIBSMAP_GLIBC)
LIBSMAP_F08 := $(B)/lib/libsmap-f08.a
SMAPFORT_DEPS := tools/smapcc tools/smapfort $(LIBSMAP_GLIBC) $(B)/include/mpif.h \
	$(B)/include/mpi.mod $(B)/include/mpi_f08.mod $(LIBSMAP_F08)

LANG_GEN := $(B)/gen/lang
LANG_GEN_OBJ := $(B)/libsmap/lang/gen/mpi_handles.o $(B)/libsmap/lang/gen/mpi_fortran.o

$(LANG_GEN)/mpi_handles.c $(LANG_GEN)/mpi_fortran.c $(LANG_GEN)/mpi.f90 $(LANG_GEN)/mpi_f08.f90 \
		$(B)/include/mpif.h &: \
		libsmap/include/mpi.h libsmap/lang/genf.py
	@echo "  GENF    $(LANG_GEN)"
	$(Q)$(PYTHON) libsmap/lang/genf.py libsmap/include/mpi.h $(LANG_GEN) $(B)/include

$(B)/libsmap/lang/gen/%.o: $(LANG_GEN)/%.c | $(B)/.deps-build
	@mkdir -p $(@D)
	$(MUSLCC) $(LIBSMAP_CFLAGS) -Ilibsmap/lang -c -o $@ $<

# The handle conversion (C API) and the bindings are part of libsmap.
$(LIBSMAP): $(patsubst %.c,$(B)/%.o,$(wildcard libsmap/lang/*.c)) $(LANG_GEN_OBJ)

# gfortran leaves an unchanged .mod alone: touch it so make sees it done.
# The module's code (MPI_SIZEOF) goes into libsmap-f08.a too.
$(B)/include/mpi.mod $(LANG_GEN)/mpi_mod.o &: $(LANG_GEN)/mpi.f90 | $(B)/.deps-lang
	@echo "  FC      $@"
	$(Q)gfortran -O2 -c -J $(B)/include -o $(LANG_GEN)/mpi_mod.o $<
	@touch $(B)/include/mpi.mod

# mpi_f08 has code of its own (handle comparisons, wrappers of the routines
# with strings): its object goes into libsmap-f08.a, which smapfort links.
$(B)/include/mpi_f08.mod $(LANG_GEN)/mpi_f08.o &: $(LANG_GEN)/mpi_f08.f90 | $(B)/.deps-lang
	@echo "  FC      $@"
	$(Q)gfortran -O2 -w -fallow-argument-mismatch -c -J $(B)/include -o $(LANG_GEN)/mpi_f08.o $<
	@touch $(B)/include/mpi_f08.mod

$(LIBSMAP_F08): $(LANG_GEN)/mpi_f08.o $(LANG_GEN)/mpi_mod.o
	@mkdir -p $(@D)
	@rm -f $@
	ar rcs $@ $^

.PHONY: libsmap-glibc-inner
libsmap-glibc-inner: | $(B)/.deps-build
	@$(MAKE) --no-print-directory B=$(B)/glibc MUSLCC=$(CC) $(B)/glibc/lib/libsmap.a

$(LIBSMAP_GLIBC): libsmap-glibc-inner
	@mkdir -p $(@D)
	@cmp -s $(B)/glibc/lib/libsmap.a $@ || cp $(B)/glibc/lib/libsmap.a $@

ALL += $(LIBSMAP_GLIBC) $(B)/include/mpi.mod $(B)/include/mpi_f08.mod $(LIBSMAP_F08)
TEST_DEPS += $(LIBSMAP_GLIBC) $(B)/include/mpi.mod $(B)/include/mpi_f08.mod $(LIBSMAP_F08)
