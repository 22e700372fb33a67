/*
 * p2p.h - what the two halves of point-to-point share: p2p.c (ranks on
 * this node, through SMARTMAP) and p2pnet.c (ranks on other nodes, through
 * the network engine).  One matching engine serves both, with sources named
 * by world rank, so MPI's ordering and MPI_ANY_SOURCE hold across them.
 */
#ifndef SMPI_P2P_H
#define SMPI_P2P_H

#include "impl.h"

#define P2P_INLINE	40

enum {
	P2P_MSG_INLINE = 1,
	P2P_MSG_EAGER,
	P2P_MSG_RNDV,
	P2P_MSG_NET_EAGER,	/* from another node: data is a malloc'd copy */
	P2P_MSG_NET_RTS,	/* from another node: fetch it with rts */
	P2P_MSG_CANCEL,		/* not a message: the sender cancels one (p2p.c) */
};

/* A rendezvous message: the sender's addresses, as the sender sees them. */
struct p2p_rndv {
	uint64_t buf, dt, count;
	uint64_t req;		/* its struct smpi_req */
	uint64_t flags;
};

/* An unexpected message, waiting for its receive. */
struct p2p_unexp {
	struct match_entry m;	/* m.src: world rank */
	struct p2p_unexp *next;
	int kind, tag;
	uint64_t len;
	char *data;		/* inline: idata; eager: a malloc'd copy */
	uint64_t seq;		/* on-node: the number of its slot; across
				 * nodes: the sender's name for it */
	union {
		struct p2p_rndv rndv;
		uint64_t rts;	/* P2P_MSG_NET_RTS: the engine's name for it */
	};
	char idata[P2P_INLINE];
};

/* struct smpi_req.cancel of a send, and the receiver's answer in its
 * rv.cancel. */
enum { P2P_CANCEL_NONE, P2P_CANCEL_ASKED, P2P_CANCEL_OVER };
enum { P2P_CANCEL_WAIT, P2P_CANCEL_REMOVED, P2P_CANCEL_TOO_LATE };

struct match_ctx *p2p_match(int ctx);
/* MPI_Cancel of a rendezvous send across nodes (p2pnet.c): 1 if asked. */
int smpi_pnet_cancel(struct smpi_req *r);
struct p2p_unexp *p2p_unexp_get(void);
void p2p_unexp_put(struct p2p_unexp *u);
/* The receive r got n bytes from world rank wsrc: status, done. */
void p2p_complete(struct smpi_req *r, int wsrc, int tag, int err, uint64_t n);

#endif
