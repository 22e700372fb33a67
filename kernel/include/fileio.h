/*
 * fileio.h - file system calls shipped to the job's I/O server
 * (docs/fileio.md): the kernel has no file system of its own.
 */
#ifndef FILEIO_H
#define FILEIO_H

#include <stdint.h>

struct proc;

/* If the node has an I/O server (iosrv= on the command line) and `nr` is
 * a call it serves, do the call there, store its result in *ret and
 * return 1; otherwise 0 and the kernel answers the call itself (console
 * output, the stdio-only defaults without a server). */
int fileio_call(struct proc *p, uint64_t nr, const uint64_t *a, long *ret);
/* RLIMIT_NOFILE: the server's table size, or 3 (stdio) without one. */
uint64_t fileio_nofile(void);

#endif
