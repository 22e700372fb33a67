"""Host mode of tools/lwkrun: a job's ranks as Linux processes.

Each rank gets a memfd for its region and every rank inherits all of them;
libsmap (libsmap/host/host.c) maps them at the SMARTMAP slot addresses.  A
shared job page (layout: struct host_job in libsmap/host/host.h) carries the
rank count, the region size, the memfd numbers, the start-up count, the TSC
rate and an abort record.  The launcher keeps no copy of the regions once
the ranks run, so when the last rank is gone so is every memfd.

Semantics follow the kernel: exit(n) ends one rank; a signal or
smap_abort() ends the job; the status is the abort's, else the first failing
rank's in rank order (its exit code or 128+signal); --timeout kills all and
exits 124.  Output goes through line by line so ranks never interleave
inside a line, prefixed with [rank] under --tag-output.
"""

import ctypes
import mmap
import os
import resource
import selectors
import signal
import socket
import struct
import subprocess
import sys
import time

from lwk.cli import signame, stop_on_signals

MAX_RANKS = 254
DEFAULT_REGION = 4 << 30
REGION_ALIGN = 2 << 20
MAX_REGION = (512 << 30) - (64 << 20)

JOB_MAGIC = 0x4A484D53
JOB_VERSION = 2
# magic version nranks ready region_size abort tsc_hz tsc_state reserved start_tsc
JOB_HEADER = struct.Struct("<IIIIQQQIIQ")
JOB_ABORT_OFFSET = 24
JOB_READY_OFFSET = 12
JOB_DONE_OFFSET = 2048  # a byte per rank: it has finished communicating
ABORT_SET = 1 << 63
EXIT_NET = 122          # SMAPOS_EXIT_NET (kernel/uapi/smapos_abi.h): a node was lost
PAGE = 4096

# --nodes: the engine's shared state (libsmap/net/hostnet.c maps a lock page
# and kernel/net/engine.c's struct eng with its gather pool, about 5 MiB) and link
# buffers.
ENGINE_BYTES = 8 << 20
LINK_BUFFER = 16 << 20
SO_SNDBUFFORCE = 32

ADDR_NO_RANDOMIZE = 0x0040000
PR_SET_PDEATHSIG = 1


class Failure(Exception):
    """A launch problem: one line on stderr, exit status 2."""


class Interrupted(Exception):
    def __init__(self, signum):
        Exception.__init__(self)
        self.signum = signum


def say(msg):
    sys.stderr.write("lwkrun: %s\n" % msg)
    sys.stderr.flush()


class Rank:
    def __init__(self, r, proc):
        self.r = r
        self.proc = proc
        self.pidfd = None
        self.status = None      # ("exit", n) or ("signal", sig)
        self.killed = False     # ended by the launcher, not a failure of its own
        self.failed = False     # ended non-zero of its own accord, not by EXIT_NET
        self.partial = {1: b"", 2: b""}
        self.page = 0           # index of its node's job page


class HostJob:
    def __init__(self, opt, job, index, deadline):
        self.opt = opt
        self.job = job
        self.index = index
        self.deadline = deadline
        self.limit = None  # the job's own time limit (--time), set in wait()
        self.ranks = []
        self.pages = []     # one job page per node
        self.sel = selectors.DefaultSelector()
        self.closed = set()
        self.libc = ctypes.CDLL(None, use_errno=True)

    # -- set-up ----------------------------------------------------------

    def region_size(self):
        size = self.job.mem or DEFAULT_REGION
        size = (size + REGION_ALIGN - 1) // REGION_ALIGN * REGION_ALIGN
        if size > MAX_REGION:
            raise Failure("--mem %d MiB: host mode regions must fit below 512 GiB (at most %d MiB)"
                          % (size >> 20, MAX_REGION >> 20))
        return size

    def make_page(self, n, size, fds, node):
        jfd = os.memfd_create("smapos-host-%d-job%d-node%d" % (os.getpid(), self.index, node))
        os.ftruncate(jfd, PAGE)
        page = mmap.mmap(jfd, PAGE)
        page[:JOB_HEADER.size] = JOB_HEADER.pack(JOB_MAGIC, JOB_VERSION, n, 0, size, 0, 0, 0, 0, 0)
        struct.pack_into("<%di" % n, page, JOB_HEADER.size, *fds)
        self.pages.append(page)
        return jfd

    def child_setup(self, cpu):
        libc = self.libc

        def setup():
            # Linux then keeps its own mappings out of the SMARTMAP slots.
            libc.personality(ADDR_NO_RANDOMIZE)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
            if cpu >= 0:
                os.sched_setaffinity(0, {cpu})
        return setup

    def links(self, nodes):
        """One SOCK_SEQPACKET pair per pair of nodes: links[a][b] is node a's end."""
        links = [[-1] * nodes for _ in range(nodes)]
        for a in range(nodes):
            for b in range(a + 1, nodes):
                x, y = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
                for so in (x, y):
                    for opt in (SO_SNDBUFFORCE, socket.SO_SNDBUF):
                        try:
                            so.setsockopt(socket.SOL_SOCKET, opt, LINK_BUFFER)
                            break
                        except OSError:
                            pass
                links[a][b] = x.detach()
                links[b][a] = y.detach()
        return links

    def start(self):
        n = self.job.np
        nodes = self.opt.nodes
        size = self.region_size()
        cpus = sorted(os.sched_getaffinity(0))
        pinned = n * nodes <= len(cpus)
        owned = []
        links = self.links(nodes) if nodes > 1 else None
        if links:
            owned += [fd for row in links for fd in row if fd >= 0]
        try:
            env = dict(os.environ)
            for kv in self.job.env:
                k, v = kv.split("=", 1)
                env[k] = v
            exe = os.path.abspath(self.job.prog)
            for node in range(nodes):
                fds = []
                for r in range(n):
                    fd = os.memfd_create("smapos-host-%d-job%d-node%d-rank%d"
                                         % (os.getpid(), self.index, node, r))
                    fds.append(fd)
                    owned.append(fd)
                    os.ftruncate(fd, size)
                jfd = self.make_page(n, size, fds, node)
                owned.append(jfd)
                inherit = fds + [jfd]
                if links:
                    # The node's engine: state every rank of the node maps.
                    efd = os.memfd_create("smapos-host-%d-job%d-node%d-engine"
                                          % (os.getpid(), self.index, node))
                    owned.append(efd)
                    os.ftruncate(efd, ENGINE_BYTES)
                    mine = [fd for fd in links[node] if fd >= 0]
                    inherit += [efd] + mine
                    env["SMAPOS_HOSTNET"] = "%d:%d:%s" % (
                        efd, int(round(self.opt.drop * 10)), ",".join(str(fd) for fd in links[node]))
                for r in range(n):
                    world = node * n + r
                    cpu = cpus[world] if pinned else -1
                    env["SMAPOS_HOST"] = "%d:%d:%d:%d:%d:%d" % (jfd, r, cpu, self.index,
                                                                node, nodes)
                    try:
                        proc = subprocess.Popen(
                            [self.job.prog] + self.job.args, executable=exe, env=env,
                            pass_fds=inherit, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=None if world == 0 else subprocess.DEVNULL,
                            cwd=self.opt.files, preexec_fn=self.child_setup(cpu))
                    except OSError as e:
                        raise Failure("%s: cannot execute: %s" % (self.job.prog, e.strerror))
                    rank = Rank(world, proc)
                    rank.page = len(self.pages) - 1
                    self.ranks.append(rank)
                    rank.pidfd = os.pidfd_open(proc.pid)
                    self.sel.register(rank.pidfd, selectors.EVENT_READ, (rank, 0))
                    self.sel.register(proc.stdout, selectors.EVENT_READ, (rank, 1))
                    self.sel.register(proc.stderr, selectors.EVENT_READ, (rank, 2))
        finally:
            for fd in owned:
                os.close(fd)

    # -- running ---------------------------------------------------------

    def emit(self, rank, stream, data, final=False):
        out = sys.stdout.buffer if stream == 1 else sys.stderr.buffer
        buf = rank.partial[stream] + data
        lines = buf.split(b"\n")
        rank.partial[stream] = b"" if final else lines.pop()
        if final and lines and lines[-1] == b"":
            lines.pop()
        tag = b"[%d] " % rank.r if self.opt.tag_output else b""
        if lines and stream not in self.closed:
            try:
                out.write(b"".join(tag + ln + b"\n" for ln in lines))
                out.flush()
            except BrokenPipeError:
                # The reader went away (lwkrun ... | head): the job goes on.
                self.closed.add(stream)

    def kill_all(self):
        for rank in self.ranks:
            if rank.status is None and not rank.killed:
                rank.killed = True
                try:
                    rank.proc.kill()
                except ProcessLookupError:
                    pass

    def abort_record(self):
        """(rank, status) of the job's abort: a node that lost its peer
        (EXIT_NET) only reports the consequence of the abort that made the
        peer go, so any other node's record comes first."""
        found = []
        for node, page in enumerate(self.pages):
            rec = struct.unpack_from("<Q", page, JOB_ABORT_OFFSET)[0]
            if rec & ABORT_SET:
                found.append((node * self.job.np + ((rec >> 8) & 0xFFFFFF), rec & 0xFF))
        found.sort(key=lambda ab: ab[1] == EXIT_NET)
        return found[0] if found else None

    def reap(self, rank):
        self.sel.unregister(rank.pidfd)
        os.close(rank.pidfd)
        code = rank.proc.wait()
        rank.status = ("signal", -code) if code < 0 else ("exit", code)
        # A rank that kill_all found dead had died of its own accord; a
        # node's EXIT_NET only reports another node's rank going.
        rank.failed = code not in (0, EXIT_NET) and not (rank.killed and code == -signal.SIGKILL)
        # Its peers may be waiting for it: the job ends, as on the kernel;
        # once it has finished communicating none can be, and its status
        # only waits for the others' end.
        node, local = divmod(rank.r, self.job.np)
        done = self.pages[node][JOB_DONE_OFFSET + local]
        if not rank.killed and ((code != 0 and not done) or self.abort_record()):
            self.kill_all()

    def wait(self):
        open_streams = 2 * len(self.ranks)
        running = len(self.ranks)
        drain_until = None
        if self.job.time:
            self.limit = time.monotonic() + self.job.time
        while open_streams > 0 or running > 0:
            now = time.monotonic()
            if now >= self.deadline:
                return "timeout"
            if self.limit and now >= self.limit and running > 0:
                return "time limit"
            if running == 0:
                # Output still held open by something a rank started.
                if drain_until is None:
                    drain_until = now + 0.5
                elif now >= drain_until:
                    break
            limit = min(self.deadline, drain_until or self.deadline, self.limit or self.deadline) - now
            for key, _ in self.sel.select(timeout=max(0.0, limit)):
                rank, what = key.data
                if what == 0:
                    self.reap(rank)
                    running -= 1
                    continue
                data = os.read(key.fd, 65536)
                if data:
                    self.emit(rank, what, data)
                else:
                    self.sel.unregister(key.fileobj)
                    self.emit(rank, what, b"", final=True)
                    open_streams -= 1
        for rank in self.ranks:
            for stream in (1, 2):
                if rank.partial[stream]:
                    self.emit(rank, stream, b"", final=True)
        return "done"

    def status(self):
        ab = self.abort_record()
        failed = [rank for rank in self.ranks if rank.failed]
        # A node that found the failed rank's node gone (EXIT_NET) may have
        # ended its part first: the rank that failed is still the culprit.
        if ab and (ab[1] != EXIT_NET or not failed):
            say("rank %d aborted the job with status %d" % ab)
            return ab[1]
        if failed:
            kind, v = failed[0].status
            if kind == "signal":
                say("rank %d killed by %s" % (failed[0].r, signame(v)))
                return 128 + v
            say("rank %d exited with status %d" % (failed[0].r, v))
            return v
        ready = sum(struct.unpack_from("<I", page, JOB_READY_OFFSET)[0] for page in self.pages)
        if ready < len(self.ranks):
            say("%s: only %d of %d ranks started libsmap (is it built with tools/smapcc?)"
                % (self.job.prog, ready, len(self.ranks)))
        return 0

    def finish(self):
        self.kill_all()
        for rank in self.ranks:
            if rank.status is None:
                rank.proc.wait()
                os.close(rank.pidfd)
            rank.proc.stdout.close()
            rank.proc.stderr.close()
        self.sel.close()
        for page in self.pages:
            page.close()


def raise_fd_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, 8192) if hard != resource.RLIM_INFINITY else 8192
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


def run(opt):
    for job in opt.jobs:
        if job.np > MAX_RANKS:
            say("-n %d: host mode runs at most %d ranks per job (Linux's 47-bit user space "
                "leaves PML4 slots 1..%d for SMARTMAP)" % (job.np, MAX_RANKS, MAX_RANKS))
            return 2

    stop_on_signals(Interrupted)
    raise_fd_limit()

    deadline = time.monotonic() + opt.timeout
    result = 0
    for index, job in enumerate(opt.jobs):
        hj = HostJob(opt, job, index, deadline)
        try:
            hj.start()
            end = hj.wait()
            if end == "timeout":
                alive = sum(1 for r in hj.ranks if r.status is None)
                hj.kill_all()
                say("timeout after %gs: killed %d running rank%s of %s"
                    % (opt.timeout, alive, "" if alive == 1 else "s", job.prog))
                return 124
            if end == "time limit":
                hj.kill_all()
                say("job %d: %s: time limit of %d s reached, stopping the job"
                    % (index, os.path.basename(job.prog), job.time))
                status = 128 + signal.SIGKILL
            else:
                status = hj.status()
        except Failure as e:
            say(str(e))
            return 2
        except Interrupted as e:
            hj.kill_all()
            say("interrupted by %s: killed the job" % signame(e.signum))
            return 128 + e.signum
        finally:
            hj.finish()
        if status and not result:
            result = status
    return result
