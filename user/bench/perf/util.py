"""What every section of the campaign shares: paths, running a program with
a time limit into the raw log, the load average, per-run figures and their
medians.

A figure is measured in several runs (never one); each run adds a Row.  A
section keeps its rows in build/results/<section>.csv and its circumstances
(date, load, mode, notes) in <section>.json, so one section can be rerun
without the others (`run --only`)."""

import csv
import json
import os
import signal
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
BUILD = os.path.join(ROOT, "build")
RESULTS = os.path.join(BUILD, "results")
LWKRUN = os.path.join(ROOT, "tools", "lwkrun")

# The three kinds of run (brief, section 10); every table names its kind.
KINDS = {
    "host": "host mode: native Linux processes on this machine",
    "net": "host mode across nodes: groups of native Linux processes joined by sockets",
    "tcg": "QEMU/TCG: emulated, both guests pay the same emulation",
    "icount": "QEMU/TCG with -icount: virtual time (one guest instruction = 1 ns), so only "
              "the guest's own work can show",
    "emulated": "QEMU/TCG: smapos alone, emulator timings, not machine performance",
    "kvm": "QEMU/KVM: the kernel on accelerated virtual hardware",
}

FIELDS = ("kind", "bench", "impl", "ranks", "over", "metric", "size", "unit", "stat", "run",
          "value")

# Units where a smaller figure is better; for the others larger is.
LOWER_BETTER = {"ns", "us", "ms", "s", "count"}


def build(*parts):
    return os.path.join(BUILD, *parts)


def say(msg):
    sys.stderr.write("bench: %s\n" % msg)
    sys.stderr.flush()


def source():
    """The commit measured, and whether the working tree differed from it
    (engineers share one tree: the binaries are built from what it holds)."""
    head = subprocess.run(["git", "-C", ROOT, "log", "-1", "--format=%h %cd", "--date=short"],
                          stdout=subprocess.PIPE).stdout.decode().strip()
    changed = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
                             stdout=subprocess.PIPE).stdout.decode().splitlines()
    if not changed:
        return "commit %s, clean tree" % head
    return "commit %s with uncommitted changes to %s" % (
        head, ", ".join(line[3:] for line in changed[:6]) + (", ..." if len(changed) > 6 else ""))


def load_average():
    """The 1-minute load average, the figure every table is read against."""
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def runnable_others():
    """Tasks running or runnable now besides the one asking, read between
    two runs: another tenant's work, where the load average also carries
    the campaign's own oversubscribed runs for minutes after they end."""
    with open("/proc/stat") as f:
        for line in f:
            if line.startswith("procs_running "):
                return max(int(line.split()[1]) - 1, 0)
    return 0


def cores():
    return len(os.sched_getaffinity(0))


class Section:
    """One part of the campaign: its rows, its circumstances, its raw log."""

    def __init__(self, name, quick, repeats):
        self.name = name
        self.quick = quick
        self.repeats = repeats
        self.rows = []
        self.notes = []
        self.summary = None     # one sentence the report puts first, if any
        self.loads = []
        self.others = []
        os.makedirs(os.path.join(RESULTS, "raw"), exist_ok=True)
        self.log = open(os.path.join(RESULTS, "raw", name + ".log"), "w")
        self.started = time.strftime("%Y-%m-%d %H:%M:%S %Z")
        self.source = source()
        self.t0 = time.monotonic()

    def add(self, kind, bench, impl, ranks, metric, size, unit, value, run, stat="value"):
        self.rows.append(dict(kind=kind, bench=bench, impl=impl, ranks=ranks,
                              over=int(ranks > cores()), metric=metric, size=size, unit=unit,
                              stat=stat, run=run, value=value))

    def note(self, text):
        """A fact a reader of the tables needs (something not run, and why)."""
        say(text)
        self.notes.append(text)

    def sample_load(self):
        self.loads.append(load_average())
        self.others.append(runnable_others())

    def run(self, argv, timeout):
        """Run argv (output to the raw log); returns (status, output), status
        None after a timeout, when the whole process group is killed."""
        self.sample_load()
        self.log.write("\n$ %s\n" % " ".join(argv))
        self.log.flush()
        start = time.monotonic()
        proc = subprocess.Popen(argv, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, start_new_session=True)
        try:
            out, _ = proc.communicate(timeout=timeout)
            status = proc.returncode
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, _ = proc.communicate()
            status = None
        except BaseException:
            # Ctrl-C reaches only this process: nothing may outlive it.
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            raise
        text = out.decode("utf-8", "replace")
        self.log.write(text)
        self.log.write("# %s after %.1f s\n" % ("timed out" if status is None else
                                                "status %d" % status, time.monotonic() - start))
        self.log.flush()
        return status, text

    def save(self):
        self.sample_load()
        with open(os.path.join(RESULTS, self.name + ".csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=FIELDS)
            w.writeheader()
            w.writerows(self.rows)
        meta = {"section": self.name, "started": self.started,
                "seconds": round(time.monotonic() - self.t0),
                "quick": self.quick, "repeats": self.repeats,
                "load_min": min(self.loads), "load_max": max(self.loads),
                "others_mean": round(statistics.mean(self.others), 2),
                "source": self.source, "summary": self.summary, "notes": self.notes}
        with open(os.path.join(RESULTS, self.name + ".json"), "w") as f:
            json.dump(meta, f, indent=1)
        self.log.close()


def read_section(name):
    """(rows, meta) of a saved section, or (None, None)."""
    base = os.path.join(RESULTS, name)
    if not os.path.isfile(base + ".csv") or not os.path.isfile(base + ".json"):
        return None, None
    with open(base + ".csv", newline="") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        r["ranks"] = int(r["ranks"])
        r["over"] = int(r["over"])
        r["size"] = int(r["size"])
        r["value"] = float(r["value"])
    with open(base + ".json") as f:
        meta = json.load(f)
    return rows, meta


class Figure:
    """One figure over its runs: the median, the spread, the best."""

    def __init__(self, values, unit):
        self.values = sorted(values)
        self.unit = unit
        self.n = len(values)
        self.median = statistics.median(values)
        self.lo, self.hi = self.values[0], self.values[-1]
        self.best = self.lo if unit in LOWER_BETTER else self.hi


def aggregate(rows):
    """{(kind, bench, impl, ranks, metric, size, stat): Figure}."""
    groups = {}
    for r in rows:
        key = (r["kind"], r["bench"], r["impl"], r["ranks"], r["metric"], r["size"], r["stat"])
        groups.setdefault(key, ([], r["unit"]))[0].append(r["value"])
    return {k: Figure(v, unit) for k, (v, unit) in groups.items()}
