"""Command line of tools/lwkrun.

Options before the first program apply to the whole run; -n, --mem, --stack
and -e may also be given again after --next for each later job.  A program's own
arguments run up to the next --next, so they may contain options of their
own.  Every mistake is one line on stderr and exit status 2.
"""

import os
import shlex
import signal
import sys

USAGE = """\
usage: lwkrun [options] [-n N] prog [args...] [--next [-n N] prog [args...]]...

Runs a job of N ranks of `prog` (one rank per CPU) on smapos under QEMU, or
as Linux processes with --host.  With --next, several jobs run one after
another in the same boot; the status is the first failing job's.  Without
a program, the kernel boots, reports its CPUs and memory, and powers off.

options:
  -n, --np N          ranks per node (default 1); `all`: one per CPU
  --mem SIZE          memory per rank, e.g. 64M or 1G (default: an even share)
  --stack SIZE        stack per rank (default 8M)
  --time S            wall-time limit of the job in seconds: its ranks are
                      stopped when it passes (status 137)
  -e, --env K=V       set K=V in the ranks' environment (repeatable)
  --nodes K           K nodes: QEMU nodes wired through the barrier hub and a
                      switch, or with --host K groups of processes joined by
                      sockets; ranks are node-major
  --drop P            the wire between nodes loses P percent of frames
  --nic MODEL         the QEMU nodes' NIC: e1000 (82540EM, default),
                      e1000-82545em, e1000-82544gc or e1000e (82574L)
  --wire-mtu N        the QEMU nodes' switch loses frames of more than N bytes
                      after the Ethernet header, as a switch without jumbo
                      frames does (1500), and the kernels send frames of N
                      (net_mtu=N); default: as large as the NIC sends
  --node-auto         the QEMU nodes number themselves by MAC (node=auto, as
                      an image's entry for every node does); their MACs go in
                      the opposite order of lwkrun's node numbers, so lwkrun's
                      node I is the job's node K-1-I
  -c, --cpus N        CPUs per QEMU node (default: the largest -n, at least 1)
  -m, --memory SIZE   RAM per QEMU node (default: enough for the jobs)
  --timeout S         kill everything after S seconds, exit 124 (default 300)
  --tag-output        prefix every output line with [rank]
  --files DIR         the ranks' files: confined to DIR, which is also their
                      working directory (default: lwkrun's, unconfined)
  -q, --quiet         show only the ranks' output and errors, not the boot log
  --host              run as Linux processes with SMARTMAP emulated
  --kvm               use KVM instead of TCG (only where KVM accelerates)
  --icount            run in QEMU's virtual time: guest clocks advance 1 ns per
                      guest instruction (deterministic timing, e.g. OS noise)
  --uefi              boot through OVMF instead of SeaBIOS
  --iso PATH          boot this GRUB ISO (its grub.cfg names the jobs); with
                      --nodes K every node boots its default entry, wired as
                      flashed nodes are (mkimage --nodes K)
  --kernel PATH       kernel ELF to boot (default build/kernel/smapos.elf)
  --append OPTS       extra kernel command-line options
  --append-node I:OPTS  extra kernel options for QEMU node I only, after
                      --append's (repeatable)
  -h, --help          show this help
"""

# QEMU's e1000-family models the kernel's driver knows (kernel/drivers/e1000.c).
NICS = ("e1000", "e1000-82545em", "e1000-82544gc", "e1000e")
# The smallest net_mtu the kernel takes (kernel/net/knet.c).
MTU_MIN = 576

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class UsageError(Exception):
    pass


class Job:
    def __init__(self):
        self.np = None
        self.mem = None
        self.stack = None
        self.time = None
        self.env = []
        self.prog = None
        self.args = []


class Options:
    def __init__(self):
        self.nodes = 1
        self.drop = 0.0         # percent of frames the wire loses (--drop)
        self.nic = "e1000"      # QEMU's model of the nodes' NIC (--nic)
        self.wire_mtu = 0       # the switch's MTU, 0: none (--wire-mtu)
        self.cluster = None     # net_cluster: lwkrun's nodes have a switch of their own
        self.node_append = {}   # node -> its own kernel options (--append-node)
        self.node_auto = False  # the kernels number the nodes (--node-auto)
        self.cpus = None
        self.memory = None
        self.timeout = 300.0
        self.tag_output = False
        self.quiet = False
        self.host = False
        self.kvm = False
        self.icount = False
        self.uefi = False
        self.iso = None
        self.kernel = os.path.join(ROOT, "build", "kernel", "smapos.elf")
        self.append = ""
        self.files = None
        self.jobs = []


# ENG_MAX_NODES (kernel/net/engine.h): node sets are 64-bit masks.
MAX_NODES = 64


def parse_size(text, what):
    """'64M' -> bytes; K, M, G suffixes (powers of two)."""
    mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    t = text.strip().upper().rstrip("B").rstrip("I")
    scale = 1
    if t and t[-1] in mult:
        scale = mult[t[-1]]
        t = t[:-1]
    if not t.isdigit() or int(t) == 0:
        raise UsageError("%s: bad size '%s' (use e.g. 64M or 2G)" % (what, text))
    return int(t) * scale


def parse_int(text, what, lo=1):
    if not text.isdigit() or int(text) < lo:
        raise UsageError("%s: expected a whole number >= %d, got '%s'" % (what, lo, text))
    return int(text)


def job_option(a, value, job):
    """Apply a per-job option to `job`; False if `a` is not one.  `value(a)`
    returns the option's value."""
    if a in ("-n", "--np"):
        v = value(a)
        job.np = "all" if v == "all" else parse_int(v, a)
    elif a == "--mem":
        job.mem = parse_size(value(a), a)
    elif a == "--stack":
        job.stack = parse_size(value(a), a)
    elif a == "--time":
        job.time = parse_int(value(a), a)
    elif a in ("-e", "--env"):
        kv = value(a)
        if "=" not in kv or kv.startswith("="):
            raise UsageError("%s: expected K=V, got '%s'" % (a, kv))
        job.env.append(kv)
    else:
        return False
    return True


def parse_jobs(argv, opt, tool, usage, tool_option, program=lambda a: a):
    """The command-line grammar lwkrun and mkimage share: the tool's own
    options first, then jobs (per-job options, a program and its arguments)
    separated by --next.  tool_option(a, value) applies one of the tool's
    options and returns False for one it does not know; program(a) checks
    a program's path and returns it."""
    job = Job()
    i = 0

    def value(name):
        nonlocal i
        if i + 1 >= len(argv):
            raise UsageError("option %s needs a value" % name)
        i += 1
        return argv[i]

    while i < len(argv):
        a = argv[i]
        if job.prog is not None:
            if a == "--next":
                opt.jobs.append(job)
                job = Job()
            else:
                job.args.append(a)
        elif a in ("-h", "--help"):
            sys.stdout.write(usage)
            sys.exit(0)
        elif job_option(a, value, job):
            pass
        elif a.startswith("-") and opt.jobs:
            raise UsageError("option %s must come before the first program" % a)
        elif a.startswith("-"):
            if not tool_option(a, value):
                raise UsageError("unknown option '%s' (see %s --help)" % (a, tool))
        else:
            job.prog = program(a)
        i += 1
    if job.prog is not None:
        opt.jobs.append(job)
    elif opt.jobs or any(v is not None for v in (job.np, job.mem, job.stack, job.time)) or job.env:
        raise UsageError("missing program after the job options")
    return opt


def lwkrun_option(opt, a, value):
    if a == "--nodes":
        opt.nodes = parse_int(value(a), a)
        if opt.nodes > MAX_NODES:
            raise UsageError("--nodes %d: a job spans at most %d nodes (the network engine's "
                             "limit, docs/network.md)" % (opt.nodes, MAX_NODES))
    elif a == "--drop":
        v = value(a)
        try:
            opt.drop = float(v)
        except ValueError:
            raise UsageError("--drop: expected a percentage, got '%s'" % v)
        if not 0 <= opt.drop <= 100:
            raise UsageError("--drop: a percentage from 0 to 100")
    elif a == "--nic":
        opt.nic = value(a)
        if opt.nic not in NICS:
            raise UsageError("--nic: %s, got '%s'" % (", ".join(NICS), opt.nic))
    elif a == "--wire-mtu":
        opt.wire_mtu = parse_int(value(a), a)
        if not MTU_MIN <= opt.wire_mtu <= 65535:
            raise UsageError("--wire-mtu: from %d to 65535 bytes" % MTU_MIN)
    elif a in ("-c", "--cpus"):
        opt.cpus = parse_int(value(a), a)
    elif a in ("-m", "--memory"):
        opt.memory = parse_size(value(a), a)
    elif a == "--timeout":
        v = value(a)
        try:
            opt.timeout = float(v)
        except ValueError:
            raise UsageError("--timeout: expected seconds, got '%s'" % v)
        if opt.timeout <= 0:
            raise UsageError("--timeout: must be positive")
    elif a == "--tag-output":
        opt.tag_output = True
    elif a == "--files":
        opt.files = value(a)
        if not os.path.isdir(opt.files):
            raise UsageError("--files %s: no such directory" % opt.files)
    elif a in ("-q", "--quiet"):
        opt.quiet = True
    elif a == "--host":
        opt.host = True
    elif a == "--kvm":
        opt.kvm = True
    elif a == "--icount":
        opt.icount = True
    elif a == "--uefi":
        opt.uefi = True
    elif a == "--iso":
        opt.iso = value(a)
    elif a == "--kernel":
        opt.kernel = value(a)
    elif a == "--append":
        opt.append = value(a)
    elif a == "--node-auto":
        opt.node_auto = True
    elif a == "--append-node":
        v = value(a)
        node, sep, opts = v.partition(":")
        if not sep or not node.isdigit():
            raise UsageError("--append-node: expected NODE:OPTIONS, got '%s'" % v)
        opt.node_append[int(node)] = (opt.node_append.get(int(node), "") + " " + opts).strip()
    else:
        return False
    return True


def parse(argv):
    opt = Options()
    parse_jobs(argv, opt, "lwkrun", USAGE, lambda a, value: lwkrun_option(opt, a, value))
    if not argv:
        raise UsageError("no program given (see lwkrun --help)")
    if not opt.jobs and opt.host:
        raise UsageError("--host needs a program")
    for j in opt.jobs:
        if j.np is None:
            j.np = 1
        if not os.path.isfile(j.prog):
            raise UsageError("%s: no such file" % j.prog)
    if opt.iso and opt.jobs:
        raise UsageError("--iso boots the jobs in the image's grub.cfg; give no program")
    if opt.iso and not os.path.isfile(opt.iso):
        raise UsageError("%s: no such file" % opt.iso)
    if opt.host and (opt.kvm or opt.icount or opt.uefi or opt.iso):
        raise UsageError("--host runs Linux processes: --kvm, --icount, --uefi and "
                         "--iso do not apply")
    if opt.nic != "e1000" and (opt.nodes < 2 or opt.host):
        raise UsageError("--nic: only QEMU nodes have NICs; give --nodes 2 or more, without --host")
    if any(n >= opt.nodes for n in opt.node_append) or (opt.node_append and opt.host):
        raise UsageError("--append-node: a QEMU node from 0 to %d (--nodes, without --host)"
                         % (opt.nodes - 1))
    if opt.iso and (opt.node_append or opt.node_auto or opt.wire_mtu):
        raise UsageError("--iso: the image's entries hold the kernel options; --append-node, "
                         "--node-auto and --wire-mtu do not apply")
    if opt.node_auto and (opt.nodes < 2 or opt.host):
        raise UsageError("--node-auto: QEMU nodes number themselves; give --nodes 2 or more, "
                         "without --host")
    if opt.wire_mtu and (opt.nodes < 2 or opt.host):
        raise UsageError("--wire-mtu: only QEMU nodes have a switch; give --nodes 2 or more, "
                         "without --host")
    if opt.drop and opt.nodes < 2:
        raise UsageError("--drop: frames are lost between nodes; give --nodes 2 or more")
    if opt.icount and opt.kvm:
        raise UsageError("--icount is TCG's virtual time: it does not go with --kvm")
    for j in opt.jobs:
        if j.np == "all" and opt.host:
            j.np = len(os.sched_getaffinity(0))
        elif j.np == "all" and opt.cpus is None:
            raise UsageError("-n all needs -c/--cpus to size the QEMU machine")
    return opt


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def signame(sig):
    try:
        return signal.Signals(sig).name
    except ValueError:
        return "signal %d" % sig


def stop_on_signals(make_exc):
    """SIGINT, SIGTERM and SIGHUP raise make_exc(signum), once: the handler
    ignores all three from then on, so the clean-up that follows is never
    cut short by a second signal (Ctrl-C twice, or `timeout` signalling the
    whole process group) into a traceback and leftover files."""
    def handler(signum, frame):
        for s in STOP_SIGNALS:
            signal.signal(s, signal.SIG_IGN)
        raise make_exc(signum)
    for s in STOP_SIGNALS:
        signal.signal(s, handler)


def main(argv):
    try:
        opt = parse(argv)
    except UsageError as e:
        sys.stderr.write("lwkrun: %s\n" % e)
        return 2
    return run(opt)


MPIEXEC_USAGE = """usage: mpiexec -n N [lwkrun options] prog [args...]

The MPI standard's portable start-up (MPI 3.1 section 10.1.1) onto lwkrun:
N is the job's number of processes; with --nodes K they are spread over K
nodes, N/K on each (lwkrun's own -n counts ranks per node).  -np N is -n N;
-wdir DIR runs the job in DIR.  Open MPI's and MPICH's --oversubscribe,
--allow-run-as-root, --bind-to X and --map-by X are accepted and ignored:
every rank has a core of its own.  SMAPOS_MPIEXEC holds lwkrun options put
first (e.g. "--host" to run Linux processes, "--nodes 2 --timeout 600").
Every other option is lwkrun's (see lwkrun --help, docs/launcher.md).
"""

# mpiexec's own words; the ignored ones, with how many values follow
MPIEXEC_IGNORED = {"--oversubscribe": 0, "-oversubscribe": 0, "--allow-run-as-root": 0,
                   "--bind-to": 1, "-bind-to": 1, "--map-by": 1, "-map-by": 1}


def mpiexec_main(argv):
    args = shlex.split(os.environ.get("SMAPOS_MPIEXEC", "")) + list(argv)
    out, i = [], 0
    try:
        while i < len(args):
            a = args[i]
            if a in ("-h", "--help"):
                sys.stdout.write(MPIEXEC_USAGE)
                return 0
            if a in ("-np", "--np"):
                out.append("-n")
            elif a in ("-wdir", "--wdir"):
                if i + 1 == len(args) or not os.path.isdir(args[i + 1]):
                    raise UsageError("%s: no such directory" % (args[i + 1] if i + 1 < len(args)
                                                                else a))
                os.chdir(args[i + 1])
                i += 2
                continue
            elif a in MPIEXEC_IGNORED:
                i += 1 + MPIEXEC_IGNORED[a]
                continue
            elif a == ":":
                raise UsageError("':': one program per job (lwkrun --next runs jobs one "
                                 "after another)")
            else:
                out.append(a)
            i += 1
        opt = parse(out)
        for j in opt.jobs:
            if opt.nodes > 1 and j.np != "all":
                if j.np % opt.nodes:
                    raise UsageError("-n %d: not a multiple of --nodes %d (every node runs "
                                     "as many ranks)" % (j.np, opt.nodes))
                j.np //= opt.nodes
    except UsageError as e:
        sys.stderr.write("mpiexec: %s\n" % e)
        return 2
    return run(opt)


def run(opt):
    if opt.host:
        from lwk import host
        return host.run(opt)
    if opt.nodes > 1:
        from lwk import nodes
        return nodes.run(opt)
    from lwk import qemu
    return qemu.run(opt)
