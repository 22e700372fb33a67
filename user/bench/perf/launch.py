"""Boot and launch times: smapos against a Linux guest to its init, on 1, 4
and 64 CPUs of the same QEMU machine (kind 2, TCG), or smapos alone under
KVM (kind 3).  The job is `noise -q 0`, which only prints TSC stamps: its
first instruction's (main), each forked Linux worker's, and its last.

Figures, in ms, with the clocks explained in guest.py:

  qemu_to_reset     QEMU started -> VM reset (QEMU's own start-up)
  reset_to_kernel   reset -> smapos entry (its TSC at entry) / Linux's first
                    console message (start_kernel, after the decompressor)
  reset_to_online   reset -> all CPUs online (smapos' line / Linux's
                    "smp: Brought up")
  reset_to_init     reset -> the first user instruction: smapos' first
                    rank, Linux's /init (main, a few us after it)
  reset_to_user     reset -> every rank in main / every pinned Linux worker
  kernel_to_user    kernel entry -> every rank in main (the brief's 50 ms)
  launch            smapos: job start -> last rank's first instruction (the
                    kernel's figure); Linux: /init -> last worker started
  end_to_off        the job's last line -> QEMU has exited (power-off)
  total             QEMU started -> QEMU exited

Under KVM the guest TSC does not start at reset, so only the figures that
are differences of guest stamps, and the host's own, are kept."""

from perf import guest

CPU_COUNTS = (1, 4, 64)
RELATIVE = ("kernel_to_online", "kernel_to_user", "launch", "end_to_off", "total")


def end_to_off(b):
    ends = [t for kind, _, _, t in b.stamps() if kind == "end"]
    return (b.exit - max(ends)) * 1e3 if ends and b.exit is not None else None


def smapos_figures(b, hz, cpus):
    _, smp = b.find(guest.SMP)
    _, job = b.find(guest.JOB)
    starts = [tsc for kind, _, tsc, _ in b.stamps() if kind == "start"]
    reset = b.reset(hz)
    if not smp or not job or len(starts) != cpus or b.exit is None:
        return None
    online, in_kernel = float(smp.group(2)), float(smp.group(3))
    entry = online - in_kernel
    return {
        "qemu_to_reset": reset * 1e3,
        "reset_to_kernel": entry,
        "reset_to_online": online,
        "kernel_to_online": in_kernel,
        "reset_to_init": min(starts) / hz * 1e3,
        "reset_to_user": max(starts) / hz * 1e3,
        "kernel_to_user": max(starts) / hz * 1e3 - entry,
        "launch": float(job.group(3)),
        "end_to_off": end_to_off(b),
        "total": b.exit * 1e3,
    }


def linux_figures(b, hz, cpus):
    stamps = b.stamps()
    init = [tsc for kind, _, tsc, _ in stamps if kind == "start"]
    workers = [tsc for kind, _, tsc, _ in stamps if kind == "worker"]
    reset = b.reset(hz)
    if not init or len(workers) != cpus or b.exit is None:
        return None
    fig = {
        "qemu_to_reset": reset * 1e3,
        "reset_to_init": init[0] / hz * 1e3,
        "reset_to_user": max(workers) / hz * 1e3,
        "launch": (max(workers) - init[0]) / hz * 1e3,
        "end_to_off": end_to_off(b),
        "total": b.exit * 1e3,
    }
    t_banner, _ = b.find(guest.LINUX_BANNER)
    t_smp, _ = b.find(guest.LINUX_SMP)
    if t_banner is not None:
        fig["reset_to_kernel"] = (t_banner - reset) * 1e3
        fig["kernel_to_user"] = fig["reset_to_user"] - fig["reset_to_kernel"]
    if t_smp is not None:
        fig["reset_to_online"] = (t_smp - reset) * 1e3
        if t_banner is not None:
            fig["kernel_to_online"] = (t_smp - t_banner) * 1e3
    return fig


def add(sec, kind, impl, cpus, run, fig):
    if fig is None:
        sec.note("boot of %s on %d CPUs, run %d: incomplete, not counted (see raw/%s.log)"
                 % (impl, cpus, run + 1, sec.name))
        return
    for metric, value in fig.items():
        if value is not None and (kind == "tcg" or metric in RELATIVE):
            sec.add(kind, "boot", impl, cpus, metric, 0, "ms", value, run)


def run(sec, hz, kind="tcg"):
    kernel = guest.linux_kernel() if kind == "tcg" else None
    if kind == "tcg" and not kernel:
        sec.note("no Linux kernel in /boot (install linux-image-amd64: make deps-bench); "
                 "the Linux guest is not run")
    if kernel:
        guest.make_initramfs()
    stamps_only = ["-q", "0"]
    for cpus in CPU_COUNTS:
        # A Linux guest brings 64 CPUs up in minutes under TCG on 2 cores.
        linux = kernel and (cpus < 64 or not sec.quick)
        if kernel and not linux:
            sec.note("the Linux guest on 64 CPUs takes minutes under TCG here; "
                     "not run with --quick")
        repeats = sec.repeats if cpus < 64 else max(2, sec.repeats // 2)
        for run in range(repeats):
            b = guest.Boot(sec, guest.smapos_argv(cpus, stamps_only, kvm=kind == "kvm"), 300)
            add(sec, kind, "smapos", cpus, run, smapos_figures(b, hz, cpus))
            if not linux:
                continue
            b = guest.Boot(sec, guest.linux_argv(kernel, cpus, stamps_only, quiet=False), 1200)
            add(sec, kind, "linux", cpus, run, linux_figures(b, hz, cpus))
            if cpus < 64:
                b = guest.Boot(sec, guest.linux_argv(kernel, cpus, stamps_only, quiet=True), 300)
                add(sec, kind, "linux-quiet", cpus, run, linux_figures(b, hz, cpus))
