/*
 * pci.c - PCI configuration space through configuration mechanism #1
 * (ports 0xCF8/0xCFC), which every PC chipset and QEMU's i440FX and Q35
 * provide; ECAM would reach extended space, which nothing here needs.
 */
#include <arch/io.h>
#include "pci.h"

#define PCI_ADDR	0xcf8
#define PCI_DATA	0xcfc

static uint32_t pci_addr(unsigned bus, unsigned dev, unsigned fn, unsigned off)
{
	return 0x80000000u | bus << 16 | dev << 11 | fn << 8 | (off & 0xfc);
}

uint32_t arch_pci_read32(unsigned bus, unsigned dev, unsigned fn, unsigned off)
{
	outl(PCI_ADDR, pci_addr(bus, dev, fn, off));
	return inl(PCI_DATA);
}

void arch_pci_write32(unsigned bus, unsigned dev, unsigned fn, unsigned off, uint32_t v)
{
	outl(PCI_ADDR, pci_addr(bus, dev, fn, off));
	outl(PCI_DATA, v);
}
