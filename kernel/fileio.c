/*
 * fileio.c - function shipping of file system calls, as Catamount's yod
 * and Blue Gene's CIOD did: the kernel keeps no files, it forwards each
 * call to the I/O server lwkrun runs beside the node (tools/iosrv) and
 * waits for its answer.  The channel is a ring of slots in memory both
 * sides share (the protocol: kernel/uapi/smapos_fileio.h; the design and
 * its figures: docs/fileio.md).
 *
 * The kernel's part is the user-memory rules: paths are copied into the
 * slot once (strncpy_from_user), every buffer is checked for the access
 * the call makes and handed over as one guest-physical range (regions are
 * physically contiguous), an iovec is copied in once.  The server reads
 * and writes those ranges directly: a 1 MiB read is one host pread into
 * the rank's buffer, with no copy in the kernel.
 *
 * The rank waits by spinning on its slot: it owns its CPU, and the
 * server answers in microseconds.  A rank killed while it waits takes
 * the slot back unless the server already claimed it.
 */
#include <string.h>
#include <arch/cpu.h>
#include <arch/io.h>
#include <arch/memlayout.h>
#include "smapos_fileio.h"
#include "cpu.h"
#include "errno.h"
#include "fileio.h"
#include "format.h"
#include "job.h"
#include "kmem.h"
#include "param.h"
#include "printk.h"
#include "proc.h"
#include "spinlock.h"
#include "uaccess.h"

static uint64_t iosrv_port;
KPARAM(iosrv, PARAM_UINT, &iosrv_port,
       "I/O port of the I/O server's doorbell (a 16550, e.g. 0x2f8); 0: no server, no files");
/* The server knows its nodes by their RAM, which need not follow node ids
 * (node=auto). */
static uint64_t iosrv_node = UINT64_MAX;
KPARAM(iosrv_node, PARAM_UINT, &iosrv_node,
       "which of the I/O server's nodes this is (lwkrun sets it); default: this node's id");

enum {
	SYS_read = 0, SYS_write = 1, SYS_open = 2, SYS_close = 3, SYS_stat = 4, SYS_fstat = 5,
	SYS_lstat = 6, SYS_lseek = 8, SYS_ioctl = 16, SYS_pread64 = 17, SYS_pwrite64 = 18,
	SYS_readv = 19, SYS_writev = 20, SYS_access = 21, SYS_dup = 32, SYS_dup2 = 33,
	SYS_fcntl = 72, SYS_fsync = 74, SYS_fdatasync = 75, SYS_truncate = 76,
	SYS_ftruncate = 77, SYS_getcwd = 79, SYS_chdir = 80, SYS_fchdir = 81, SYS_rename = 82,
	SYS_mkdir = 83, SYS_rmdir = 84, SYS_creat = 85, SYS_unlink = 87, SYS_symlink = 88,
	SYS_readlink = 89, SYS_chmod = 90, SYS_fchmod = 91, SYS_umask = 95,
	SYS_getdents64 = 217, SYS_openat = 257, SYS_mkdirat = 258, SYS_newfstatat = 262,
	SYS_unlinkat = 263, SYS_renameat = 264, SYS_symlinkat = 266, SYS_readlinkat = 267,
	SYS_faccessat = 269, SYS_dup3 = 292, SYS_preadv = 295, SYS_pwritev = 296,
	SYS_renameat2 = 316, SYS_statx = 332, SYS_faccessat2 = 439, SYS_flock = 73,
	SYS_utimensat = 280, SYS_fallocate = 285, SYS_statfs = 137, SYS_fstatfs = 138,
};

#define STAT_SIZE	144	/* struct stat on x86-64 */
#define STATX_SIZE	256
#define STATFS_SIZE	120	/* struct statfs on x86-64 */
#define FLOCK_SIZE	32
#define RW_MAX		0x7ffff000ul	/* Linux's largest single transfer */

static struct smapos_fio_ring *ring;
static struct spinlock ring_lock = SPINLOCK_INIT;

/* What each CPU's rank knows of its fd table: which fds are the console. */
static struct {
	unsigned job;
	uint64_t console[SMAPOS_FIO_FDS / 64];
} fdcache[CPU_MAX];

static void doorbell(uint8_t byte)
{
	/* Wait for the transmitter (bounded: a byte lost only delays the
	 * server's periodic scan). */
	for (unsigned i = 0; i < 100000 && !(inb((uint16_t)(iosrv_port + 5)) & 0x20); i++)
		cpu_relax();
	outb((uint16_t)iosrv_port, byte);
}

/* Allocate the ring and introduce it to the server, once per boot. */
static struct smapos_fio_ring *ring_get(void)
{
	struct smapos_fio_ring *r = __atomic_load_n(&ring, __ATOMIC_ACQUIRE);
	uint64_t size, flags;
	char hello[64];
	int n;

	if (r || !iosrv_port)
		return r;
	flags = spin_lock_irqsave(&ring_lock);
	r = ring;
	if (!r) {
		size = sizeof(*r) + (uint64_t)ncpus * sizeof(r->slot[0]);
		r = kpages_alloc((size + 4095) / 4096);
		if (!r) {
			pr_err("fileio: no kernel memory for the I/O ring (%lu KiB)\n", size >> 10);
			iosrv_port = 0;
		} else {
			r->node = (uint32_t)job_node;
			r->nslots = ncpus;
			r->slot_size = sizeof(r->slot[0]);
			r->magic = SMAPOS_FIO_MAGIC;
			n = snprintf(hello, sizeof(hello), "SMAPIO %lu %#lx %u\n",
				     iosrv_node == UINT64_MAX ? job_node : iosrv_node, virt_to_phys(r),
				     ncpus);
			for (int i = 0; i < n; i++)
				doorbell((uint8_t)hello[i]);
			__atomic_store_n(&ring, r, __ATOMIC_RELEASE);
		}
	}
	spin_unlock_irqrestore(&ring_lock, flags);
	return r;
}

uint64_t fileio_nofile(void)
{
	return iosrv_port ? SMAPOS_FIO_FDS : 3;
}

static uint64_t *console_of(struct proc *p)
{
	unsigned c = p->cpu->id;

	if (fdcache[c].job != p->job->id + 1) {
		memset(fdcache[c].console, 0, sizeof(fdcache[c].console));
		fdcache[c].console[0] = 6;	/* fds 1 and 2 */
		fdcache[c].job = p->job->id + 1;
	}
	return fdcache[c].console;
}

static int is_console(struct proc *p, uint64_t fd)
{
	return fd < SMAPOS_FIO_FDS && (console_of(p)[fd / 64] >> (fd % 64) & 1);
}

/* Hand the user range [addr, addr + len) to the server as the next
 * segment; the argument becomes the segment's index. */
static long seg(struct proc *p, struct smapos_fio_slot *s, unsigned arg, uint64_t addr,
		uint64_t len, int write)
{
	uint64_t phys = 0;

	if (s->nseg >= SMAPOS_FIO_SEGS)
		return -EINVAL;
	if (len) {
		void *k = uaddr(p, addr, len, write);

		if (!k)
			return -EFAULT;
		phys = virt_to_phys(k);
	}
	s->seg[s->nseg].phys = phys;
	s->seg[s->nseg].len = len;
	s->arg[arg] = s->nseg++;
	return 0;
}

static long path(struct proc *p, struct smapos_fio_slot *s, unsigned which, uint64_t addr)
{
	long n = strncpy_from_user(p, s->path[which], addr, SMAPOS_FIO_PATH);

	return n < 0 ? n : 0;
}

/* The iovec copied in once, then each buffer as a segment (arg 1 is the
 * index of the first). */
static long iov(struct proc *p, struct smapos_fio_slot *s, uint64_t uiov, uint64_t cnt, int write)
{
	uint64_t total = 0;
	long err;

	if (cnt > SMAPOS_FIO_SEGS)
		return -EINVAL;
	if (copy_from_user(p, p->iov, uiov, cnt * sizeof(p->iov[0])) < 0)
		return -EFAULT;
	for (uint64_t i = 0; i < cnt; i++) {
		if (p->iov[i].len > RW_MAX || (total += p->iov[i].len) > RW_MAX)
			return -EINVAL;
		err = seg(p, s, 1, p->iov[i].base, p->iov[i].len, write);
		if (err)
			return err;
	}
	s->arg[1] = 0;
	s->arg[2] = cnt;
	return 0;
}

static uint64_t rwlen(uint64_t len)
{
	return len > RW_MAX ? RW_MAX : len;
}

/* Fill the slot for call nr: 1 if forwarded and ready, 0 if the kernel
 * answers it, or -errno. */
static long marshal(struct proc *p, struct smapos_fio_slot *s, uint64_t nr, const uint64_t *a)
{
	long e = 0;

	switch (nr) {
	case SYS_write:
	case SYS_writev:
		if (is_console(p, a[0]))
			return 0;
		/* fall through */
	case SYS_pwrite64:
	case SYS_pwritev:
		if (nr == SYS_writev || nr == SYS_pwritev)
			return iov(p, s, a[1], a[2], 0) ?: 1;
		return seg(p, s, 1, a[1], rwlen(a[2]), 0) ?: 1;
	case SYS_read:
	case SYS_pread64:
		return seg(p, s, 1, a[1], rwlen(a[2]), 1) ?: 1;
	case SYS_readv:
	case SYS_preadv:
		return iov(p, s, a[1], a[2], 1) ?: 1;
	case SYS_close: case SYS_dup: case SYS_dup2: case SYS_dup3: case SYS_fsync:
	case SYS_fdatasync: case SYS_ftruncate: case SYS_lseek: case SYS_umask:
	case SYS_fchdir: case SYS_ioctl: case SYS_fchmod: case SYS_flock: case SYS_fallocate:
		return 1;
	case SYS_utimensat:
		/* path NULL: the fd itself; times NULL: now (an empty segment) */
		s->path[0][0] = 0;
		s->arg[1] = a[1] != 0;
		if (a[1])
			e = path(p, s, 0, a[1]);
		return e ?: seg(p, s, 2, a[2], a[2] ? 32 : 0, 0) ?: 1;
	case SYS_fstat:
		return seg(p, s, 1, a[1], STAT_SIZE, 1) ?: 1;
	case SYS_fstatfs:
		return seg(p, s, 1, a[1], STATFS_SIZE, 1) ?: 1;
	case SYS_statfs:
		return path(p, s, 0, a[0]) ?: seg(p, s, 1, a[1], STATFS_SIZE, 1) ?: 1;
	case SYS_getdents64:
		return seg(p, s, 1, a[1], rwlen(a[2]), 1) ?: 1;
	case SYS_getcwd:
		return seg(p, s, 0, a[0], a[1] > SMAPOS_FIO_PATH ? SMAPOS_FIO_PATH : a[1], 1) ?: 1;
	case SYS_fcntl:
		if (a[1] == 5 || a[1] == 36)	/* F_GETLK, F_OFD_GETLK */
			e = seg(p, s, 2, a[2], FLOCK_SIZE, 1);
		else if (a[1] == 6 || a[1] == 7 || a[1] == 37 || a[1] == 38)
			e = seg(p, s, 2, a[2], FLOCK_SIZE, 0);
		return e ?: 1;
	case SYS_open: case SYS_creat: case SYS_access: case SYS_chdir: case SYS_mkdir:
	case SYS_rmdir: case SYS_unlink: case SYS_truncate: case SYS_chmod:
		return path(p, s, 0, a[0]) ?: 1;
	case SYS_stat:
	case SYS_lstat:
		return path(p, s, 0, a[0]) ?: seg(p, s, 1, a[1], STAT_SIZE, 1) ?: 1;
	case SYS_readlink:
		if ((long)a[2] <= 0)
			return -EINVAL;
		e = path(p, s, 0, a[0]);
		if (!e && !strcmp(s->path[0], "/proc/self/exe"))
			return 0;
		return e ?: seg(p, s, 1, a[1], rwlen(a[2]), 1) ?: 1;
	case SYS_rename:
	case SYS_symlink:
		return path(p, s, 0, a[0]) ?: path(p, s, 1, a[1]) ?: 1;
	case SYS_openat: case SYS_mkdirat: case SYS_unlinkat: case SYS_faccessat:
	case SYS_faccessat2:
		return path(p, s, 0, a[1]) ?: 1;
	case SYS_newfstatat:
		return path(p, s, 0, a[1]) ?: seg(p, s, 2, a[2], STAT_SIZE, 1) ?: 1;
	case SYS_statx:
		return path(p, s, 0, a[1]) ?: seg(p, s, 4, a[4], STATX_SIZE, 1) ?: 1;
	case SYS_readlinkat:
		if ((long)a[3] <= 0)
			return -EINVAL;
		return path(p, s, 0, a[1]) ?: seg(p, s, 2, a[2], rwlen(a[3]), 1) ?: 1;
	case SYS_renameat:
	case SYS_renameat2:
		return path(p, s, 0, a[1]) ?: path(p, s, 1, a[3]) ?: 1;
	case SYS_symlinkat:
		return path(p, s, 0, a[0]) ?: path(p, s, 1, a[2]) ?: 1;
	}
	return 0;
}

int fileio_call(struct proc *p, uint64_t nr, const uint64_t *a, long *ret)
{
	struct smapos_fio_ring *r = ring_get();
	struct smapos_fio_slot *s;
	long m;

	if (!r || p->cpu->id >= r->nslots)
		return 0;
	s = &r->slot[p->cpu->id];
	s->nseg = 0;
	memcpy(s->arg, a, sizeof(s->arg));
	m = marshal(p, s, nr, a);
	if (m <= 0) {
		*ret = m;
		return m < 0;
	}
	s->nr = (uint32_t)nr;
	s->job = p->job->id;
	s->rank = p->rank;
	console_of(p);
	__atomic_store_n(&s->state, SMAPOS_FIO_POSTED, __ATOMIC_RELEASE);
	doorbell(0);
	while (__atomic_load_n(&s->state, __ATOMIC_ACQUIRE) != SMAPOS_FIO_DONE) {
		uint32_t posted = SMAPOS_FIO_POSTED;

		if (p->killed && __atomic_compare_exchange_n(&s->state, &posted, SMAPOS_FIO_IDLE, 0,
							     __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			proc_end_current();
		cpu_relax();
	}
	*ret = s->ret;
	memcpy(fdcache[p->cpu->id].console, s->console, sizeof(s->console));
	__atomic_store_n(&s->state, SMAPOS_FIO_IDLE, __ATOMIC_RELEASE);
	return 1;
}
