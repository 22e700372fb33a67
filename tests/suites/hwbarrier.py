"""The parallel-port hardware barrier (docs/barrier.md): the box's state
machine, the hierarchical barrier on 2 and 4 QEMU nodes wired through
tools/barrier-hub, a node that never arrives, and nodes without a port.

user/hwbtest checks, on every rank after each barrier, that its node's
ranks all entered it and that the kernel's and the box's barrier counts
moved by exactly one (docs/barrier.md, "Tests").  Checks that must look
at the host after lwkrun ends (leftover QEMUs, hubs, mounts) run this file
as a script: `python3 hwbarrier.py CHECK`.
"""

import os
import re
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402

ME = os.path.abspath(__file__)
HWBTEST = harness.build("user", "hwbtest")
HUB = harness.build("tools", "barrier-hub")
HUB_CHECKS = 76         # TAP lines of the hub's unit test
STUCK_TIMEOUT_MS = 1500


def nodes(name, k, n, args, append=None, cpus=None, **kw):
    """hwbtest on k QEMU nodes of n ranks; lwkrun's own timeout fires first."""
    kw.setdefault("timeout", 90)
    opts = ["--nodes", k, "-n", n, "-q", "--timeout", kw["timeout"] - 15]
    if cpus:
        opts += ["-c", cpus]
    if append:
        opts += ["--append", append]
    return harness.lwkrun(name, opts + [HWBTEST] + list(args), **kw)


def check(name, what, **kw):
    return harness.Case(name, ["python3", ME, what], tap=True, **kw)


def cases():
    return [
        harness.Case("hwbarrier_hub_state_machine", [harness.build("tests", "unit", "hubstate_test")],
                     tap=True, min_tap=HUB_CHECKS),
        nodes("hwbarrier_2x2_1000_hierarchical", 2, 2, ["barrier", "1000", "--box-count"],
              tap=True, min_tap=2 * 2),
        nodes("hwbarrier_4x2_1000_hierarchical", 4, 2, ["barrier", "1000", "--box-count"],
              tap=True, min_tap=4 * 2),
        nodes("hwbarrier_mpi_barrier_spans_nodes", 2, 2, ["mpi", "200", "--box-count"],
              tap=True, min_tap=2 * 2),
        nodes("hwbarrier_shmem_barrier_all_spans_nodes", 2, 2, ["shmem", "200", "--box-count"],
              tap=True, min_tap=2 * 2),
        check("hwbarrier_stuck_node_fails_the_job_and_cleans_up", "stuck", min_tap=5, timeout=60),
        check("hwbarrier_stuck_node_without_network_times_out", "stuck_nonet", min_tap=5,
              timeout=60),
        # Node 1 computes 4 s, past barrier_timeout=1500: the engine's
        # pings keep it alive.
        nodes("hwbarrier_late_node_is_waited_for", 2, 1, ["late", "1", "4000"],
              append="barrier_timeout=%d" % STUCK_TIMEOUT_MS, tap=True, min_tap=2),
        check("hwbarrier_ctrl_c_cleans_up", "interrupt", min_tap=4, timeout=60),
        check("hwbarrier_timeout_stops_every_node", "timeout", min_tap=3, timeout=60),
        harness.lwkrun("hwbarrier_one_node_without_port",
                       ["-n", "1", "-q", "--timeout", "30", HWBTEST, "nohw"], tap=True, min_tap=2,
                       expect=[r"^barrier: rank 0 asked for the hardware barrier, but node 0 has "
                               r"no parallel port \(barrier_port=0x378\)$"], timeout=45),
        # -c 1: no CPU for the network engine either, so no other way across.
        nodes("hwbarrier_nodes_without_port_fail_clearly", 2, 1, ["barrier", "10"],
              append="barrier_port=0x278", cpus=1, rc=None, timeout=45,
              expect=[r"^\[n0\] barrier: no parallel port at 0x278: hardware barrier unavailable "
                      r"on node 0$",
                      r"^\[n1\] barrier: rank 0 asked for the hardware barrier, but node 1 has no "
                      r"parallel port \(barrier_port=0x278\)$",
                      r"^\[n0\] smap_barrier: hardware barrier across 2 nodes failed: "
                      r"No such device$"]),
        harness.lwkrun("hwbarrier_lwkrun_rejects_zero_nodes", ["--nodes", "0", HWBTEST], rc=2,
                       expect=[r"^lwkrun: --nodes: expected a whole number >= 1, got '0'$"]),
        harness.Case("hwbarrier_hub_needs_two_arguments", [HUB, "2"], rc=2,
                     expect=[r"^barrier-hub: expected NODES MOUNTPOINT \(see barrier-hub --help\)$"]),
        harness.Case("hwbarrier_hub_rejects_bad_node_count", [HUB, "300", "/tmp"], rc=2,
                     expect=[r"^barrier-hub: NODES: expected 1\.\.256, got '300'$"]),
        harness.Case("hwbarrier_hub_reports_bad_mountpoint", [HUB, "2", "/nonexistent/dir"], rc=2,
                     expect=[r"barrier-hub: cannot mount on /nonexistent/dir"]),
    ]


# -- checks run as a script ------------------------------------------------

def leftovers(tmp):
    """Processes and mounts that still mention tmp, and files left in it."""
    procs = []
    for pid in os.listdir("/proc"):
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                if tmp.encode() in f.read():
                    procs.append(pid)
        except OSError:
            continue
    with open("/proc/mounts") as f:
        mounts = [line.split()[1] for line in f if tmp in line]
    return procs, mounts, os.listdir(tmp)


def check_clean(tmp, what):
    procs, mounts, files = leftovers(tmp)
    harness.tap(not procs, what + "_no_qemu_or_hub_left", "expected none, got pids %s" % procs)
    harness.tap(not mounts and not files, what + "_no_mount_or_files_left",
                "expected none, got mounts %s, files %s" % (mounts, files))


def lwkrun(tmp, args):
    env = dict(os.environ, TMPDIR=tmp)
    return subprocess.Popen(["python3", harness.LWKRUN] + args, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, env=env, start_new_session=True)


def stuck(tmp, what, cpus, gave_up):
    """Node 1 leaves without entering the barrier: nodes 0 and 2 give up
    naming themselves (gave_up: their kernel's line, %d for the node), the
    box names node 1, the job fails."""
    p = lwkrun(tmp, ["--nodes", "3", "-n", "1", "-c", str(cpus), "-q", "--timeout", "40",
                     "--append", "barrier_timeout=%d" % STUCK_TIMEOUT_MS, HWBTEST, "skip", "1"])
    out = p.communicate(timeout=50)[0].decode(errors="replace")
    harness.tap(p.returncode == 134, what + "_job_fails_with_the_abort_status",
                "expected 134, got %d" % p.returncode)
    # Each waiting node reports its own failure, unless the other waiting
    # node's reached it first over the network (its engine ends the job at
    # once, naming the failed rank).
    timed = [gave_up % (k, k) for k in (0, 2)]
    told = ["[n%d] net: rank %d failed on another node" % (k, 2 - k) for k in (0, 2)]
    missing = [t for t, o in zip(timed, told) if t not in out and o not in out]
    harness.tap(any(t in out for t in timed) and not missing, what + "_waiting_nodes_report_it",
                "expected each of nodes 0 and 2 to give up or be told, missing %r" % missing)
    # The box lists every node missing when one gave up: node 1 always,
    # node 2 too if it was still booting.
    harness.tap(re.search(r"gave up on barrier 1 .*missing: node (\d+,)*1\b", out) is not None,
                what + "_box_names_the_missing_node",
                "expected the hub to name node 1, got: %s" % out[-300:])
    check_clean(tmp, what)


def check_stuck(tmp):
    """With the network engine watching the nodes, node 1's goodbye ends
    the others' wait at once."""
    stuck(tmp, "stuck", 2, "[n%d] barrier: node %d: hardware barrier 1 abandoned: node 1 left "
          "the job without entering it")


def check_stuck_nonet(tmp):
    """-c 1: no CPU for the network engine, so only barrier_timeout= can
    tell a node that left from one still computing."""
    stuck(tmp, "stuck_nonet", 1, "[n%%d] barrier: node %%d: hardware barrier 1 timed out after "
          "%d ms: another node never entered it" % STUCK_TIMEOUT_MS)


def check_interrupt(tmp):
    """Ctrl-C twice (as `timeout` or a second key press sends it to the
    whole process group) while the nodes run barriers: status 130, no
    traceback, nothing left."""
    p = lwkrun(tmp, ["--nodes", "2", "-n", "1", "--timeout", "40", HWBTEST, "barrier",
                     "100000000"])
    deadline = time.monotonic() + 20
    seen = b""
    while time.monotonic() < deadline and seen.count(b"job 0: hwbtest:") < 2:
        seen += p.stdout.readline()
    os.killpg(p.pid, signal.SIGINT)
    time.sleep(0.05)
    os.killpg(p.pid, signal.SIGINT)
    rest = p.communicate(timeout=20)[0]
    harness.tap(p.returncode == 130 and b"interrupted" in rest, "interrupt_exits_130",
                "expected 130 and 'interrupted', got %d: %s" % (p.returncode, rest[-200:]))
    harness.tap(b"Traceback" not in rest, "interrupt_twice_prints_no_traceback",
                "got: %s" % rest[-300:])
    check_clean(tmp, "interrupt")


def check_timeout(tmp):
    """lwkrun's --timeout while the nodes run barriers: 124, nothing left."""
    p = lwkrun(tmp, ["--nodes", "2", "-n", "1", "-q", "--timeout", "3", HWBTEST, "barrier",
                     "100000000"])
    out = p.communicate(timeout=30)[0]
    harness.tap(p.returncode == 124 and b"lwkrun: timeout after 3 s, 2 QEMU nodes and the hub stopped"
                in out, "timeout_exits_124", "expected 124 and the timeout message, got %d: %s"
                % (p.returncode, out[-200:]))
    check_clean(tmp, "timeout")


def main():
    checks = {"stuck": check_stuck, "stuck_nonet": check_stuck_nonet,
              "interrupt": check_interrupt, "timeout": check_timeout}
    if len(sys.argv) != 2 or sys.argv[1] not in checks:
        sys.stderr.write("usage: hwbarrier.py %s\n" % "|".join(checks))
        return 2
    with tempfile.TemporaryDirectory(prefix="hwbarrier-check-") as tmp:
        checks[sys.argv[1]](tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
