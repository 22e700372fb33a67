/*
 * rpipe.h - rmalloc() and rpipe(): remote memory allocation and one-sided
 * pipes between two ranks, after Wickramasinghe and Lumsdaine's uGNI
 * library, on SMARTMAP (docs/rpipe.md).
 *
 * A pipe joins two ranks of the job, on one node or two.  The end that
 * reads offers a heap in its own memory; the end that writes allocates in
 * that heap with rmalloc() without the reader taking part, fills the
 * allocation with rwrite() (or, on one node, plain stores through rmem()),
 * and rwrite() raises a notification the reader polls for in rread().
 * Neither side ever calls a synchronisation routine: the notification is
 * the synchronisation.
 *
 * Every function returns a negative errno on failure (rmalloc: RADDR_NULL
 * with errno set) and misuse prints one line naming the call.
 */
#ifndef RPIPE_H
#define RPIPE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rpipe *rpipe_t;

/*
 * An allocation in a pipe's heap: its address in the SMARTMAP slot of the
 * rank whose memory holds it, so the same number reaches it from either
 * end.  Between nodes, a name: the owner's own address with its world
 * rank + 1 in bits 48 and up.  RADDR_NULL is no allocation.
 */
typedef uint64_t raddr_t;
#define RADDR_NULL	((raddr_t)0)

/* rpipe() flags: which way this end works, and how it allocates. */
#define RPIPE_READ		1	/* this end reads: its memory holds a heap */
#define RPIPE_WRITE		2	/* this end writes into the peer's heap */
#define RPIPE_DUPLEX		(RPIPE_READ | RPIPE_WRITE)
#define RMALLOC_NEXT_FIT	0	/* default, as in the original */
#define RMALLOC_BEST_FIT	0x10
#define RMALLOC_WORST_FIT	0x20

/* Heap offered by a reading end when rpipe() is given 0 bytes. */
#define RPIPE_HEAP_DEFAULT	(4u << 20)

/* Sets *rank and *nranks (the job's world numbering, what rpipe() takes;
 * either may be NULL).  0. */
int rinit(int *rank, int *nranks);
/* Collective over every rank of the job: returns once no rank can touch
 * another's pipes any more.  0. */
int rfinalize(void);

/*
 * Collective between this rank and `peer` (a rank of the job): both call
 * it, one end RPIPE_WRITE and the other RPIPE_READ, or both RPIPE_DUPLEX;
 * heap_bytes is the heap this end offers if it reads.  Pipes between the
 * same two ranks are matched in the order they are made.  0 with *rp set;
 * -EINVAL (bad peer, flags that do not match the peer's), -ENOMEM, or
 * the reason the network is down (peer on another node).
 */
int rpipe(rpipe_t *rp, int peer, int flags, size_t heap_bytes);
/* Closes this end without waiting, like close(2): the other end can still
 * read what was written to it, and its rmalloc/rwrite then fail with
 * -EPIPE.  Each end's memory is freed once both have closed.  0. */
int rclose(rpipe_t rp);

/* Writing end: `bytes` (0 is 1) in the peer's heap, with the pipe's policy;
 * RADDR_NULL and errno ENOMEM when no hole fits (not an error: rfree makes
 * room), EBADF if this end does not write, EPIPE if the peer closed. */
raddr_t rmalloc(rpipe_t rp, size_t bytes);
/* Either end: gives an allocation back to its heap.  0 or -EINVAL. */
int rfree(rpipe_t rp, raddr_t ra);
/* Where this rank loads and stores the allocation ra (from either end);
 * NULL with errno EREMOTE for the peer's memory on another node (rwrite
 * reaches it), NULL with EINVAL if ra is not an allocation. */
void *rmem(rpipe_t rp, raddr_t ra);
/* Bytes the allocation ra can hold, 0 if ra is not one of this pipe's. */
size_t rsize(rpipe_t rp, raddr_t ra);

/*
 * Writing end: copies len bytes into the allocation ra and notifies the
 * reader.  If ra still carries a notification the reader has not taken,
 * it first waits until the reader has (so a writer can reuse one
 * allocation for a stream).  0, -EINVAL (ra not an allocation of the
 * peer's heap, len larger than it), -EBADF, -EPIPE (the peer closed).
 */
int rwrite(rpipe_t rp, raddr_t ra, const void *buf, size_t len);
/*
 * Reading end: waits for the next notification, in the order the writer
 * made them; sets *ra (if ra is not NULL) to its allocation and copies up
 * to len of its bytes into buf (if buf is not NULL).  Returns the length
 * the writer wrote, -EBADF.  The allocation stays the reader's to use
 * through rmem() until someone rfree()s it.
 */
ssize_t rread(rpipe_t rp, raddr_t *ra, void *buf, size_t len);
/* Reading end: 1 if rread() would not wait, 0 if it would, -EBADF. */
int rpoll(rpipe_t rp);

#ifdef __cplusplus
}
#endif

#endif
