"""The test runner itself: how it counts (tests/harness_test.py)."""

from harness import Case


def cases():
    return [Case("runner/results are distinct checks; crashes and missing programs fail",
                 ["python3", "tests/harness_test.py"], tap=True, min_tap=10)]
