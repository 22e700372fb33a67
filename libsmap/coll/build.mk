# libsmap/coll: the collective engine (docs/collectives.md).  Its objects
# join libsmap.a through libsmap/build.mk's pattern rule; the engine tests
# live in user/colltest and the micro-benchmark in user/bench/coll_bench.c.

COLL_OBJS := $(patsubst %.c,$(B)/%.o,$(wildcard libsmap/coll/*.c))
$(LIBSMAP): $(COLL_OBJS)

COLL_BENCH := $(B)/user/coll_bench

$(COLL_BENCH): user/bench/coll_bench.c libsmap/coll/coll.h $(SMAPCC_DEPS)
	@mkdir -p $(@D)
	$(SMAPCC) -O2 -Wall -Wextra -Werror -Ilibsmap/coll -o $@ $<

ALL += $(COLL_BENCH)
BENCH_DEPS += $(COLL_BENCH)
