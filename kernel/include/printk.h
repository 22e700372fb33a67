/* printk.h - kernel messages.  pr_info is the boot log, hidden by the
 * `quiet` option; warnings and errors always reach the console. */
#ifndef PRINTK_H
#define PRINTK_H

#include <stdarg.h>

enum { LOG_ERR, LOG_WARN, LOG_INFO };

void printk(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void vprintk(int level, const char *fmt, va_list ap);
_Noreturn void panic(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Panic after the caller printed its own report and stack trace. */
_Noreturn void panic_reported(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#define pr_info(...)	printk(LOG_INFO, __VA_ARGS__)
#define pr_warn(...)	printk(LOG_WARN, __VA_ARGS__)
#define pr_err(...)	printk(LOG_ERR, __VA_ARGS__)

/* 1 once `quiet` was given: pr_info goes nowhere. */
extern int printk_quiet;

#endif
