/* hwbarrier.h - the parallel-port hardware barrier across nodes
 * (drivers/parport.c, docs/barrier.md). */
#ifndef HWBARRIER_H
#define HWBARRIER_H

#include <stdint.h>

struct proc;

/* Probe the port named by barrier_port=; report what was found. */
void hwbarrier_init(void);
/* 1 if a port was found. */
int hwbarrier_present(void);
/* Its I/O base, 0 if none. */
unsigned hwbarrier_port(void);
/* Rank p enters this node's barrier, or goes on waiting in the one it
 * entered: 0 once it completed, -EAGAIN after slice_ms (0: no limit) with
 * the barrier still open, -ENODEV without a port, -EINTR when p's job is
 * being stopped, -ETIMEDOUT after barrier_timeout= ms in all unless
 * watched (the network engine tells a dead node from a slow one). */
long hwbarrier_wait(struct proc *p, uint64_t slice_ms, int watched);
/* Gives up the open barrier, if any, saying why: -ESRCH, or 0 if none. */
long hwbarrier_abandon(const char *why);
/* After a job: gives up a barrier it left open, then one line with its
 * barriers, time and spins, if it used the wire. */
void hwbarrier_job_end(unsigned job);
/* SMAPOS_SYS_HWBARRIER_INFO: the port and its counters into user memory. */
long hwbarrier_info(struct proc *p, uint64_t buf, uint64_t size);

#endif
