/*
 * test_net.c - the network engine (kernel/net/engine.c) on a simulated
 * wire: several nodes in one process, a virtual clock, and a wire that
 * loses, duplicates, reorders and corrupts frames on demand.  The ranks'
 * side is played by hand through the areas of uapi/smapos_net.h.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "unit.h"

#include "../../kernel/net/engine.h"
#include "../../kernel/net/proto.h"
#include "smapos_net.h"
#include "crc32c.h"

#define NODES		3
#define RANKS		2		/* per node */
#define RMEM		(8u << 20)	/* bytes of each rank's memory */
#define RBASE		0x10000000ull	/* its first user address */
#define RO_BYTES	0x10000u	/* read-only at the bottom, like text */
#define AREA_OFF	0x10000u
#define INBOX		(64u << 10)
#define MTU		9000u
#define RTO_SLACK	50000u

struct frame {
	struct frame *next;
	unsigned to;
	uint64_t at;
	size_t len;
	uint8_t data[];
};

static struct eng *E[NODES];
static uint8_t *mem[NODES][RANKS];
static uint64_t now_us;
static struct frame *wire;
static unsigned drop_pm, dup_pm, corrupt_pm, jitter_us;
static bool watch_all;		/* eng_job.watch_all of the jobs job_begin starts */
static int dead_node = -1;	/* this node neither sends nor receives */
static int deaf_node = -1;	/* this node's bare acknowledgements are lost */
static int mute_node = -1;	/* every frame this node sends is lost */
static unsigned long frames_sent, frames_lost, frames_headcrc, bare_acks, amo_replies;
static int failed_node = -1, failed_by = -1, aborted_rank = -1, aborted_status;
static enum eng_fail failed_why;
static size_t lose_above;	/* frames longer than this are lost (0: none) */
static char failed_what[128];

static unsigned node_of_eng(struct eng *e)
{
	for (unsigned n = 0; n < NODES; n++)
		if (E[n] == e)
			return n;
	abort();
}

uint64_t eng_plat_now(struct eng *e)
{
	(void)e;
	return now_us;
}

static unsigned rnd(unsigned n)
{
	return (unsigned)(random() % n);
}

static void wire_put(unsigned to, const uint8_t *p, size_t len)
{
	struct frame *f = malloc(sizeof(*f) + len);

	f->to = to;
	f->at = now_us + 5 + (jitter_us ? rnd(jitter_us) : 0);
	f->len = len;
	memcpy(f->data, p, len);
	if (corrupt_pm && rnd(1000) < corrupt_pm)
		f->data[rnd((unsigned)len)] ^= (uint8_t)(1 + rnd(255));
	f->next = wire;
	wire = f;
}

int eng_plat_tx(struct eng *e, unsigned node, const struct eng_frag *f, unsigned nf)
{
	static uint8_t buf[MTU];
	size_t len = 0;

	for (unsigned i = 0; i < nf; i++) {
		if (len + f[i].len > MTU)
			abort();
		memcpy(buf + len, f[i].base, f[i].len);
		len += f[i].len;
	}
	frames_sent++;
	if (((const struct snet_hdr *)buf)->flags & SNET_F_HEADCRC)
		frames_headcrc++;
	if (((const struct snet_hdr *)buf)->kind == SNET_ACK)
		bare_acks++;
	else if (len >= sizeof(struct snet_hdr) + sizeof(struct snet_op) &&
		 ((const struct snet_op *)(buf + sizeof(struct snet_hdr)))->op == SNOP_AMOREPLY)
		amo_replies++;
	if ((int)node_of_eng(e) == dead_node || (int)node == dead_node ||
	    ((int)node_of_eng(e) == deaf_node && ((const struct snet_hdr *)buf)->kind == SNET_ACK) ||
	    (int)node_of_eng(e) == mute_node || (lose_above && len > lose_above) ||
	    (drop_pm && rnd(1000) < drop_pm)) {
		frames_lost++;
		return 0;
	}
	wire_put(node, buf, len);
	if (dup_pm && rnd(1000) < dup_pm)
		wire_put(node, buf, len);
	return 0;
}

void *eng_plat_rank_mem(struct eng *e, unsigned lrank, uint64_t a, uint64_t n, int write)
{
	unsigned node = node_of_eng(e);

	if (lrank >= RANKS || a < RBASE || n > RMEM || a - RBASE > RMEM - n)
		return NULL;
	if (write && a - RBASE < RO_BYTES)
		return NULL;
	return mem[node][lrank] + (a - RBASE);
}

uint32_t eng_plat_crc32c(uint32_t crc, const void *p, size_t n)
{
	const uint8_t *b = p;

	crc = ~crc;
	while (n--) {
		crc ^= *b++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0x82f63b78u & -(crc & 1));
	}
	return ~crc;
}

void eng_plat_fail(struct eng *e, unsigned node, enum eng_fail why, const char *what)
{
	failed_why = why;
	failed_by = (int)node_of_eng(e);
	failed_node = (int)node;
	snprintf(failed_what, sizeof(failed_what), "%s", what);
}

void eng_plat_abort(struct eng *e, unsigned rank, int status)
{
	(void)e;
	aborted_rank = (int)rank;
	aborted_status = status;
}

/* ---- the simulated world ---- */

/* Half the frames arrive the way host mode receives big ones: head
 * first, payload straight into place. */
static unsigned long placed;

static void arrive(struct frame *f)
{
	size_t head = sizeof(struct snet_hdr) + sizeof(struct snet_op);
	uint32_t plen;
	void *p;

	if (random() % 2 && f->len > head &&
	    (p = eng_rx_place(E[f->to], f->data, head, &plen)) && plen == f->len - head) {
		memcpy(p, f->data + head, plen);
		eng_input_placed(E[f->to], f->data, p, plen);
		placed++;
		return;
	}
	eng_input(E[f->to], f->data, f->len);
}

static void step(void)
{
	struct frame **pp = &wire, *due = NULL;

	while (*pp) {
		struct frame *f = *pp;

		if (f->at <= now_us) {
			*pp = f->next;
			f->next = due;
			due = f;
		} else {
			pp = &f->next;
		}
	}
	while (due) {
		struct frame *f = due;

		due = f->next;
		if ((int)f->to != dead_node)
			arrive(f);
		free(f);
	}
	for (unsigned n = 0; n < NODES; n++)
		if ((int)n != dead_node)
			eng_poll(E[n]);
	now_us += 3;
}

static struct snet_area *area(unsigned node, unsigned r)
{
	return (struct snet_area *)(mem[node][r] + AREA_OFF);
}

static uint64_t uaddr(unsigned off)
{
	return RBASE + off;
}

static uint8_t *at(unsigned node, unsigned r, unsigned off)
{
	return mem[node][r] + off;
}

static unsigned world(unsigned node, unsigned r)
{
	return node * RANKS + r;
}

static uint64_t cmd_n[NODES][RANKS], ev_n[NODES][RANKS];

static void job_begin(uint32_t id, uint64_t dead_us)
{
	while (wire) {
		struct frame *f = wire;

		wire = f->next;
		free(f);
	}
	for (unsigned n = 0; n < NODES; n++) {
		struct eng_job j = { .id = id, .node = n, .nnodes = NODES, .dead_us = dead_us,
				     .join_us = 60000000,
				     .watch_all = watch_all };

		for (unsigned k = 0; k <= NODES; k++)
			j.first_rank[k] = k * RANKS;
		if (eng_job_begin(E[n], &j) != 0)
			abort();
		for (unsigned r = 0; r < RANKS; r++) {
			struct snet_area *a = area(n, r);

			memset(mem[n][r], 0, RMEM);
			a->magic = SNET_AREA_MAGIC;
			a->version = SNET_AREA_VERSION;
			a->inbox_bytes = INBOX;
			cmd_n[n][r] = ev_n[n][r] = 0;
			if (eng_attach(E[n], r, uaddr(AREA_OFF)) != 0)
				abort();
		}
	}
	dead_node = deaf_node = mute_node = failed_node = failed_by = aborted_rank = -1;
}

static uint8_t post_flags;	/* snet_cmd.flags of the commands post() writes */

static void post(unsigned node, unsigned r, uint8_t op, uint8_t amo, unsigned dst, uint64_t laddr,
		 uint64_t raddr, uint64_t len, int64_t a0, int64_t a1, uint64_t id)
{
	struct snet_area *a = area(node, r);
	struct snet_cmd *c;

	while (cmd_n[node][r] - a->cmd_taken >= SNET_NCMD)
		step();
	c = &a->cmd[cmd_n[node][r] % SNET_NCMD];
	c->op = op;
	c->amo = amo;
	c->flags = post_flags;
	c->ctx = 7;
	c->dst = dst;
	c->id = id;
	c->laddr = laddr;
	c->raddr = raddr;
	c->len = len;
	c->arg[0] = a0;
	c->arg[1] = a1;
	c->ticket = (uint32_t)++cmd_n[node][r];
}

/* The next event of a rank, waiting up to limit steps; NULL if none. */
static struct snet_ev *event(unsigned node, unsigned r, long limit)
{
	struct snet_area *a = area(node, r);
	struct snet_ev *ev = &a->ev[ev_n[node][r] % SNET_NEV];

	for (long i = 0; ev->ticket != (uint32_t)(ev_n[node][r] + 1); i++) {
		if (i >= limit)
			return NULL;
		step();
	}
	ev_n[node][r]++;
	a->ev_taken = ev_n[node][r];
	return ev;
}

/* The next inbox record of a rank; the caller consumes it with
 * inbox_pop(). */
static struct snet_inrec *inbox_peek(unsigned node, unsigned r, long limit)
{
	struct snet_area *a = area(node, r);

	for (long i = 0;; i++) {
		if (a->inbox_head != a->inbox_tail) {
			struct snet_inrec *rec = (void *)(a->inbox + a->inbox_tail % INBOX);

			if (rec->op)
				return rec;
			a->inbox_tail += rec->size;
			continue;
		}
		if (i >= limit)
			return NULL;
		step();
	}
}

static void inbox_pop(unsigned node, unsigned r)
{
	struct snet_area *a = area(node, r);
	struct snet_inrec *rec = (void *)(a->inbox + a->inbox_tail % INBOX);

	a->inbox_tail += rec->size;
}

static void fill(uint8_t *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(i * 7 + seed + (i >> 11));
}

static int same(const uint8_t *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != (uint8_t)(i * 7 + seed + (i >> 11)))
			return 0;
	return 1;
}

#define DATA	0x100000u	/* offsets of buffers in rank memory */
#define DATA2	0x500000u

static void test_eager(const char *name)
{
	char nm[96];
	int ok = 1;

	for (unsigned i = 0; i < 200; i++) {
		unsigned len = (i * 97) % 8000;

		fill(at(0, 1, DATA), len, i);
		post(0, 1, SNOP_MSG, 0, world(2, 0), uaddr(DATA), 0, len, 40 + i, i, 1000 + i);
		struct snet_ev *ev = event(0, 1, 200000);
		struct snet_inrec *rec = inbox_peek(2, 0, 200000);

		if (!ev || ev->status || ev->id != 1000 + i || !rec || rec->op != SNOP_MSG ||
		    rec->src != world(0, 1) || rec->tag != 40 + i || rec->len != len ||
		    rec->ctx != 7 || !same((uint8_t *)(rec + 1), len, i)) {
			ok = 0;
			break;
		}
		inbox_pop(2, 0);
	}
	snprintf(nm, sizeof(nm), "%s: 200 eager messages arrive whole, in order, once", name);
	CHECK(nm, ok, "message broke");
}

/* 400 small messages posted back to back over a wire that loses 30% of
 * frames: the window fills with retransmitted frames, which give no RTT
 * sample, so only the end of the backoff at each advance keeps the
 * timeout short (it stayed at RTO_MAX: a few frames a second). */
static void test_heavy_loss(void)
{
	unsigned got = 0, done = 0, bad = 0;
	uint64_t t0;

	job_begin(21, 0);
	drop_pm = 300;
	t0 = now_us;
	for (unsigned i = 0; i < 400; i++) {
		struct snet_inrec *rec;

		fill(at(0, 1, DATA + 128 * (i % 64)), 100, i);
		post(0, 1, SNOP_MSG, 0, world(2, 0), uaddr(DATA + 128 * (i % 64)), 0, 100, i, 0, i);
		if (i >= 32 && event(0, 1, 4000000))
			done++;
		while ((rec = inbox_peek(2, 0, 0))) {
			bad += rec->tag != got || !same((uint8_t *)(rec + 1), 100, got);
			got++;
			inbox_pop(2, 0);
		}
	}
	while (done < 400 && event(0, 1, 4000000))
		done++;
	for (struct snet_inrec *rec; got < 400 && (rec = inbox_peek(2, 0, 4000000)); got++) {
		bad += rec->tag != got || !same((uint8_t *)(rec + 1), 100, got);
		inbox_pop(2, 0);
	}
	drop_pm = 0;
	CHECK("30% loss: 400 messages posted back to back arrive whole, in order, once",
	      got == 400 && done == 400 && !bad, "%u arrived, %u completed, %u wrong", got, done, bad);
	CHECK("and in under 5 s of wire time (the backoff ends at each advance)",
	      now_us - t0 < 5000000, "%lu ms", (unsigned long)((now_us - t0) / 1000));
}

/* A 100-byte message from node `from` (rank 1) reaches node `to` (rank 0)
 * within 0.2 s of simulated time. */
static int eager_arrives(unsigned from, unsigned to)
{
	struct snet_inrec *rec;

	fill(at(from, 1, DATA), 100, 5);
	post(from, 1, SNOP_MSG, 0, world(to, 0), uaddr(DATA), 0, 100, 1, 0, 1);
	rec = inbox_peek(to, 0, 200000);
	if (rec)
		inbox_pop(to, 0);
	return rec != NULL;
}

static void test_rendezvous(const char *name, size_t len)
{
	char nm[96];
	struct snet_ev *ev;
	struct snet_inrec *rec;
	uint64_t t0;

	fill(at(1, 0, DATA), len, 3);
	post(1, 0, SNOP_RTS, 0, world(0, 1), uaddr(DATA), 0, len, 5, 0, 77);
	rec = inbox_peek(0, 1, 400000);
	snprintf(nm, sizeof(nm), "%s: rendezvous announce reaches the receiver", name);
	CHECK(nm, rec && rec->op == SNOP_RTS && rec->len == len && rec->id, "no RTS");
	if (!rec)
		return;
	uint64_t rts = rec->id;

	inbox_pop(0, 1);
	post(0, 1, SNOP_GETREQ, 0, world(1, 0), uaddr(DATA2), 0, len, (int64_t)rts, 0, 78);
	ev = event(0, 1, 4000000);
	snprintf(nm, sizeof(nm), "%s: receiver's get of %zu bytes lands intact", name, len);
	CHECK(nm, ev && ev->status == 0 && ev->id == 78 && ev->len == len &&
		  same(at(0, 1, DATA2), len, 3), "get failed: %d", ev ? ev->status : 999);
	t0 = now_us;
	ev = event(1, 0, 400000);
	snprintf(nm, sizeof(nm), "%s: the sender's rendezvous completes after the fetch", name);
	CHECK(nm, ev && ev->status == 0 && ev->id == 77 && ev->len == len, "no completion");
	if (!drop_pm && !jitter_us) {
		/* Its sender waits for it: the last frame is acknowledged at
		 * once, not an acknowledgement delay (50 us) later. */
		snprintf(nm, sizeof(nm), "%s: ... one wire crossing after the data lands", name);
		CHECK(nm, now_us - t0 <= 15, "%lu us", (unsigned long)(now_us - t0));
	}
}

static void test_put_get(void)
{
	size_t len = 1536 * 1024;
	struct snet_ev *ev;

	fill(at(0, 0, DATA), len, 9);
	post(0, 0, SNOP_PUT, 0, world(2, 1), uaddr(DATA), uaddr(DATA2), len, 0, 0, 1);
	ev = event(0, 0, 4000000);
	CHECK("put of 1.5 MiB to a third node completes",
	      ev && ev->status == 0 && ev->id == 1, "status %d", ev ? ev->status : 999);
	CHECK("the put's bytes are at the target", same(at(2, 1, DATA2), len, 9), "corrupt");
	post(1, 1, SNOP_GETREQ, 0, world(2, 1), uaddr(DATA), uaddr(DATA2), len, 0, 0, 2);
	ev = event(1, 1, 4000000);
	CHECK("get of 1.5 MiB from a third node completes",
	      ev && ev->status == 0 && ev->id == 2, "status %d", ev ? ev->status : 999);
	CHECK("the get's bytes are those of the target", same(at(1, 1, DATA), len, 9), "corrupt");
}

/* Commands whose target side is rows (SNET_CMD_ROWS): a put placed row by
 * row with the gaps untouched, gets from two nodes at once gathered by the
 * target's engine (more frames than it has gather buffers), accumulates
 * combined per row, and shapes that are refused. */
static void test_rows(const char *name)
{
	enum { ROW = 24, STRIDE = 40, NROWS = 20000, LEN = ROW * NROWS, SPAN = STRIDE * NROWS };
	uint8_t *t = at(2, 1, DATA2);
	int32_t *acc = (int32_t *)at(2, 1, DATA2), *one = (int32_t *)at(1, 0, DATA);
	struct snet_ev *ev, *ev2;
	char nm[128];
	int good = 1;

	memset(t, 0xee, SPAN);
	fill(at(0, 0, DATA), LEN, 5);
	post_flags = SNET_CMD_ROWS;
	post(0, 0, SNOP_PUT, 0, world(2, 1), uaddr(DATA), uaddr(DATA2), LEN, ROW, STRIDE, 40);
	ev = event(0, 0, 4000000);
	for (unsigned i = 0; i < SPAN; i++) {
		unsigned r = i / STRIDE, in = i % STRIDE, k = r * ROW + in;

		good &= in < ROW ? t[i] == (uint8_t)(k * 7 + 5 + (k >> 11)) : t[i] == 0xee;
	}
	snprintf(nm, sizeof(nm), "%s: a put into rows places each row and leaves the gaps", name);
	CHECK(nm, ev && ev->status == 0 && ev->id == 40 && good, "status %d good %d",
	      ev ? ev->status : 999, good);

	memset(at(0, 1, DATA), 0, LEN);
	memset(at(1, 1, DATA), 0, LEN);
	post(0, 1, SNOP_GETREQ, 0, world(2, 1), uaddr(DATA), uaddr(DATA2), LEN, ROW, STRIDE, 41);
	post(1, 1, SNOP_GETREQ, 0, world(2, 1), uaddr(DATA), uaddr(DATA2), LEN, ROW, STRIDE, 42);
	ev = event(0, 1, 4000000);
	ev2 = event(1, 1, 4000000);
	snprintf(nm, sizeof(nm), "%s: gets of rows from two nodes at once gather them in order",
		 name);
	CHECK(nm, ev && ev->status == 0 && ev2 && ev2->status == 0 && same(at(0, 1, DATA), LEN, 5) &&
	      same(at(1, 1, DATA), LEN, 5), "status %d %d", ev ? ev->status : 999,
	      ev2 ? ev2->status : 999);

	memset(acc, 0, SPAN);
	for (unsigned i = 0; i < LEN / 4; i++)
		one[i] = 1;
	post(1, 0, SNOP_ACC, SNACC_CODE(SNACC_I32, SNACC_SUM), world(2, 1), uaddr(DATA),
	     uaddr(DATA2), LEN, ROW, STRIDE, 43);
	post(1, 0, SNOP_ACC, SNACC_CODE(SNACC_I32, SNACC_SUM), world(2, 1), uaddr(DATA),
	     uaddr(DATA2), LEN, ROW, STRIDE, 44);
	ev = event(1, 0, 4000000);
	ev2 = event(1, 0, 4000000);
	good = 1;
	for (unsigned i = 0; i < SPAN / 4; i++)
		good &= acc[i] == (i * 4 % STRIDE < ROW ? 2 : 0);
	snprintf(nm, sizeof(nm), "%s: accumulates into rows combine each element of a row once",
		 name);
	CHECK(nm, ev && ev->status == 0 && ev2 && ev2->status == 0 && good, "good %d", good);

	post(0, 0, SNOP_PUT, 0, world(2, 1), uaddr(DATA), uaddr(DATA2), LEN, ROW, ROW - 1, 45);
	ev = event(0, 0, 1000);
	good = ev && ev->status == -EINVAL;
	post(0, 0, SNOP_PUT, 0, world(2, 1), uaddr(DATA), uaddr(DATA2), LEN + 1, ROW, STRIDE, 46);
	ev = event(0, 0, 1000);
	good &= ev && ev->status == -EINVAL;
	post(0, 0, SNOP_MSG, 0, world(2, 1), uaddr(DATA), 0, 64, 8, 8, 47);
	ev = event(0, 0, 1000);
	good &= ev && ev->status == -EINVAL;
	post(0, 0, SNOP_ACC, SNACC_CODE(SNACC_I32, SNACC_SUM), world(2, 1), uaddr(DATA),
	     uaddr(DATA2), 64, 8, 10, 48);
	ev = event(0, 0, 1000);
	good &= ev && ev->status == -EINVAL;
	post(0, 0, SNOP_PUT, 0, world(2, 1), uaddr(DATA), uaddr(DATA2), 64, 8, INT64_MAX / 4, 49);
	ev = event(0, 0, 400000);
	good &= ev && ev->status == -EFAULT;
	post(0, 0, SNOP_GETREQ, 0, world(2, 1), uaddr(DATA), uaddr(DATA2), 64, 8, RMEM / 4, 50);
	ev = event(0, 0, 400000);
	good &= ev && ev->status == -EFAULT;
	/* rows of this side: only on an announce or its fetch */
	post_flags = SNET_CMD_LROWS;
	post(0, 0, SNOP_PUT, 0, world(2, 1), uaddr(DATA), 16ull << 32 | 8, 64, 0, 0, 53);
	ev = event(0, 0, 1000);
	good &= ev && ev->status == -EINVAL;
	post(0, 0, SNOP_GETREQ, 0, world(2, 1), uaddr(DATA), 16ull << 32 | 8, 64, 0, 0, 54);
	ev = event(0, 0, 1000);
	good &= ev && ev->status == -EINVAL;
	post_flags = 0;
	snprintf(nm, sizeof(nm), "%s: bad rows are refused (overlap, length, alignment, message, "
		 "range, side)", name);
	CHECK(nm, good, "refused wrongly");

	/* A rendezvous whose sender's buffer is rows (gathered by its engine)
	 * fetched into rows of another shape (placed by the receiver's). */
	enum { R2 = 16, S2 = 48 };
	struct snet_inrec *rec;
	uint8_t *dst = at(1, 1, DATA2);

	memset(dst, 0xee, LEN / R2 * S2);
	fill(t, SPAN, 9);
	post_flags = SNET_CMD_LROWS;
	post(2, 1, SNOP_RTS, 0, world(1, 1), uaddr(DATA2), (uint64_t)STRIDE << 32 | ROW, LEN, 5, 0,
	     51);
	rec = inbox_peek(1, 1, 400000);
	good = rec && rec->op == SNOP_RTS && rec->len == LEN;
	if (rec) {
		uint64_t rts = rec->id;

		inbox_pop(1, 1);
		post(1, 1, SNOP_GETREQ, 0, world(2, 1), uaddr(DATA2), (uint64_t)S2 << 32 | R2, LEN,
		     (int64_t)rts, 0, 52);
		ev = event(1, 1, 4000000);
		ev2 = event(2, 1, 4000000);
		good &= ev && ev->status == 0 && ev2 && ev2->status == 0;
		for (unsigned i = 0; i < LEN / R2 * S2 && good; i++) {
			/* byte k of the message: byte k % ROW of the sender's row k / ROW */
			unsigned k = i / S2 * R2 + i % S2, src = k / ROW * STRIDE + k % ROW;

			good &= i % S2 < R2 ? dst[i] == (uint8_t)(src * 7 + 9 + (src >> 11))
					    : dst[i] == 0xee;
		}
	}
	post_flags = 0;
	snprintf(nm, sizeof(nm), "%s: a rendezvous from rows into rows of another shape", name);
	CHECK(nm, good, "rows rendezvous failed");
}

static void test_errors(void)
{
	struct snet_ev *ev;

	post(0, 0, SNOP_PUT, 0, world(1, 0), uaddr(DATA), uaddr(0x100), 64, 0, 0, 11);
	ev = event(0, 0, 400000);
	CHECK("a put into the target's read-only memory fails with EFAULT",
	      ev && ev->status == -EFAULT && ev->id == 11, "status %d", ev ? ev->status : 999);
	post(0, 0, SNOP_PUT, 0, world(1, 0), uaddr(DATA), RBASE + RMEM - 8, 64, 0, 0, 12);
	ev = event(0, 0, 400000);
	CHECK("a put past the end of the target's memory fails with EFAULT",
	      ev && ev->status == -EFAULT, "status %d", ev ? ev->status : 999);
	post(0, 0, SNOP_GETREQ, 0, world(1, 0), uaddr(DATA), UINT64_MAX - 16, 64, 0, 0, 13);
	ev = event(0, 0, 400000);
	CHECK("a get whose range wraps fails with EFAULT",
	      ev && ev->status == -EFAULT, "status %d", ev ? ev->status : 999);
	post(0, 0, SNOP_PUT, 0, world(0, 1), uaddr(DATA), uaddr(DATA), 64, 0, 0, 14);
	ev = event(0, 0, 1000);
	CHECK("a command for a rank of the same node is refused (EINVAL)",
	      ev && ev->status == -EINVAL, "status %d", ev ? ev->status : 999);
	post(0, 0, SNOP_PUT, 0, world(1, 0), RBASE - 4096, uaddr(DATA), 64, 0, 0, 15);
	ev = event(0, 0, 1000);
	CHECK("a command whose local buffer is outside the rank fails with EFAULT",
	      ev && ev->status == -EFAULT, "status %d", ev ? ev->status : 999);
	post(0, 0, SNOP_AMO, SNAMO_ADD, world(1, 0), 0, uaddr(DATA + 3), 0, 1, 0, 16);
	ev = event(0, 0, 400000);
	CHECK("a misaligned atomic fails with EINVAL",
	      ev && ev->status == -EINVAL, "status %d", ev ? ev->status : 999);
	post(0, 0, SNOP_GETREQ, 0, world(1, 0), uaddr(DATA), 0, 64, 12345, 0, 17);
	ev = event(0, 0, 400000);
	CHECK("a rendezvous fetch that names no announce fails",
	      ev && ev->status == -ENOENT, "status %d", ev ? ev->status : 999);
}

static void test_amo(const char *name)
{
	char nm[96];
	int64_t *word = (int64_t *)at(1, 1, DATA);
	int ok = 1;
	unsigned n = 300;

	*word = 0;
	for (unsigned i = 0; i < n; i++) {
		post(0, 0, SNOP_AMO, SNAMO_ADD, world(1, 1), 0, uaddr(DATA), 0, 1, 0, i);
		post(2, 1, SNOP_AMO, SNAMO_ADD, world(1, 1), 0, uaddr(DATA), 0, 2, 0, i);
	}
	for (unsigned i = 0; i < n; i++) {
		struct snet_ev *a = event(0, 0, 4000000), *b = event(2, 1, 4000000);

		if (!a || !b || a->status || b->status)
			ok = 0;
	}
	snprintf(nm, sizeof(nm), "%s: %u remote fetch-adds from two nodes apply exactly once", name,
		 2 * n);
	CHECK(nm, ok && *word == 3 * (int64_t)n, "word %ld", (long)*word);
	post(0, 1, SNOP_AMO, SNAMO_CAS, world(1, 1), 0, uaddr(DATA), 0, 42, 3 * (int64_t)n, 9);
	struct snet_ev *ev = event(0, 1, 400000);

	snprintf(nm, sizeof(nm), "%s: remote compare-and-swap returns the old value", name);
	CHECK(nm, ev && ev->value == 3 * (int64_t)n && *word == 42, "cas");

	/* Posted: no reply frame, each complete once its frame is acknowledged. */
	unsigned long replies = amo_replies;

	*word = 0;
	ok = 1;
	post_flags = SNET_CMD_POSTED;
	for (unsigned i = 0; i < n; i++) {
		post(0, 0, SNOP_AMO, SNAMO_ADD, world(1, 1), 0, uaddr(DATA), 0, 1, 0, i);
		post(2, 1, SNOP_AMO, SNAMO_ADD, world(1, 1), 0, uaddr(DATA), 0, 2, 0, i);
	}
	post_flags = 0;
	for (unsigned i = 0; i < n; i++) {
		struct snet_ev *a = event(0, 0, 4000000), *b = event(2, 1, 4000000);

		if (!a || !b || a->status || b->status)
			ok = 0;
	}
	snprintf(nm, sizeof(nm), "%s: %u posted adds from two nodes apply exactly once, unanswered",
		 name, 2 * n);
	CHECK(nm, ok && *word == 3 * (int64_t)n && amo_replies == replies, "word %ld, %lu replies",
	      (long)*word, amo_replies - replies);
}

/* Ping-pong of eager messages between two ranks on two nodes: the reply
 * carries the acknowledgement, so hardly any bare ACK goes on the wire. */
static void test_ack_rides(void)
{
	unsigned long acks = bare_acks;
	int ok = 1;

	for (unsigned i = 0; i < 100 && ok; i++)
		ok = eager_arrives(i % 2, 1 - i % 2);
	CHECK("a ping-pong of 100 eager messages sends at most 2 bare ACKs",
	      ok && bare_acks - acks <= 2, "ok %d, %lu bare ACKs", ok, bare_acks - acks);
	for (unsigned i = 0; i < 100; i++)
		ok &= event(i % 2, 1, 400000) != NULL;
	CHECK("each of them completes for its sender", ok, "an event is missing");
}

/* Accumulate streams from two nodes into one rank's memory: every element
 * combined exactly once (duplicated and lost frames included), floats too;
 * codes and alignments the engine cannot serve refused. */
static void test_acc(const char *name)
{
	char nm[112];
	enum { N = 3000, ROUNDS = 12 };
	int32_t *sum = (int32_t *)at(1, 1, DATA2);
	double *max = (double *)at(1, 1, DATA2 + 4 * N);
	int32_t *a = (int32_t *)at(0, 0, DATA), *b = (int32_t *)at(2, 1, DATA);
	double *d = (double *)at(0, 0, DATA + 4 * N);
	struct snet_ev *ev;
	int ok = 1, good = 1;

	for (unsigned i = 0; i < N; i++) {
		sum[i] = (int32_t)i;
		max[i] = -1.0;
		a[i] = 1;
		b[i] = -3;
		d[i] = 0.5 * (i % 11);
	}
	for (unsigned k = 0; k < ROUNDS; k++) {
		post(0, 0, SNOP_ACC, SNACC_CODE(SNACC_I32, SNACC_SUM), world(1, 1), uaddr(DATA),
		     uaddr(DATA2), 4 * N, 0, 0, k);
		post(2, 1, SNOP_ACC, SNACC_CODE(SNACC_I32, SNACC_SUM), world(1, 1), uaddr(DATA),
		     uaddr(DATA2), 4 * N, 0, 0, k);
	}
	post(0, 0, SNOP_ACC, SNACC_CODE(SNACC_F64, SNACC_MAX), world(1, 1), uaddr(DATA + 4 * N),
	     uaddr(DATA2 + 4 * N), 8 * N, 0, 0, 99);
	for (unsigned k = 0; k <= ROUNDS; k++) {
		ev = event(0, 0, 4000000);
		ok &= ev && ev->status == 0;
		if (k < ROUNDS) {
			ev = event(2, 1, 4000000);
			ok &= ev && ev->status == 0;
		}
	}
	for (unsigned i = 0; i < N; i++)
		good &= sum[i] == (int32_t)i - 2 * ROUNDS && max[i] == 0.5 * (i % 11);
	snprintf(nm, sizeof(nm), "%s: accumulate streams from two nodes combine each element once",
		 name);
	CHECK(nm, ok && good, "ok %d good %d", ok, good);
	post(0, 0, SNOP_ACC, SNACC_CODE(SNACC_F64, SNACC_BAND), world(1, 1), uaddr(DATA),
	     uaddr(DATA2), 64, 0, 0, 100);
	ev = event(0, 0, 1000);
	snprintf(nm, sizeof(nm), "%s: an accumulate with no such operation is refused", name);
	CHECK(nm, ev && ev->status == -EINVAL, "status %d", ev ? ev->status : 999);
	post(0, 0, SNOP_ACC, SNACC_CODE(SNACC_I32, SNACC_SUM), world(1, 1), uaddr(DATA),
	     uaddr(DATA2 + 2), 64, 0, 0, 101);
	ev = event(0, 0, 1000);
	snprintf(nm, sizeof(nm), "%s: a misaligned accumulate is refused", name);
	CHECK(nm, ev && ev->status == -EINVAL, "status %d", ev ? ev->status : 999);
}

/* Fetching accumulates from two nodes on the same 8 counters: each returns
 * the values from before it, so the old values of counter 0 are every
 * ticket once; a NOOP reads without writing; too long is refused. */
static void test_facc(const char *name)
{
	char nm[112];
	enum { N = 8, EACH = 100 };
	int32_t *ctr = (int32_t *)at(1, 0, DATA2);
	int32_t *one0 = (int32_t *)at(0, 1, DATA), *one2 = (int32_t *)at(2, 0, DATA);
	static unsigned char seen[2 * EACH];
	int ok = 1, uniq = 1, same = 1;

	memset(seen, 0, sizeof(seen));
	for (unsigned i = 0; i < N; i++) {
		ctr[i] = 0;
		one0[i] = one2[i] = 1;
	}
	for (unsigned k = 0; k < EACH; k++) {
		post(0, 1, SNOP_FACC, SNACC_CODE(SNACC_I32, SNACC_SUM), world(1, 0), uaddr(DATA),
		     uaddr(DATA2), 4 * N, (int64_t)uaddr(DATA + 64 + 32 * k), 0, k);
		post(2, 0, SNOP_FACC, SNACC_CODE(SNACC_I32, SNACC_SUM), world(1, 0), uaddr(DATA),
		     uaddr(DATA2), 4 * N, (int64_t)uaddr(DATA + 64 + 32 * k), 0, k);
	}
	for (unsigned k = 0; k < EACH; k++) {
		struct snet_ev *a = event(0, 1, 4000000), *b = event(2, 0, 4000000);

		ok &= a && b && !a->status && !b->status && a->len == 4 * N;
	}
	for (unsigned src = 0; src < 2 && ok; src++)
		for (unsigned k = 0; k < EACH; k++) {
			const int32_t *old = (const int32_t *)at(src ? 2 : 0, src ? 0 : 1,
								 DATA + 64 + 32 * k);

			for (unsigned i = 1; i < N; i++)
				same &= old[i] == old[0];
			if (old[0] < 0 || old[0] >= 2 * EACH || seen[old[0]]++)
				uniq = 0;
		}
	snprintf(nm, sizeof(nm), "%s: fetching accumulates hand out each old value once", name);
	CHECK(nm, ok && uniq && same && ctr[0] == 2 * EACH && ctr[N - 1] == 2 * EACH,
	      "ok %d uniq %d same %d counter %d", ok, uniq, same, ctr[0]);
	post(0, 1, SNOP_FACC, SNACC_CODE(SNACC_F64, SNACC_NOOP), world(1, 0), 0, uaddr(DATA2),
	     4 * N, (int64_t)uaddr(DATA2), 0, 500);
	struct snet_ev *ev = event(0, 1, 4000000);
	snprintf(nm, sizeof(nm), "%s: a fetch-only accumulate reads and leaves the target", name);
	CHECK(nm, ev && !ev->status && ((int32_t *)at(0, 1, DATA2))[0] == 2 * EACH &&
		  ctr[0] == 2 * EACH, "status %d", ev ? ev->status : 999);
	post(0, 1, SNOP_FACC, SNACC_CODE(SNACC_I32, SNACC_SUM), world(1, 0), uaddr(DATA),
	     uaddr(DATA2), SNET_FACC_MAX + 4, (int64_t)uaddr(DATA2), 0, 501);
	ev = event(0, 1, 1000);
	snprintf(nm, sizeof(nm), "%s: a fetching accumulate over %d bytes is refused", name,
		 SNET_FACC_MAX);
	CHECK(nm, ev && ev->status == -EINVAL, "status %d", ev ? ev->status : 999);
}

/* A put, then a flag set by an atomic: when the flag is seen, the data is
 * there (OpenSHMEM's put-with-signal relies on it). */
static void test_order(void)
{
	size_t len = 256 * 1024;
	volatile int64_t *flag = (int64_t *)at(2, 0, DATA);
	int ok = 0;

	fill(at(0, 1, DATA), len, 21);
	*flag = 0;
	post(0, 1, SNOP_PUT, 0, world(2, 0), uaddr(DATA), uaddr(DATA2), len, 0, 0, 1);
	post(0, 1, SNOP_AMO, SNAMO_SET, world(2, 0), 0, uaddr(DATA), 0, 1, 0, 2);
	for (long i = 0; i < 4000000 && !*flag; i++)
		step();
	if (*flag)
		ok = same(at(2, 0, DATA2), len, 21);
	CHECK("a flag set after a put is never seen before the put's data", ok, "order broken");
	event(0, 1, 400000);
	event(0, 1, 400000);
}

/* The receiver's inbox holds a few messages only: the sender must wait,
 * nothing may be lost. */
/* Node 0 rank 0 reads the next message of its inbox, if any: the
 * got-th of 4000 bytes (ok = 0 if it is not). */
static void read_next(unsigned *got, int *ok)
{
	struct snet_inrec *rec = inbox_peek(0, 0, 0);

	if (!rec)
		return;
	if (rec->tag != *got || !same((uint8_t *)(rec + 1), 4000, *got))
		*ok = 0;
	inbox_pop(0, 0);
	(*got)++;
}

static void test_flow(void)
{
	unsigned n = 400, got = 0, next_post = 0, done = 0;
	uint64_t t0 = now_us;
	int ok = 1;

	for (long i = 0; i < 20000000 && got < n; i++) {
		if (next_post < n && next_post - done < 64) {	/* 64 buffers, reused once sent */
			unsigned len = 4000;

			fill(at(1, 0, DATA + 4096 * (next_post % 64)), len, next_post);
			post(1, 0, SNOP_MSG, 0, world(0, 0), uaddr(DATA + 4096 * (next_post % 64)), 0,
			     len, next_post, 0, next_post);
			next_post++;
		}
		while (event(1, 0, 0))
			done++;
		if (i % 50 == 0)	/* a slow receiver */
			read_next(&got, &ok);
		step();
	}
	CHECK("a slow receiver gets 400 messages in order, none lost", ok && got == n,
	      "got %u", got);
	/* It takes one every 150 us: 60 ms.  Waiting out a retransmission
	 * timeout (2 ms at least) each time its inbox fills took 185. */
	CHECK("a full inbox calls the sender back once it has room, without a timeout",
	      now_us - t0 < 70000, "%lu us for 400 messages at one per 150 us",
	      (unsigned long)(now_us - t0));
}

static void test_dead(void)
{
	struct snet_ev *ev;
	uint64_t t0;

	/* A node silent from the job's start may still be starting it. */
	job_begin(8, 200000);
	dead_node = 1;
	post(0, 0, SNOP_GETREQ, 0, world(1, 0), uaddr(DATA), uaddr(DATA2), 4096, 0, 0, 1);
	for (long i = 0; i < 200000 && failed_node < 0; i++)
		step();
	CHECK("a node not heard from in this job yet is not dead after twice the dead time",
	      failed_node < 0, "failed %d after %lu us", failed_node, (unsigned long)now_us);
	dead_node = -1;

	job_begin(9, 200000);
	post(0, 0, SNOP_AMO, SNAMO_SET, world(1, 0), 0, uaddr(DATA), 0, 1, 0, 2);
	ev = event(0, 0, 100000);
	CHECK("a node that answered has joined the job", ev && ev->status == 0, "no answer");
	post(0, 0, SNOP_GETREQ, 0, world(1, 0), uaddr(DATA), uaddr(DATA2), 4096, 0, 0, 1);
	dead_node = 1;
	t0 = now_us;
	for (long i = 0; i < 400000 && failed_node < 0; i++)
		step();
	CHECK("a node that stops answering is declared dead", failed_node == 1 && failed_by == 0,
	      "failed %d by %d", failed_node, failed_by);
	CHECK("within the dead time and a retransmission of it",
	      failed_node == 1 && now_us - t0 <= 200000 + RTO_SLACK, "after %lu us",
	      (unsigned long)(now_us - t0));
	CHECK("the failure names the operation and ranks",
	      strstr(failed_what, "get from rank 0 to rank 2") != NULL, "what: %s", failed_what);
	CHECK("the ranks see the network failed and where",
	      area(0, 0)->state == SNET_FAILED && area(0, 0)->down_node == 1, "state %u",
	      area(0, 0)->state);
}

static void test_gone(void)
{
	struct snet_ev *ev;

	job_begin(11, 0);
	eng_node_gone(E[0], 1);
	post_flags = SNET_CMD_MAYLOSE;
	post(0, 0, SNOP_AMO, SNAMO_SET, world(1, 0), 0, uaddr(DATA), 0, 1, 0, 21);
	ev = event(0, 0, 1000);
	CHECK("a command that may be lost, to a node that left, fails alone with ESRCH",
	      ev && ev->status == -ESRCH && ev->id == 21 && failed_node < 0, "status %d, failed %d",
	      ev ? ev->status : 999, failed_node);

	job_begin(12, 0);
	dead_node = 1;
	post_flags = SNET_CMD_MAYLOSE;
	post(0, 0, SNOP_AMO, SNAMO_SET, world(1, 0), 0, uaddr(DATA), 0, 1, 0, 22);
	post_flags = 0;
	for (int i = 0; i < 1000; i++)
		step();
	eng_node_gone(E[0], 1);
	ev = event(0, 0, 1000);
	CHECK("one in flight when the node leaves ends with ESRCH, and the job goes on",
	      ev && ev->status == -ESRCH && ev->id == 22 && failed_node < 0 && eng_idle(E[0]),
	      "status %d, failed %d", ev ? ev->status : 999, failed_node);
	post(0, 0, SNOP_AMO, SNAMO_SET, world(1, 0), 0, uaddr(DATA), 0, 1, 0, 23);
	for (int i = 0; i < 1000 && failed_node < 0; i++)
		step();
	CHECK("any other command to that node ends the job, naming it",
	      failed_node == 1 && strstr(failed_what, "after its node left"), "failed %d: %s",
	      failed_node, failed_what);

	job_begin(13, 0);
	dead_node = 1;
	post(0, 0, SNOP_AMO, SNAMO_SET, world(1, 0), 0, uaddr(DATA), 0, 1, 0, 24);
	for (int i = 0; i < 1000; i++)
		step();
	eng_node_gone(E[0], 1);
	CHECK("an operation of our own in flight to a node that leaves ends the job",
	      failed_node == 1, "failed %d", failed_node);
}

/* A node whose job ended answers requests for it with ESRCH, so their
 * issuers need not wait for the dead time. */
/* A posted add from rank 0 of node 0 to rank 0 of node 1 at addr, run
 * until a node fails the job (or for 20000 steps). */
static void posted_add_fails(uint64_t addr, uint64_t id)
{
	post_flags = SNET_CMD_POSTED;
	post(0, 0, SNOP_AMO, SNAMO_ADD, world(1, 0), 0, addr, 0, 1, 0, id);
	post_flags = 0;
	for (int i = 0; i < 20000 && failed_node < 0; i++)
		step();
}

static void test_ended(void)
{
	size_t len = 3u << 19;
	struct snet_ev *ev;
	int ok = 1;

	job_begin(14, 0);
	eng_job_end(E[1]);
	post(0, 0, SNOP_AMO, SNAMO_ADD, world(1, 0), 0, uaddr(DATA), 0, 1, 0, 31);
	post(0, 0, SNOP_GETREQ, 0, world(1, 1), uaddr(DATA), uaddr(DATA2), 4096, 0, 0, 32);
	post(0, 1, SNOP_PUT, 0, world(1, 0), uaddr(DATA), uaddr(DATA2), len, 0, 0, 33);
	for (unsigned k = 0; k < 2; k++) {
		ev = event(0, 0, 400000);
		ok &= ev && ev->status == -ESRCH && ev->id == 31 + k;
	}
	CHECK("an atomic and a get for an ended job fail with ESRCH", ok, "no ESRCH");
	ev = event(0, 1, 400000);
	CHECK("a 1.5 MiB put for an ended job fails with ESRCH once its frames are acknowledged",
	      ev && ev->status == -ESRCH && ev->id == 33 && failed_node < 0,
	      "status %d, failed %d", ev ? ev->status : 999, failed_node);
	for (int i = 0; i < 2000; i++)
		step();
	CHECK("and the nodes are idle after it", eng_idle(E[0]) && eng_idle(E[1]), "busy");

	/* A posted atomic is done for its issuer once acknowledged: one the
	 * target cannot apply must still end the job, never vanish. */
	job_begin(15, 0);
	eng_job_end(E[1]);
	posted_add_fails(uaddr(DATA), 34);
	CHECK("a posted atomic for an ended job ends the issuer's job, naming it",
	      failed_node == 1 && failed_by == 0 && strstr(failed_what, "after its job ended"),
	      "failed %d by %d: %s", failed_node, failed_by, failed_what);
	job_begin(16, 0);
	posted_add_fails(uaddr(DATA) + 4, 35);
	CHECK("a misaligned posted atomic ends the issuer's job, naming it",
	      failed_node == 1 && failed_by == 0 && strstr(failed_what, "could not apply"),
	      "failed %d by %d: %s", failed_node, failed_by, failed_what);
}

static void test_idle_alive(void)
{
	job_begin(10, 50000);
	for (long i = 0; i < 100000; i++)
		step();
	CHECK("idle nodes are not declared dead", failed_node < 0, "failed %d", failed_node);
	fill(at(0, 1, DATA), 100, 1);
	post(0, 1, SNOP_RTS, 0, world(1, 0), uaddr(DATA), 0, 100, 0, 0, 1);
	for (long i = 0; i < 100000; i++)
		step();
	CHECK("a rendezvous nobody fetches yet keeps the peer alive by pings", failed_node < 0,
	      "failed %d", failed_node);
}

/* A node in a hardware barrier waits for every other node: the engine
 * must tell one that computes long from one that died. */
static void test_watch(void)
{
	uint64_t t0;

	job_begin(15, 50000);
	eng_watch(E[0], 1);
	for (long i = 0; i < 100000; i++)
		step();
	CHECK("a watching node keeps quiet nodes alive by pings", failed_node < 0, "failed %d",
	      failed_node);
	dead_node = 2;
	t0 = now_us;
	for (long i = 0; i < 100000 && failed_node < 0; i++)
		step();
	CHECK("and declares one dead that stops answering, within the dead time",
	      failed_node == 2 && failed_by == 0 && now_us - t0 <= 50000 + RTO_SLACK,
	      "failed %d by %d after %lu us", failed_node, failed_by, (unsigned long)(now_us - t0));
	CHECK("naming the hardware barrier", strstr(failed_what, "hardware barrier") != NULL,
	      "what: %s", failed_what);

	job_begin(16, 50000);
	eng_watch(E[0], 1);
	eng_watch(E[0], 0);
	dead_node = 2;
	for (long i = 0; i < 100000; i++)
		step();
	CHECK("a node no longer watching does not", failed_node < 0, "failed %d", failed_node);

	job_begin(17, 50000);
	eng_watch(E[0], 1);
	eng_job_end(E[1]);
	eng_job_leave(E[1]);
	for (int i = 0; i < 100; i++)
		step();
	CHECK("a node that leaves its job is gone to the others at once, and no failure",
	      eng_gone(E[0]) == 1u << 1 && eng_gone(E[2]) == 1u << 1 && failed_node < 0 &&
	      (area(0, 0)->gone >> 1 & 1), "gone %#lx %#lx, failed %d",
	      (unsigned long)eng_gone(E[0]), (unsigned long)eng_gone(E[2]), failed_node);
	for (long i = 0; i < 100000; i++)
		step();
	CHECK("nor after the dead time, though it no longer answers pings", failed_node < 0,
	      "failed %d", failed_node);
}

/* The kernel's engine has a CPU of its own: a node that falls silent is
 * gone whatever this node's ranks do (a rank may wait in a receive from
 * it), and the pings that prove quiet nodes alive are few. */
static void test_watch_all(void)
{
	unsigned long acks;
	uint64_t t0;

	watch_all = true;
	job_begin(19, 400000);
	acks = bare_acks;
	for (long i = 0; i < 100000; i++)
		step();
	CHECK("watched all the job long, quiet nodes stay alive",
	      failed_node < 0, "failed %d", failed_node);
	CHECK("by pings an eighth of the dead time apart (300 ms: at most 8 a pair, answered)",
	      bare_acks - acks <= 6 * 2 * 8, "%lu bare acknowledgements",
	      (unsigned long)(bare_acks - acks));
	dead_node = 2;
	t0 = now_us;
	for (long i = 0; i < 400000 && failed_node < 0; i++)
		step();
	CHECK("a node that stops answering, nothing owed to or by it, is dead within the dead time",
	      failed_node == 2 && now_us - t0 <= 400000 + 400000 / 8 + RTO_SLACK,
	      "failed %d after %lu us", failed_node, (unsigned long)(now_us - t0));
	CHECK("naming the job", strstr(failed_what, "the job") != NULL, "what: %s", failed_what);
	watch_all = false;
}

/* A wire that carries small frames but loses every large one (a switch
 * without jumbo frames under nodes that send them) leaves the node
 * answering pings while none of our data gets through: the job ends
 * within the dead time, saying so, instead of retransmitting for ever.
 * A receiver that refuses our frames (its inbox full) proves they reach
 * it, however long it takes to read them. */
static void test_lost_frames(void)
{
	struct snet_ev *ev;
	unsigned got = 0;
	uint64_t t0;
	int ok = 1;

	watch_all = true;
	job_begin(23, 200000);
	post(0, 0, SNOP_AMO, SNAMO_SET, world(1, 0), 0, uaddr(DATA), 0, 1, 0, 1);
	ev = event(0, 0, 100000);
	CHECK("small frames cross a wire that loses large ones", ev && ev->status == 0,
	      "no answer");
	lose_above = 2000;
	fill(at(0, 0, DATA), 4096, 5);
	post(0, 0, SNOP_PUT, 0, world(1, 0), uaddr(DATA), uaddr(DATA2), 4096, 0, 0, 2);
	t0 = now_us;
	for (long i = 0; i < 400000 && failed_node < 0; i++)
		step();
	CHECK("a node that answers but takes none of our frames ends the job",
	      failed_node == 1 && failed_by == 0 && failed_why == ENG_FAIL_LOST,
	      "failed %d by %d (why %d)", failed_node, failed_by, (int)failed_why);
	CHECK("within the dead time and a retransmission of it",
	      failed_node == 1 && now_us - t0 <= 200000 + RTO_SLACK, "after %lu us",
	      (unsigned long)(now_us - t0));
	CHECK("naming the operation and the frames' size",
	      strstr(failed_what, "put from rank 0 to rank 2, in frames of up to 4192 bytes"),
	      "what: %s", failed_what);
	lose_above = 0;

	job_begin(24, 200000);
	for (unsigned i = 0; i < 40; i++) {
		fill(at(1, 0, DATA + 4096 * i), 4000, i);
		post(1, 0, SNOP_MSG, 0, world(0, 0), uaddr(DATA + 4096 * i), 0, 4000, i, 0, i);
	}
	for (long i = 0; i < 300000 && failed_node < 0; i++)	/* 900 ms, the inbox full */
		step();
	CHECK("a receiver that reads nothing for 4 dead times is not dead", failed_node < 0,
	      "failed %d by %d (why %d)", failed_node, failed_by, (int)failed_why);
	for (long i = 0; i < 2000000 && got < 40; i++) {
		read_next(&got, &ok);
		step();
	}
	CHECK("and then gets every message, in order", ok && got == 40 && failed_node < 0,
	      "got %u, failed %d", got, failed_node);
	watch_all = false;
}

/* The last acknowledgement a node sends before it leaves can be lost: its
 * BYE carries it again, or the peer would find the node gone with its own
 * operation outstanding and end a job that succeeded. */
static void test_leave_acks(void)
{
	struct snet_ev *ev;
	int64_t word;

	job_begin(18, 0);
	deaf_node = 1;
	post_flags = SNET_CMD_POSTED;
	post(0, 0, SNOP_AMO, SNAMO_ADD, world(1, 0), 0, uaddr(DATA), 0, 5, 0, 41);
	post_flags = 0;
	for (int i = 0; i < 2000; i++)
		step();
	memcpy(&word, at(1, 0, DATA), sizeof(word));
	CHECK("a posted atomic whose acknowledgements are all lost is applied once",
	      word == 5 && area(0, 0)->ev[ev_n[0][0] % SNET_NEV].ticket != ev_n[0][0] + 1,
	      "word %ld", (long)word);
	eng_job_end(E[1]);
	eng_job_leave(E[1]);
	ev = event(0, 0, 2000);
	CHECK("its node's BYE completes it, and no failure",
	      failed_node < 0 && eng_gone(E[0]) == 1u << 1 && ev && ev->id == 41 && ev->status == 0,
	      "failed %d, gone %#lx, status %d", failed_node, (unsigned long)eng_gone(E[0]),
	      ev ? ev->status : 999);

	/* A node that leaves owing an answer acknowledges nothing: here the
	 * refusal of a posted atomic, which must still end the job, whether
	 * it is still unsent or was dropped as the job ended. */
	for (int end = 0; end < 2; end++) {
		job_begin(19 + (uint32_t)end, 0);
		mute_node = 1;
		posted_add_fails(uaddr(DATA) + 4, 42 + (uint64_t)end);
		if (end)
			eng_job_end(E[1]);
		mute_node = -1;
		eng_job_leave(E[1]);
		dead_node = 1;
		for (int i = 0; i < 2000 && failed_node < 0; i++)
			step();
		CHECK(end ? "nor one whose answer the job's end dropped"
			  : "a BYE that still owes an answer completes nothing: the job ends",
		      failed_node == 1 && failed_by == 0 &&
		      strstr(failed_what, "an atomic from rank 0"),
		      "failed %d by %d: %s", failed_node, failed_by, failed_what);
	}
}

static void test_foreign(void)
{
	uint8_t frame[256];
	struct snet_hdr *h = (void *)frame;
	struct snet_op *w = (void *)(h + 1);
	struct snet_area *a = area(1, 0);
	uint64_t head = a->inbox_head;

	memset(frame, 0, sizeof(frame));
	h->version = SNET_VERSION;
	h->kind = SNET_DATA;
	h->src = 0;
	h->dst = 1;
	h->job = 10;
	h->seq = 1;
	h->len = sizeof(*w);
	w->op = SNOP_MSG;
	w->src = world(0, 0);
	w->dst = world(1, 0);
	h->crc = 0;
	h->crc = eng_plat_crc32c(eng_plat_crc32c(0, w, sizeof(*w)), h, sizeof(*h));
	h->job = 11;	/* crc now wrong, and another job's */
	eng_input(E[1], frame, sizeof(*h) + sizeof(*w));
	h->job = 10;
	w->arg[0] = 1;	/* crc wrong */
	eng_input(E[1], frame, sizeof(*h) + sizeof(*w));
	CHECK("frames with a bad CRC or another job's id are dropped", a->inbox_head == head,
	      "delivered");
	w->arg[0] = 0;
	w->src = world(2, 0);	/* node 0 speaking for a rank of node 2 */
	h->crc = 0;
	h->crc = eng_plat_crc32c(eng_plat_crc32c(0, w, sizeof(*w)), h, sizeof(*h));
	eng_input(E[1], frame, sizeof(*h) + sizeof(*w));
	CHECK("a node cannot speak for another node's ranks", a->inbox_head == head, "spoofed");
}

static void test_abort(void)
{
	eng_job_abort(E[2], world(2, 1), 7);
	for (int i = 0; i < 100; i++)
		step();
	CHECK("a failed rank's status reaches the other nodes", aborted_rank == (int)world(2, 1) &&
	      aborted_status == 7, "rank %d status %d", aborted_rank, aborted_status);
}

/* The kernel's and libsmap's CRC-32C against the bit-by-bit definition,
 * across the three-stream path's block boundaries and odd alignments. */
static void test_crc(void)
{
	static uint8_t buf[3 * 4096 * 3 + 64];
	static const size_t lens[] = { 0, 1, 7, 8, 9, 4095, 12287, 12288, 12289, 24576 + 13,
				       sizeof(buf) - 64 };
	int ok_sw = 1, ok_hw = 1;

	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)random();
	CHECK("crc32c of \"123456789\" is the standard's check value",
	      crc32c_sw(0, "123456789", 9) == 0xe3069283u, "got %08x", crc32c_sw(0, "123456789", 9));
	for (size_t k = 0; k < sizeof(lens) / sizeof(lens[0]); k++)
		for (size_t off = 0; off < 4; off++) {
			uint32_t want = eng_plat_crc32c(0, buf + off, lens[k]);

			ok_sw &= crc32c_sw(0, buf + off, lens[k]) == want;
			ok_hw &= crc32c_hw(0, buf + off, lens[k]) == want;
		}
	CHECK("table crc32c agrees with the definition", ok_sw, "mismatch");
	CHECK("three-stream crc32c agrees with the definition, across blocks", ok_hw, "mismatch");
	CHECK("crc32c continues across calls",
	      crc32c_hw(crc32c_hw(0, buf, 5000), buf + 5000, 20000) == crc32c_sw(0, buf, 25000),
	      "mismatch");
}

int main(void)
{
	srandom(1);
	test_crc();
	for (unsigned n = 0; n < NODES; n++) {
		E[n] = calloc(1, eng_size(MTU));
		eng_init(E[n], MTU, 0);
		for (unsigned r = 0; r < RANKS; r++)
			mem[n][r] = malloc(RMEM);
	}

	job_begin(1, 0);
	test_eager("clean wire");
	test_rendezvous("clean wire", 3u << 20);
	test_rendezvous("zero bytes", 0);
	test_put_get();
	test_errors();
	test_amo("clean wire");
	test_acc("clean wire");
	test_facc("clean wire");
	test_rows("clean wire");
	test_order();
	test_ack_rides();
	test_flow();

	job_begin(2, 0);
	drop_pm = 50;
	jitter_us = 40;
	dup_pm = 20;
	corrupt_pm = 20;
	test_eager("5% loss, dups, reordering, corruption");
	test_rendezvous("5% loss, dups, reordering, corruption", 3u << 20);
	unsigned long lost = frames_lost;
	drop_pm = 20;
	test_amo("2% loss, dups, reordering, corruption");
	test_acc("2% loss, dups, reordering, corruption");
	test_facc("2% loss, dups, reordering, corruption");
	test_rows("2% loss, dups, reordering, corruption");
	CHECK("the faulty wire really lost frames", lost > 50, "lost %lu", lost);
	drop_pm = dup_pm = corrupt_pm = jitter_us = 0;
	CHECK("a wire that corrupts gets every payload checked", frames_headcrc == 0,
	      "%lu frames left payloads out", frames_headcrc);

	/* Host mode's links: payloads outside the CRC; loss, duplicates and
	 * reordering recovered all the same. */
	for (unsigned n = 0; n < NODES; n++)
		eng_init(E[n], MTU, ENG_LINK_INTACT);
	job_begin(3, 0);
	drop_pm = 50;
	jitter_us = 40;
	dup_pm = 20;
	test_eager("intact link, 5% loss, dups, reordering");
	test_rendezvous("intact link, 5% loss, dups, reordering", 3u << 20);
	drop_pm = dup_pm = jitter_us = 0;
	CHECK("an intact link's payloads are left out of the CRC", frames_headcrc > 50,
	      "%lu frames", frames_headcrc);
	/* A frame that says so is refused by an engine whose link is not
	 * intact: nothing crosses from node 0 to node 1. */
	eng_init(E[1], MTU, 0);
	job_begin(4, 0);
	CHECK("a payload left out of the CRC is refused where links may corrupt",
	      !eager_arrives(0, 1), "it arrived");
	for (unsigned n = 0; n < NODES; n++)
		eng_init(E[n], MTU, 0);

	test_dead();
	test_gone();
	drop_pm = 20;
	test_ended();
	drop_pm = 0;
	test_idle_alive();
	test_watch();
	test_watch_all();
	test_lost_frames();
	test_heavy_loss();
	test_leave_acks();
	test_foreign();
	test_abort();
	CHECK("payloads were received in place too", placed > 100, "placed %lu", placed);
	printf("# %lu frames sent, %lu lost, %lu received in place\n", frames_sent, frames_lost,
	       placed);
	return unit_failed;
}
