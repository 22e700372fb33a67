"""Kind 2, smapos alone: libsmap's benchmarks on the kernel under QEMU/TCG.

These are emulator timings: TCG translates every guest instruction, so a
cache line, a memcpy or a system call costs what the translator makes of
it, not what the machine does.  They are here because they are the kernel's
own figures (a system call through SYSCALL/SYSRET, the launch of every
rank, SMARTMAP through real page tables) and because a regression shows in
them; the report prints them next to host mode and never as machine
performance.  Short runs (the "quick" sizes): TCG is slow."""

from perf import files, hostmode

MPI_TESTS = ["quick", "pingpong", "memcpy", "coll"]


def run(sec):
    kind = "emulated"
    for run_no in range(sec.repeats):
        status, out = sec.run(hostmode.libsmap_argv(kind, "mpi_bench", 2, MPI_TESTS), 600)
        hostmode.add_csv(sec, kind, "mpi_bench", "libsmap", hostmode.parse_csv(out), run_no)
        if status != 0:
            sec.note("mpi_bench on smapos under TCG: status %s (run %d)" % (status, run_no + 1))
    hostmode.shmem(sec, kind)
    hostmode.smartmap(sec, kind)
    # The launch figure is the issue's: every one of 4 ranks at main().
    hostmode.kbench(sec, kind, 4)
    files.run(sec)
