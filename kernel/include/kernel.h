/* kernel.h - the boot sequence's entry points. */
#ifndef KERNEL_H
#define KERNEL_H

#include <stdint.h>

_Noreturn void kmain(uint32_t magic, uint64_t info_phys);
_Noreturn void arch_call_on_stack(uint64_t top, void (*fn)(void));
void printk_console_ready(void);

/* Facts about this boot that user space can ask for (SMAPOS_SYS_NODEINFO). */
extern uint64_t node_mem_usable, node_online_tsc;

#endif
