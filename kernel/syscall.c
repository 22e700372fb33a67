/*
 * syscall.c - the Linux x86-64 system calls a static musl program makes,
 * with Linux's numbers, semantics and errno values, plus the LWK calls of
 * smapos_abi.h.  Everything else returns -ENOSYS and is reported once per
 * number per job.
 *
 * One rank per core and no other threads shape the answers: sched_yield
 * has nobody to yield to, futexes have nobody to wake, and the only
 * signals are the ones a rank sends itself (signal.c).
 *
 * Dispatch is a table: one line per call.  Every handler reaches user
 * memory only through uaccess.h (checked ranges, structures copied in
 * once), so a new call cannot skip the checks by forgetting them.
 */
#include <string.h>
#include <arch/arch.h>
#include <arch/cpu.h>
#include <arch/memlayout.h>
#include "smapos_abi.h"
#include "acpi.h"
#include "cpu.h"
#include "errno.h"
#include "fileio.h"
#include "hwbarrier.h"
#include "format.h"
#include "job.h"
#include "knet.h"
#include "kernel.h"
#include "kmem.h"
#include "printk.h"
#include "proc.h"
#include "random.h"
#include "signal.h"
#include "syscall.h"
#include "uaccess.h"
#include "time.h"
#include "version.h"

enum {
	SYS_read = 0, SYS_write = 1, SYS_close = 3, SYS_fstat = 5, SYS_lseek = 8,
	SYS_mmap = 9, SYS_mprotect = 10, SYS_munmap = 11, SYS_brk = 12, SYS_mremap = 25,
	SYS_rt_sigaction = 13, SYS_rt_sigprocmask = 14, SYS_ioctl = 16,
	SYS_readv = 19, SYS_writev = 20, SYS_sched_yield = 24, SYS_madvise = 28,
	SYS_rt_sigreturn = 15, SYS_rt_sigpending = 127, SYS_pause = 34,
	SYS_getitimer = 36, SYS_alarm = 37, SYS_setitimer = 38, SYS_rt_sigsuspend = 130,
	SYS_nanosleep = 35, SYS_getpid = 39, SYS_exit = 60, SYS_kill = 62,
	SYS_uname = 63, SYS_gettimeofday = 96, SYS_getrlimit = 97, SYS_getrusage = 98,
	SYS_times = 100, SYS_getuid = 102,
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

static long sys_write(struct proc *p, const uint64_t *a)
{
	uint64_t fd = a[0], buf = a[1], len = a[2];
	const char *s;

	if (fd != 1 && fd != 2)
		return -EBADF;
	if (len == 0)
		return 0;
	if (len > (1ul << 30))
		len = 1ul << 30;
	s = uaddr(p, buf, len, 0);	/* bytes only: a peer changing them changes the text */
	if (!s)
		return -EFAULT;
	proc_output(p, s, len);
	return (long)len;
}

#define UIO_MAXIOV	1024

/* Copy an iovec array into p->iov once; everything after uses the copy
 * (a peer may rewrite the user's array through SMARTMAP at any time).
 * Every buffer is checked before any byte moves. */
static long iov_import(struct proc *p, uint64_t iov, uint64_t cnt, int write)
{
	if (cnt > UIO_MAXIOV)
		return -EINVAL;
	if (copy_from_user(p, p->iov, iov, cnt * sizeof(p->iov[0])) < 0)
		return -EFAULT;
	for (uint64_t i = 0; i < cnt; i++)
		if (p->iov[i].len && !urange_ok(p, p->iov[i].base, p->iov[i].len, write))
			return -EFAULT;
	return 0;
}

static long sys_writev(struct proc *p, const uint64_t *a)
{
	long total = 0, err;

	if (a[0] != 1 && a[0] != 2)
		return -EBADF;
	err = iov_import(p, a[1], a[2], 0);
	if (err)
		return err;
	for (uint64_t i = 0; i < a[2]; i++) {
		if (!p->iov[i].len)
			continue;
		proc_output(p, uaddr(p, p->iov[i].base, p->iov[i].len, 0), p->iov[i].len);
		total += (long)p->iov[i].len;
	}
	return total;
}

static long sys_read(struct proc *p, const uint64_t *a)
{
	if (a[0] != 0)
		return -EBADF;
	return a[2] && !urange_ok(p, a[1], a[2], 1) ? -EFAULT : 0;	/* stdin is empty */
}

static long sys_readv(struct proc *p, const uint64_t *a)
{
	if (a[0] != 0)
		return -EBADF;
	return iov_import(p, a[1], a[2], 1);	/* end of file: 0 bytes */
}

static long sys_close(struct proc *p, const uint64_t *a)
{
	(void)p;
	return a[0] <= 2 ? 0 : -EBADF;
}

static long sys_lseek(struct proc *p, const uint64_t *a)
{
	(void)p;
	return a[0] <= 2 ? -ESPIPE : -EBADF;
}

struct kstat {
	uint64_t dev, ino, nlink;
	uint32_t mode, uid, gid, pad0;
	uint64_t rdev;
	int64_t size, blksize, blocks;
	uint64_t atime, atime_ns, mtime, mtime_ns, ctime, ctime_ns;
	int64_t unused[3];
};

static long sys_fstat(struct proc *p, const uint64_t *a)
{
	struct kstat st;

	if (a[0] > 2)
		return -EBADF;
	memset(&st, 0, sizeof(st));
	st.mode = 0020620;	/* S_IFCHR | rw--w---- : a serial console */
	st.nlink = 1;
	st.rdev = (4 << 8) | 64;	/* ttyS0 */
	st.blksize = 1024;
	return copy_to_user(p, a[1], &st, sizeof(st));
}

static long sys_ioctl(struct proc *p, const uint64_t *a)
{
	(void)p;
	if (a[0] > 2)
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

static long sys_clock_gettime(struct proc *p, const uint64_t *a)
{
	struct timespec_u ts;
	int ok;
	uint64_t ns = clock_ns(a[0], &ok);

	if (!ok)
		return -EINVAL;
	ts.sec = (int64_t)(ns / 1000000000u);
	ts.nsec = (int64_t)(ns % 1000000000u);
	return copy_to_user(p, a[1], &ts, sizeof(ts));
}

static long sys_clock_getres(struct proc *p, const uint64_t *a)
{
	static const struct timespec_u res = { 0, 1 };
	int ok;

	clock_ns(a[0], &ok);
	if (!ok)
		return -EINVAL;
	return a[1] ? copy_to_user(p, a[1], &res, sizeof(res)) : 0;
}

static long sys_gettimeofday(struct proc *p, const uint64_t *a)
{
	static const int32_t utc[2];	/* struct timezone: UTC */
	int ok;
	uint64_t ns = clock_ns(0, &ok);
	int64_t tv[2] = { (int64_t)(ns / 1000000000u), (int64_t)(ns % 1000000000u / 1000u) };

	if (a[0] && copy_to_user(p, a[0], tv, sizeof(tv)) < 0)
		return -EFAULT;
	if (a[1] && copy_to_user(p, a[1], utc, sizeof(utc)) < 0)
		return -EFAULT;
	return 0;
}

/* A rank owns its CPU from its first instruction: all of that is user
 * time, nothing is the system's, and it has no children.  Its whole region
 * is resident from the start, so that is its peak resident set. */
static long sys_getrusage(struct proc *p, const uint64_t *a)
{
	int64_t ru[18] = { 0 };	/* struct rusage: two timevals, then 14 longs */
	int who = (int)a[0], ok;	/* an int in Linux's ABI */
	uint64_t ns;

	if (who == -1)			/* RUSAGE_CHILDREN */
		return copy_to_user(p, a[1], ru, sizeof(ru));
	if (who != 0 && who != 1)	/* not RUSAGE_SELF or RUSAGE_THREAD */
		return -EINVAL;
	ns = clock_ns(2, &ok);
	ru[0] = (int64_t)(ns / 1000000000u);
	ru[1] = (int64_t)(ns % 1000000000u / 1000u);
	ru[4] = (int64_t)((p->end - p->base) >> 10);	/* ru_maxrss, KiB */
	return copy_to_user(p, a[1], ru, sizeof(ru));
}

/* times(2): clock ticks of 1/100 s (sysconf(_SC_CLK_TCK) in glibc and
 * musl), the return value counted from boot. */
static long sys_times(struct proc *p, const uint64_t *a)
{
	int64_t t[4] = { 0 };	/* utime, stime, cutime, cstime */
	int ok;

	t[0] = (int64_t)(clock_ns(2, &ok) / 10000000u);
	if (a[0] && copy_to_user(p, a[0], t, sizeof(t)) < 0)
		return -EFAULT;
	return (long)(clock_ns(1, &ok) / 10000000u);
}

static long sys_time(struct proc *p, const uint64_t *a)
{
	int ok;
	int64_t t = (int64_t)(clock_ns(0, &ok) / 1000000000u);

	if (a[0] && copy_to_user(p, a[0], &t, sizeof(t)) < 0)
		return -EFAULT;
	return t;
}

/* A timespec from user memory, copied once and checked: 0 or -errno. */
static long timespec_import(struct proc *p, uint64_t addr, uint64_t *ns)
{
	struct timespec_u ts;

	if (copy_from_user(p, &ts, addr, sizeof(ts)) < 0)
		return -EFAULT;
	if (ts.sec < 0 || ts.nsec < 0 || ts.nsec >= 1000000000)
		return -EINVAL;
	/* ~317 years: beyond any clock here, and the product cannot overflow */
	if (ts.sec > 10000000000)
		ts.sec = 10000000000;
	*ns = (uint64_t)ts.sec * 1000000000u + (uint64_t)ts.nsec;
	return 0;
}

/* Sleep until TSC `deadline` with the CPU halted (no spinning: under an
 * emulator other vCPUs need the host cores); the job's kill IPI wakes us,
 * and so does a signal (the alarm's).  Returns the TSC ticks left: 0, or
 * more when a signal came. */
static uint64_t sleep_until(struct proc *p, uint64_t deadline)
{
	uint64_t now;

	irq_disable();
	while ((now = rdtsc()) < deadline && !p->killed && !signal_ready(p)) {
		proc_timer_arm(p, deadline);
		cpu_idle();
	}
	proc_timer_arm(p, 0);
	irq_enable();
	return now < deadline && !p->killed ? deadline - now : 0;
}

/* Sleep ns from now; a year is "forever" (and keeps the TSC sum small). */
static uint64_t sleep_ns(struct proc *p, uint64_t ns)
{
	if (ns > 1000000000ull * 86400 * 365)
		ns = 1000000000ull * 86400 * 365;
	return sleep_until(p, rdtsc() + ns_to_tsc(ns));
}

static long do_nanosleep(struct proc *p, uint64_t clk, uint64_t flags, uint64_t req, uint64_t rem)
{
	uint64_t ns, left, left_ns;
	long err = timespec_import(p, req, &ns);
	struct timespec_u ts;
	int ok;

	if (err)
		return err;
	if (rem && !urange_ok(p, rem, sizeof(struct timespec_u), 1))
		return -EFAULT;
	if (flags & 1) {	/* TIMER_ABSTIME */
		uint64_t now = clock_ns(clk, &ok);

		if (!ok)
			return -EINVAL;
		ns = ns > now ? ns - now : 0;
		rem = 0;	/* an absolute sleep has nothing to report */
	} else {
		clock_ns(clk, &ok);
		if (!ok)
			return -EINVAL;
	}
	left = sleep_ns(p, ns);
	if (!left)
		return 0;
	left_ns = tsc_to_ns(left);
	ts = (struct timespec_u){ .sec = (int64_t)(left_ns / 1000000000u),
				  .nsec = (int64_t)(left_ns % 1000000000u) };
	return rem && copy_to_user(p, rem, &ts, sizeof(ts)) < 0 ? -EFAULT : -EINTR;
}

static long sys_nanosleep(struct proc *p, const uint64_t *a)
{
	return do_nanosleep(p, 1, 0, a[0], a[1]);
}

static long sys_clock_nanosleep(struct proc *p, const uint64_t *a)
{
	/* -errno like every raw call (the C function's positive error number
	 * is the library's doing) */
	return do_nanosleep(p, a[0], a[1], a[2], a[3]);
}

static long sys_futex(struct proc *p, const uint64_t *a)
{
	uint64_t addr = a[0], ns;
	unsigned cmd = a[1] & 0x7f;	/* without PRIVATE and CLOCK_REALTIME */
	uint32_t word;
	long err;

	if ((addr & 3) || copy_from_user(p, &word, addr, sizeof(word)) < 0)
		return -EFAULT;
	switch (cmd) {
	case 0:	/* WAIT */
	case 9:	/* WAIT_BITSET */
		if (word != (uint32_t)a[2])
			return -EAGAIN;
		if (!a[3])
			proc_deadlock(p, "futex wait");
		err = timespec_import(p, a[3], &ns);
		if (err)
			return err;
		return sleep_ns(p, ns) ? -EINTR : -ETIMEDOUT;
	case 1:	/* WAKE */
	case 10:	/* WAKE_BITSET */
		return 0;
	}
	return -ENOSYS;
}

static long sys_pause(struct proc *p, const uint64_t *a)
{
	(void)a;
	return signal_wait(p, "pause");
}

struct utsname_u {
	char sysname[65], nodename[65], release[65], version[65], machine[65], domainname[65];
};

static long sys_uname(struct proc *p, const uint64_t *a)
{
	struct utsname_u u;

	memset(&u, 0, sizeof(u));
	snprintf(u.sysname, sizeof(u.sysname), "%s", "smapos");
	snprintf(u.nodename, sizeof(u.nodename), "node%lu", job_node);
	snprintf(u.release, sizeof(u.release), "%s", SMAPOS_VERSION);
	snprintf(u.version, sizeof(u.version), "%s", "smapos LWK " __DATE__);
	snprintf(u.machine, sizeof(u.machine), "%s", "x86_64");
	return copy_to_user(p, a[0], &u, sizeof(u));
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
		r->cur = r->max = fileio_nofile();
		break;
	}
}

static long do_prlimit(struct proc *p, uint64_t pid, uint64_t res, uint64_t newp, uint64_t oldp)
{
	struct rlimit_u r;

	if (pid && (long)pid != pid_of(p))
		return -ESRCH;
	if (res >= 16)
		return -EINVAL;
	if (newp) {
		if (copy_from_user(p, &r, newp, sizeof(r)) < 0)
			return -EFAULT;
		return -EPERM;	/* the layout is fixed when the job starts */
	}
	if (!oldp)
		return 0;
	rlimit_of(p, res, &r);
	return copy_to_user(p, oldp, &r, sizeof(r));
}

static long sys_getrlimit(struct proc *p, const uint64_t *a)
{
	return do_prlimit(p, 0, a[0], 0, a[1]);
}

static long sys_prlimit64(struct proc *p, const uint64_t *a)
{
	return do_prlimit(p, a[0], a[1], a[2], a[3]);
}

static long sys_kill(struct proc *p, const uint64_t *a)
{
	if (a[0] != 0 && (long)a[0] != pid_of(p) && (long)a[0] != -1)
		return -ESRCH;
	return signal_send(p, a[1]);
}

static long sys_tkill(struct proc *p, const uint64_t *a)
{
	if ((long)a[0] != pid_of(p))
		return -ESRCH;
	return signal_send(p, a[1]);
}

static long sys_tgkill(struct proc *p, const uint64_t *a)
{
	if ((long)a[0] != pid_of(p) || (long)a[1] != pid_of(p))
		return -ESRCH;
	return signal_send(p, a[2]);
}

static long sys_getrandom(struct proc *p, const uint64_t *a)
{
	uint64_t len = a[1];
	void *b;

	if (a[2] & ~7ul)
		return -EINVAL;
	if (len > (32u << 20))
		len = 32u << 20;
	if (len == 0)
		return 0;
	b = uaddr(p, a[0], len, 1);	/* output bytes only */
	if (!b)
		return -EFAULT;
	random_bytes(b, len);
	return (long)len;
}

static long sys_sched_getaffinity(struct proc *p, const uint64_t *a)
{
	uint8_t mask[CPU_MAX / 8];

	if ((long)a[0] != 0 && (long)a[0] != pid_of(p))
		return -ESRCH;
	if (a[1] < sizeof(mask) || (a[1] & 7))
		return -EINVAL;
	memset(mask, 0, sizeof(mask));
	mask[p->cpu->id / 8] = (uint8_t)(1u << (p->cpu->id % 8));
	return copy_to_user(p, a[2], mask, sizeof(mask)) < 0 ? -EFAULT : (long)sizeof(mask);
}

static long sys_sigaltstack(struct proc *p, const uint64_t *a)
{
	static const uint64_t none[3] = { 0, 2, 0 };	/* SS_DISABLE */
	uint64_t ss[3];

	if (a[0] && copy_from_user(p, ss, a[0], sizeof(ss)) < 0)
		return -EFAULT;
	return a[1] ? copy_to_user(p, a[1], none, sizeof(none)) : 0;
}

static long sys_arch_prctl(struct proc *p, const uint64_t *a)
{
	uint64_t fs;

	switch (a[0]) {
	case 0x1002:	/* ARCH_SET_FS */
		return arch_set_fs(a[1]) < 0 ? -EPERM : 0;
	case 0x1003:	/* ARCH_GET_FS */
		fs = arch_get_fs();
		return copy_to_user(p, a[1], &fs, sizeof(fs));
	}
	/* ARCH_SET_GS/GET_GS (0x1001, 0x1004) too: the kernel's GS
	 * discipline needs the user's at 0 */
	return -EINVAL;
}

static long sys_set_tid_address(struct proc *p, const uint64_t *a)
{
	p->tid_address = a[0];
	return pid_of(p);
}

static long sys_getpid(struct proc *p, const uint64_t *a)
{
	(void)a;
	return pid_of(p);
}

static long sys_zero(struct proc *p, const uint64_t *a)
{
	(void)p;
	(void)a;
	return 0;	/* getppid, the uids and gids, sched_yield */
}

static long sys_exit(struct proc *p, const uint64_t *a)
{
	proc_end(p, (int)(a[0] & 0xFF), 0);
}

static long sys_brk_(struct proc *p, const uint64_t *a)
{
	return sys_brk(p, a[0]);
}

static long sys_mmap_(struct proc *p, const uint64_t *a)
{
	return sys_mmap(p, a[0], a[1], a[2], a[3], a[4], a[5]);
}

static long sys_munmap_(struct proc *p, const uint64_t *a)
{
	return sys_munmap(p, a[0], a[1]);
}

static long sys_mremap_(struct proc *p, const uint64_t *a)
{
	return sys_mremap(p, a[0], a[1], a[2], a[3]);
}

static long sys_mprotect_(struct proc *p, const uint64_t *a)
{
	return sys_mprotect(p, a[0], a[1], a[2]);
}

static long sys_madvise_(struct proc *p, const uint64_t *a)
{
	return sys_madvise(p, a[0], a[1], a[2]);
}

static long sys_jobinfo(struct proc *p, const uint64_t *a)
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
	return copy_record(p, a[0], a[1], &ji, sizeof(ji));
}

static long sys_nodeinfo(struct proc *p, const uint64_t *a)
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
	return copy_record(p, a[0], a[1], &ni, sizeof(ni));
}

/* How often a watched barrier looks for a node that has left the job. */
#define HWB_LOOK_MS	50

/*
 * a[0]: the longest wait in ms before -EAGAIN with the barrier still open
 * (0: until it completes or fails).  When the network engine serves the
 * job it watches every node for the whole wait, so a node that computes
 * for minutes is no failure, one that stops answering ends the job, and
 * one that said goodbye ends the barrier here.
 */
static long sys_hwbarrier(struct proc *p, const uint64_t *a)
{
	uint64_t end = a[0] ? rdtsc() + a[0] * (tsc_hz / 1000) : 0;
	int watched;
	long r;

	if (a[0] > SMAPOS_HWB_MAX_MS)
		return -EINVAL;
	watched = knet_watch(p->job, 1);

	for (;;) {
		uint64_t now = rdtsc(), gone;
		uint64_t slice = a[0] ? (end > now ? (end - now) / (tsc_hz / 1000) + 1 : 1) : 0;
		char why[64];

		if (watched && (!slice || slice > HWB_LOOK_MS))
			slice = HWB_LOOK_MS;
		r = hwbarrier_wait(p, slice, watched);
		if (r != -EAGAIN || !watched)
			break;
		if ((gone = knet_gone(p->job))) {
			snprintf(why, sizeof(why), "node %d left the job without entering it",
				 __builtin_ctzll(gone));
			r = hwbarrier_abandon(why);
			break;
		}
		if (a[0] && rdtsc() >= end)
			break;
	}
	if (watched && r != -EAGAIN)
		knet_watch(p->job, 0);
	return r;
}

static long sys_hwbarrier_info(struct proc *p, const uint64_t *a)
{
	return hwbarrier_info(p, a[0], a[1]);
}

static long sys_job_abort(struct proc *p, const uint64_t *a)
{
	pr_err("rank %u: aborted the job with status %d\n", p->rank, (int)(a[0] & 0xFF));
	proc_end(p, (int)(a[0] & 0xFF), 1);
}

static long sys_comm_done(struct proc *p, const uint64_t *a)
{
	if (a[0] > 1)
		return -EINVAL;
	p->comm_done = (int)a[0];
	return 0;
}

/*
 * readlink("/proc/self/exe"), which glibc's static start-up asks: the
 * module the job runs, as an absolute path like Linux's answer.  Other
 * paths are files (ENOENT here: there is no file system).
 */
static long sys_readlink(struct proc *p, const uint64_t *a)
{
	static const char self[] = "/proc/self/exe";
	char want[sizeof(self)], name[sizeof(p->job->name) + 1];
	uint64_t size = a[2];
	size_t n;

	if (copy_from_user(p, want, a[0], sizeof(want)) < 0 || memcmp(want, self, sizeof(self)))
		return -ENOENT;
	if ((long)size <= 0)
		return -EINVAL;
	n = (size_t)snprintf(name, sizeof(name), "/%s", p->job->name);
	if (n > size)
		n = size;
	return copy_to_user(p, a[1], name, n) < 0 ? -EFAULT : (long)n;
}

/*
 * rseq: a rank never migrates, is never preempted and gets no signals
 * in a critical section (they come only from its own system calls), so no
 * critical section can ever need an abort and the CPU number written at
 * registration stays true: registering is filling cpu_id once (glibc's
 * sched_getcpu then reads it without a system call).
 */
static long sys_rseq(struct proc *p, const uint64_t *a)
{
	uint64_t addr = a[0], flags = a[2];
	/* unregistering (flags 1) leaves RSEQ_CPU_ID_UNINITIALIZED */
	uint32_t ids[2] = { flags ? 0 : p->cpu->id, flags ? ~0u : p->cpu->id }, node = 0;

	if (a[1] < 32 || (addr & 31) || flags > 1)
		return -EINVAL;
	if (!urange_ok(p, addr, 32, 1))
		return -EFAULT;
	/* cpu_id_start and cpu_id at 0, node_id at 20 (struct rseq) */
	copy_to_user(p, addr, ids, sizeof(ids));
	return copy_to_user(p, addr + 20, &node, sizeof(node));
}

/* The rank's own CPU is the only one it may have: a mask holding it is
 * accepted (nothing changes), any other is EINVAL (no allowed CPU). */
static long sys_sched_setaffinity(struct proc *p, const uint64_t *a)
{
	unsigned cpu = p->cpu->id;
	uint8_t m;

	if (a[0] != 0 && (long)a[0] != pid_of(p))
		return -ESRCH;
	if (cpu / 8 >= a[1])
		return -EINVAL;
	if (copy_from_user(p, &m, a[2] + cpu / 8, 1) < 0)
		return -EFAULT;
	return (m & (1u << (cpu % 8))) ? 0 : -EINVAL;
}

static long enosys(struct proc *p, uint64_t nr);

/* fstat of stdio as glibc makes it: (fd, "", buf, AT_EMPTY_PATH) */
static long sys_newfstatat(struct proc *p, const uint64_t *a)
{
	char path;
	const uint64_t args[2] = { a[0], a[2] };

	if (copy_from_user(p, &path, a[1], 1) == 0 && path == 0 && (a[3] & 0x1000))
		return sys_fstat(p, args);
	return enosys(p, SYS_newfstatat);
}

/* one thread per rank: no robust futex is ever left to clean */
static long sys_set_robust_list(struct proc *p, const uint64_t *a)
{
	(void)p;
	return a[1] == 24 ? 0 : -EINVAL;
}

typedef long (*syscall_fn)(struct proc *p, const uint64_t *a);

/* The Linux calls, by number. */
static const syscall_fn linux_calls[] = {
	[SYS_read] = sys_read,
	[SYS_write] = sys_write,
	[SYS_close] = sys_close,
	[SYS_fstat] = sys_fstat,
	[SYS_lseek] = sys_lseek,
	[SYS_mmap] = sys_mmap_,
	[SYS_mprotect] = sys_mprotect_,
	[SYS_munmap] = sys_munmap_,
	[SYS_brk] = sys_brk_,
	[SYS_rt_sigaction] = sys_rt_sigaction,
	[SYS_rt_sigprocmask] = sys_rt_sigprocmask,
	[SYS_rt_sigreturn] = sys_rt_sigreturn,
	[SYS_rt_sigpending] = sys_rt_sigpending,
	[SYS_rt_sigsuspend] = sys_rt_sigsuspend,
	[SYS_ioctl] = sys_ioctl,
	[SYS_readv] = sys_readv,
	[SYS_writev] = sys_writev,
	[SYS_sched_yield] = sys_zero,
	[SYS_mremap] = sys_mremap_,
	[SYS_madvise] = sys_madvise_,
	[SYS_pause] = sys_pause,
	[SYS_getitimer] = sys_getitimer,
	[SYS_alarm] = sys_alarm,
	[SYS_setitimer] = sys_setitimer,
	[SYS_nanosleep] = sys_nanosleep,
	[SYS_getpid] = sys_getpid,
	[SYS_exit] = sys_exit,
	[SYS_kill] = sys_kill,
	[SYS_uname] = sys_uname,
	[SYS_gettimeofday] = sys_gettimeofday,
	[SYS_getrlimit] = sys_getrlimit,
	[SYS_getrusage] = sys_getrusage,
	[SYS_times] = sys_times,
	[SYS_getuid] = sys_zero,
	[SYS_getgid] = sys_zero,
	[SYS_geteuid] = sys_zero,
	[SYS_getegid] = sys_zero,
	[SYS_getppid] = sys_zero,
	[SYS_sigaltstack] = sys_sigaltstack,
	[SYS_arch_prctl] = sys_arch_prctl,
	[SYS_gettid] = sys_getpid,
	[SYS_tkill] = sys_tkill,
	[SYS_time] = sys_time,
	[SYS_futex] = sys_futex,
	[SYS_sched_getaffinity] = sys_sched_getaffinity,
	[SYS_set_tid_address] = sys_set_tid_address,
	[SYS_clock_gettime] = sys_clock_gettime,
	[SYS_clock_getres] = sys_clock_getres,
	[SYS_clock_nanosleep] = sys_clock_nanosleep,
	[SYS_exit_group] = sys_exit,
	[SYS_tgkill] = sys_tgkill,
	[SYS_prlimit64] = sys_prlimit64,
	[SYS_getrandom] = sys_getrandom,
	[SYS_readlink] = sys_readlink,
	[SYS_sched_setaffinity] = sys_sched_setaffinity,
	[SYS_newfstatat] = sys_newfstatat,
	[SYS_set_robust_list] = sys_set_robust_list,
	[SYS_rseq] = sys_rseq,
};

/* The LWK calls of smapos_abi.h: one line each. */
#define LWK(nr)	[(nr) - SMAPOS_SYS_BASE]
static const syscall_fn lwk_calls[] = {
	LWK(SMAPOS_SYS_JOBINFO) = sys_jobinfo,
	LWK(SMAPOS_SYS_HWBARRIER) = sys_hwbarrier,
	LWK(SMAPOS_SYS_JOB_ABORT) = sys_job_abort,
	LWK(SMAPOS_SYS_NODEINFO) = sys_nodeinfo,
	LWK(SMAPOS_SYS_HWBARRIER_INFO) = sys_hwbarrier_info,
	LWK(SMAPOS_SYS_COMM_DONE) = sys_comm_done,
	LWK(SMAPOS_SYS_NET_ATTACH) = knet_sys_attach,
};

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
	syscall_fn fn = NULL;
	long ret;

	p->syscalls++;
	if (fileio_call(p, nr, a, &ret))
		return ret;
	if (nr < sizeof(linux_calls) / sizeof(linux_calls[0]))
		fn = linux_calls[nr];
	else if (nr - SMAPOS_SYS_BASE < sizeof(lwk_calls) / sizeof(lwk_calls[0]))
		fn = lwk_calls[nr - SMAPOS_SYS_BASE];
	return fn ? fn(p, a) : enosys(p, nr);
}
