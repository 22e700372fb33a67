/*
 * hubstate.h - the barrier box of Hoefler et al. as pure logic: K
 * parallel ports, one OUT line (data bit 0) from each node and one IN
 * line (status bit 6) to each, and a two-state AND/OR machine between
 * them.  In state 0 every IN line is low until all OUT lines are high,
 * then the box switches to state 1 and raises them all; in state 1 it
 * drops them all once every OUT line is low again.
 *
 * Freestanding: compiled into tools/barrier-hub and into its host unit
 * test unchanged.  No clock, no I/O, no allocation.
 */
#ifndef HUBSTATE_H
#define HUBSTATE_H

#include <stdint.h>

#define HUB_MAX_PORTS		256

#define HUB_OUT_BIT		0x01	/* data register: D0, pin 2 */
#define HUB_IN_SHIFT		6	/* status register: nAck, pin 10 */
/* The emulated box also shows how many barriers it has completed, modulo
 * 8, on three spare status lines (bits 3..5: nError, Select, PaperOut,
 * pins 15, 13, 12), so a test can check a node against the box. */
#define HUB_COUNT_SHIFT		3
#define HUB_COUNT_MASK		0x7

struct hub_port {
	uint8_t data;		/* last value written to the data register */
	uint8_t control;	/* last value written to the control register */
};

struct hub {
	unsigned nports;
	unsigned state;		/* 0 or 1: the level of every IN line */
	unsigned nhigh;		/* ports whose OUT line is high */
	uint64_t barriers;	/* state changes since power-on */
	struct hub_port port[HUB_MAX_PORTS];
};

/* Power-on: state 0, every OUT line low.  0, or -1 if nports is not in
 * 1..HUB_MAX_PORTS. */
int hub_init(struct hub *h, unsigned nports);
/* A node writes its data register; returns 1 if that completed a barrier
 * (the box changed state), else 0. */
int hub_write_data(struct hub *h, unsigned port, uint8_t value);
/* What every node reads in its status register. */
uint8_t hub_status(const struct hub *h);
/* Ports that have entered the barrier the box is waiting for. */
unsigned hub_arrived(const struct hub *h);
/* 1 if this port's node has entered it. */
int hub_port_arrived(const struct hub *h, unsigned port);

#endif
