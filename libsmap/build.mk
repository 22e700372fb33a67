# libsmap: the user library, one static archive for the kernel and for Linux.
#
# Every libsmap/**/*.c compiles with musl-gcc into $(B)/libsmap/...; other
# areas add their objects with a plain `$(LIBSMAP): <objects>` line (this
# fragment is included before theirs, so the rule must stay additive).
# User programs build with `$(SMAPCC) -O2 -o $@ $<` and depend on
# $(SMAPCC_DEPS).

LIBSMAP := $(B)/lib/libsmap.a
SMAPCC := tools/smapcc
SMAPCC_DEPS := tools/smapcc $(LIBSMAP)

LIBSMAP_CFLAGS := -std=gnu11 -O2 -g $(WARN) -Ilibsmap/include -Ikernel/uapi \
	-D_GNU_SOURCE -fno-strict-aliasing -MMD -MP

$(B)/libsmap/%.o: libsmap/%.c | $(B)/.deps-build
	@mkdir -p $(@D)
	$(MUSLCC) $(LIBSMAP_CFLAGS) -c -o $@ $<

# The reduction kernels: their in and inout may not be proved apart, and
# -O2's cheapest cost model will not version a loop on that; this one will.
$(B)/libsmap/mpi/op.o: LIBSMAP_CFLAGS += -fvect-cost-model=dynamic

LIBSMAP_CORE_OBJ := $(patsubst %.c,$(B)/%.o,$(wildcard libsmap/core/*.c libsmap/host/*.c))

$(LIBSMAP): $(LIBSMAP_CORE_OBJ)
	@mkdir -p $(@D)
	@rm -f $@
	ar rcs $@ $(filter %.o,$^)

# Header dependencies of every libsmap object, whoever's fragment lists it.
-include $(shell find $(B)/libsmap -name '*.d' 2>/dev/null)

ALL += $(LIBSMAP)
TEST_DEPS += $(LIBSMAP)
