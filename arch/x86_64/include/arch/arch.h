/*
 * arch/arch.h - the hooks the portable kernel calls in arch/x86_64/.
 * Nothing else in kernel/ knows about x86 (beyond port I/O for ACPI
 * registers, arch/io.h).
 */
#ifndef ARCH_ARCH_H
#define ARCH_ARCH_H

#include <stdint.h>
#include <stddef.h>
#include <arch/trapframe.h>

struct cpu;
struct bootinfo;
struct proc;
struct ksigaction;

struct cpu_features {
	uint32_t max_leaf;
	uint32_t family, model;
	uint32_t leaf1_ecx, leaf1_edx, leaf7_ebx, ext_ecx, ext_edx;
	int xsave;
	uint64_t xcr0;
	uint32_t xsave_size;
};
extern struct cpu_features cpu_features;

/* cpu.c */
void arch_cpu_init(struct cpu *c, int bsp);
/* The CPU computes CRC-32C itself (SSE4.2): crc32c_hw may be used. */
int arch_has_crc32c(void);
int arch_cpu_set_ist(struct cpu *c, int ist, uint64_t top);
void arch_fpu_init_user(void);

/* entry.asm */
_Noreturn void arch_enter_user(struct trapframe *tf, void *tss_rsp0);

/* user.c: start the rank's user code at entry with stack pointer sp. */
_Noreturn void arch_user_start(struct cpu *c, uint64_t entry, uint64_t sp);
/* FS base for TLS (arch_prctl). */
int arch_set_fs(uint64_t base);
uint64_t arch_get_fs(void);
/* The five syscall argument registers and the return value. */
void arch_dump_user_regs(const struct trapframe *tf);

/* signal.c: enter the handler of sig from the system call or interrupt p
 * is returning from (its frame p->tf), with Linux's rt_sigframe on the user
 * stack holding `mask`, the signal mask to return to; 0 or -EFAULT.  And
 * leave it: restore the frame's registers into p->tf, give back the saved
 * signal mask and rax; 0 or -EFAULT. */
int arch_signal_frame(struct proc *p, unsigned sig, const struct ksigaction *act,
		      uint64_t mask);
int arch_signal_return(struct proc *p, uint64_t *mask, uint64_t *rax);

/* trap.c: print a stack trace from a frame pointer (kernel or user). */
void arch_backtrace(uint64_t rbp, uint64_t rip, int user, int max);
void arch_dump_regs(const struct trapframe *tf);

/* apic.c */
enum ipi_kind {
	IPI_WAKE,	/* leave hlt and look at the job state */
	IPI_KILL,	/* end the rank on that CPU now */
	IPI_STOP,	/* panic elsewhere: halt for good (NMI) */
};
void apic_init_bsp(void);
void apic_init_ap(void);
uint32_t apic_id(void);
void apic_send_ipi(uint32_t apic_id, enum ipi_kind kind);
void apic_eoi(void);
/* One-shot wake-up at TSC value `deadline` (0 cancels). */
void apic_timer_at(uint64_t deadline);
int apic_x2apic(void);

/* smp.c: start every CPU listed by ACPI; returns how many are online. */
unsigned smp_boot(void);

/* tsc.c: measure the TSC rate (Hz); 0 if no method worked. */
uint64_t tsc_calibrate(void);
const char *tsc_method(void);

/* power.c */
void arch_debug_exit(unsigned status);
_Noreturn void arch_reboot(void);
_Noreturn void arch_halt(void);

/* random.c: a hardware random 64-bit value, or 0 with *ok = 0. */
uint64_t arch_random(int *ok);

/* rtc.c: wall-clock seconds since 1970 from the CMOS clock, 0 if none. */
uint64_t arch_rtc_seconds(void);

#endif
