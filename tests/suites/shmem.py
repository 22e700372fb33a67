"""OpenSHMEM (libsmap/shmem) in host mode.

The test programs (user/shmemtest/) print one TAP line per behaviour for the
whole job, from PE 0; each runs on 2, 4 and 8 PEs (4 and 8 oversubscribe the
2 cores on purpose: waits must yield).  The same binaries run on the kernel.
Error cases check that a misuse ends the job with a message naming the call.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402

# TAP lines each program prints (so a job that dies early cannot pass).
RMA_CHECKS = 20


def prog(name):
    return harness.build("user", name)


def host(name, n, program, args=(), **kw):
    kw.setdefault("timeout", 60)
    return harness.lwkrun(name, ["--host", "-n", str(n), prog(program)] + list(args), **kw)


def cases():
    c = [harness.Case("shmem_heap_unit", [harness.build("test", "shmem_heap_unit")],
                      tap=True, min_tap=24)]
    for n in (2, 4, 8):
        c.append(host("shmem_rma_%d" % n, n, "shmem_rma", tap=True, min_tap=RMA_CHECKS))
    return c
