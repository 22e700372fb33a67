/*
 * signal.c - signals as Linux has them for a single-threaded program, the
 * only kind a rank is.  A rank can only signal itself (kill, tkill,
 * tgkill, raise, abort): the signal is pending until it is not blocked,
 * then it is ignored, ends the rank (128 + signal), or runs its handler
 * on the rank's stack and comes back through rt_sigreturn.  Processor
 * faults (SIGSEGV, SIGTRAP from int3, ...) always end the rank: fault.c.
 *
 * Stop signals are ignored: there is no job control to stop a rank for.
 *
 * The one timer is ITIMER_REAL (alarm, setitimer): it arms the rank's CPU
 * timer only while it runs, and SIGALRM interrupts the rank wherever it
 * is, in user mode too (the interrupt's return builds the frame).
 */
#include <arch/arch.h>
#include "cpu.h"
#include "errno.h"
#include "printk.h"
#include "proc.h"
#include "signal.h"
#include "time.h"
#include "uaccess.h"

static uint64_t bit(unsigned sig)
{
	return 1ul << (sig - 1);
}

#define UNBLOCKABLE	(bit(SIGKILL) | bit(SIGSTOP))

static int default_ignored(unsigned sig)
{
	return sig == SIGCHLD || sig == SIGURG || sig == SIGWINCH ||
	       (sig >= SIGCONT && sig <= SIGTTOU);	/* CONT and the stop signals */
}

static int discarded(const struct proc *p, unsigned sig)
{
	uint64_t h = p->sigact[sig - 1].handler;

	return h == SIG_IGN || (h == SIG_DFL && default_ignored(sig));
}

static _Noreturn void killed(struct proc *p, unsigned sig)
{
	pr_err("rank %u (cpu %u): killed by signal %u%s\n", p->rank, p->cpu->id, sig,
	       sig == SIGABRT ? " (abort)" : sig == SIGALRM ? " (alarm)" : "");
	proc_end(p, 128 + (int)sig, 1);
}

long signal_send(struct proc *p, uint64_t sig)
{
	if (sig == 0)
		return 0;	/* the existence probe */
	if (sig > NSIG)
		return -EINVAL;
	if (sig == SIGKILL)
		killed(p, SIGKILL);
	/* Blocked signals are kept even when ignored: the disposition may
	 * change before they are unblocked (as Linux does). */
	if (!(p->sigblocked & bit(sig)) && discarded(p, sig))
		return 0;
	p->sigpending |= bit(sig);
	return 0;
}

int signal_ready(const struct proc *p)
{
	return (p->sigpending & ~p->sigblocked) != 0;
}

void signal_deliver(struct proc *p)
{
	/* the mask the handler returns to: rt_sigsuspend's caller's, if in it */
	int suspended = p->suspended;
	uint64_t ready, back = suspended ? p->suspend_mask : p->sigblocked;

	p->suspended = 0;
	while ((ready = p->sigpending & ~p->sigblocked)) {
		unsigned sig = (unsigned)__builtin_ctzl(ready) + 1;
		struct ksigaction act = p->sigact[sig - 1];

		p->sigpending &= ~bit(sig);
		if (discarded(p, sig))
			continue;
		if (act.handler == SIG_DFL)
			killed(p, sig);
		/* x86-64 handlers return through the library's restorer; a
		 * frame that cannot be written is a SIGSEGV, as on Linux */
		if (!(act.flags & SA_RESTORER) || arch_signal_frame(p, sig, &act, back) < 0) {
			pr_err("rank %u (cpu %u): cannot enter the handler of signal %u (%s)\n",
			       p->rank, p->cpu->id, sig,
			       act.flags & SA_RESTORER ? "bad stack or handler" : "no SA_RESTORER");
			killed(p, SIGSEGV);
		}
		p->sigblocked |= act.mask | (act.flags & SA_NODEFER ? 0 : bit(sig));
		p->sigblocked &= ~UNBLOCKABLE;
		if (act.flags & SA_RESETHAND)
			p->sigact[sig - 1].handler = SIG_DFL;
		return;	/* one frame at a time: the next one after rt_sigreturn */
	}
	if (suspended)
		p->sigblocked = back;	/* rt_sigsuspend's mask ends with the call */
}

long sys_rt_sigaction(struct proc *p, const uint64_t *a)
{
	uint64_t sig = a[0];
	struct ksigaction act, old;

	if (a[3] != 8 || sig == 0 || sig > NSIG)
		return -EINVAL;
	if (a[1]) {
		if (copy_from_user(p, &act, a[1], sizeof(act)) < 0)
			return -EFAULT;
		if (bit((unsigned)sig) & UNBLOCKABLE)
			return -EINVAL;
	}
	old = p->sigact[sig - 1];
	if (a[1]) {
		act.mask &= ~UNBLOCKABLE;
		p->sigact[sig - 1] = act;
		if (discarded(p, (unsigned)sig))
			p->sigpending &= ~bit((unsigned)sig);
	}
	return a[2] ? copy_to_user(p, a[2], &old, sizeof(old)) : 0;
}

long sys_rt_sigprocmask(struct proc *p, const uint64_t *a)
{
	uint64_t old = p->sigblocked, set;

	if (a[3] != 8)
		return -EINVAL;
	if (a[1]) {
		if (copy_from_user(p, &set, a[1], sizeof(set)) < 0)
			return -EFAULT;
		switch (a[0]) {
		case 0:	/* SIG_BLOCK */
			p->sigblocked |= set;
			break;
		case 1:	/* SIG_UNBLOCK */
			p->sigblocked &= ~set;
			break;
		case 2:	/* SIG_SETMASK */
			p->sigblocked = set;
			break;
		default:
			return -EINVAL;
		}
		p->sigblocked &= ~UNBLOCKABLE;
	}
	return a[2] ? copy_to_user(p, a[2], &old, sizeof(old)) : 0;
}

long sys_rt_sigreturn(struct proc *p, const uint64_t *a)
{
	uint64_t mask, rax;

	(void)a;
	if (arch_signal_return(p, &mask, &rax) < 0) {
		pr_err("rank %u (cpu %u): rt_sigreturn with no valid signal frame\n", p->rank,
		       p->cpu->id);
		killed(p, SIGSEGV);
	}
	p->sigblocked = mask & ~UNBLOCKABLE;
	return (long)rax;
}

/* Only the alarm can send a signal while a rank waits: with none set, the
 * wait is a deadlock.  Returns -EINTR once a signal is ready. */
long signal_wait(struct proc *p, const char *what)
{
	irq_disable();
	while (!signal_ready(p) && !p->killed) {
		if (!p->alarm_at)
			proc_deadlock(p, what);
		proc_timer_arm(p, 0);
		cpu_idle();
	}
	irq_enable();
	return -EINTR;
}

long sys_rt_sigsuspend(struct proc *p, const uint64_t *a)
{
	uint64_t mask;

	if (a[1] != 8)
		return -EINVAL;
	if (copy_from_user(p, &mask, a[0], sizeof(mask)) < 0)
		return -EFAULT;
	p->suspend_mask = p->sigblocked;
	p->sigblocked = mask & ~UNBLOCKABLE;
	p->suspended = 1;
	return signal_wait(p, "rt_sigsuspend");
}

long sys_rt_sigpending(struct proc *p, const uint64_t *a)
{
	if (a[1] != 8)
		return -EINVAL;
	return copy_to_user(p, a[0], &p->sigpending, sizeof(p->sigpending));
}

/* ---- ITIMER_REAL ---- */

struct timeval_u {
	int64_t sec, usec;
};

struct itimerval_u {
	struct timeval_u interval, value;
};

#define ITIMER_REAL	0
#define ITIMER_PROF	2
#define USEC		1000000
/* Timers beyond ~31 years run for ~31 years: the TSC sums cannot overflow. */
#define TIMER_SEC_MAX	1000000000

/* A timeval from the user, in TSC ticks: 0 or -EINVAL. */
static long timeval_tsc(const struct timeval_u *tv, uint64_t *tsc)
{
	if (tv->sec < 0 || tv->usec < 0 || tv->usec >= USEC)
		return -EINVAL;
	*tsc = ns_to_tsc((uint64_t)(tv->sec > TIMER_SEC_MAX ? TIMER_SEC_MAX : tv->sec) *
			 1000000000u + (uint64_t)tv->usec * 1000u);
	return 0;
}

/* TSC ticks as a timeval, rounded up to the microsecond (a timer that
 * has not expired never reads as 0, which would mean off). */
static struct timeval_u tsc_timeval(uint64_t tsc)
{
	uint64_t us = (tsc_to_ns(tsc) + 999) / 1000;

	return (struct timeval_u){ .sec = (int64_t)(us / USEC), .usec = (int64_t)(us % USEC) };
}

static struct itimerval_u alarm_get(const struct proc *p)
{
	uint64_t now = rdtsc();

	return (struct itimerval_u){
		.interval = tsc_timeval(p->alarm_every),
		.value = tsc_timeval(!p->alarm_at ? 0 : p->alarm_at > now ? p->alarm_at - now : 1),
	};
}

static void alarm_set(struct proc *p, uint64_t value, uint64_t every)
{
	uint64_t f = irq_save();

	p->alarm_at = value ? rdtsc() + value : 0;
	p->alarm_every = value ? every : 0;
	proc_timer_arm(p, 0);
	irq_restore(f);
}

long sys_setitimer(struct proc *p, const uint64_t *a)
{
	struct itimerval_u nv, old;
	uint64_t value, every;
	int which = (int)a[0];

	if (which < ITIMER_REAL || which > ITIMER_PROF)
		return -EINVAL;
	if (which != ITIMER_REAL)
		return -ENOSYS;	/* CPU time: docs/syscalls.md */
	if (copy_from_user(p, &nv, a[1], sizeof(nv)) < 0)
		return -EFAULT;
	if (timeval_tsc(&nv.value, &value) < 0 || timeval_tsc(&nv.interval, &every) < 0)
		return -EINVAL;
	if (a[2] && !urange_ok(p, a[2], sizeof(old), 1))
		return -EFAULT;
	old = alarm_get(p);
	alarm_set(p, value, every);
	return a[2] ? copy_to_user(p, a[2], &old, sizeof(old)) : 0;
}

long sys_getitimer(struct proc *p, const uint64_t *a)
{
	struct itimerval_u cur;
	int which = (int)a[0];

	if (which < ITIMER_REAL || which > ITIMER_PROF)
		return -EINVAL;
	if (which != ITIMER_REAL)
		return -ENOSYS;
	cur = alarm_get(p);
	return copy_to_user(p, a[1], &cur, sizeof(cur));
}

long sys_alarm(struct proc *p, const uint64_t *a)
{
	struct itimerval_u old = alarm_get(p);
	uint64_t value;
	struct timeval_u tv = { .sec = (int64_t)(uint32_t)a[0] };

	timeval_tsc(&tv, &value);
	alarm_set(p, value, 0);
	/* seconds left, rounded to the nearest, and 1 rather than 0 (Linux) */
	return old.value.sec + (old.value.usec >= USEC / 2) +
	       (!old.value.sec && old.value.usec && old.value.usec < USEC / 2);
}
