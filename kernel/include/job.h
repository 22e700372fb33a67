/* job.h - a job: N ranks of one executable, one per CPU, started together
 * with SMARTMAP across all of them, ended together. */
#ifndef JOB_H
#define JOB_H

#include <stdint.h>
#include "cmdline.h"
#include "cpu.h"
#include "elf.h"
#include "spinlock.h"

struct bootinfo;
struct proc;

struct job {
	unsigned id;
	const struct job_spec *spec;
	char name[64];
	const uint8_t *image;
	uint64_t image_size;
	struct elf_image elf;
	unsigned nranks;
	uint64_t region_base, region_size, stack_size;
	struct proc *procs[CPU_MAX];	/* NULL past the last one prepared */
	int smartmapped;
	volatile unsigned loaded;	/* ranks ready to enter user mode */
	volatile unsigned running;	/* ranks not yet ended */
	volatile int failing;		/* a rank failed: stop the others */
	int status;
	struct spinlock lock;
	uint64_t t_start, t_end;
	uint64_t deadline;		/* TSC of the time limit (time=), 0 if none */
};

/* Node identity (node=, nnodes= on the command line). */
extern uint64_t job_node, job_nnodes;
extern int job_node_auto;	/* node=auto: knet_number() sets job_node */
/* Prefix each output line with [world rank]. */
extern uint64_t job_tag_output;

/* Run every job of the command line in order; the status of the first
 * failing job, or 0. */
int jobs_run(const struct cmdline *cl, const struct bootinfo *bi);
/* A rank of j failed: stop the others (status decides the job's status). */
void job_fail(struct job *j, int status);
/* The job's time limit has passed: say so and stop every rank. */
void job_time_exceeded(struct job *j);
/* Load p's image and stack into its region (on p's CPU), then wait for
 * the whole job; returns the entry point and sets *sp. */
uint64_t job_load_rank(struct proc *p, uint64_t *sp);

#endif
