/*
 * video.c - choose the screen console: VGA text where the loader left a
 * text mode (BIOS), the framebuffer where it left graphics (UEFI), none
 * when console=serial.  The serial console is always the primary.  Then
 * say which consoles there are, in one line.
 */
#include <string.h>
#include "acpi.h"
#include "bootinfo.h"
#include "drivers.h"
#include "format.h"
#include "param.h"
#include "printk.h"

static const char *console_opt = "all";
KPARAM(console, PARAM_STR, &console_opt,
       "consoles to use: serial (the serial port only) or all (serial plus VGA text or framebuffer; default)");

int vga_init(const struct boot_fb *fb);
int fb_init(const struct boot_fb *fb);
unsigned serial_ports(uint16_t *ports, unsigned max);

static void screen_init(const struct bootinfo *bi, char *what, size_t size)
{
	struct boot_fb fb = bi->fb;

	if (!strcmp(console_opt, "serial")) {
		snprintf(what, size, "no screen (console=serial)");
		return;
	}
	if (strcmp(console_opt, "all"))
		pr_warn("console: unknown value '%s', using all\n", console_opt);
	/* QEMU's multiboot1 loader says nothing about video: a PC BIOS left
	 * text mode on unless ACPI says there is no VGA. */
	if (fb.kind == FB_NONE && bi->loader == 1 && !(acpi.boot_arch & (1u << 2)))
		fb.kind = FB_TEXT;
	if (fb.kind == FB_TEXT && vga_init(&fb) == 0)
		snprintf(what, size, "VGA text %ux%u", fb.width ? fb.width : 80,
			 fb.height ? fb.height : 25);
	else if (fb.kind == FB_RGB && fb_init(&fb) == 0)
		snprintf(what, size, "framebuffer %ux%u, %u bpp", fb.width, fb.height, fb.bpp);
	else if (fb.kind == FB_RGB)
		snprintf(what, size, "no screen (framebuffer %ux%u, %u bpp unusable)", fb.width,
			 fb.height, fb.bpp);
	else
		snprintf(what, size, "no screen (the loader passed none)");
}

void video_init(const struct bootinfo *bi)
{
	char screen[64];
	uint16_t ports[4];
	unsigned n = serial_ports(ports, 4);

	screen_init(bi, screen, sizeof(screen));
	pr_info("console: serial");
	for (unsigned i = 0; i < n; i++)
		pr_info(" %#x", ports[i]);
	pr_info("%s; %s\n", n ? "" : " none", screen);
}
