# libsmap/mpi: MPI over SMARTMAP (docs/mpi.md).
#
# The objects join libsmap.a; the pure engines (dt.c, match.c) also build
# natively into host unit tests under $(B)/tests/.

MPI_OBJS := $(patsubst %.c,$(B)/%.o,$(wildcard libsmap/mpi/*.c))
$(LIBSMAP): $(MPI_OBJS)

MPI_UNIT := $(B)/tests/mpi_dt_test $(B)/tests/mpi_match_test

$(B)/tests/mpi_%_test: tests/unit/mpi_%_test.c libsmap/mpi/%.c libsmap/mpi/%.h
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) -o $@ $(filter %.c,$^)

ALL += $(MPI_UNIT)
TEST_DEPS += $(MPI_UNIT)
