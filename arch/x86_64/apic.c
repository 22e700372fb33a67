/*
 * apic.c - the local APIC: identification, IPIs and the one-shot timer.
 *
 * x2APIC (MSR access) is used whenever the CPU has it: firmware may have
 * left it on (and it cannot be turned back to xAPIC without a reset of the
 * APIC), APIC ids above 254 need it, and each IPI is a single MSR write.
 * No interrupt remapping is needed for ids above 255: no device interrupt
 * is ever routed, only IPIs.  Otherwise xAPIC through its MMIO page.  The
 * LAPIC timer is only ever armed by a rank that sleeps: no periodic tick.
 */
#include <arch/arch.h>
#include <arch/cpu.h>
#include <arch/io.h>
#include <arch/memlayout.h>
#include <arch/paging.h>
#include "acpi.h"
#include "apic.h"
#include "printk.h"
#include "time.h"

#define APIC_BASE_ENABLE	(1ul << 11)
#define APIC_BASE_X2APIC	(1ul << 10)

/* Register offsets (xAPIC MMIO); x2APIC MSR = 0x800 + offset / 16. */
enum {
	REG_ID = 0x20,
	REG_TPR = 0x80,
	REG_EOI = 0xB0,
	REG_SVR = 0xF0,
	REG_ESR = 0x280,
	REG_ICR_LO = 0x300,
	REG_ICR_HI = 0x310,
	REG_LVT_TIMER = 0x320,
	REG_LVT_PERF = 0x340,
	REG_LVT_LINT0 = 0x350,
	REG_LVT_LINT1 = 0x360,
	REG_LVT_ERROR = 0x370,
	REG_TIMER_INIT = 0x380,
	REG_TIMER_CUR = 0x390,
	REG_TIMER_DIV = 0x3E0,
};

#define LVT_MASKED		(1u << 16)
#define LVT_TSC_DEADLINE	(2u << 17)
#define ICR_INIT		(5u << 8)
#define ICR_STARTUP		(6u << 8)
#define ICR_NMI			(4u << 8)
#define ICR_ASSERT		(1u << 14)
#define ICR_PENDING		(1u << 12)

static volatile uint32_t *mmio;
static enum apic_mode mode;
static int tsc_deadline;
static uint64_t timer_hz;	/* LAPIC timer ticks per second, divide by 16 */

static uint32_t rd(unsigned reg)
{
	if (mode == APIC_X2APIC)
		return (uint32_t)rdmsr(0x800 + reg / 16);
	return mmio[reg / 4];
}

static void wr(unsigned reg, uint32_t v)
{
	if (mode == APIC_X2APIC)
		wrmsr(0x800 + reg / 16, v);
	else
		mmio[reg / 4] = v;
}

int apic_x2apic(void)
{
	return mode == APIC_X2APIC;
}

int apic_can_reach(uint32_t id)
{
	return apic_reachable(mode, id);
}

uint32_t apic_id(void)
{
	return mode == APIC_X2APIC ? rd(REG_ID) : rd(REG_ID) >> 24;
}

void apic_eoi(void)
{
	wr(REG_EOI, 0);
}

static void icr_send(uint32_t dest, uint32_t lo)
{
	if (mode == APIC_X2APIC) {
		wrmsr(0x830, ((uint64_t)dest << 32) | lo);
		return;
	}
	uint64_t f = irq_save();

	mmio[REG_ICR_HI / 4] = dest << 24;
	mmio[REG_ICR_LO / 4] = lo;
	while (mmio[REG_ICR_LO / 4] & ICR_PENDING)
		cpu_relax();
	irq_restore(f);
}

void apic_send_ipi(uint32_t dest, enum ipi_kind kind)
{
	switch (kind) {
	case IPI_WAKE:
		icr_send(dest, VEC_IPI_WAKE | ICR_ASSERT);
		break;
	case IPI_KILL:
		icr_send(dest, VEC_IPI_KILL | ICR_ASSERT);
		break;
	case IPI_STOP:
		icr_send(dest, ICR_NMI | ICR_ASSERT);
		break;
	}
}

void apic_send_init(uint32_t dest)
{
	icr_send(dest, ICR_INIT | ICR_ASSERT);
}

void apic_send_sipi(uint32_t dest, uint8_t page)
{
	icr_send(dest, ICR_STARTUP | ICR_ASSERT | page);
}

/* The legacy 8259s: remapped clear of the exception vectors, then masked. */
static void pic_disable(void)
{
	outb(0x20, 0x11);
	outb(0xA0, 0x11);
	outb(0x21, 0x20);
	outb(0xA1, 0x28);
	outb(0x21, 4);
	outb(0xA1, 2);
	outb(0x21, 1);
	outb(0xA1, 1);
	outb(0x21, 0xFF);
	outb(0xA1, 0xFF);
}

/* Firmware may leave I/O APIC pins unmasked; nothing here wants device
 * interrupts, so mask every redirection entry. */
static void ioapic_mask_all(void)
{
	for (unsigned i = 0; i < acpi.nioapics; i++) {
		volatile uint32_t *io = paging_map_phys(acpi.ioapic_addr[i], 0x20, CACHE_UC);

		if (!io)
			continue;
		io[0] = 1;
		unsigned pins = ((io[4] >> 16) & 0xFF) + 1;

		for (unsigned p = 0; p < pins; p++) {
			io[0] = 0x10 + 2 * p;
			io[4] = io[4] | LVT_MASKED;
		}
	}
}

static void apic_local_setup(void)
{
	uint64_t base = rdmsr(MSR_APIC_BASE) | APIC_BASE_ENABLE;

	if (mode == APIC_X2APIC)
		base |= APIC_BASE_X2APIC;
	wrmsr(MSR_APIC_BASE, base);
	wr(REG_TPR, 0);
	wr(REG_LVT_TIMER, LVT_MASKED);
	wr(REG_LVT_PERF, LVT_MASKED);
	wr(REG_LVT_LINT0, LVT_MASKED);
	wr(REG_LVT_ERROR, LVT_MASKED);
	wr(REG_SVR, VEC_SPURIOUS | 0x100);
	wr(REG_ESR, 0);
	if (tsc_deadline)
		wr(REG_LVT_TIMER, VEC_TIMER | LVT_TSC_DEADLINE);
	else
		wr(REG_TIMER_DIV, 0x3);		/* divide by 16 */
}

/* LAPIC timer rate against the (already calibrated) TSC, over ~2 ms. */
static void timer_calibrate(void)
{
	uint64_t t0, t1, span = tsc_hz / 500;

	wr(REG_LVT_TIMER, LVT_MASKED);
	wr(REG_TIMER_INIT, 0xFFFFFFFF);
	t0 = rdtsc();
	while ((t1 = rdtsc()) - t0 < span)
		cpu_relax();
	uint32_t ticks = 0xFFFFFFFF - rd(REG_TIMER_CUR);

	wr(REG_TIMER_INIT, 0);
	timer_hz = (uint64_t)ticks * tsc_hz / (t1 - t0);
	wr(REG_LVT_TIMER, VEC_TIMER | LVT_MASKED);
}

void apic_init_bsp(void)
{
	uint32_t a, b, c, d;
	uint64_t base = rdmsr(MSR_APIC_BASE);

	cpuid(1, 0, &a, &b, &c, &d);
	mode = apic_choose_mode(!!(c & (1u << 21)), !!(base & APIC_BASE_X2APIC));
	tsc_deadline = !!(c & (1u << 24));
	if (mode == APIC_XAPIC) {
		mmio = paging_map_phys(acpi.lapic_addr ? acpi.lapic_addr : (base & ~0xFFFul),
				       PAGE_SIZE, CACHE_UC);
		if (!mmio)
			panic("apic: cannot map the local APIC");
	}
	if (acpi.pcat_compat)
		pic_disable();
	ioapic_mask_all();
	apic_local_setup();
	if (!tsc_deadline)
		timer_calibrate();
	pr_info("apic: %s%s, timer %s\n", mode == APIC_X2APIC ? "x2APIC" : "xAPIC",
		base & APIC_BASE_X2APIC ? " (left on by the firmware)" : "",
		tsc_deadline ? "TSC-deadline" : "one-shot");
}

void apic_init_ap(void)
{
	apic_local_setup();
}

void apic_timer_at(uint64_t deadline)
{
	if (tsc_deadline) {
		wrmsr(MSR_TSC_DEADLINE, deadline);
		return;
	}
	if (!deadline) {
		wr(REG_TIMER_INIT, 0);
		return;
	}
	uint64_t now = rdtsc();
	uint64_t ticks = deadline > now ? (deadline - now) * timer_hz / tsc_hz : 1;

	if (ticks == 0)
		ticks = 1;
	if (ticks > 0xFFFFFFFF)
		ticks = 0xFFFFFFFF;	/* wakes early; the sleeper re-arms */
	wr(REG_LVT_TIMER, VEC_TIMER);
	wr(REG_TIMER_INIT, (uint32_t)ticks);
}
