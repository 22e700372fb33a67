"""Boot smapos under QEMU and run the jobs: `lwkrun` without --host.

The kernel is booted directly with -kernel (multiboot1) and the programs as
modules (-initrd), which skips GRUB and any image build; --uefi and --iso go
through a GRUB ISO instead.  The serial console is streamed to stdout; the
exit status is the kernel's (its last line, or QEMU's debug-exit code)."""

import ctypes
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from lwk import boot
from lwk.cli import UsageError, signame, stop_on_signals

OVMF = "/usr/share/ovmf/OVMF.fd"
STATUS_LINE = re.compile(r"^smapos: exit status (\d+)")
# A quiet kernel's first line (kernel/printk.c): what came before it on the
# console is the firmware's and GRUB's.
QUIET_MARK = "smapos: quiet boot, the boot log is off"
HELD_LINES = 200
# QEMU's pc machine: with -m past PC_BELOW_HOLE_MAX, RAM below 4 GiB
# stops at PC_BELOW_HOLE and the rest starts at 4 GiB.
PC_BELOW_HOLE = 3072 << 20
PC_BELOW_HOLE_MAX = 3584 << 20
TIMEOUT_STATUS = 124
PR_SET_PDEATHSIG = 1
MiB = 1 << 20


def default_memory(opt):
    """Enough RAM for the largest job: its ranks' regions plus the kernel's
    share; QEMU only backs what the guest touches, so be generous.  Past
    3.5 GiB the pc machine puts all RAM beyond 3 GiB above 4 GiB, and a
    region is physically contiguous: what does not fit below the hole
    must fit above it whole (2 ranks x 1536M failed on the default -m)."""
    need = 0
    for j in opt.jobs:
        per_rank = j.mem if j.mem else 64 * MiB
        np = cpus_for(opt) if j.np == "all" else j.np
        total = np * per_rank * 9 // 8 + 160 * MiB
        if total > PC_BELOW_HOLE_MAX:
            below = max(0, (PC_BELOW_HOLE - 160 * MiB) // per_rank)
            total = max(total, PC_BELOW_HOLE + max(0, np - below) * per_rank + 64 * MiB)
        need = max(need, total)
    return max(1024 * MiB, (need + 64 * MiB - 1) // (64 * MiB) * (64 * MiB))


def node_memory(opt):
    return opt.memory or default_memory(opt)


def io_server(opt, nodes=1):
    """The job's I/O server (not started), or None when the boot has no
    jobs of lwkrun's own (--iso boots the image's)."""
    if not opt.jobs:
        return None
    from lwk import fileio
    return fileio.IOServer(opt, nodes, node_memory(opt))


# QEMU's pc machine (i440FX, xAPIC ids in 8 bits) starts at most this many
# CPUs; the kernel needs this much RAM before any rank (docs/launcher.md).
MAX_CPUS = 255
MIN_MEMORY = 64 * MiB


def check_memory(opt):
    """-m given with --mem: when the ranks' regions cannot fit, say which -m
    would (the kernel's own share is about 20 MiB plus page tables; 64 MiB
    covers it).  The kernel stays the judge: it refuses the job itself.
    What QEMU or the kernel cannot start at all is refused here, in one
    line, rather than left to QEMU's refusal or a kernel that never starts."""
    if cpus_for(opt) > MAX_CPUS:
        raise UsageError("-c %d: QEMU's pc machine starts at most %d CPUs (docs/launcher.md)"
                         % (cpus_for(opt), MAX_CPUS))
    if opt.memory and opt.memory < MIN_MEMORY:
        raise UsageError("-m %dK: the kernel needs at least %dM before any rank runs"
                         % (opt.memory >> 10, MIN_MEMORY // MiB))
    if not opt.memory:
        return
    for j in opt.jobs:
        np = cpus_for(opt) if j.np == "all" else j.np
        if j.mem and np * j.mem + 64 * MiB > opt.memory:
            sys.stderr.write("lwkrun: -m %dM cannot hold %d ranks x %dM (--mem): use -m %dM, or "
                             "leave -m out and lwkrun sizes the node\n"
                             % (opt.memory // MiB, np, j.mem // MiB, default_memory(opt) // MiB))


def cpus_for(opt):
    if opt.cpus:
        return opt.cpus
    # A node of a multi-node job keeps one CPU for its network engine.
    return max([1] + [j.np for j in opt.jobs if j.np != "all"]) + (opt.nodes > 1)


def qemu_argv(opt, cmdline, mods, iso=None, extra=()):
    exe = shutil.which("qemu-system-x86_64")
    if not exe:
        raise UsageError("qemu-system-x86_64 not found: install qemu-system-x86 (make deps-qemu)")
    # No default parallel port: a node has one only when the barrier hub
    # wires it (nodes.py), so a job asking for the barrier elsewhere is told.
    check_memory(opt)
    # No default NIC either (QEMU would add one on user-mode networking):
    # nodes.py gives each node an e1000 on the job's switch.
    argv = [exe, "-machine", "pc", "-display", "none", "-monitor", "none",
            "-serial", "stdio", "-parallel", "none", "-nic", "none", "-no-reboot",
            "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04",
            "-smp", str(cpus_for(opt)), "-m", "%dM" % (node_memory(opt) // MiB)]
    if opt.kvm:
        if not os.access("/dev/kvm", os.R_OK | os.W_OK):
            raise UsageError("--kvm: /dev/kvm is not usable here")
        argv += ["-accel", "kvm", "-cpu", "host"]
    elif opt.icount:
        # Virtual time needs single-threaded TCG, which runs the vCPUs in
        # turns (100 ms of virtual time each): exact on one CPU, and on
        # several every CPU sees the others' turns as gaps in its time.
        argv += ["-accel", "tcg,thread=single", "-cpu", "max", "-icount", "shift=0"]
    else:
        argv += ["-accel", "tcg,thread=multi", "-cpu", "max"]
    if opt.uefi:
        if not os.path.isfile(OVMF):
            raise UsageError("--uefi: %s not found: install ovmf (make deps-qemu)" % OVMF)
        argv += ["-bios", OVMF]
    if iso:
        argv += ["-cdrom", iso, "-boot", "d"]
    else:
        if not os.path.isfile(opt.kernel):
            raise UsageError("%s: no such file (run make)" % opt.kernel)
        argv += ["-kernel", opt.kernel, "-append", cmdline]
        if mods:
            # QEMU separates modules with commas; a comma in a path is doubled.
            argv += ["-initrd", ",".join(p.replace(",", ",,") for _, p in mods)]
    return argv + list(extra)


class Console:
    """Stream a QEMU's serial output line by line, remembering the status.
    quiet: hold every line up to the kernel's QUIET_MARK and drop them with
    it; if the kernel never gets that far, they are shown at the end."""

    def __init__(self, proc, prefix="", quiet=False):
        self.proc = proc
        self.prefix = prefix
        self.held = [] if quiet else None
        self.buf = b""
        self.status = None
        self.panicked = False
        self.stopped = False    # stopped by the launcher, not ended by itself

    def fileno(self):
        return self.proc.stdout.fileno()

    def feed(self, data, out):
        self.buf += data
        while b"\n" in self.buf:
            line, self.buf = self.buf.split(b"\n", 1)
            self.emit(line, out)

    def finish(self, out):
        rest = self.proc.stdout.read() or b""
        self.feed(rest, out)
        if self.buf:
            self.emit(self.buf, out)
            self.buf = b""
        held, self.held = self.held or [], None
        for text in held:
            self.show(text, out)

    def emit(self, raw, out):
        text = raw.decode("utf-8", "replace").rstrip("\r")
        if self.held is None:
            self.show(text, out)
        elif text.endswith(QUIET_MARK):
            self.held = None
        elif len(self.held) < HELD_LINES:
            self.held.append(text)

    def show(self, text, out):
        m = STATUS_LINE.match(text)
        if m:
            self.status = int(m.group(1))
        if text.startswith("smapos: panic"):
            self.panicked = True
        out.write(self.prefix + text + "\n")
        out.flush()

    def exit_status(self):
        """The kernel's status: its last line, else QEMU's debug-exit code
        (never a signal's negative return code)."""
        rc = self.proc.returncode
        if self.status is not None:
            return self.status
        if rc is not None and rc > 0 and rc % 2 == 1:
            return (rc - 1) // 2
        return None

    def no_status(self):
        """Why QEMU ended without the kernel's status (the launcher's line)."""
        rc = self.proc.returncode
        if rc < 0:
            return "QEMU was killed by %s before the kernel reported a status" % signame(-rc)
        return "QEMU exited with %s before the kernel reported a status" % rc


def stop(procs):
    for p in procs:
        if p.poll() is None:
            p.terminate()
    deadline = time.monotonic() + 3
    for p in procs:
        try:
            p.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


class HelperGone(Exception):
    """A process the nodes need (the I/O server) ended under them."""


def stream(consoles, timeout, out=sys.stdout, io=None):
    """Pump every console until all QEMUs exit or the timeout passes.
    Returns False on timeout; raises HelperGone when io's server ends
    while a QEMU runs (its kernel would wait for it for ever)."""
    deadline = time.monotonic() + timeout
    live = list(consoles)
    while live:
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        if io and io.gone():
            raise HelperGone(io.gone())
        ready, _, _ = select.select(live, [], [], min(left, 0.5))
        for c in ready:
            data = os.read(c.fileno(), 65536)
            if data:
                c.feed(data, out)
            else:
                c.proc.wait()
                c.finish(out)
                live.remove(c)
    return True


def die_with_parent(sig):
    """A preexec_fn: the child gets `sig` when lwkrun dies, even by SIGKILL,
    and starts with no signal blocked (lwkrun blocks some while it starts
    its children: nodes.py)."""
    def set_it():
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, sig)
        signal.pthread_sigmask(signal.SIG_SETMASK, [])
    return set_it


def start(argv):
    return subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True,
                            preexec_fn=die_with_parent(signal.SIGKILL))


def run(opt):
    io = None
    try:
        mods = boot.modules(opt)
        io = io_server(opt)
        words = io.cmdline() if io else ""
        cmdline = boot.kernel_cmdline(opt, extra=("console=serial " + words).strip())
        iso = opt.iso
        tmp = None
        if opt.uefi and not iso:
            # OVMF cannot boot a multiboot kernel directly: go through GRUB.
            tmp = tempfile.TemporaryDirectory(prefix="lwkrun-")
            iso = os.path.join(tmp.name, "boot.iso")
            boot.build_iso(iso, opt.kernel, mods, [("smapos", boot.kernel_cmdline(opt, extra=words))])
        argv = qemu_argv(opt, cmdline, mods, iso, io.qemu_args(0) if io else ())
        if io:
            io.start()
    except UsageError as e:
        if io:
            io.stop()
        sys.stderr.write("lwkrun: %s\n" % e)
        return 2

    stop_on_signals(lambda signum: KeyboardInterrupt())
    proc = start(argv)
    console = Console(proc, quiet=opt.quiet)
    interrupted = False
    gone = None
    try:
        finished = stream([console], opt.timeout, io=io)
    except KeyboardInterrupt:
        finished, interrupted = False, True
    except HelperGone as e:
        finished, gone = False, str(e)
    finally:
        stop([proc])
        if io:
            io.stop()
        if tmp:
            tmp.cleanup()
    if interrupted:
        sys.stderr.write("lwkrun: interrupted, QEMU stopped\n")
        return 130
    if gone:
        sys.stderr.write("lwkrun: %s: QEMU stopped\n" % gone)
        return 1
    if not finished:
        sys.stderr.write("lwkrun: timeout after %g s, QEMU killed\n" % opt.timeout)
        return TIMEOUT_STATUS
    status = console.exit_status()
    if status is None:
        sys.stderr.write("lwkrun: %s\n" % console.no_status())
        return 128 - proc.returncode if proc.returncode < 0 else 1
    return status
