"""What a boot of smapos is made of: the kernel command line for a set of
jobs, the modules to load, and a GRUB ISO (or PXE directory) holding both.
Shared by the QEMU launcher (qemu.py), the multi-node launcher (nodes.py)
and tools/mkimage.

Two quoting layers meet here.  The kernel splits its command line at
spaces; double quotes group and a backslash makes the next \\, " or '
literal (kernel/cmdline.c).  GRUB's multiboot2 command re-joins the words
it parsed from grub.cfg exactly that way (it escapes \\ ' " and quotes a
word holding a space), so a grub.cfg written word by word in GRUB's own
script syntax delivers the same words as QEMU's -append does."""

import os
import re
import shutil
import subprocess
import tempfile

from lwk.cli import ROOT, UsageError

MODULE_NAME_MAX = 63
# The kernel's JOB_MAX (kernel/include/cmdline.h): jobs in one boot.
JOBS_MAX = 32
SPACE = " \t\n\r"
ESCAPED = "\\\"'"


def quote(value):
    """A command-line value the kernel's parser reads back unchanged."""
    if value and not any(c in value for c in SPACE + ESCAPED):
        return value
    body = "".join("\\" + c if c in ESCAPED else c for c in value)
    return '"' + body + '"'


def split_cmdline(text):
    """The words the kernel reads from `text` (kernel/cmdline.c's rules)."""
    words = []
    i, n = 0, len(text)
    while True:
        while i < n and text[i] in SPACE:
            i += 1
        if i == n:
            return words
        word, quoted = [], False
        while i < n and (quoted or text[i] not in SPACE):
            c = text[i]
            if c == "\\" and i + 1 < n and text[i + 1] in ESCAPED:
                word.append(text[i + 1])
                i += 1
            elif c == '"':
                quoted = not quoted
            else:
                word.append(c)
            i += 1
        if quoted:
            raise UsageError("unterminated quote in the kernel command line: %s" % text)
        words.append("".join(word))


GRUB_SAFE = re.compile(r"^[A-Za-z0-9_./:=,+%@-]+$")


def grub_quote(word):
    """`word` in GRUB script syntax: single quotes keep everything literal
    ($, ;, \\, "...), and a ' is closed, escaped and reopened."""
    if any(c in word for c in "\t\n\r"):
        raise UsageError("GRUB cannot pass a tab or newline to the kernel: %r" % word)
    if GRUB_SAFE.match(word):
        return word
    return "'" + word.replace("'", "'\\''") + "'"


def modules(opt):
    """[(name, path)] of the distinct programs of the jobs, in job order."""
    if len(opt.jobs) > JOBS_MAX:
        raise UsageError("%d jobs: one boot runs at most %d (--next); split them over "
                         "several lwkrun calls" % (len(opt.jobs), JOBS_MAX))
    seen = {}
    for j in opt.jobs:
        name = os.path.basename(j.prog)
        path = os.path.abspath(j.prog)
        if len(name) > MODULE_NAME_MAX:
            raise UsageError("%s: program name longer than %d characters" % (name, MODULE_NAME_MAX))
        if any(c in name for c in SPACE + ESCAPED + ","):
            # The kernel knows a module by the first word of its command line.
            raise UsageError("%s: a program name must not contain spaces, quotes, "
                             "backslashes or commas" % name)
        if name in seen and seen[name] != path:
            raise UsageError("two different programs are both called '%s'" % name)
        seen[name] = path
    return list(seen.items())


def kernel_cmdline(opt, node=0, nnodes=1, extra=""):
    words = []
    if opt.quiet:
        words.append("quiet")
    if opt.tag_output:
        words.append("tag")
    if nnodes > 1:
        # node: a number, or "auto" (the kernels number the nodes by MAC)
        words += ["node=%s" % ("auto" if getattr(opt, "node_auto", False) else node),
                  "nnodes=%d" % nnodes]
    if nnodes > 1 and opt.wire_mtu is not None:
        # lwkrun's switch takes any frame the NIC sends, unless --wire-mtu;
        # a real one decides for flashed nodes (the kernel's default)
        words.append("net_mtu=%d" % opt.wire_mtu)
    if nnodes > 1 and opt.cluster is not None:
        words.append("net_cluster=%d" % opt.cluster)
    if opt.append:
        words.append(opt.append)
    if extra:
        words.append(extra)
    for j in opt.jobs:
        words += ["job=" + os.path.basename(j.prog), "np=%s" % j.np]
        if j.mem:
            words.append("mem=%dK" % (j.mem // 1024))
        if j.stack:
            words.append("stack=%dK" % (j.stack // 1024))
        if j.time:
            words.append("time=%d" % j.time)
        words += ["arg=" + quote(a) for a in j.args]
        words += ["env=" + quote(e) for e in j.env]
    return " ".join(words)


# Under UEFI there is no text mode: GRUB sets up a GOP mode and passes the
# framebuffer ("keep" would keep GRUB's own text console: no framebuffer);
# under BIOS the kernel keeps VGA text.  The multiboot2 command sets
# gfxpayload itself when the kernel asks for a framebuffer, so each entry
# sets it after that command.
GRUB_CFG = """\
set timeout={timeout}
set default=0
serial --unit=0 --speed=115200
terminal_input serial console
terminal_output serial console
if [ "$grub_platform" = "efi" ]; then
    insmod all_video
    set smapos_payload=auto
else
    set smapos_payload=text
fi
{entries}"""

ENTRY = """\
menuentry {title} {{
    multiboot2 /boot/smapos.elf {cmdline}
    set gfxpayload=$smapos_payload
{modules}    boot
}}
"""


def grub_entry(title, cmdline, mods):
    lines = "".join("    module2 /boot/mods/%s %s\n" % (grub_quote(name), grub_quote(name))
                    for name, _ in mods)
    words = " ".join(grub_quote(w) for w in split_cmdline(cmdline))
    return ENTRY.format(title=grub_quote(title), cmdline=words, modules=lines)


def grub_cfg(mods, entries, timeout=0):
    """grub.cfg text: `entries` is [(title, kernel command line)], the first
    one the default; every module is loaded for every entry."""
    text = "".join(grub_entry(t, c, mods) for t, c in entries)
    return GRUB_CFG.format(timeout=timeout, entries=text)


def need_tools(*tools):
    for tool in tools:
        if not shutil.which(tool):
            raise UsageError("%s not found: install grub-pc-bin grub-efi-amd64-bin xorriso mtools"
                             " (make deps-image)" % tool)


def boot_tree(root, kernel, mods, entries, timeout):
    """The files GRUB reads, under root/boot/."""
    if not os.path.isfile(kernel):
        raise UsageError("%s: no such file (run make)" % kernel)
    for _, path in mods:
        if not os.path.isfile(path):
            raise UsageError("%s: no such file" % path)
    os.makedirs(os.path.join(root, "boot", "grub"), exist_ok=True)
    os.makedirs(os.path.join(root, "boot", "mods"), exist_ok=True)
    shutil.copy(kernel, os.path.join(root, "boot", "smapos.elf"))
    for name, path in mods:
        shutil.copy(path, os.path.join(root, "boot", "mods", name))
    with open(os.path.join(root, "boot", "grub", "grub.cfg"), "w") as f:
        f.write(grub_cfg(mods, entries, timeout))


def run_grub_tool(argv):
    r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if r.returncode != 0:
        raise UsageError("%s failed:\n%s" % (argv[0], r.stdout.decode(errors="replace")))


def build_iso(out, kernel, mods, entries, timeout=0):
    """Write a hybrid BIOS+UEFI ISO (also a valid disk image for a USB
    stick) holding the kernel, the modules and grub_cfg()."""
    need_tools("grub-mkrescue", "xorriso", "mformat")
    with tempfile.TemporaryDirectory(prefix="smapos-iso-") as tree:
        boot_tree(tree, kernel, mods, entries, timeout)
        run_grub_tool(["grub-mkrescue", "-o", out, tree])


def build_netdir(out, kernel, mods, entries, timeout=0):
    """Fill `out` for a TFTP server: GRUB's network images for BIOS PXE
    (boot/grub/i386-pc/core.0) and UEFI (boot/grub/x86_64-efi/core.efi),
    which read boot/grub/grub.cfg, the kernel and the modules over TFTP."""
    need_tools("grub-mknetdir")
    boot_tree(out, kernel, mods, entries, timeout)
    run_grub_tool(["grub-mknetdir", "--net-directory=" + out, "--subdir=boot/grub"])


def default_kernel():
    return os.path.join(ROOT, "build", "kernel", "smapos.elf")
