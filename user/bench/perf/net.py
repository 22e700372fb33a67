"""Kind 1 across nodes: libsmap between host-mode nodes (lwkrun --host
--nodes 2: groups of processes joined by Unix sockets, the kernel's network
engine in each group) against Open MPI over TCP on the loopback
(--mca btl self,tcp), the same mpi_bench source, in the same run.  Open MPI
cannot be told which of its ranks share a "node" here, so all its ranks
talk TCP; with one rank per node the two setups are the same shape.

Then the same program on 2 smapos nodes under QEMU/TCG (the e1000 driver,
the network engine and the switch): emulator timings, in the "emu" sizes,
since a round trip there takes milliseconds."""

import re

from perf import hostmode
from perf.util import LWKRUN

# (ranks per node, mpi_bench tests)
PLAN = ((1, ["pingpong", "coll"]), (2, ["coll"]))
NODES = 2
TCG_TESTS = ["emu", "pingpong", "coll"]


def argv(impl, per_node, args):
    if impl == "libsmap":
        return ["python3", LWKRUN, "--host", "--nodes", str(NODES), "-n", str(per_node),
                hostmode.program("libsmap", "mpi_bench")] + args
    return ["mpirun.openmpi", "-n", str(NODES * per_node), "--bind-to", "none",
            "--oversubscribe", "--allow-run-as-root", "--mca", "btl", "self,tcp",
            "--mca", "btl_tcp_if_include", "lo",
            hostmode.program("openmpi", "mpi_bench")] + args


def tcg_argv():
    return ["python3", LWKRUN, "-q", "--nodes", str(NODES), "-n", "1", "--timeout", "500",
            hostmode.program("libsmap", "mpi_bench")] + TCG_TESTS


def run(sec):
    mode = "quick" if sec.quick else "full"
    for run in range(sec.repeats):
        for per_node, tests in PLAN:
            for impl in ("libsmap", "openmpi"):
                status, out = sec.run(argv(impl, per_node, [mode] + tests), 600)
                rows = [(t, NODES * per_node, size, best, median, unit)
                        for t, _, size, best, median, unit in hostmode.parse_csv(out)]
                hostmode.add_csv(sec, "net", "mpi_bench", impl + "/tcp" * (impl != "libsmap"),
                                 rows, run)
                if status != 0:
                    sec.note("mpi_bench across %d nodes x %d with %s: %s (run %d)"
                             % (NODES, per_node, impl,
                                "timed out" if status is None else "status %d" % status,
                                run + 1))
        status, out = sec.run(tcg_argv(), 600)
        # Each node's lines come prefixed with its name.
        out = re.sub(r"^\[n\d+\] ", "", out, flags=re.M)
        hostmode.add_csv(sec, "net", "mpi_bench", "smapos/tcg", hostmode.parse_csv(out), run)
        if status != 0:
            sec.note("mpi_bench on 2 QEMU nodes under TCG: %s (run %d)"
                     % ("timed out" if status is None else "status %d" % status, run + 1))
