; trampoline.asm - where an AP starts after INIT-SIPI-SIPI: real mode at
; TRAMP_BASE (a page below 1 MiB), to protected mode, to long mode on the
; boot page tables (identity-mapped low 4 GiB), then a jump into the kernel
; image (ap_long_entry), which does everything else.  Assembled as a flat
; binary; smp.c copies it to TRAMP_BASE and fills the parameter block.

TRAMP_BASE	equ 0x8000

bits 16
tramp_start:
	cli
	cld
	mov ax, cs
	mov ds, ax
	lgdt [gdt_ptr - tramp_start]
	mov eax, cr0
	or eax, 1
	mov cr0, eax
	jmp dword 0x08:(TRAMP_BASE + pm32 - tramp_start)

bits 32
pm32:
	mov ax, 0x10
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov eax, cr4
	or eax, 1 << 5				; PAE
	mov cr4, eax
	mov eax, [TRAMP_BASE + param_cr3 - tramp_start]
	mov cr3, eax
	mov ecx, 0xC0000080			; EFER: LME, and NXE when the BSP has it
	rdmsr
	or eax, 1 << 8
	or eax, [TRAMP_BASE + param_efer - tramp_start]
	wrmsr
	mov eax, cr0
	or eax, (1 << 31) | (1 << 16) | 1	; PG, WP, PE
	mov cr0, eax
	jmp 0x18:(TRAMP_BASE + lm64 - tramp_start)

bits 64
lm64:
	mov rax, [TRAMP_BASE + param_entry - tramp_start]
	jmp rax

align 8
gdt:
	dq 0
	dq 0x00CF9A000000FFFF			; 0x08 code 32
	dq 0x00CF92000000FFFF			; 0x10 data
	dq 0x00AF9A000000FFFF			; 0x18 code 64
gdt_ptr:
	dw gdt_ptr - gdt - 1
	dd TRAMP_BASE + gdt - tramp_start

; Parameter block at the end; smp.c writes it (offsets checked there).
align 8
param_cr3:	dd 0
param_efer:	dd 0
param_entry:	dq 0
tramp_end:
