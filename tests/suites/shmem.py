"""OpenSHMEM (libsmap/shmem) in host mode.

The test programs (user/shmemtest/) print one TAP line per behaviour for the
whole job, from PE 0; each runs on 2, 4 and 8 PEs (4 and 8 oversubscribe the
2 cores on purpose: waits must yield).  The same binaries run on the kernel.
Misuses must end the job with a message naming the call; shmem_global_exit
must end it with the given status.  The multi-node cases run QEMU nodes
wired through the barrier hub.
"""

import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402

# TAP lines each program prints (so a job that dies early cannot pass).
CHECKS = {
    "shmem_rma": 21,
    "shmem_amo": 12,
    "shmem_sync": 11,
    "shmem_coll": 16,
    "shmem_team": 8,
    "shmem_heap": 11,
    "shmem_prof": 3,
}
HEAP = ["-e", "SHMEM_SYMMETRIC_SIZE=1.5M"]
HEAP_ARGS = [str(3 << 19)]


def prog(name):
    return harness.build("user", name)


def host(name, n, program, args=(), env=(), **kw):
    kw.setdefault("timeout", 60)
    return harness.lwkrun(name, ["--host", "-n", str(n)] + list(env) + [prog(program)]
                          + list(args), **kw)


def nodes(name, k, n, args=(), cpus=None, **kw):
    """A job of k QEMU nodes of n ranks each."""
    kw.setdefault("timeout", 240)
    c = ["-c", str(cpus)] if cpus else []
    return harness.lwkrun(name, ["--nodes", str(k), "-n", str(n), "-q", "--timeout",
                                 str(kw["timeout"] - 10)] + c + [prog("shmem_nodes")] + list(args),
                          **kw)


def misuse(mode, message, n=2):
    """shmem_fail MODE must fail the job, saying `message`."""
    return host("shmem_fails_on_" + mode, n, "shmem_fail", [mode], rc=None,
                expect=[message])


def cases():
    c = [harness.Case("shmem_heap_unit", [harness.build("test", "shmem_heap_unit")],
                      tap=True, min_tap=25),
         harness.Case("pshmem_header_is_current",
                      ["tools/pshmem", "check", "libsmap/include/pshmem.h"] +
                      sorted(glob.glob(harness.build("libsmap", "shmem", "*.o"))))]
    for n in (2, 4, 8):
        for p, checks in sorted(CHECKS.items()):
            env, args = (HEAP, HEAP_ARGS) if p == "shmem_heap" else ((), ())
            c.append(host("%s_%d" % (p, n), n, p, args, env, tap=True, min_tap=checks))
    c += [
        harness.Case("shmem_singleton_rma", [prog("shmem_rma")], tap=True,
                     min_tap=CHECKS["shmem_rma"]),
        host("shmem_with_mpi_init_first", 4, "shmem_mpi", tap=True, min_tap=2),
        host("shmem_nodes_on_one_node", 2, "shmem_nodes", tap=True, min_tap=5),
        host("shmem_with_shmem_init_first", 4, "shmem_mpi", ["shmem_first"], tap=True,
             min_tap=2),
        host("shmem_example_hello", 4, "shmem_hello",
             expect=[r"^Hello from PE %d of 4$" % p for p in range(4)]),
        host("shmem_example_ring", 4, "shmem_ring",
             expect=[r"^PE %d received %d %d %d %d$" % (p, q * 10, q * 10 + 1, q * 10 + 2,
                                                       q * 10 + 3)
                     for p, q in ((p, (p + 3) % 4) for p in range(4))]),
        host("shmem_example_maxreduce", 3, "shmem_maxreduce",
             expect=[r"^PE %d: max 2 2 2$" % p for p in range(3)] +
             [r"^PE %d: sum 3 3 3$" % p for p in range(3)]),
        host("shmem_version_printed_with_shmem_version", 2, "shmem_hello",
             env=["-e", "SHMEM_VERSION=1"], expect=[r"^OpenSHMEM 1\.5: smapos libsmap"]),
        host("shmem_global_exit_ends_the_job_with_its_status", 4, "shmem_fail",
             ["global_exit"], rc=7, expect=[r"PE 3 exits the job"],
             reject=[r"was not stopped"]),
        host("shmem_fails_on_a_bad_symmetric_size", 2, "shmem_hello",
             env=["-e", "SHMEM_SYMMETRIC_SIZE=lots"], rc=None,
             expect=[r"shmem_init: SHMEM_SYMMETRIC_SIZE='lots' is not a size"]),
        host("shmem_fails_when_the_heap_does_not_fit", 2, "shmem_hello",
             env=["-e", "SHMEM_SYMMETRIC_SIZE=1T"], rc=None,
             expect=[r"shmem_init: no room for a symmetric heap of 1099511627776 bytes"]),
        misuse("bad_pe", r"shmem_long_p: PE 2 does not exist"),
        misuse("asymmetric_malloc", r"shmem_malloc: this PE allocated \(128, 64\) .* "
               r"PE 0 allocated \(64, 64\)"),
        misuse("foreign_free", r"shmem_free: 0x[0-9a-f]+ is not a block of the symmetric heap"),
        misuse("unheld_lock", r"shmem_clear_lock: the lock is not held"),
        misuse("bad_cmp", r"shmem_int_wait_until: unknown comparison 42"),
        misuse("init_twice", r"shmem_init: called twice"),
        misuse("before_init", r"shmem PE [01]: shmem_putmem: called before shmem_init"),
        misuse("bad_root", r"shmem_long_broadcast: PE_root 2 is not in the team of 2 PEs"),
        misuse("put_oob", r"shmem PE 0: shmem_putmem: 1099511627776 bytes at 0x[0-9a-f]+ on "
               r"PE 1 are outside the PE's memory"),
        misuse("get_oob", r"shmem PE 0: shmem_getmem: 8 bytes at 0x[0-9a-f]+ on PE 1 are "
               r"outside the PE's memory"),
        misuse("iput_oob", r"shmem PE 0: shmem_long_iput: \d+ bytes at 0x[0-9a-f]+ on PE 1 "
               r"are outside the PE's memory"),
        misuse("amo_oob", r"shmem PE 0: shmem_long_atomic_add: 8 bytes at 0x10 on PE 1 are "
               r"outside the PE's memory"),
    ]
    c += [
        nodes("shmem_nodes_2x2", 2, 2, ["net"], tap=True, min_tap=2 * 5),
        # -c 2 leaves no CPU for the network engine: no network.
        nodes("shmem_fails_on_an_off_node_put", 2, 2, ["off_node"], cpus=2, rc=None,
              expect=[r"shmem_long_p: PE [02] is on node [01], and this node has no "
                      r"network"]),
    ]
    return c
