/*
 * engine.h - the Portals-style network engine, one per node.
 *
 * The engine is portable C with no knowledge of where it runs: the kernel
 * runs it on a CPU of its own over the NIC driver (kernel/net/knet.c), and
 * libsmap's host mode runs the same code over Unix sockets
 * (libsmap/net/hostnet.c).  A platform provides the hooks below and drives
 * the engine: eng_input() for every frame of the project ethertype that is
 * not HELLO, eng_poll() whenever it is idle.
 *
 * Ranks talk to the engine only through the area in their own memory
 * (kernel/uapi/smapos_net.h); the engine reaches rank memory through
 * eng_plat_rank_mem(), so nothing is ever pinned or registered.
 */
#ifndef SMAPOS_NET_ENGINE_H
#define SMAPOS_NET_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ENG_MAX_NODES	64
/* Frames a sender may have in flight to one node. */
#define ENG_WINDOW	64

struct eng;

struct eng_frag {
	const void *base;
	uint32_t len;
};

/* What a job looks like to the engine: ranks are node-major, node n holds
 * world ranks first_rank[n] .. first_rank[n + 1] - 1. */
struct eng_job {
	uint32_t id;
	uint32_t node;
	uint32_t nnodes;
	uint32_t first_rank[ENG_MAX_NODES + 1];
	uint64_t dead_us;	/* silence from a peer node that declares it dead; 0: never */
	uint64_t join_us;	/* the same for a node not heard from in this job yet
				 * (when longer than dead_us) */
	/* The engine has a CPU of its own (the kernel), so a node's silence
	 * means it is gone whatever its ranks do: every other node is watched
	 * for the whole job, as eng_watch does for a barrier.  Host mode's
	 * engine runs only while a rank is in the library: silence proves
	 * nothing there. */
	bool watch_all;
};

/* ---- platform hooks (exactly one platform per binary) ---- */

/* Monotonic microseconds. */
uint64_t eng_plat_now(struct eng *e);
/* Send one frame to node: the frags are the snet_hdr, then the body.  The
 * first two frags (headers, at most 128 bytes together) are copied before
 * the call returns; later ones stay valid until the frame is on the wire,
 * because the engine releases no payload before the peer acknowledges it.
 * Returns 0, or -EAGAIN when the transmit ring is full. */
int eng_plat_tx(struct eng *e, unsigned node, const struct eng_frag *f, unsigned nf);
/* Where len bytes at uaddr of local rank lrank are, or NULL if the range is
 * not wholly inside that rank's memory (write: and writable). */
void *eng_plat_rank_mem(struct eng *e, unsigned lrank, uint64_t uaddr, uint64_t len, int write);
uint32_t eng_plat_crc32c(uint32_t crc, const void *p, size_t n);
/* Why a node is given up. */
enum eng_fail {
	ENG_FAIL_SILENT,	/* it stopped answering */
	ENG_FAIL_LOST,		/* it answers, but acknowledges none of our frames */
};
/* node failed (why) while `what` was outstanding: the job must end
 * everywhere. */
void eng_plat_fail(struct eng *e, unsigned node, enum eng_fail why, const char *what);
/* Another node reports that world rank `rank` failed with `status`. */
void eng_plat_abort(struct eng *e, unsigned rank, int status);

/* ---- engine entry points ---- */

/* Bytes of an engine whose frames are up to mtu bytes. */
size_t eng_size(unsigned mtu);
/* e: eng_size(mtu) zeroed bytes.  mtu: largest snet_hdr + body the platform
 * can send in one frame.  intact: the link delivers every byte it carries
 * as sent (ENG_LINK_INTACT): payloads go unchecked (SNET_F_HEADCRC). */
#define ENG_LINK_INTACT	1u
void eng_init(struct eng *e, unsigned mtu, unsigned flags);
/* A new job: forgets the previous one's channels and ranks. */
int eng_job_begin(struct eng *e, const struct eng_job *j);
/* Local rank lrank's area (struct snet_area) is at area in its memory.
 * 0, -EFAULT (not in the rank's memory), -EINVAL (bad magic or sizes). */
int eng_attach(struct eng *e, unsigned lrank, uint64_t area);
/* One received frame, starting at its snet_hdr. */
void eng_input(struct eng *e, const void *frame, size_t len);
/* Receiving in place, for a platform that can read a frame's head first:
 * given its first len bytes (header and op), where its payload of *plen
 * bytes belongs in rank memory, or NULL (then eng_input the whole frame).
 * The platform receives the payload there and hands over the head with
 * eng_input_placed; the checks all still apply (a corrupt payload is
 * dropped like any other, and the frame sent again: until the operation
 * completes, its destination holds no promised value). */
void *eng_rx_place(struct eng *e, const void *head, size_t len, uint32_t *plen);
void eng_input_placed(struct eng *e, const void *head, const void *payload, uint32_t plen);
/* Commands, retransmissions, acknowledgements: call whenever idle.
 * Returns nonzero if it did anything. */
int eng_poll(struct eng *e);
/* The job's ranks have ended: stop touching their memory; keep
 * acknowledging peers for a while so their last frames complete. */
void eng_job_end(struct eng *e);
/* World rank `rank` of this node failed: tell every node. */
void eng_job_abort(struct eng *e, unsigned rank, int status);
/* The engine stops serving the ended job: tell every node (they mark this
 * one gone, as eng_node_gone). */
void eng_job_leave(struct eng *e);
/* on: something on this node waits for every other node (a hardware
 * barrier), so each must prove it is alive: silent nodes are pinged, and
 * one silent for dead_us ends the job as if it owed an answer. */
void eng_watch(struct eng *e, int on);
/* The nodes known to have left the job (bit n: node n). */
uint64_t eng_gone(const struct eng *e);
/* The platform knows node is gone (its link closed): a failure if this
 * node still expects something of it, else later commands to it fail. */
void eng_node_gone(struct eng *e, unsigned node);
/* Nothing to send, resend or acknowledge: a leaving node may stop. */
int eng_idle(struct eng *e);

#endif
