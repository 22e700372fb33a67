/* power.c - the machine's end: QEMU's debug-exit port, reset, halt. */
#include <arch/arch.h>
#include <arch/cpu.h>
#include <arch/io.h>
#include "acpi.h"
#include "param.h"
#include "time.h"

static uint64_t debug_exit_port = 0xF4;
KPARAM(debug_exit, PARAM_UINT, &debug_exit_port,
       "I/O port of QEMU's isa-debug-exit device, written with the final status (0 disables); default 0xf4");

/* QEMU exits with 2*status+1; on hardware the port is unused and the
 * write goes nowhere, and the caller carries on with ACPI. */
void arch_debug_exit(unsigned status)
{
	if (debug_exit_port)
		outb((uint16_t)debug_exit_port, (uint8_t)status);
}

_Noreturn void arch_reboot(void)
{
	struct { uint16_t limit; uint64_t base; } __attribute__((packed)) null_idt = { 0, 0 };

	acpi_reset();
	outb(0xCF9, 0x02);		/* PCI reset control: hard reset */
	outb(0xCF9, 0x06);
	udelay(50000);
	for (int i = 0; i < 1000 && (inb(0x64) & 0x02); i++)
		udelay(10);
	outb(0x64, 0xFE);		/* 8042 pulse reset line */
	udelay(50000);
	/* Last resort: a triple fault. */
	__asm__ volatile("lidt %0; int3" : : "m"(null_idt));
	for (;;)
		__asm__ volatile("cli; hlt");
}

_Noreturn void arch_halt(void)
{
	for (;;)
		__asm__ volatile("cli; hlt");
}
