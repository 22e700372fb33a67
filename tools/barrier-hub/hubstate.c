/*
 * hubstate.c - the two-state machine of the barrier box (hubstate.h).
 *
 * Only the count of high OUT lines is kept, so a write costs O(1) however
 * many nodes there are: state 0 fires when all K are high, state 1 when
 * none is.
 */
#include "hubstate.h"

int hub_init(struct hub *h, unsigned nports)
{
	if (nports < 1 || nports > HUB_MAX_PORTS)
		return -1;
	h->nports = nports;
	h->state = 0;
	h->nhigh = 0;
	h->barriers = 0;
	for (unsigned i = 0; i < HUB_MAX_PORTS; i++) {
		h->port[i].data = 0;
		h->port[i].control = 0;
	}
	return 0;
}

int hub_write_data(struct hub *h, unsigned port, uint8_t value)
{
	unsigned was = h->port[port].data & HUB_OUT_BIT, now = value & HUB_OUT_BIT;

	h->port[port].data = value;
	if (was == now)
		return 0;
	if (now)
		h->nhigh++;
	else
		h->nhigh--;
	if (h->nhigh != (h->state ? 0 : h->nports))
		return 0;
	h->state ^= 1;
	h->barriers++;
	return 1;
}

uint8_t hub_status(const struct hub *h)
{
	return (uint8_t)(h->state << HUB_IN_SHIFT |
			 (h->barriers & HUB_COUNT_MASK) << HUB_COUNT_SHIFT);
}

unsigned hub_arrived(const struct hub *h)
{
	return h->state ? h->nports - h->nhigh : h->nhigh;
}

int hub_port_arrived(const struct hub *h, unsigned port)
{
	return (h->port[port].data & HUB_OUT_BIT) != h->state;
}
