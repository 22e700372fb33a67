/*
 * vga.c - the VGA text console (BIOS boots): 80x25 at 0xB8000, scrolling,
 * with the same lines as the serial console.  Under UEFI there is no text
 * mode; fb.c draws into the framebuffer instead.
 */
#include <string.h>
#include <arch/io.h>
#include <arch/paging.h>
#include "bootinfo.h"
#include "console.h"
#include "drivers.h"

static volatile uint16_t *text;
static unsigned cols = 80, rows = 25, x, y;

static void vga_scroll(void)
{
	memmove((void *)text, (const void *)(text + cols), (rows - 1) * cols * 2);
	for (unsigned i = 0; i < cols; i++)
		text[(rows - 1) * cols + i] = 0x0720;
	y = rows - 1;
}

static void vga_write(struct console *c, const char *s, size_t n)
{
	(void)c;
	for (size_t i = 0; i < n; i++) {
		char ch = s[i];

		if (ch == '\n') {
			x = 0;
			y++;
		} else if (ch == '\r') {
			x = 0;
		} else if (ch == '\t') {
			x = (x + 8) & ~7u;
		} else {
			text[y * cols + x] = 0x0700 | (uint8_t)ch;
			x++;
		}
		if (x >= cols) {
			x = 0;
			y++;
		}
		if (y >= rows)
			vga_scroll();
	}
	/* move the hardware cursor */
	uint16_t pos = (uint16_t)(y * cols + x);

	outb(0x3D4, 0x0F);
	outb(0x3D5, pos & 0xFF);
	outb(0x3D4, 0x0E);
	outb(0x3D5, pos >> 8);
}

static struct console vga_console = { .name = "vga", .write = vga_write };

int vga_init(const struct boot_fb *fb)
{
	text = paging_map_phys(fb->addr ? fb->addr : 0xB8000, 80 * 50 * 2, CACHE_UC);
	if (!text)
		return -1;
	if (fb->width && fb->height) {
		cols = fb->width;
		rows = fb->height;
	}
	for (unsigned i = 0; i < cols * rows; i++)
		text[i] = 0x0720;
	x = y = 0;
	console_register(&vga_console);
	return 0;
}
