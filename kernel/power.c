/*
 * power.c - the end of a boot.  The last console line is always
 * "smapos: exit status N" (tools read it); then, with exit=poweroff, the
 * status goes to QEMU's debug-exit port and ACPI S5 follows for real
 * machines; exit=halt stops the CPUs; exit=reboot resets.
 */
#include <string.h>
#include <arch/arch.h>
#include <arch/cpu.h>
#include "smapos_abi.h"
#include "acpi.h"
#include "cpu.h"
#include "errno.h"
#include "param.h"
#include "power.h"
#include "printk.h"

enum exit_mode { EXIT_POWEROFF, EXIT_HALT, EXIT_REBOOT };
static enum exit_mode exit_mode;

static int set_exit(const char *v)
{
	if (!strcmp(v, "poweroff"))
		exit_mode = EXIT_POWEROFF;
	else if (!strcmp(v, "halt"))
		exit_mode = EXIT_HALT;
	else if (!strcmp(v, "reboot"))
		exit_mode = EXIT_REBOOT;
	else
		return -EINVAL;
	return 0;
}
KPARAM(exit, PARAM_FUNC, set_exit, "what to do after the last job: poweroff (default), halt or reboot");

static void stop_other_cpus(void)
{
	struct cpu *me = this_cpu();

	for (unsigned i = 0; i < ncpus; i++)
		if (cpus[i] != me && cpus[i]->online)
			apic_send_ipi(cpus[i]->arch.apic_id, IPI_STOP);
}

_Noreturn void power_end(int status)
{
	irq_disable();
	stop_other_cpus();
	pr_err("smapos: exit status %d\n", status);
	switch (exit_mode) {
	case EXIT_REBOOT:
		arch_reboot();
	case EXIT_HALT:
		arch_halt();
	case EXIT_POWEROFF:
		break;
	}
	arch_debug_exit((unsigned)status);
	acpi_poweroff();
	pr_err("smapos: power-off failed; halted\n");
	arch_halt();
}

static _Noreturn void vpanic(int trace, const char *fmt, va_list ap)
{
	static volatile int panicking;

	irq_disable();
	if (__atomic_exchange_n(&panicking, 1, __ATOMIC_SEQ_CST))
		arch_halt();	/* a second CPU panicking: the first reports */
	stop_other_cpus();
	printk(LOG_ERR, "smapos: panic: ");
	vprintk(LOG_ERR, fmt, ap);
	printk(LOG_ERR, "\n");
	if (trace)
		arch_backtrace((uint64_t)__builtin_frame_address(0),
			       (uint64_t)__builtin_return_address(0), 0, 16);
	power_end(SMAPOS_EXIT_PANIC);
}

_Noreturn void panic(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vpanic(1, fmt, ap);
}

_Noreturn void panic_reported(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vpanic(0, fmt, ap);
}
