/*
 * nic.h - the node's network interface (kernel/drivers/e1000.c): polled,
 * no interrupts; only the network engine's CPU calls the data path.
 */
#ifndef NIC_H
#define NIC_H

#include <stdbool.h>
#include <stdint.h>

/* Bytes of a frame's head that nic_tx copies (the rest goes by DMA from
 * where it is). */
#define NIC_HEAD_MAX	128

/* Probe PCI for a supported NIC and bring it up (boot, before the APs). */
void nic_init(void);
bool nic_present(void);
const uint8_t *nic_mac(void);
bool nic_link_up(void);
/* Largest frame the NIC sends and takes, Ethernet header included, its
 * FCS (which the NIC adds and strips) not. */
uint32_t nic_max_frame(void);

/* One frame: head (copied, at most NIC_HEAD_MAX bytes) then payload
 * (plen bytes of physically contiguous memory in the direct map, read by
 * the NIC after the call returns: it must stay until the frame is on the
 * wire).  0, or -EAGAIN when the transmit ring is full. */
int nic_tx(const void *head, uint32_t hlen, const void *payload, uint32_t plen);
/* The next received frame (Ethernet header included), or NULL; it stays
 * valid until nic_rx_release. */
const void *nic_rx(uint32_t *len);
void nic_rx_release(void);

#endif
