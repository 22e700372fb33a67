/*
 * net.h - libsmap's side of the network engine (docs/network.md).
 *
 * One area per rank (uapi/smapos_net.h) carries commands to the node's
 * engine and brings back events and incoming messages.  Everything above
 * (MPI point-to-point, RMA windows, SHMEM) talks to ranks on other nodes
 * through the few calls below; ranks on this node never come here.
 */
#ifndef SMAP_NET_H
#define SMAP_NET_H

#include <stdint.h>
#include "smapos_net.h"
#include "../../kernel/net/proto.h"

/* Matching context of the library's own messages (never a communicator's). */
#define NET_CTX_LIB	0xffff0000u

struct net_op;
typedef void net_done_fn(struct net_op *op);

/* One command in flight; lives until its event arrived (complete set). */
struct net_op {
	net_done_fn *done;	/* called by progress on completion, or NULL */
	void *arg;		/* the caller's */
	int complete;
	int status;		/* 0 or -errno */
	int64_t value;		/* atomics: the old value */
	uint64_t len;		/* bytes moved */
	uint32_t bounce;	/* 1 + index of its bounce buffer, or 0 */
	uint8_t maylose;	/* the caller's: the target's node may have left
				 * (then status -ESRCH, not the job's end) */
	uint8_t probe;		/* the caller's: a look at a peer's state that the
				 * caller repeats until it changes (a poll) */
	uint8_t parked;		/* moves nothing its rank waits for: an RTS (it
				 * waits for its receiver's fetch) or a probe */
};

/* Attaches this rank to its node's engine (once; every user calls it).
 * 0, or -ENODEV on a single node, or the reason the network is missing. */
int net_init(void);
int net_up(void);
/* Bytes an eager message (SNOP_MSG) may carry. */
uint64_t net_eager_max(void);

/* A command: opc is SNOP_MSG, SNOP_RTS, SNOP_GETREQ, SNOP_PUT or SNOP_AMO
 * (see uapi/smapos_net.h for the fields).  An eager message's payload,
 * and a put's of up to net_eager_max() bytes, are copied at once, so the
 * buffer is free on return; for the others it must stay until the op
 * completes.  Waits for a command slot if all are in use. */
void net_cmd(struct net_op *op, uint8_t opc, uint8_t amo, uint32_t ctx, uint32_t dst,
	     const void *laddr, uint64_t raddr, uint64_t len, int64_t a0, int64_t a1);
/* The same for a command nobody waits for (net_quiet completes it): an
 * error ends the job, naming `what` (a call name, kept by reference). */
void net_cmd_async(uint8_t opc, uint8_t amo, uint32_t ctx, uint32_t dst, const void *laddr,
		   uint64_t raddr, uint64_t len, int64_t a0, int64_t a1, const char *what);
/* A put, accumulate (amo: its code) or get (opc) whose remote side is
 * rows of `row` bytes, `stride` (>= row) bytes apart from raddr, len bytes
 * in all; the local buffer is contiguous and kept as net_cmd keeps it.
 * op NULL: nobody waits, as for net_cmd_async (naming `what`). */
void net_cmd_rows(struct net_op *op, uint8_t opc, uint8_t amo, uint32_t dst, const void *laddr,
		  uint64_t raddr, uint64_t len, uint64_t row, uint64_t stride, const char *what);
/* An RTS, or a GETREQ that fetches one (a0: its id), whose local buffer is
 * rows of `row` bytes, `stride` bytes apart, both below 2^32. */
void net_cmd_local_rows(struct net_op *op, uint8_t opc, uint32_t ctx, uint32_t dst,
			const void *laddr, uint64_t len, int64_t a0, int64_t a1, uint64_t row,
			uint64_t stride);
/* Events, incoming messages, and (host mode) the engine itself. */
void net_progress(void);
/* Progress until op completes; returns its status. */
int net_wait(struct net_op *op);
/* The same, counting on the caller's spins: a poll of probes that spans
 * many commands is one wait (core_wait_check). */
int net_wait_spins(struct net_op *op, unsigned *spins);
/* What a failed command's status means, for a one-line message. */
const char *net_strerror(int status);
/* Progress until every command of this rank has completed. */
void net_quiet(void);
/* Bit n: node n's job has left (every rank there exited). */
uint64_t net_gone_nodes(void);
/* Commands of this rank in flight (issued, no event posted for them yet:
 * progress need not have run), `op` left out; *op_busy: whether op is.
 * An RTS is not in flight: it moves nothing until its receiver fetches,
 * and a fetch is in flight at the receiver; nor is a probe. */
unsigned net_in_flight(const struct net_op *op, int *op_busy);

/* Who gets the inbox: MPI's matching (messages and rendezvous announces).
 * payload is NULL for an RTS. */
typedef void net_inbox_fn(const struct snet_inrec *rec, const void *payload);
void net_set_inbox(net_inbox_fn *fn);

/* The whole job's barrier between nodes, for the one rank per node that
 * smap_barrier elects, when there is no hardware barrier. */
void net_node_barrier(void);

/* Host mode's engine (hostnet.c): the platform half of net.c there. */
int hostnet_attach(struct snet_area *area);
void hostnet_drive(void);
void hostnet_exit(void);

#endif
