"""The collective engine (libsmap/coll) driven directly by user/colltest.

colltest checks every collective on the world group, on the odd ranks, on
the world in reverse order and on groups of one, plus barriers, long mixed
runs and group lifecycles; rank 0 prints one TAP line per behaviour.  It
runs as Linux processes on 1, 2, 3, 4 and 8 ranks (past 2 the ranks share
the 2 cores on purpose), again with each reduce and barrier algorithm forced
through the environment (only the checks that algorithm affects), and on the
kernel under QEMU with 2 ranks (more vCPUs than host cores make TCG crawl).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402

COLLTEST = harness.build("user", "colltest")
# TAP lines colltest prints per family (rank 0 speaks for the job): sync,
# move and reduce run on 4 groups, stress on 2.
LINES = {"sync": 4 * 3, "move": 4 * 17, "reduce": 4 * 13, "stress": 2, "groups": 3}
CHECKS = sum(LINES.values())


def host(name, n, env=(), families=()):
    args = ["--host", "-n", n]
    for kv in env:
        args += ["-e", kv]
    lines = sum(LINES[f] for f in families) if families else CHECKS
    return harness.lwkrun(name, args + [COLLTEST] + list(families), tap=True,
                          min_tap=lines, timeout=120)


def cases():
    c = [harness.Case("coll_singleton", [COLLTEST], tap=True, min_tap=CHECKS, timeout=60)]
    for n in (2, 3, 4, 8):
        c.append(host("coll_host_%d" % n, n))
    for n in (3, 8):
        for algo in ("serial", "parallel"):
            c.append(host("coll_host_%d_reduce_%s" % (n, algo), n, ["SMAP_REDUCE=" + algo],
                          ["reduce"]))
    c.append(host("coll_host_4_barrier_counter", 4, ["SMAP_BARRIER=counter"],
                  ["sync", "stress", "groups"]))
    c.append(harness.lwkrun("coll_kernel_2", ["-q", "-n", 2, "--timeout", 150, COLLTEST],
                            tap=True, min_tap=CHECKS, timeout=180))
    return c
