# user/langtest: C++ and Fortran programs built by tools/smapcxx and
# tools/smapfort (tests/suites/lang.py), the same binaries on the kernel
# and in host mode.

LANGTEST := $(addprefix $(B)/user/,lang_cxx)

$(B)/user/lang_cxx: user/langtest/lang_cxx.cc $(SMAPCXX_DEPS)
	@mkdir -p $(@D)
	$(SMAPCXX) -O2 $(WARN) -o $@ $<

ALL += $(LANGTEST)
TEST_DEPS += $(LANGTEST)
