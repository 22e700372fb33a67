/*
 * e1000.c - Intel 8254x/82574 ("e1000", "e1000e") Ethernet: QEMU's
 * -device e1000 (82540EM) and -device e1000e (82574L), and the real chips.
 *
 * Also the 82544GC and 82545EM (QEMU's e1000-82544gc and e1000-82545em,
 * VMware's default NIC): the same registers for all this driver uses.
 *
 * Legacy descriptors, polled: the network engine's CPU is the only user
 * of the data path and takes no interrupts (IMC masks all).  Receive
 * buffers are 16 KiB with long packets enabled; the largest frame is the
 * chip's (16128 bytes with the FCS on the 8254x, 9018 on the 82574L,
 * what Linux's e1000 and Intel's datasheets give; QEMU takes up to
 * 16384), nic_max_frame without the FCS.  What the wire between the
 * nodes carries is another matter: the kernel's net_mtu (knet.c).
 * Transmit takes a copied head and a payload the NIC reads by DMA from
 * rank memory, which is physically contiguous: no bounce buffer.
 */
#include <errno.h>
#include <string.h>
#include <arch/memlayout.h>
#include <arch/paging.h>
#include "kmem.h"
#include "nic.h"
#include "pci.h"
#include "printk.h"
#include "time.h"

#define REG_CTRL	0x0000
#define REG_STATUS	0x0008
#define REG_EECD	0x0010
#define REG_IMC		0x00d8
#define REG_RCTL	0x0100
#define REG_TCTL	0x0400
#define REG_TIPG	0x0410
#define REG_RDBAL	0x2800
#define REG_RDBAH	0x2804
#define REG_RDLEN	0x2808
#define REG_RDH		0x2810
#define REG_RDT		0x2818
#define REG_TDBAL	0x3800
#define REG_TDBAH	0x3804
#define REG_TDLEN	0x3808
#define REG_TDH		0x3810
#define REG_TDT		0x3818
#define REG_MTA		0x5200
#define REG_RAL0	0x5400
#define REG_RAH0	0x5404

#define CTRL_ASDE	(1u << 5)
#define CTRL_SLU	(1u << 6)
#define CTRL_RST	(1u << 26)
#define STATUS_LU	(1u << 1)
#define EECD_AUTO_RD	(1u << 9)
#define RCTL_EN		(1u << 1)
#define RCTL_LPE	(1u << 5)
#define RCTL_BAM	(1u << 15)
#define RCTL_BSIZE_16K	(1u << 16 | 1u << 25)	/* BSIZE 01 with BSEX */
#define RCTL_SECRC	(1u << 26)
#define TCTL_EN		(1u << 1)
#define TCTL_PSP	(1u << 3)
#define TCTL_CT		(0x0fu << 4)
#define TCTL_COLD	(0x40u << 12)
#define TX_EOP		0x01
#define TX_IFCS		0x02
#define TX_RS		0x08
#define DESC_DD		0x01

#define NRX		64
#define NTX		256
#define RXBUF		16384u

struct rx_desc {
	uint64_t addr;
	uint16_t len;
	uint16_t csum;
	uint8_t status;
	uint8_t errors;
	uint16_t special;
};

struct tx_desc {
	uint64_t addr;
	uint16_t len;
	uint8_t cso;
	uint8_t cmd;
	uint8_t status;
	uint8_t css;
	uint16_t special;
};

static struct {
	volatile uint8_t *mmio;
	const char *model;
	uint32_t max_frame;
	uint8_t mac[6];
	struct rx_desc *rx;
	struct tx_desc *tx;
	uint8_t *rxbuf;
	uint8_t (*head)[NIC_HEAD_MAX];	/* copied heads, one per tx descriptor */
	unsigned rx_next;
	unsigned tx_tail, tx_clean;
} e;

static inline uint32_t rd(unsigned reg)
{
	return *(volatile uint32_t *)(e.mmio + reg);
}

static inline void wr(unsigned reg, uint32_t v)
{
	*(volatile uint32_t *)(e.mmio + reg) = v;
}

bool nic_present(void)
{
	return e.mmio != NULL;
}

const uint8_t *nic_mac(void)
{
	return e.mac;
}

bool nic_link_up(void)
{
	return e.mmio && (rd(REG_STATUS) & STATUS_LU);
}

uint32_t nic_max_frame(void)
{
	return e.max_frame;
}

/* nvm_done: the chip says when it has read its NVM (the MAC address
 * among it) after a reset, in EECD; the 8254x do not, and get the 5 ms
 * Linux's e1000 gives them. */
static int e1000_setup(const struct pci_dev *d, bool nvm_done)
{
	uint32_t ral, rah;
	uint64_t t;

	e.mmio = paging_map_phys(d->bar[0], d->bar_size[0], CACHE_UC);
	e.rx = kpage_alloc();
	e.tx = kpages_alloc(NTX * sizeof(struct tx_desc) / 4096);
	e.head = kpages_alloc(NTX * NIC_HEAD_MAX / 4096);
	e.rxbuf = kpages_alloc(NRX * RXBUF / 4096);
	if (!e.mmio || !e.rx || !e.tx || !e.head || !e.rxbuf) {
		e.mmio = NULL;
		return -ENOMEM;
	}
	pci_enable(d, true, false, true);
	wr(REG_IMC, ~0u);
	wr(REG_CTRL, rd(REG_CTRL) | CTRL_RST);
	for (t = 0; t < 1000 && (rd(REG_CTRL) & CTRL_RST); t++)
		udelay(10);
	if (nvm_done)
		for (t = 0; t < 1000 && !(rd(REG_EECD) & EECD_AUTO_RD); t++)
			udelay(10);
	else
		udelay(5000);
	wr(REG_IMC, ~0u);
	wr(REG_CTRL, rd(REG_CTRL) | CTRL_SLU | CTRL_ASDE);
	ral = rd(REG_RAL0);
	rah = rd(REG_RAH0);
	for (int i = 0; i < 4; i++)
		e.mac[i] = (uint8_t)(ral >> (8 * i));
	e.mac[4] = (uint8_t)rah;
	e.mac[5] = (uint8_t)(rah >> 8);
	if ((e.mac[0] & 1) || !(ral | (rah & 0xffff))) {
		e.mmio = NULL;
		return -ENODEV;		/* no address from the NVM: not a usable port */
	}
	wr(REG_RAH0, rah | 1u << 31);	/* address valid */
	for (unsigned i = 0; i < 128; i++)
		wr(REG_MTA + 4 * i, 0);

	for (unsigned i = 0; i < NRX; i++) {
		e.rx[i] = (struct rx_desc){ .addr = virt_to_phys(e.rxbuf + i * RXBUF) };
	}
	wr(REG_RDBAL, (uint32_t)virt_to_phys(e.rx));
	wr(REG_RDBAH, (uint32_t)(virt_to_phys(e.rx) >> 32));
	wr(REG_RDLEN, NRX * sizeof(struct rx_desc));
	wr(REG_RDH, 0);
	wr(REG_RDT, NRX - 1);
	e.rx_next = 0;
	wr(REG_RCTL, RCTL_EN | RCTL_LPE | RCTL_BAM | RCTL_BSIZE_16K | RCTL_SECRC);

	memset(e.tx, 0, NTX * sizeof(struct tx_desc));
	wr(REG_TDBAL, (uint32_t)virt_to_phys(e.tx));
	wr(REG_TDBAH, (uint32_t)(virt_to_phys(e.tx) >> 32));
	wr(REG_TDLEN, NTX * sizeof(struct tx_desc));
	wr(REG_TDH, 0);
	wr(REG_TDT, 0);
	e.tx_tail = e.tx_clean = 0;
	wr(REG_TIPG, 10 | 8 << 10 | 6 << 20);
	wr(REG_TCTL, TCTL_EN | TCTL_PSP | TCTL_CT | TCTL_COLD);
	return 0;
}

void nic_init(void)
{
	static const struct {
		uint16_t id;
		const char *model;
		uint32_t max_frame;
		bool nvm_done;
	} ids[] = {
		{ 0x100e, "82540EM (e1000)", 16128 - 4, false },
		{ 0x100f, "82545EM (e1000)", 16128 - 4, false },
		{ 0x100c, "82544GC (e1000)", 16128 - 4, false },
		{ 0x10d3, "82574L (e1000e)", 9018 - 4, true },
	};

	for (unsigned i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		const struct pci_dev *d = pci_find(0x8086, ids[i].id, 0);
		int r;

		if (!d)
			continue;
		if (d->bar_io[0] || !d->bar_size[0]) {
			pr_err("nic: %s at %02x:%02x.%x has no memory BAR 0\n", ids[i].model, d->bus,
			       d->dev, d->fn);
			continue;
		}
		e.model = ids[i].model;
		e.max_frame = ids[i].max_frame;
		r = e1000_setup(d, ids[i].nvm_done);
		if (r) {
			pr_err("nic: %s at %02x:%02x.%x: %s: not used\n", e.model, d->bus, d->dev,
			       d->fn, r == -ENODEV ? "no valid MAC address in its NVM"
						  : "no memory for its rings");
			continue;
		}
		pr_info("nic: %s at %02x:%02x.%x, MAC %02x:%02x:%02x:%02x:%02x:%02x, link %s, "
			"frames up to %u bytes\n", e.model, d->bus, d->dev, d->fn, e.mac[0], e.mac[1],
			e.mac[2], e.mac[3], e.mac[4], e.mac[5], nic_link_up() ? "up" : "down (for now)",
			e.max_frame);
		return;
	}
	pr_info("nic: none (jobs of several nodes need an Intel e1000/e1000e)\n");
}

/* Descriptors the NIC is done with go back to the ring. */
static void tx_reclaim(void)
{
	while (e.tx_clean != e.tx_tail) {
		struct tx_desc *t = &e.tx[e.tx_clean];

		if ((t->cmd & TX_RS) && !(__atomic_load_n(&t->status, __ATOMIC_ACQUIRE) & DESC_DD))
			break;
		e.tx_clean = (e.tx_clean + 1) % NTX;
	}
}

int nic_tx(const void *head, uint32_t hlen, const void *payload, uint32_t plen)
{
	unsigned need = plen ? 2 : 1, used;
	struct tx_desc *t;

	if (!e.mmio || hlen > NIC_HEAD_MAX || hlen + plen > e.max_frame)
		return -EINVAL;
	tx_reclaim();
	used = (e.tx_tail + NTX - e.tx_clean) % NTX;
	if (used + need >= NTX)
		return -EAGAIN;
	memcpy(e.head[e.tx_tail], head, hlen);
	t = &e.tx[e.tx_tail];
	*t = (struct tx_desc){ .addr = virt_to_phys(e.head[e.tx_tail]), .len = (uint16_t)hlen,
			       .cmd = plen ? TX_IFCS : TX_EOP | TX_IFCS | TX_RS };
	e.tx_tail = (e.tx_tail + 1) % NTX;
	if (plen) {
		t = &e.tx[e.tx_tail];
		*t = (struct tx_desc){ .addr = virt_to_phys(payload), .len = (uint16_t)plen,
				       .cmd = TX_EOP | TX_IFCS | TX_RS };
		e.tx_tail = (e.tx_tail + 1) % NTX;
	}
	__atomic_thread_fence(__ATOMIC_RELEASE);
	wr(REG_TDT, e.tx_tail);
	return 0;
}

const void *nic_rx(uint32_t *len)
{
	struct rx_desc *r;

	if (!e.mmio)
		return NULL;
	r = &e.rx[e.rx_next];
	if (!(__atomic_load_n(&r->status, __ATOMIC_ACQUIRE) & DESC_DD))
		return NULL;
	/* A frame larger than a buffer spans several: not one of ours. */
	if (!(r->status & 0x02) || r->errors) {
		nic_rx_release();
		return nic_rx(len);
	}
	*len = r->len;
	return e.rxbuf + e.rx_next * RXBUF;
}

void nic_rx_release(void)
{
	struct rx_desc *r = &e.rx[e.rx_next];

	r->status = 0;
	__atomic_thread_fence(__ATOMIC_RELEASE);
	wr(REG_RDT, e.rx_next);
	e.rx_next = (e.rx_next + 1) % NRX;
}
