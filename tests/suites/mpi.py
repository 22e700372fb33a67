"""MPI (libsmap/mpi): host unit tests of the matching and datatype engines,
and the conformance suite (user/mpitest) in host mode on 2, 4 and 8 ranks."""

import harness


def cases():
    return [
        harness.Case("mpi_unit_dt", [harness.build("tests", "mpi_dt_test")], tap=True, min_tap=30),
        harness.Case("mpi_unit_match", [harness.build("tests", "mpi_match_test")], tap=True, min_tap=15),
    ]
