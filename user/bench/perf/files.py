"""File I/O shipped to lwkrun's I/O server (docs/fileio.md): `filetest bench`
writes then reads a file in 1 MiB calls on one rank, on smapos under TCG
(kind 2, emulated) and in host mode on Linux for reference."""

import re

from perf import hostmode

LINE = re.compile(r"write ([\d.]+) MB/s, read ([\d.]+) MB/s")


def run(sec):
    mb = 64 if sec.quick else 256
    for run_no in range(sec.repeats):
        for kind in ("emulated", "host"):
            status, out = sec.run(hostmode.libsmap_argv(kind, "filetest", 1, ["bench", str(mb)]),
                                  300)
            m = LINE.search(out)
            if status != 0 or not m:
                sec.note("filetest bench (%s): status %s (run %d)" % (kind, status, run_no + 1))
                continue
            for metric, value in (("write_MBps", m.group(1)), ("read_MBps", m.group(2))):
                sec.add(kind, "filetest", "libsmap", 1, metric, 1 << 20, "MB/s", float(value),
                        run_no)
