"""The bootable image: `make image` / tools/mkimage, the default ISO that
`make run` boots, and the self-test every image carries.

Images boot the way an operator boots them: from a USB stick (the ISO
written whole, as `dd` does) or a CD, under SeaBIOS and under OVMF (UEFI),
through the GRUB menu driven over the serial console, and over the network
(PXE).  Checks that need more than an exit status and output patterns run
this file as a script: `python3 image.py CHECK [FIRMWARE]`.
"""

import os
import re
import shlex
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import harness  # noqa: E402
import qemuctl  # noqa: E402
from qemuctl import DOWN, ENTER, MENU  # noqa: E402

ME = os.path.abspath(__file__)
MKIMAGE = os.path.join(harness.ROOT, "tools", "mkimage")
TEST_DIR = harness.build("test")
# Arguments as GRUB must carry them: spaces, both quotes, backslashes, an
# empty one, shell characters.  `make image` takes them as shell words.
ARGS = ["plain", "two words", 'say "hi"', "it's", "back\\slash", "end\\", "semi;colon",
        "", "multi  space", "{brace}"]
# Make expands $ itself; mkimage is given one directly.
MKIMAGE_ARGS = ARGS + ["dollar $HOME"]
NO_MAKEFLAGS = {"MAKEFLAGS": "", "MAKELEVEL": "", "MFLAGS": ""}
SELFTEST_CHECKS = 5


failed = []


def tap(ok, name, why=""):
    print("ok %s" % name if ok else "not ok %s - %s" % (name, why))
    sys.stdout.flush()
    if not ok:
        failed.append(name)
    return ok


def make_image(path, **var):
    """`make image` as an operator types it; (status, output)."""
    env = dict(os.environ, **NO_MAKEFLAGS)
    argv = ["make", "-s", "--no-print-directory", "image", "IMAGE=" + path]
    argv += ["%s=%s" % kv for kv in sorted(var.items())]
    r = subprocess.run(argv, cwd=harness.ROOT, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT)
    out = r.stdout.decode(errors="replace")
    sys.stdout.write(out)
    return r.returncode, out


def image_path(name):
    os.makedirs(TEST_DIR, exist_ok=True)
    return os.path.join(TEST_DIR, name)


# The EFI system partition's type GUID as GPT stores it (mixed endian).
ESP_GUID = bytes.fromhex("28732ac11ff8d211ba4b00a0c93ec93b")


def partition_types(disk):
    """MBR partition types, and GPT type GUIDs when the MBR is protective."""
    types = [disk[446 + 16 * i + 4] for i in range(4)]
    if 0xEE not in types or disk[512:520] != b"EFI PART":
        return types, []
    first, count, size = struct.unpack("<QII", disk[512 + 72:512 + 88])
    table = disk[first * 512:first * 512 + count * size]
    return types, [table[i * size:i * size + 16] for i in range(count)]


def check_hybrid(path):
    """What lets one file boot from a CD and, written whole, from a disk
    under BIOS and UEFI: an ISO 9660 volume, an MBR with boot code, and an
    EFI system partition."""
    with open(path, "rb") as f:
        disk = f.read(0x10000)
    mbr, gpt = partition_types(disk)
    tap(disk[0x8001:0x8006] == b"CD001", "the image is an ISO 9660 volume",
        "no CD001 at 0x8001")
    tap(disk[510:512] == b"\x55\xaa" and disk[:446] != bytes(446),
        "the image starts with a bootable MBR", "no boot signature or no boot code")
    tap(0xEF in mbr or ESP_GUID in gpt, "the image has an EFI system partition",
        "MBR types %s, GPT types %s" % ([hex(t) for t in mbr], [g.hex() for g in gpt if any(g)]))


def check_argv(out, args, what):
    got = re.findall(r"^argv\[(\d+)\]=(.*?)\r?$", out, re.M)
    want = [(str(i + 1), a.replace("\\", "\\\\")) for i, a in enumerate(args)]
    tap(got == want, "%s: the job gets its %d argument%s exactly" % (what, len(args), "" if len(args) == 1 else "s"),
        "expected %r, got %r" % (want, got))


def check_end(r, what, status=0):
    tap(not r.timed_out and r.status == status,
        "%s: the kernel ends with status %d" % (what, status),
        "timed out" if r.timed_out else "status %s" % r.status)


def boot_job(firmware):
    """make image APP=argecho ... then boot it from a USB stick."""
    path = image_path("image-%s.iso" % firmware)
    rc, out = make_image(path, APP="argecho", NP="2",
                         ARGS=" ".join(shlex.quote(a) for a in ARGS))
    if not tap(rc == 0 and os.path.isfile(path), "make image writes %s" % path,
               "status %d" % rc):
        return
    if firmware == "bios":
        check_hybrid(path)
    r = qemuctl.run(qemuctl.machine(cpus=2, usb=path, uefi=firmware == "uefi"),
                    keys=[(MENU, ENTER)], timeout=90)
    tap(re.search(r"smp: 2 of 2 CPUs online", r.out), "%s: both CPUs come up" % firmware,
        "no 'smp: 2 of 2 CPUs online'")
    tap(re.search(r"^mem: 0x0+100000-", r.out, re.M), "%s: the memory map is shown" % firmware,
        "no memory map")
    check_argv(r.out, ARGS, firmware)
    check_end(r, firmware)


def usable_ranges(out):
    return [(int(a, 16), int(b, 16)) for a, b in
            re.findall(r"^mem: (0x[0-9a-f]+|0+)-(0x[0-9a-f]+) usable", out, re.M)]


def check_regions(out):
    """Every rank region (selftest -v) lies inside memory the map calls usable."""
    usable = usable_ranges(out)
    regions = [(int(a, 16), int(b, 16)) for a, b in
               re.findall(r"region at physical (0x[0-9a-f]+)-(0x[0-9a-f]+)", out)]
    bad = [(hex(a), hex(b)) for a, b in regions
           if not any(lo <= a and b <= hi for lo, hi in usable)]
    tap(regions and not bad, "rank regions lie in usable memory only",
        "%d regions, outside usable memory: %s" % (len(regions), bad))


def selftest(firmware):
    """The image's second menu entry: the self-test, with the expectations
    given through make; under UEFI also read off the framebuffer."""
    path = image_path("selftest-%s.iso" % firmware)
    uefi = firmware == "uefi"
    rc, _ = make_image(path, APP="demo", EXIT="halt" if uefi else "poweroff",
                       SELFTEST_ARGS="-v --cpus 4 --mem 900M")
    if not tap(rc == 0, "make image writes %s" % path, "status %d" % rc):
        return
    r = qemuctl.run(qemuctl.machine(cpus=4, iso=path, uefi=uefi),
                    keys=[(MENU, DOWN), (re.compile(r"self-test"), ENTER)],
                    screendump=uefi, timeout=120)
    tap(re.search(r"^selftest: PASS", r.out, re.M), "%s: selftest: PASS" % firmware,
        "no verdict line, or FAIL")
    check_regions(r.out)
    check_end(r, firmware)
    if uefi:
        screen = "\n".join(r.screen or [])
        why = "screen shows: %r" % screen.strip()[:200]
        if "no screen (the loader passed none)" in r.out:
            why = "GRUB passed no framebuffer (see gfxpayload in tools/lwk/boot.py)"
        tap(re.search(r"console: serial 0x3f8; framebuffer \d+x\d+", screen),
            "uefi: the kernel draws its console on the framebuffer", why)
        tap(re.search(r"^selftest: PASS", screen, re.M), "uefi: the verdict is on the screen",
            why)


def serial_entry():
    path = image_path("serial-entry.iso")
    rc, _ = make_image(path, APP="argecho", NP="1", ARGS="x")
    r = qemuctl.run(qemuctl.machine(cpus=1, iso=path),
                    keys=[(MENU, DOWN), (re.compile(r"self-test"), DOWN),
                          (re.compile(r"serial console only"), ENTER)], timeout=90)
    tap(rc == 0 and re.search(r"console: serial 0x3f8; no screen \(console=serial\)", r.out),
        "the third entry leaves the screen alone", "no 'no screen (console=serial)'")
    check_argv(r.out, ["x"], "serial entry")
    check_end(r, "serial entry")


def pxe():
    """mkimage --netdir: the same kernel, modules and menu over TFTP."""
    netdir = image_path("netdir")
    iso = image_path("pxe.iso")
    r = subprocess.run([sys.executable, MKIMAGE, "-o", iso, "--timeout", "0", "--netdir",
                        netdir, "-n", "2", "selftest"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT)
    sys.stdout.write(r.stdout.decode(errors="replace"))
    core = os.path.join(netdir, "boot", "grub", "i386-pc", "core.0")
    if not tap(r.returncode == 0 and os.path.isfile(core),
               "mkimage --netdir writes GRUB's PXE image", "status %d" % r.returncode):
        return
    tap(os.path.isfile(os.path.join(netdir, "boot", "grub", "x86_64-efi", "core.efi")),
        "mkimage --netdir writes GRUB's UEFI network image", "no core.efi")
    run = qemuctl.run(qemuctl.machine(cpus=2, netdir=netdir), timeout=120)
    tap(re.search(r"^selftest: PASS", run.out, re.M), "PXE: selftest: PASS",
        "no verdict line, or FAIL")
    check_end(run, "PXE")


def same_argv():
    """lwkrun -kernel (QEMU's -append) and a GRUB ISO give the job the same
    argv, character for character."""
    iso = image_path("args.iso")
    r = subprocess.run([sys.executable, MKIMAGE, "-o", iso, "--timeout", "0", "-n", "1",
                        "-e", "K=v a\"l's", "argecho"] + MKIMAGE_ARGS,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if not tap(r.returncode == 0, "mkimage writes %s" % iso, r.stdout.decode()):
        return
    outs = {}
    for how, argv in (("GRUB", ["--iso", iso, "-c", 1]),
                      ("-kernel", ["-e", "K=v a\"l's", "-n", 1, harness.build("user", "argecho")]
                       + MKIMAGE_ARGS)):
        p = subprocess.run([sys.executable, harness.LWKRUN, "-q", "--timeout", "60"]
                           + [str(a) for a in argv], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT)
        outs[how] = p.stdout.decode(errors="replace")
        check_argv(outs[how], MKIMAGE_ARGS, how)
    lines = {how: re.findall(r"^(?:argv|env)\[.*$", o, re.M) for how, o in outs.items()}
    tap(lines["GRUB"] == lines["-kernel"], "GRUB and -kernel deliver identical argv and env",
        "GRUB %r, -kernel %r" % (lines["GRUB"], lines["-kernel"]))


def cluster():
    """mkimage --nodes K: one image for K nodes, the default entry for any
    node (node=auto), then the job entries once per node with node=I
    nnodes=K; the self-test belongs to no node."""
    netdir = image_path("cluster-net")
    r = subprocess.run([sys.executable, MKIMAGE, "-o", image_path("cluster.iso"), "--timeout",
                        "0", "--nodes", "3", "--netdir", netdir, "-n", "2", "mpit_p2p"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if not tap(r.returncode == 0, "mkimage --nodes 3 writes the image", r.stdout.decode()):
        return
    with open(os.path.join(netdir, "boot", "grub", "grub.cfg")) as f:
        cfg = f.read()
    entries = re.findall(r"^menuentry '([^']*)' \{\n\s*multiboot2 \S+ ([^\n]*)", cfg, re.M)
    want = ["any of 3 nodes (numbered by MAC): mpit_p2p -n 2", "node 0 of 3: mpit_p2p -n 2",
            "node 1 of 3: mpit_p2p -n 2", "node 2 of 3: mpit_p2p -n 2", "self-test on all CPUs"]
    titles = [t[len("smapos: "):] for t, _ in entries]
    tap(titles[:5] == want and len(entries) == 9,
        "the entry for any node first (the default), one per node, then the self-test",
        "%r" % titles)
    # entries 0-3: any node, nodes 0-2; 4: the self-test; 5-8: the same on serial
    nodes = [(["auto", 0, 1, 2][i % 5], c) for i, (_, c) in enumerate(entries) if i != 4]
    tap(all(c.startswith("node=%s nnodes=3 " % n) for n, c in nodes)
        and "node=" not in entries[4][1],
        "each job entry names its node, or auto, and the node count",
        "%r" % [c for _, c in entries])
    clusters = {m.group(1) for _, c in nodes for m in [re.search(r"net_cluster=(\d+) ", c)] if m}
    tap(len(clusters) == 1 and len([c for _, c in nodes if "net_cluster=" in c]) == 8
        and "net_cluster" not in entries[4][1],
        "every node's entries carry the image's one net_cluster", "%r" % clusters)


def cluster_boot():
    """Two QEMU nodes of 2 CPUs boot the default entry of one cluster
    image, as flashed nodes do: they number themselves by MAC, in
    1500-byte frames (the kernel's default for a real switch), and run the
    job across, np=all (the image's default) leaving the engine its CPU."""
    iso = image_path("cluster-boot.iso")
    r = subprocess.run([sys.executable, MKIMAGE, "-o", iso, "--timeout", "0", "--nodes", "2",
                        harness.build("user", "mpit_p2p")],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if not tap(r.returncode == 0, "mkimage --nodes 2 writes the image", r.stdout.decode()):
        return
    p = subprocess.run([sys.executable, harness.LWKRUN, "--nodes", "2", "--iso", iso,
                        "--timeout", "150"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = p.stdout.decode(errors="replace")
    tap(p.returncode == 0, "both nodes boot the default entry and end with status 0",
        "status %d" % p.returncode)
    tap(all(re.search(r"\[n%d\] .*Booting `smapos: any of 2 nodes \(numbered by MAC\)" % n, out)
            and re.search(r"\[n%d\] job 0: mpit_p2p: 1 rank x" % n, out) for n in (0, 1)),
        "the default entry is the one for any node; np=all is one rank beside the engine",
        out[-2000:])
    tap(re.search(r"\[n0\] net: node=auto: this is node 0 of 2", out) and
        re.search(r"\[n1\] net: node=auto: this is node 1 of 2", out),
        "each numbers itself by its MAC", out[-2000:])
    tap(re.search(r"net: frames of up to 1500 bytes after the Ethernet header", out) and
        len(re.findall(r"\[n0\] ok p2p_", out)) >= 16 and "not ok" not in out,
        "the job's point-to-point checks pass between them in 1500-byte frames", out[-3000:])


CHECKS = {
    "cluster": cluster,
    "cluster-boot": cluster_boot,
    "job": boot_job,
    "selftest": selftest,
    "serial": serial_entry,
    "pxe": pxe,
    "args": same_argv,
}


def script(name, desc, check, *args, **kw):
    kw.setdefault("timeout", 180)
    return harness.Case("image/%s: %s" % (name, desc), [sys.executable, ME, check] + list(args),
                        tap=True, **kw)


def mkimage(name, desc, args, **kw):
    return harness.Case("image/mkimage: " + desc, [sys.executable, MKIMAGE] + args,
                        timeout=30, **kw)


def cases():
    out = [
        script("usb-bios", "the image `make image` writes boots its job from a USB stick "
               "under SeaBIOS", "job", "bios", min_tap=8),
        script("usb-uefi", "... and under OVMF (UEFI)", "job", "uefi", min_tap=5),
        script("selftest-bios", "the self-test entry passes on 4 CPUs (SeaBIOS, CD)",
               "selftest", "bios", min_tap=SELFTEST_CHECKS + 4),
        script("selftest-uefi", "the self-test entry passes under UEFI, with its verdict "
               "on the framebuffer", "selftest", "uefi", min_tap=SELFTEST_CHECKS + 6),
        script("serial-entry", "the serial-only entry runs the job without a screen console",
               "serial", min_tap=3),
        script("pxe", "the same boot files over the network (PXE, TFTP)", "pxe", min_tap=4),
        script("args", "-kernel and GRUB give the job identical arguments", "args", min_tap=4),
        script("cluster", "one image for a cluster: an entry for any node, one per node",
               "cluster", min_tap=4, timeout=60),
        script("cluster-boot", "two QEMU nodes boot the same cluster image and run a job "
               "across", "cluster-boot", min_tap=5, timeout=200),
        harness.lwkrun("image/make run: smapos.iso shows all 4 CPUs and the memory map, "
                       "runs the demo and exits 0",
                       ["--iso", harness.build("smapos.iso"), "-c", 4, "--timeout", 90],
                       expect=[r"smp: 4 of 4 CPUs online", r"^mem: 0x0+100000-\S+ usable",
                               r"console: serial 0x3f8; VGA text 80x25",
                               r"4 ranks x 1000 atomic increments .*: 4000 \(correct\)",
                               r"smapos: exit status 0"]),
        # OVMF and GRUB write their console to every serial port, the I/O
        # server's doorbell (COM2) too: it must skip that to the hello.
        # With -q lwkrun hides their text on the console (COM1) as well.
        harness.lwkrun("image/lwkrun -q --uefi: a job with its I/O server under OVMF, "
                       "no firmware text",
                       ["-q", "--uefi", "-n", 2, "--timeout", 90,
                        harness.build("user", "mpit_p2p")],
                       timeout=120, tap=True, min_tap=17,
                       reject=[r"iosrv: ", r"BdsDxe|GRUB|Booting|\x1b|quiet boot"]),
        mkimage("missing", "a missing program is a one-line error", ["nosuch"], rc=2,
                expect=[r"^mkimage: nosuch: no such file"]),
        mkimage("exit", "an unknown --exit is refused", ["--exit", "sleep", "demo"], rc=2,
                expect=[r"--exit: expected one of poweroff, halt, reboot, got 'sleep'"]),
        mkimage("tab", "an argument GRUB cannot carry (a tab) is refused",
                ["-o", os.path.join(TEST_DIR, "tab.iso"), "demo", "a\tb"], rc=2,
                expect=[r"GRUB cannot pass a tab or newline"]),
        mkimage("np", "a bad rank count is refused", ["-n", "0", "demo"], rc=2,
                expect=[r"-n: expected a whole number >= 1, got '0'"]),
        harness.Case("image/make image: without APP it says what it needs",
                     ["make", "--no-print-directory", "image"], rc=None, env=NO_MAKEFLAGS,
                     expect=[r"make image needs APP=program"], timeout=30),
    ]
    return out


if __name__ == "__main__":
    CHECKS[sys.argv[1]](*sys.argv[2:])
    sys.exit(1 if failed else 0)
