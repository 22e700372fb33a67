"""The collective engine (libsmap/coll) driven directly by user/colltest.

colltest checks every collective on the world group, on the odd ranks, on
the world in reverse order and on groups of one, plus barriers, long mixed
runs and group lifecycles; rank 0 prints one TAP line per behaviour.  It
runs as Linux processes on 1, 2, 3, 4 and 8 ranks (past 2 the ranks share
the 2 cores on purpose), and again with each reduce and barrier algorithm
forced through the environment.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402

COLLTEST = harness.build("user", "colltest")
CHECKS = 133    # TAP lines colltest prints (rank 0 speaks for the job)


def host(name, n, env=()):
    args = ["--host", "-n", n]
    for kv in env:
        args += ["-e", kv]
    return harness.lwkrun(name, args + [COLLTEST], tap=True, min_tap=CHECKS, timeout=120)


def cases():
    c = [harness.Case("coll_singleton", [COLLTEST], tap=True, min_tap=CHECKS, timeout=60)]
    for n in (2, 3, 4, 8):
        c.append(host("coll_host_%d" % n, n))
    for n in (3, 8):
        c.append(host("coll_host_%d_reduce_serial" % n, n, ["SMAP_REDUCE=serial"]))
        c.append(host("coll_host_%d_reduce_parallel" % n, n, ["SMAP_REDUCE=parallel"]))
    c.append(host("coll_host_4_barrier_counter", 4, ["SMAP_BARRIER=counter"]))
    return c
