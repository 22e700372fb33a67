# user/langtest: C++ and Fortran programs built by tools/smapcxx and
# tools/smapfort (tests/suites/lang.py), the same binaries on the kernel
# and in host mode.

LANGTEST := $(addprefix $(B)/user/,lang_cxx lang_cxxshmem lang_fmod lang_fh lang_symheap lang_c_musl \
	lang_c_glibc lang_f08 lang_fio lang_fshmem)

$(B)/user/lang_cxx: user/langtest/lang_cxx.cc $(SMAPCXX_DEPS)
	@mkdir -p $(@D)
	$(SMAPCXX) -O2 $(WARN) -o $@ $<

$(B)/user/lang_cxxshmem: user/langtest/lang_cxxshmem.cc libsmap/include/shmem.h $(SMAPCXX_DEPS)
	@mkdir -p $(@D)
	$(SMAPCXX) -O2 $(WARN) -o $@ $<

# Each program's own modules go to a directory of its own (-J), so parallel
# builds never read each other's .mod files.
# -w: calls without explicit interfaces pass buffers of different types to
# one routine, which every MPI program does; gfortran warns about each.
# lang_fmod_c.c: its C half (attributes across languages).
$(B)/user/lang_fmod: user/langtest/lang_fmod.f90 user/langtest/lang_fmod_c.c $(SMAPFORT_DEPS)
	@mkdir -p $(@D)
	@mkdir -p $@.mod
	$(SMAPFORT) -O2 -w -J $@.mod -o $@ $(filter %.f90 %.c,$^)

$(B)/user/lang_f08: user/langtest/lang_f08.f90 $(SMAPFORT_DEPS)
	@mkdir -p $(@D)
	@mkdir -p $@.mod
	$(SMAPFORT) -O2 -Wall -Werror -J $@.mod -o $@ $<

$(B)/user/lang_fio: user/langtest/lang_fio.f90 $(SMAPFORT_DEPS)
	@mkdir -p $(@D)
	$(SMAPFORT) -O2 -w -o $@ $<

# OpenSHMEM's Fortran programs use Cray pointers for SHPALLOC's memory.
$(B)/user/lang_fshmem: user/langtest/lang_fshmem.f90 libsmap/include/shmem.fh $(SMAPFORT_DEPS)
	@mkdir -p $(@D)
	@mkdir -p $@.mod
	$(SMAPFORT) -O2 -w -fcray-pointer -J $@.mod -o $@ $<

$(B)/user/lang_fh: user/langtest/lang_fh.f $(SMAPFORT_DEPS)
	@mkdir -p $(@D)
	$(SMAPFORT) -O2 -Wall -Werror -o $@ $<

$(B)/user/lang_symheap: user/langtest/lang_symheap.c $(SMAPCC_DEPS)
	@mkdir -p $(@D)
	$(SMAPCC) -O2 $(WARN) -o $@ $<

$(B)/user/lang_c_musl: user/langtest/lang_c.c $(SMAPCC_DEPS)
	@mkdir -p $(@D)
	$(SMAPCC) -O2 $(WARN) -o $@ $<

$(B)/user/lang_c_glibc: user/langtest/lang_c.c $(SMAPCXX_DEPS) | $(B)/.deps-lang
	@mkdir -p $(@D)
	SMAPCC_LIBC=glibc $(SMAPCC) -O2 $(WARN) -fopenmp -o $@ $<

ALL += $(LANGTEST)
TEST_DEPS += $(LANGTEST)
