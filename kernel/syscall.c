/*
 * syscall.c - the Linux x86-64 system calls a static musl program makes,
 * with Linux's numbers, semantics and errno values, plus the LWK calls of
 * smapos_abi.h.  Everything else returns -ENOSYS and is reported once per
 * number per job.
 *
 * One rank per core and no other threads shape the answers: sched_yield
 * has nobody to yield to, futexes have nobody to wake, signals are never
 * delivered asynchronously (kill/tkill on oneself ends the rank with that
 * signal, as an unhandled signal would).
 */
#include <string.h>
#include <arch/arch.h>
#include <arch/cpu.h>
#include <arch/memlayout.h>
#include "smapos_abi.h"
#include "acpi.h"
#include "cpu.h"
#include "errno.h"
#include "hwbarrier.h"
#include "format.h"
#include "job.h"
#include "kernel.h"
#include "kmem.h"
#include "printk.h"
#include "proc.h"
#include "random.h"
#include "signal.h"
#include "syscall.h"
#include "time.h"
#include "version.h"

enum {
	SYS_read = 0, SYS_write = 1, SYS_close = 3, SYS_fstat = 5, SYS_lseek = 8,
	SYS_mmap = 9, SYS_mprotect = 10, SYS_munmap = 11, SYS_brk = 12, SYS_mremap = 25,
	SYS_rt_sigaction = 13, SYS_rt_sigprocmask = 14, SYS_ioctl = 16,
	SYS_readv = 19, SYS_writev = 20, SYS_sched_yield = 24, SYS_madvise = 28,
	SYS_nanosleep = 35, SYS_getpid = 39, SYS_exit = 60, SYS_kill = 62,
	SYS_uname = 63, SYS_gettimeofday = 96, SYS_getrlimit = 97, SYS_getuid = 102,
	SYS_getgid = 104, SYS_geteuid = 107, SYS_getegid = 108, SYS_getppid = 110,
	SYS_sigaltstack = 131, SYS_arch_prctl = 158, SYS_gettid = 186, SYS_tkill = 200,
	SYS_time = 201, SYS_futex = 202, SYS_sched_getaffinity = 204,
	SYS_set_tid_address = 218, SYS_clock_gettime = 228, SYS_clock_getres = 229,
	SYS_clock_nanosleep = 230, SYS_exit_group = 231, SYS_tgkill = 234,
	SYS_prlimit64 = 302, SYS_getrandom = 318,
	/* glibc's static start-up (C++ and Fortran programs) */
	SYS_readlink = 89, SYS_sched_setaffinity = 203, SYS_newfstatat = 262,
	SYS_set_robust_list = 273, SYS_rseq = 334,
};

#define NSYS_LOGGED	1024

static uint8_t enosys_logged[(NSYS_LOGGED + SMAPOS_SYS_BASE) / 8];
static unsigned enosys_job = ~0u;

static uint64_t rtc_epoch, rtc_tsc;	/* wall clock at boot, and when it was read */

void syscall_init_clock(uint64_t epoch_seconds, uint64_t at_tsc)
{
	rtc_epoch = epoch_seconds;
	rtc_tsc = at_tsc;
}

static long pid_of(const struct proc *p)
{
	/* pids start at 1: 0 means "this process" or "no process" in the ABI */
	return (long)(job_node * p->job->nranks + p->rank) + 1;
}

static long do_write(struct proc *p, uint64_t fd, uint64_t buf, uint64_t len)
{
	const char *s;

	if (fd != 1 && fd != 2)
		return -EBADF;
	if (len == 0)
		return 0;
	if (len > (1ul << 30))
		len = 1ul << 30;
	s = uaddr(p, buf, len, 0);
	if (!s)
		return -EFAULT;
	proc_output(p, s, len);
	return (long)len;
}

struct iovec_u {
	uint64_t base, len;
};

static long do_writev(struct proc *p, uint64_t fd, uint64_t iov, uint64_t cnt)
{
	const struct iovec_u *v;
	long total = 0;

	if (fd != 1 && fd != 2)
		return -EBADF;
	if (cnt > 1024)
		return -EINVAL;
	if (cnt == 0)
		return 0;
	v = uaddr(p, iov, cnt * sizeof(*v), 0);
	if (!v)
		return -EFAULT;
	for (uint64_t i = 0; i < cnt; i++)
		if (v[i].len && !uaddr(p, v[i].base, v[i].len, 0))
			return -EFAULT;
	for (uint64_t i = 0; i < cnt; i++) {
		if (!v[i].len)
			continue;
		proc_output(p, uaddr(p, v[i].base, v[i].len, 0), v[i].len);
		total += (long)v[i].len;
	}
	return total;
}

static long do_readv(struct proc *p, uint64_t fd, uint64_t iov, uint64_t cnt)
{
	if (fd != 0)
		return -EBADF;
	if (cnt > 1024)
		return -EINVAL;
	if (cnt && !uaddr(p, iov, cnt * sizeof(struct iovec_u), 0))
		return -EFAULT;
	return 0;	/* stdin is empty: end of file */
}

struct kstat {
	uint64_t dev, ino, nlink;
	uint32_t mode, uid, gid, pad0;
	uint64_t rdev;
	int64_t size, blksize, blocks;
	uint64_t atime, atime_ns, mtime, mtime_ns, ctime, ctime_ns;
	int64_t unused[3];
};

static long do_fstat(struct proc *p, uint64_t fd, uint64_t buf)
{
	struct kstat *st;

	if (fd > 2)
		return -EBADF;
	st = uaddr(p, buf, sizeof(*st), 1);
	if (!st)
		return -EFAULT;
	memset(st, 0, sizeof(*st));
	st->mode = 0020620;	/* S_IFCHR | rw--w---- : a serial console */
	st->nlink = 1;
	st->rdev = (4 << 8) | 64;	/* ttyS0 */
	st->blksize = 1024;
	return 0;
}

static long do_ioctl(uint64_t fd, uint64_t req)
{
	(void)req;
	if (fd > 2)
		return -EBADF;
	return -ENOTTY;	/* TIOCGWINSZ and everything else: not a terminal */
}

struct timespec_u {
	int64_t sec, nsec;
};

static uint64_t clock_ns(uint64_t clk, int *ok)
{
	uint64_t now = rdtsc();

	*ok = 1;
	switch (clk) {
	case 0:	/* REALTIME */
	case 5:	/* REALTIME_COARSE */
	case 8:	/* REALTIME_ALARM */
	case 11:	/* TAI */
		return rtc_epoch * 1000000000ull + tsc_to_ns(now - rtc_tsc);
	case 1: case 4: case 6: case 7: case 9:	/* MONOTONIC, _RAW, _COARSE, BOOTTIME(_ALARM) */
		return tsc_to_ns(now);
	case 2: case 3: {	/* PROCESS/THREAD_CPUTIME: the rank owns its CPU */
		struct proc *p = proc_current();

		return tsc_to_ns(now - p->t_user);
	}
	}
	*ok = 0;
	return 0;
}

static long do_clock_gettime(struct proc *p, uint64_t clk, uint64_t tsp)
{
	struct timespec_u *ts;
	int ok;
	uint64_t ns = clock_ns(clk, &ok);

	if (!ok)
		return -EINVAL;
	ts = uaddr(p, tsp, sizeof(*ts), 1);
	if (!ts)
		return -EFAULT;
	ts->sec = (int64_t)(ns / 1000000000u);
	ts->nsec = (int64_t)(ns % 1000000000u);
	return 0;
}

/* Sleep until TSC `deadline` with the CPU halted (no spinning: under an
 * emulator other vCPUs need the host cores); the job's kill IPI wakes us. */
static void sleep_until(struct proc *p, uint64_t deadline)
{
	irq_disable();
	while (rdtsc() < deadline && !p->killed) {
		proc_timer_arm(p, deadline);
		cpu_idle();
	}
	proc_timer_arm(p, 0);
	irq_enable();
}

static long do_nanosleep(struct proc *p, uint64_t clk, uint64_t flags, uint64_t req, uint64_t rem)
{
	const struct timespec_u *ts = uaddr(p, req, sizeof(*ts), 0);
	uint64_t ns, deadline;
	int ok;

	if (!ts)
		return -EFAULT;
	if (ts->sec < 0 || ts->nsec < 0 || ts->nsec >= 1000000000)
		return -EINVAL;
	if (rem && !uaddr(p, rem, sizeof(struct timespec_u), 1))
		return -EFAULT;
	ns = (uint64_t)ts->sec * 1000000000u + (uint64_t)ts->nsec;
	if (flags & 1) {	/* TIMER_ABSTIME */
		uint64_t now = clock_ns(clk, &ok);

		if (!ok)
			return -EINVAL;
		ns = ns > now ? ns - now : 0;
	} else {
		clock_ns(clk, &ok);
		if (!ok)
			return -EINVAL;
	}
	if (ns > 1000000000ull * 86400 * 365)
		ns = 1000000000ull * 86400 * 365;
	deadline = rdtsc() + ns_to_tsc(ns);
	sleep_until(p, deadline);
	return 0;
}

static long do_futex(struct proc *p, uint64_t uaddr_, uint64_t op, uint64_t val, uint64_t tsp)
{
	const volatile uint32_t *word;
	unsigned cmd = op & 0x7f;	/* without PRIVATE and CLOCK_REALTIME */

	word = uaddr(p, uaddr_, 4, 0);
	if (!word || (uaddr_ & 3))
		return -EFAULT;
	switch (cmd) {
	case 0:	/* WAIT */
	case 9:	/* WAIT_BITSET */
		if (*word != (uint32_t)val)
			return -EAGAIN;
		if (tsp) {
			const struct timespec_u *ts = uaddr(p, tsp, sizeof(*ts), 0);

			if (!ts)
				return -EFAULT;
			if (ts->sec < 0 || ts->nsec < 0 || ts->nsec >= 1000000000)
				return -EINVAL;
			sleep_until(p, rdtsc() + ns_to_tsc((uint64_t)ts->sec * 1000000000u +
							   (uint64_t)ts->nsec));
			return -ETIMEDOUT;
		}
		/* No other thread exists to wake us: that is a deadlock. */
		pr_warn("rank %u: futex wait with no other thread can never be woken\n", p->rank);
		sleep_until(p, UINT64_MAX);
		return -EINTR;
	case 1:	/* WAKE */
	case 10:	/* WAKE_BITSET */
		return 0;
	}
	return -ENOSYS;
}

struct utsname_u {
	char sysname[65], nodename[65], release[65], version[65], machine[65], domainname[65];
};

static long do_uname(struct proc *p, uint64_t buf)
{
	struct utsname_u *u = uaddr(p, buf, sizeof(*u), 1);

	if (!u)
		return -EFAULT;
	memset(u, 0, sizeof(*u));
	snprintf(u->sysname, sizeof(u->sysname), "%s", "smapos");
	snprintf(u->nodename, sizeof(u->nodename), "node%lu", job_node);
	snprintf(u->release, sizeof(u->release), "%s", SMAPOS_VERSION);
	snprintf(u->version, sizeof(u->version), "%s", "smapos LWK " __DATE__);
	snprintf(u->machine, sizeof(u->machine), "%s", "x86_64");
	return 0;
}

struct rlimit_u {
	uint64_t cur, max;
};

#define RLIM_INFINITY	(~0ul)

static void rlimit_of(struct proc *p, uint64_t res, struct rlimit_u *r)
{
	r->cur = r->max = RLIM_INFINITY;
	switch (res) {
	case 2:		/* DATA */
	case 9:		/* AS */
		r->cur = r->max = p->end - p->base;
		break;
	case 3:		/* STACK */
		r->cur = r->max = p->job->stack_size;
		break;
	case 6:		/* NPROC */
		r->cur = r->max = 1;
		break;
	case 7:		/* NOFILE */
		r->cur = r->max = 3;
		break;
	}
}

static long do_prlimit(struct proc *p, uint64_t pid, uint64_t res, uint64_t newp, uint64_t oldp)
{
	struct rlimit_u *old;

	if (pid && (long)pid != pid_of(p))
		return -ESRCH;
	if (res >= 16)
		return -EINVAL;
	if (newp) {
		if (!uaddr(p, newp, sizeof(struct rlimit_u), 0))
			return -EFAULT;
		return -EPERM;	/* the layout is fixed when the job starts */
	}
	if (oldp) {
		old = uaddr(p, oldp, sizeof(*old), 1);
		if (!old)
			return -EFAULT;
		rlimit_of(p, res, old);
	}
	return 0;
}

static long do_signal_self(struct proc *p, uint64_t sig)
{
	if (sig == 0)
		return 0;
	if (sig >= NSIG)
		return -EINVAL;
	pr_err("rank %u (cpu %u): killed by signal %lu%s\n", p->rank, p->cpu->id, sig,
	       sig == SIGABRT ? " (abort)" : "");
	proc_end(p, 128 + (int)sig, 1);
}

static long do_getrandom(struct proc *p, uint64_t buf, uint64_t len, uint64_t flags)
{
	void *b;

	if (flags & ~7ul)
		return -EINVAL;
	if (len > (32u << 20))
		len = 32u << 20;
	if (len == 0)
		return 0;
	b = uaddr(p, buf, len, 1);
	if (!b)
		return -EFAULT;
	random_bytes(b, len);
	return (long)len;
}

static long do_jobinfo(struct proc *p, uint64_t buf, uint64_t size)
{
	struct smapos_jobinfo ji;
	memset(&ji, 0, sizeof(ji));
	ji.version = SMAPOS_JOBINFO_VERSION;
	ji.size = sizeof(ji);
	ji.rank = p->rank;
	ji.nranks = p->job->nranks;
	ji.node = (uint32_t)job_node;
	ji.nnodes = (uint32_t)job_nnodes;
	ji.cpu = p->cpu->id;
	ji.job_id = p->job->id;
	ji.flags = hwbarrier_present() ? SMAPOS_JOB_HWBARRIER : 0;
	ji.tsc_hz = tsc_hz;
	ji.region_base = p->base;
	ji.region_size = p->end - p->base;
	ji.region_phys = p->phys;
	ji.job_start_tsc = p->job->t_start;
	return copy_record(p, buf, size, &ji, sizeof(ji));
}

static long do_nodeinfo(struct proc *p, uint64_t buf, uint64_t size)
{
	struct smapos_nodeinfo ni;
	memset(&ni, 0, sizeof(ni));
	ni.version = SMAPOS_JOBINFO_VERSION;
	ni.size = sizeof(ni);
	ni.cpus_present = acpi.ncpus ? acpi.ncpus : 1;
	for (unsigned i = 0; i < ncpus; i++)
		ni.cpus_online += cpus[i]->online;
	ni.numa_nodes = acpi.nnodes ? acpi.nnodes : 1;
	ni.x2apic = (uint32_t)apic_x2apic();
	ni.tsc_hz = tsc_hz;
	ni.mem_usable = node_mem_usable;
	ni.mem_kernel = kmem_kernel_total();
	ni.mem_ranks = kmem_user_total();
	ni.boot_tsc = tsc_boot;
	ni.online_tsc = node_online_tsc;
	ni.barrier_port = hwbarrier_port();
	return copy_record(p, buf, size, &ni, sizeof(ni));
}

/*
 * readlink("/proc/self/exe"), which glibc's static start-up asks: the
 * module the job runs, as an absolute path like Linux's answer.  Other
 * paths are files (ENOENT here: there is no file system).
 */
static long do_readlink(struct proc *p, uint64_t path, uint64_t buf, uint64_t size)
{
	static const char self[] = "/proc/self/exe";
	char want[sizeof(self)], name[sizeof(p->job->name) + 1];
	const char *s = uaddr(p, path, sizeof(self), 0);
	char *out;
	size_t n;

	if (!s)
		return -ENOENT;
	memcpy(want, s, sizeof(want));
	if (memcmp(want, self, sizeof(self)))
		return -ENOENT;
	if ((long)size <= 0)
		return -EINVAL;
	n = (size_t)snprintf(name, sizeof(name), "/%s", p->job->name);
	if (n > size)
		n = size;
	out = uaddr(p, buf, n, 1);
	if (!out)
		return -EFAULT;
	memcpy(out, name, n);
	return (long)n;
}

/*
 * rseq: a rank never migrates, is never preempted and gets no signals, so
 * no critical section can ever need an abort and the CPU number written at
 * registration stays true: registering is filling cpu_id once (glibc's
 * sched_getcpu then reads it without a system call).
 */
struct rseq_u {
	uint32_t cpu_id_start, cpu_id;
	uint64_t rseq_cs;
	uint32_t flags, node_id;
};

static long do_rseq(struct proc *p, uint64_t addr, uint64_t len, uint64_t flags)
{
	struct rseq_u *r;

	if (len < 32 || (addr & 31) || flags > 1)
		return -EINVAL;
	r = uaddr(p, addr, sizeof(*r), 1);
	if (!r)
		return -EFAULT;
	/* unregistering (flags 1) leaves RSEQ_CPU_ID_UNINITIALIZED */
	r->cpu_id_start = flags ? 0 : p->cpu->id;
	r->cpu_id = flags ? ~0u : p->cpu->id;
	r->node_id = 0;
	return 0;
}

/* The rank's own CPU is the only one it may have: a mask holding it is
 * accepted (nothing changes), any other is EINVAL (no allowed CPU). */
static long do_sched_setaffinity(struct proc *p, uint64_t pid, uint64_t len, uint64_t mask)
{
	unsigned cpu = p->cpu->id;
	const uint8_t *m;

	if (pid != 0 && (long)pid != pid_of(p))
		return -ESRCH;
	if (cpu / 8 >= len)
		return -EINVAL;
	m = uaddr(p, mask + cpu / 8, 1, 0);
	if (!m)
		return -EFAULT;
	return (*m & (1u << (cpu % 8))) ? 0 : -EINVAL;
}

static long enosys(struct proc *p, uint64_t nr)
{
	if (enosys_job != p->job->id) {
		memset(enosys_logged, 0, sizeof(enosys_logged));
		enosys_job = p->job->id;
	}
	if (nr < sizeof(enosys_logged) * 8) {
		if (__atomic_fetch_or(&enosys_logged[nr / 8], 1u << (nr % 8), __ATOMIC_RELAXED) &
		    (1u << (nr % 8)))
			return -ENOSYS;
		pr_warn("rank %u: system call %lu is not supported (ENOSYS)\n", p->rank, nr);
	}
	return -ENOSYS;
}

long syscall_run(struct proc *p, uint64_t nr, const uint64_t a[6])
{
	p->syscalls++;
	switch (nr) {
	case SYS_read:
		if (a[0] != 0)
			return -EBADF;
		return a[2] && !uaddr(p, a[1], a[2], 1) ? -EFAULT : 0;
	case SYS_write:
		return do_write(p, a[0], a[1], a[2]);
	case SYS_readv:
		return do_readv(p, a[0], a[1], a[2]);
	case SYS_writev:
		return do_writev(p, a[0], a[1], a[2]);
	case SYS_close:
		return a[0] <= 2 ? 0 : -EBADF;
	case SYS_fstat:
		return do_fstat(p, a[0], a[1]);
	case SYS_lseek:
		return a[0] <= 2 ? -ESPIPE : -EBADF;
	case SYS_ioctl:
		return do_ioctl(a[0], a[1]);
	case SYS_brk:
		return sys_brk(p, a[0]);
	case SYS_mmap:
		return sys_mmap(p, a[0], a[1], a[2], a[3], a[4], a[5]);
	case SYS_munmap:
		return sys_munmap(p, a[0], a[1]);
	case SYS_mremap:
		return sys_mremap(p, a[0], a[1], a[2], a[3]);
	case SYS_mprotect:
		return sys_mprotect(p, a[0], a[1], a[2]);
	case SYS_madvise:
		return sys_madvise(p, a[0], a[1], a[2]);
	case SYS_rt_sigaction:
		/* accepted; no signal is ever delivered to a handler */
		if (a[0] == 0 || a[0] >= NSIG || a[0] == SIGKILL)
			return -EINVAL;
		if (a[3] != 8)
			return -EINVAL;
		if (a[1] && !uaddr(p, a[1], 32, 0))
			return -EFAULT;
		if (a[2]) {
			void *old = uaddr(p, a[2], 32, 1);

			if (!old)
				return -EFAULT;
			memset(old, 0, 32);
		}
		return 0;
	case SYS_rt_sigprocmask:
		if (a[0] > 2 || a[3] != 8)
			return -EINVAL;
		if (a[1] && !uaddr(p, a[1], 8, 0))
			return -EFAULT;
		if (a[2]) {
			uint64_t *old = uaddr(p, a[2], 8, 1);

			if (!old)
				return -EFAULT;
			*old = 0;
		}
		return 0;
	case SYS_sigaltstack:
		if (a[1]) {
			uint64_t *old = uaddr(p, a[1], 24, 1);

			if (!old)
				return -EFAULT;
			old[0] = 0;
			old[1] = 2;	/* SS_DISABLE */
			old[2] = 0;
		}
		return a[0] && !uaddr(p, a[0], 24, 0) ? -EFAULT : 0;
	case SYS_sched_yield:
		return 0;
	case SYS_nanosleep:
		return do_nanosleep(p, 1, 0, a[0], a[1]);
	case SYS_clock_nanosleep:
		/* -errno like every raw call (the C function's positive error
		 * number is the library's doing) */
		return do_nanosleep(p, a[0], a[1], a[2], a[3]);
	case SYS_getpid:
	case SYS_gettid:
		return pid_of(p);
	case SYS_getppid:
		return 0;
	case SYS_getuid:
	case SYS_getgid:
	case SYS_geteuid:
	case SYS_getegid:
		return 0;
	case SYS_exit:
	case SYS_exit_group:
		proc_end(p, (int)(a[0] & 0xFF), 0);
	case SYS_kill:
		if (a[0] != 0 && (long)a[0] != pid_of(p) && (long)a[0] != -1)
			return -ESRCH;
		return do_signal_self(p, a[1]);
	case SYS_tkill:
		if ((long)a[0] != pid_of(p))
			return -ESRCH;
		return do_signal_self(p, a[1]);
	case SYS_tgkill:
		if ((long)a[0] != pid_of(p) || (long)a[1] != pid_of(p))
			return -ESRCH;
		return do_signal_self(p, a[2]);
	case SYS_uname:
		return do_uname(p, a[0]);
	case SYS_gettimeofday:
		if (a[0]) {
			int64_t *tv = uaddr(p, a[0], 16, 1);
			int ok;
			uint64_t ns = clock_ns(0, &ok);

			if (!tv)
				return -EFAULT;
			tv[0] = (int64_t)(ns / 1000000000u);
			tv[1] = (int64_t)(ns % 1000000000u / 1000u);
		}
		if (a[1]) {
			int32_t *tz = uaddr(p, a[1], 8, 1);	/* struct timezone: UTC */

			if (!tz)
				return -EFAULT;
			tz[0] = tz[1] = 0;
		}
		return 0;
	case SYS_time: {
		int ok;
		long t = (long)(clock_ns(0, &ok) / 1000000000u);

		if (a[0]) {
			int64_t *tp = uaddr(p, a[0], 8, 1);

			if (!tp)
				return -EFAULT;
			*tp = t;
		}
		return t;
	}
	case SYS_clock_gettime:
		return do_clock_gettime(p, a[0], a[1]);
	case SYS_clock_getres: {
		int ok;

		clock_ns(a[0], &ok);
		if (!ok)
			return -EINVAL;
		if (a[1]) {
			struct timespec_u *ts = uaddr(p, a[1], sizeof(*ts), 1);

			if (!ts)
				return -EFAULT;
			ts->sec = 0;
			ts->nsec = 1;
		}
		return 0;
	}
	case SYS_getrlimit:
		return do_prlimit(p, 0, a[0], 0, a[1]);
	case SYS_prlimit64:
		return do_prlimit(p, a[0], a[1], a[2], a[3]);
	case SYS_arch_prctl:
		switch (a[0]) {
		case 0x1002:	/* ARCH_SET_FS */
			return arch_set_fs(a[1]) < 0 ? -EPERM : 0;
		case 0x1003: {	/* ARCH_GET_FS */
			uint64_t *out = uaddr(p, a[1], 8, 1);

			if (!out)
				return -EFAULT;
			*out = arch_get_fs();
			return 0;
		}
		case 0x1001:	/* ARCH_SET_GS: the kernel's GS discipline needs it at 0 */
		case 0x1004:	/* ARCH_GET_GS */
			return -EINVAL;
		}
		return -EINVAL;
	case SYS_set_tid_address:
		p->tid_address = a[0];
		return pid_of(p);
	case SYS_futex:
		return do_futex(p, a[0], a[1], a[2], a[3]);
	case SYS_sched_getaffinity: {
		uint8_t *mask;
		size_t size = CPU_MAX / 8;

		if ((long)a[0] != 0 && (long)a[0] != pid_of(p))
			return -ESRCH;
		if (a[1] < size || (a[1] & 7))
			return -EINVAL;
		mask = uaddr(p, a[2], size, 1);
		if (!mask)
			return -EFAULT;
		memset(mask, 0, size);
		mask[p->cpu->id / 8] = (uint8_t)(1u << (p->cpu->id % 8));
		return (long)size;
	}
	case SYS_getrandom:
		return do_getrandom(p, a[0], a[1], a[2]);
	case SYS_readlink:
		return do_readlink(p, a[0], a[1], a[2]);
	case SYS_sched_setaffinity:
		return do_sched_setaffinity(p, a[0], a[1], a[2]);
	case SYS_newfstatat: {
		/* fstat of stdio as glibc makes it: (fd, "", buf, AT_EMPTY_PATH) */
		const char *path = uaddr(p, a[1], 1, 0);

		if (path && *path == 0 && (a[3] & 0x1000))
			return do_fstat(p, a[0], a[2]);
		return enosys(p, SYS_newfstatat);
	}
	case SYS_set_robust_list:
		/* one thread per rank: no robust futex is ever left to clean */
		return a[1] == 24 ? 0 : -EINVAL;
	case SYS_rseq:
		return do_rseq(p, a[0], a[1], a[2]);
	case SMAPOS_SYS_JOBINFO:
		return do_jobinfo(p, a[0], a[1]);
	case SMAPOS_SYS_HWBARRIER:
		return hwbarrier_wait(p);
	case SMAPOS_SYS_HWBARRIER_INFO:
		return hwbarrier_info(p, a[0], a[1]);
	case SMAPOS_SYS_NODEINFO:
		return do_nodeinfo(p, a[0], a[1]);
	case SMAPOS_SYS_JOB_ABORT:
		pr_err("rank %u: aborted the job with status %d\n", p->rank, (int)(a[0] & 0xFF));
		proc_end(p, (int)(a[0] & 0xFF), 1);
	}
	return enosys(p, nr);
}
