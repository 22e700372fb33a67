"""A failing rank ends the whole job, with its status, on every node and in
host mode, without waiting for --timeout (docs/jobs.md)."""

import harness


def prog(name):
    return harness.build("user", name)


def cases():
    out = []
    for where, opts in (("host", ["--host", "-n", "4"]), ("kernel", ["-q", "-n", "4"]),
                        ("nodes", ["-q", "--nodes", "2", "-n", "2"])):
        out += [
            harness.lwkrun("fail_%s_rank_exit_3_ends_the_job_with_3" % where,
                           opts + ["--timeout", "60", prog("mpit_exit"), "exit", "3"],
                           rc=3, timeout=90,
                           expect=[r"rank 1 exited with status 3 without MPI_Finalize: ending "
                                   r"the job"],
                           reject=[r"every rank passed the barrier"]),
            harness.lwkrun("fail_%s_mpi_abort_256_is_not_success" % where,
                           opts + ["--timeout", "60", prog("mpit_exit"), "abort", "256"],
                           rc=1, timeout=90,
                           expect=[r"MPI_Abort: rank 1 ends the job with code 256 \(status 1\)"]),
            harness.lwkrun("fail_%s_clean_exit_after_finalize_is_success" % where,
                           opts + ["--timeout", "60", prog("mpit_exit"), "clean"],
                           timeout=90, expect=[r"every rank passed the barrier"]),
        ]
    # No waiting for the impossible: on one node, every rank stuck in a
    # libsmap wait (or gone) ends the job; one rank tells.
    for where, opts in (("host", ["--host", "-n", "4"]), ("kernel", ["-q", "-n", "4"])):
        for what, args in (("mpi", [prog("mpit_exit"), "lonely"]),
                           ("shmem", [harness.build("user", "shmem_fail"), "lonely"])):
            out.append(harness.lwkrun(
                "fail_%s_%s_deadlock_ends_the_job_with_123" % (where, what),
                opts + ["--timeout", "60"] + args, rc=123, timeout=90,
                expect=[r"^libsmap: rank \d: deadlock: ranks 0 1 2 3 have waited in libsmap for "
                        r"\d+ s with nothing left to wake them: ending the job$"],
                reject=[r"(?s)deadlock.*deadlock"]))
    out += [
        harness.lwkrun("fail_lwkrun_refuses_more_cpus_than_qemu_starts",
                       ["-c", "300", prog("mpit_exit")], rc=2, timeout=30,
                       expect=[r"^lwkrun: -c 300: QEMU's pc machine starts at most 255 CPUs"]),
        harness.lwkrun("fail_lwkrun_refuses_memory_below_the_kernels_minimum",
                       ["-m", "1M", prog("mpit_exit")], rc=2, timeout=30,
                       expect=[r"^lwkrun: -m 1024K: the kernel needs at least 64M"]),
    ]
    out.append(harness.lwkrun("fail_nodes_other_node_is_told_the_rank",
                              ["-q", "--nodes", "2", "-n", "2", "--timeout", "60",
                               prog("mpit_exit"), "exit", "5"], rc=5, timeout=90,
                              expect=[r"\[n1\] net: rank 1 failed on another node \(status 5\)"]))
    return out + bad_argument_cases()


# mpit_bad's cases: the call, the one line's message and the error class,
# which is the job's status under MPI_ERRORS_ARE_FATAL.
BAD_ARGS = (
    ("send-null", "MPI_Send", r"buffer is NULL with count 10 \(invalid buffer\)", 1),
    ("recv-null", "MPI_Recv", r"buffer is NULL with count 10 \(invalid buffer\)", 1),
    ("bcast-null", "MPI_Bcast", r"buffer is NULL with count 10 \(invalid buffer\)", 1),
    ("allreduce-null", "MPI_Allreduce", r"buffer is NULL with count 1 \(invalid buffer\)", 1),
    ("wait-garbage", "MPI_Wait", r"request 0x[0-9a-f]+ is not a live request", 7),
    ("wait-freed", "MPI_Wait", r"request 0x[0-9a-f]+ is not a live request", 7),
    ("test-garbage", "MPI_Test", r"request 0xdeadbeef is not a live request", 7),
    ("waitall-garbage", "MPI_Waitall", r"request 0x[0-9a-f]+ at index 2 is not a live request", 7),
    ("comm-garbage", "MPI_Send", r"communicator 0x[0-9a-f]+ is not a live communicator", 5),
    ("comm-freed", "MPI_Send", r"communicator 0x[0-9a-f]+ is not a live communicator", 5),
    ("type-garbage", "MPI_Send", r"datatype 0x[0-9a-f]+ is not a live datatype", 3),
    ("type-uncommitted", "MPI_Send", r"datatype \(derived\) is not committed", 3),
    ("type-freed", "MPI_Send", r"datatype 0x[0-9a-f]+ is not a live datatype", 3),
    ("op-garbage", "MPI_Allreduce", r"op 0x[0-9a-f]+ is not a live op", 10),
)


def bad_argument_cases():
    """Each bad argument in host mode (and two under QEMU): status and the
    one line naming the call; then every case under MPI_ERRORS_RETURN."""
    out = []
    qemu = ("send-null", "wait-garbage")
    for name, call, msg, status in BAD_ARGS:
        line = r"%s: %s.*; rank 0 ends the job" % (call, msg)
        for where, opts in (("host", ["--host", "-n", "2"]), ("kernel", ["-q", "-n", "2"])):
            if where == "kernel" and name not in qemu:
                continue
            out.append(harness.lwkrun("fail_%s_bad_%s" % (where, name.replace("-", "_")),
                                      opts + ["--timeout", "60", prog("mpit_bad"), name],
                                      rc=status, timeout=90, expect=[line],
                                      reject=[r"returned under MPI_ERRORS_ARE_FATAL"]))
    for where, opts in (("host", ["--host", "-n", "2"]), ("kernel", ["-q", "-n", "2"])):
        out.append(harness.lwkrun("fail_%s_bad_errors_return" % where,
                                  opts + ["--timeout", "60", prog("mpit_bad"), "return"],
                                  tap=True, min_tap=len(BAD_ARGS), timeout=90))
    return out
