# user/rpipetest: the rmalloc/rpipe test programs and the example of
# docs/rpipe.md (tests/suites/rma.py), the remote heap's host unit test, and
# the rwrite/rread benchmark (user/bench/rpipe_bench.c).

RPIPETEST := $(patsubst user/rpipetest/%.c,$(B)/user/%,$(wildcard user/rpipetest/rpt_*.c))
RHEAP_UNIT := $(B)/user/rheap_unit
RPIPE_BENCH := $(B)/user/rpipe_bench

$(B)/user/rpt_%: user/rpipetest/rpt_%.c user/rpipetest/rpt.h libsmap/include/rpipe.h $(SMAPCC_DEPS)
	@mkdir -p $(@D)
	$(SMAPCC) -O2 $(WARN) -o $@ $<

# The same rheap.c as libsmap's, built for the host.
$(RHEAP_UNIT): user/rpipetest/rheap_unit.c libsmap/rpipe/rheap.c libsmap/rpipe/rheap.h tests/unit/unit.h
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) -o $@ $(filter %.c,$^)

$(RPIPE_BENCH): user/bench/rpipe_bench.c libsmap/include/rpipe.h $(SMAPCC_DEPS)
	@mkdir -p $(@D)
	$(SMAPCC) -O2 $(WARN) -o $@ $<

ALL += $(RPIPETEST) $(RHEAP_UNIT) $(RPIPE_BENCH)
TEST_DEPS += $(RPIPETEST) $(RHEAP_UNIT)
BENCH_DEPS += $(RPIPE_BENCH)
