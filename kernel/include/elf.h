/*
 * elf.h - static x86-64 executables: validation and the layout the loader
 * needs.  ET_EXEC at its link address, or static PIE (ET_DYN without an
 * interpreter) placed at ELF_PIE_BASE.  Pure logic, unit-tested.
 */
#ifndef ELF_H
#define ELF_H

#include <stddef.h>
#include <stdint.h>

#define ELF_SEGS_MAX	16
#define ELF_PIE_BASE	0x400000ul
/* Everything must sit in PML4 slot 0 (the first 512 GiB). */
#define ELF_USER_LIMIT	(1ul << 39)

#define SEG_R		1u
#define SEG_W		2u
#define SEG_X		4u

/* The on-disk headers (ELF64). */
struct elf64_ehdr {
	unsigned char ident[16];
	uint16_t type, machine;
	uint32_t version;
	uint64_t entry, phoff, shoff;
	uint32_t flags;
	uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};

struct elf64_phdr {
	uint32_t type, flags;
	uint64_t offset, vaddr, paddr, filesz, memsz, align;
};

struct elf_seg {
	uint64_t vaddr;		/* after relocation for PIE */
	uint64_t memsz;
	uint64_t filesz;
	uint64_t offset;	/* in the file */
	unsigned prot;		/* SEG_* */
};

struct elf_image {
	int pie;
	uint64_t bias;		/* added to every vaddr (PIE) */
	uint64_t entry;
	uint64_t phdr_vaddr;	/* program headers in memory (AT_PHDR), or 0 */
	unsigned phnum, phentsize;
	uint64_t lo, hi;	/* lowest and highest byte the segments touch */
	unsigned nsegs;
	struct elf_seg segs[ELF_SEGS_MAX];
};

/* Validate `size` bytes at `file` as a loadable static executable.
 * Returns 0, or -1 and a short reason in *why. */
int elf_parse(const void *file, size_t size, struct elf_image *img, const char **why);

#endif
