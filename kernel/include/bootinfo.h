/*
 * bootinfo.h - what the boot loader told us, in one loader-independent
 * form.  multiboot.c fills it from multiboot2 (GRUB, BIOS or UEFI) or
 * multiboot1 (QEMU -kernel).  Pure logic, unit-tested on the host.
 */
#ifndef BOOTINFO_H
#define BOOTINFO_H

#include <stddef.h>
#include <stdint.h>

#define MB1_BOOT_MAGIC	0x2BADB002
#define MB2_BOOT_MAGIC	0x36D76289

#define BOOT_MEM_MAX	128
#define BOOT_MOD_MAX	64

enum mem_type {
	MEM_USABLE = 1,
	MEM_RESERVED = 2,
	MEM_ACPI_RECLAIM = 3,
	MEM_ACPI_NVS = 4,
	MEM_BAD = 5,
};

struct mem_range {
	uint64_t base;
	uint64_t len;
	uint32_t type;
};

struct boot_module {
	uint64_t start;		/* physical, inclusive */
	uint64_t end;		/* physical, exclusive */
	const char *cmdline;	/* as given to the loader; name = basename of word 1 */
};

enum fb_kind {
	FB_NONE = 0,
	FB_RGB = 1,		/* linear framebuffer (UEFI GOP, VBE) */
	FB_TEXT = 2,		/* EGA/VGA text mode at addr */
};

struct boot_fb {
	enum fb_kind kind;
	uint64_t addr;		/* physical */
	uint32_t pitch, width, height;
	uint8_t bpp;
	uint8_t red_pos, red_size, green_pos, green_size, blue_pos, blue_size;
};

struct bootinfo {
	int loader;			/* 1 or 2: multiboot version */
	const char *cmdline;		/* never NULL */
	const char *loader_name;	/* never NULL */
	unsigned nmem;
	struct mem_range mem[BOOT_MEM_MAX];
	unsigned nmods;
	unsigned mods_dropped;		/* past BOOT_MOD_MAX: ignored */
	struct boot_module mods[BOOT_MOD_MAX];
	const void *rsdp;		/* copy of the ACPI RSDP, or NULL */
	uint64_t rsdp_phys;		/* where the loader found it, if known */
	struct boot_fb fb;
	uint64_t info_phys, info_len;	/* the loader's structure, to keep reserved */
};

/*
 * Parse the loader's structure at physical `info_phys`; `p2v` turns a
 * physical address into a pointer we can read.  Returns 0, or -1 after
 * printing what is wrong.
 */
int bootinfo_parse(struct bootinfo *bi, uint32_t magic, uint64_t info_phys,
		   void *(*p2v)(uint64_t phys));

/* The name a module is known by: basename of the first word of its
 * command line, copied into buf. */
void bootinfo_module_name(const struct boot_module *m, char *buf, size_t size);

#endif
