"""libsmap core in host mode: SMARTMAP emulation, the lwkrun --host
launcher and tools/smapcc.

The SMARTMAP programs (user/smaptest/) are the ones the kernel suite boots;
here they run as Linux processes on 1, 2, 4, 8 and 17 ranks (more than 2
oversubscribes the 2 cores on purpose).  Checks that need more than an exit status and
output patterns run this file as a script: `python3 smap_host.py CHECK`.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import uuid

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402

ME = os.path.abspath(__file__)
SMAPCC = os.path.join(harness.ROOT, "tools", "smapcc")
SMAPFORT = os.path.join(harness.ROOT, "tools", "smapfort")
REMOTE_CHECKS = 10      # TAP lines per rank of smaptest_remote
SYNC_CHECKS = 10        # ... of smaptest_sync
MALLOC_CHECKS = 12      # ... of smaptest_malloc


def prog(name):
    return harness.build("user", name)


def host(name, n, program, args=(), **kw):
    return harness.lwkrun(name, ["--host", "-n", n, prog(program)] + list(args), **kw)


def check(name, what, **kw):
    return harness.Case(name, ["python3", ME, what], **kw)


def cases():
    c = []
    for n in (2, 4, 8):
        c.append(host("smap_host_remote_%d" % n, n, "smaptest_remote", tap=True,
                      min_tap=REMOTE_CHECKS * n, timeout=60))
        c.append(host("smap_host_sync_%d" % n, n, "smaptest_sync", tap=True,
                      min_tap=SYNC_CHECKS * n, timeout=60))
    # Past 8 ranks the barrier combines arrivals per group of 8 (17: a
    # partial last group).
    c.append(host("smap_host_sync_17", 17, "smaptest_sync", tap=True,
                  min_tap=SYNC_CHECKS * 17, timeout=60))
    c += [
        harness.Case("smap_singleton_remote", [prog("smaptest_remote")], tap=True,
                     min_tap=REMOTE_CHECKS),
        harness.Case("smap_singleton_sync", [prog("smaptest_sync")], tap=True,
                     min_tap=SYNC_CHECKS),
        harness.Case("smap_singleton_malloc", [prog("smaptest_malloc")], tap=True,
                     min_tap=MALLOC_CHECKS),
        # A job page this libsmap does not know (here /dev/null on stdin):
        # one line, which says what to do when a program is older than lwkrun;
        # libsmap aborts (134 through the shell, as lwkrun reports it).
        harness.Case("smap_host_unknown_job_page_says_relink",
                     ["sh", "-c", '"$0"; exit $?', prog("smaptest_remote")],
                     env=dict(os.environ, SMAPOS_HOST="0:0:0:0"), rc=134,
                     expect=[r"^libsmap: SMAPOS_HOST names no lwkrun job page this libsmap "
                             r"knows \(fd 0\): a program an older libsmap built needs "
                             r"relinking$"]),
        host("smap_host_malloc_2", 2, "smaptest_malloc", tap=True, min_tap=2 * MALLOC_CHECKS),
        host("smap_host_beyond_region_faults", 2, "smaptest_fail", ["beyond"], rc=139,
             expect=[r"rank 1 killed by SIGSEGV",
                     r"libsmap: rank 1: SIGSEGV at 0x8100400000: outside rank 0's region"],
             tap=True, min_tap=2),
        host("smap_host_abort_ends_job_with_status", 3, "smaptest_fail", ["abort", "7"], rc=7,
             expect=[r"rank 2 aborted the job with status 7"], tap=True, min_tap=3),
        host("smap_host_exit_status_is_first_failing_rank", 2, "smaptest_fail", ["exit", "3"],
             rc=3, expect=[r"rank 1 exited with status 3"], tap=True, min_tap=2),
        harness.lwkrun("smap_host_timeout_kills_job",
                       ["--host", "--timeout", "1", "-n", "2", prog("smaptest_fail"), "hang"],
                       rc=124, expect=[r"lwkrun: timeout after 1s: killed 2 running ranks"],
                       timeout=20),
        harness.lwkrun("smap_host_tag_output",
                       ["--host", "--tag-output", "-n", "2", prog("smaptest_fail"), "exit", "0"],
                       expect=[r"^\[0\] ok rank0: started$", r"^\[1\] ok rank1: started$"]),
        harness.lwkrun("smap_host_too_many_ranks_fails_clearly",
                       ["--host", "-n", "255", prog("smaptest_fail"), "exit", "0"], rc=2,
                       expect=[r"^lwkrun: -n 255: host mode runs at most 254 ranks"]),
        harness.lwkrun("smap_host_bad_rank_count",
                       ["--host", "-n", "0", prog("smaptest_fail")], rc=2,
                       expect=[r"^lwkrun: -n: expected a whole number >= 1, got '0'$"]),
        harness.lwkrun("smap_host_rejects_kvm",
                       ["--host", "--kvm", prog("smaptest_fail")], rc=2,
                       expect=[r"^lwkrun: --host runs Linux processes"]),
        harness.lwkrun("lwkrun_refuses_more_nodes_than_the_engine_takes",
                       ["--host", "--nodes", "65", prog("smaptest_fail")], rc=2,
                       expect=[r"^lwkrun: --nodes 65: a job spans at most 64 nodes"]),
        harness.lwkrun("lwkrun_refuses_more_jobs_than_a_boot_runs",
                       ["-n", "1", prog("smaptest_fail")] +
                       ["--next", "-n", "1", prog("smaptest_fail")] * 32, rc=2,
                       expect=[r"^lwkrun: 33 jobs: one boot runs at most 32 \(--next\)"]),
        harness.lwkrun("lwkrun_drop_needs_nodes",
                       ["--host", "--drop", "2", prog("smaptest_fail")], rc=2,
                       expect=[r"^lwkrun: --drop: frames are lost between nodes"]),
        harness.lwkrun("smap_host_region_too_large",
                       ["--host", "--mem", "600G", prog("smaptest_fail")], rc=2,
                       expect=[r"^lwkrun: --mem 614400 MiB: host mode regions must fit below 512 GiB"]),
        # smaller than the stack alone: the layout must not wrap below the base
        harness.lwkrun("smap_host_region_smaller_than_its_stack",
                       ["--host", "--mem", "4M", prog("smaptest_fail"), "exit", "0"], rc=134,
                       expect=[r"^libsmap: host mode: region of 4 MiB too small for the program "
                               r"\(\d+ MiB\) and its 16 MiB stack$"]),
        harness.lwkrun("smap_host_not_executable",
                       ["--host", os.path.join(harness.ROOT, "README.md")], rc=2,
                       expect=[r"^lwkrun: .*README.md: cannot execute: "]),
        harness.lwkrun("smap_host_missing_program", ["--host", "/nonexistent/prog"], rc=2,
                       expect=[r"^lwkrun: /nonexistent/prog: no such file$"]),
        check("smap_host_crash_leaves_nothing_behind", "cleanup", tap=True, min_tap=3),
        harness.lwkrun("smap_host_refuses_valgrind",
                       ["--host", "-e", "LD_PRELOAD=/usr/libexec/valgrind/vgpreload_core-amd64-linux.so",
                        prog("smaptest_fail"), "exit", "0"], rc=134,
                       expect=[r"^libsmap: host mode cannot run under valgrind"]),
        check("smapcc_builds_and_links", "smapcc", tap=True, min_tap=12),
    ]
    return c


# -- checks run as a script ------------------------------------------------

def check_cleanup():
    """A crashing rank ends the job: no rank process, no memfd survives."""
    mark = uuid.uuid4().hex
    p = subprocess.Popen(["python3", harness.LWKRUN, "--host", "-n", "4", "-e",
                          "SMAPTEST_MARK=" + mark, prog("smaptest_fail"), "crash"],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out, _ = p.communicate(timeout=60)
    harness.tap(p.returncode == 139, "crash: the job ends with the rank's signal status",
                "expected 139, got %d: %s" % (p.returncode, out.decode()[-200:]))
    left, fds = [], []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/environ" % pid, "rb") as f:
                if mark.encode() in f.read():
                    left.append(pid)
            for fd in os.listdir("/proc/%s/fd" % pid):
                link = os.readlink("/proc/%s/fd/%s" % (pid, fd))
                if "smapos-host-%d-" % p.pid in link:
                    fds.append("%s:%s" % (pid, link))
        except OSError:
            continue
    harness.tap(not left, "crash: no rank process is left", "expected none, got pids %s" % left)
    harness.tap(not fds, "crash: no region memfd is left open", "expected none, got %s" % fds)


def run(argv, **kw):
    return subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, **kw)


def run_steps(*argvs):
    """Runs the commands in turn; the first that fails, else the last."""
    for argv in argvs:
        r = run(argv)
        if r.returncode:
            break
    return r


def check_smapcc():
    tmp = tempfile.mkdtemp(prefix="smapcc-test-")
    try:
        src = os.path.join(tmp, "conftest.c")
        with open(src, "w") as f:
            f.write("int main(void) { return 0; }\n")
        exe = os.path.join(tmp, "conftest")
        r = run([SMAPCC, "-o", exe, src])
        ok = r.returncode == 0 and run([exe]).returncode == 0
        harness.tap(ok, "smapcc links and runs a program without any libsmap call",
                    "expected status 0, got %d: %s" % (r.returncode, r.stdout.decode()[-200:]))

        r = run(["nm", exe])
        musl = [s for s in ("__malloc_context", "__simple_malloc", "__libc_malloc_impl")
                if s in r.stdout.decode()]
        harness.tap(r.returncode == 0 and not musl, "smapcc programs carry libsmap's malloc, not musl's",
                    "expected no musl allocator symbol, got %s" % musl)

        r = run(["readelf", "-h", exe])
        harness.tap(re.search(r"Type:\s+EXEC", r.stdout.decode()) is not None,
                    "smapcc makes static non-PIE executables", "expected ELF type EXEC")

        obj = os.path.join(tmp, "conftest.o")
        r = run([SMAPCC, "-c", "-o", obj, src])
        harness.tap(r.returncode == 0 and os.path.isfile(obj), "smapcc -c compiles only",
                    "expected an object file, got status %d" % r.returncode)

        r = run([SMAPCC, "-show", "-O2", "app.c", "-o", "app"])
        line = r.stdout.decode().strip()
        harness.tap(r.returncode == 0 and "-Wl,--wrap=main" in line and "libsmap.a" in line
                    and " app.c " in line and not os.path.exists("app"),
                    "smapcc -show prints the command instead of running it",
                    "expected a musl-gcc line with libsmap.a, got %r" % line)

        r = run([SMAPCC, "-fopenmp", "-c", "-o", obj, src])
        msg = r.stdout.decode().strip()
        harness.tap(r.returncode == 2 and re.match(r"^smapcc: -fopenmp: libgomp is built for glibc: "
                                                   r"build everything with SMAPCC_LIBC=glibc", msg),
                    "smapcc -fopenmp against musl points to SMAPCC_LIBC=glibc in one line",
                    "expected status 2 and one line, got %d: %r" % (r.returncode, msg))

        # IOR seeds with srandom() and draws with rand(): glibc's one state.
        rsrc = os.path.join(tmp, "rand.c")
        with open(rsrc, "w") as f:
            f.write("#include <stdlib.h>\nint main(void) { int a, b, c;\n"
                    "  rand(); srandom(7); a = rand(); srandom(7); b = rand();\n"
                    "  srand(7); c = (int)random(); return !(a == b && b == c); }\n")
        r = run_steps([SMAPCC, "-o", exe, rsrc], [exe])
        harness.tap(r.returncode == 0, "rand() draws from srandom()'s generator, as in glibc",
                    "status %d: %s" % (r.returncode, r.stdout.decode()[-200:]))

        # HPCC archives every object, main's too, and links the archive.
        lib = os.path.join(tmp, "libapp.a")
        r = run_steps([SMAPCC, "-c", "-o", obj, src], ["ar", "rc", lib, obj],
                      [SMAPCC, "-o", exe, lib], [exe])
        harness.tap(r.returncode == 0, "smapcc links a program whose main is in an archive",
                    "status %d: %s" % (r.returncode, r.stdout.decode()[-200:]))

        # Static libgfortran + libgomp: a CLOSE called pthread_mutex_destroy
        # through a weak reference left at 0 (SNAP, CloverLeaf with OpenMP).
        fsrc = os.path.join(tmp, "close.f90")
        with open(fsrc, "w") as f:
            f.write("program c\n  integer :: n\n  n = 0\n  !$omp parallel\n  n = 1\n"
                    "  !$omp end parallel\n  open(10, file='%s')\n  write(10, *) n\n"
                    "  close(10)\n  print *, 'closed'\nend program\n" % os.path.join(tmp, "out"))
        r = run_steps([SMAPFORT, "-fopenmp", "-o", exe, fsrc], [exe])
        harness.tap(r.returncode == 0 and b"closed" in r.stdout,
                    "smapfort -fopenmp: a Fortran CLOSE works in a static OpenMP program",
                    "status %d: %s" % (r.returncode, r.stdout.decode()[-200:]))

        # mpi_f08 under a strict standard: its bind(C) interfaces had
        # default LOGICAL arguments, a GNU extension (PRK builds -std=f2018).
        fsrc = os.path.join(tmp, "strict.f90")
        with open(fsrc, "w") as f:
            f.write("program s\n  use mpi_f08\n  logical :: flag, periods(1)\n"
                    "  type(MPI_Comm) :: cart\n  type(MPI_Status) :: st\n  periods = .true.\n"
                    "  call MPI_Init()\n  call MPI_Cart_create(MPI_COMM_WORLD, 1, [1], periods, "
                    ".false., cart)\n  call MPI_Iprobe(0, 0, MPI_COMM_WORLD, flag, st)\n"
                    "  call MPI_Finalize()\nend program\n")
        bad = []
        for std in ("f2008", "f2018"):
            r = run([SMAPFORT, "-std=" + std, "-c", "-o", obj, fsrc])
            if r.returncode:
                bad.append("%s: %s" % (std, r.stdout.decode()[-200:]))
        harness.tap(not bad, "smapfort -std=f2008 and -std=f2018 compile a use mpi_f08 program "
                    "with LOGICAL arguments", "; ".join(bad))

        # SGI's and Cray's header paths, which Open MPI's man pages and
        # SOS keep (Cray's SHMEM tests include <mpp/shmem.h>).
        csrc, fsrc = os.path.join(tmp, "mpp.c"), os.path.join(tmp, "mpp.f")
        with open(csrc, "w") as f:
            f.write("#include <mpp/shmem.h>\nint main(void) { shmem_init(); "
                    "shmem_finalize(); return 0; }\n")
        with open(fsrc, "w") as f:
            f.write("      program m\n      include 'mpp/shmem.fh'\n      call shmem_init()\n"
                    "      if (SHMEM_MAJOR_VERSION .ne. 1) stop 1\n      end\n")
        bad = [" ".join(r.args[:1]) + ": " + r.stdout.decode()[-200:]
               for r in (run([SMAPCC, "-c", "-o", obj, csrc]),
                         run([SMAPFORT, "-c", "-o", obj, fsrc])) if r.returncode]
        harness.tap(not bad, "<mpp/shmem.h> and 'mpp/shmem.fh' compile, as with Open MPI and SOS",
                    "; ".join(bad))

        fake = os.path.join(tmp, "tree", "tools")
        os.makedirs(fake)
        shutil.copy(SMAPCC, fake)
        r = run([os.path.join(fake, "smapcc"), "-o", exe, src])
        msg = r.stdout.decode().strip()
        harness.tap(r.returncode == 1 and re.match(r"^smapcc: .*libsmap\.a not found", msg)
                    and "\n" not in msg,
                    "smapcc without libsmap.a says so in one line",
                    "expected status 1 and one line, got %d: %r" % (r.returncode, msg))
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    {"cleanup": check_cleanup, "smapcc": check_smapcc}[sys.argv[1]]()
