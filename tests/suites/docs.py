"""Documentation that is generated from the source stays current."""

from harness import Case


def cases():
    return [Case("docs/cmdline.md lists every kernel option",
                 ["python3", "tools/gen-params", "--check", "docs/cmdline.md"], tap=True)]
