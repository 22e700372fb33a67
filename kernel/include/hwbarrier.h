/* hwbarrier.h - the parallel-port hardware barrier across nodes. */
#ifndef HWBARRIER_H
#define HWBARRIER_H

/* Probe the port named by barrier_port=; report what was found. */
void hwbarrier_init(void);
/* 1 if a port was found. */
int hwbarrier_present(void);
/* Its I/O base, 0 if none. */
unsigned hwbarrier_port(void);
/* One barrier: 0, -ENODEV without a port, -ETIMEDOUT when stuck. */
long hwbarrier_wait(void);

#endif
