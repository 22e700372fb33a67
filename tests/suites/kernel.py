"""The kernel under QEMU/TCG: boot and CPUs, kernel faults, the command
line, processes and their system calls, faulting ranks, bad launches, and
SMARTMAP between ranks.  Every case is one boot through tools/lwkrun."""

import os

from harness import LWKRUN, ROOT, Case, build, lwkrun

U = lambda name: build("user", name)  # noqa: E731

CPU_ONLINE = r"smp: {n} of {n} CPUs online"
NEXT_JOB_RUNS = r"job 1: ktest_libc: 1 rank, status 0"


def boot_cases():
    out = []
    for n in (1, 2, 4, 8, 64):
        out.append(lwkrun("kernel/boot/smp-%d: every CPU comes up" % n, ["-c", n, "--timeout", 90],
                          expect=[CPU_ONLINE.format(n=n), r"mem: \d+ MiB for ranks",
                                  r"smapos: exit status 0"], timeout=120))
    for kind, name in (("page", "page fault"), ("gp", "general protection"),
                       ("ud", "invalid opcode"), ("div", "divide error")):
        out.append(lwkrun("kernel/fault/%s: a kernel fault is reported and ends the boot" % kind,
                          ["--append", "kfault=" + kind],
                          rc=125, expect=[r"kernel fault on cpu 0: %s" % name, r"  rip [0-9a-f]{16}",
                                          r"#0 0x[0-9a-f]+ kmain_late\+0x",
                                          r"smapos: panic: unrecoverable %s" % name,
                                          r"smapos: exit status 125"]))
    out += [
        lwkrun("kernel/power/ACPI S5 powers off when there is no debug-exit device",
               ["-q", "--timeout", 30, "--append", "debug_exit=0", "-n", 1, U("ktest_libc"),
                "exit", 0], expect=[r"smapos: exit status 0"], reject=[r"power-off failed"]),
        lwkrun("kernel/power/exit=reboot resets the machine (QEMU -no-reboot exits)",
               ["-q", "--timeout", 30, "--append", "exit=reboot", "-n", 1, U("ktest_libc"),
                "exit", 3], rc=3, expect=[r"smapos: exit status 3"]),
        # The timeout includes the boot: 6 s was too short once on a
        # machine at load 12.
        lwkrun("kernel/power/exit=halt stops the CPUs and stays up",
               ["-q", "--timeout", 12, "--append", "exit=halt", "-n", 1, U("ktest_libc"),
                "exit", 0], rc=124, expect=[r"smapos: exit status 0", r"timeout after 12 s"]),
        lwkrun("kernel/cmdline/job key before a job is an error",
               ["--append", "np=3"], rc=2,
               expect=[r"np= belongs to a job", r"bad kernel command line", r"exit status 2"]),
        lwkrun("kernel/cmdline/malformed value is an error naming the option",
               ["--append", "kmem=12x"], rc=2, expect=[r"bad value for kmem: '12x'"]),
        lwkrun("kernel/cmdline/unknown option is a warning and the boot goes on",
               ["--append", "frobnicate=1", "-n", 1, U("ktest_libc"), "exit", 0],
               expect=[r"unknown option 'frobnicate' ignored", r"exit status 0"]),
    ]
    return out


def process_cases():
    libc = ["--mem", "400M", "--stack", "16M", "-e", "KTEST=42", "-n", 1,
            U("ktest_libc"), "all", "alpha", "two words"]
    out = [
        lwkrun("kernel/proc/libc: a static musl program gets what Linux would give it",
               ["-q"] + libc, tap=True, min_tap=30, timeout=180),
        # Two 1536 MiB regions cannot both lie below QEMU's PCI hole: lwkrun
        # sizes -m so that one fits whole above 4 GiB.
        lwkrun("kernel/proc/lwkrun sizes the node for 2 ranks x 1536M across the PCI hole",
               ["-q", "-n", 2, "--mem", "1536M", U("ktest_libc"), "exit", 0],
               expect=[r"status 0 \(ranks: 0 0\)"]),
        lwkrun("kernel/proc/exit code of the rank is the job's status",
               ["-q", "-n", 2, U("ktest_libc"), "exit", 42], rc=42,
               expect=[r"status 42 \(ranks: (42 (42|killed)|killed 42)\)"]),
        lwkrun("kernel/proc/abort fails the job with SIGABRT's status",
               ["-q", "-n", 1, U("ktest_libc"), "abort"], rc=134,
               expect=[r"killed by signal 6 \(abort\)"]),
        lwkrun("kernel/proc/output of 4 ranks is tagged by rank and never mixed inside a line",
               ["-q", "--tag-output", "-n", 4, U("demo")],
               expect=[r"^\[0\] rank 0/4 on cpu 0", r"^\[3\] rank 3 read rank 0's signature"],
               reject=[r"^(?!\[\d\] |job |smapos: ).+"]),
        lwkrun("kernel/proc/a job's time limit stops ranks spinning in user mode; next job runs",
               ["-q", "--time", 2, "-n", 2, U("ktest_libc"), "spin", "--next", "-n", 1,
                U("ktest_libc"), "exit", 0], rc=137,
               expect=[r"time limit of 2 s reached", r"status 137 \(ranks: killed killed\)",
                       NEXT_JOB_RUNS]),
        lwkrun("kernel/proc/a job's time limit stops ranks asleep in the kernel",
               ["-q", "--time", 2, "-n", 2, U("ktest_libc"), "sleep"], rc=137,
               expect=[r"time limit of 2 s reached", r"status 137 \(ranks: killed killed\)"]),
        lwkrun("kernel/proc/host mode enforces a job's time limit the same way",
               ["--host", "--time", 2, "-n", 2, U("ktest_libc"), "sleep"], rc=137,
               expect=[r"time limit of 2 s reached"]),
        # File calls are shipped to the I/O server: confine it to a scratch
        # directory, removed afterwards.
        Case("kernel/proc/syscall fuzzer: 4 ranks rewriting each other's arguments, no kernel "
             "fault, no foreign write, next job runs",
             ["sh", "-c", 'd=$(mktemp -d) && python3 "$0" -q --files "$d" "$@"; s=$?; '
              'rm -rf "$d"; exit $s', LWKRUN, "-n", 4, U("ktest_fuzz"), 10000, 7, "--next",
              "-n", 1, U("ktest_libc"), "exit", 0],
             expect=[r"^fuzz summary: ranks 4, calls 40000, .*foreign writes 0;",
                     NEXT_JOB_RUNS],
             reject=[r"kernel fault", r"panic"], tap=True, min_tap=5, timeout=120),
    ]
    faults = [
        ("null", 139, r"SIGSEGV: null pointer dereference at 0,"),
        ("write-text", 139, r"SIGSEGV: write to read-only memory \(text or rodata\)"),
        ("write-rodata", 139, r"SIGSEGV: write to read-only memory \(text or rodata\)"),
        ("exec-data", 139, r"SIGSEGV: execute from non-executable memory"),
        ("kernel-read", 139, r"SIGSEGV: access to kernel memory at 0xffffffff80100000"),
        ("kernel-direct-map", 139, r"SIGSEGV: access to kernel memory at 0xffffff8000100000"),
        ("noncanonical", 139, r"SIGSEGV: general protection"),
        ("privileged", 139, r"SIGSEGV: general protection \(privileged instruction"),
        ("io-port", 139, r"SIGSEGV: general protection"),
        ("ud", 132, r"SIGILL: invalid opcode"),
        ("div", 136, r"SIGFPE: divide error"),
        ("stack-overflow", 139, r"SIGSEGV: stack overflow \(guard page hit\)"),
        ("smartmap-no-rank", 139, r"SIGSEGV: SMARTMAP address of rank 8, but the job has 2 ranks"),
    ]
    for kind, rc, report in faults:
        out.append(lwkrun("kernel/fault-rank/%s: reported, job killed, next job runs" % kind,
                          ["-q", "-n", 2, U("ktest_fault"), kind,
                           "--next", "-n", 1, U("ktest_libc"), "exit", 0],
                          rc=rc, expect=[r"^rank 0 \(cpu 0\): " + report, r"  rip [0-9a-f]{16}",
                                         r"status %d \(ranks: %d killed\)" % (rc, rc),
                                         NEXT_JOB_RUNS]))
    return out


def harden_cases():
    """Issue 20: what one rank or one job must never do to another."""
    h = U("ktest_harden")
    nxt = ["--next", "-n", 1, U("ktest_libc"), "exit", 0]
    no_fault = [r"kernel fault", r"panic", r"^not ok"]
    out = [
        lwkrun("kernel/harden/mmap hints just below 2^64 and wrapping lengths: rank 0's 8 MiB "
               "and stack untouched, next job runs",
               ["-q", "-n", 2, h, "mmap-wrap"] + nxt, tap=True, min_tap=3,
               expect=[NEXT_JOB_RUNS], reject=no_fault),
        lwkrun("kernel/harden/writev and readv on an iovec a peer rewrites: 0 or an error, "
               "never a kernel fault",
               ["-q", "-n", 2, h, "writev-race", 20000] + nxt, tap=True, min_tap=2,
               expect=[NEXT_JOB_RUNS], reject=no_fault),
        lwkrun("kernel/harden/mremap to sizes that wrap is refused; peers untouched, next job "
               "runs",
               ["-q", "-n", 2, h, "mremap-wrap"] + nxt, tap=True, min_tap=3,
               expect=[NEXT_JOB_RUNS], reject=no_fault),
        lwkrun("kernel/harden/a job after one that filled 96 MiB finds none of it in its region",
               ["-q", "--mem", "256M", "-n", 2, h, "fill", "0x5eed1e55", "--next", "--mem",
                "256M", "-n", 2, h, "scan", "0x5eed1e55"], tap=True, min_tap=4,
               reject=no_fault),
        lwkrun("kernel/harden/signals: ignored, blocked, default-ignored, handlers",
               ["-q", "-n", 1, h, "signals"], tap=True, min_tap=8, reject=no_fault),
        lwkrun("kernel/harden/alarm and setitimer: SIGALRM interrupts a rank in user mode, "
               "a sleep, pause and sigsuspend",
               ["-q", "--time", 60, "-n", 1, h, "alarm"], tap=True, min_tap=11,
               reject=no_fault),
        lwkrun("host/alarm and setitimer as on Linux",
               ["--host", "-n", 1, h, "alarm"], tap=True, min_tap=11),
        lwkrun("kernel/harden/an alarm nobody handles ends a computing rank (142)",
               ["-q", "--time", 60, "-n", 1, h, "alarm-default"] + nxt, rc=142,
               expect=[r"^rank 0 \(cpu 0\): killed by signal 14 \(alarm\)$", NEXT_JOB_RUNS]),
        lwkrun("kernel/harden/int3 is SIGTRAP (133), not a general protection fault",
               ["-q", "-n", 1, h, "int3"] + nxt, rc=133,
               expect=[r"^rank 0 \(cpu 0\): SIGTRAP: breakpoint", NEXT_JOB_RUNS]),
        lwkrun("kernel/harden/a blocked signal waits; unblocked, its default action ends the rank",
               ["-q", "-n", 1, h, "unblock-kill"], rc=138,
               expect=[r"^ok unblock-kill", r"killed by signal 10$"]),
    ]
    for what in ("pause", "futex"):
        out.append(lwkrun("kernel/harden/%s with nothing to wake it ends the job at once (123)"
                          % what, ["-q", "--time", 60, "-n", 1, h, what] + nxt, rc=123,
                          expect=[r"%s.* with nothing that can ever wake it: deadlock" % what,
                                  NEXT_JOB_RUNS]))
    return out


def launch_cases():
    notelf = os.path.join(ROOT, "README.md")
    return [
        lwkrun("kernel/launch/missing module is a clear error",
               ["-q", "--append", "job=nosuch np=1"], rc=127,
               expect=[r"no module named 'nosuch'", r"modules loaded:", r"exit status 127"]),
        lwkrun("kernel/launch/a non-ELF module cannot execute",
               ["-q", notelf], rc=126, expect=[r"README.md: cannot execute: not an ELF file"]),
        lwkrun("kernel/launch/a dynamically linked program cannot execute",
               ["-q", "/bin/true"], rc=126, expect=[r"dynamically linked .*link with -static"]),
        lwkrun("kernel/launch/more ranks than CPUs is refused",
               ["-q", "-c", 2, "-n", 4, U("ktest_libc"), "exit", 0], rc=2,
               expect=[r"4 ranks requested but only 2 CPUs are online"]),
        lwkrun("kernel/launch/more than 510 ranks is refused (SMARTMAP slots)",
               ["-q", "--append", "job=ktest_libc np=511", "-n", 1, U("ktest_libc"), "exit", 0],
               rc=2, expect=[r"511 ranks requested; SMARTMAP allows at most 510 per node"]),
        # Virtual time: with no tick and nothing else on the CPU, every
        # quantum of the noise benchmark takes exactly as long as the fastest.
        lwkrun("kernel/launch/--icount: virtual time, and no OS noise at all",
               ["-q", "--icount", "-n", 1, U("noise"), "-q", 2000, "-w", 2000],
               expect=[r"noise hz tsc_hz=99999\d{4}\b",
                       r"noise result cpu=0 .* min=(\d+\.\d) p50=\1 p999=\1 "]),
        lwkrun("kernel/launch/--icount does not go with --kvm",
               ["--icount", "--kvm", U("noise")], rc=2,
               expect=[r"^lwkrun: --icount is TCG's virtual time: it does not go with --kvm$"]),
        lwkrun("kernel/launch/a memory request beyond the node is refused",
               ["-q", "-m", "1G", "--mem", "64G", "-n", 2, U("ktest_libc"), "exit", 0], rc=2,
               expect=[r"cannot give 2 ranks 65536 MiB each: no contiguous 65536 MiB left for "
                       r"rank 0 \(largest free block \d+ MiB, \d+ MiB free in all\)"]),
    ]


def smartmap_cases():
    out = []
    for n in (2, 4, 8):
        out.append(lwkrun("kernel/smartmap/remote static, heap and stack on %d ranks" % n,
                          ["-q", "-n", n, U("smaptest_remote")], tap=True, min_tap=10 * n,
                          timeout=180))
    out += [
        lwkrun("kernel/smartmap/barriers and atomics (2 ranks)",
               ["-q", "-n", 2, U("smaptest_sync")], tap=True, min_tap=20),
        lwkrun("kernel/smartmap/malloc'd memory reachable by peers",
               ["-q", "--mem", "128M", "-n", 2, U("smaptest_malloc")], tap=True, min_tap=20),
        lwkrun("kernel/smartmap/64 ranks exchange through rank 0",
               ["-q", "-c", 64, "-n", 64, U("ktest_smap"), "gather"], tap=True, min_tap=65,
               timeout=240),
        lwkrun("kernel/smartmap/a second job sees nothing of the first",
               ["-q", "-n", 4, U("ktest_smap"), "write", "--next", "-n", 4, U("ktest_smap"),
                "fresh"], tap=True, min_tap=12),
        lwkrun("kernel/smartmap/beyond a peer's region faults and says so",
               ["-q", "-n", 2, U("smaptest_fail"), "beyond"], rc=139,
               expect=[r"address beyond the rank's memory .*\(SMARTMAP, rank 0\)"]),
        lwkrun("kernel/demo: the make run job on 4 ranks",
               ["-q", "-n", 4, U("demo")],
               expect=[r"4 ranks x 1000 atomic increments in rank 0's memory: 4000 \(correct\)"],
               reject=[r"WRONG"]),
    ]
    return out


def cases():
    return (boot_cases() + process_cases() + harden_cases() + launch_cases() +
            smartmap_cases())
