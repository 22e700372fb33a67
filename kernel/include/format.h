/* format.h - printf-style formatting into a buffer, freestanding. */
#ifndef FORMAT_H
#define FORMAT_H

#include <stdarg.h>
#include <stddef.h>

/* C99 semantics: returns the length the full output would have, writes at
 * most size-1 characters plus a terminating NUL (nothing when size is 0).
 * Conversions: d i u x X o p s c %, flags - 0 + space #, width and
 * precision (numbers or *), length modifiers hh h l ll z t j. */
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
