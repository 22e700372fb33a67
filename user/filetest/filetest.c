/*
 * filetest - files as a program sees them, the same binary on the kernel
 * (calls shipped to lwkrun's I/O server) and in host mode (Linux):
 *
 *   filetest basic     stdio and raw calls: write, read back, list a
 *                      directory, rename, unlink, dup2 onto stdout...
 *   filetest confine   under lwkrun --files DIR: `..`, absolute paths and
 *                      symlinks out of DIR all fail, DIR itself works
 *   filetest stdin     rank 0 reads its stdin to the end, the others see
 *                      end of file
 *   filetest failwrite rank 0 writes 4 MiB and aborts, the others write on
 *   filetest bench MB  sequential write then read of an MB MiB file
 *
 * Every rank works on names of its own.  One TAP line per check.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include <smap.h>

static int failures;
static int rank;

static void check(int ok, const char *name, const char *why)
{
	/* Rank 0 reports each check once; the others speak up only to fail. */
	if (ok && rank == 0)
		printf("ok %s\n", name);
	else if (!ok)
		printf("not ok rank %d: %s - %s (errno %d: %s)\n", rank, name, why, errno,
		       strerror(errno));
	failures += !ok;
}

#define CHECK(cond, name) check((cond), (name), #cond)

static char *nm(const char *base)
{
	static char buf[8][64];
	static int i;

	i = (i + 1) % 8;
	snprintf(buf[i], sizeof(buf[i]), "%s.%d", base, rank);
	return buf[i];
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void basic(void)
{
	char line[128], buf[256], cwd[4096], cwd2[4096], *names[8];
	struct stat st;
	struct iovec iov[3];
	FILE *f;
	int fd, fd2, ok, n, saved;
	DIR *d;
	struct dirent *e;

	/* stdio: write, read back */
	f = fopen(nm("stdio"), "w");
	CHECK(f != NULL, "fopen for writing");
	if (!f)
		return;
	for (int i = 0; i < 100; i++)
		fprintf(f, "line %d of rank %d\n", i, rank);
	CHECK(fclose(f) == 0, "fclose after 100 lines");
	f = fopen(nm("stdio"), "r");
	CHECK(f != NULL, "fopen for reading");
	ok = f != NULL;
	for (int i = 0; ok && i < 100; i++) {
		char want[64];

		snprintf(want, sizeof(want), "line %d of rank %d\n", i, rank);
		ok = fgets(line, sizeof(line), f) && !strcmp(line, want);
	}
	CHECK(ok && f && fgets(line, sizeof(line), f) == NULL && feof(f), "the 100 lines read back, then EOF");
	if (f)
		fclose(f);
	f = fopen(nm("stdio"), "a");
	CHECK(f && fputs("appended\n", f) >= 0 && fclose(f) == 0, "append mode");
	CHECK(stat(nm("stdio"), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 1000,
	      "stat: a regular file of the size written");

	/* raw calls */
	fd = open(nm("raw"), O_RDWR | O_CREAT | O_EXCL, 0644);
	CHECK(fd >= 3, "open O_CREAT|O_EXCL");
	CHECK(open(nm("raw"), O_RDWR | O_CREAT | O_EXCL, 0644) < 0 && errno == EEXIST,
	      "O_EXCL on an existing file: EEXIST");
	CHECK(write(fd, "hello, world", 12) == 12, "write 12 bytes");
	CHECK(lseek(fd, 0, SEEK_CUR) == 12, "lseek SEEK_CUR after write");
	CHECK(pwrite(fd, "W", 1, 7) == 1, "pwrite at 7");
	memset(buf, 0, sizeof(buf));
	CHECK(pread(fd, buf, sizeof(buf), 0) == 12 && !memcmp(buf, "hello, World", 12),
	      "pread sees the pwrite");
	CHECK(lseek(fd, 0, SEEK_CUR) == 12, "pread/pwrite leave the offset");
	CHECK(fstat(fd, &st) == 0 && st.st_size == 12 && (st.st_mode & 0777) == 0644 - 0,
	      "fstat: size 12, mode 0644");
	CHECK(ftruncate(fd, 5) == 0 && fstat(fd, &st) == 0 && st.st_size == 5, "ftruncate to 5");
	{
		/* IOR and PnetCDF ask what file system holds their files */
		struct statfs a, b;
		struct statvfs v;

		CHECK(fstatfs(fd, &a) == 0 && statfs(nm("raw"), &b) == 0 && a.f_type == b.f_type &&
		      a.f_bsize > 0 && a.f_blocks > 0 && statvfs(nm("raw"), &v) == 0 &&
		      v.f_blocks == (fsblkcnt_t)b.f_blocks, "fstatfs, statfs, statvfs: one file system");
		CHECK(statfs(nm("missing"), &b) < 0 && errno == ENOENT, "statfs of a missing file: ENOENT");
	}
	CHECK(fsync(fd) == 0 && fdatasync(fd) == 0, "fsync, fdatasync");
	iov[0] = (struct iovec){ "ab", 2 };
	iov[1] = (struct iovec){ "", 0 };
	iov[2] = (struct iovec){ "cde", 3 };
	CHECK(lseek(fd, 0, SEEK_END) == 5 && writev(fd, iov, 3) == 5, "writev of 3 pieces");
	{
		char x[4], y[6];
		struct iovec r[2] = { { x, 4 }, { y, 6 } };

		CHECK(lseek(fd, 0, SEEK_SET) == 0 && readv(fd, r, 2) == 10 &&
		      !memcmp(x, "hell", 4) && !memcmp(y, "oabcde", 6), "readv into 2 pieces");
	}
	CHECK(read(fd, buf, 10) == 0, "read at end of file: 0");
	fd2 = dup(fd);
	CHECK(fd2 > fd && lseek(fd2, 0, SEEK_CUR) == 10, "dup shares the offset");
	CHECK(close(fd2) == 0 && close(fd) == 0, "close both");
	CHECK(close(fd) < 0 && errno == EBADF, "close twice: EBADF");
	CHECK(read(fd, buf, 1) < 0 && errno == EBADF, "read of a closed fd: EBADF");
	CHECK(open(nm("missing"), O_RDONLY) < 0 && errno == ENOENT, "open a missing file: ENOENT");
	CHECK(access(nm("raw"), R_OK | W_OK) == 0, "access R_OK|W_OK");
	CHECK(access(nm("missing"), F_OK) < 0 && errno == ENOENT, "access of a missing file: ENOENT");

	/* locks, space, times */
	fd = open(nm("meta"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0 && flock(fd, LOCK_EX) == 0 && flock(fd, LOCK_UN) == 0, "flock");
	CHECK(posix_fallocate(fd, 0, 8192) == 0 && fstat(fd, &st) == 0 && st.st_size == 8192,
	      "posix_fallocate grows the file");
	{
		struct timespec t[2] = { { 1000000000, 0 }, { 1000000000, 0 } };
		struct timespec u[2] = { { 1100000000, 0 }, { 1100000000, 0 } };

		CHECK(utimensat(AT_FDCWD, nm("meta"), t, 0) == 0 && stat(nm("meta"), &st) == 0 &&
		      st.st_mtime == 1000000000 && futimens(fd, u) == 0 && fstat(fd, &st) == 0 &&
		      st.st_mtime == 1100000000, "utimensat by name, futimens by fd");
	}
	CHECK(close(fd) == 0 && unlink(nm("meta")) == 0, "close and unlink it");

	/* directories */
	CHECK(mkdir(nm("dir"), 0755) == 0, "mkdir");
	CHECK(mkdir(nm("dir"), 0755) < 0 && errno == EEXIST, "mkdir again: EEXIST");
	CHECK(getcwd(cwd, sizeof(cwd)) != NULL && cwd[0] == '/', "getcwd: an absolute path");
	CHECK(chdir(nm("dir")) == 0, "chdir into it");
	for (int i = 0; i < 3; i++) {
		char name[16];

		snprintf(name, sizeof(name), "f%d", i);
		fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd >= 0)
			close(fd);
	}
	CHECK(getcwd(cwd2, sizeof(cwd2)) && !strncmp(cwd2, cwd, strlen(cwd)) &&
	      !strcmp(cwd2 + strlen(cwd) + 1, nm("dir")), "getcwd follows chdir");
	CHECK(chdir("..") == 0 && getcwd(cwd2, sizeof(cwd2)) && !strcmp(cwd, cwd2), "chdir ..");
	d = opendir(nm("dir"));
	CHECK(d != NULL, "opendir");
	n = 0;
	while (d && (e = readdir(d)) != NULL)
		if (e->d_name[0] != '.' && n < 8)
			names[n++] = strdup(e->d_name);
	if (d)
		closedir(d);
	qsort(names, (size_t)n, sizeof(names[0]), cmp_str);
	CHECK(n == 3 && !strcmp(names[0], "f0") && !strcmp(names[1], "f1") && !strcmp(names[2], "f2"),
	      "readdir lists the 3 files");
	snprintf(buf, sizeof(buf), "%s/f1", nm("dir"));
	snprintf(line, sizeof(line), "%s/g1", nm("dir"));
	CHECK(rename(buf, line) == 0 && stat(buf, &st) < 0 && errno == ENOENT && stat(line, &st) == 0,
	      "rename inside the directory");
	CHECK(rmdir(nm("dir")) < 0 && errno == ENOTEMPTY, "rmdir of a full directory: ENOTEMPTY");
	fd = open(nm("dir"), O_RDONLY | O_DIRECTORY);
	CHECK(fd >= 0 && unlinkat(fd, "f0", 0) == 0 && unlinkat(fd, "g1", 0) == 0 &&
	      unlinkat(fd, "f2", 0) == 0 && close(fd) == 0, "unlinkat relative to a directory fd");
	CHECK(rmdir(nm("dir")) == 0 && stat(nm("dir"), &st) < 0 && errno == ENOENT, "rmdir");

	/* symlinks */
	CHECK(symlink(nm("raw"), nm("link")) == 0, "symlink");
	n = (int)readlink(nm("link"), buf, sizeof(buf));
	CHECK(n == (int)strlen(nm("raw")) && !memcmp(buf, nm("raw"), (size_t)n), "readlink");
	CHECK(lstat(nm("link"), &st) == 0 && S_ISLNK(st.st_mode), "lstat sees the link");
	CHECK(stat(nm("link"), &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 10, "stat follows it");

	/* stdout redirected into a file and back */
	fflush(stdout);
	saved = dup(1);
	fd = open(nm("stdout"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ok = saved >= 0 && fd >= 0 && dup2(fd, 1) == 1;
	printf("into the file\n");
	fflush(stdout);
	ok = ok && dup2(saved, 1) == 1;
	close(saved);
	close(fd);
	CHECK(ok, "dup2 a file onto stdout and back");
	f = fopen(nm("stdout"), "r");
	CHECK(f && fgets(line, sizeof(line), f) && !strcmp(line, "into the file\n"),
	      "what printf wrote went to the file");
	if (f)
		fclose(f);

	/* clean up */
	CHECK(unlink(nm("link")) == 0 && unlink(nm("raw")) == 0 && unlink(nm("stdio")) == 0 &&
	      unlink(nm("stdout")) == 0, "unlink");
	CHECK(unlink(nm("raw")) < 0 && errno == ENOENT, "unlink again: ENOENT");
}

static void confine(void)
{
	struct stat st;
	char cwd[4096], path[4200];
	int fd;

	fd = open(nm("inside"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0 && write(fd, "x", 1) == 1 && close(fd) == 0, "a file inside DIR");
	CHECK(getcwd(cwd, sizeof(cwd)) != NULL, "getcwd");
	snprintf(path, sizeof(path), "%s/%s", cwd, nm("inside"));
	CHECK(stat(path, &st) == 0 && st.st_size == 1, "an absolute path inside DIR");
	CHECK(open("../outside", O_RDONLY) < 0 && errno == EACCES, "open ../outside: EACCES");
	CHECK(open("../outside", O_WRONLY | O_CREAT, 0644) < 0 && errno == EACCES,
	      "create ../outside: EACCES");
	CHECK(open("sub/../../outside", O_RDONLY) < 0, "open sub/../../outside fails");
	CHECK(stat("/etc/passwd", &st) < 0 && errno == EACCES, "stat /etc/passwd: EACCES");
	CHECK(open("/etc/passwd", O_RDONLY) < 0 && errno == EACCES, "open /etc/passwd: EACCES");
	CHECK(chdir("..") < 0 && errno == EACCES, "chdir ..: EACCES");
	CHECK(chdir("/") < 0 && errno == EACCES, "chdir /: EACCES");
	CHECK(open("escape/outside", O_RDONLY) < 0 && errno == EACCES,
	      "through a symlink to ..: EACCES");
	CHECK(open("abs-escape", O_RDONLY) < 0 && errno == EACCES,
	      "a symlink to an absolute path outside: EACCES");
	CHECK(stat("escape", &st) < 0 && errno == EACCES, "stat through the symlink: EACCES");
	CHECK(rename(nm("inside"), "../stolen") < 0 && errno == EACCES, "rename out: EACCES");
	CHECK(mkdir("../made", 0755) < 0 && errno == EACCES, "mkdir ..: EACCES");
	CHECK(unlink("../outside") < 0 && errno == EACCES, "unlink ../outside: EACCES");
	CHECK(symlink("/etc/passwd", nm("planted")) == 0 &&
	      open(nm("planted"), O_RDONLY) < 0 && errno == EACCES,
	      "a symlink the job plants does not lead out either");
	CHECK(chdir("sub") == 0 && open("../../outside", O_RDONLY) < 0 && errno == EACCES &&
	      chdir("..") == 0, "from a subdirectory, ../.. is refused");
	CHECK(unlink(nm("planted")) == 0 && unlink(nm("inside")) == 0, "clean up inside");
}

static void read_stdin(void)
{
	char buf[4096];
	unsigned long sum = 0, total = 0;
	ssize_t n;

	while ((n = read(0, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n; i++)
			sum = sum * 31 + (unsigned char)buf[i];
		total += (unsigned long)n;
	}
	CHECK(n == 0, "stdin read to end of file");
	printf("rank %d: stdin %lu bytes, hash %lu\n", rank, total, sum);
}

/* Rank 0 writes 4 MiB and aborts while the others keep writing: the job
 * ends with SIGABRT's status, the others are stopped in the middle of
 * their calls, and rank 0's file is whole. */
static int failwrite(void)
{
	static char chunk[65536];
	int fd = open(nm("failwrite"), O_WRONLY | O_CREAT | O_TRUNC, 0644);

	memset(chunk, 'a' + rank, sizeof(chunk));
	if (fd < 0)
		return 1;
	if (rank != 0)
		for (;;)
			if (write(fd, chunk, sizeof(chunk)) < 0 || lseek(fd, 0, SEEK_SET) < 0)
				return 1;
	for (int i = 0; i < 64; i++)
		if (write(fd, chunk, sizeof(chunk)) != (ssize_t)sizeof(chunk))
			return 1;
	abort();
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void bench(long mb)
{
	const size_t chunk = 1 << 20;
	char *buf = malloc(chunk);
	double t0, t1, t2;
	int fd, ok = 1;

	for (size_t i = 0; i < chunk; i++)
		buf[i] = (char)(i * 7 + rank);
	fd = open(nm("bench"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	t0 = now();
	for (long i = 0; i < mb; i++)
		ok &= write(fd, buf, chunk) == (ssize_t)chunk;
	ok &= fsync(fd) == 0;
	t1 = now();
	lseek(fd, 0, SEEK_SET);
	for (long i = 0; i < mb; i++)
		ok &= read(fd, buf, chunk) == (ssize_t)chunk && buf[12345] == (char)(12345 * 7 + rank);
	t2 = now();
	close(fd);
	unlink(nm("bench"));
	CHECK(ok, "sequential write and read back");
	printf("rank %d: file I/O, %ld MiB in 1 MiB calls: write %.1f MB/s, read %.1f MB/s\n",
	       rank, mb, mb * 1.048576 / (t1 - t0), mb * 1.048576 / (t2 - t1));
}

int main(int argc, char **argv)
{
	rank = smap_world_rank();
	if (argc > 1 && !strcmp(argv[1], "basic"))
		basic();
	else if (argc > 1 && !strcmp(argv[1], "confine"))
		confine();
	else if (argc > 1 && !strcmp(argv[1], "stdin"))
		read_stdin();
	else if (argc > 1 && !strcmp(argv[1], "failwrite"))
		return failwrite();
	else if (argc > 2 && !strcmp(argv[1], "bench"))
		bench(atol(argv[2]));
	else {
		fprintf(stderr, "usage: filetest basic|confine|stdin|failwrite|bench MB\n");
		return 2;
	}
	fflush(stdout);
	return failures ? 1 : 0;
}
