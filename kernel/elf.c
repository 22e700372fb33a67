/*
 * elf.c - check a static executable before any memory is committed to it,
 * so that a bad module is a clear launch error, never a half-started job.
 */
#include <string.h>
#include "elf.h"

#define PT_LOAD		1
#define PT_DYNAMIC	2
#define PT_INTERP	3
#define PT_PHDR		6

#define FAIL(msg) do { *why = (msg); return -1; } while (0)

int elf_parse(const void *file, size_t size, struct elf_image *img, const char **why)
{
	const struct elf64_ehdr *eh = file;
	int has_dynamic = 0;

	memset(img, 0, sizeof(*img));
	if (size < sizeof(*eh) || memcmp(eh->ident, "\177ELF", 4))
		FAIL("not an ELF file");
	if (eh->ident[4] != 2)
		FAIL("not a 64-bit ELF file");
	if (eh->ident[5] != 1)
		FAIL("not little-endian");
	if (eh->machine != 62)
		FAIL("not an x86-64 executable");
	if (eh->type != 2 && eh->type != 3)
		FAIL("not an executable (relocatable object or core file)");
	if (eh->phentsize != sizeof(struct elf64_phdr))
		FAIL("unexpected program header size");
	if (eh->phnum == 0 || eh->phoff > size || eh->phnum > (size - eh->phoff) / sizeof(struct elf64_phdr))
		FAIL("truncated: program headers past the end of the file");

	const struct elf64_phdr *ph = (const void *)((const char *)file + eh->phoff);

	img->lo = UINT64_MAX;
	for (unsigned i = 0; i < eh->phnum; i++) {
		if (ph[i].type == PT_INTERP)
			FAIL("dynamically linked (has an interpreter): link with -static");
		if (ph[i].type == PT_DYNAMIC)
			has_dynamic = 1;
		if (ph[i].type == PT_PHDR)
			img->phdr_vaddr = ph[i].vaddr;
		if (ph[i].type != PT_LOAD || ph[i].memsz == 0)
			continue;
		if (img->nsegs == ELF_SEGS_MAX)
			FAIL("too many loadable segments");
		if (ph[i].filesz > ph[i].memsz)
			FAIL("segment file size larger than its memory size");
		if (ph[i].offset > size || ph[i].filesz > size - ph[i].offset)
			FAIL("truncated: segment data past the end of the file");
		if (ph[i].vaddr >= ELF_USER_LIMIT || ph[i].memsz > ELF_USER_LIMIT - ph[i].vaddr)
			FAIL("segment outside the first 512 GiB (PML4 slot 0)");

		struct elf_seg *s = &img->segs[img->nsegs++];

		s->vaddr = ph[i].vaddr;
		s->memsz = ph[i].memsz;
		s->filesz = ph[i].filesz;
		s->offset = ph[i].offset;
		s->prot = ((ph[i].flags & 4) ? SEG_R : 0) | ((ph[i].flags & 2) ? SEG_W : 0) |
			  ((ph[i].flags & 1) ? SEG_X : 0);
		if (s->vaddr < img->lo)
			img->lo = s->vaddr;
		if (s->vaddr + s->memsz > img->hi)
			img->hi = s->vaddr + s->memsz;
		/* The program headers are visible where a segment maps them. */
		if (!img->phdr_vaddr && eh->phoff >= s->offset &&
		    eh->phoff + eh->phnum * sizeof(struct elf64_phdr) <= s->offset + s->filesz)
			img->phdr_vaddr = s->vaddr + (eh->phoff - s->offset);
	}
	if (img->nsegs == 0)
		FAIL("no loadable segments");
	for (unsigned i = 0; i < img->nsegs; i++)
		for (unsigned j = i + 1; j < img->nsegs; j++) {
			const struct elf_seg *a = &img->segs[i], *b = &img->segs[j];

			if (a->vaddr < b->vaddr + b->memsz && b->vaddr < a->vaddr + a->memsz)
				FAIL("overlapping segments");
		}

	img->pie = eh->type == 3;
	if (img->pie) {
		if (!has_dynamic)
			FAIL("shared object without dynamic section: not a static PIE");
		img->bias = ELF_PIE_BASE - (img->lo & ~0x1FFFFFul);
		if (img->hi + img->bias > ELF_USER_LIMIT)
			FAIL("static PIE too large for PML4 slot 0");
		for (unsigned i = 0; i < img->nsegs; i++)
			img->segs[i].vaddr += img->bias;
		img->lo += img->bias;
		img->hi += img->bias;
		if (img->phdr_vaddr)
			img->phdr_vaddr += img->bias;
	}
	img->entry = eh->entry + img->bias;
	if (img->entry < img->lo || img->entry >= img->hi)
		FAIL("entry point outside the loaded segments");
	img->phnum = eh->phnum;
	img->phentsize = eh->phentsize;
	return 0;
}
