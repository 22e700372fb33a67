"""Kind 2: OS noise.  The fixed-work-quantum benchmark (user/bench/noise.c)
on every CPU of smapos and of a Linux guest under the same QEMU/TCG, and
natively on the host as a reference for what the host itself adds."""

import csv
import os

from perf import guest
from perf.util import RESULTS, cores

WORK = 13000            # loop iterations per quantum: about 20 us, natively and under TCG
DETOUR_NS = 5000        # detours listed for the plot: longer than this
LISTED = 3000           # at most this many per CPU and run
DETOURS_CSV = os.path.join(RESULTS, "noise_detours_%s.csv")


def record(sec, kind, impl, cpus, run, text_lines, detours_out):
    results, detours, dropped = guest.noise_results(text_lines)
    if len(results) != cpus:
        sec.note("noise on %s, run %d: %d of %d CPUs reported" % (impl, run + 1, len(results),
                                                                 cpus))
    for cpu, (low, p50, p999, high) in sorted(results.items()):
        figures = {"min": low, "p50": p50, "p999": p999, "max": high,
                   "detour_p999": p999 - low, "detour_max": high - low}
        for metric, value in figures.items():
            sec.add(kind, "noise", impl, cpus, metric, WORK, "ns", value, "%d/%d" % (run, cpu))
        sec.add(kind, "noise", impl, cpus, "detours", WORK, "count",
                sum(1 for c, _, _ in detours if c == cpu) + dropped.get(cpu, 0),
                "%d/%d" % (run, cpu))
    detours_out.extend((impl, run, cpu, at, ns) for cpu, at, ns in detours)


def run(sec, kind="tcg"):
    """Both guests under QEMU (TCG, or KVM for kind 3); with TCG also the
    host natively, and both guests again in virtual time (icount)."""
    kernel = guest.linux_kernel()
    if not kernel:
        sec.note("no Linux kernel in /boot (install linux-image-amd64: make deps-bench); "
                 "the Linux guest is not run")
    else:
        guest.make_initramfs()
    cpus = min(2, cores())
    quanta = 20000 if sec.quick else 100000
    args = ["-q", str(quanta), "-w", str(WORK), "-d", str(DETOUR_NS), "-m", str(LISTED)]
    kvm = kind == "kvm"
    timeout = 600
    detours = []
    for run in range(sec.repeats):
        b = guest.Boot(sec, guest.smapos_argv(cpus, args, kvm=kvm), timeout)
        record(sec, kind, "smapos", cpus, run, b.text(), detours)
        if kernel:
            b = guest.Boot(sec, guest.linux_argv(kernel, cpus, args, True, kvm=kvm), timeout)
            record(sec, kind, "linux", cpus, run, b.text(), detours)
        if not kvm:
            _, out = sec.run([guest.NOISE, "--fork"] + args, timeout)
            record(sec, "host", "host-linux", cores(), run, out.splitlines(), detours)
    save_detours(kind, detours)
    sec.note("%d quanta of %d loop iterations per CPU and run; detours listed above "
             "%d ns, at most %d per CPU and run" % (quanta, WORK, DETOUR_NS, LISTED))
    if not kvm:
        virtual_time(sec, kernel, args, timeout)


def virtual_time(sec, kernel, args, timeout):
    """Under TCG each vCPU is a host thread, so the host's own noise lands
    in both guests and bounds any ratio between them (the host alone shows
    tens of us at the 99.9th percentile).  In virtual time it cannot: what
    is left is the guest kernel's work on the measuring CPU.  One CPU:
    virtual time runs the vCPUs in turns (tools/lwk/qemu.py)."""
    detours = []
    for run in range(sec.repeats):
        b = guest.Boot(sec, guest.smapos_argv(1, args, icount=True), timeout)
        record(sec, "icount", "smapos", 1, run, b.text(), detours)
        if kernel:
            b = guest.Boot(sec, guest.linux_argv(kernel, 1, args, True, icount=True), timeout)
            record(sec, "icount", "linux", 1, run, b.text(), detours)
    save_detours("icount", detours)


def save_detours(kind, detours):
    with open(DETOURS_CSV % kind, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(("impl", "run", "cpu", "at_us", "ns"))
        w.writerows(detours)
