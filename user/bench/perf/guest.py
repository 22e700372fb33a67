"""QEMU guests: smapos and a Linux guest on the same virtual machine.

Both boot with the command line lwkrun builds (tools/lwk: -machine pc,
-cpu max, the same -smp and -m, serial console on stdio, -kernel and
-initrd): smapos with user/bench/noise as the job's module, Debian's Linux
kernel with a one-file initramfs whose /init is the same static noise
binary (`noise --init`: one pinned worker per CPU, then power-off).

Times come from two clocks.  The host stamps every console line when it
arrives (time since QEMU was started).  The guest's TSC, printed by noise
and by smapos, counts from the VM's reset at the host's TSC rate under TCG
(checked: the stamps and the arrival times agree to a few ms), so
reset = min over stamped lines of (arrival - tsc / rate), and every guest
TSC stamp lands on the host's time line.  Linux marks the TSC unstable
under TCG and its printk clock drifts, so Linux's own milestones (first
kernel message, CPUs online) are taken from arrival times."""

import glob
import os
import re
import select
import statistics
import sys
import time

from perf.util import ROOT, build

sys.path.insert(0, os.path.join(ROOT, "tools"))
from lwk import boot, cli, qemu  # noqa: E402

NOISE = build("user", "noise")
INITRD = build("bench", "linux-noise.cpio")
GUEST_MEMORY = "1G"

STAMP = re.compile(r"^noise (start|worker|end) cpu=(-?\d+) tsc=(\d+)")
RESULT = re.compile(r"^noise result cpu=(\d+) .*min=([\d.]+) p50=([\d.]+) p999=([\d.]+) "
                    r"max=([\d.]+)")
DETOUR = re.compile(r"^noise detour cpu=(\d+) at_us=([\d.]+) ns=(\d+)")
DROPPED = re.compile(r"^noise dropped cpu=(\d+) n=(\d+)")
SMP = re.compile(r"^smp: (\d+) of \d+ CPUs online, ([\d.]+) ms after reset \(([\d.]+) ms in")
JOB = re.compile(r"^job \d+: \S+: \d+ ranks?, status (\d+) .*, ([\d.]+) ms, launch ([\d.]+) ms")
LINUX_BANNER = re.compile(r"\] Linux version ")
LINUX_SMP = re.compile(r"\] smp: Brought up \d+ nodes?, (\d+) CPUs")


def linux_kernel():
    """Debian's newest kernel image in /boot, or None."""
    images = glob.glob("/boot/vmlinuz-*")

    def version(path):
        return [int(x) if x.isdigit() else x for x in re.split(r"[.-]", path[len("/boot/vmlinuz-"):])]
    return max(images, key=version) if images else None


def cpio_entry(name, mode, data=b"", rdev=(0, 0), ino=0):
    """One member of a newc ("070701") archive, the format Linux unpacks."""
    name = name.encode() + b"\0"
    fields = (ino, mode, 0, 0, 1, 0, len(data), 0, 0, rdev[0], rdev[1], len(name), 0)
    head = b"070701" + b"".join(b"%08x" % v for v in fields) + name
    head += b"\0" * (-len(head) % 4)
    return head + data + b"\0" * (-len(data) % 4)


def make_initramfs():
    """/init (the noise binary) and /dev/console: without a console node
    in the initramfs the kernel starts init with no stdout."""
    with open(NOISE, "rb") as f:
        init = f.read()
    blob = (cpio_entry("dev", 0o040755, ino=1) +
            cpio_entry("dev/console", 0o020600, rdev=(5, 1), ino=2) +
            cpio_entry("init", 0o100755, init, ino=3) +
            cpio_entry("TRAILER!!!", 0))
    os.makedirs(os.path.dirname(INITRD), exist_ok=True)
    with open(INITRD, "wb") as f:
        f.write(blob)
    return INITRD


def accel_options(kvm, icount):
    """lwkrun's options for TCG (default), KVM, or TCG in virtual time
    (--icount: guest clocks advance 1 ns per guest instruction, so a detour
    can only come from instructions the guest itself ran, never from the
    host descheduling a vCPU thread)."""
    return ["--kvm"] if kvm else ["--icount"] if icount else []


def smapos_argv(cpus, args, kvm=False, job_options=(), icount=False):
    """The QEMU command lwkrun would run for `noise args` on every CPU."""
    opt = cli.parse(accel_options(kvm, icount) + ["-c", str(cpus), "-m", GUEST_MEMORY] +
                    list(job_options) + ["-n", str(cpus), NOISE] + args)
    return qemu.qemu_argv(opt, boot.kernel_cmdline(opt, extra="console=serial"),
                          boot.modules(opt))


def linux_argv(kernel, cpus, args, quiet, kvm=False, icount=False):
    """The same machine booting Linux; everything after `--` goes to /init."""
    opt = cli.parse(accel_options(kvm, icount) +
                    ["-c", str(cpus), "-m", GUEST_MEMORY, "--kernel", kernel, INITRD])
    console = "console=ttyS0 quiet" if quiet else "console=ttyS0 earlyprintk=ttyS0"
    cmdline = "%s panic=-1 -- --init %s" % (console, " ".join(args))
    return qemu.qemu_argv(opt, cmdline, [("init", INITRD)])


class Boot:
    """One QEMU run: console lines with their arrival times (seconds after
    QEMU was started) and the moment QEMU exited."""

    def __init__(self, sec, argv, timeout):
        self.lines = []
        self.exit = None
        sec.sample_load()
        sec.log.write("\n$ %s\n" % " ".join(argv))
        t0 = time.monotonic()
        proc = qemu.start(argv)
        buf = b""
        try:
            while True:
                left = t0 + timeout - time.monotonic()
                if left <= 0:
                    break
                ready, _, _ = select.select([proc.stdout], [], [], min(left, 0.5))
                if not ready:
                    continue
                data = os.read(proc.stdout.fileno(), 65536)
                now = time.monotonic() - t0
                if not data:
                    proc.wait()
                    self.exit = time.monotonic() - t0
                    break
                buf += data
                while b"\n" in buf:
                    raw, buf = buf.split(b"\n", 1)
                    text = raw.decode("utf-8", "replace").rstrip("\r")
                    self.lines.append((now, text))
                    sec.log.write("%9.4f %s\n" % (now, text))
        finally:
            qemu.stop([proc])
        self.status = proc.returncode if self.exit is not None else None
        sec.log.write("# qemu: %s\n" % ("timed out after %d s" % timeout if self.exit is None
                                        else "exit %d after %.3f s" % (proc.returncode,
                                                                       self.exit)))
        sec.log.flush()

    def text(self):
        return [text for _, text in self.lines]

    def find(self, rx):
        """(arrival, match) of the first line matching rx, or (None, None)."""
        for t, text in self.lines:
            m = rx.search(text)
            if m:
                return t, m
        return None, None

    def stamps(self):
        """[(kind, cpu, tsc, arrival)] of noise's start/worker/end lines."""
        out = []
        for t, text in self.lines:
            m = STAMP.search(text)
            if m:
                out.append((m.group(1), int(m.group(2)), int(m.group(3)), t))
        return out

    def reset(self, hz):
        """When the VM was reset, in host seconds after QEMU's start: the
        earliest guest-stamped line bounds it best (lines only arrive late)."""
        guesses = [t - tsc / hz for _, _, tsc, t in self.stamps()]
        t, m = self.find(SMP)
        if m:
            guesses.append(t - float(m.group(2)) / 1e3)
        return min(guesses) if guesses else None


def noise_results(lines):
    """{cpu: (min, p50, p999, max)}, [(cpu, at_us, ns)], {cpu: dropped}
    from noise's output lines."""
    results, detours, dropped = {}, [], {}
    for text in lines:
        m = RESULT.search(text)
        if m:
            results[int(m.group(1))] = tuple(float(x) for x in m.groups()[1:])
            continue
        m = DETOUR.search(text)
        if m:
            detours.append((int(m.group(1)), float(m.group(2)), int(m.group(3))))
            continue
        m = DROPPED.search(text)
        if m:
            dropped[int(m.group(1))] = int(m.group(2))
    return results, detours, dropped


def host_tsc_hz(sec):
    """The host's TSC rate (noise's own calibration, natively, median of 3):
    the rate of the guest TSC under TCG."""
    rates = []
    for _ in range(3):
        _, out = sec.run([NOISE, "-q", "1"], 30)
        m = re.search(r"^noise hz tsc_hz=(\d+)", out, re.M)
        if m:
            rates.append(float(m.group(1)))
    return statistics.median(rates) if rates else None
