#!/usr/bin/env python3
"""Check the documentation's links: every relative link in README.md and
docs/*.md names a file that exists, and docs/architecture.md (the index the
README points to) links every document in docs/.  One TAP line per check."""

import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def main():
    failed = 0
    docs = sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
    for path in [os.path.join(ROOT, "README.md")] + docs:
        with open(path) as f:
            targets = LINK.findall(f.read())
        bad = [t for t in targets if "://" not in t and
               not os.path.exists(os.path.join(os.path.dirname(path), t))]
        failed += bool(bad)
        print("%s %s: %d links%s" % ("not ok" if bad else "ok", os.path.relpath(path, ROOT),
                                      len(targets), ", broken: " + ", ".join(bad) if bad else ""))
    with open(os.path.join(ROOT, "docs", "architecture.md")) as f:
        linked = set(os.path.basename(t) for t in LINK.findall(f.read()))
    missing = [os.path.basename(d) for d in docs
               if os.path.basename(d) not in linked | {"architecture.md"}]
    failed += bool(missing)
    print("%s docs/architecture.md links every document%s"
          % ("not ok" if missing else "ok", ": missing " + ", ".join(missing) if missing else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
