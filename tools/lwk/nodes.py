"""Run a job on K QEMU nodes wired through the barrier hub and a switch:
`lwkrun --nodes K`.

tools/barrier-hub serves one FUSE file per node; each QEMU uses its file as
the backend of an ISA parallel port at 0x378, so the kernel's barrier
driver sees a real port wired to the box (docs/barrier.md).  Every node
boots the same jobs with node=I nnodes=K on its command line and N ranks.
Their consoles are merged line by line behind "[nI] "; the status is the
worst (highest) of the nodes', a node's 122 (it lost a node) counting only
when no node failed otherwise.  A node that fails gives the others
GRACE seconds to end on their own (a stuck hardware barrier times out in
the kernel) before they are stopped.  The hub and every QEMU are stopped
and the mount removed on exit, timeout, Ctrl-C or SIGTERM, and die with
lwkrun if it is killed outright.

Each node also gets an e1000 NIC (MAC 52:54:00:5a:00:NN) whose backend is
the job's switch (tools/switch) over one Unix socket in the job's private
directory: the kernel's network engine runs over it (docs/network.md).
--drop P makes the switch lose P percent of the frames.
"""

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from lwk import boot, qemu
from lwk.host import EXIT_NET
from lwk.cli import ROOT, STOP_SIGNALS, UsageError, signame, stop_on_signals

HUB = os.path.join(ROOT, "build", "tools", "barrier-hub")
SWITCH = os.path.join(ROOT, "build", "tools", "switch")
SWITCH_START = 5.0      # seconds the switch may take to listen
PORT = 0x378
HUB_STALL = 2.0         # seconds before the hub names the nodes a barrier waits for
HUB_START = 5.0         # seconds the hub may take to mount
# Seconds the other nodes get after one failed: beyond the kernel's time
# to declare a silent node dead (net_dead_ms, 15 s) and a ping's gap, so
# that they end by themselves, each with its line.
GRACE = 20.0


class Stop(Exception):
    """SIGINT, SIGTERM or SIGHUP: stop the nodes and clean up."""


def start_hub(opt, nodes, mnt):
    if not os.path.isfile(HUB):
        raise UsageError("%s not found (run make)" % HUB)
    argv = [HUB, "--stall", str(HUB_STALL), str(nodes), mnt]
    if not opt.quiet:
        argv.insert(1, "--stats")
    hub = subprocess.Popen(argv, stdin=subprocess.DEVNULL, start_new_session=True,
                           preexec_fn=qemu.die_with_parent(signal.SIGTERM))
    deadline = time.monotonic() + HUB_START
    while not os.path.ismount(mnt):
        if hub.poll() is not None:
            raise UsageError("the barrier hub did not start (status %d)" % hub.returncode)
        if time.monotonic() > deadline:
            stop_hub(hub, mnt)
            raise UsageError("the barrier hub did not mount %s within %g s" % (mnt, HUB_START))
        time.sleep(0.01)
    return hub


def start_switch(opt, nodes, sock):
    if not os.path.isfile(SWITCH):
        raise UsageError("%s not found (run make)" % SWITCH)
    argv = [SWITCH, "--sock", sock, "--ports", str(nodes)]
    if opt.drop:
        argv += ["--drop", str(opt.drop)]
    if opt.wire_mtu:
        argv += ["--mtu", str(opt.wire_mtu)]
    sw = subprocess.Popen(argv, stdin=subprocess.DEVNULL, start_new_session=True,
                          stdout=subprocess.DEVNULL,
                          stderr=None if not opt.quiet else subprocess.DEVNULL,
                          preexec_fn=qemu.die_with_parent(signal.SIGTERM))
    deadline = time.monotonic() + SWITCH_START
    while not os.path.exists(sock):
        if sw.poll() is not None:
            raise UsageError("the switch did not start (status %d)" % sw.returncode)
        if time.monotonic() > deadline:
            qemu.stop([sw])
            raise UsageError("the switch did not listen on %s within %g s" % (sock, SWITCH_START))
        time.sleep(0.01)
    return sw


def stop_hub(hub, mnt):
    qemu.stop([hub])
    if os.path.ismount(mnt):
        subprocess.run(["fusermount3", "-u", "-z", mnt], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)


def words(*parts):
    """Kernel options: the non-empty parts, space-separated."""
    return " ".join(p for p in parts if p)


def mac(opt, node, nodes):
    """QEMU node's MAC; with --node-auto in the opposite order of lwkrun's
    node numbers, so that the kernels' numbering by MAC is seen to work."""
    return "52:54:00:5a:00:%02x" % (nodes - 1 - node if opt.node_auto else node)


def node_argv(opt, node, nodes, mods, mnt, tmp, io):
    own = opt.node_append.get(node, "")
    served = io.cmdline(node) if io else ""
    cmdline = boot.kernel_cmdline(opt, node, nodes, extra=words(own, "console=serial", served))
    path = os.path.join(mnt, "node%d" % node).replace(",", ",,")
    sock = os.path.join(tmp, "switch.sock").replace(",", ",,")
    wire = ["-chardev", "parallel,id=barrier,path=" + path,
            "-device", "isa-parallel,chardev=barrier,iobase=%#x" % PORT,
            "-netdev", "stream,id=net0,server=off,addr.type=unix,addr.path=" + sock,
            "-device", "%s,netdev=net0,mac=%s" % (opt.nic, mac(opt, node, nodes))]
    iso = opt.iso       # every node boots the image's default entry, as flashed nodes do
    if opt.uefi and not iso:
        iso = os.path.join(tmp, "node%d.iso" % node)
        entry = boot.kernel_cmdline(opt, node, nodes, extra=words(own, served))
        boot.build_iso(iso, opt.kernel, mods, [("smapos node %d" % node, entry)])
    return qemu.qemu_argv(opt, cmdline, mods, iso,
                          extra=wire + (io.qemu_args(node) if io else []))


def pump(consoles, timeout, io=None, sw=None):
    """Stream until every node ends; after the first failure, stop the
    rest once GRACE has passed.  A QEMU that ends without its kernel's
    status (killed, say), or the switch ending under the nodes (they find
    each other silent and end by themselves), is named at once.  Returns
    False on timeout."""
    deadline = time.monotonic() + timeout
    failed_at = None
    named = set()
    while True:
        live = [c for c in consoles if c.proc.returncode is None]
        for c in consoles:
            if c.proc.returncode is not None and c.exit_status() is None and c not in named:
                sys.stderr.write("lwkrun: %s %s\n" % (c.prefix.strip(), c.no_status()))
                named.add(c)
        if sw and sw.poll() is not None and sw not in named and live:
            rc = sw.returncode
            sys.stderr.write("lwkrun: the switch ended (%s): the nodes lose each other\n"
                             % ("killed by " + signame(-rc) if rc < 0 else "status %d" % rc))
            named.add(sw)
        if not live:
            return True
        now = time.monotonic()
        if now >= deadline:
            return False
        if failed_at is None and any(c.proc.returncode is not None and c.exit_status() != 0
                                     for c in consoles):
            failed_at = now
        if failed_at is not None and now - failed_at > GRACE:
            sys.stderr.write("lwkrun: node%s %s still running %g s after another node failed: "
                             "stopped\n" % ("s" if len(live) > 1 else "",
                                            ",".join(c.prefix.strip("[] ") for c in live), GRACE))
            for c in live:
                c.stopped = True
            qemu.stop([c.proc for c in live])
            qemu.stream(live, 5)
            return True
        qemu.stream(live, min(0.5, deadline - now), io=io)


def worst(consoles):
    """The worst node status; a node's EXIT_NET only says that it lost a
    node that failed, so any other failure comes first.  A node without a
    status was named by pump: killed by a signal, it counts as 128 + the
    signal; stopped by the launcher or ended otherwise, as 1."""
    statuses = []
    for c in consoles:
        st = c.exit_status()
        if st is None:
            rc = c.proc.returncode
            st = 128 - rc if rc < 0 and not c.stopped else 1
        statuses.append(st)
    return max((st for st in statuses if st != EXIT_NET), default=0) or max(statuses)


def run(opt):
    nodes = opt.nodes
    if not opt.jobs and not opt.iso:
        sys.stderr.write("lwkrun: --nodes needs a program, or --iso\n")
        return 2
    tmp = tempfile.mkdtemp(prefix="lwkrun-nodes-")
    mnt = os.path.join(tmp, "hub")
    os.mkdir(mnt)
    hub, sw, io, procs, consoles = None, None, None, [], []
    stop_on_signals(lambda signum: Stop())
    stops = set(STOP_SIGNALS)
    try:
        # Ctrl-C or SIGTERM while the hub and the nodes start waits until
        # each is recorded in hub/procs: an interrupt between a child's
        # start and its recording would leave it (and the hub's mount)
        # behind.  Children unblock for themselves (qemu.die_with_parent).
        signal.pthread_sigmask(signal.SIG_BLOCK, stops)
        try:
            mods = boot.modules(opt)
            io = qemu.io_server(opt, nodes)
            argvs = [node_argv(opt, i, nodes, mods, mnt, tmp, io) for i in range(nodes)]
            if io:
                io.start()
            hub = start_hub(opt, nodes, mnt)
            sw = start_switch(opt, nodes, os.path.join(tmp, "switch.sock"))
        except UsageError as e:
            sys.stderr.write("lwkrun: %s\n" % e)
            return 2
        for i, argv in enumerate(argvs):
            procs.append(qemu.start(argv))
            consoles.append(qemu.Console(procs[-1], "[n%d] " % i, opt.quiet))
        signal.pthread_sigmask(signal.SIG_UNBLOCK, stops)
        if not pump(consoles, opt.timeout, io, sw):
            sys.stderr.write("lwkrun: timeout after %g s, %d QEMU nodes and the hub stopped\n"
                             % (opt.timeout, nodes))
            return qemu.TIMEOUT_STATUS
        return worst(consoles)
    except qemu.HelperGone as e:
        sys.stderr.write("lwkrun: %s: %d QEMU nodes and the hub stopped\n" % (e, nodes))
        return 1
    except Stop:
        sys.stderr.write("lwkrun: interrupted, %d QEMU nodes and the hub stopped\n" % nodes)
        return 130
    finally:
        qemu.stop(procs)
        if sw:
            qemu.stop([sw])
        if hub:
            stop_hub(hub, mnt)
        if io:
            io.stop()
        shutil.rmtree(tmp, ignore_errors=True)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, stops)
