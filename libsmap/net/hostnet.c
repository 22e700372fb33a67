/*
 * hostnet.c - host mode's network: the kernel's engine (kernel/net/engine.c,
 * the same code) over Unix-domain sequenced-packet sockets, one per pair of
 * nodes, that lwkrun --host --nodes K creates.
 *
 * A node is a group of Linux processes, and it has no CPU to spare for the
 * engine: the engine's state lives in a memfd every rank of the node maps
 * (SMAPOS_HOSTNET), and whichever rank is in the library drives it, under a
 * try-lock.  Rank memory is reached at its SMARTMAP slot address, which is
 * the same in every process of the node, so the engine's pointers are too.
 * A node with no rank in the library makes no progress, so peers cannot
 * tell a busy node from a dead one by silence: here a node is dead when
 * its sockets close (every process of it has exited) while something was
 * still expected of it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <elf.h>
#include <sys/auxv.h>
#include "net.h"
#include "../core/core.h"
#include "../host/host.h"
#include "../../kernel/net/engine.h"
#include "../../kernel/include/crc32c.h"
#include "smap.h"

#define HOSTNET_MTU	1048576u
#define HOSTNET_SHM	4096u		/* the lock page before the engine */
#define HOSTNET_STACK	(16ul << 20)	/* host.c's stack, with its guard page below */

/*
 * Reading a frame's head first (a peek) lets a large payload go straight
 * to its place in rank memory, and costs a system call more per frame
 * (about 0.5 us here, an empty one 0.3 us); below this a payload costs
 * less to copy from the staging buffer than the peek does.
 */
#define HOSTNET_PEEK_FROM	(16u << 10)

struct hostnet_shm {
	int lock;
	int begun;
	uint64_t gone;		/* nodes whose sockets closed, reported */
	unsigned left;		/* ranks of the node past hostnet_exit */
	/* Per node: its next frame may be large - it answers a fetch we
	 * asked for, or its last frame was large (a stream) - so peek. */
	uint8_t peek[ENG_MAX_NODES];
};

static struct hostnet_shm *shm;
static struct eng *eng;
static int hn_fd[ENG_MAX_NODES];
static unsigned hn_drop, hn_seed;
static uintptr_t hn_wr_lo, hn_guard;

static unsigned hn_field(const char **s, char sep)
{
	char *end;
	unsigned long v = strtoul(*s, &end, 10);

	if (end == *s || (*end != sep && *end != 0))
		core_fatal("libsmap: SMAPOS_HOSTNET is malformed (lwkrun sets it)");
	*s = *end ? end + 1 : end;
	return (unsigned)v;
}

/* The lowest writable address of the image: below it, text and rodata. */
static uintptr_t hn_writable_start(void)
{
	const Elf64_Phdr *ph = (const Elf64_Phdr *)getauxval(AT_PHDR);
	size_t n = getauxval(AT_PHNUM);
	uintptr_t lo = core.region_end;

	for (size_t i = 0; i < n; i++)
		if (ph[i].p_type == PT_LOAD && (ph[i].p_flags & PF_W) && ph[i].p_vaddr < lo)
			lo = ph[i].p_vaddr & ~(CORE_PAGE - 1);
	return lo;
}

int hostnet_attach(struct snet_area *area)
{
	const char *env = getenv("SMAPOS_HOSTNET");
	unsigned efd, nn = core.ji.nnodes;
	struct stat st = { 0 };
	int r;

	if (!env)
		return -ENODEV;
	efd = hn_field(&env, ':');
	hn_drop = hn_field(&env, ':');
	for (unsigned n = 0; n < nn; n++)
		hn_fd[n] = (int)hn_field(&env, ',');
	/* lwkrun sizes the memfd (tools/lwk/host.py ENGINE_BYTES): past its
	 * end the engine would fault mid-job */
	if (fstat((int)efd, &st) < 0 || (uint64_t)st.st_size < HOSTNET_SHM + eng_size(HOSTNET_MTU))
		core_fatal("libsmap: host mode: the node's engine needs %zu bytes, lwkrun gave %lld",
			   HOSTNET_SHM + eng_size(HOSTNET_MTU), (long long)st.st_size);
	shm = mmap(NULL, HOSTNET_SHM + eng_size(HOSTNET_MTU), PROT_READ | PROT_WRITE, MAP_SHARED,
		   (int)efd, 0);
	if (shm == MAP_FAILED)
		core_fatal("libsmap: host mode: cannot map the node's engine: %s", strerror(errno));
	eng = (struct eng *)((char *)shm + HOSTNET_SHM);
	hn_seed = (unsigned)smap_rdtsc() ^ (unsigned)core.ji.rank << 16;
	hn_wr_lo = hn_writable_start();
	hn_guard = core.region_end - HOSTNET_STACK - CORE_PAGE;
	core_lock(&shm->lock);
	if (!shm->begun) {
		struct eng_job j = { .id = core.ji.job_id + 1, .node = core.ji.node, .nnodes = nn };

		for (unsigned n = 0; n <= nn; n++)
			j.first_rank[n] = n * core.ji.nranks;
		eng_init(eng, HOSTNET_MTU, ENG_LINK_INTACT);
		if (eng_job_begin(eng, &j) < 0)
			core_fatal("libsmap: host mode: the engine refused a job of %u nodes", nn);
		shm->begun = 1;
	}
	r = eng_attach(eng, core.ji.rank, (uintptr_t)area);
	core_unlock(&shm->lock);
	return r;
}

static void hn_gone(unsigned n)
{
	if (shm->gone & (1ull << n))
		return;
	shm->gone |= 1ull << n;
	eng_node_gone(eng, n);
}

/* One frame from node n's socket: 1, 0 when none waits, -1 when the node
 * is gone.  When it may be large the head comes first (a peek), and a
 * payload with a place in rank memory goes straight there; the rest, and
 * every frame when none is expected to be large, whole through buf. */
static int hn_receive_one(unsigned n)
{
	static char buf[HOSTNET_MTU];
	enum { HEAD = sizeof(struct snet_hdr) + sizeof(struct snet_op) };
	char head[HEAD];
	uint32_t plen;
	ssize_t r;
	void *at;

	if (shm->peek[n]) {
		r = recv(hn_fd[n], head, sizeof(head), MSG_DONTWAIT | MSG_PEEK);
		if (r == HEAD && (at = eng_rx_place(eng, head, HEAD, &plen))) {
			struct iovec iov[2] = { { head, HEAD }, { at, plen } };
			struct msghdr m = { .msg_iov = iov, .msg_iovlen = 2 };

			if (recvmsg(hn_fd[n], &m, MSG_DONTWAIT) == (ssize_t)(HEAD + plen))
				eng_input_placed(eng, head, at, plen);
			shm->peek[n] = plen >= HOSTNET_PEEK_FROM;
			return 1;
		}
		if (r <= 0)
			return r == 0 || (errno != EAGAIN && errno != EINTR) ? -1 : 0;
	}
	r = recv(hn_fd[n], buf, sizeof(buf), MSG_DONTWAIT);
	if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR))
		return -1;
	if (r < 0)
		return 0;
	eng_input(eng, buf, (size_t)r);
	/* A bare acknowledgement says nothing of what comes next. */
	if ((size_t)r < sizeof(struct snet_hdr) || ((const struct snet_hdr *)buf)->kind == SNET_DATA)
		shm->peek[n] = (size_t)r >= HOSTNET_PEEK_FROM;
	return 1;
}

static int hn_receive(void)
{
	int got = 0;

	for (unsigned n = 0; n < core.ji.nnodes; n++) {
		if (n == core.ji.node || (shm->gone & (1ull << n)))
			continue;
		for (int k = 0; k < 32; k++) {
			int r = hn_receive_one(n);

			if (r < 0)
				hn_gone(n);
			if (r <= 0)
				break;
			got = 1;
		}
	}
	return got;
}

void hostnet_drive(void)
{
	if (!eng || __atomic_exchange_n(&shm->lock, 1, __ATOMIC_ACQUIRE))
		return;
	for (int k = 0; k < 8; k++) {
		int did = hn_receive();

		did |= eng_poll(eng);
		if (!did)
			break;
	}
	core_unlock(&shm->lock);
}

/* Before the process goes: acknowledge what peers sent until the node has
 * been quiet for a while, or they would resend into a closed socket.  The
 * node's last rank to go says so (BYE, with its final acknowledgements):
 * a peer whose last acknowledgement was lost learns it from that, not by
 * resending after the sockets closed. */
void hostnet_exit(void)
{
	struct timespec t;
	uint64_t start, quiet;

	if (!eng)
		return;
	start = eng_plat_now(eng);
	quiet = start;
	for (;;) {
		uint64_t now = eng_plat_now(eng);

		if (!__atomic_exchange_n(&shm->lock, 1, __ATOMIC_ACQUIRE)) {
			if (hn_receive())
				quiet = now;
			eng_poll(eng);
			if (!eng_idle(eng))
				quiet = now;
			core_unlock(&shm->lock);
		}
		if (now - quiet > 20000 || now - start > 1000000)
			break;
		t = (struct timespec){ 0, 100000 };
		nanosleep(&t, NULL);
	}
	core_lock(&shm->lock);
	if (++shm->left == core.ji.nranks)
		eng_job_leave(eng);
	core_unlock(&shm->lock);
}

/* ---- the engine's platform hooks ---- */

uint64_t eng_plat_now(struct eng *e)
{
	struct timespec t;

	(void)e;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000 + (uint64_t)t.tv_nsec / 1000;
}

int eng_plat_tx(struct eng *e, unsigned node, const struct eng_frag *f, unsigned nf)
{
	struct iovec iov[4];
	struct msghdr m = { .msg_iov = iov, .msg_iovlen = nf };

	(void)e;
	/* A fetch: its answer may come in large frames. */
	if (nf > 1 && f[1].len == sizeof(struct snet_op) &&
	    ((const struct snet_op *)f[1].base)->op == SNOP_GETREQ &&
	    ((const struct snet_op *)f[1].base)->len >= HOSTNET_PEEK_FROM)
		shm->peek[node] = 1;
	if (hn_drop && (unsigned)rand_r(&hn_seed) % 1000 < hn_drop)
		return 0;	/* lwkrun --drop: the wire lost it */
	for (unsigned i = 0; i < nf && i < 4; i++)
		iov[i] = (struct iovec){ (void *)f[i].base, f[i].len };
	if (sendmsg(hn_fd[node], &m, MSG_DONTWAIT | MSG_NOSIGNAL) >= 0)
		return 0;
	if (errno == EAGAIN || errno == ENOBUFS || errno == EINTR)
		return -EAGAIN;
	return 0;		/* the node is gone: receiving says so */
}

void *eng_plat_rank_mem(struct eng *e, unsigned lrank, uint64_t a, uint64_t n, int write)
{
	uint64_t base = core.ji.region_base, size = core.ji.region_size;

	(void)e;
	if (lrank >= core.ji.nranks || a < base || n > size || a - base > size - n)
		return NULL;
	if (a < hn_guard + CORE_PAGE && a + n > hn_guard)
		return NULL;
	if (write && a < hn_wr_lo)
		return NULL;
	return remote_address(lrank, (void *)(uintptr_t)a);
}

/* Every x86-64 that runs libsmap's host mode here has SSE4.2; the kernel
 * checks CPUID (kernel/net). */
uint32_t eng_plat_crc32c(uint32_t crc, const void *p, size_t n)
{
	return crc32c_hw(crc, p, n);
}

void eng_plat_fail(struct eng *e, unsigned node, enum eng_fail why, const char *what)
{
	(void)e;
	if (why == ENG_FAIL_LOST)
		core_warn("libsmap: node %u: node %u answers, but none of our frames reach it (%s): "
			  "ending the job", core.ji.node, node, what);
	else
		core_warn("libsmap: node %u: node %u left or stopped answering during %s: ending the job",
			  core.ji.node, node, what);
	host_abort(SMAPOS_EXIT_NET);
}

void eng_plat_abort(struct eng *e, unsigned rank, int status)
{
	(void)e;
	core_warn("libsmap: node %u: rank %u failed on its node (status %d): ending the job",
		  core.ji.node, rank, status);
	host_abort(status);	/* 0 too: shmem_global_exit(0) */
}
