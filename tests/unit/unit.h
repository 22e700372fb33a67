/*
 * unit.h - the host unit tests' harness: TAP lines the test runner counts,
 * and the printk the kernel's pure code calls, captured so tests can check
 * what the kernel would have said.
 */
#ifndef UNIT_H
#define UNIT_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int unit_failed;
static char unit_log[8192];

#define CHECK(name, cond, ...)						\
	do {								\
		if (cond) {						\
			printf("ok %s\n", name);			\
		} else {						\
			printf("not ok %s - ", name);			\
			printf(__VA_ARGS__);				\
			printf("\n");					\
			unit_failed = 1;				\
		}							\
	} while (0)

void vprintk(int level, const char *fmt, va_list ap)
{
	size_t n = strlen(unit_log);

	(void)level;
	vsnprintf(unit_log + n, sizeof(unit_log) - n, fmt, ap);
}

void printk(int level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintk(level, fmt, ap);
	va_end(ap);
}

static inline void log_clear(void)
{
	unit_log[0] = '\0';
}

static inline int log_has(const char *s)
{
	return strstr(unit_log, s) != NULL;
}

#endif
