"""C++ and Fortran (docs/languages.md): programs built by tools/smapcxx and
tools/smapfort against glibc and libsmap-glibc.a, run in host mode and on
the kernel (2 ranks each).  On the kernel, glibc's static start-up must not
hit an unsupported system call: any ENOSYS report fails the case."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402

ENOSYS = r"not supported \(ENOSYS\)"
# Programs and their TAP lines (printed by rank 0 once for the job).
PROGRAMS = {
    "lang_cxx": 8,
    "lang_fmod": 16,
    "lang_fh": 2,
}


def host(name, n, program, args=(), **kw):
    return harness.lwkrun(name, ["--host", "-n", n, harness.build("user", program)] + list(args),
                          timeout=60, **kw)


def kernel(name, n, program, args=(), timeout=180, **kw):
    return harness.lwkrun(name, ["-q", "--timeout", timeout - 10, "-n", n,
                                 harness.build("user", program)] + list(args),
                          timeout=timeout, **kw)


def cases():
    out = []
    for prog, checks in sorted(PROGRAMS.items()):
        out.append(harness.Case("lang/%s alone" % prog, [harness.build("user", prog)], tap=True,
                                min_tap=checks))
        out.append(host("lang/%s host 2 ranks" % prog, 2, prog, tap=True, min_tap=checks))
        out.append(kernel("lang/%s kernel 2 ranks" % prog, 2, prog, tap=True, min_tap=checks,
                          reject=[ENOSYS]))
    return out
