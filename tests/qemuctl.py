"""Drive one QEMU for the image and hardware suites, beyond what lwkrun
offers: any machine options, boot from an ISO as a CD, a USB stick or the
network, answer the GRUB menu through the serial console, and read the
screen back through the monitor's screendump with the kernel's own font.

    r = run(machine(cpus=2, uefi=True, usb=iso), keys=[(MENU, ENTER)],
            screendump=True, timeout=60)
    r.out, r.status, r.screen
"""

import os
import re
import select
import shutil
import socket
import subprocess
import sys
import tempfile
import time

import harness

sys.path.insert(0, os.path.join(harness.ROOT, "tools"))
from lwk import qemu  # noqa: E402

KERNEL = harness.build("kernel", "smapos.elf")
FONT = harness.build("gen", "font.c")
# GRUB's countdown line: the menu is up and waits for keys.
MENU = re.compile(r"will be executed automatically|Use the .* keys to select")
ENTER = b"\r"
DOWN = b"\x1b[B"
STATUS = re.compile(r"smapos: exit status (\d+)")
# The whole status line: reading the screen and quitting as soon as the
# number shows could cut the line (and the number) short.
STATUS_LINE = re.compile(r"smapos: exit status \d+\r?\n")


def machine(cpus=2, mem="1G", kernel=None, cmdline="", mods=(), iso=None, usb=None,
            netdir=None, uefi=False, options="", serial=("stdio",), extra=()):
    """QEMU's argv: boot `kernel` directly (multiboot1), or `iso` as a CD,
    or `usb` as a USB stick, or `netdir` over PXE.  `options` adds machine
    properties (e.g. "pit=off,hpet=off"); `serial` lists the COM ports."""
    argv = [shutil.which("qemu-system-x86_64") or "qemu-system-x86_64",
            "-machine", "pc" + ("," + options if options else ""),
            "-display", "none", "-parallel", "none", "-no-reboot",
            "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04",
            "-accel", "tcg,thread=multi", "-cpu", "max", "-smp", str(cpus), "-m", mem]
    for s in serial:
        argv += ["-serial", s]
    if uefi:
        argv += ["-bios", qemu.OVMF]
    if kernel:
        argv += ["-kernel", kernel, "-append", cmdline]
        if mods:
            argv += ["-initrd", ",".join(mods)]
    elif iso:
        argv += ["-cdrom", iso, "-boot", "d"]
    elif usb:
        argv += ["-drive", "file=%s,format=raw,if=none,id=stick,readonly=on" % usb,
                 "-device", "usb-ehci,id=ehci",
                 "-device", "usb-storage,bus=ehci.0,drive=stick,bootindex=1"]
    elif netdir:
        boot = "boot/grub/%s" % ("x86_64-efi/core.efi" if uefi else "i386-pc/core.0")
        argv += ["-netdev", "user,id=n0,tftp=%s,bootfile=%s" % (netdir, boot),
                 "-device", "e1000,netdev=n0", "-boot", "n"]
    return argv + list(extra)


class Result:
    def __init__(self):
        self.out = ""
        self.status = None      # the kernel's "exit status N", if it said so
        self.rc = None          # QEMU's own exit status
        self.timed_out = False
        self.screen = None      # rows of text read off the framebuffer


def run(argv, timeout=60, keys=(), screendump=False):
    """Boot, stream the serial console (also to stdout) and send each
    (pattern, bytes) of `keys` in turn once its pattern shows after the
    previous key.  With `screendump`, QEMU must not power off by itself
    (boot with exit=halt): once the kernel reports its status the screen
    is read through the monitor and QEMU is told to quit."""
    r = Result()
    keys = list(keys)
    tmp = tempfile.mkdtemp(prefix="qemuctl-")
    mon_path = os.path.join(tmp, "monitor")
    argv = list(argv) + ["-monitor", "unix:%s,server=on,wait=off" % mon_path
                         if screendump else "none"]
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + timeout
    seen = 0
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                r.timed_out = True
                break
            ready, _, _ = select.select([proc.stdout], [], [], min(left, 0.5))
            if ready:
                data = os.read(proc.stdout.fileno(), 65536)
                if not data:
                    break
                text = data.decode("utf-8", "replace")
                sys.stdout.write(text)
                sys.stdout.flush()
                r.out += text
            if keys and keys[0][0].search(r.out, seen):
                seen = len(r.out)
                proc.stdin.write(keys.pop(0)[1])
                proc.stdin.flush()
            if screendump and STATUS_LINE.search(r.out):
                r.screen = read_screen(monitor(mon_path, tmp))
                break
        m = STATUS.search(r.out)
        r.status = int(m.group(1)) if m else None
    finally:
        if proc.poll() is None:
            proc.kill()
        r.rc = proc.wait()
        shutil.rmtree(tmp, ignore_errors=True)
    return r


def monitor(path, tmp):
    """screendump through the monitor socket, then quit; the PPM's path."""
    ppm = os.path.join(tmp, "screen.ppm")
    s = socket.socket(socket.AF_UNIX)
    s.connect(path)
    s.sendall(b"screendump %s\n" % ppm.encode())
    deadline = time.monotonic() + 10
    while not os.path.exists(ppm) or not complete_ppm(ppm):
        if time.monotonic() > deadline:
            raise RuntimeError("screendump wrote nothing in 10 s")
        time.sleep(0.1)
    s.sendall(b"quit\n")
    s.close()
    return ppm


def parse_ppm(data):
    """(width, height, rgb bytes) of a binary P6 image."""
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    if fields[0] != b"P6":
        raise ValueError("not a P6 image")
    w, h = int(fields[1]), int(fields[2])
    return w, h, data[pos + 1:pos + 1 + 3 * w * h]


def complete_ppm(path):
    try:
        w, h, px = parse_ppm(open(path, "rb").read())
    except (ValueError, IndexError):
        return False
    return len(px) == 3 * w * h


def glyphs():
    """{16-row bitmap: character} from the font the kernel was built with."""
    rows = re.findall(r"\{([^{}]*)\}", open(FONT).read())
    table = {}
    for code, row in enumerate(rows[-96:], start=32):
        bits = tuple(int(v, 16) for v in row.split(","))
        table.setdefault(bits, chr(code))
    return table


def read_screen(ppm):
    """The text on a framebuffer console screenshot: 8x16 cells from the top
    left, a pixel lit where it differs from the top-left pixel (background)."""
    w, h, px = parse_ppm(open(ppm, "rb").read())
    table = glyphs()
    bg = px[0:3]
    lines = []
    for row in range(h // 16):
        text = []
        for col in range(w // 8):
            bits = []
            for y in range(16):
                base = ((row * 16 + y) * w + col * 8) * 3
                b = 0
                for x in range(8):
                    if px[base + 3 * x:base + 3 * x + 3] != bg:
                        b |= 0x80 >> x
                bits.append(b)
            text.append(table.get(tuple(bits), "\ufffd"))
        lines.append("".join(text).rstrip())
    return lines
