/*
 * smapos_net.h - how a rank talks to its node's network engine.
 *
 * The rank places one struct snet_area in its own memory and hands its
 * address to the engine once (SMAPOS_SYS_NET_ATTACH; in host mode the
 * engine is told directly).  After that nothing crosses the kernel
 * boundary: the rank writes commands into cmd[], the engine copies each
 * command once into its own memory, and answers with events in ev[] and
 * with incoming messages in the inbox.  Each side writes only its own
 * fields, so a rank that scribbles over the area hurts only itself.
 *
 * Commands: slot n % SNET_NCMD holds command n; the rank fills it and
 * then stores ticket = n + 1 (release).  The engine has copied every
 * command below cmd_taken.  Events: slot n % SNET_NEV holds event n with
 * ticket n + 1; the rank consumes them in order and publishes ev_taken.
 * Every command produces exactly one event.  Inbox: a byte ring of
 * inbox_bytes (a multiple of 64); records are 64-byte aligned and never
 * wrap: a record of op 0 fills the rest of the ring.  The engine
 * publishes inbox_head, the rank inbox_tail (both count bytes forever).
 */
#ifndef SMAPOS_NET_H
#define SMAPOS_NET_H

#include <stdint.h>

#define SNET_AREA_MAGIC		0x74656e70616d73ull	/* "smapnet" */
#define SNET_AREA_VERSION	1
#define SNET_NCMD		256
#define SNET_NEV		256

/* Commands (snet_cmd.op) reuse the wire opcodes of kernel/net/proto.h:
 *   SNOP_MSG   eager message of len bytes at laddr to world rank dst
 *   SNOP_RTS   announce len bytes at laddr for dst to fetch; the event
 *              comes once dst has fetched them
 *   SNOP_GETREQ read len bytes at raddr of dst into laddr; arg[0] != 0
 *              names the RTS (its id, from the inbox record) to fetch from
 *   SNOP_PUT   write len bytes at laddr into raddr of dst
 *   SNOP_AMO   atomic amo on raddr of dst with arg[0], arg[1]; the event's
 *              value is the old word
 * A command to a node that has left the job ends the job, unless its
 * flags hold SNET_CMD_MAYLOSE: then its event says -ESRCH.  A command to
 * a node whose job has ended (it is still there) gets -ESRCH either way. */
#define SNET_CMD_MAYLOSE	0x1u	/* the destination's node may be gone */
#define SNET_CMD_POSTED		0x2u	/* SNOP_AMO: no old word; the event comes once
					 * the target's node has applied it */
#define SNET_CMD_ROWS		0x4u	/* PUT, ACC, GETREQ of an address: the remote
					 * side is rows of arg[0] bytes, arg[1] bytes
					 * apart (arg[1] >= arg[0]), len / arg[0] of
					 * them; the local buffer stays contiguous */
#define SNET_CMD_LROWS		0x8u	/* RTS, and a GETREQ that fetches one: the
					 * local buffer is rows, raddr = stride << 32
					 * | row (each below 2^32, stride >= row) */

struct snet_cmd {
	uint32_t ticket;
	uint8_t op;
	uint8_t amo;
	uint8_t flags;
	uint8_t reserved;
	uint32_t ctx;		/* MSG/RTS: matching context */
	uint32_t dst;		/* world rank */
	uint64_t id;		/* the rank's own name for the command */
	uint64_t laddr;
	uint64_t raddr;
	uint64_t len;
	int64_t arg[2];		/* MSG/RTS: tag, sequence; AMO: operands */
};

struct snet_ev {
	uint32_t ticket;
	int32_t status;		/* 0 or -errno */
	uint64_t id;		/* the command's id */
	int64_t value;		/* AMO: old value */
	uint64_t len;		/* bytes moved */
};

/* An incoming MSG (payload follows, len bytes) or RTS (no payload). */
struct snet_inrec {
	uint32_t size;		/* bytes of the record, payload and padding included */
	uint8_t op;		/* SNOP_MSG, SNOP_RTS, or 0: skip to the ring's start */
	uint8_t reserved[3];
	uint32_t ctx;
	uint32_t src;		/* world rank of the sender */
	int64_t tag;
	int64_t seq;
	uint64_t len;		/* message bytes */
	uint64_t addr;		/* RTS: the sender's buffer */
	uint64_t id;		/* RTS: what a GETREQ passes back as arg[0] */
};

enum snet_state {
	SNET_DOWN = 0,		/* not attached yet */
	SNET_UP = 1,
	SNET_FAILED = 2,	/* the network failed: down_node says where */
};

struct snet_area {
	/* the rank's */
	uint64_t magic;
	uint32_t version;
	uint32_t reserved;
	uint64_t inbox_bytes;
	uint64_t pad0[5];
	uint64_t ev_taken;
	uint64_t inbox_tail;
	uint64_t pad1[6];
	/* the engine's */
	uint64_t cmd_taken;
	uint64_t inbox_head;
	uint32_t state;		/* enum snet_state */
	uint32_t down_node;
	uint32_t max_payload;	/* largest eager message that fits one frame */
	uint32_t nnodes;
	uint64_t gone;		/* bit n: node n's job left (its ranks all exited) */
	uint64_t pad2[3];
	struct snet_cmd cmd[SNET_NCMD];
	struct snet_ev ev[SNET_NEV];
	uint8_t inbox[];
};
_Static_assert(sizeof(struct snet_cmd) == 64, "snet_cmd is a cache line");
_Static_assert(sizeof(struct snet_inrec) == 56, "snet_inrec");
_Static_assert(sizeof(struct snet_area) % 64 == 0, "snet_area is cache aligned");

#endif
