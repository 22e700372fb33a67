"""The job's I/O server under QEMU (docs/fileio.md): tools/iosrv serves the
file system calls every node's kernel forwards to it.

Each node's RAM is a file in a private directory (QEMU's
memory-backend-file, share=on) that the server maps too, and COM2 of
each node is the kernel's doorbell, a Unix socket to the server.  The
server runs in lwkrun's working directory (or confined to --files DIR),
takes lwkrun's stdin for world rank 0, and is stopped with QEMU."""

import os
import shutil
import signal
import subprocess
import tempfile

from lwk.cli import ROOT, UsageError

IOSRV = os.path.join(ROOT, "build", "tools", "iosrv")
DOORBELL = 0x2F8        # COM2; the console stays on COM1 alone
START = 5.0             # seconds the server may take to listen


class IOServer:
    def __init__(self, opt, nodes, memory):
        if not os.path.isfile(IOSRV):
            raise UsageError("%s not found (run make)" % IOSRV)
        base = "/dev/shm" if os.path.isdir("/dev/shm") else None
        self.tmp = tempfile.mkdtemp(prefix="lwkrun-io-", dir=base)
        self.sock = os.path.join(self.tmp, "io.sock")
        self.memory = memory
        self.rams = []
        for i in range(nodes):
            path = os.path.join(self.tmp, "ram%d" % i)
            with open(path, "wb") as f:
                f.truncate(memory)
            self.rams.append(path)
        self.proc = None
        self.opt = opt

    def start(self):
        from lwk import qemu
        argv = [IOSRV, "--socket", self.sock]
        for i, path in enumerate(self.rams):
            argv += ["--ram", "%d:%s:%d" % (i, path, self.memory)]
        if self.opt.files:
            argv += ["--files", self.opt.files]
        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, start_new_session=True,
                                     preexec_fn=qemu.die_with_parent(signal.SIGTERM))
        line = self.proc.stdout.readline()
        if line.strip() != b"ready":
            self.stop()
            raise UsageError("the I/O server did not start (status %s)" % self.proc.returncode)

    def gone(self):
        """Why the server is no longer there, or None while it runs."""
        if self.proc is None or self.proc.poll() is None:
            return None
        return "the I/O server ended (status %d)" % self.proc.returncode

    def cmdline(self, node=None):
        """The kernel's options; node: which RAM file is the node's, told to
        the server in the kernel's hello (its job node id may differ)."""
        words = "serial=%#x iosrv=%#x" % (0x3F8, DOORBELL)
        return words if node is None else words + " iosrv_node=%d" % node

    def qemu_args(self, node):
        return ["-object", "memory-backend-file,id=ram,size=%d,mem-path=%s,share=on"
                % (self.memory, self.rams[node].replace(",", ",,")),
                "-machine", "memory-backend=ram",
                "-chardev", "socket,id=iosrv,path=" + self.sock.replace(",", ",,"),
                "-device", "isa-serial,chardev=iosrv,iobase=%#x,irq=3" % DOORBELL]

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(3)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.tmp, ignore_errors=True)
