/* signal.h - Linux signals for single-threaded ranks (signal.c): a rank
 * can only signal itself; a rank killed by a fault or a signal ends with
 * status 128 + signal, like a shell reports it. */
#ifndef SIGNAL_H
#define SIGNAL_H

#include <stdint.h>

#define SIGILL		4
#define SIGTRAP		5
#define SIGABRT		6
#define SIGBUS		7
#define SIGFPE		8
#define SIGKILL		9
#define SIGSEGV		11
#define SIGALRM		14
#define SIGTERM		15
#define SIGCHLD		17
#define SIGCONT		18
#define SIGSTOP		19
#define SIGTTOU		22
#define SIGURG		23
#define SIGWINCH	28
#define NSIG		64	/* signals are 1..NSIG */

/* struct sigaction as the rt_sigaction system call passes it */
struct ksigaction {
	uint64_t handler, flags, restorer, mask;
};

#define SIG_DFL		0
#define SIG_IGN		1
#define SA_SIGINFO	0x4ul
#define SA_RESTORER	0x04000000ul
#define SA_NODEFER	0x40000000ul
#define SA_RESETHAND	0x80000000ul

struct proc;

/* kill/tkill/tgkill on oneself: 0 or -EINVAL; SIGKILL ends the rank. */
long signal_send(struct proc *p, uint64_t sig);
/* On the way back to user mode from a system call: act on the first
 * pending signal that is not blocked (ignore it, end the rank, or enter
 * its handler). */
void signal_deliver(struct proc *p);
/* A signal is pending that is not blocked: a wait should end (EINTR). */
int signal_ready(const struct proc *p);
long sys_rt_sigaction(struct proc *p, const uint64_t *a);
long sys_rt_sigprocmask(struct proc *p, const uint64_t *a);
long sys_rt_sigreturn(struct proc *p, const uint64_t *a);
long sys_rt_sigpending(struct proc *p, const uint64_t *a);
long sys_rt_sigsuspend(struct proc *p, const uint64_t *a);
/* pause and rt_sigsuspend: wait for a signal (-EINTR), or end the job at
 * once as a deadlock when nothing can send one (no alarm set) */
long signal_wait(struct proc *p, const char *what);
/* ITIMER_REAL, the one timer (SIGALRM); the CPU time ones are ENOSYS */
long sys_alarm(struct proc *p, const uint64_t *a);
long sys_setitimer(struct proc *p, const uint64_t *a);
long sys_getitimer(struct proc *p, const uint64_t *a);

#endif
