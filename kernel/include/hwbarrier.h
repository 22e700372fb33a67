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
/* One barrier for rank p: 0, -ENODEV without a port, -ETIMEDOUT when
 * another node never arrives, -EINTR when p's job is being stopped. */
long hwbarrier_wait(struct proc *p);
/* After a job: one line with its barriers, time and spins, if it used
 * the wire. */
void hwbarrier_job_report(unsigned job);
/* SMAPOS_SYS_HWBARRIER_INFO: the port and its counters into user memory. */
long hwbarrier_info(struct proc *p, uint64_t buf, uint64_t size);

#endif
