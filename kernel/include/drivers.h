/* drivers.h - entry points of the drivers in kernel/drivers/. */
#ifndef DRIVERS_H
#define DRIVERS_H

#include <stdint.h>

struct bootinfo;

/* Called first, with the early page tables: probe COM1 and print through it. */
void serial_init(void);
/* VGA text (BIOS) or the multiboot framebuffer (UEFI), after paging_init. */
void video_init(const struct bootinfo *bi);

#endif
