/*
 * pci.c - PCI enumeration at boot: every function of every device on every
 * bus, with its class and BARs (sized the usual way: write all ones, read
 * back the mask, restore).  Drivers then find their device by id.
 */
#include <stddef.h>
#include "pci.h"
#include "printk.h"

#define PCI_CMD		0x04
#define PCI_CMD_IO	0x1
#define PCI_CMD_MEM	0x2
#define PCI_CMD_MASTER	0x4

static struct pci_dev pci_devs[PCI_MAX_DEVICES];
static unsigned pci_ndevs;

uint32_t pci_read32(const struct pci_dev *d, unsigned off)
{
	return arch_pci_read32(d->bus, d->dev, d->fn, off);
}

void pci_write32(const struct pci_dev *d, unsigned off, uint32_t v)
{
	arch_pci_write32(d->bus, d->dev, d->fn, off, v);
}

void pci_enable(const struct pci_dev *d, bool mem, bool io, bool busmaster)
{
	uint32_t cmd = pci_read32(d, PCI_CMD);

	cmd |= (mem ? PCI_CMD_MEM : 0) | (io ? PCI_CMD_IO : 0) | (busmaster ? PCI_CMD_MASTER : 0);
	pci_write32(d, PCI_CMD, cmd);
}

static void pci_bars(struct pci_dev *d)
{
	uint32_t cmd = pci_read32(d, PCI_CMD);

	/* No decoding while the BARs hold all ones. */
	pci_write32(d, PCI_CMD, cmd & ~(uint32_t)(PCI_CMD_IO | PCI_CMD_MEM));
	for (unsigned i = 0; i < 6; i++) {
		unsigned off = 0x10 + 4 * i;
		uint32_t lo = pci_read32(d, off), mask;
		uint64_t base, size;

		pci_write32(d, off, ~0u);
		mask = pci_read32(d, off);
		pci_write32(d, off, lo);
		if (!mask || mask == ~0u)
			continue;
		if (lo & 1) {
			d->bar_io[i] = true;
			d->bar[i] = lo & ~3u;
			d->bar_size[i] = (uint16_t)~(mask & ~3u) + 1u;
			continue;
		}
		base = lo & ~0xfu;
		size = ~(uint64_t)(mask & ~0xfu) + 1;
		if ((lo & 6) == 4 && i < 5) {	/* 64-bit: the next BAR is the high half */
			uint32_t hi = pci_read32(d, off + 4), hmask;

			pci_write32(d, off + 4, ~0u);
			hmask = pci_read32(d, off + 4);
			pci_write32(d, off + 4, hi);
			base |= (uint64_t)hi << 32;
			size = ~((uint64_t)hmask << 32 | (mask & ~0xfu)) + 1;
			d->bar[i] = base;
			d->bar_size[i] = size;
			i++;
			continue;
		}
		d->bar[i] = base;
		d->bar_size[i] = size & 0xffffffffu;
	}
	pci_write32(d, PCI_CMD, cmd);
}

static void pci_probe(unsigned bus, unsigned dev, unsigned fn)
{
	uint32_t id = arch_pci_read32(bus, dev, fn, 0), cls;
	struct pci_dev *d;

	if ((id & 0xffff) == 0xffff || pci_ndevs == PCI_MAX_DEVICES)
		return;
	d = &pci_devs[pci_ndevs++];
	d->bus = (uint8_t)bus;
	d->dev = (uint8_t)dev;
	d->fn = (uint8_t)fn;
	d->vendor = (uint16_t)id;
	d->device = (uint16_t)(id >> 16);
	cls = pci_read32(d, 0x08);
	d->class_code = (uint8_t)(cls >> 24);
	d->subclass = (uint8_t)(cls >> 16);
	d->prog_if = (uint8_t)(cls >> 8);
	d->irq_line = (uint8_t)pci_read32(d, 0x3c);
	if (((pci_read32(d, 0x0c) >> 16) & 0x7f) == 0)	/* header type 0: BARs */
		pci_bars(d);
}

void pci_init(void)
{
	for (unsigned bus = 0; bus < 256; bus++)
		for (unsigned dev = 0; dev < 32; dev++) {
			uint32_t id = arch_pci_read32(bus, dev, 0, 0);
			unsigned nfn = 1;

			if ((id & 0xffff) == 0xffff)
				continue;
			if (arch_pci_read32(bus, dev, 0, 0x0c) & 0x800000)
				nfn = 8;	/* multi-function */
			for (unsigned fn = 0; fn < nfn; fn++)
				pci_probe(bus, dev, fn);
		}
	pr_info("pci: %u function%s", pci_ndevs, pci_ndevs == 1 ? "" : "s");
	for (unsigned i = 0; i < pci_ndevs; i++) {
		const struct pci_dev *d = &pci_devs[i];

		pr_info("%s %02x:%02x.%x %04x:%04x", i ? "," : ":", d->bus, d->dev, d->fn,
			d->vendor, d->device);
	}
	pr_info("\n");
}

const struct pci_dev *pci_find(uint16_t vendor, uint16_t device, unsigned index)
{
	for (unsigned i = 0; i < pci_ndevs; i++)
		if (pci_devs[i].vendor == vendor && pci_devs[i].device == device && index-- == 0)
			return &pci_devs[i];
	return NULL;
}
