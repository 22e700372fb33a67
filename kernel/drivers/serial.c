/*
 * serial.c - 16550 UART console, 115200 8N1: the primary console, the one
 * tests and lwkrun read.  The port is detected (loopback test), not
 * assumed: real nodes may have none, and writing into nothing must not
 * stall the kernel.
 */
#include <stdint.h>
#include <arch/io.h>
#include "console.h"
#include "drivers.h"
#include "param.h"

static uint64_t serial_port = 0x3F8;
KPARAM(serial, PARAM_UINT, &serial_port, "I/O port of the serial console (0 disables it); default 0x3f8 (COM1)");

enum { THR = 0, IER = 1, FCR = 2, LCR = 3, MCR = 4, LSR = 5, SCR = 7 };

static uint16_t port;

static void serial_putc(char c)
{
	/* Bounded wait: a dead UART costs time, never a hang. */
	for (int i = 0; i < 100000 && !(inb(port + LSR) & 0x20); i++)
		;
	outb(port + THR, (uint8_t)c);
}

static void serial_write(struct console *c, const char *s, size_t n)
{
	(void)c;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n')
			serial_putc('\r');
		serial_putc(s[i]);
	}
}

static struct console serial_console = { .name = "serial", .write = serial_write };

void serial_init(void)
{
	uint16_t p = (uint16_t)serial_port;

	if (!p)
		return;
	outb(p + IER, 0x00);		/* polled: no interrupts */
	outb(p + LCR, 0x80);		/* DLAB */
	outb(p + 0, 1);			/* 115200 = 115200 / 1 */
	outb(p + 1, 0);
	outb(p + LCR, 0x03);		/* 8N1 */
	outb(p + FCR, 0xC7);		/* FIFOs on, cleared */
	outb(p + MCR, 0x1E);		/* loopback */
	outb(p + THR, 0xAE);
	for (int i = 0; i < 1000 && !(inb(p + LSR) & 0x01); i++)
		;
	if (inb(p + THR) != 0xAE)
		return;			/* nothing answers there */
	outb(p + MCR, 0x0F);		/* normal operation, DTR/RTS/OUT1/OUT2 */
	port = p;
	console_register(&serial_console);
}
