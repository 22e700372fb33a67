#!/usr/bin/env python3
"""tests/jobstatus_test.py - how lwkrun picks a job's status when several
ranks or nodes end at once (tools/lwk/host.py for --host, tools/lwk/nodes.py
for QEMU nodes), as TAP lines.  The order in which ranks that die together
are reaped is the kernel's to choose, so the orders that a real run gives
only by chance are played here.  Also what a quiet QEMU console shows
(tools/lwk/qemu.py Console): the firmware's text before the kernel's
first line is not the job's."""

import io
import os
import struct
import sys
from contextlib import redirect_stderr

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools"))
from lwk import host, nodes, qemu  # noqa: E402

failed = 0


def tap(ok, name, why=""):
    global failed
    failed |= not ok
    print("ok %s" % name if ok else "not ok %s - %s" % (name, why), flush=True)


class Proc:
    def __init__(self, code):
        self.code = code
        self.returncode = code

    def wait(self):
        return self.code

    def kill(self):
        pass


class Pipe:
    """A QEMU that has exited: nothing left on its stdout."""
    returncode = 0
    stdout = io.BytesIO(b"")


class Console:
    def __init__(self, status, rc=0, stopped=False):
        self.status = status
        self.proc = Proc(rc)
        self.stopped = stopped

    def exit_status(self):
        return self.status


class Job:
    np = 1


def play(events, records):
    """Reaps ranks in the given order, each (rank, its wait() code), with the
    job pages' abort records (node -> (local rank, status)) set as the
    ranks' libsmap would have; returns (status, lwkrun's lines)."""
    job = host.HostJob(None, Job(), 0, 0)
    nodes = 1 + max(r for r, _ in events)
    job.pages = [bytearray(host.PAGE) for _ in range(nodes)]
    struct.pack_into("<I", job.pages[0], host.JOB_READY_OFFSET, nodes)
    for r in range(nodes):
        rank = host.Rank(r, Proc(dict(events).get(r, 0)))
        rank.pidfd, w = os.pipe()
        os.close(w)
        job.sel.register(rank.pidfd, 1)
        job.ranks.append(rank)
    err = io.StringIO()
    with redirect_stderr(err):
        for r, _ in events:
            if r in records:
                local, status = records[r]
                struct.pack_into("<Q", job.pages[r], host.JOB_ABORT_OFFSET,
                                 host.ABORT_SET | local << 8 | status)
            if job.ranks[r].status is None:
                job.reap(job.ranks[r])
        status = job.status()
    return status, err.getvalue().strip().splitlines()


def main():
    net = host.EXIT_NET
    st, lines = play([(2, net), (1, -6)], {2: (0, net)})
    tap(st == 134 and lines == ["lwkrun: rank 1 killed by SIGABRT"],
        "a rank killed by a signal is the culprit though another node ended its part "
        "with EXIT_NET first", (st, lines))

    st, lines = play([(1, -6), (2, net)], {2: (0, net)})
    tap(st == 134 and lines == ["lwkrun: rank 1 killed by SIGABRT"],
        "a rank killed by a signal is the culprit when EXIT_NET comes after it", (st, lines))

    st, lines = play([(2, net), (1, 3)], {2: (0, net)})
    tap(st == 3 and lines == ["lwkrun: rank 1 exited with status 3"],
        "a rank that exited non-zero is the culprit though EXIT_NET came first", (st, lines))

    st, lines = play([(2, net), (0, 7)], {2: (0, net), 0: (0, 7)})
    tap(st == 7 and lines == ["lwkrun: rank 0 aborted the job with status 7"],
        "an abort's status wins over a node's EXIT_NET", (st, lines))

    st, lines = play([(1, net)], {1: (0, net)})
    tap(st == net and lines == ["lwkrun: rank 1 aborted the job with status %d" % net],
        "a node lost with no rank failing ends the job with EXIT_NET", (st, lines))

    st, lines = play([(1, 3), (0, -9)], {})
    tap(st == 3 and lines == ["lwkrun: rank 1 exited with status 3"],
        "ranks lwkrun killed after a failure are not culprits", (st, lines))

    st, lines = play([(2, 5), (1, 4)], {})
    tap(st == 4 and lines == ["lwkrun: rank 1 exited with status 4"],
        "of ranks that failed together the first in rank order is the culprit", (st, lines))

    st, lines = play([(1, 0), (0, 0)], {1: (0, 0)})
    tap(st == 0 and lines == ["lwkrun: rank 1 aborted the job with status 0"],
        "a job ended by shmem_global_exit(0) ends with 0", (st, lines))

    for sts, want, what in (([3, 122], 3, "a node's failure wins over another's EXIT_NET"),
                            ([122, 0], 122, "a node lost with every other node clean is 122"),
                            ([134, 122, 3], 134, "the worst failure wins"),
                            ([0, 0], 0, "clean nodes end with 0")):
        st = nodes.worst([Console(s) for s in sts])
        tap(st == want, "QEMU nodes: " + what, (sts, st))
    st = nodes.worst([Console(None, -9), Console(122)])
    tap(st == 137, "QEMU nodes: a QEMU killed by a signal is 128 + the signal, over EXIT_NET", st)
    st = nodes.worst([Console(None, 0, stopped=True), Console(3)])
    tap(st == 3, "QEMU nodes: a node the launcher stopped is no culprit", st)
    for mark, want, what in ((True, "[n0] hi\n[n0] smapos: exit status 0\n",
                              "a quiet console hides what came before the kernel's first line"),
                             (False, "[n0] BdsDxe: loading\n[n0] \x1b[2JBooting\n",
                              "a quiet console whose kernel never started shows the firmware's text")):
        out = io.StringIO()
        con = qemu.Console(Pipe(), "[n0] ", quiet=True)
        con.feed(b"BdsDxe: loading\n\x1b[2JBooting", out)
        if mark:
            con.feed(b"\r\n\x1b[0m" + qemu.QUIET_MARK.encode() + b"\nhi\r\n", out)
            con.feed(b"smapos: exit status 0\n", out)
        con.finish(out)
        tap(out.getvalue() == want and con.exit_status() == (0 if mark else None), what,
            repr(out.getvalue()))
    return failed


if __name__ == "__main__":
    sys.exit(main())
