/*
 * tap.h - TAP-style results for the SMARTMAP test programs: one line per
 * behaviour, "ok NAME" or "not ok NAME - expected X, got Y", flushed at
 * once so a rank that dies later still reported what it checked.
 */
#ifndef SMAPTEST_TAP_H
#define SMAPTEST_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int tap_failed;

/* ok when cond; otherwise the why (printf format) follows " - ". */
__attribute__((format(printf, 3, 4)))
static void tap(int cond, const char *name, const char *why, ...)
{
	va_list ap;

	if (cond) {
		printf("ok %s\n", name);
	} else {
		tap_failed = 1;
		printf("not ok %s - ", name);
		va_start(ap, why);
		vprintf(why, ap);
		va_end(ap);
		printf("\n");
	}
	fflush(stdout);
}

#endif
