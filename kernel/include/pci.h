/*
 * pci.h - PCI devices found at boot (kernel/pci.c), configuration space
 * through the arch's access method (arch/x86_64/pci.c: mechanism #1).
 */
#ifndef PCI_H
#define PCI_H

#include <stdbool.h>
#include <stdint.h>

#define PCI_MAX_DEVICES	64

struct pci_dev {
	uint8_t bus, dev, fn;
	uint16_t vendor, device;
	uint8_t class_code, subclass, prog_if, irq_line;
	uint64_t bar[6];	/* base address (memory or port) */
	uint64_t bar_size[6];	/* 0: not implemented */
	bool bar_io[6];
};

/* Enumerate every bus at boot (before the APs start); logs the devices. */
void pci_init(void);
/* The index-th device with this vendor and device id, or NULL. */
const struct pci_dev *pci_find(uint16_t vendor, uint16_t device, unsigned index);
uint32_t pci_read32(const struct pci_dev *d, unsigned off);
void pci_write32(const struct pci_dev *d, unsigned off, uint32_t v);
/* Let the device decode its memory and/or port BARs, and master the bus. */
void pci_enable(const struct pci_dev *d, bool mem, bool io, bool busmaster);

/* arch: configuration space of (bus, dev, fn), 32-bit aligned offsets. */
uint32_t arch_pci_read32(unsigned bus, unsigned dev, unsigned fn, unsigned off);
void arch_pci_write32(unsigned bus, unsigned dev, unsigned fn, unsigned off, uint32_t v);

#endif
