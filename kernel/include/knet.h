/*
 * knet.h - the kernel's network: the engine of kernel/net/engine.c on a
 * CPU of its own, over the NIC driver (kernel/net/knet.c).
 */
#ifndef KNET_H
#define KNET_H

#include <stdint.h>

struct job;
struct proc;

/* After the NIC: the engine's memory (boot, before the APs). */
void knet_init(void);
/* CPUs the engine takes from a job of several nodes: 1, or 0 when this
 * boot's jobs span one node or the node has no NIC. */
unsigned knet_cpus(void);
/* node=auto with nnodes > 1: sets job_node from the MACs the other nodes
 * broadcast (boot, before the first job).  0, or -1 after saying why. */
int knet_number(void);
/* A job starts: if it spans nodes and this node has a NIC and a CPU to
 * spare, the engine takes the job and starts on its CPU.  Returns the
 * number of CPUs ranks may use. */
unsigned knet_job_begin(struct job *j, unsigned ncpu);
/* Every rank has ended: the engine lets go of the ranks' memory, finishes
 * acknowledging its peers, and leaves its CPU. */
void knet_job_end(struct job *j);
/* j is failing with status: the other nodes must end their part too. */
void knet_job_failed(struct job *j, int status);
/* on: a rank of j waits for every other node (a hardware barrier); the
 * engine pings them and ends the job when one falls silent.  Returns 1 if
 * the engine serves j (it then watches), else 0: nothing watches. */
int knet_watch(struct job *j, int on);
/* The nodes that have left j (bit n: node n), as their engines said. */
uint64_t knet_gone(struct job *j);
/* SMAPOS_SYS_NET_ATTACH */
long knet_sys_attach(struct proc *p, const uint64_t *a);

#endif
