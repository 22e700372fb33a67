/* console.c - the list of consoles and the lock that keeps lines whole. */
#include "console.h"

struct spinlock console_lock = SPINLOCK_INIT;
static struct console *consoles;

void console_register(struct console *c)
{
	struct console **pp = &consoles;
	uint64_t f = spin_lock_irqsave(&console_lock);

	while (*pp)
		pp = &(*pp)->next;
	c->next = NULL;
	*pp = c;
	spin_unlock_irqrestore(&console_lock, f);
}

void console_write_locked(const char *s, size_t n)
{
	for (struct console *c = consoles; c; c = c->next)
		c->write(c, s, n);
}

void console_write(const char *s, size_t n)
{
	uint64_t f = spin_lock_irqsave(&console_lock);

	console_write_locked(s, n);
	spin_unlock_irqrestore(&console_lock, f);
}
