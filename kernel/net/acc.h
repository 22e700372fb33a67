/*
 * acc.h - element-wise atomic accumulates for the network engine (acc.c).
 */
#ifndef SMAPOS_NET_ACC_H
#define SMAPOS_NET_ACC_H

#include <stdint.h>

/* The element size of an ACC code (proto.h), or 0 when it is not one. */
unsigned eng_acc_width(uint8_t code);
/* Combines bytes / width origin elements at src into dst, each atomically;
 * dst is aligned to the width.  old, if not NULL, gets each element's value
 * from before (src is not read for SNACC_NOOP). */
void eng_acc_apply(uint8_t code, void *dst, const void *src, uint64_t bytes, void *old);

#endif
