/*
 * proto.h - the smapos network wire format, shared by the kernel engine,
 * the host-mode engine in libsmap and the unit tests.
 *
 * A frame is raw Ethernet with the project ethertype:
 *
 *   | dst MAC | src MAC | 0x88B5 | snet_hdr (32 B) | body (len bytes) |
 *
 * Every node of a job is an x86-64 machine, so fields travel in the
 * machines' own (little-endian) byte order; the version byte guards
 * against a mixed installation.  The emulated wire carries no FCS, so
 * every frame carries a CRC-32C: over the body, continued over the
 * header with its crc field zero.  On a link that delivers bytes intact
 * (host mode's Unix-domain sockets: a copy in the host's kernel) a DATA
 * frame's CRC leaves out the payload after its op (SNET_F_HEADCRC), as
 * TCP over the loopback leaves out its checksum.
 *
 * Kinds:
 *   DATA   one engine operation (snet_op) and its payload; carries seq
 *          and a piggybacked cumulative ack.
 *   ACK    no body; ack = next seq expected; flag NAK asks the sender to
 *          go back to `ack` at once (a gap was seen) instead of waiting
 *          for its retransmission timer.
 *   HELLO  node discovery on boot (body: struct snet_hello); never
 *          reaches the engine.
 *   ABORT  no sequence: a job on the sending node failed; body is
 *          struct snet_abort.  Sent several times, idempotent.
 *   BYE    no sequence, no body: the sending node's job has ended and its
 *          engine stops answering.  Sent several times, idempotent.
 */
#ifndef SMAPOS_NET_PROTO_H
#define SMAPOS_NET_PROTO_H

#include <stdint.h>

#define SNET_ETHERTYPE	0x88B5
#define SNET_VERSION	1
#define SNET_ETH_HLEN	14

enum snet_kind {
	SNET_DATA = 1,
	SNET_ACK = 2,
	SNET_HELLO = 3,
	SNET_ABORT = 4,
	SNET_BYE = 5,
};

#define SNET_F_NAK	0x1u	/* ACK: a gap was seen, go back to ack now */
#define SNET_F_PING	0x2u	/* ACK: answer with an ACK at once */
#define SNET_F_HEADCRC	0x4u	/* DATA: the crc leaves out the payload after the op */
#define SNET_F_ACKS	0x8u	/* BYE: ack is final, and every frame the sender sent
				 * the receiver was acknowledged */

struct snet_hdr {
	uint8_t version;	/* SNET_VERSION */
	uint8_t kind;		/* enum snet_kind */
	uint8_t flags;		/* SNET_F_* */
	uint8_t reserved;
	uint16_t src;		/* sending node */
	uint16_t dst;		/* receiving node */
	uint32_t job;		/* job id: frames of another job are dropped */
	uint32_t seq;		/* DATA: this frame's sequence number */
	uint32_t ack;		/* next sequence number expected from dst */
	uint16_t window;	/* frames the receiver can still take past ack */
	uint16_t reserved2;
	uint32_t len;		/* body bytes after this header */
	uint32_t crc;		/* CRC-32C of body, then header (crc = 0) */
};
_Static_assert(sizeof(struct snet_hdr) == 32, "snet_hdr is 32 bytes");

/* The operations a DATA frame carries.  Ranks are world ranks. */
enum snet_opcode {
	SNOP_MSG = 1,		/* eager message: payload is the whole message */
	SNOP_RTS = 2,		/* rendezvous announce: len = message size, addr = source buffer */
	SNOP_GETREQ = 3,	/* read len bytes at addr of dst; answer with GETDATA */
	SNOP_GETDATA = 4,	/* answer chunk of a GETREQ: off = offset in the request */
	SNOP_PUT = 5,		/* write payload at addr + off in dst */
	SNOP_AMO = 6,		/* atomic on the 8/4-byte word at addr of dst */
	SNOP_AMOREPLY = 7,	/* old value of an AMO: arg[0] */
	SNOP_ACKOP = 8,		/* a PUT stream's last chunk landed: completes id */
	SNOP_ERR = 9,		/* the target refused id: arg[0] = -errno */
	SNOP_ACC = 10,		/* combine payload elements into addr + off in dst (amo: SNACC_CODE) */
	SNOP_FACC = 11,		/* the same in one frame of len <= SNET_FACC_MAX (no payload for
				 * SNACC_NOOP), answered with the elements' old values */
	SNOP_FACCREPLY = 12,	/* payload: the old values of a FACC */
};

/* Bytes of elements one fetching accumulate (FACC) may cover. */
#define SNET_FACC_MAX	256

/*
 * ACC element codes: the type of the elements and the operation that
 * combines an origin element x into a target element y, each element
 * atomically (as the expressions of libsmap/mpi/op.c: MAX is "if x > y,
 * y = x").  Floating types take SUM, PROD, MAX, MIN, REPLACE and NOOP only;
 * NOOP (a fetch's atomic read) changes nothing.
 */
enum snet_acc_type {
	SNACC_I8, SNACC_U8, SNACC_I16, SNACC_U16, SNACC_I32, SNACC_U32, SNACC_I64, SNACC_U64,
	SNACC_F32, SNACC_F64, SNACC_NTYPES
};
enum snet_acc_op {
	SNACC_SUM, SNACC_PROD, SNACC_MAX, SNACC_MIN, SNACC_BAND, SNACC_BOR, SNACC_BXOR,
	SNACC_LAND, SNACC_LOR, SNACC_LXOR, SNACC_REPLACE, SNACC_NOOP, SNACC_NOPS
};
#define SNACC_CODE(type, op)	((uint8_t)((type) << 4 | (op)))

/* AMO kinds (snet_op.amo); size in the top bit: 4-byte words when set. */
enum snet_amo {
	SNAMO_ADD = 1,		/* fetch and add */
	SNAMO_SWAP = 2,		/* fetch and store */
	SNAMO_CAS = 3,		/* compare arg[1] and swap in arg[0] */
	SNAMO_AND = 4,
	SNAMO_OR = 5,
	SNAMO_XOR = 6,
	SNAMO_FETCH = 7,	/* atomic read */
	SNAMO_SET = 8,		/* atomic write, no reply value */
};
#define SNAMO_32	0x80u

#define SNOP_F_LAST	0x1u	/* PUT/ACC/GETDATA: last chunk of the stream */
#define SNOP_F_NOTIFY	0x2u	/* PUT: acknowledge the stream with ACKOP */
#define SNOP_F_POSTED	0x4u	/* AMO: no AMOREPLY; its acknowledgement completes it */
#define SNOP_F_ROWS	0x8u	/* PUT/ACC/GETREQ: addr starts rows of arg[0] bytes, arg[1]
				 * bytes apart; the stream's bytes fill them in order */

struct snet_op {
	uint8_t op;		/* enum snet_opcode */
	uint8_t amo;		/* AMO: enum snet_amo | SNAMO_32; ACC: SNACC_CODE */
	uint8_t flags;		/* SNOP_F_* */
	uint8_t reserved;
	uint32_t ctx;		/* MSG/RTS: matching context (communicator) */
	uint32_t src;		/* world rank that issued the operation */
	uint32_t dst;		/* world rank it acts on */
	uint64_t id;		/* issuer's command id: answers carry it back */
	uint64_t addr;		/* virtual address in dst (PUT/GET/AMO) or src (RTS) */
	uint64_t len;		/* total bytes of the operation */
	uint64_t off;		/* offset of this chunk within the operation */
	int64_t arg[2];		/* MSG/RTS: tag, seq; AMO: operands; ERR/AMOREPLY: result;
				 * SNOP_F_ROWS: row bytes, stride */
};
_Static_assert(sizeof(struct snet_op) == 64, "snet_op is 64 bytes");

#define SNET_NODE_AUTO	0xffffffffu	/* HELLO node of one still numbering itself */

struct snet_hello {
	uint32_t node;		/* the sender's node id, or SNET_NODE_AUTO */
	uint32_t nnodes;	/* nodes the sender was told about */
	uint8_t mac[6];
	uint16_t reserved;
	uint64_t known;		/* bit n: the sender has node n's MAC */
	uint32_t cluster;	/* the sender's net_cluster: other clusters' are ignored */
	uint32_t reserved2;
};

struct snet_abort {
	uint32_t rank;		/* world rank that failed (or ~0: the node itself) */
	int32_t status;		/* the job's status */
};

#endif
