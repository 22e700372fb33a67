/* test_elf.c - ELF validation: synthetic images for every rule, and the
 * real static executables the build produces. */
#include <stdint.h>
#include <stdlib.h>
#include "elf.h"
#include "unit.h"

static uint8_t img[0x4000];

static struct elf64_ehdr *eh(void)
{
	return (struct elf64_ehdr *)img;
}

static struct elf64_phdr *ph(int i)
{
	return (struct elf64_phdr *)(img + sizeof(struct elf64_ehdr)) + i;
}

/* text at 0x400000 (RX, file 0..0x2000), data at 0x402000 (RW, +bss) */
static void good(void)
{
	memset(img, 0, sizeof(img));
	memcpy(eh()->ident, "\177ELF\2\1\1", 7);
	eh()->type = 2;
	eh()->machine = 62;
	eh()->version = 1;
	eh()->entry = 0x401000;
	eh()->phoff = sizeof(struct elf64_ehdr);
	eh()->ehsize = sizeof(struct elf64_ehdr);
	eh()->phentsize = sizeof(struct elf64_phdr);
	eh()->phnum = 2;
	*ph(0) = (struct elf64_phdr){ 1, 5, 0, 0x400000, 0x400000, 0x2000, 0x2000, 0x1000 };
	*ph(1) = (struct elf64_phdr){ 1, 6, 0x2000, 0x402000, 0x402000, 0x1000, 0x3000, 0x1000 };
}

static int parse(size_t size, struct elf_image *e, const char **why)
{
	*why = "";
	return elf_parse(img, size, e, why);
}

#define EXPECT_FAIL(name, text)							\
	do {									\
		struct elf_image e;						\
		const char *why;						\
		int r = parse(sizeof(img), &e, &why);				\
		CHECK(name, r == -1 && strstr(why, text), "returned %d, reason '%s'", r, why); \
	} while (0)

static void test_synthetic(void)
{
	struct elf_image e;
	const char *why;

	good();
	CHECK("a static executable parses", parse(sizeof(img), &e, &why) == 0, "%s", why);
	CHECK("its segments, protections and extent", e.nsegs == 2 && e.segs[0].prot == (SEG_R | SEG_X) &&
	      e.segs[1].prot == (SEG_R | SEG_W) && e.lo == 0x400000 && e.hi == 0x405000,
	      "%u segs, %#lx-%#lx", e.nsegs, e.lo, e.hi);
	CHECK("program headers found inside the first segment", e.phdr_vaddr == 0x400040 &&
	      e.phnum == 2, "%#lx", e.phdr_vaddr);

	good(); img[0] = 0x7e;			EXPECT_FAIL("not ELF is refused", "not an ELF");
	good(); img[4] = 1;			EXPECT_FAIL("32-bit ELF is refused", "64-bit");
	good(); img[5] = 2;			EXPECT_FAIL("big-endian ELF is refused", "little-endian");
	good(); eh()->machine = 183;		EXPECT_FAIL("another machine is refused", "x86-64");
	good(); eh()->type = 1;			EXPECT_FAIL("an object file is refused", "not an executable");
	good(); ph(1)->type = 3;		EXPECT_FAIL("a dynamic executable is refused", "-static");
	good(); eh()->phnum = 60000;		EXPECT_FAIL("program headers past the end are refused", "truncated");
	good(); ph(1)->filesz = 0x10000; ph(1)->memsz = 0x10000;
						EXPECT_FAIL("segment data past the end is refused", "truncated");
	good(); ph(1)->vaddr = (1ul << 39) - 0x1000;
						EXPECT_FAIL("a segment beyond slot 0 is refused", "512 GiB");
	good(); ph(1)->vaddr = 0x401000;	EXPECT_FAIL("overlapping segments are refused", "overlapping");
	good(); ph(0)->type = 4; ph(1)->type = 4;
						EXPECT_FAIL("no loadable segment is refused", "no loadable");
	good(); ph(1)->filesz = 0x4000;		EXPECT_FAIL("file size above memory size is refused", "larger");
	good(); eh()->entry = 0x900000;		EXPECT_FAIL("an entry point outside the image is refused", "entry");
	good(); eh()->type = 3;			EXPECT_FAIL("a shared object without PT_DYNAMIC is refused", "static PIE");

	good();
	eh()->type = 3;
	ph(0)->vaddr = 0;
	ph(1)->vaddr = 0x2000;
	eh()->entry = 0x1000;
	*ph(2) = (struct elf64_phdr){ 2, 6, 0x2000, 0x2000, 0x2000, 0x100, 0x100, 8 };
	eh()->phnum = 3;
	int r = parse(sizeof(img), &e, &why);

	CHECK("a static PIE is placed at the PIE base", r == 0 && e.pie && e.bias == ELF_PIE_BASE &&
	      e.entry == ELF_PIE_BASE + 0x1000 && e.segs[1].vaddr == ELF_PIE_BASE + 0x2000,
	      "returned %d (%s), bias %#lx", r, why, e.bias);
	good();
	CHECK("a file cut inside the ELF header is refused", parse(20, &e, &why) == -1, "accepted");
}

static void test_real(const char *path)
{
	FILE *f = fopen(path, "rb");
	static uint8_t buf[64 << 20];
	struct elf_image e;
	const char *why = "";
	char name[256];
	size_t n;

	snprintf(name, sizeof(name), "the build's %s parses as a static executable", path);
	if (!f) {
		CHECK(name, 0, "cannot open %s", path);
		return;
	}
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	CHECK(name, elf_parse(buf, n, &e, &why) == 0 && e.entry >= e.lo && e.entry < e.hi &&
	      e.phdr_vaddr, "%s", why);
}

int main(int argc, char **argv)
{
	test_synthetic();
	for (int i = 1; i < argc; i++)
		test_real(argv[i]);
	return unit_failed;
}
