"""MPI (libsmap/mpi): host unit tests of the matching and datatype engines,
and the conformance programs of user/mpitest in host mode on 2, 4 and 8
ranks (each prints one TAP line per behaviour)."""

import harness

# Conformance programs and the least number of TAP lines each prints.
PROGRAMS = {
    "mpit_p2p": 17,
    "mpit_dt": 12,
    "mpit_coll": 13,
    "mpit_env": 16,
    "mpit_prof": 2,
    "mpit_proto": 8,
    "mpit_span": 16,
    "mpit_bad": 22,
    "mpit_nbc": 30,
    "mpit_topo": 9,
    "mpit_info": 6,
    "mpit_inter": 8,
    "mpit_compat": 9,
    "mpit_dtx": 7,
    "mpit_tools": 5,
    "mpit_bigc": 5,
    "mpit_part": 3,
    "mpit_session": 7,
    "mpit_mpi41": 9,
    "mpit_fuzz": 6,
}

# Arguments for a program on n ranks (0: the kernel's 2-rank run, under
# TCG): mpit_fuzz runs fewer cases on 8 ranks, which share the two cores,
# and on the kernel (its 300 cases take 2-3 s on 4 host ranks, 20 s there).
ARGS = {("mpit_fuzz", 8): ["1", "1", "60"], ("mpit_fuzz", 0): ["1", "1", "60"]}


def bigc_big(name, mem, opts):
    """mpit_bigc's counts past INT_MAX; 60 s and over 100 s with another job
    on the two cores, hence the room."""
    return harness.lwkrun(name, ["--host", "--mem", mem, "--timeout", "240"] + opts +
                          [harness.build("user", "mpit_bigc"), "big"],
                          tap=True, min_tap=6, timeout=260)


def cases():
    out = [
        harness.Case("mpi_unit_dt", [harness.build("tests", "mpi_dt_test")], tap=True, min_tap=45),
        harness.Case("mpi_unit_match", [harness.build("tests", "mpi_match_test")], tap=True, min_tap=22),
    ]
    for prog, min_tap in sorted(PROGRAMS.items()):
        path = harness.build("user", prog)
        for n in (2, 4, 8):
            out.append(harness.lwkrun("%s_host_%d" % (prog, n),
                                      ["--host", "-n", str(n), path] + ARGS.get((prog, n), []),
                                      tap=True, min_tap=min_tap, timeout=60))
    # Every MPI 3.1 C function (and the 4.0 and 4.1 ones listed) is defined, and
    # docs/mpi_functions.md says so.
    out.append(harness.Case("mpi_symbols", ["python3", "tests/mpi_symbols.py", "check",
                                            harness.build("lib", "libsmap.a")],
                            tap=True, min_tap=7))
    # MPI_T reads the eager limit and the check setting the job set.
    out.append(harness.lwkrun("mpit_tools_host_eager_4096",
                              ["--host", "-n", "2", "-e", "SMAP_MPI_EAGER=4096",
                               "-e", "SMAP_COLL_CHECK=0",
                               harness.build("user", "mpit_tools")], tap=True, min_tap=5,
                              timeout=60))
    # Large counts for real: INT_MAX + 64 bytes per rank and message on one
    # node (two such buffers a rank: 8.6 GB in all); across two nodes in
    # net_host.py, far from this one in the order, since the two together
    # pass the machine's free memory (both took 35 and 81 s side by side,
    # 19 and 22 s apart).
    out.append(bigc_big("mpit_bigc_host_big", "5G", ["-n", "2"]))
    # MPI 4.0 sessions without the world model at all, and a rank that
    # leaves with its session open fails the job.
    out.append(harness.lwkrun("mpit_session_host_only_4",
                              ["--host", "-n", "4", harness.build("user", "mpit_session"), "only"],
                              tap=True, min_tap=6, expect=[r"ok session_only_never_initialized"],
                              timeout=60))
    out.append(harness.lwkrun("mpit_session_host_leave_open_fails",
                              ["--host", "-n", "2", harness.build("user", "mpit_session"), "leave"],
                              rc=1, expect=[r"exited with status 0 with an MPI session not "
                                            r"finalized: ending the job"], timeout=60))
    # MPI_Abort ends the whole job with its code.
    out.append(harness.lwkrun("mpit_abort_host_4", ["--host", "-n", "4", harness.build("user", "mpit_abort")],
                              rc=None, expect=[r"MPI_Abort: rank 2 ends the job with code 7",
                                               r"aborted the job with status 7"], timeout=60))
    return out
