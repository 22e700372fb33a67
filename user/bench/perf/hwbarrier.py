"""Kind 2: the hardware barrier across QEMU/TCG nodes wired through the
emulated barrier box (user/bench/hwbarrier_bench, docs/barrier.md), its
terms o_w, o_r, o_p(P) against the model t_b = o_w + o_p(P) + o_r."""

import os
import re

from perf.util import ROOT

BENCH = os.path.join(ROOT, "user", "bench", "hwbarrier_bench")
COLUMNS = ("o_w", "o_r", "o_p", "model", "t_kernel", "t_wire", "t_b", "t_node", "reads")
ROW = re.compile(r"^\s*(\d+)" + r"\s+([\d.]+)" * len(COLUMNS) + r"\s*$", re.M)
RANKS_PER_NODE = 2


def run(sec):
    nodes = "2" if sec.quick else "2,4"
    iters = "100" if sec.quick else "300"
    for run in range(sec.repeats):
        status, out = sec.run(["python3", BENCH, "--iters", iters, "--nodes", nodes,
                               "--ranks", str(RANKS_PER_NODE)], 900)
        if status != 0:
            sec.note("hwbarrier_bench run %d: %s" % (
                run + 1, "timed out" if status is None else "status %d" % status))
        for m in ROW.finditer(out):
            k = int(m.group(1))
            for name, value in zip(COLUMNS, m.groups()[1:]):
                sec.add("tcg", "hwbarrier", "smapos+hub", k, name, 0,
                        "reads" if name == "reads" else "us", float(value), run)
    sec.note("%d ranks per node, %s barriers per loop" % (RANKS_PER_NODE, iters))
