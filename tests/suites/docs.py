"""Documentation that is generated from the source stays current, and its
links lead somewhere."""

from harness import Case


def cases():
    return [Case("docs/cmdline.md lists every kernel option",
                 ["python3", "tools/gen-params", "--check", "docs/cmdline.md"], tap=True),
            Case("documentation links resolve; docs/architecture.md links every document",
                 ["python3", "tests/doclinks.py"], tap=True, min_tap=3)]
