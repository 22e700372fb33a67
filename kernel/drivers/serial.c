/*
 * serial.c - 16550 UART consoles, 115200 8N1: the primary console, the one
 * tests and lwkrun read.  Ports are detected (loopback test), not assumed:
 * a node may have none, and writing into nothing must not stall the
 * kernel.  Without serial=, every legacy port that answers gets the
 * console, because which one reaches a person differs from board to board
 * (a header on COM1, the BMC's serial-over-LAN on COM2 or COM3); writing
 * to several costs no more time than to one, as they drain in parallel.
 */
#include <stdint.h>
#include <arch/io.h>
#include "console.h"
#include "drivers.h"
#include "param.h"

static uint64_t serial_port = ~0ul;
KPARAM(serial, PARAM_UINT, &serial_port,
       "I/O port of the only serial console, e.g. 0x2f8 (0 disables serial output); "
       "default: every one of COM1-COM4 that answers");

enum { THR = 0, IER = 1, FCR = 2, LCR = 3, MCR = 4, LSR = 5 };

static const uint16_t legacy_ports[] = { 0x3F8, 0x2F8, 0x3E8, 0x2E8 };

#define NPORTS	(sizeof(legacy_ports) / sizeof(legacy_ports[0]))

static uint16_t ports[NPORTS];
static unsigned nports;

static void serial_putc(char c)
{
	/* Bounded wait: a dead UART costs time, never a hang. */
	for (unsigned p = 0; p < nports; p++) {
		for (int i = 0; i < 100000 && !(inb(ports[p] + LSR) & 0x20); i++)
			;
		outb(ports[p] + THR, (uint8_t)c);
	}
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

/* Program a UART at p and check it echoes in loopback: 1 if it is there. */
static int uart_probe(uint16_t p)
{
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
		return 0;
	outb(p + MCR, 0x0F);		/* normal operation, DTR/RTS/OUT1/OUT2 */
	return 1;
}

void serial_init(void)
{
	if (serial_port != ~0ul) {
		if (serial_port && serial_port < 0xFFF8 && uart_probe((uint16_t)serial_port))
			ports[nports++] = (uint16_t)serial_port;
	} else {
		for (unsigned i = 0; i < NPORTS; i++)
			if (uart_probe(legacy_ports[i]))
				ports[nports++] = legacy_ports[i];
	}
	if (nports)
		console_register(&serial_console);
}

unsigned serial_ports(uint16_t *out, unsigned max)
{
	unsigned n = nports < max ? nports : max;

	for (unsigned i = 0; i < n; i++)
		out[i] = ports[i];
	return n;
}
