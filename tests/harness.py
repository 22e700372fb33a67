"""Test cases for tests/run.

A suite is a module in tests/suites/ with a function cases() returning a
list of Case.  A case runs one command with a timeout and checks its exit
status and output.  A command that prints TAP-style lines ("ok NAME",
"not ok NAME - why") contributes one result per line, so a unit-test binary
or a test job that checks many behaviours reports each of them.
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

    rc:      expected exit status; None accepts any non-zero status.
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

    def check(self, rc, out, timed_out):
        """Return [(name, ok, why)]: the case's own result, then its TAP lines."""
        results = []
        why = []
        if timed_out:
            why.append("timed out after %ds" % self.timeout)
        elif self.rc is None:
            if rc == 0:
                why.append("exit status 0, expected a failure")
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
            for notok, sub, reason in taps:
                results.append(("%s/%s" % (self.name, sub.strip()), not notok,
                                reason.strip()))
        results.insert(0, (self.name, not why, "; ".join(why)))
        return results


    def check_missing(self, why):
        """The case's program could not be started: one failure."""
        return [(self.name, False, why)]


# "ok name" / "not ok name - reason", optionally behind an lwkrun rank tag.
TAP = re.compile(r"^(?:\[[^\]]*\]\s*)?(not )?ok\s+([^\n]*?)(?:\s+-\s+([^\n]*))?$", re.M)


def lwkrun(name, args, **kw):
    """A case that runs tools/lwkrun with args (a list)."""
    kw.setdefault("timeout", 120)
    return Case(name, ["python3", LWKRUN] + list(args), **kw)
