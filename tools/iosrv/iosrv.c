/*
 * iosrv - the I/O server of a QEMU job (docs/fileio.md): it does the file
 * system calls the ranks' kernels forward to it (kernel/fileio.c), as the
 * user who ran lwkrun, in the job's working directory, optionally
 * confined to one directory tree.
 *
 *   iosrv --socket PATH --ram NODE:FILE:SIZE... [--files DIR]
 *
 * Each node's guest RAM is FILE (QEMU's memory-backend-file, share=on),
 * mapped here too: requests and the ranks' buffers are read and written
 * in place.  Each node's kernel connects its doorbell (COM2) to PATH and
 * says "SMAPIO <node> <ring phys> <slots>" once, node being the NODE of
 * its --ram (the kernel's iosrv_node; the job's node id is in the ring);
 * every later byte means "look at the ring".  "ready" on stdout: PATH
 * accepts connections.
 *
 * Every rank has its own fd table: fd 0 is lwkrun's stdin on world rank 0
 * and empty elsewhere, fds 1 and 2 are the console (the kernel writes
 * them, tagged), the rest are host files.  A new job on a slot starts a
 * fresh table.  With --files DIR every path resolves beneath DIR
 * (openat2 RESOLVE_BENEATH): no `..`, absolute path or symlink leads out.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>
#include "smapos_fileio.h"

#define MAXNODES	64
#define PENDING		(-1000000)	/* not now: leave the request posted, retry soon */
#define GiB		(1ull << 30)

enum kind { K_FREE, K_FILE, K_CONSOLE, K_STDIN, K_NULL };

struct gfd {
	enum kind kind;
	int hfd;
	int cloexec;
};

struct rank {
	int used;
	uint32_t job;
	struct gfd fd[SMAPOS_FIO_FDS];
	char cwd[PATH_MAX];
	mode_t umask;
};

struct node {
	const char *file;
	uint8_t *ram;
	uint64_t size, lowmem;
	int conn;
	char line[128];
	size_t linelen;
	struct smapos_fio_ring *ring;
	uint32_t nslots;
	struct rank *ranks;
};

static struct node nodes[MAXNODES];
static int nnodes;
static int rootfd = -1;
static char root[PATH_MAX] = "/";
static size_t rootlen = 1;
static int confined;
static char start_cwd[PATH_MAX];
static mode_t start_umask;
static int retry;		/* a request is PENDING */
static int want_stdin;

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "iosrv: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n");
	exit(1);
}

/* Guest-physical [phys, phys + len) in our mapping of the node's RAM, or
 * NULL.  QEMU's pc machine puts RAM at 0 up to `lowmem` and the rest at
 * 4 GiB. */
static void *gp(struct node *n, uint64_t phys, uint64_t len)
{
	uint64_t off;

	if (phys < n->lowmem) {
		if (len > n->lowmem - phys)
			return NULL;
		off = phys;
	} else if (phys >= 4 * GiB) {
		off = phys - 4 * GiB + n->lowmem;
	} else {
		return NULL;
	}
	if (off > n->size || len > n->size - off)
		return NULL;
	return n->ram + off;
}

static void *segp(struct node *n, struct smapos_fio_slot *s, uint64_t i, uint64_t *len)
{
	if (i >= s->nseg || i >= SMAPOS_FIO_SEGS)
		return NULL;
	*len = s->seg[i].len;
	if (!*len)
		return n->ram;
	return gp(n, s->seg[i].phys, *len);
}

/* ---- paths ---- */

static int under_root(const char *abs, const char **rel)
{
	if (!confined) {
		*rel = abs;
	} else if (!strncmp(abs, root, rootlen) && (abs[rootlen] == '/' || !abs[rootlen])) {
		*rel = abs + rootlen;
	} else {
		return 0;
	}
	while (**rel == '/')
		(*rel)++;
	return 1;
}

static int fd_path(int hfd, char *out)
{
	char proc[64];
	ssize_t n;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", hfd);
	n = readlink(proc, out, PATH_MAX - 1);
	if (n < 0)
		return -errno;
	out[n] = 0;
	return 0;
}

static struct gfd *gfd_of(struct rank *r, int64_t fd)
{
	if (fd < 0 || fd >= SMAPOS_FIO_FDS || r->fd[fd].kind == K_FREE)
		return NULL;
	return &r->fd[fd];
}

/* The path relative to the root that `path` names from `dirfd`: 0 or
 * -errno.  Paths outside the root are EACCES. */
static int resolve(struct rank *r, int64_t dirfd, const char *path, char *rel)
{
	char base[PATH_MAX];
	const char *b, *bp;
	struct gfd *g;
	int e;

	if (!*path)
		return -ENOENT;
	if (path[0] == '/') {
		if (!under_root(path, &bp))
			return -EACCES;
		snprintf(rel, PATH_MAX, "%s", bp);
		return 0;
	}
	if ((int)dirfd == AT_FDCWD) {
		b = r->cwd;
	} else {
		g = gfd_of(r, (int)dirfd);
		if (!g)
			return -EBADF;
		if (g->kind != K_FILE)
			return -ENOTDIR;
		e = fd_path(g->hfd, base);
		if (e)
			return e;
		b = base;
	}
	if (!under_root(b, &bp))
		return -EACCES;
	if ((size_t)snprintf(rel, PATH_MAX, "%s%s%s", bp, *bp ? "/" : "", path) >= PATH_MAX)
		return -ENAMETOOLONG;
	return 0;
}

static int open_rel(const char *rel, uint64_t flags, uint64_t mode)
{
	struct open_how how = { .flags = flags, .mode = mode };
	long fd;

	if (confined)
		how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
	fd = syscall(SYS_openat2, rootfd, *rel ? rel : ".", &how, sizeof(how));
	if (fd < 0)
		return errno == EXDEV && confined ? -EACCES : -errno;
	return (int)fd;
}

/* Resolve (dirfd, path) to an O_PATH fd of the object itself. */
static int open_path(struct rank *r, int64_t dirfd, const char *path, int nofollow)
{
	char rel[PATH_MAX];
	int e = resolve(r, dirfd, path, rel);

	if (e)
		return e;
	return open_rel(rel, O_PATH | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0), 0);
}

/* The directory holding the last component of (dirfd, path), and that
 * component, for the calls that create, remove or rename a name. */
static int open_parent(struct rank *r, int64_t dirfd, const char *path, char *name)
{
	char rel[PATH_MAX], *slash;
	size_t n;
	int e = resolve(r, dirfd, path, rel);

	if (e)
		return e;
	n = strlen(rel);
	while (n > 1 && rel[n - 1] == '/')
		rel[--n] = 0;
	slash = strrchr(rel, '/');
	snprintf(name, NAME_MAX + 1, "%s", slash ? slash + 1 : rel);
	if (!*name || !strcmp(name, ".") || !strcmp(name, "..")) {
		/* the object is a directory reached by name: act on it as "." */
		strcpy(name, ".");
		return open_rel(rel, O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
	}
	if (!slash)
		return open_rel("", O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
	*slash = 0;
	return open_rel(*rel ? rel : "/", O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
}

/* ---- fd table ---- */

static void rank_reset(struct rank *r, int world0, uint32_t job)
{
	for (int i = 0; i < SMAPOS_FIO_FDS; i++) {
		if (r->fd[i].kind == K_FILE)
			close(r->fd[i].hfd);
		r->fd[i].kind = K_FREE;
		r->fd[i].cloexec = 0;
	}
	r->fd[0].kind = world0 ? K_STDIN : K_NULL;
	r->fd[1].kind = r->fd[2].kind = K_CONSOLE;
	snprintf(r->cwd, sizeof(r->cwd), "%s", start_cwd);
	r->umask = start_umask;
	r->job = job;
	r->used = 1;
}

static int fd_alloc(struct rank *r, int64_t from)
{
	for (int64_t i = from < 0 ? 0 : from; i < SMAPOS_FIO_FDS; i++)
		if (r->fd[i].kind == K_FREE)
			return (int)i;
	return -EMFILE;
}

static void fd_close(struct gfd *g)
{
	if (g->kind == K_FILE)
		close(g->hfd);
	g->kind = K_FREE;
	g->cloexec = 0;
}

/* Make `to` a copy of `from` (both in range; `to` free). */
static int fd_copy(struct rank *r, int from, int to, int cloexec)
{
	struct gfd g = r->fd[from];

	if (g.kind == K_FILE) {
		g.hfd = fcntl(g.hfd, F_DUPFD_CLOEXEC, 0);
		if (g.hfd < 0)
			return -errno;
	}
	g.cloexec = cloexec;
	r->fd[to] = g;
	return to;
}

static int do_open(struct rank *r, int64_t dirfd, const char *path, uint64_t flags, uint64_t mode)
{
	const uint64_t known = O_ACCMODE | O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC | O_APPEND |
		O_NONBLOCK | O_DSYNC | O_SYNC | O_DIRECT | O_LARGEFILE | O_DIRECTORY | O_NOFOLLOW |
		O_NOATIME | O_CLOEXEC | O_PATH | O_TMPFILE;
	char rel[PATH_MAX];
	int fd, hfd, e;

	e = resolve(r, dirfd, path, rel);
	if (e)
		return e;
	fd = fd_alloc(r, 0);
	if (fd < 0)
		return fd;
	if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE)
		mode &= 07777 & ~r->umask;
	else
		mode = 0;
	hfd = open_rel(rel, (flags & known) | O_CLOEXEC, mode);
	if (hfd < 0)
		return hfd;
	r->fd[fd] = (struct gfd){ K_FILE, hfd, !!(flags & O_CLOEXEC) };
	return fd;
}

static void console_stat(struct stat *st, enum kind k)
{
	memset(st, 0, sizeof(*st));
	st->st_nlink = 1;
	if (k == K_NULL) {
		st->st_mode = S_IFCHR | 0666;
		st->st_rdev = (1 << 8) | 3;	/* /dev/null */
	} else {
		st->st_mode = S_IFCHR | 0620;
		st->st_rdev = (4 << 8) | 64;	/* ttyS0, as the kernel says without a server */
	}
	st->st_blksize = 1024;
}

static long do_fstat(struct gfd *g, void *buf)
{
	if (g->kind == K_FILE)
		return fstat(g->hfd, buf) ? -errno : 0;
	if (g->kind == K_STDIN)
		return fstat(0, buf) ? -errno : 0;
	console_stat(buf, g->kind);
	return 0;
}

static long stat_path(struct rank *r, int64_t dirfd, const char *path, int flags, void *buf)
{
	struct gfd *g;
	long e;
	int fd;

	if (!*path && (flags & AT_EMPTY_PATH)) {
		if ((int)dirfd == AT_FDCWD)
			return stat(r->cwd, buf) ? -errno : 0;
		g = gfd_of(r, dirfd);
		return g ? do_fstat(g, buf) : -EBADF;
	}
	fd = open_path(r, dirfd, path, flags & AT_SYMLINK_NOFOLLOW);
	if (fd < 0)
		return fd;
	e = fstatat(fd, "", buf, AT_EMPTY_PATH) ? -errno : 0;
	close(fd);
	return e;
}

static long do_statx(struct rank *r, int64_t dirfd, const char *path, int flags, unsigned mask,
		     void *buf)
{
	struct gfd *g;
	long e;
	int fd;

	if (!*path && (flags & AT_EMPTY_PATH)) {
		if ((int)dirfd == AT_FDCWD)
			return statx(AT_FDCWD, r->cwd, flags & ~AT_EMPTY_PATH, mask, buf) ? -errno : 0;
		g = gfd_of(r, dirfd);
		if (!g)
			return -EBADF;
		fd = g->kind == K_FILE ? g->hfd : g->kind == K_STDIN ? 0 : -1;
		if (fd < 0)
			return -ENOTSUP;
		return statx(fd, "", AT_EMPTY_PATH | (flags & AT_STATX_SYNC_TYPE), mask, buf) ?
			-errno : 0;
	}
	fd = open_path(r, dirfd, path, flags & AT_SYMLINK_NOFOLLOW);
	if (fd < 0)
		return fd;
	e = statx(fd, "", AT_EMPTY_PATH | (flags & AT_STATX_SYNC_TYPE), mask, buf) ? -errno : 0;
	close(fd);
	return e;
}

static long do_access(struct rank *r, int64_t dirfd, const char *path, int mode, int flags)
{
	long e;
	int fd = open_path(r, dirfd, path, flags & AT_SYMLINK_NOFOLLOW);

	if (fd < 0)
		return fd;
	e = syscall(SYS_faccessat2, fd, "", mode, AT_EMPTY_PATH | (flags & AT_EACCESS)) ? -errno : 0;
	close(fd);
	return e;
}

static long set_cwd(struct rank *r, int fd)
{
	char abs[PATH_MAX];
	const char *rel;
	struct stat st;
	long e;

	if (fstat(fd, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	e = fd_path(fd, abs);
	if (e)
		return e;
	if (!under_root(abs, &rel))
		return -EACCES;
	snprintf(r->cwd, sizeof(r->cwd), "%s", abs);
	return 0;
}

/* Call `op` on the parent directory of (dirfd, path) and its last name. */
#define AT_PARENT(r, dirfd, path, op) ({					\
	char name_[NAME_MAX + 1];					\
	int pfd_ = open_parent(r, dirfd, path, name_);			\
	long e_ = pfd_;							\
	if (pfd_ >= 0) {						\
		const char *name = name_;				\
		e_ = (op) ? -errno : 0;					\
		close(pfd_);						\
	}								\
	(void)name_;							\
	e_; })

static long do_rename(struct rank *r, int64_t od, const char *op, int64_t nd, const char *np,
		      unsigned flags)
{
	char oname[NAME_MAX + 1], nname[NAME_MAX + 1];
	int ofd, nfd;
	long e;

	ofd = open_parent(r, od, op, oname);
	if (ofd < 0)
		return ofd;
	nfd = open_parent(r, nd, np, nname);
	if (nfd < 0) {
		close(ofd);
		return nfd;
	}
	e = syscall(SYS_renameat2, ofd, oname, nfd, nname, flags) ? -errno : 0;
	close(ofd);
	close(nfd);
	return e;
}

static long do_readlink(struct rank *r, int64_t dirfd, const char *path, void *buf, uint64_t len)
{
	ssize_t n;
	int fd = open_path(r, dirfd, path, 1);

	if (fd < 0)
		return fd;
	n = readlinkat(fd, "", buf, len);
	close(fd);
	return n < 0 ? -errno : n;
}

static long do_utimensat(struct rank *r, struct node *n, struct smapos_fio_slot *s)
{
	const int64_t *a = (const int64_t *)s->arg;
	char proc[64];
	struct timespec *times;
	struct gfd *g;
	uint64_t len;
	long e;
	int fd;

	times = segp(n, s, a[2], &len);
	if (!times)
		return -EFAULT;
	if (!len)
		times = NULL;
	if (!a[1]) {	/* no path: the fd itself */
		g = gfd_of(r, a[0]);
		if (!g)
			return -EBADF;
		return g->kind != K_FILE ? -EINVAL : futimens(g->hfd, times) ? -errno : 0;
	}
	if (a[3] & AT_SYMLINK_NOFOLLOW)
		return AT_PARENT(r, a[0], s->path[0], utimensat(pfd_, name, times, AT_SYMLINK_NOFOLLOW));
	/* follow symlinks beneath the root, then act on what was found */
	fd = open_path(r, a[0], s->path[0], 0);
	if (fd < 0)
		return fd;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	e = utimensat(AT_FDCWD, proc, times, 0) ? -errno : 0;
	close(fd);
	return e;
}

static long do_fcntl(struct rank *r, struct node *n, struct smapos_fio_slot *s, struct gfd *g,
		     int fd)
{
	int64_t cmd = (int)s->arg[1], arg = (int64_t)s->arg[2];
	struct flock *fl;
	uint64_t len;
	int nfd;

	switch (cmd) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		if (arg < 0 || arg >= SMAPOS_FIO_FDS)
			return -EINVAL;
		nfd = fd_alloc(r, arg);
		return nfd < 0 ? nfd : fd_copy(r, fd, nfd, cmd == F_DUPFD_CLOEXEC);
	case F_GETFD:
		return g->cloexec ? FD_CLOEXEC : 0;
	case F_SETFD:
		g->cloexec = arg & FD_CLOEXEC;
		return 0;
	case F_GETFL:
		if (g->kind == K_FILE)
			return fcntl(g->hfd, F_GETFL) & ~O_CLOEXEC;
		if (g->kind == K_STDIN)
			return fcntl(0, F_GETFL);
		return g->kind == K_CONSOLE ? O_RDWR : O_RDONLY;
	case F_SETFL:
		if (g->kind != K_FILE)
			return 0;
		return fcntl(g->hfd, F_SETFL, arg) ? -errno : 0;
	case F_GETLK: case F_SETLK: case F_SETLKW:
	case F_OFD_GETLK: case F_OFD_SETLK: case F_OFD_SETLKW:
		fl = segp(n, s, s->arg[2], &len);
		if (!fl || len < sizeof(*fl))
			return -EFAULT;
		if (g->kind != K_FILE)
			return -EBADF;
		/* Every rank lives in this one process, where POSIX locks
		 * never conflict: open-file-description locks do, per open.
		 * A wait would stall every rank: retry instead. */
		fl->l_pid = 0;
		if (cmd == F_GETLK || cmd == F_OFD_GETLK)
			return fcntl(g->hfd, F_OFD_GETLK, fl) ? -errno : 0;
		if (!fcntl(g->hfd, F_OFD_SETLK, fl))
			return 0;
		if ((errno == EAGAIN || errno == EACCES) && (cmd == F_SETLKW || cmd == F_OFD_SETLKW))
			return PENDING;
		return -errno;
	}
	return -EINVAL;
}

static int stdin_ready(void)
{
	struct pollfd pfd = { .fd = 0, .events = POLLIN };

	if (poll(&pfd, 1, 0) > 0)
		return 1;
	want_stdin = 1;
	return 0;
}

static long rw(struct node *n, struct smapos_fio_slot *s, struct gfd *g)
{
	struct iovec v[SMAPOS_FIO_SEGS];
	unsigned nr = s->nr, vec = nr == SYS_readv || nr == SYS_writev || nr == SYS_preadv ||
		nr == SYS_pwritev;
	int write = nr == SYS_write || nr == SYS_writev || nr == SYS_pwrite64 || nr == SYS_pwritev;
	int pos = nr == SYS_pread64 || nr == SYS_pwrite64 || nr == SYS_preadv || nr == SYS_pwritev;
	uint64_t cnt = vec ? s->arg[2] : 1, len;
	off_t off = (off_t)s->arg[3];
	ssize_t done;
	int hfd;

	if (cnt > SMAPOS_FIO_SEGS)
		return -EINVAL;
	for (uint64_t i = 0; i < cnt; i++) {
		v[i].iov_base = segp(n, s, vec ? i : s->arg[1], &len);
		v[i].iov_len = len;
		if (!v[i].iov_base)
			return -EFAULT;
	}
	switch (g->kind) {
	case K_FILE:
		hfd = g->hfd;
		break;
	case K_STDIN:
		if (write)
			return -EBADF;
		if (pos)
			return -ESPIPE;
		if (!stdin_ready())
			return PENDING;
		hfd = 0;
		break;
	case K_NULL:
		return write ? -EBADF : pos ? -ESPIPE : 0;
	default:
		if (pos)
			return -ESPIPE;
		if (!write)
			return -EBADF;
		/* a console fd the kernel did not know of yet: the server's own
		 * output is the next best console */
		done = writev(2, v, (int)cnt);
		return done < 0 ? -errno : done;
	}
	if (pos && off < 0)
		return -EINVAL;
	if (write)
		done = pos ? pwritev(hfd, v, (int)cnt, off) : writev(hfd, v, (int)cnt);
	else
		done = pos ? preadv(hfd, v, (int)cnt, off) : readv(hfd, v, (int)cnt);
	if (done < 0 && errno == EAGAIN && hfd == 0)
		return PENDING;
	return done < 0 ? -errno : done;
}

static long dispatch(struct node *n, struct rank *r, struct smapos_fio_slot *s)
{
	const int64_t *a = (const int64_t *)s->arg;
	const char *p0 = s->path[0], *p1 = s->path[1];
	struct gfd *g = NULL;
	uint64_t len;
	void *buf;
	long e;
	int fd;

	s->path[0][SMAPOS_FIO_PATH - 1] = s->path[1][SMAPOS_FIO_PATH - 1] = 0;
	switch (s->nr) {
	case SYS_read: case SYS_write: case SYS_pread64: case SYS_pwrite64: case SYS_readv:
	case SYS_writev: case SYS_preadv: case SYS_pwritev: case SYS_close: case SYS_lseek:
	case SYS_fstat: case SYS_fsync: case SYS_fdatasync: case SYS_ftruncate: case SYS_dup:
	case SYS_getdents64: case SYS_fcntl: case SYS_fchdir: case SYS_ioctl: case SYS_fchmod:
	case SYS_dup2: case SYS_dup3: case SYS_flock: case SYS_fallocate: case SYS_fstatfs:
		g = gfd_of(r, (int)a[0]);
		if (!g)
			return -EBADF;
	}
	switch (s->nr) {
	case SYS_read: case SYS_write: case SYS_pread64: case SYS_pwrite64: case SYS_readv:
	case SYS_writev: case SYS_preadv: case SYS_pwritev:
		return rw(n, s, g);
	case SYS_close:
		fd_close(g);
		return 0;
	case SYS_lseek:
		if (g->kind != K_FILE)
			return -ESPIPE;
		e = lseek(g->hfd, a[1], (int)a[2]);
		return e < 0 ? -errno : e;
	case SYS_fstat:
		buf = segp(n, s, a[1], &len);
		return buf ? do_fstat(g, buf) : -EFAULT;
	case SYS_fstatfs:
		/* the console and stdin: the file systems the server's own are on */
		buf = segp(n, s, a[1], &len);
		if (!buf)
			return -EFAULT;
		return fstatfs(g->kind == K_FILE ? g->hfd : g->kind == K_STDIN ? 0 : 2, buf) ? -errno : 0;
	case SYS_statfs:
		buf = segp(n, s, a[1], &len);
		if (!buf)
			return -EFAULT;
		fd = open_path(r, AT_FDCWD, p0, 0);
		if (fd < 0)
			return fd;
		e = fstatfs(fd, buf) ? -errno : 0;
		close(fd);
		return e;
	case SYS_fsync:
	case SYS_fdatasync:
		if (g->kind != K_FILE)
			return -EINVAL;
		return (s->nr == SYS_fsync ? fsync(g->hfd) : fdatasync(g->hfd)) ? -errno : 0;
	case SYS_ftruncate:
		if (g->kind != K_FILE)
			return -EINVAL;
		return ftruncate(g->hfd, a[1]) ? -errno : 0;
	case SYS_fchmod:
		if (g->kind != K_FILE)
			return -EBADF;
		return fchmod(g->hfd, (mode_t)a[1]) ? -errno : 0;
	case SYS_getdents64:
		buf = segp(n, s, a[1], &len);
		if (!buf)
			return -EFAULT;
		if (g->kind != K_FILE)
			return -ENOTDIR;
		e = syscall(SYS_getdents64, g->hfd, buf, len);
		return e < 0 ? -errno : e;
	case SYS_ioctl:
		return -ENOTTY;
	case SYS_flock:
		if (g->kind != K_FILE)
			return -EINVAL;
		/* per open file, so ranks exclude each other; a wait would
		 * stall every rank: retry instead */
		if (!flock(g->hfd, (int)a[1] | LOCK_NB))
			return 0;
		return errno == EWOULDBLOCK && !(a[1] & LOCK_NB) ? PENDING : -errno;
	case SYS_fallocate:
		if (g->kind != K_FILE)
			return -ESPIPE;
		return fallocate(g->hfd, (int)a[1], a[2], a[3]) ? -errno : 0;
	case SYS_utimensat:
		return do_utimensat(r, n, s);
	case SYS_dup:
		fd = fd_alloc(r, 0);
		return fd < 0 ? fd : fd_copy(r, (int)a[0], fd, 0);
	case SYS_dup2:
	case SYS_dup3:
		if (a[1] < 0 || a[1] >= SMAPOS_FIO_FDS)
			return -EBADF;
		if (a[0] == a[1])
			return s->nr == SYS_dup3 ? -EINVAL : a[1];
		if (s->nr == SYS_dup3 && (a[2] & ~O_CLOEXEC))
			return -EINVAL;
		fd_close(&r->fd[a[1]]);
		return fd_copy(r, (int)a[0], (int)a[1], s->nr == SYS_dup3 && (a[2] & O_CLOEXEC));
	case SYS_fcntl:
		return do_fcntl(r, n, s, g, (int)a[0]);
	case SYS_fchdir:
		return g->kind == K_FILE ? set_cwd(r, g->hfd) : -ENOTDIR;
	case SYS_umask:
		e = r->umask;
		r->umask = (mode_t)a[0] & 0777;
		return e;
	case SYS_open:
		return do_open(r, AT_FDCWD, p0, (uint64_t)a[1], (uint64_t)a[2]);
	case SYS_creat:
		return do_open(r, AT_FDCWD, p0, O_CREAT | O_WRONLY | O_TRUNC, (uint64_t)a[1]);
	case SYS_openat:
		return do_open(r, a[0], p0, (uint64_t)a[2], (uint64_t)a[3]);
	case SYS_stat:
	case SYS_lstat:
		buf = segp(n, s, a[1], &len);
		return buf ? stat_path(r, AT_FDCWD, p0, s->nr == SYS_lstat ? AT_SYMLINK_NOFOLLOW : 0,
				       buf) : -EFAULT;
	case SYS_newfstatat:
		buf = segp(n, s, a[2], &len);
		return buf ? stat_path(r, a[0], p0, (int)a[3], buf) : -EFAULT;
	case SYS_statx:
		buf = segp(n, s, a[4], &len);
		return buf ? do_statx(r, a[0], p0, (int)a[2], (unsigned)a[3], buf) : -EFAULT;
	case SYS_access:
		return do_access(r, AT_FDCWD, p0, (int)a[1], 0);
	case SYS_faccessat:
		return do_access(r, a[0], p0, (int)a[2], 0);
	case SYS_faccessat2:
		return do_access(r, a[0], p0, (int)a[2], (int)a[3]);
	case SYS_getcwd:
		buf = segp(n, s, a[0], &len);
		if (!buf)
			return -EFAULT;
		if (strlen(r->cwd) + 1 > len)
			return -ERANGE;
		memcpy(buf, r->cwd, strlen(r->cwd) + 1);
		return (long)strlen(r->cwd) + 1;
	case SYS_chdir:
		fd = open_path(r, AT_FDCWD, p0, 0);
		if (fd < 0)
			return fd;
		e = set_cwd(r, fd);
		close(fd);
		return e;
	case SYS_mkdir:
		return AT_PARENT(r, AT_FDCWD, p0, mkdirat(pfd_, name, (mode_t)a[1] & 07777 & ~r->umask));
	case SYS_mkdirat:
		return AT_PARENT(r, a[0], p0, mkdirat(pfd_, name, (mode_t)a[2] & 07777 & ~r->umask));
	case SYS_rmdir:
		return AT_PARENT(r, AT_FDCWD, p0, unlinkat(pfd_, name, AT_REMOVEDIR));
	case SYS_unlink:
		return AT_PARENT(r, AT_FDCWD, p0, unlinkat(pfd_, name, 0));
	case SYS_unlinkat:
		return AT_PARENT(r, a[0], p0, unlinkat(pfd_, name, (int)a[2] & AT_REMOVEDIR));
	case SYS_symlink:
		return AT_PARENT(r, AT_FDCWD, p1, symlinkat(p0, pfd_, name));
	case SYS_symlinkat:
		return AT_PARENT(r, a[1], p1, symlinkat(p0, pfd_, name));
	case SYS_rename:
		return do_rename(r, AT_FDCWD, p0, AT_FDCWD, p1, 0);
	case SYS_renameat:
		return do_rename(r, a[0], p0, a[2], p1, 0);
	case SYS_renameat2:
		return do_rename(r, a[0], p0, a[2], p1, (unsigned)a[4]);
	case SYS_readlink:
		buf = segp(n, s, a[1], &len);
		return buf ? do_readlink(r, AT_FDCWD, p0, buf, len) : -EFAULT;
	case SYS_readlinkat:
		buf = segp(n, s, a[2], &len);
		return buf ? do_readlink(r, a[0], p0, buf, len) : -EFAULT;
	case SYS_truncate:
	case SYS_chmod: {
		char rel[PATH_MAX], proc[64];

		e = resolve(r, AT_FDCWD, p0, rel);
		if (e)
			return e;
		fd = open_rel(rel, s->nr == SYS_truncate ? O_WRONLY | O_CLOEXEC : O_PATH | O_CLOEXEC, 0);
		if (fd < 0)
			return fd;
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
		e = (s->nr == SYS_truncate ? ftruncate(fd, a[1]) : chmod(proc, (mode_t)a[1])) ? -errno : 0;
		close(fd);
		return e;
	}
	}
	return -ENOSYS;
}

/* ---- the rings ---- */

static void serve_slot(struct node *n, uint32_t i)
{
	struct smapos_fio_slot *s = &n->ring->slot[i];
	uint32_t posted = SMAPOS_FIO_POSTED;
	struct rank *r = &n->ranks[i];
	long ret;

	if (__atomic_load_n(&s->state, __ATOMIC_ACQUIRE) != SMAPOS_FIO_POSTED ||
	    !__atomic_compare_exchange_n(&s->state, &posted, SMAPOS_FIO_BUSY, 0,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return;
	if (!r->used || r->job != s->job)
		rank_reset(r, n->ring->node == 0 && s->rank == 0, s->job);
	ret = dispatch(n, r, s);
	if (ret == PENDING) {
		retry = 1;
		__atomic_store_n(&s->state, SMAPOS_FIO_POSTED, __ATOMIC_RELEASE);
		return;
	}
	s->ret = ret;
	memset(s->console, 0, sizeof(s->console));
	for (int fd = 0; fd < SMAPOS_FIO_FDS; fd++)
		if (r->fd[fd].kind == K_CONSOLE)
			s->console[fd / 64] |= 1ull << (fd % 64);
	__atomic_store_n(&s->state, SMAPOS_FIO_DONE, __ATOMIC_RELEASE);
}

static int scan(void)
{
	int busy = 0;

	for (int k = 0; k < nnodes; k++) {
		struct node *n = &nodes[k];

		for (uint32_t i = 0; n->ring && i < n->nslots; i++) {
			if (__atomic_load_n(&n->ring->slot[i].state, __ATOMIC_ACQUIRE) ==
			    SMAPOS_FIO_POSTED) {
				serve_slot(n, i);
				busy = 1;
			}
		}
	}
	return busy;
}

/* A line a node sent before it was identified: 1 if it was the kernel's
 * hello, 0 if it holds none.  Firmware writes its console to every serial
 * port (OVMF does, GRUB under UEFI too), so text may come before the
 * hello, on its line or on lines of its own. */
static int hello(int conn, const char *text)
{
	const char *line = strstr(text, "SMAPIO ");
	unsigned long node, phys, nslots;
	struct smapos_fio_ring *ring;
	struct node *n;

	if (!line)
		return 0;
	if (sscanf(line, "SMAPIO %lu %lx %lu", &node, &phys, &nslots) != 3 || node >= (unsigned)nnodes)
		die("bad hello from a node: %s", line);
	n = &nodes[node];
	ring = gp(n, phys, sizeof(*ring) + nslots * sizeof(ring->slot[0]));
	if (!ring || ring->magic != SMAPOS_FIO_MAGIC ||
	    ring->nslots != nslots || ring->slot_size != sizeof(ring->slot[0]))
		die("node %s: no I/O ring where its hello says (is -m the RAM file's size?)", line);
	n->ranks = calloc(nslots, sizeof(*n->ranks));
	if (!n->ranks)
		die("%s", "out of memory");
	n->nslots = (uint32_t)nslots;
	n->conn = conn;
	n->ring = ring;
	/* Every node is up, so QEMU holds its RAM file: the names can go, and
	 * nothing is left in /dev/shm however lwkrun ends. */
	for (int k = 0; k < nnodes; k++)
		if (!nodes[k].ring)
			return 1;
	for (int k = 0; k < nnodes; k++)
		unlink(nodes[k].file);
	return 1;
}

static void map_ram(struct node *n, const char *spec)
{
	char *end;
	const char *colon = strchr(spec, ':');
	int fd;

	if (!colon || !strrchr(colon + 1, ':'))
		die("--ram NODE:FILE:SIZE, not %s", spec);
	n->file = strndup(colon + 1, (size_t)(strrchr(spec, ':') - colon - 1));
	n->size = strtoull(strrchr(spec, ':') + 1, &end, 0);
	if (*end || !n->size)
		die("--ram: bad size in %s", spec);
	/* QEMU's pc machine: RAM of 3.5 GiB or more is split at 3 GiB */
	n->lowmem = n->size >= 0xe0000000ull ? 0xc0000000ull : n->size;
	fd = open(n->file, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		die("cannot open %s", n->file);
	n->ram = mmap(NULL, n->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (n->ram == MAP_FAILED)
		die("cannot map %s", n->file);
	close(fd);
	n->conn = -1;
}

static void on_term(int sig)
{
	(void)sig;
	_exit(0);
}

int main(int argc, char **argv)
{
	const char *sock = NULL, *files = NULL;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int lfd, i;

	for (i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--socket"))
			sock = argv[i + 1];
		else if (!strcmp(argv[i], "--files"))
			files = argv[i + 1];
		else if (!strcmp(argv[i], "--ram") && nnodes < MAXNODES)
			map_ram(&nodes[nnodes++], argv[i + 1]);
		else
			die("unknown option %s (iosrv --socket PATH --ram NODE:FILE:SIZE... "
			    "[--files DIR])", argv[i]);
	}
	if (i != argc || !sock || !nnodes || strlen(sock) >= sizeof(sa.sun_path))
		die("%s", "usage: iosrv --socket PATH --ram NODE:FILE:SIZE... [--files DIR]");
	if (files) {
		if (!realpath(files, root))
			die("--files %s: no such directory", files);
		rootlen = strlen(root);
		confined = strcmp(root, "/") != 0;
		if (chdir(root))
			die("--files %s: cannot enter it", files);
	}
	rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0 || !getcwd(start_cwd, sizeof(start_cwd)))
		die("%s: cannot open it", root);
	start_umask = umask(0);
	signal(SIGTERM, on_term);
	signal(SIGPIPE, SIG_IGN);
	strcpy(sa.sun_path, sock);
	lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) || listen(lfd, MAXNODES))
		die("cannot listen on %s", sock);
	printf("ready\n");
	fflush(stdout);
	for (;;) {
		struct pollfd pf[MAXNODES + 2];
		int np = 0, conns[MAXNODES + 1], nc = 0;
		static int open_conns[MAXNODES + 1], nopen;
		/* the hello line being received on each open connection */
		static struct hbuf { char line[128]; size_t len; } hellos[MAXNODES + 1];

		pf[np++] = (struct pollfd){ .fd = lfd, .events = POLLIN };
		for (int k = 0; k < nopen; k++) {
			conns[nc++] = open_conns[k];
			pf[np++] = (struct pollfd){ .fd = open_conns[k], .events = POLLIN };
		}
		int timeout = retry ? 1 : 50;

		if (want_stdin)
			pf[np++] = (struct pollfd){ .fd = 0, .events = POLLIN };
		want_stdin = 0;
		retry = 0;
		if (poll(pf, (nfds_t)np, timeout) < 0 && errno != EINTR)
			die("%s", "poll failed");
		if ((pf[0].revents & POLLIN) && nopen <= MAXNODES) {
			int c = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);

			if (c >= 0 && nopen < MAXNODES + 1) {
				hellos[nopen].len = 0;
				open_conns[nopen++] = c;
			}
		}
		for (int k = 0; k < nc; k++) {
			char buf[4096];
			ssize_t got;
			struct node *n = NULL;

			if (!(pf[1 + k].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			got = read(conns[k], buf, sizeof(buf));
			for (int j = 0; j < nnodes; j++)
				if (nodes[j].conn == conns[k])
					n = &nodes[j];
			if (got <= 0) {
				close(conns[k]);
				for (int j = 0; j < nopen; j++)
					if (open_conns[j] == conns[k]) {
						hellos[j] = hellos[nopen - 1];
						open_conns[j] = open_conns[--nopen];
					}
				if (n)
					n->conn = -1;
				continue;
			}
			if (n)
				continue;	/* doorbells: the scan below serves them */
			/* a new node's hello line (the pending bytes sit on the
			 * connection until it is identified) */
			for (ssize_t b = 0; b < got; b++) {
				struct hbuf *h = hellos;

				for (int j = 0; j < nopen; j++)
					if (open_conns[j] == conns[k])
						h = &hellos[j];

				if (buf[b] == '\n') {
					h->line[h->len] = 0;
					h->len = 0;
					if (hello(conns[k], h->line))
						break;
					continue;
				}
				/* a long line of firmware text: keep its tail,
				 * where a hello would be */
				if (h->len == sizeof(h->line) - 1) {
					size_t keep = sizeof(h->line) / 2;

					memmove(h->line, h->line + h->len - keep, keep);
					h->len = keep;
				}
				h->line[h->len++] = buf[b];
			}
		}
		/* Serve, then keep looking for a moment: the next request of a
		 * stream of them comes sooner than a poll round trip. */
		for (int spin = 0; spin < 2000; spin++)
			if (scan())
				spin = 0;
	}
}
