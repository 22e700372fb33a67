"""Real-hardware robustness, as far as QEMU/TCG can play the hardware:
sparse and disabled CPUs in the MADT, NUMA (ACPI SRAT) placement of rank
regions, 16 GiB of memory, no PIT/HPET/PIC, serial ports that are not
COM1 or not there at all.  QEMU 7.2's TCG cannot offer x2APIC, so the APIC
mode and the ids above 254 are unit-tested (docs/hardware.md).

Each case boots the kernel with the self-test (or argecho) under its own
QEMU machine; QEMU's own exit status is 2*status+1.  The NUMA placement
check runs this file as a script: `python3 hardware.py numa LAYOUT`.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import harness  # noqa: E402
import qemuctl  # noqa: E402

ME = os.path.abspath(__file__)
SELFTEST = harness.build("user", "selftest")
ARGECHO = harness.build("user", "argecho")
PASS = r"^selftest: PASS"
SELFTEST_CHECKS = 5

# Two nodes of two CPUs each: memory split evenly, unevenly, or all on
# node 0 (node 1 is memoryless).
NUMA = {
    "even": [("512M", "0-1"), ("512M", "2-3")],
    "uneven": [("768M", "0-1"), ("256M", "2-3")],
    "memoryless": [("1G", "0-1"), (None, "2-3")],
}


def numa_options(layout):
    opts = []
    for node, (size, cpus) in enumerate(NUMA[layout]):
        if size:
            opts += ["-object", "memory-backend-ram,id=m%d,size=%s" % (node, size)]
        opts += ["-numa", "node,nodeid=%d,cpus=%s%s" % (node, cpus,
                                                        ",memdev=m%d" % node if size else "")]
    return opts


def selftest_boot(args=(), **machine):
    """QEMU's argv booting the self-test on every CPU (-kernel)."""
    cmdline = " ".join(["console=serial", "job=selftest", "np=all"] + ["arg=" + a for a in args])
    return qemuctl.machine(kernel=qemuctl.KERNEL, cmdline=cmdline, mods=[SELFTEST],
                           **machine) + ["-monitor", "none"]


def qemu_case(name, argv, status=0, **kw):
    kw.setdefault("timeout", 60)
    return harness.Case("hardware/" + name, argv, rc=2 * status + 1, **kw)


failed = []


def tap(ok, name, why=""):
    print("ok %s" % name if ok else "not ok %s - %s" % (name, why))
    if not ok:
        failed.append(name)
    return ok


def numa(layout):
    """Each rank's region lies in the memory of its CPU's node, as the
    kernel's `numa:` lines give it (QEMU numbers CPU i with APIC id i)."""
    r = qemuctl.run(selftest_boot(["-v", "--numa", "2"], cpus=4, mem="1G",
                                  extra=numa_options(layout)), timeout=90)
    nodes = {}
    for node, ids, ranges in re.findall(r"^numa: node (\d+): APIC ids ([\d ]*)[^;]*; \d+ MiB "
                                        r"of memory(.*)$", r.out, re.M):
        mem = [(int(a, 16), int(b, 16)) for a, b in re.findall(r"(0x[0-9a-f]+|0)-(0x[0-9a-f]+)",
                                                               ranges)]
        for cpu in ids.split():
            nodes[int(cpu)] = (int(node), mem)
    tap(len(nodes) == 4, "the kernel reports the SRAT's two nodes and their CPUs",
        "CPUs by node: %r" % nodes)
    where = re.findall(r"^selftest: rank (\d+): cpu (\d+), region at physical "
                       r"(0x[0-9a-f]+)-(0x[0-9a-f]+)", r.out, re.M)
    local = [int(rank) for rank, cpu, a, b in where
             if int(cpu) in nodes and nodes[int(cpu)][1] and
             any(lo <= int(a, 16) and int(b, 16) <= hi for lo, hi in nodes[int(cpu)][1])]
    with_memory = [int(rank) for rank, cpu, _, _ in where
                   if int(cpu) in nodes and nodes[int(cpu)][1]]
    tap(len(where) == 4 and local == with_memory,
        "every rank whose node has memory gets its region there",
        "local ranks %r, expected %r" % (local, with_memory))
    fallback = re.findall(r"^kmem: node (\d+) has no (?:room|memory) for CPU (\d+)", r.out, re.M)
    expected = [("1", "2"), ("1", "3")] if layout == "memoryless" else []
    tap(fallback == expected, "ranks leave their node only when it has no memory, and it is "
        "logged", "fallback lines %r, expected %r" % (fallback, expected))
    tap(re.search(PASS, r.out, re.M), "selftest: PASS on two NUMA nodes", "no PASS")
    tap(r.status == 0, "the kernel ends with status 0", "status %s" % r.status)


def cases():
    return [
        harness.Case("unit/apic_mode", [harness.build("tests", "unit", "test_apic_mode")],
                     tap=True, timeout=30),
        harness.Case("unit/grub_quoting", [harness.build("tests", "unit", "test_grub_quoting")],
                     tap=True, timeout=30),
        qemu_case("madt: sparse APIC ids start, disabled MADT entries are skipped",
                  selftest_boot(["--cpus", "4"], cpus="4,sockets=2,cores=3,threads=1,maxcpus=6"),
                  expect=[r"acpi: .* 4 CPUs \(\+2 disabled\)", r"smp: 4 of 4 CPUs online", PASS],
                  tap=True, min_tap=SELFTEST_CHECKS),
        qemu_case("16G: a 16 GiB node is mapped without touching it; regions above 4 GiB",
                  selftest_boot(["-v", "--mem", "15G"], cpus=2, mem="16G"),
                  expect=[r"^mem: 0x000100000000-0x00043fffffff usable",
                          r"region at physical 0x[1-4][0-9a-f]{8}-", PASS],
                  tap=True, min_tap=SELFTEST_CHECKS),
        qemu_case("timers: no PIT, HPET or PIC: the TSC comes from the ACPI PM timer",
                  selftest_boot(cpus=2, options="pit=off,hpet=off,pic=off"),
                  expect=[r"time: TSC \d+\.\d+ MHz \(ACPI PM timer\)", PASS], timeout=30,
                  tap=True, min_tap=SELFTEST_CHECKS),
        qemu_case("timers: with no timer at all the boot stops at once, naming tsc_hz=",
                  selftest_boot(cpus=1, options="pit=off,hpet=off,acpi=off"), status=125,
                  expect=[r"could not calibrate the TSC.*boot with tsc_hz="], timeout=30),
        qemu_case("timers: tsc_hz= boots a node without any timer",
                  qemuctl.machine(kernel=qemuctl.KERNEL, mods=[SELFTEST], cpus=1,
                                  cmdline="tsc_hz=2000000000 job=selftest np=all",
                                  options="pit=off,hpet=off,acpi=off") + ["-monitor", "none"],
                  expect=[r"TSC 2000\.000 MHz \(from the command line\)", PASS], timeout=30),
        qemu_case("serial: the console is found on COM2 when COM1 is absent",
                  qemuctl.machine(kernel=qemuctl.KERNEL, mods=[ARGECHO], cpus=1,
                                  cmdline="job=argecho arg=on-com2", serial=("none", "stdio"))
                  + ["-monitor", "none"],
                  expect=[r"console: serial 0x2f8;", r"^argv\[1\]=on-com2"], timeout=30),
        qemu_case("serial: without any serial port the kernel neither stalls nor fails",
                  qemuctl.machine(kernel=qemuctl.KERNEL, mods=[SELFTEST], cpus=2,
                                  cmdline="job=selftest np=all", serial=("none",))
                  + ["-monitor", "none"], reject=[r"\S"], timeout=30),
        harness.lwkrun("hardware/selftest: a node short of CPUs and NUMA nodes fails, naming "
                       "both", ["-q", "-c", 2, "-n", "all", SELFTEST, "--cpus", 8, "--numa", 2],
                       rc=1, expect=[r"not ok cpus - expected 8 CPUs online, got 2",
                                     r"not ok memory - expected 2 NUMA nodes, got 1",
                                     r"^selftest: FAIL cpus: expected 8 .*; memory: expected 2"]),
        harness.lwkrun("hardware/selftest: a node short of memory fails",
                       ["-q", "-n", 1, SELFTEST, "--mem", "64G"], rc=1,
                       expect=[r"not ok memory - expected at least 65536 MiB usable, got \d+",
                               r"^selftest: FAIL memory: "]),
        harness.lwkrun("hardware/selftest: a bad option is refused on one line",
                       ["-q", "-n", 1, SELFTEST, "--cpus", "many"], rc=2,
                       expect=[r"^selftest: bad value for --cpus: 'many'"]),
        harness.lwkrun("hardware/parport: the self-test runs a hardware barrier across 2 nodes",
                       ["-q", "--nodes", 2, "-n", 2, SELFTEST],
                       expect=[r"\[n0\] ok parport \(barrier across 2 nodes",
                               r"\[n1\] ok parport \(barrier across 2 nodes"], timeout=120),
        harness.lwkrun("hardware/parport: a node of a multi-node job without a port fails it",
                       ["-q", "--append", "nnodes=2", "-n", 1, SELFTEST], rc=1,
                       expect=[r"not ok parport - a job of 2 nodes, but no parallel port",
                               r"^selftest: FAIL parport: "]),
    ] + [harness.Case("hardware/numa-%s: rank regions come from their CPU's node" % layout,
                      [sys.executable, ME, "numa", layout], tap=True, min_tap=5, timeout=120)
         for layout in NUMA]


if __name__ == "__main__":
    {"numa": numa}[sys.argv[1]](*sys.argv[2:])
    sys.exit(1 if failed else 0)
