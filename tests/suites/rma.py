"""One-sided communication: MPI RMA windows (user/rmatest) and rmalloc/rpipe
(user/rpipetest).

The RMA programs print one TAP line per behaviour from rank 0: every
synchronisation mode with Put and Get against values each rank computes,
accumulates from all ranks that must add up exactly, the window flavours,
and libsmap's error reports.  They run in host mode on 2, 4 and 8 ranks (4
and 8 share the 2 cores on purpose: every wait must yield), on the kernel
with 2 ranks, with each rank's own memory behind shared windows
(SMAP_WIN_SHARED=noncontig), and a window over the ranks of several QEMU
and host nodes.

rpipe: the remote heap's host unit test (the policies' exact choices,
exhaustion and recovery, a random run against a model), then streams of
1 B to 16 MiB checked byte for byte, the policies driven to exhaustion and
recovery across a pipe, the rest of the interface and its misuse, and the
example program of docs/rpipe.md; on 2, 4 and 8 ranks, the streams on the
kernel too, and every program with the two ends of each pipe on different
nodes: host nodes (with frames lost), and the streams on two QEMU nodes.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402

# TAP lines each program prints.
RMA = {"rmat_sync": 16, "rmat_acc": 15, "rmat_win": 7, "rmat_err": 5}
RPIPE = {"rpt_stream": 6, "rpt_heap": 3, "rpt_misc": 3}


def prog(name):
    return harness.build("user", name)


def host(name, n, program, args=(), env=(), **kw):
    kw.setdefault("timeout", 60)
    extra = []
    for kv in env:
        extra += ["-e", kv]
    return harness.lwkrun(name, ["--host", "-n", str(n)] + extra + [prog(program)] + list(args),
                          **kw)


def cases():
    c = [harness.Case("rpipe_rheap_unit", [prog("rheap_unit")], tap=True, min_tap=25)]
    for n in (2, 4, 8):
        for p, lines in sorted(list(RMA.items()) + list(RPIPE.items())):
            c.append(host("%s_host_%d" % (p, n), n, p, tap=True, min_tap=lines))
    c += [
        host("rmat_sync_host_4_shared_noncontig", 4, "rmat_sync", env=["SMAP_WIN_SHARED=noncontig"],
             tap=True, min_tap=RMA["rmat_sync"]),
        host("rma_errors_are_fatal_by_default", 2, "rmat_err", ["fatal"], rc=None,
             expect=[r"MPI_Put: bytes \[64, 68\) are outside rank \d's window of 64 bytes "
                     r"\(RMA target out of range\)", r"aborted the job with status 54"]),
        harness.lwkrun("rmat_sync_kernel_2", ["-q", "-n", 2, "--timeout", 100, prog("rmat_sync")],
                       tap=True, min_tap=RMA["rmat_sync"], timeout=120),
        harness.lwkrun("rmat_acc_kernel_2", ["-q", "-n", 2, "--timeout", 100, prog("rmat_acc")],
                       tap=True, min_tap=RMA["rmat_acc"], timeout=120),
        harness.lwkrun("rma_window_across_nodes_2x1", ["--nodes", 2, "-n", 1, "-q", "--timeout", 100,
                                                       prog("rmat_err"), "nodes"],
                       tap=True, min_tap=1, timeout=120),
        harness.lwkrun("rma_window_across_host_nodes_2x2",
                       ["--host", "--nodes", 2, "-n", 2, prog("rmat_err"), "nodes"],
                       tap=True, min_tap=1, timeout=60),
        harness.lwkrun("rma_window_across_host_nodes_3x1_drop2",
                       ["--host", "--nodes", 3, "-n", 1, "--drop", 2, prog("rmat_err"), "nodes"],
                       tap=True, min_tap=1, timeout=60),
        harness.lwkrun("rmat_sync_host_nodes_2x2",
                       ["--host", "--nodes", 2, "-n", 2, prog("rmat_sync")],
                       tap=True, min_tap=RMA["rmat_sync"], timeout=60),
        host("rpipe_example_host_2", 2, "rpt_example",
             expect=[r"rank 0 sent 1000 records adding up to (\d+); rank 1 counted \1: right"]),
        harness.lwkrun("rpt_stream_kernel_2", ["-q", "-n", 2, "--timeout", 100, prog("rpt_stream")],
                       tap=True, min_tap=RPIPE["rpt_stream"], timeout=120),
        harness.lwkrun("rpt_stream_across_qemu_nodes_2x1",
                       ["--nodes", 2, "-n", 1, "-q", "--timeout", 150, prog("rpt_stream"),
                        1 << 20], tap=True, min_tap=RPIPE["rpt_stream"], timeout=180),
        harness.lwkrun("rpipe_example_across_host_nodes_2x1",
                       ["--host", "--nodes", 2, "-n", 1, prog("rpt_example")], timeout=60,
                       expect=[r"rank 0 sent 1000 records adding up to (\d+); rank 1 counted \1: "
                               r"right"]),
        # 2 x 2: the pairs on one node, the ring across both.
        harness.lwkrun("rpt_stream_across_host_nodes_2x2",
                       ["--host", "--nodes", 2, "-n", 2, prog("rpt_stream")],
                       tap=True, min_tap=RPIPE["rpt_stream"], timeout=90),
    ]
    # A rendezvous nobody answers is a deadlock, on a node and between
    # nodes (where the rank polls the peer's offers; on QEMU nodes the peer
    # never used the network, its barriers take the wire, so it attaches
    # to report: both used to wait for --timeout).
    for where, opts in (("one_node", ["--host", "-n", 2]),
                        ("host_nodes", ["--host", "--nodes", 2, "-n", 1]),
                        ("qemu_nodes", ["-q", "--nodes", 2, "-n", 1])):
        c.append(harness.lwkrun("rpipe_unmatched_%s_is_a_deadlock" % where,
                                opts + ["--timeout", 30, prog("rpt_misc"), "unmatched"],
                                rc=123, timeout=60,
                                expect=[r"deadlock: waiting in libsmap for \d+ s with nothing "
                                        r"left to wake them: rank 0 in rpipe"]))
    # Each pipe between two nodes, 2% of the frames lost; the streams up to 4 MiB.
    for p in sorted(RPIPE):
        args = [prog(p)] + ([1 << 22] if p == "rpt_stream" else [])
        c.append(harness.lwkrun("%s_across_host_nodes_2x1_drop2" % p,
                                ["--host", "--nodes", 2, "-n", 1, "--drop", 2] + args,
                                tap=True, min_tap=RPIPE[p], timeout=90))
    return c
