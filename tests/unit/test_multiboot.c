/* test_multiboot.c - multiboot2 and multiboot1 structures built by hand,
 * well-formed and broken, through bootinfo_parse. */
#include <stdint.h>
#include <stdlib.h>
#include "bootinfo.h"
#include "unit.h"

static uint8_t mem[1 << 16] __attribute__((aligned(8)));
static size_t used;

/* The test's "physical memory" is the mem[] array, from address 0x1000. */
#define BASE 0x1000ul

static void *p2v(uint64_t phys)
{
	return mem + (phys - BASE);
}

static uint64_t v2p(const void *p)
{
	return (uint64_t)((const uint8_t *)p - mem) + BASE;
}

static uint8_t *mb2;
static size_t mb2_len;

static void mb2_start(void)
{
	memset(mem, 0, sizeof(mem));
	mb2 = mem;
	mb2_len = 8;
}

static void mb2_tag(uint32_t type, const void *body, uint32_t blen)
{
	uint32_t size = 8 + blen;

	memcpy(mb2 + mb2_len, &type, 4);
	memcpy(mb2 + mb2_len + 4, &size, 4);
	memcpy(mb2 + mb2_len + 8, body, blen);
	mb2_len += (size + 7) & ~7u;
}

static uint64_t mb2_finish(int with_end)
{
	uint32_t total;

	if (with_end)
		mb2_tag(0, "", 0);
	total = (uint32_t)mb2_len;
	memcpy(mb2, &total, 4);
	used = mb2_len;
	return BASE;
}

static void mb2_mmap(const uint64_t (*e)[3], unsigned n)
{
	uint8_t body[8 + 24 * 8];
	uint32_t esize = 24, ver = 0;

	memcpy(body, &esize, 4);
	memcpy(body + 4, &ver, 4);
	for (unsigned i = 0; i < n; i++) {
		uint32_t type = (uint32_t)e[i][2], zero = 0;

		memcpy(body + 8 + 24 * i, &e[i][0], 8);
		memcpy(body + 16 + 24 * i, &e[i][1], 8);
		memcpy(body + 24 + 24 * i, &type, 4);
		memcpy(body + 28 + 24 * i, &zero, 4);
	}
	mb2_tag(6, body, 8 + 24 * n);
}

static void test_mb2_full(void)
{
	static const uint64_t map[][3] = {
		{ 0, 0x9FC00, 1 }, { 0x9FC00, 0x400, 2 }, { 0x100000, 0x3FEE0000, 1 },
		{ 0x3FFE0000, 0x20000, 3 }, { 0xFEFFC000, 0x4000, 4 },
	};
	struct bootinfo bi;
	uint8_t mod[8 + 12];
	uint8_t fb[30] = { 0 };
	uint8_t rsdp_old[20] = "RSD PTR old", rsdp_new[36] = "RSD PTR new";
	uint32_t v;

	mb2_start();
	mb2_tag(1, "quiet job=hello np=2", 21);
	mb2_tag(2, "GRUB 2.06", 10);
	v = 0x200000;
	memcpy(mod, &v, 4);
	v = 0x280000;
	memcpy(mod + 4, &v, 4);
	memcpy(mod + 8, "/boot/hello", 12);
	mb2_tag(3, mod, sizeof(mod));
	mb2_mmap(map, 5);
	uint64_t fbaddr = 0x80000000;
	uint32_t pitch = 4096, w = 1024, h = 768;

	memcpy(fb, &fbaddr, 8);
	memcpy(fb + 8, &pitch, 4);
	memcpy(fb + 12, &w, 4);
	memcpy(fb + 16, &h, 4);
	fb[20] = 32;
	fb[21] = 1;
	fb[24] = 16; fb[25] = 8; fb[26] = 8; fb[27] = 8; fb[28] = 0; fb[29] = 8;
	mb2_tag(8, fb, sizeof(fb));
	mb2_tag(14, rsdp_old, sizeof(rsdp_old));
	mb2_tag(15, rsdp_new, sizeof(rsdp_new));
	log_clear();
	int r = bootinfo_parse(&bi, MB2_BOOT_MAGIC, mb2_finish(1), p2v);

	CHECK("mb2: a complete structure parses", r == 0, "returned %d: %s", r, unit_log);
	CHECK("mb2: command line", !strcmp(bi.cmdline, "quiet job=hello np=2"), "'%s'", bi.cmdline);
	CHECK("mb2: loader name", !strcmp(bi.loader_name, "GRUB 2.06"), "'%s'", bi.loader_name);
	CHECK("mb2: module range and string", bi.nmods == 1 && bi.mods[0].start == 0x200000 &&
	      bi.mods[0].end == 0x280000 && !strcmp(bi.mods[0].cmdline, "/boot/hello"),
	      "%u modules", bi.nmods);
	CHECK("mb2: every memory map entry with its type", bi.nmem == 5 && bi.mem[2].base == 0x100000 &&
	      bi.mem[3].type == MEM_ACPI_RECLAIM && bi.mem[4].type == MEM_ACPI_NVS,
	      "%u entries", bi.nmem);
	CHECK("mb2: RGB framebuffer with its channel layout", bi.fb.kind == FB_RGB &&
	      bi.fb.addr == 0x80000000 && bi.fb.width == 1024 && bi.fb.bpp == 32 &&
	      bi.fb.red_pos == 16 && bi.fb.blue_size == 8, "kind %d", bi.fb.kind);
	CHECK("mb2: the ACPI 2.0 RSDP wins over the 1.0 one",
	      bi.rsdp && !memcmp(bi.rsdp, "RSD PTR new", 11), "wrong RSDP");
	CHECK("mb2: the structure's own extent is recorded", bi.info_phys == BASE && bi.info_len == used,
	      "%#lx + %lu", bi.info_phys, bi.info_len);

	char name[64];

	bootinfo_module_name(&bi.mods[0], name, sizeof(name));
	CHECK("module name is the basename of its first word", !strcmp(name, "hello"), "'%s'", name);
	struct boot_module m = { 0, 0, "  /a/b/prog.x arg1 arg2" };

	bootinfo_module_name(&m, name, sizeof(name));
	CHECK("module name ignores arguments after the path", !strcmp(name, "prog.x"), "'%s'", name);
	bootinfo_module_name(&m, name, 4);
	CHECK("module name is truncated to the buffer", !strcmp(name, "pro"), "'%s'", name);
}

static void test_mb2_broken(void)
{
	struct bootinfo bi;
	static const uint64_t map[][3] = { { 0, 0x100000, 1 } };
	int r;

	mb2_start();
	mb2_mmap(map, 1);
	log_clear();
	r = bootinfo_parse(&bi, MB2_BOOT_MAGIC, mb2_finish(0), p2v);
	CHECK("mb2: a structure without end tag is refused", r == -1 && log_has("no end tag"),
	      "returned %d, log '%s'", r, unit_log);

	mb2_start();
	mb2_tag(1, "abc", 3);		/* no NUL inside the tag */
	log_clear();
	r = bootinfo_parse(&bi, MB2_BOOT_MAGIC, mb2_finish(1), p2v);
	CHECK("mb2: an unterminated string is refused", r == -1 && log_has("unterminated"),
	      "returned %d, log '%s'", r, unit_log);

	mb2_start();
	mb2_mmap(map, 1);
	uint32_t huge = 0x10000;

	memcpy(mem + 8 + 4, &huge, 4);	/* first tag's size far past the end */
	log_clear();
	r = bootinfo_parse(&bi, MB2_BOOT_MAGIC, mb2_finish(1), p2v);
	CHECK("mb2: a tag running past the structure is refused", r == -1 && log_has("bad size"),
	      "returned %d, log '%s'", r, unit_log);

	mb2_start();
	mb2_tag(1, "x", 2);
	log_clear();
	r = bootinfo_parse(&bi, MB2_BOOT_MAGIC, mb2_finish(1), p2v);
	CHECK("mb2: no memory map is refused", r == -1 && log_has("no memory map"),
	      "returned %d, log '%s'", r, unit_log);

	log_clear();
	r = bootinfo_parse(&bi, 0x12345678, BASE, p2v);
	CHECK("a wrong magic is refused", r == -1 && log_has("not started by a multiboot loader"),
	      "returned %d, log '%s'", r, unit_log);
}

struct mb1 {
	uint32_t flags, mem_lower, mem_upper, boot_device, cmdline, mods_count, mods_addr;
	uint32_t syms[4], mmap_length, mmap_addr;
	uint32_t rest[16];
};

static void test_mb1(void)
{
	struct bootinfo bi;
	struct mb1 *mi;
	uint8_t *mm;
	uint32_t *mods;
	char *cmd, *modstr;
	int r;

	memset(mem, 0, sizeof(mem));
	mi = (struct mb1 *)mem;
	cmd = (char *)mem + 0x400;
	modstr = (char *)mem + 0x500;
	mm = mem + 0x600;
	mods = (uint32_t *)(mem + 0x800);
	strcpy(cmd, "/path/to/smapos.elf  console=serial job=a");
	strcpy(modstr, "/build/user/a");
	/* two entries, each preceded by its size (20) */
	uint32_t sz = 20, t1 = 1, t2 = 2;
	uint64_t b1 = 0, l1 = 0x9FC00, b2 = 0xF0000, l2 = 0x10000;

	memcpy(mm, &sz, 4);
	memcpy(mm + 4, &b1, 8);
	memcpy(mm + 12, &l1, 8);
	memcpy(mm + 20, &t1, 4);
	memcpy(mm + 24, &sz, 4);
	memcpy(mm + 28, &b2, 8);
	memcpy(mm + 36, &l2, 8);
	memcpy(mm + 44, &t2, 4);
	mods[0] = 0x300000;
	mods[1] = 0x301000;
	mods[2] = (uint32_t)v2p(modstr);
	mi->flags = 1 << 2 | 1 << 3 | 1 << 6;
	mi->cmdline = (uint32_t)v2p(cmd);
	mi->mods_count = 1;
	mi->mods_addr = (uint32_t)v2p(mods);
	mi->mmap_length = 48;
	mi->mmap_addr = (uint32_t)v2p(mm);
	log_clear();
	r = bootinfo_parse(&bi, MB1_BOOT_MAGIC, BASE, p2v);
	CHECK("mb1: QEMU's structure parses", r == 0, "returned %d: %s", r, unit_log);
	CHECK("mb1: the kernel's own path is dropped from the command line",
	      !strcmp(bi.cmdline, "console=serial job=a"), "'%s'", bi.cmdline);
	CHECK("mb1: memory map entries", bi.nmem == 2 && bi.mem[0].len == 0x9FC00 &&
	      bi.mem[1].type == MEM_RESERVED, "%u entries", bi.nmem);
	CHECK("mb1: the module", bi.nmods == 1 && bi.mods[0].start == 0x300000 &&
	      !strcmp(bi.mods[0].cmdline, "/build/user/a"), "%u modules", bi.nmods);

	mi->mmap_length = 47;
	log_clear();
	r = bootinfo_parse(&bi, MB1_BOOT_MAGIC, BASE, p2v);
	CHECK("mb1: a memory map cut inside an entry is refused", r == -1 && log_has("malformed"),
	      "returned %d, log '%s'", r, unit_log);
	mi->flags = 1;
	mi->mem_lower = 639;
	mi->mem_upper = 1024 * 1023;
	r = bootinfo_parse(&bi, MB1_BOOT_MAGIC, BASE, p2v);
	CHECK("mb1: without a map, mem_lower/mem_upper describe memory", r == 0 && bi.nmem == 2 &&
	      bi.mem[1].base == 0x100000 && bi.mem[1].len == 1023ul << 20, "%u entries", bi.nmem);
	CHECK("mb1: without a command line it is empty, not NULL", bi.cmdline && !*bi.cmdline,
	      "'%s'", bi.cmdline);
}

int main(void)
{
	test_mb2_full();
	test_mb2_broken();
	test_mb1();
	return unit_failed;
}
