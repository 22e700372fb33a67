/*
 * smapos_fileio.h - the file I/O channel between a node's kernel and the
 * I/O server lwkrun runs for the job (tools/iosrv, docs/fileio.md).
 *
 * Under QEMU the node's RAM is a file the server maps too, so the two
 * share memory: the kernel allocates one ring of slots (one per CPU, each
 * CPU runs at most one rank) and names its physical address in a hello
 * line on the doorbell port (COM2).  A rank's file system call fills its
 * slot (the Linux call number and arguments, paths copied in once, user
 * buffers as guest-physical ranges), sets POSTED and rings the doorbell;
 * the server claims the slot (POSTED -> BUSY), does the call on the host
 * with reads and writes straight into guest memory, stores the result
 * and sets DONE.  A rank killed while waiting takes its slot back with
 * POSTED -> IDLE; one the server has claimed is always finished first.
 */
#ifndef SMAPOS_FILEIO_H
#define SMAPOS_FILEIO_H

#include <stdint.h>

#define SMAPOS_FIO_MAGIC	0x314f4950414d53ull	/* "SMAPIO1" */
#define SMAPOS_FIO_PATH		4096		/* PATH_MAX */
#define SMAPOS_FIO_SEGS		1024		/* UIO_MAXIOV */
#define SMAPOS_FIO_FDS		1024		/* RLIMIT_NOFILE */

enum smapos_fio_state {
	SMAPOS_FIO_IDLE, SMAPOS_FIO_POSTED, SMAPOS_FIO_BUSY, SMAPOS_FIO_DONE,
};

/* A piece of user memory, by guest-physical address (a rank's region is
 * physically contiguous, so any checked user range is one segment). */
struct smapos_fio_seg {
	uint64_t phys, len;
};

struct smapos_fio_slot {
	volatile uint32_t state;
	uint32_t nr;			/* Linux x86-64 system call number */
	uint32_t job;			/* job id: a new one starts a fresh fd table */
	uint32_t rank;			/* rank on the node */
	uint64_t arg[6];		/* the call's arguments; pointers replaced by segments */
	int64_t ret;			/* value or -errno */
	uint32_t nseg, pad;
	/* fds that write to the console, as the server's table has them after
	 * the call (bit fd): the kernel writes those itself, tagged */
	uint64_t console[SMAPOS_FIO_FDS / 64];
	char path[2][SMAPOS_FIO_PATH];
	struct smapos_fio_seg seg[SMAPOS_FIO_SEGS];
};

struct smapos_fio_ring {
	uint64_t magic;
	uint32_t node, nslots;
	uint64_t slot_size;
	uint64_t pad[5];
	struct smapos_fio_slot slot[];
};

#endif
