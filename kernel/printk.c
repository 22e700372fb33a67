/*
 * printk.c - kernel messages to every console, one whole message at a
 * time.  Messages printed before the first console exists are kept and
 * replayed when it registers, so nothing from early boot is lost.
 */
#include <string.h>
#include "console.h"
#include "format.h"
#include "param.h"
#include "printk.h"

int printk_quiet;
static uint64_t quiet;
KPARAM(quiet, PARAM_BOOL, &quiet,
       "show only the ranks' output, warnings and errors, not the boot log; the console's first line is then `smapos: quiet boot, the boot log is off` (what came before it was the firmware's)");

/* A quiet boot's first line: whatever came before it on the console
 * (firmware, GRUB) is not the kernel's, and a launcher may hide it. */
static const char quiet_mark[] = "smapos: quiet boot, the boot log is off\n";

static char early[8192];
static size_t early_len;
static int have_console;

void printk_console_ready(void)
{
	uint64_t f = spin_lock_irqsave(&console_lock);

	have_console = 1;
	printk_quiet = (int)quiet;
	if (printk_quiet)
		console_write_locked(quiet_mark, sizeof(quiet_mark) - 1);
	console_write_locked(early, early_len);
	early_len = 0;
	spin_unlock_irqrestore(&console_lock, f);
}

void vprintk(int level, const char *fmt, va_list ap)
{
	char buf[512];
	int n;

	if (level == LOG_INFO && printk_quiet)
		return;
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	if (n > (int)sizeof(buf) - 1)
		n = sizeof(buf) - 1;

	uint64_t f = spin_lock_irqsave(&console_lock);

	if (have_console) {
		console_write_locked(buf, n);
	} else if (early_len + n <= sizeof(early)) {
		memcpy(early + early_len, buf, n);
		early_len += n;
	}
	spin_unlock_irqrestore(&console_lock, f);
}

void printk(int level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintk(level, fmt, ap);
	va_end(ap);
}
