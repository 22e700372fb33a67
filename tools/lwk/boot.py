"""What a boot of smapos is made of: the kernel command line for a set of
jobs, the modules to load, and a GRUB ISO holding both.  Shared by the QEMU
launcher (qemu.py), the multi-node launcher (nodes.py) and tools/mkimage."""

import os
import shutil
import subprocess
import tempfile

from lwk.cli import ROOT, UsageError

MODULE_NAME_MAX = 63


def quote(value):
    """A command-line value the kernel's parser reads back unchanged."""
    if value and not any(c in value for c in ' \t"\\'):
        return value
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def modules(opt):
    """[(name, path)] of the distinct programs of the jobs, in job order."""
    seen = {}
    for j in opt.jobs:
        name = os.path.basename(j.prog)
        path = os.path.abspath(j.prog)
        if len(name) > MODULE_NAME_MAX:
            raise UsageError("%s: program name longer than %d characters" % (name, MODULE_NAME_MAX))
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
        words += ["node=%d" % node, "nnodes=%d" % nnodes]
    if opt.append:
        words.append(opt.append)
    if extra:
        words.append(extra)
    for j in opt.jobs:
        words += ["job=" + os.path.basename(j.prog), "np=%s" % j.np]
        if j.mem:
            words.append("mem=%dK" % (j.mem // 1024))
        words += ["arg=" + quote(a) for a in j.args]
        words += ["env=" + quote(e) for e in j.env]
    return " ".join(words)


GRUB_CFG = """\
set timeout={timeout}
set default=0
serial --unit=0 --speed=115200
terminal_input serial console
terminal_output serial console
if [ "$grub_platform" = "efi" ]; then
    insmod all_video
    set gfxpayload=keep
else
    set gfxpayload=text
fi
{entries}"""

ENTRY = """\
menuentry "{title}" {{
    multiboot2 /boot/smapos.elf {cmdline}
{modules}    boot
}}
"""


def grub_entry(title, cmdline, mods):
    lines = "".join("    module2 /boot/mods/%s %s\n" % (name, name) for name, _ in mods)
    return ENTRY.format(title=title.replace('"', "'"), cmdline=cmdline, modules=lines)


def build_iso(out, kernel, mods, entries, timeout=0):
    """Write a hybrid BIOS+UEFI ISO: `entries` is [(title, cmdline)], the
    first one the default; every module is available to every entry."""
    for tool in ("grub-mkrescue", "xorriso", "mformat"):
        if not shutil.which(tool):
            raise UsageError("%s not found: install grub-pc-bin grub-efi-amd64-bin xorriso mtools"
                             " (make deps-image)" % tool)
    if not os.path.isfile(kernel):
        raise UsageError("%s: no such file (run make)" % kernel)
    with tempfile.TemporaryDirectory(prefix="smapos-iso-") as tree:
        os.makedirs(os.path.join(tree, "boot", "grub"))
        os.makedirs(os.path.join(tree, "boot", "mods"))
        shutil.copy(kernel, os.path.join(tree, "boot", "smapos.elf"))
        for name, path in mods:
            shutil.copy(path, os.path.join(tree, "boot", "mods", name))
        text = "".join(grub_entry(t, c, mods) for t, c in entries)
        with open(os.path.join(tree, "boot", "grub", "grub.cfg"), "w") as f:
            f.write(GRUB_CFG.format(timeout=timeout, entries=text))
        r = subprocess.run(["grub-mkrescue", "-o", out, tree], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT)
        if r.returncode != 0:
            raise UsageError("grub-mkrescue failed:\n" + r.stdout.decode(errors="replace"))


def default_kernel():
    return os.path.join(ROOT, "build", "kernel", "smapos.elf")
