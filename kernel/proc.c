/*
 * proc.c - a rank's life on its CPU: start, end (from a syscall, a fault
 * or a kill IPI, at any depth: the CPU resumes the context it saved before
 * entering user mode), its console output, and checked access to user
 * memory (uaccess.c).
 */
#include <string.h>
#include <arch/arch.h>
#include <arch/cpu.h>
#include <arch/memlayout.h>
#include <arch/paging.h>
#include "smapos_abi.h"
#include "console.h"
#include "cpu.h"
#include "errno.h"
#include "format.h"
#include "job.h"
#include "printk.h"
#include "proc.h"
#include "signal.h"
#include "time.h"

struct proc *proc_current(void)
{
	return this_cpu()->proc;
}

void proc_timer_arm(struct proc *p, uint64_t sleep)
{
	uint64_t limit = p->rank == 0 ? p->job->deadline : 0;

	if (limit && (!sleep || limit < sleep))
		sleep = limit;
	if (p->alarm_at && (!sleep || p->alarm_at < sleep))
		sleep = p->alarm_at;
	apic_timer_at(sleep);
}

void proc_timer_interrupt(struct trapframe *tf, int from_user)
{
	struct proc *p = proc_current();
	uint64_t now = rdtsc();

	if (!p)
		return;
	if (p->alarm_at && now >= p->alarm_at) {
		/* a period the rank fell behind by is skipped, as Linux does */
		p->alarm_at = !p->alarm_every ? 0 :
			      p->alarm_at + p->alarm_every > now ? p->alarm_at + p->alarm_every :
			      now + p->alarm_every;
		signal_send(p, SIGALRM);
	}
	if (p->rank == 0 && p->job->deadline && now >= p->job->deadline) {
		job_time_exceeded(p->job);
		/* A sleeping rank 0 wakes up and ends on its way out of the kernel. */
		p->killed = 1;
		if (from_user)
			proc_end_current();
		return;
	}
	proc_timer_arm(p, 0);
	if (from_user) {
		/* the interrupt returns with IRETQ: every register as it was,
		 * or as the handler's frame sets them */
		p->tf = tf;
		signal_deliver(p);
	}
}

_Noreturn void proc_deadlock(struct proc *p, const char *what)
{
	pr_err("rank %u (cpu %u): %s with nothing that can ever wake it: deadlock, job ends "
	       "with status %d\n", p->rank, p->cpu->id, what, SMAPOS_EXIT_DEADLOCK);
	proc_end(p, SMAPOS_EXIT_DEADLOCK, 1);
}

void proc_run(struct proc *p)
{
	struct cpu *c = this_cpu();
	uint64_t entry, sp;

	c->proc = p;
	if (kcontext_save(&c->idle_ctx) == 0) {
		paging_switch(p->pml4);
		entry = job_load_rank(p, &sp);
		irq_disable();
		if (p->killed)
			proc_end(p, 128 + SIGKILL, 0);
		p->t_user = rdtsc();
		proc_timer_arm(p, 0);
		arch_user_start(c, entry, sp);
	}
	/* resumed here by proc_end */
	c->proc = NULL;
}

_Noreturn void proc_end(struct proc *p, int status, int culprit)
{
	struct cpu *c = this_cpu();
	struct job *j = p->job;

	irq_disable();
	apic_timer_at(0);
	proc_output_flush(p);
	p->status = status;
	p->culprit = culprit;
	p->t_end = rdtsc();
	/* A rank that ends with a failure ends its job: peers may be
	 * waiting for it (docs/jobs.md); once it has finished communicating
	 * none can be, and its status waits for the job's end. */
	if (culprit || (status && !p->comm_done))
		job_fail(j, status);
	/* Leave the address space before the boot CPU may free it. */
	paging_switch(paging_kernel_pml4());
	__atomic_store_n(&p->done, 1, __ATOMIC_RELEASE);
	if (__atomic_sub_fetch(&j->running, 1, __ATOMIC_ACQ_REL) == 0 && c->id != 0)
		apic_send_ipi(cpus[0]->arch.apic_id, IPI_WAKE);
	kcontext_resume(&c->idle_ctx);
}

_Noreturn void proc_end_current(void)
{
	proc_end(proc_current(), 128 + SIGKILL, 0);
}

/* Write the buffered text of p, each line prefixed when tagging. */
static void flush_locked(struct proc *p, size_t n)
{
	char tag[24];
	int tlen = 0;
	size_t start = 0;

	if (job_tag_output)
		tlen = snprintf(tag, sizeof(tag), "[%lu] ",
				job_node * p->job->nranks + p->rank);
	for (size_t i = 0; i < n; i++) {
		if (p->out[i] != '\n' && i + 1 != n)
			continue;
		if (tlen)
			console_write_locked(tag, tlen);
		console_write_locked(p->out + start, i + 1 - start);
		start = i + 1;
	}
	memmove(p->out, p->out + n, p->outlen - n);
	p->outlen -= n;
}

void proc_output(struct proc *p, const char *s, size_t n)
{
	while (n) {
		size_t room = PROC_OUTBUF - p->outlen, take = n < room ? n : room;
		size_t last_nl = 0;

		memcpy(p->out + p->outlen, s, take);
		p->outlen += take;
		s += take;
		n -= take;
		for (size_t i = 0; i < p->outlen; i++)
			if (p->out[i] == '\n')
				last_nl = i + 1;
		/* Whole lines go out now; a line longer than the buffer goes
		 * out in pieces rather than never. */
		if (!last_nl && p->outlen == PROC_OUTBUF)
			last_nl = PROC_OUTBUF;
		if (last_nl) {
			uint64_t f = spin_lock_irqsave(&console_lock);

			flush_locked(p, last_nl);
			spin_unlock_irqrestore(&console_lock, f);
		}
	}
}

void proc_output_flush(struct proc *p)
{
	if (!p->outlen)
		return;
	if (p->out[p->outlen - 1] != '\n' && p->outlen < PROC_OUTBUF)
		p->out[p->outlen++] = '\n';
	uint64_t f = spin_lock_irqsave(&console_lock);

	flush_locked(p, p->outlen);
	spin_unlock_irqrestore(&console_lock, f);
}
