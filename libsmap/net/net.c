/*
 * net.c - commands to the node's network engine and what comes back.
 *
 * The area lives in this rank's heap (its memory is the engine's to reach,
 * nothing is registered).  Commands: SNET_NCMD slots, one per command in
 * flight, so every event has room.  Eager payloads are copied into a
 * bounce ring at once, so an eager send is complete for its caller as soon
 * as it is posted; the ring releases its buffers in posting order once
 * their messages are acknowledged.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "net.h"
#include "../../kernel/net/engine.h"
#include "../core/core.h"
#include "smap.h"

#define NET_INBOX	(2u << 20)
#define NET_BOUNCE	(2u << 20)
/* Past this an eager message's two extra copies (into the bounce buffer,
 * out of the inbox) cost more than the rendezvous round trip, measured
 * with host mode's 1 MiB frames (docs/network.md, Protocols). */
#define NET_EAGER_CAP	(256u << 10)
_Static_assert(NET_EAGER_CAP <= NET_BOUNCE / 4, "a few eager messages fit the bounce buffer");

static struct {
	int state;		/* 0 not tried, 1 up, < 0 -errno */
	struct snet_area *area;
	uint64_t cmd_n;		/* commands posted */
	uint64_t ev_n;		/* events consumed */
	uint64_t done;		/* commands completed */
	uint64_t parked;	/* RTS commands among those not completed */
	int in_progress;
	net_inbox_fn *inbox;
	/* bounce ring: buffers in posting order */
	char *bounce;
	uint64_t bhead, btail;
	uint64_t bend[SNET_NCMD];	/* ring position after each buffer */
	uint8_t bdone[SNET_NCMD];
	uint64_t bfirst, bnext;		/* buffers: oldest live, next */
} net;

/* Numbers of the job: world rank of this node's first rank, ranks per node. */
static uint32_t net_rpn(void)
{
	return core.ji.nranks;
}

int net_up(void)
{
	return net.state == 1;
}

uint64_t net_eager_max(void)
{
	uint64_t m = net.area ? net.area->max_payload : 0;

	return m < NET_EAGER_CAP ? m : NET_EAGER_CAP;
}

/* A rank leaving with commands in flight (a put it never quieted) lets
 * them finish first, for a while: their memory goes with the rank. */
static void net_exit(void)
{
	uint64_t until = smap_rdtsc() + smap_tsc_hz() * 2;
	unsigned spins = 0;

	while (net.done != net.cmd_n && smap_rdtsc() < until) {
		net_progress();
		core_spin(&spins);
	}
	if (core.host)
		hostnet_exit();
}

int net_init(void)
{
	struct snet_area *a;
	unsigned spins = 0;
	long r;

	core_ready();
	if (net.state)
		return net.state == 1 ? 0 : net.state;
	if (core.ji.nnodes < 2)
		return net.state = -ENODEV;
	a = aligned_alloc(64, sizeof(*a) + NET_INBOX);
	net.bounce = aligned_alloc(64, NET_BOUNCE);
	if (!a || !net.bounce)
		return net.state = -ENOMEM;
	/* Touched now, whole: in host mode the pages of a fresh heap fault in
	 * one by one, and a job's first messages would pay for them. */
	memset(a, 0, sizeof(*a) + (core.host ? NET_INBOX : 0));
	if (core.host)
		memset(net.bounce, 0, NET_BOUNCE);
	a->magic = SNET_AREA_MAGIC;
	a->version = SNET_AREA_VERSION;
	a->inbox_bytes = NET_INBOX;
	if (core.host)
		r = hostnet_attach(a);
	else
		r = syscall(SMAPOS_SYS_NET_ATTACH, a) < 0 ? -errno : 0;
	if (r < 0) {
		free(a);
		return net.state = (int)r;
	}
	while (__atomic_load_n(&a->state, __ATOMIC_ACQUIRE) == SNET_DOWN)
		core_spin(&spins);
	net.area = a;
	net.state = 1;
	if (core.host)
		core_progress = hostnet_drive;
	atexit(net_exit);
	return 0;
}

void net_set_inbox(net_inbox_fn *fn)
{
	net.inbox = fn;
}

/* The engine ends the job with SMAPOS_EXIT_NET and says why; a rank that
 * sees it first ends it with the same status, so the job's status names
 * the cause whoever is first. */
static _Noreturn void net_failed(void)
{
	core_warn("libsmap: rank %d: the network to node %u failed", smap_world_rank(),
		  net.area->down_node);
	smap_abort(SMAPOS_EXIT_NET);
}

/* Frees bounce buffers whose messages went, oldest first. */
static void net_bounce_release(void)
{
	while (net.bfirst != net.bnext && net.bdone[net.bfirst % SNET_NCMD]) {
		net.bdone[net.bfirst % SNET_NCMD] = 0;
		net.btail = net.bend[net.bfirst % SNET_NCMD];
		net.bfirst++;
	}
}

static void net_events(void)
{
	struct snet_area *a = net.area;

	for (;;) {
		struct snet_ev *ev = &a->ev[net.ev_n % SNET_NEV];
		struct net_op *op;

		if (__atomic_load_n(&ev->ticket, __ATOMIC_ACQUIRE) != (uint32_t)(net.ev_n + 1))
			break;
		op = (struct net_op *)(uintptr_t)ev->id;
		op->status = ev->status;
		op->value = ev->value;
		op->len = ev->len;
		net.ev_n++;
		net.done++;
		net.parked -= op->parked;
		__atomic_store_n(&a->ev_taken, net.ev_n, __ATOMIC_RELEASE);
		if (op->bounce) {
			net.bdone[(op->bounce - 1) % SNET_NCMD] = 1;
			net_bounce_release();
		}
		__atomic_store_n(&op->complete, 1, __ATOMIC_RELEASE);
		if (op->done)
			op->done(op);
	}
	if (__atomic_load_n(&a->state, __ATOMIC_ACQUIRE) == SNET_FAILED)
		net_failed();
}

static void net_inbox(void)
{
	struct snet_area *a = net.area;
	uint64_t head = __atomic_load_n(&a->inbox_head, __ATOMIC_ACQUIRE);

	while (a->inbox_tail != head) {
		const struct snet_inrec *rec =
			(const void *)(a->inbox + a->inbox_tail % a->inbox_bytes);

		if (rec->op && net.inbox)
			net.inbox(rec, rec->op == SNOP_MSG ? rec + 1 : NULL);
		__atomic_store_n(&a->inbox_tail, a->inbox_tail + rec->size, __ATOMIC_RELEASE);
	}
}

void net_progress(void)
{
	if (net.state != 1)
		return;
	if (core.host)
		hostnet_drive();
	net_events();
	/* Inbox handlers may post commands, which may progress: once deep. */
	if (net.in_progress)
		return;
	net.in_progress = 1;
	net_inbox();
	net.in_progress = 0;
}

/* Room for an eager payload of len bytes in the bounce ring. */
static char *net_bounce_get(uint64_t len, struct net_op *op)
{
	uint64_t need = (len + 63) & ~63ull, pos;
	unsigned spins = 0;

	for (;;) {
		pos = net.bhead;
		if (pos % NET_BOUNCE + need > NET_BOUNCE)
			pos += NET_BOUNCE - pos % NET_BOUNCE;
		if (pos + need - net.btail <= NET_BOUNCE && net.bnext - net.bfirst < SNET_NCMD)
			break;
		net_progress();
		core_spin(&spins);
	}
	net.bhead = pos + need;
	net.bend[net.bnext % SNET_NCMD] = net.bhead;
	op->bounce = (uint32_t)(net.bnext % SNET_NCMD) + 1;
	net.bnext++;
	return net.bounce + pos % NET_BOUNCE;
}

/* net_cmd with SNET_CMD_* flags beyond the op's own. */
static void net_post(struct net_op *op, uint8_t flags, uint8_t opc, uint8_t amo, uint32_t ctx,
		     uint32_t dst, const void *laddr, uint64_t raddr, uint64_t len, int64_t a0,
		     int64_t a1)
{
	struct snet_area *a = net.area;
	struct snet_cmd *c;
	unsigned spins = 0;

	if (net.state != 1)
		core_fatal("libsmap: rank %d: an operation on rank %u of another node, but %s",
			   smap_world_rank(), dst, net.state == -ENODEV ?
			   "the job has one node" : "this node has no network");
	op->complete = 0;
	op->bounce = 0;
	op->parked = opc == SNOP_RTS || op->probe;
	net.parked += op->parked;
	while (net.cmd_n - net.done >= SNET_NCMD) {
		if (core.host)
			hostnet_drive();
		net_events();
		core_spin(&spins);
	}
	/* Eager messages and small puts leave a copy: the caller's buffer is
	 * free at once, as the calls above promise. */
	if (len && (opc == SNOP_MSG || (opc == SNOP_PUT && len <= net_eager_max()))) {
		char *b = net_bounce_get(len, op);

		memcpy(b, laddr, len);
		laddr = b;
	}
	c = &a->cmd[net.cmd_n % SNET_NCMD];
	c->op = opc;
	c->amo = amo;
	c->flags = flags | (op->maylose ? SNET_CMD_MAYLOSE : 0);
	c->ctx = ctx;
	c->dst = dst;
	c->id = (uintptr_t)op;
	c->laddr = (uintptr_t)laddr;
	c->raddr = raddr;
	c->len = len;
	c->arg[0] = a0;
	c->arg[1] = a1;
	__atomic_store_n(&c->ticket, (uint32_t)(net.cmd_n + 1), __ATOMIC_RELEASE);
	net.cmd_n++;
	if (core.host)
		hostnet_drive();
}

void net_cmd(struct net_op *op, uint8_t opc, uint8_t amo, uint32_t ctx, uint32_t dst,
	     const void *laddr, uint64_t raddr, uint64_t len, int64_t a0, int64_t a1)
{
	net_post(op, 0, opc, amo, ctx, dst, laddr, raddr, len, a0, a1);
}

/* Commands nobody waits for: completed by progress, their failure is the
 * job's. */
struct net_async {
	struct net_op op;
	struct net_async *next;
	const char *what;
	uint32_t dst;
};
static struct net_async *net_async_free;

static void net_async_done(struct net_op *op)
{
	struct net_async *a = op->arg;

	if (op->status < 0)
		core_fatal("libsmap: rank %d: %s to rank %u failed: %s", smap_world_rank(), a->what,
			   a->dst, net_strerror(op->status));
	a->next = net_async_free;
	net_async_free = a;
}

static struct net_op *net_async_op(uint32_t dst, const char *what)
{
	struct net_async *a = net_async_free;

	if (a)
		net_async_free = a->next;
	else if (!(a = malloc(sizeof(*a))))
		core_fatal("libsmap: rank %d: %s: no memory for a network command",
			   smap_world_rank(), what);
	memset(a, 0, sizeof(*a));
	a->op.done = net_async_done;
	a->op.arg = a;
	a->what = what;
	a->dst = dst;
	return &a->op;
}

void net_cmd_async(uint8_t opc, uint8_t amo, uint32_t ctx, uint32_t dst, const void *laddr,
		   uint64_t raddr, uint64_t len, int64_t a0, int64_t a1, const char *what)
{
	/* nobody wants an atomic's old word: no reply frame */
	net_post(net_async_op(dst, what), opc == SNOP_AMO ? SNET_CMD_POSTED : 0, opc, amo, ctx, dst,
		 laddr, raddr, len, a0, a1);
}

void net_cmd_local_rows(struct net_op *op, uint8_t opc, uint32_t ctx, uint32_t dst,
			const void *laddr, uint64_t len, int64_t a0, int64_t a1, uint64_t row,
			uint64_t stride)
{
	net_post(op, SNET_CMD_LROWS, opc, 0, ctx, dst, laddr, stride << 32 | row, len, a0, a1);
}

void net_cmd_rows(struct net_op *op, uint8_t opc, uint8_t amo, uint32_t dst, const void *laddr,
		  uint64_t raddr, uint64_t len, uint64_t row, uint64_t stride, const char *what)
{
	net_post(op ? op : net_async_op(dst, what), SNET_CMD_ROWS, opc, amo, 0, dst, laddr, raddr,
		 len, (int64_t)row, (int64_t)stride);
}

int net_wait_spins(struct net_op *op, unsigned *spins)
{
	while (!__atomic_load_n(&op->complete, __ATOMIC_ACQUIRE)) {
		net_progress();
		if (op->complete)
			break;
		core_spin(spins);
	}
	return op->status;
}

int net_wait(struct net_op *op)
{
	unsigned spins = 0;

	return net_wait_spins(op, &spins);
}

const char *net_strerror(int status)
{
	return status == -ESRCH ? "the rank's job has ended on its node" : strerror(-status);
}

uint64_t net_gone_nodes(void)
{
	return net.state == 1 ? __atomic_load_n(&net.area->gone, __ATOMIC_ACQUIRE) : 0;
}

unsigned net_in_flight(const struct net_op *op, int *op_busy)
{
	uint64_t n = net.cmd_n - net.done, posted = 0, parked = net.parked;
	int seen = 0;

	*op_busy = 0;
	if (net.state != 1)
		return 0;
	for (; posted < n; posted++) {
		const struct snet_ev *ev = &net.area->ev[(net.ev_n + posted) % SNET_NEV];

		if (__atomic_load_n(&ev->ticket, __ATOMIC_ACQUIRE) != (uint32_t)(net.ev_n + posted + 1))
			break;
		seen |= ev->id == (uintptr_t)op;
		parked -= ((const struct net_op *)(uintptr_t)ev->id)->parked;
	}
	n -= posted + parked;
	if (op && !op->complete && !seen && n) {
		*op_busy = 1;
		n--;
	}
	return (unsigned)n;
}

void net_quiet(void)
{
	unsigned spins = 0;

	/* Even with nothing of ours in flight: in host mode the caller may be
	 * the one rank of its node that can drive the engine for its peers. */
	net_progress();
	while (net.state == 1 && net.done != net.cmd_n) {
		net_progress();
		core_spin(&spins);
	}
}

/*
 * The barrier between nodes: dissemination among the nodes' leaders.  In
 * round k a leader adds one to flag[k] at node (me + 2^k) mod nodes and
 * waits until its own flag[k] reaches the barrier's number: one one-way
 * message per round, all nodes' in flight at once (a counter at node 0
 * and a release from the last arrival took two round trips).  The adds
 * are posted (no reply frame); net_quiet and progress complete them.  Every
 * node's leader runs the same barriers in the same order, so each flag
 * gets exactly one add per barrier and only ever grows.  The words live in
 * each node's first rank, as whichever rank arrives last leads.
 */
static struct {
	_Alignas(64) int64_t epoch;
	_Alignas(64) int64_t flag[8];	/* one per round: 2^8 > ENG_MAX_NODES */
} net_bar;

void net_node_barrier(void)
{
	unsigned nn = core.ji.nnodes, me = core.ji.node, spins = 0;
	int64_t *epoch = remote_address(0, &net_bar.epoch);
	int64_t want = ++*epoch;

	for (unsigned k = 0, d = 1; d < nn; k++, d <<= 1) {
		const int64_t *flag = remote_address(0, &net_bar.flag[k]);

		net_cmd_async(SNOP_AMO, SNAMO_ADD, 0, (me + d) % nn * net_rpn(), NULL,
			      (uintptr_t)&net_bar.flag[k], 0, 1, 0, "the barrier between nodes");
		while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) < want) {
			net_progress();
			core_spin(&spins);
		}
	}
}
