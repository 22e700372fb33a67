/* console.h - where text goes: COM1 first, then VGA text or a framebuffer.
 * Writers hold console_lock for a whole message so lines never mix. */
#ifndef CONSOLE_H
#define CONSOLE_H

#include <stddef.h>
#include "spinlock.h"

struct console {
	const char *name;
	void (*write)(struct console *c, const char *s, size_t n);
	struct console *next;
};

extern struct spinlock console_lock;

void console_register(struct console *c);
/* Caller holds console_lock. */
void console_write_locked(const char *s, size_t n);
void console_write(const char *s, size_t n);

#endif
