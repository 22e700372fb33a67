"""Kind 3: the kernel under KVM, only where KVM really accelerates.

Calibration: the same smapos job under TCG and under KVM.  The job zeroes a
512 MiB stack at launch, which the kernel times with the TSC ("launch" on
its job line): memory-bound work that TCG runs many times slower than
hardware, so an accelerating KVM shows it plainly.  KVM counts as
accelerating when its run ends within the time limit and its launch takes
at most half of TCG's.  On machines whose /dev/kvm only traps into a slow
path (nested virtualisation without hardware support, as on the
development machine) the KVM run does not even finish booting."""

import os

from perf import guest, hostmode, launch, noise
from perf.util import cores

CALIBRATION_STACK = "512M"


def calibrate(sec):
    """(accelerates, text for the tables)."""
    if not os.access("/dev/kvm", os.R_OK | os.W_OK):
        return False, "not run: /dev/kvm is not usable here"
    job = ["--stack", CALIBRATION_STACK]
    got = {}
    limit = 10.0
    for accel in ("tcg", "kvm"):
        b = guest.Boot(sec, guest.smapos_argv(1, ["-q", "0"], kvm=accel == "kvm",
                                              job_options=job), limit)
        _, job_line = b.find(guest.JOB)
        if b.exit is None or not job_line:
            got[accel] = None
            continue
        got[accel] = (b.exit, float(job_line.group(3)))
        sec.add(accel, "kvm_calibration", "smapos", 1, "wall", 0, "s", b.exit, 0)
        sec.add(accel, "kvm_calibration", "smapos", 1, "launch_512M", 0, "ms",
                float(job_line.group(3)), 0)
        if accel == "tcg":
            limit = max(limit, 3 * b.exit)
    tcg, kvm = got["tcg"], got["kvm"]
    if tcg is None:
        return False, "not run: the TCG reference run of the calibration failed (see raw log)"
    if kvm is None:
        return False, ("not run: KVM does not accelerate here (calibration: the same smapos "
                       "job takes %.2f s under TCG, launch %.0f ms; under KVM it had not "
                       "finished after %.0f s)" % (tcg[0], tcg[1], limit))
    if kvm[1] > tcg[1] / 2:
        return False, ("not run: KVM does not accelerate here (calibration: launch zeroing "
                       "%s takes %.0f ms under KVM against %.0f ms under TCG; wall %.2f "
                       "against %.2f s)" % (CALIBRATION_STACK, kvm[1], tcg[1], kvm[0], tcg[0]))
    return True, ("KVM accelerates (calibration: launch zeroing %s %.0f ms under KVM against "
                  "%.0f ms under TCG; wall %.2f against %.2f s)"
                  % (CALIBRATION_STACK, kvm[1], tcg[1], kvm[0], tcg[0]))


def run(sec, hz):
    accelerates, sec.summary = calibrate(sec)
    if not accelerates:
        return
    # One rank per host core at most: more vCPUs than cores would measure
    # the host's scheduler, not the kernel.
    ranks = [n for n in (2, 4, 8) if n <= cores()]
    if not ranks:
        sec.note("the KVM suite needs at least 2 cores")
        return
    hostmode.suite(sec, "kvm", ("libsmap",), ranks)
    noise.run(sec, "kvm")
    launch.run(sec, hz, "kvm")
