; boot.asm - the first instructions: multiboot headers, the 32-bit entry
; from GRUB (multiboot2) or QEMU -kernel (multiboot1), early page tables,
; the switch to long mode and the jump into the kernel's higher half.
;
; The early tables map the first 1 GiB twice: identity (so the code that
; turns paging on keeps running) and at KERNEL_VMA in PML4 slot 511.  C code
; replaces them with the real kernel tables (paging.c) before anything else
; touches user space: PML4 slots 0..510 belong to user processes.

bits 32

KERNEL_VMA	equ 0xFFFFFFFF80000000

MB1_MAGIC	equ 0x1BADB002
MB1_FLAGS	equ 0x00010003	; page-align modules, memory info, address fields
MB2_MAGIC	equ 0xE85250D6

extern _load_start, _load_end, _bss_end
extern arch_boot, ap_main, ap_kernel_cr3, ap_boot_table, ap_boot_count
global _start32, boot_pml4, ap_long_entry, trampoline_blob, trampoline_blob_end

section .multiboot
align 8
; Multiboot 1 with the "a.out kludge" address fields: QEMU's -kernel refuses
; ELF64 images but loads any image described this way.  GRUB uses mb2.
mb1_header:
	dd MB1_MAGIC
	dd MB1_FLAGS
	dd -(MB1_MAGIC + MB1_FLAGS)
	dd mb1_header		; header_addr
	dd _load_start		; load_addr
	dd _load_end		; load_end_addr
	dd _bss_end		; bss_end_addr
	dd _start32		; entry_addr

align 8
mb2_header:
	dd MB2_MAGIC
	dd 0			; i386 protected mode
	dd mb2_end - mb2_header
	dd -(MB2_MAGIC + 0 + (mb2_end - mb2_header))
	; information request: mmap, cmdline, modules, ACPI, framebuffer
	align 8
	dw 1, 0
	dd 4 * 6 + 8
	dd 1			; command line
	dd 3			; modules
	dd 6			; memory map
	dd 8			; framebuffer
	dd 14			; ACPI old RSDP
	dd 15			; ACPI new RSDP
	; modules page aligned
	align 8
	dw 6, 0
	dd 8
	; framebuffer: any mode, optional.  Without this tag GRUB under UEFI
	; warns "no console will be available to OS"; BIOS boots keep text mode
	; (grub.cfg sets gfxpayload=text there).
	align 8
	dw 5, 1
	dd 20
	dd 0, 0, 0
	; end tag
	align 8
	dw 0, 0
	dd 8
mb2_end:

section .boot.text
; eax = loader magic, ebx = physical address of the boot information
_start32:
	cli
	cld
	mov esp, boot_stack_top - KERNEL_VMA
	mov esi, eax
	mov edi, ebx

	; Long mode is required; say so on COM1 rather than die silently.
	mov eax, 0x80000000
	cpuid
	cmp eax, 0x80000001
	jb .no_long_mode
	mov eax, 0x80000001
	cpuid
	test edx, 1 << 29
	jz .no_long_mode
	mov ebp, edx			; remember NX support (bit 20)

	; Zero and fill the early tables (in .bss, which loaders zero, but the
	; tables must be exact, so make sure).
	mov edx, boot_pml4 - KERNEL_VMA
	push edi
	mov edi, edx
	xor eax, eax
	mov ecx, BOOT_TABLES_SIZE / 4
	rep stosd
	pop edi

	mov eax, boot_pdpt_low - KERNEL_VMA
	or eax, 3
	mov [edx], eax				; PML4[0]: identity
	mov eax, boot_pdpt_high - KERNEL_VMA
	or eax, 3
	mov [edx + 511 * 8], eax		; PML4[511]: kernel
	; Four PDs map 0..4 GiB with 2 MiB pages, reached three ways: identity,
	; the direct map at the bottom of slot 511, and (first GiB only) the
	; kernel image window at -2 GiB.
	xor ecx, ecx
.fill_pdpt:
	mov eax, ecx
	shl eax, 12
	add eax, boot_pd - KERNEL_VMA
	or eax, 3
	mov [boot_pdpt_low - KERNEL_VMA + ecx * 8], eax
	mov [boot_pdpt_high - KERNEL_VMA + ecx * 8], eax
	inc ecx
	cmp ecx, 4
	jb .fill_pdpt
	mov eax, boot_pd - KERNEL_VMA
	or eax, 3
	mov [boot_pdpt_high - KERNEL_VMA + 510 * 8], eax
	xor ecx, ecx
.fill_pd:
	mov eax, ecx
	shl eax, 21				; low 32 bits of ecx * 2 MiB
	or eax, 0x83				; present, writable, 2 MiB
	mov ebx, ecx
	shr ebx, 11				; high bits: ecx * 2 MiB >> 32
	mov [boot_pd - KERNEL_VMA + ecx * 8], eax
	mov [boot_pd - KERNEL_VMA + ecx * 8 + 4], ebx
	inc ecx
	cmp ecx, 2048
	jb .fill_pd

	mov eax, cr4
	or eax, 1 << 5				; PAE
	mov cr4, eax
	mov cr3, edx
	mov ecx, 0xC0000080			; EFER
	rdmsr
	or eax, 1 << 8				; LME
	test ebp, 1 << 20
	jz .no_nx
	or eax, 1 << 11				; NXE
.no_nx:
	wrmsr
	mov eax, cr0
	or eax, (1 << 31) | (1 << 16) | 1	; PG, WP, PE
	mov cr0, eax

	lgdt [boot_gdt64_ptr - KERNEL_VMA]
	jmp 0x08:long_mode_low		; .boot.text is linked at its physical address

.no_long_mode:
	mov esi, no_lm_msg - KERNEL_VMA
.putc:
	lodsb
	test al, al
	jz .halt
	mov dx, 0x3F8
	out dx, al
	jmp .putc
.halt:
	hlt
	jmp .halt

bits 64
long_mode_low:
	mov rax, long_mode_high
	jmp rax

section .text
long_mode_high:
	xor eax, eax
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov fs, ax
	mov gs, ax
	mov rsp, boot_stack_top
	xor ebp, ebp
	; arch_boot(magic, info physical address): esi/edi hold them swapped
	mov eax, esi
	mov esi, edi
	mov edi, eax
	call arch_boot
.hang:
	cli
	hlt
	jmp .hang

; An AP arrives here from the trampoline, on the boot tables and with no
; stack: switch to the kernel's tables, find our own stack by APIC id in
; ap_boot_table (entries: apic id, stack top, struct cpu *), call ap_main.
ap_long_entry:
	mov rax, [rel ap_kernel_cr3]
	mov cr3, rax
	xor eax, eax
	cpuid
	cmp eax, 0xB
	jb .legacy_id
	mov eax, 0xB
	xor ecx, ecx
	cpuid
	mov r8d, edx				; x2APIC id
	jmp .lookup
.legacy_id:
	mov eax, 1
	cpuid
	shr ebx, 24
	mov r8d, ebx
.lookup:
	lea rsi, [rel ap_boot_table]
	mov ecx, [rel ap_boot_count]
.next:
	test ecx, ecx
	jz .unknown
	cmp r8d, [rsi]
	je .found
	add rsi, 24
	dec ecx
	jmp .next
.found:
	mov rsp, [rsi + 8]
	mov rdi, [rsi + 16]
	xor ebp, ebp
	call ap_main
.unknown:
	cli
	hlt
	jmp .unknown

section .rodata
trampoline_blob:
	incbin "trampoline.bin"
trampoline_blob_end:

no_lm_msg: db "smapos: this CPU has no long mode (x86-64); cannot boot", 13, 10, 0

align 16
boot_gdt64:
	dq 0
	dq 0x00AF9A000000FFFF	; 0x08 kernel code, 64-bit
	dq 0x00CF92000000FFFF	; 0x10 kernel data
boot_gdt64_end:
boot_gdt64_ptr:
	dw boot_gdt64_end - boot_gdt64 - 1
	dq boot_gdt64 - KERNEL_VMA

section .bss
align 4096
boot_pml4:	resb 4096
boot_pdpt_low:	resb 4096
boot_pdpt_high:	resb 4096
boot_pd:	resb 4096 * 4
BOOT_TABLES_SIZE equ $ - boot_pml4
boot_stack:	resb 16384
boot_stack_top:

section .note.GNU-stack noalloc noexec nowrite progbits
