"""C++ and Fortran (docs/languages.md): programs built by tools/smapcxx and
tools/smapfort against glibc and libsmap-glibc.a, run in host mode and on
the kernel (2 ranks each).  On the kernel, glibc's static start-up must not
hit an unsupported system call: any ENOSYS report fails the case."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402

ENOSYS = r"not supported \(ENOSYS\)"
# Programs, their TAP lines (printed by rank 0 once for the job), and
# environment and output for the lwkrun runs.
OMP4 = (["-e", "OMP_NUM_THREADS=4"],
        [r"libsmap: OMP_NUM_THREADS=4: each rank runs one thread on its own core",
         r"libsmap: rank 1: fork\(\) is not supported"])
PROGRAMS = {
    "lang_cxx": (8, ([], [])),
    "lang_cxxshmem": (5, ([], [])),
    "lang_fmod": (27, ([], [])),
    "lang_fh": (4, ([], [])),
    "lang_f08": (14, ([], [])),
    "lang_fshmem": (9, ([], [])),
    "lang_c_musl": (2, OMP4),
    "lang_c_glibc": (4, OMP4),
}


def host(name, n, program, args=(), env=(), **kw):
    return harness.lwkrun(name, ["--host", "-n", n] + list(env) +
                          [harness.build("user", program)] + list(args), timeout=60, **kw)


def kernel(name, n, program, args=(), env=(), timeout=180, **kw):
    return harness.lwkrun(name, ["-q", "--timeout", timeout - 10, "-n", n] + list(env) +
                          [harness.build("user", program)] + list(args),
                          timeout=timeout, **kw)


def fortran_io():
    """MPI-IO from Fortran on the files the kernel ships to lwkrun (run in
    build/, where a left-over file would land)."""
    return [
        harness.lwkrun("lang/lang_fio host 2 ranks", ["--host", "-n", "2",
                                                      harness.build("user", "lang_fio")],
                       tap=True, min_tap=8, timeout=60, cwd=harness.BUILD),
        harness.lwkrun("lang/lang_fio kernel 2 ranks", ["-q", "--timeout", "110", "-n", "2",
                                                        harness.build("user", "lang_fio")],
                       tap=True, min_tap=8, timeout=120, cwd=harness.BUILD, reject=[ENOSYS]),
    ]


HEADERS = os.path.join(harness.ROOT, "user", "langtest", "headers.c")


def wrappers():
    """smapcxx and smapfort are smapcc under other names: compiler, C library
    and include paths follow the name."""
    tools = os.path.join(harness.ROOT, "tools")
    return [
        harness.Case("lang/smapcxx -show: g++, glibc archive",
                     [os.path.join(tools, "smapcxx"), "-show", "-O2", "app.cc", "-o", "app"],
                     expect=[r"^g\+\+ .*-static -no-pie -Wl,--wrap=main -Wl,--wrap=fork .*"
                             r"libsmap-glibc\.a$"], reject=[r"musl", r"smap_glibc_compat"]),
        harness.Case("lang/smapfort -show: gfortran, mpif.h and mpi.mod path",
                     [os.path.join(tools, "smapfort"), "-show", "app.f90", "-o", "app"],
                     expect=[r"^gfortran .*build/include -fallow-argument-mismatch .*"
                             r"libsmap-glibc\.a$"]),
        harness.Case("lang/smapcc -show: musl with glibc's integer names",
                     [os.path.join(tools, "smapcc"), "-show", "app.c", "-o", "app"],
                     expect=[r"^musl-gcc .*-include \S*smap_glibc_compat\.h .*libsmap\.a$"]),
        harness.Case("lang/SMAPCC_LIBC=glibc -show: gcc, glibc archive",
                     [os.path.join(tools, "smapcc"), "-show", "app.c", "-o", "app"],
                     env=dict(os.environ, SMAPCC_LIBC="glibc"),
                     expect=[r"^gcc .*libsmap-glibc\.a$"], reject=[r"smap_glibc_compat"]),
        # Every public header, together, in both languages.
        harness.Case("lang/the headers compile as C11, -pedantic -Werror",
                     [os.path.join(tools, "smapcc"), "-std=c11", "-pedantic", "-Wall",
                      "-Wextra", "-Werror", "-c", "-o", os.devnull, HEADERS]),
        harness.Case("lang/the headers compile as C++11, -pedantic -Werror",
                     [os.path.join(tools, "smapcxx"), "-x", "c++", "-std=c++11", "-pedantic",
                      "-Wall", "-Wextra", "-Werror", "-c", "-o", os.devnull, HEADERS]),
        harness.Case("lang/SMAPCC_LIBC=other is refused",
                     [os.path.join(tools, "smapcc"), "-show", "app.c"], rc=2,
                     env=dict(os.environ, SMAPCC_LIBC="uclibc"),
                     expect=[r"^smapcc: SMAPCC_LIBC=uclibc: expected musl or glibc$"]),
    ]


def cases():
    out = symheap() + wrappers() + fortran_io()
    # The C++ generic SHMEM overloads between nodes too.
    out.append(harness.lwkrun("lang/lang_cxxshmem host 2 nodes x 2 PEs",
                              ["--host", "--nodes", "2", "-n", "2",
                               harness.build("user", "lang_cxxshmem")],
                              tap=True, min_tap=5, timeout=60))
    for prog, (checks, (env, expect)) in sorted(PROGRAMS.items()):
        out.append(harness.Case("lang/%s alone" % prog, [harness.build("user", prog)], tap=True,
                                min_tap=checks))
        out.append(host("lang/%s host 2 ranks" % prog, 2, prog, env=env, tap=True,
                        min_tap=checks, expect=expect))
        out.append(kernel("lang/%s kernel 2 ranks" % prog, 2, prog, env=env, tap=True,
                          min_tap=checks, expect=expect, reject=[ENOSYS]))
    return out


MEM_HINT = (r"shmem PE 0: shmem_malloc: \d+ bytes do not fit .* give each PE more memory "
            r"\(lwkrun --mem \d+M\)")


def symheap():
    """The symmetric heap grows into the region unless SHMEM_SYMMETRIC_SIZE
    fixes it; what does not fit is NULL with a line saying what --mem to give."""
    return [
        # ISx's request: 1 GiB per PE on 4 PEs (host regions are 4 GiB).
        host("lang/symheap grows to 1 GiB, host 4 PEs", 4, "lang_symheap", ["grow", "1024"],
             tap=True, min_tap=5),
        harness.lwkrun("lang/symheap SHMEM_SYMMETRIC_SIZE fixes the size, host",
                       ["--host", "-n", "2", "-e", "SHMEM_SYMMETRIC_SIZE=16M",
                        harness.build("user", "lang_symheap"), "fixed", "32"],
                       tap=True, min_tap=2, timeout=60),
        host("lang/symheap beyond the region is NULL and names --mem, host", 2, "lang_symheap",
             ["toobig"], tap=True, min_tap=2, expect=[MEM_HINT]),
        # Across nodes too (OSU's osu_oshm_put_mr heap asks for 200 MiB per PE):
        # every node's PEs grow at the same address, or none does.
        harness.lwkrun("lang/symheap grows across host nodes, 2 x 2 PEs",
                       ["--host", "--nodes", "2", "-n", "2",
                        harness.build("user", "lang_symheap"), "grow", "256"],
                       tap=True, min_tap=5, timeout=60),
        harness.lwkrun("lang/symheap beyond the region names --mem, host nodes",
                       ["--host", "--nodes", "2", "-n", "1",
                        harness.build("user", "lang_symheap"), "toobig"],
                       tap=True, min_tap=2, expect=[MEM_HINT], timeout=60),
        harness.lwkrun("lang/symheap grows on the kernel (--mem 640M, 2 PEs)",
                       ["-q", "--timeout", "170", "-n", "2", "--mem", "640M",
                        harness.build("user", "lang_symheap"), "grow", "256"],
                       tap=True, min_tap=5, timeout=180),
        kernel("lang/symheap beyond the region names --mem, kernel", 2, "lang_symheap",
               ["toobig"], tap=True, min_tap=2, expect=[MEM_HINT]),
        harness.lwkrun("lang/lwkrun -m too small for --mem says which -m",
                       ["-q", "--timeout", "50", "-m", "512M", "-n", "2", "--mem", "640M",
                        harness.build("user", "lang_symheap")], rc=2,
                       expect=[r"^lwkrun: -m 512M cannot hold 2 ranks x 640M \(--mem\): use -m \d+M",
                               r"cannot give 2 ranks 640 MiB each"],
                       timeout=60),
    ]
