; entry.asm - every way into and out of the kernel after boot: interrupt
; and exception stubs, the SYSCALL entry, the first entry into user mode,
; and kcontext save/resume.  All paths build the same struct trapframe
; (arch/trapframe.h); the C handlers see nothing else.

bits 64
default rel

%define CPU_KERNEL_RSP	8
%define CPU_USER_RSP	16
%define SEL_UDATA	0x23
%define SEL_UCODE	0x2B
%define VEC_SYSCALL	0x100
%define VEC_SYSCALL_EXACT	0x101
%define MSR_GS_BASE	0xC0000101

extern trap_dispatch, syscall_dispatch, syscall_bad_return
global isr_table, syscall_entry, arch_enter_user, kcontext_save, kcontext_resume

%macro PUSH_GPRS 0
	push rax
	push rbx
	push rcx
	push rdx
	push rsi
	push rdi
	push rbp
	push r8
	push r9
	push r10
	push r11
	push r12
	push r13
	push r14
	push r15
%endmacro

%macro POP_GPRS 0
	pop r15
	pop r14
	pop r13
	pop r12
	pop r11
	pop r10
	pop r9
	pop r8
	pop rbp
	pop rdi
	pop rsi
	pop rdx
	pop rcx
	pop rbx
	pop rax
%endmacro

section .text

; One stub per vector.  Exceptions that push an error code skip the dummy
; push; NMI, #DF and #MC take the paranoid path (they can arrive while GS
; is still the user's, e.g. on the first instruction of syscall_entry).
%macro ISR 1
isr_%1:
%if %1 = 8 || %1 = 10 || %1 = 11 || %1 = 12 || %1 = 13 || %1 = 14 || %1 = 17 || %1 = 21 || %1 = 29 || %1 = 30
%else
	push 0
%endif
	push %1
%if %1 = 2 || %1 = 8 || %1 = 18
	jmp trap_paranoid
%else
	jmp trap_common
%endif
%endmacro

%assign v 0
%rep 256
	ISR v
%assign v v + 1
%endrep

trap_common:
	test qword [rsp + 24], 3	; CS of the interrupted context
	jz .kernel
	swapgs
.kernel:
	PUSH_GPRS
	cld
	mov rdi, rsp
	call trap_dispatch
	cli
	test qword [rsp + 15 * 8 + 24], 3
	jnz return_to_user
	POP_GPRS
	add rsp, 16
	iretq

trap_paranoid:
	PUSH_GPRS
	cld
	; A kernel GS base is a kernel (negative) address; user code cannot
	; set one (FSGSBASE stays off and arch_prctl refuses such bases).
	mov ecx, MSR_GS_BASE
	rdmsr
	xor ebx, ebx
	test edx, edx
	js .gs_ok
	swapgs
	mov ebx, 1
.gs_ok:
	mov rdi, rsp
	call trap_dispatch
	test ebx, ebx
	jz .no_swap
	swapgs
.no_swap:
	POP_GPRS
	add rsp, 16
	iretq

; The frame on the stack is a user frame: restore it and leave.
return_to_user:
	POP_GPRS
	add rsp, 16
	swapgs
	iretq

; SYSCALL: rcx = user rip, r11 = user rflags, interrupts off (FMASK).
syscall_entry:
	swapgs
	mov [gs:CPU_USER_RSP], rsp
	mov rsp, [gs:CPU_KERNEL_RSP]
	push SEL_UDATA
	push qword [gs:CPU_USER_RSP]
	push r11
	push SEL_UCODE
	push rcx
	push 0
	push VEC_SYSCALL
	PUSH_GPRS
	mov rdi, rsp
	sti
	call syscall_dispatch
	cli
	; SYSRET to a non-canonical rip would fault in ring 0 with the user's
	; stack: never let one through.
	mov rcx, [rsp + 17 * 8]		; rip
	mov rax, rcx
	sar rax, 47
	jz .canonical
	cmp rax, -1
	jne .bad_rip
.canonical:
	cmp qword [rsp + 15 * 8], VEC_SYSCALL_EXACT
	je return_to_user
	POP_GPRS
	add rsp, 16
	pop rcx				; rip
	add rsp, 8			; cs
	pop r11				; rflags
	pop rsp				; user rsp (ss is implied)
	swapgs
	o64 sysret
.bad_rip:
	mov rdi, rsp
	sti
	call syscall_bad_return		; does not return

; void arch_enter_user(struct trapframe *tf, void *tss_rsp0): leave for
; user mode with tf.  The kernel stack for later entries (syscalls through
; %gs, interrupts through the TSS) starts just below our caller's frame,
; which must survive: kcontext_resume returns into it when the rank ends.
arch_enter_user:
	cli
	mov rax, rsp
	and rax, -16
	mov [gs:CPU_KERNEL_RSP], rax
	mov [rsi], rax
	mov rsp, rdi
	jmp return_to_user

; int kcontext_save(struct kcontext *c)
kcontext_save:
	mov [rdi + 0], rbx
	mov [rdi + 8], rbp
	mov [rdi + 16], r12
	mov [rdi + 24], r13
	mov [rdi + 32], r14
	mov [rdi + 40], r15
	lea rax, [rsp + 8]
	mov [rdi + 48], rax
	mov rax, [rsp]
	mov [rdi + 56], rax
	xor eax, eax
	ret

; void kcontext_resume(const struct kcontext *c)
kcontext_resume:
	mov rbx, [rdi + 0]
	mov rbp, [rdi + 8]
	mov r12, [rdi + 16]
	mov r13, [rdi + 24]
	mov r14, [rdi + 32]
	mov r15, [rdi + 40]
	mov rsp, [rdi + 48]
	mov eax, 1
	jmp [rdi + 56]

section .rodata
isr_table:
%assign v 0
%rep 256
	dq isr_ %+ v
%assign v v + 1
%endrep

section .note.GNU-stack noalloc noexec nowrite progbits
