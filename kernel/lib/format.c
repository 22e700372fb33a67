/* format.c - vsnprintf for the kernel.  Shared with the host unit tests,
 * which compare it against the host libc. */
#include <stdint.h>
#include "format.h"

struct out {
	char *buf;
	size_t size;
	size_t len;
};

static void put(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void pad(struct out *o, char c, int n)
{
	while (n-- > 0)
		put(o, c);
}

enum {
	F_LEFT = 1, F_ZERO = 2, F_PLUS = 4, F_SPACE = 8, F_ALT = 16,
};

static void put_number(struct out *o, uintmax_t v, int neg, unsigned base,
		       int upper, int flags, int width, int prec)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	int n = 0, sign = 0, prefix = 0;

	while (v) {
		tmp[n++] = digits[v % base];
		v /= base;
	}
	/* precision 0 with value 0 prints nothing, as in C */
	if (prec < 0 && n == 0)
		tmp[n++] = '0';
	if (neg)
		sign = '-';
	else if (flags & F_PLUS)
		sign = '+';
	else if (flags & F_SPACE)
		sign = ' ';
	if ((flags & F_ALT) && base == 16 && n && !(n == 1 && tmp[0] == '0'))
		prefix = 2;
	if ((flags & F_ALT) && base == 8 && (n == 0 || tmp[n - 1] != '0') && prec <= n)
		prec = n + 1;

	int zeros = prec > n ? prec - n : 0;
	int total = n + zeros + (sign != 0) + prefix;

	if (prec < 0 && (flags & F_ZERO) && !(flags & F_LEFT) && width > total) {
		zeros += width - total;
		total = width;
	}
	if (!(flags & F_LEFT))
		pad(o, ' ', width - total);
	if (sign)
		put(o, sign);
	if (prefix) {
		put(o, '0');
		put(o, upper ? 'X' : 'x');
	}
	pad(o, '0', zeros);
	while (n)
		put(o, tmp[--n]);
	if (flags & F_LEFT)
		pad(o, ' ', width - total);
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { buf, size, 0 };

	for (; *fmt; fmt++) {
		if (*fmt != '%') {
			put(&o, *fmt);
			continue;
		}
		int flags = 0, width = 0, prec = -1, lng = 0;

		for (;;) {
			char c = *++fmt;
			if (c == '-')
				flags |= F_LEFT;
			else if (c == '0')
				flags |= F_ZERO;
			else if (c == '+')
				flags |= F_PLUS;
			else if (c == ' ')
				flags |= F_SPACE;
			else if (c == '#')
				flags |= F_ALT;
			else
				break;
		}
		if (*fmt == '*') {
			width = va_arg(ap, int);
			if (width < 0) {
				flags |= F_LEFT;
				width = -width;
			}
			fmt++;
		} else {
			while (*fmt >= '0' && *fmt <= '9')
				width = width * 10 + (*fmt++ - '0');
		}
		if (*fmt == '.') {
			fmt++;
			prec = 0;
			if (*fmt == '*') {
				prec = va_arg(ap, int);
				if (prec < 0)
					prec = -1;
				fmt++;
			} else {
				while (*fmt >= '0' && *fmt <= '9')
					prec = prec * 10 + (*fmt++ - '0');
			}
		}
		/* lng: -2 hh, -1 h, 0 int, 1 long, 2 long long / intmax / size */
		for (;; fmt++) {
			if (*fmt == 'h')
				lng--;
			else if (*fmt == 'l')
				lng++;
			else if (*fmt == 'z' || *fmt == 't' || *fmt == 'j')
				lng = 2;
			else
				break;
		}

		uintmax_t u;
		intmax_t s;

		switch (*fmt) {
		case 'd':
		case 'i':
			if (lng >= 1)
				s = lng == 1 ? va_arg(ap, long) : va_arg(ap, long long);
			else
				s = va_arg(ap, int);
			if (lng == -1)
				s = (short)s;
			else if (lng <= -2)
				s = (signed char)s;
			u = s < 0 ? -(uintmax_t)s : (uintmax_t)s;
			put_number(&o, u, s < 0, 10, 0, flags, width, prec);
			break;
		case 'u':
		case 'x':
		case 'X':
		case 'o':
			if (lng >= 1)
				u = lng == 1 ? va_arg(ap, unsigned long) : va_arg(ap, unsigned long long);
			else
				u = va_arg(ap, unsigned int);
			if (lng == -1)
				u = (unsigned short)u;
			else if (lng <= -2)
				u = (unsigned char)u;
			put_number(&o, u, 0,
				   *fmt == 'u' ? 10 : *fmt == 'o' ? 8 : 16,
				   *fmt == 'X', flags & ~(F_PLUS | F_SPACE), width, prec);
			break;
		case 'p':
			put_number(&o, (uintptr_t)va_arg(ap, void *), 0, 16, 0,
				   F_ALT | (flags & F_LEFT), width, prec);
			break;
		case 'c': {
			char c = (char)va_arg(ap, int);
			if (!(flags & F_LEFT))
				pad(&o, ' ', width - 1);
			put(&o, c);
			if (flags & F_LEFT)
				pad(&o, ' ', width - 1);
			break;
		}
		case 's': {
			const char *str = va_arg(ap, const char *);
			int n = 0;

			if (!str)
				str = "(null)";
			while (str[n] && (prec < 0 || n < prec))
				n++;
			if (!(flags & F_LEFT))
				pad(&o, ' ', width - n);
			for (int i = 0; i < n; i++)
				put(&o, str[i]);
			if (flags & F_LEFT)
				pad(&o, ' ', width - n);
			break;
		}
		case '%':
			put(&o, '%');
			break;
		default:
			/* Unknown conversion: show it rather than consume arguments. */
			put(&o, '%');
			if (!*fmt)
				goto done;
			put(&o, *fmt);
			break;
		}
	}
done:
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return (int)o.len;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
