"""A failing rank ends the whole job, with its status, on every node and in
host mode, without waiting for --timeout (docs/jobs.md)."""

import os
import re
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402

ME = os.path.abspath(__file__)


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
            # After MPI_Finalize nobody can wait for a rank: its failing
            # status no longer stops the others, and is still the job's.
            harness.lwkrun("fail_%s_exit_7_after_finalize_lets_the_others_finish" % where,
                           opts + ["--timeout", "60", prog("mpit_exit"), "late", "7"],
                           rc=7, timeout=90, expect=[r"rank 0 finished after the others"]),
            harness.lwkrun("fail_%s_clean_exit_after_finalize_is_success" % where,
                           opts + ["--timeout", "60", prog("mpit_exit"), "clean"],
                           timeout=90, expect=[r"every rank passed the barrier"]),
        ]
    # No waiting for the impossible: on one node, every rank stuck in a
    # libsmap wait (or gone) ends the job; one rank tells.
    for where, opts in (("host", ["--host", "-n", "4"]), ("kernel", ["-q", "-n", "4"])):
        for what, args, calls in (
                ("mpi", [prog("mpit_exit"), "lonely"], ("MPI_Recv", "MPI_Finalize")),
                ("mpi_barrier", [prog("mpit_exit"), "barrier"], ("MPI_Barrier", "MPI_Finalize")),
                ("shmem", [harness.build("user", "shmem_fail"), "lonely"],
                 ("shmem_int_wait_until", "shmem_finalize"))):
            out.append(harness.lwkrun(
                "fail_%s_%s_deadlock_ends_the_job_with_123" % (where, what),
                opts + ["--timeout", "60"] + args, rc=123, timeout=90,
                expect=[r"^libsmap: rank \d: deadlock: waiting in libsmap for \d+ s with nothing "
                        r"left to wake them: rank 0 in %s, ranks 1 2 3 in %s: ending the job$"
                        % calls],
                reject=[r"(?s)deadlock.*deadlock"]))
    out += [
        harness.Case("fail_lwkrun_status_names_the_culprit_whatever_order_ranks_and_nodes_end_in",
                     ["python3", "tests/jobstatus_test.py"], tap=True, min_tap=16),
        harness.lwkrun("fail_lwkrun_refuses_more_cpus_than_qemu_starts",
                       ["-c", "300", prog("mpit_exit")], rc=2, timeout=30,
                       expect=[r"^lwkrun: -c 300: QEMU's pc machine starts at most 255 CPUs"]),
        harness.lwkrun("fail_lwkrun_refuses_memory_below_the_kernels_minimum",
                       ["-m", "1M", prog("mpit_exit")], rc=2, timeout=30,
                       expect=[r"^lwkrun: -m 1024K: the kernel needs at least 64M"]),
    ]
    # Across nodes: node 1's ranks wait (or have left), node 0 judges.
    across = r"waiting in libsmap for \d+ s with nothing left to wake them: rank 0 in %s%s; " \
             r"node 1: every rank waits or has exited: ending the job$"
    for name, opts, args, call, gone in (
            ("host_recv", ["--host", "-n", "1"], ["lonely"], "MPI_Recv", ""),
            # A rendezvous announced and never fetched moves nothing: the
            # sender waits like any other.
            ("host_send", ["--host", "-n", "1"], ["unreceived"], "MPI_Send", ""),
            ("kernel_send", ["-q", "-n", "1"], ["unreceived"], "MPI_Send", ""),
            ("host_barrier", ["--host", "-n", "2"], ["barrier"], "MPI_Finalize", "; exited: 1"),
            ("kernel_recv", ["-q", "-n", "2"], ["lonely"], "MPI_Recv, rank 1 in MPI_Finalize",
             ""),
            # Node 0's only rank waits in the hardware barrier's system
            # call, which comes back every 100 ms to take part.
            ("kernel_wire", ["-q", "-n", "1"], ["wire"], "MPI_Barrier", "")):
        out.append(harness.lwkrun(
            "fail_nodes_%s_deadlock_ends_the_job_with_123" % name,
            opts + ["--nodes", "2", "--timeout", "60", prog("mpit_exit")] + args,
            rc=123, timeout=90,
            expect=[r"^(\[n0\] )?libsmap: rank \d: deadlock: " + across % (call, gone)],
            reject=[r"(?s)deadlock.*deadlock"]))
    # Node 0's ranks all gone (returned from main): the lowest node still in
    # the job judges instead (it used to wait for --timeout).
    for where, opts in (("host", ["--host"]), ("kernel", ["-q"])):
        out.append(harness.lwkrun(
            "fail_nodes_%s_node_0_left_deadlock_ends_the_job_with_123" % where,
            opts + ["--nodes", "2", "-n", "1", "--timeout", "60",
                    harness.build("user", "shmem_fail"), "abandoned"],
            rc=123, timeout=90,
            expect=[r"^(\[n1\] )?libsmap: rank 1: deadlock: waiting in libsmap for \d+ s with "
                    r"nothing left to wake them: rank 1 in shmem_int_wait_until; node 0: every "
                    r"rank waits or has exited: ending the job$"],
            reject=[r"(?s)deadlock.*deadlock"]))
    # A buffer the engine cannot write fails the receive, and releases the
    # sender that waits for the fetch.
    for where, opts in (("host", ["--host"]), ("kernel", ["-q"])):
        out.append(harness.lwkrun(
            "fail_nodes_%s_recv_into_text_is_err_buffer_and_the_send_completes" % where,
            opts + ["--nodes", "2", "-n", "1", "--timeout", "60", prog("mpit_exit"),
                    "readonly"], timeout=90,
            expect=[r"rank 1: MPI_Recv into the program's text: MPI_ERR_BUFFER",
                    r"rank 0: MPI_Send returned 0"]))
    out.append(harness.Case("fail_nodes_killed_node", ["python3", ME, "killed_node"], rc=0,
                            timeout=120, tap=True, min_tap=3))
    out.append(harness.Case("fail_kernel_io_server_gone", ["python3", ME, "iosrv_gone"],
                            rc=0, timeout=120, tap=True, min_tap=2))
    out.append(harness.Case("fail_nodes_switch_gone", ["python3", ME, "switch_gone"],
                            rc=0, timeout=120, tap=True, min_tap=3))
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
    ("gatherv-null", "MPI_Gatherv", r"an array of counts or displacements is NULL", 13),
    ("alltoallv-negative", "MPI_Alltoallv", r"count -1 for rank 0 is negative", 2),
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
    ("allreduce-alias", "MPI_Allreduce",
     r"the send buffer 0x[0-9a-f]+ is the receive buffer, or this rank's block of it", 1),
    ("comm-size-null", "MPI_Comm_size", r"size pointer is NULL \(invalid argument\)", 13),
    ("group-garbage", "MPI_Group_size", r"group 0x[0-9a-f]+ is not a live group", 9),
    ("keyval-kind", "MPI_Comm_set_attr", r"\d+ is not a live communicator keyval", 20),
)


# mpit_bad's collectives whose members disagree: the one line on 2 ranks
# (each names the lower rank first) and the class, the job's status.
BAD_COLLS = (
    ("bcast-root", r"MPI_Bcast: root differs: rank 0 says 0, rank 1 says 1 \(invalid root\)", 8),
    ("bcast-count", r"MPI_Bcast: count differs: rank 0 has 10 x MPI_INT, rank 1 has 5 x MPI_INT",
     2),
    ("allreduce-op", r"MPI_Allreduce: op differs: rank 0 says MPI_SUM, rank 1 says MPI_MAX", 10),
    ("allreduce-type", r"MPI_Allreduce: datatype signature differs: rank 0 has 2 x MPI_INT, "
     r"rank 1 has 2 x MPI_FLOAT", 3),
    ("reduce-root", r"MPI_Reduce: root differs: rank 0 says 0, rank 1 says 1", 8),
    ("barrier-bcast", r"MPI_(Barrier|Bcast): call differs: rank 0 calls MPI_Barrier, "
     r"rank 1 calls MPI_Bcast", 16),
    ("gather-count", r"MPI_Gather: count differs: rank 0 has 1 x MPI_INT, rank 1 has 2 x MPI_INT",
     2),
)


# mpit_bad return's sweeps of every assignment of roots: gather, reduce,
# bcast and scatter, each by value and by reference.
ROOT_SWEEPS = 8


def bad_collective_cases():
    """Each disagreement on 2 ranks in host mode (two under QEMU), every one
    on 4 ranks naming the call; the return variants with each barrier and
    reduce algorithm; SMAP_COLL_CHECK=0 turns the check off."""
    out = []
    qemu = ("bcast-root", "barrier-bcast")
    for name, line, status in BAD_COLLS:
        call = line.split(":")[0]
        for where, opts in (("host", ["--host", "-n", "2"]), ("kernel", ["-q", "-n", "2"])):
            if where == "kernel" and name not in qemu:
                continue
            out.append(harness.lwkrun("fail_%s_coll_%s" % (where, name.replace("-", "_")),
                                      opts + ["--timeout", "60", prog("mpit_bad"), name],
                                      rc=status, timeout=90, expect=[line]))
        out.append(harness.lwkrun("fail_host_coll_%s_4" % name.replace("-", "_"),
                                  ["--host", "-n", "4", "--timeout", "60", prog("mpit_bad"), name],
                                  rc=status, timeout=90,
                                  expect=[r"%s: [\w ]+ differs: rank \d+ (says|has|calls) .*, "
                                          r"rank \d+ " % call]))
    for algo in ("SMAP_BARRIER=counter", "SMAP_REDUCE=serial", "SMAP_REDUCE=parallel"):
        out.append(harness.lwkrun("fail_host_coll_errors_return_%s"
                                  % algo.split("=")[1],
                                  ["--host", "-n", "4", "-e", algo, "--timeout", "60",
                                   prog("mpit_bad"), "return"],
                                  tap=True, min_tap=len(BAD_ARGS) + len(BAD_COLLS) + 1 + ROOT_SWEEPS,
                                  timeout=90))
    out.append(harness.lwkrun("fail_host_coll_check_off",
                              ["--host", "-n", "2", "-e", "SMAP_COLL_CHECK=0", "--timeout", "60",
                               prog("mpit_bad"), "allreduce-op"], timeout=90,
                              expect=[r"allreduce-op returned under MPI_ERRORS_ARE_FATAL"]))
    # Across nodes the transport compares: each call's messages are marked
    # with its description's hash (docs/mpi.md).
    for name, line, status in BAD_COLLS:
        if name in ("bcast-count", "allreduce-op", "allreduce-type", "gather-count"):
            out.append(harness.lwkrun("fail_nodes_host_coll_%s" % name.replace("-", "_"),
                                      ["--host", "--nodes", "2", "-n", "1", "--timeout", "60",
                                       prog("mpit_bad"), name], rc=status, timeout=90,
                                      expect=[line]))
        if name == "allreduce-op":
            out.append(harness.lwkrun("fail_nodes_kernel_coll_allreduce_op",
                                      ["-q", "--nodes", "2", "-n", "1", "--timeout", "60",
                                       prog("mpit_bad"), name], rc=status, timeout=90,
                                      expect=[line]))
    out.append(harness.lwkrun("fail_nodes_host_bad_send_null",
                              ["--host", "--nodes", "2", "-n", "2", "--timeout", "60",
                               prog("mpit_bad"), "send-null"], rc=1, timeout=90,
                              expect=[r"MPI_Send: buffer is NULL with count 10 \(invalid buffer\); "
                                      r"rank 0 ends the job"]))
    return out


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
                                  tap=True, min_tap=len(BAD_ARGS) + len(BAD_COLLS) + 1 + ROOT_SWEEPS,
                                  timeout=90))
    return out + bad_collective_cases()


# -- checks run as a script ------------------------------------------------

def children(pid):
    """The pids whose parent is pid, with their command lines."""
    out = []
    for p in os.listdir("/proc"):
        try:
            with open("/proc/%s/stat" % p) as f:
                if int(f.read().rsplit(")", 1)[1].split()[1]) != pid:
                    continue
            with open("/proc/%s/cmdline" % p, "rb") as f:
                out.append((int(p), f.read().replace(b"\0", b" ").decode()))
        except (OSError, ValueError, IndexError):
            continue
    return out


def run_until(argv, marker, act):
    """Runs lwkrun with argv; act(pid of lwkrun) once a line holds marker.
    Returns (status, output, seconds from act to the end)."""
    p = subprocess.Popen(["python3", harness.LWKRUN] + argv, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    lines, acted = [], None
    for line in p.stdout:
        lines.append(line)
        sys.stdout.write("# " + line)
        if acted is None and marker in line:
            act(p.pid)
            acted = time.monotonic()
    rc = p.wait()
    return rc, "".join(lines), time.monotonic() - acted if acted else None


def check_iosrv_gone():
    """The I/O server ends under a job whose ranks compute: lwkrun stops
    QEMU at once with a line, instead of leaving the kernel to wait for
    it until --timeout."""
    rc, out, after = run_until(["-q", "-n", "2", "--timeout", "90", prog("mpit_exit"), "spin"],
                               "rank 0 waits for rank 1", lambda pid: kill_child(pid, "/iosrv "))
    harness.tap(rc == 1 and "lwkrun: the I/O server ended (status -9): QEMU stopped" in out,
                "io server gone: lwkrun says so and fails the job", "status %d" % rc)
    harness.tap(after is not None and after < 10, "io server gone: at once, not at --timeout",
                "%s s after the kill" % after)


def kill_child(pid, part):
    """SIGKILL the children of pid whose command line holds part."""
    for child, cmd in children(pid):
        if part in cmd:
            os.kill(child, signal.SIGKILL)


def check_switch_gone():
    """The switch dies while rank 0 waits for rank 1 and rank 1 computes:
    each node finds the other silent and ends within its dead time (3 s
    here), naming it; lwkrun names the switch."""
    rc, out, after = run_until(["--nodes", "2", "-n", "1", "--timeout", "90", "--append",
                                "net_dead_ms=3000", prog("mpit_exit"), "spin"],
                               "rank 0 waits for rank 1", lambda pid: kill_child(pid, "/switch "))
    harness.tap("lwkrun: the switch ended (killed by SIGKILL): the nodes lose each other" in out,
                "switch gone: lwkrun says so", "no line")
    harness.tap(all(re.search(r"^\[n%d\] net: node %d stopped answering during .+: ending the job$"
                % (n, 1 - n), out, re.M) for n in (0, 1)),
                "switch gone: each node ends naming the other", "missing a node's line")
    harness.tap(rc == 122 and after is not None and after < 15,
                "switch gone: status 122, within the dead time", "status %d after %s s" % (rc, after))


def check_killed_node():
    """Node 1's QEMU is killed while rank 0, on node 0, waits in MPI_Recv
    for a message from it (nothing owed either way, no barrier): node 0's
    kernel must find the node gone by itself within its dead time (3 s
    here), and lwkrun name the killed node and fail the job."""
    rc, out, after = run_until(["--nodes", "2", "-n", "1", "--timeout", "90", "--append",
                                "net_dead_ms=3000", prog("mpit_exit"), "spin"],
                               "rank 0 waits for rank 1", lambda pid: kill_child(pid, " node=1 "))
    # lwkrun waits 20 s for node 0 after node 1 failed: ending well before
    # that, node 0 ended by itself ("during the job" when nothing was in
    # flight, else the operation: the acknowledgement of rank 0's last
    # message, say).
    harness.tap(after is not None and after < 15 and
                re.search(r"^\[n0\] net: node 1 stopped answering during .+: ending the job$", out, re.M),
                "killed node: the other node ends by itself within its dead time, naming it",
                "%s s after the kill" % after)
    harness.tap("lwkrun: [n1] QEMU was killed by SIGKILL before the kernel reported a status" in out,
                "killed node: lwkrun names the killed node", "no line")
    harness.tap(rc == 128 + signal.SIGKILL, "killed node: the job's status is the signal's",
                "status %d" % rc)


if __name__ == "__main__":
    {"killed_node": check_killed_node, "iosrv_gone": check_iosrv_gone,
     "switch_gone": check_switch_gone}[sys.argv[1]]()
