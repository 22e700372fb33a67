"""Host unit tests of the kernel's pure logic (allocator, boot information,
command line, ELF loader, formatting, the rule libsmap judges deadlocks by)."""

from harness import Case, build


def cases():
    tests = ["test_pmem", "test_multiboot", "test_cmdline", "test_format", "test_smartmap",
             "test_net", "test_urange", "test_waits"]
    out = [Case("unit/" + t[5:], [build("tests", "unit", t)], tap=True, timeout=60)
           for t in tests]
    # The ELF checks also read real executables of the build.
    out.append(Case("unit/elf", [build("tests", "unit", "test_elf"), build("user", "demo"),
                                 build("user", "smaptest_remote")], tap=True, timeout=60))
    return out
