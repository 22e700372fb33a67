#!/usr/bin/env python3
"""tests/harness_test.py - the runner counts honestly: checks of tests/run
and tests/harness.py themselves, as TAP lines."""

import importlib.machinery
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import harness  # noqa: E402

loader = importlib.machinery.SourceFileLoader("runner", os.path.join(HERE, "run"))
spec = importlib.util.spec_from_loader("runner", loader)
runner = importlib.util.module_from_spec(spec)
loader.exec_module(runner)

failed = 0


def tap(ok, name, why=""):
    global failed
    failed |= not ok
    print("ok %s" % name if ok else "not ok %s - %s" % (name, why), flush=True)


def summary(results):
    return [(n.split("/", 1)[-1], ok) for n, ok, _ in results]


def main():
    two = "ok alpha\nok beta\n"
    r = harness.Case("c", ["true"], tap=True).check(0, two, False)
    tap(summary(r) == [("alpha", True), ("beta", True)],
        "two TAP lines of a clean run are two checks, the verdict adds none", r)

    r = harness.Case("c", ["true"], tap=True).check(-11, two, False)
    tap(len(r) == 1 and not r[0][1] and "killed by signal 11" in r[0][2],
        "a program killed by a signal after ok lines is one failure, its ok lines count "
        "for nothing", r)

    r = harness.Case("c", ["true"], tap=True).check(139, two, False)
    tap(len(r) == 1 and not r[0][1], "a job that ends with SIGSEGV's status fails", r)

    r = harness.Case("c", ["true"], rc=None).check(139, "", False)
    tap(len(r) == 1 and not r[0][1],
        "an expected failure (rc=None) does not accept a crash (139)", r)
    r = harness.Case("c", ["true"], rc=None).check(134, "", False)
    tap(len(r) == 1 and r[0][1], "an expected failure accepts abort's 134", r)

    r = harness.Case("c", ["true"], tap=True).check(
        0, "ok rank 0 sees its data\nok rank 1 sees its data\n[2] ok rank 2 sees its data\n",
        False)
    tap(len(r) == 1 and r[0][1], "the same check on three ranks is one check", r)
    r = harness.Case("c", ["true"], tap=True).check(
        1, "ok rank 0 sees its data\nnot ok rank 1 sees its data - wrong\n", False)
    tap(len(r) == 2 and not any(ok for _, ok, _ in r),
        "one rank failing a check fails it (and the case)", r)

    r = harness.Case("c", ["true"], tap=True, min_tap=3).check(0, two, False)
    tap(len(r) == 1 and not r[0][1], "too few TAP lines fail the case", r)

    results, out, _ = runner.run_case(harness.Case("missing", ["/nonexistent/program"]))
    tap(len(results) == 1 and not results[0][1] and "cannot run" in out,
        "a missing program is a failure, not a crash of the runner", results)

    crash = "print('ok early', flush=True); import ctypes; ctypes.string_at(0)"
    results, out, _ = runner.run_case(harness.Case("segv", [sys.executable, "-c", crash],
                                                   tap=True))
    tap(len(results) == 1 and not results[0][1] and "ok early" in out,
        "a test program that prints ok and then segfaults is reported as failed", results)
    return failed


if __name__ == "__main__":
    sys.exit(main())
