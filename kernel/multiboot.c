/*
 * multiboot.c - read the multiboot2 and multiboot1 information structures
 * into struct bootinfo.  Every length is checked against the structure's
 * own size: a loader bug gives an error message, not a wild read.
 */
#include <string.h>
#include "bootinfo.h"
#include "printk.h"

/* multiboot2 tag types */
enum {
	MB2_TAG_END = 0,
	MB2_TAG_CMDLINE = 1,
	MB2_TAG_LOADER = 2,
	MB2_TAG_MODULE = 3,
	MB2_TAG_MMAP = 6,
	MB2_TAG_FB = 8,
	MB2_TAG_ACPI_OLD = 14,
	MB2_TAG_ACPI_NEW = 15,
};

struct mb2_tag {
	uint32_t type;
	uint32_t size;
};

/* multiboot1 info flags */
enum {
	MB1_MEM = 1 << 0,
	MB1_CMDLINE = 1 << 2,
	MB1_MODS = 1 << 3,
	MB1_MMAP = 1 << 6,
	MB1_LOADER = 1 << 9,
	MB1_FB = 1 << 12,
};

struct mb1_info {
	uint32_t flags;
	uint32_t mem_lower, mem_upper;
	uint32_t boot_device;
	uint32_t cmdline;
	uint32_t mods_count, mods_addr;
	uint32_t syms[4];
	uint32_t mmap_length, mmap_addr;
	uint32_t drives_length, drives_addr;
	uint32_t config_table;
	uint32_t boot_loader_name;
	uint32_t apm_table;
	uint32_t vbe[4];
	uint64_t fb_addr;
	uint32_t fb_pitch, fb_width, fb_height;
	uint8_t fb_bpp, fb_type;
	uint8_t fb_color[6];
} __attribute__((packed));

struct mb1_module {
	uint32_t start, end, cmdline, pad;
};

static void add_mem(struct bootinfo *bi, uint64_t base, uint64_t len, uint32_t type)
{
	if (len == 0)
		return;
	if (bi->nmem == BOOT_MEM_MAX) {
		pr_warn("bootinfo: more than %d memory ranges, rest ignored\n", BOOT_MEM_MAX);
		return;
	}
	if (type < MEM_USABLE || type > MEM_BAD)
		type = MEM_RESERVED;
	bi->mem[bi->nmem++] = (struct mem_range){ base, len, type };
}

static int add_module(struct bootinfo *bi, uint64_t start, uint64_t end, const char *cmdline)
{
	if (end < start) {
		pr_err("bootinfo: module '%s' ends before it starts\n", cmdline);
		return -1;
	}
	/* Past the table the boot still works: a job naming a program that
	 * was left out fails on its own, with a line naming it. */
	if (bi->nmods == BOOT_MOD_MAX) {
		if (!bi->mods_dropped++)
			pr_err("bootinfo: more than %d modules: '%s' and the ones after it are ignored\n",
			       BOOT_MOD_MAX, cmdline);
		return 0;
	}
	bi->mods[bi->nmods++] = (struct boot_module){ start, end, cmdline };
	return 0;
}

/* A string the loader gave us must end inside its container. */
static const char *checked_str(const char *s, size_t max)
{
	return strnlen(s, max) < max ? s : NULL;
}

static int parse_mb2(struct bootinfo *bi, const uint8_t *info)
{
	uint32_t total = *(const uint32_t *)info;
	size_t off = 8;

	bi->info_len = total;
	if (total < 16 || total > (64u << 20)) {
		pr_err("bootinfo: multiboot2 structure of %u bytes is implausible\n", total);
		return -1;
	}
	while (off + sizeof(struct mb2_tag) <= total) {
		const struct mb2_tag *t = (const void *)(info + off);
		const uint8_t *body = (const uint8_t *)(t + 1);
		size_t blen;

		if (t->type == MB2_TAG_END)
			return 0;
		if (t->size < sizeof(*t) || t->size > total - off) {
			pr_err("bootinfo: multiboot2 tag %u at offset %zu has bad size %u\n",
			       t->type, off, t->size);
			return -1;
		}
		blen = t->size - sizeof(*t);

		switch (t->type) {
		case MB2_TAG_CMDLINE:
		case MB2_TAG_LOADER: {
			const char *s = checked_str((const char *)body, blen);

			if (!s) {
				pr_err("bootinfo: unterminated string in tag %u\n", t->type);
				return -1;
			}
			if (t->type == MB2_TAG_CMDLINE)
				bi->cmdline = s;
			else
				bi->loader_name = s;
			break;
		}
		case MB2_TAG_MODULE: {
			const uint32_t *m = (const uint32_t *)body;
			const char *s = blen > 8 ? checked_str((const char *)(m + 2), blen - 8) : NULL;

			if (!s) {
				pr_err("bootinfo: malformed module tag\n");
				return -1;
			}
			if (add_module(bi, m[0], m[1], s) < 0)
				return -1;
			break;
		}
		case MB2_TAG_MMAP: {
			const uint32_t *h = (const uint32_t *)body;
			uint32_t esize = blen >= 8 ? h[0] : 0;

			if (esize < 24) {
				pr_err("bootinfo: memory map entries of %u bytes\n", esize);
				return -1;
			}
			for (size_t e = 8; e + esize <= blen; e += esize) {
				const uint8_t *ent = body + e;
				uint64_t base, len;
				uint32_t type;

				memcpy(&base, ent, 8);
				memcpy(&len, ent + 8, 8);
				memcpy(&type, ent + 16, 4);
				add_mem(bi, base, len, type);
			}
			break;
		}
		case MB2_TAG_FB: {
			if (blen < 22)
				break;
			memcpy(&bi->fb.addr, body, 8);
			memcpy(&bi->fb.pitch, body + 8, 4);
			memcpy(&bi->fb.width, body + 12, 4);
			memcpy(&bi->fb.height, body + 16, 4);
			bi->fb.bpp = body[20];
			if (body[21] == 1 && blen >= 30) {
				bi->fb.kind = FB_RGB;
				bi->fb.red_pos = body[24];
				bi->fb.red_size = body[25];
				bi->fb.green_pos = body[26];
				bi->fb.green_size = body[27];
				bi->fb.blue_pos = body[28];
				bi->fb.blue_size = body[29];
			} else if (body[21] == 2) {
				bi->fb.kind = FB_TEXT;
			}
			break;
		}
		case MB2_TAG_ACPI_OLD:
		case MB2_TAG_ACPI_NEW:
			/* Prefer the ACPI 2.0+ RSDP (it carries the XSDT). */
			if (blen >= 20 && (!bi->rsdp || t->type == MB2_TAG_ACPI_NEW))
				bi->rsdp = body;
			break;
		}
		off += (t->size + 7) & ~7u;
	}
	pr_err("bootinfo: multiboot2 structure has no end tag\n");
	return -1;
}

static int parse_mb1(struct bootinfo *bi, const struct mb1_info *mi, void *(*p2v)(uint64_t))
{
	bi->info_len = sizeof(*mi);
	if (mi->flags & MB1_CMDLINE) {
		/* Multiboot 1 loaders (QEMU, GRUB's `multiboot`) put the kernel's
		 * own path first: the options start after it. */
		const char *s = p2v(mi->cmdline);

		while (*s && *s != ' ')
			s++;
		while (*s == ' ')
			s++;
		bi->cmdline = s;
	}
	if (mi->flags & MB1_LOADER)
		bi->loader_name = p2v(mi->boot_loader_name);
	if (mi->flags & MB1_MMAP) {
		const uint8_t *p = p2v(mi->mmap_addr);
		uint32_t off = 0;

		/* Each entry is preceded by its size, which excludes the size field. */
		while (off + 4 <= mi->mmap_length) {
			uint32_t size;
			uint64_t base, len;
			uint32_t type;

			memcpy(&size, p + off, 4);
			if (size < 20 || off + 4 + size > mi->mmap_length) {
				pr_err("bootinfo: malformed multiboot1 memory map\n");
				return -1;
			}
			memcpy(&base, p + off + 4, 8);
			memcpy(&len, p + off + 12, 8);
			memcpy(&type, p + off + 20, 4);
			add_mem(bi, base, len, type);
			off += size + 4;
		}
	} else if (mi->flags & MB1_MEM) {
		add_mem(bi, 0, (uint64_t)mi->mem_lower << 10, MEM_USABLE);
		add_mem(bi, 1 << 20, (uint64_t)mi->mem_upper << 10, MEM_USABLE);
	}
	if (mi->flags & MB1_MODS) {
		const struct mb1_module *m = p2v(mi->mods_addr);

		for (uint32_t i = 0; i < mi->mods_count; i++)
			if (add_module(bi, m[i].start, m[i].end,
				       m[i].cmdline ? p2v(m[i].cmdline) : "") < 0)
				return -1;
	}
	if ((mi->flags & MB1_FB) && mi->fb_type == 2) {
		bi->fb.kind = FB_TEXT;
		bi->fb.addr = mi->fb_addr;
		bi->fb.width = mi->fb_width;
		bi->fb.height = mi->fb_height;
	}
	return 0;
}

int bootinfo_parse(struct bootinfo *bi, uint32_t magic, uint64_t info_phys,
		   void *(*p2v)(uint64_t))
{
	int r;

	memset(bi, 0, sizeof(*bi));
	bi->info_phys = info_phys;
	if (magic == MB2_BOOT_MAGIC) {
		bi->loader = 2;
		r = parse_mb2(bi, p2v(info_phys));
	} else if (magic == MB1_BOOT_MAGIC) {
		bi->loader = 1;
		r = parse_mb1(bi, p2v(info_phys), p2v);
	} else {
		pr_err("bootinfo: not started by a multiboot loader (magic %#x)\n", magic);
		return -1;
	}
	if (!bi->cmdline)
		bi->cmdline = "";
	if (!bi->loader_name)
		bi->loader_name = "unknown";
	if (r == 0 && bi->nmem == 0) {
		pr_err("bootinfo: the loader gave no memory map\n");
		return -1;
	}
	return r;
}

void bootinfo_module_name(const struct boot_module *m, char *buf, size_t size)
{
	const char *s = m->cmdline, *start, *end;

	while (*s == ' ')
		s++;
	end = s;
	while (*end && *end != ' ')
		end++;
	start = end;
	while (start > s && start[-1] != '/')
		start--;
	size_t n = (size_t)(end - start);

	if (n >= size)
		n = size - 1;
	memcpy(buf, start, n);
	buf[n] = '\0';
}
