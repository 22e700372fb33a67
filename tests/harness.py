"""Test cases for tests/run.

A suite is a module in tests/suites/ with a function cases() returning a
list of Case.  A case runs one command with a timeout and checks its exit
status and output.

How results are counted (docs/testing.md): one result per distinct check.
A case without TAP lines is one check: its verdict (status, patterns).  A
case whose program prints TAP lines ("ok NAME", "not ok NAME - why") counts
each distinct NAME once - lines that differ only by the rank, PE or node
number they name are one check, which passes only if every rank's line
does - and its verdict adds no result of its own while it holds.  When the
verdict fails (wrong status, a crash, a missing pattern, too few lines, a
timeout, a program that could not start) the case is one failure and its
ok lines count for nothing: a program that died after printing them did
not pass.
"""

import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build")
LWKRUN = os.path.join(ROOT, "tools", "lwkrun")


def build(*parts):
    return os.path.join(BUILD, *parts)


class Case:
    """One command and what it must do.

    rc:      expected exit status; None accepts a clean failure: any non-zero
             status but a crash (a signal, SIGSEGV & co., a panic, a timeout).
    expect:  regexes that must each match somewhere in the output.
    reject:  regexes that must not match anywhere.
    tap:     parse "ok"/"not ok" lines as sub-results; at least `min_tap`
             of them must appear (so a job that dies early cannot pass).
    """

    def __init__(self, name, argv, rc=0, expect=(), reject=(), timeout=60,
                 tap=False, min_tap=1, env=None, cwd=ROOT):
        self.name = name
        self.argv = [str(a) for a in argv]
        self.rc = rc
        self.expect = list(expect)
        self.reject = list(reject)
        self.timeout = timeout
        self.tap = tap
        self.min_tap = min_tap
        self.env = env
        self.cwd = cwd

    def verdict(self, rc, out, timed_out):
        """Why the case as a whole fails ([] if it holds)."""
        why = []
        if timed_out:
            why.append("timed out after %ds" % self.timeout)
        elif rc is not None and rc < 0:
            why.append("killed by signal %d" % -rc)
        elif self.rc is None:
            if rc == 0:
                why.append("exit status 0, expected a failure")
            elif rc in CRASHES:
                why.append("exit status %d (%s), expected a clean failure" % (rc, CRASHES[rc]))
        elif rc != self.rc:
            why.append("exit status %d, expected %d" % (rc, self.rc))
        for pat in self.expect:
            if not re.search(pat, out, re.M):
                why.append("missing output /%s/" % pat)
        for pat in self.reject:
            m = re.search(pat, out, re.M)
            if m:
                why.append("unexpected output: %r" % m.group(0)[:120])
        if self.tap:
            taps = TAP.findall(out)
            if len(taps) < self.min_tap:
                why.append("%d TAP results, expected at least %d"
                           % (len(taps), self.min_tap))
        return why

    def check(self, rc, out, timed_out):
        """Return [(name, ok, why)]: one entry per distinct check."""
        why = self.verdict(rc, out, timed_out)
        if not self.tap:
            return [(self.name, not why, "; ".join(why))]
        checks = {}
        for notok, sub, reason in TAP.findall(out):
            name = "%s/%s" % (self.name, RANKS.sub(r"\1 N", sub.strip()))
            ok, reasons = checks.get(name, (True, []))
            if notok:
                reasons.append(reason.strip())
            checks[name] = (ok and not notok, reasons)
        results = [(name, ok, "; ".join(r)) for name, (ok, r) in checks.items()]
        if why:
            return [(self.name, False, "; ".join(why))] + [r for r in results if not r[1]]
        return results

    def check_missing(self, why):
        """The case's program could not be started: one failure."""
        return [(self.name, False, why)]


# Statuses of a crashed program: no expected failure (rc=None) is one.
CRASHES = {124: "timeout", 125: "kernel panic", 132: "SIGILL", 133: "SIGTRAP",
           135: "SIGBUS", 136: "SIGFPE", 139: "SIGSEGV"}

# "rank 3", "PE 12", "node 1": the part of a check's name that says who.
RANKS = re.compile(r"\b(rank|PE|pe|node)\s+\d+\b")

# "ok name" / "not ok name - reason", optionally behind an lwkrun rank tag.
TAP = re.compile(r"^(?:\[[^\]]*\]\s*)?(not )?ok\s+([^\n]*?)(?:\s+-\s+([^\n]*))?$", re.M)


def tap(ok, name, why=""):
    """One TAP line, for the checks a suite runs as a script."""
    print("ok %s" % name if ok else "not ok %s - %s" % (name, why), flush=True)
    return ok


def lwkrun(name, args, **kw):
    """A case that runs tools/lwkrun with args (a list)."""
    kw.setdefault("timeout", 120)
    return Case(name, ["python3", LWKRUN] + list(args), **kw)
