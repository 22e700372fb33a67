/*
 * fb.c - text console on a linear framebuffer (UEFI's GOP, or VBE), 8x16
 * cells from font8x16 (generated at build time from GRUB's font).  At the
 * bottom it wraps to the top and clears the next line instead of
 * scrolling: scrolling would read back uncached video memory, megabytes
 * per line on real hardware.
 */
#include <stdint.h>
#include <arch/paging.h>
#include "bootinfo.h"
#include "console.h"

extern const uint8_t font8x16[96][16];

static uint8_t *fb;
static struct boot_fb info;
static unsigned cols, rows, cx, cy;
static uint32_t fg, bg;

static uint32_t rgb(uint8_t r, uint8_t g, uint8_t b)
{
	return ((uint32_t)(r >> (8 - info.red_size)) << info.red_pos) |
	       ((uint32_t)(g >> (8 - info.green_size)) << info.green_pos) |
	       ((uint32_t)(b >> (8 - info.blue_size)) << info.blue_pos);
}

static void put_pixel(unsigned x, unsigned y, uint32_t c)
{
	uint8_t *p = fb + (uint64_t)y * info.pitch + (uint64_t)x * (info.bpp / 8);

	switch (info.bpp) {
	case 32:
		*(volatile uint32_t *)p = c;
		break;
	case 24:
		p[0] = c & 0xFF;
		p[1] = (c >> 8) & 0xFF;
		p[2] = (c >> 16) & 0xFF;
		break;
	case 16:
		*(volatile uint16_t *)p = (uint16_t)c;
		break;
	}
}

static void draw(unsigned col, unsigned row, char ch)
{
	const uint8_t *g = font8x16[((unsigned char)ch >= 32 && (unsigned char)ch < 128) ? ch - 32 : '?' - 32];

	for (unsigned y = 0; y < 16; y++)
		for (unsigned x = 0; x < 8; x++)
			put_pixel(col * 8 + x, row * 16 + y, (g[y] & (0x80 >> x)) ? fg : bg);
}

static void clear_row(unsigned row)
{
	for (unsigned c = 0; c < cols; c++)
		draw(c, row, ' ');
}

static void newline(void)
{
	cx = 0;
	cy = (cy + 1) % rows;
	clear_row(cy);
}

static void fb_write(struct console *con, const char *s, size_t n)
{
	(void)con;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n') {
			newline();
			continue;
		}
		if (s[i] == '\r') {
			cx = 0;
			continue;
		}
		draw(cx, cy, s[i]);
		if (++cx == cols)
			newline();
	}
}

static struct console fb_console = { .name = "framebuffer", .write = fb_write };

int fb_init(const struct boot_fb *f)
{
	if (f->bpp != 32 && f->bpp != 24 && f->bpp != 16)
		return -1;
	if (f->width < 8 || f->height < 16 || !f->red_size || !f->green_size || !f->blue_size)
		return -1;
	info = *f;
	fb = paging_map_phys(f->addr, (uint64_t)f->pitch * f->height, CACHE_WC);
	if (!fb)
		return -1;
	cols = f->width / 8;
	rows = f->height / 16;
	fg = rgb(0xC0, 0xC0, 0xC0);
	bg = rgb(0, 0, 0);
	for (unsigned r = 0; r < rows; r++)
		clear_row(r);
	cx = cy = 0;
	console_register(&fb_console);
	return 0;
}
