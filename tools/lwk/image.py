"""tools/mkimage: a bootable smapos image for real nodes.

One hybrid ISO boots under BIOS and UEFI, from a CD or, written whole, from
a USB stick.  Its GRUB menu holds the jobs given (the default entry), the
self-test over all CPUs, and the jobs again with the serial console only.
With --nodes K the jobs span K nodes: one image for the whole cluster.
The default entry serves every node (node=auto: the kernels number the
nodes by MAC order), and every job entry comes once per node as well
(node=I nnodes=K) for numbering by hand; a random net_cluster in every
entry keeps its nodes apart from another cluster's on the same Ethernet
segment.
--netdir writes the same boot files plus GRUB's network images for PXE.
Every mistake is one line on stderr and exit status 2."""

import os
import shlex
import sys

from lwk import boot
from lwk.cli import MAX_NODES, ROOT, Job, UsageError, parse_int, parse_jobs

USAGE = """\
usage: mkimage [options] [-n N] prog [args...] [--next [-n N] prog [args...]]...

Writes a hybrid BIOS+UEFI ISO that boots smapos into these jobs, run one
after another; `dd` it to a USB stick (docs/flashing.md).  prog is a path,
or the name of a program in build/user/.

options:
  -o, --output PATH     image to write (default build/image.iso)
  -n, --np N            ranks of the job: a number or `all` (default all)
  --mem SIZE            memory per rank, e.g. 512M (default: an even share)
  --stack SIZE          stack per rank (default 8M)
  -e, --env K=V         set K=V in the ranks' environment (repeatable)
  --tag-output          prefix every output line with [rank]
  -q, --quiet           kernel prints only the ranks' output and errors
  --append OPTS         more kernel options for every entry (docs/hardware.md)
  --nodes K             the jobs span K nodes: an entry for any node (numbered
                        by MAC, the default) and one per node (default 1)
  --exit MODE           after the jobs: poweroff (default), halt or reboot
  --timeout S           seconds the GRUB menu waits (default 5)
  --selftest-args ARGS  options of the self-test entry, e.g. "--cpus 64 --mem 250G"
  --netdir DIR          also fill DIR for a TFTP server (PXE boot, BIOS and UEFI)
  --kernel PATH         kernel ELF (default build/kernel/smapos.elf)
  --selftest PATH       self-test program (default build/user/selftest)
  -h, --help            show this help
"""

EXIT_MODES = ("poweroff", "halt", "reboot")
# Options whose text is taken as it is, and the Options field each sets.
PATH_OPTIONS = {"-o": "output", "--output": "output", "--append": "append",
                "--netdir": "netdir", "--kernel": "kernel", "--selftest": "selftest"}
TITLE_MAX = 60


class Options:
    def __init__(self):
        self.output = os.path.join(ROOT, "build", "image.iso")
        self.timeout = 5
        self.exit = "poweroff"
        self.append = ""
        self.quiet = False
        self.tag_output = False
        self.netdir = None
        self.kernel = boot.default_kernel()
        self.selftest = os.path.join(ROOT, "build", "user", "selftest")
        self.selftest_args = []
        self.nodes = 1
        self.cluster = None
        self.jobs = []


def program(path):
    """A path, or a bare name found in build/user/."""
    if os.path.isfile(path):
        return path
    built = os.path.join(ROOT, "build", "user", path)
    if "/" not in path and os.path.isfile(built):
        return built
    raise UsageError("%s: no such file (run make, or give a path)" % path)


def mkimage_option(opt, a, value):
    if a in PATH_OPTIONS:
        setattr(opt, PATH_OPTIONS[a], value(a))
    elif a == "--tag-output":
        opt.tag_output = True
    elif a in ("-q", "--quiet"):
        opt.quiet = True
    elif a == "--exit":
        opt.exit = value(a)
        if opt.exit not in EXIT_MODES:
            raise UsageError("--exit: expected one of %s, got '%s'"
                             % (", ".join(EXIT_MODES), opt.exit))
    elif a == "--timeout":
        opt.timeout = parse_int(value(a), a, lo=0)
    elif a == "--nodes":
        opt.nodes = parse_int(value(a), a)
        if opt.nodes > MAX_NODES:
            raise UsageError("--nodes %d: a job spans at most %d nodes" % (opt.nodes, MAX_NODES))
    elif a == "--selftest-args":
        opt.selftest_args = shlex.split(value(a))
    else:
        return False
    return True


def parse(argv):
    opt = Options()
    parse_jobs(argv, opt, "mkimage", USAGE, lambda a, value: mkimage_option(opt, a, value),
               program)
    if not opt.jobs:
        raise UsageError("no program given (see mkimage --help)")
    if opt.nodes > 1:
        # this image's nodes ignore another cluster's on the same segment
        opt.cluster = int.from_bytes(os.urandom(3), "little")
    for j in opt.jobs:
        if j.np is None:
            j.np = "all"
    if not os.path.isfile(opt.selftest):
        raise UsageError("%s: no such file (run make)" % opt.selftest)
    out_dir = os.path.dirname(os.path.abspath(opt.output))
    if not os.path.isdir(out_dir):
        raise UsageError("%s: no such directory" % out_dir)
    return opt


class Boot:
    """What boot.kernel_cmdline() reads: the image's options, these jobs."""

    def __init__(self, opt, jobs, tag_output):
        self.quiet = opt.quiet
        self.tag_output = tag_output
        self.append = opt.append
        self.wire_mtu = None    # the kernel's default: the real switch decides
        self.cluster = opt.cluster
        self.jobs = jobs


def menu(opt):
    """[(title, kernel command line)]: jobs, self-test, jobs on serial only;
    the job entries once per node when the jobs span nodes."""
    selftest = Job()
    selftest.prog, selftest.np, selftest.args = opt.selftest, "all", opt.selftest_args
    jobs = Boot(opt, opt.jobs, opt.tag_output)
    check = Boot(opt, [selftest], False)
    title = "; ".join(" ".join([os.path.basename(j.prog), "-n", str(j.np)] + j.args)
                      for j in opt.jobs)
    if len(title) > TITLE_MAX:
        title = title[:TITLE_MAX - 3] + "..."
    end = "exit=" + opt.exit
    nodes = [(n, "node %d of %d: " % (n, opt.nodes) if opt.nodes > 1 else "")
             for n in range(opt.nodes)]
    if opt.nodes > 1:
        # the default: every node boots it, numbered by its MAC's place
        nodes.insert(0, ("auto", "any of %d nodes (numbered by MAC): " % opt.nodes))
    return ([("smapos: %s%s" % (where, title),
              boot.kernel_cmdline(jobs, n, opt.nodes, extra=end)) for n, where in nodes]
            + [("smapos: self-test on all CPUs", boot.kernel_cmdline(check, extra=end))]
            + [("smapos: %s%s (serial console only)" % (where, title),
                boot.kernel_cmdline(jobs, n, opt.nodes, extra="console=serial " + end))
               for n, where in nodes],
            boot.modules(Boot(opt, opt.jobs + [selftest], False)))


def main(argv):
    try:
        opt = parse(argv)
        entries, mods = menu(opt)
        boot.build_iso(opt.output, opt.kernel, mods, entries, opt.timeout)
        if opt.netdir:
            os.makedirs(opt.netdir, exist_ok=True)
            boot.build_netdir(opt.netdir, opt.kernel, mods, entries, opt.timeout)
    except UsageError as e:
        sys.stderr.write("mkimage: %s\n" % e)
        return 2
    size = os.path.getsize(opt.output)
    print("mkimage: wrote %s (%d MiB, BIOS and UEFI); to a USB stick: "
          "dd if=%s of=/dev/sdX bs=4M conv=fsync (docs/flashing.md)"
          % (opt.output, (size + (1 << 20) - 1) >> 20, opt.output))
    if opt.netdir:
        print("mkimage: wrote %s for TFTP: PXE boot file boot/grub/i386-pc/core.0 (BIOS), "
              "boot/grub/x86_64-efi/core.efi (UEFI)" % opt.netdir)
    return 0
