"""Files (docs/fileio.md): on the kernel every file system call goes to
lwkrun's I/O server; in host mode the same programs use Linux directly.
Each case runs in a directory of its own under build/tests/files."""

import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402

WORK = harness.build("tests", "files")
FILETEST = harness.build("user", "filetest")
BASIC_CHECKS = 52
CONFINE_CHECKS = 19
MPIIO_CHECKS = 39
MPIT_FILE = harness.build("user", "mpit_file")


def workdir(name):
    path = os.path.join(WORK, name)
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def confine_tree(name):
    """DIR/sub, DIR/escape -> .., DIR/abs-escape -> an absolute path out,
    and a file beside DIR that must stay out of reach."""
    top = workdir(name)
    jail = os.path.join(top, "jail")
    os.makedirs(os.path.join(jail, "sub"))
    with open(os.path.join(top, "outside"), "w") as f:
        f.write("secret\n")
    os.symlink("..", os.path.join(jail, "escape"))
    os.symlink(os.path.join(top, "outside"), os.path.join(jail, "abs-escape"))
    return jail


def kernel(name, args, cwd, n=2, **kw):
    kw.setdefault("timeout", 180)
    return harness.lwkrun(name, ["-q", "--timeout", kw["timeout"] - 10, "-n", n] + args,
                          cwd=cwd, **kw)


def stdin_case(name, host):
    """12 bytes piped into lwkrun reach rank 0; rank 1 sees end of file."""
    mode = "--host" if host else "-q --timeout 170"
    cmd = "printf 'hello stdin\\n' | python3 %s %s -n 2 %s stdin" % (harness.LWKRUN, mode, FILETEST)
    return harness.Case(name, ["sh", "-c", cmd], timeout=180, cwd=workdir(name.replace("/", "_")),
                        tap=True, expect=[r"rank 0: stdin 12 bytes, hash 2728214731339407760",
                                          r"rank 1: stdin 0 bytes"])


def failwrite_case(name):
    """A job whose rank 0 fails after writing: its file is whole."""
    cwd = workdir("kernel-failwrite")
    cmd = ("python3 %s -q --timeout 170 -n 2 %s failwrite; echo \"status $?\"; "
           "echo \"size $(stat -c %%s failwrite.0)\"; "
           "tr -d a < failwrite.0 | wc -c | sed 's/^/other bytes /'" % (harness.LWKRUN, FILETEST))
    return harness.Case(name, ["sh", "-c", cmd], timeout=180, cwd=cwd,
                        expect=[r"^status 134$", r"^size 4194304$", r"^other bytes 0$"])


def cases():
    out = [
        kernel("files/kernel: stdio and raw calls on 2 ranks", [FILETEST, "basic"],
               workdir("kernel-basic"), tap=True, min_tap=BASIC_CHECKS),
        harness.lwkrun("files/host: stdio and raw calls on 2 ranks",
                       ["--host", "-n", 2, FILETEST, "basic"], cwd=workdir("host-basic"),
                       tap=True, min_tap=BASIC_CHECKS),
        kernel("files/kernel: --files confines to DIR", ["--files", confine_tree("confine"),
                                                         FILETEST, "confine"],
               harness.ROOT, n=1, tap=True, min_tap=CONFINE_CHECKS),
        kernel("files/kernel: 2 nodes reach one I/O server", ["--nodes", 2, FILETEST, "basic"],
               workdir("kernel-nodes"), n=1, tap=True, min_tap=BASIC_CHECKS),
        kernel("files/kernel: MPI-IO on 2 ranks", [MPIT_FILE], workdir("kernel-mpiio2"),
               tap=True, min_tap=MPIIO_CHECKS),
        kernel("files/kernel: MPI-IO on 4 ranks", [MPIT_FILE], workdir("kernel-mpiio4"), n=4,
               tap=True, min_tap=MPIIO_CHECKS),
        harness.lwkrun("files/host: MPI-IO on 4 ranks", ["--host", "-n", 4, MPIT_FILE],
                       cwd=workdir("host-mpiio4"), tap=True, min_tap=MPIIO_CHECKS),
        # collective I/O whose ranks sit on two nodes, one I/O server
        kernel("files/kernel: MPI-IO on 2 nodes x 2 ranks", ["--nodes", 2, MPIT_FILE],
               workdir("kernel-mpiio-nodes"), tap=True, min_tap=MPIIO_CHECKS),
        harness.lwkrun("files/host: MPI-IO on 2 host nodes x 2 ranks",
                       ["--host", "--nodes", 2, "-n", 2, MPIT_FILE],
                       cwd=workdir("host-mpiio-nodes"), tap=True, min_tap=MPIIO_CHECKS),
        failwrite_case("files/kernel: a failing job's file is whole"),
    ] + [
        harness.lwkrun("files/%s: a missing --files directory is a one-line error" % where,
                       opts + ["--files", os.path.join(WORK, "no-such-dir"), FILETEST, "basic"],
                       rc=2, expect=[r"^lwkrun: --files \S+/no-such-dir: no such directory$"])
        for where, opts in (("kernel", []), ("host", ["--host"]),
                            ("host nodes", ["--host", "--nodes", "2"]))
    ] + [

        harness.lwkrun("files/host: MPI_ERRORS_ARE_FATAL on MPI_FILE_NULL ends the job",
                       ["--host", "-n", 2, MPIT_FILE, "fatal"], cwd=workdir("host-fatal"),
                       rc=43, expect=[r"MPI_File_open: no such file"], reject=[r"not ok"]),
        stdin_case("files/kernel: stdin reaches rank 0", False),
        stdin_case("files/host: stdin reaches rank 0", True),
    ]
    return out
