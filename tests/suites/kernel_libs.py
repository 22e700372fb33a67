"""libsmap's MPI and OpenSHMEM conformance programs on the kernel itself
(the host-mode suites run the same binaries as Linux processes).  Under
TCG the ranks are vCPUs of one QEMU, so 2 ranks match the 2 host cores and
the 4-rank runs check oversubscribed progress."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
import mpi  # noqa: E402
import shmem  # noqa: E402


def kernel(name, n, program, args=(), env=(), timeout=180, **kw):
    return harness.lwkrun(name, ["-q", "--timeout", timeout - 10, "-n", n] + list(env) +
                          [harness.build("user", program)] + list(args), timeout=timeout, **kw)


def cases():
    out = []
    for prog, min_tap in sorted(mpi.PROGRAMS.items()):
        out.append(kernel("kernel/mpi/%s on 2 ranks" % prog, 2, prog, mpi.ARGS.get((prog, 0), ()),
                          tap=True, min_tap=min_tap))
    for prog in ("mpit_p2p", "mpit_coll", "mpit_nbc", "mpit_topo", "mpit_info",
                 "mpit_inter"):
        out.append(kernel("kernel/mpi/%s on 4 ranks" % prog, 4, prog, tap=True,
                          min_tap=mpi.PROGRAMS[prog]))
    out.append(kernel("kernel/mpi/MPI_Abort ends the job with its code", 4, "mpit_abort", rc=7,
                      expect=[r"aborted the job with status 7"]))
    # MPI 4.0 sessions with no MPI_Init at all; a rank leaving with its
    # session open fails the job.
    out.append(kernel("kernel/mpi/mpit_session sessions only on 3 ranks", 3, "mpit_session",
                      ["only"], tap=True, min_tap=6, expect=[r"ok session_only_never_initialized"]))
    out.append(kernel("kernel/mpi/a rank leaving with a session open fails the job", 2,
                      "mpit_session", ["leave"], rc=1,
                      expect=[r"with an MPI session not finalized: ending the job"]))
    for prog, checks in sorted(shmem.CHECKS.items()):
        env, args = (shmem.HEAP, shmem.HEAP_ARGS) if prog == "shmem_heap" else ((), ())
        out.append(kernel("kernel/shmem/%s on 2 PEs" % prog, 2, prog, args, env, tap=True,
                          min_tap=checks))
    out.append(kernel("kernel/shmem/shmem_coll on 4 PEs", 4, "shmem_coll", tap=True,
                      min_tap=shmem.CHECKS["shmem_coll"]))
    out.append(kernel("kernel/shmem/global_exit ends the job with its status", 4, "shmem_fail",
                      ["global_exit"], rc=7, expect=[r"PE 3 exits the job"]))
    # A put out of bounds blames the caller; the target is never touched.
    for mode, call in (("put_oob", "shmem_putmem"), ("iput_oob", "shmem_long_iput")):
        out.append(kernel("kernel/shmem/%s past PE 1's memory fails on PE 0, naming the call"
                          % call, 2, "shmem_fail", [mode], rc=134,
                          expect=[r"shmem PE 0: %s: \d+ bytes at 0x[0-9a-f]+ on PE 1 are "
                                  r"outside the PE's memory" % call,
                                  r"status 134 \(ranks: 134 killed\)"],
                          reject=[r"^rank 1 .*SIG"]))
    return out
