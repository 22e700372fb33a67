/*
 * waits.c - no waiting for the impossible: a job of one node in which every
 * rank has been spinning in a libsmap wait for WAIT_STUCK_S, or has
 * exited, can never move again (nothing outside the ranks can satisfy a
 * wait on one node), so it ends with SMAPOS_EXIT_DEADLOCK and one line
 * naming who waits, in which call (core_call), and who is gone.
 *
 * Each rank keeps its wait state in its own memory, at the same address in
 * every rank: peers read it through SMARTMAP, so the check costs nothing
 * until a wait has lasted long.  A rank that computes, sleeps or sits in a
 * system call is not spinning, so a job waiting on it is never judged.
 * The verdict takes two scans (waitrule.h): the second needs every rank
 * to have read its condition again after the first ended.
 *
 * Several nodes: a node whose live ranks are all stuck is quiet, and says
 * so to the judge every 1/WAIT_REPORT_DIV s (a network atomic into
 * wait_nodes.report[node] of the judge's first rank: a stamp of its ranks'
 * waits and a tick).  The judge is the lowest node whose job has not
 * left: node 0 until its ranks have all exited.  Its stuck ranks read the
 * reports; when every other node's report has ticked within the last
 * second with one stamp for a second or more, and the judge's node is
 * quiet too, no rank anywhere can move: a message still in flight would
 * have landed in the seconds each node waited, and one that wakes a rank
 * changes its node's stamp.  A node whose ranks have all exited cannot
 * report; its network engine says goodbye as its job ends, and the judge
 * counts a node gone that way as stuck for good (the engine marks it in
 * every rank's area).
 */
#include <stdio.h>
#include <stdlib.h>
#include "core.h"
#include "smap.h"
#include "../net/net.h"
#include "../../kernel/net/engine.h"
#include "waitrule.h"

#define WAIT_CHECK_MASK	(CORE_WAIT_LOOK - 1)
#define WAIT_GAP_DIV	2		/* no look for 1/2 s: a new wait */

static struct wait_state wait_state;
const char *core_call;
/* This rank's first scan that found its node quiet (wait_node_quiet). */
static struct {
	uint64_t start;		/* the wait of this rank it belongs to */
	uint64_t since;		/* TSC at its end; 0: none */
	unsigned gone;		/* ranks that had exited by then */
} wait_first;

#define WAIT_REPORT_DIV	4		/* a quiet node reports 4 times a second */
#define WAIT_REPORT_QUIET (1ull << 62)	/* a report: quiet bit, stamp << 24, tick */

static struct {
	_Alignas(64) uint64_t report[ENG_MAX_NODES];	/* the judge's first rank's: each node's */
	uint64_t seen[ENG_MAX_NODES];	/* the judge's first rank: each report as last read */
	uint64_t ticked[ENG_MAX_NODES];	/* when it last changed */
	uint64_t steady[ENG_MAX_NODES];	/* when its stamp last changed */
	_Alignas(64) uint64_t sent;	/* each node's rank 0: TSC of its latest report */
	uint64_t tick;
} wait_nodes;
/* The judge as this rank last saw it, and since when. */
static struct {
	unsigned node;
	uint64_t since;
} wait_judge_seen;
static int wait_reporting;		/* this rank is sending a report (or attaching) */
/* This rank's latest; the judge may finish while a report is on its way. */
static struct net_op wait_report = { .complete = 1, .maylose = 1 };
static unsigned wait_spins;		/* spin count at this rank's latest look */

static void wait_exited(void)
{
	__atomic_store_n(&wait_state.exited, 1, __ATOMIC_RELEASE);
}

/* A look at this rank's own wait; `fresh`: it is a new one. */
static void wait_look(uint64_t now, int fresh)
{
	if (fresh)
		__atomic_store_n(&wait_state.start, now, __ATOMIC_RELAXED);
	__atomic_store_n(&wait_state.before, wait_state.seen, __ATOMIC_RELEASE);
	__atomic_store_n(&wait_state.seen, now, __ATOMIC_RELAXED);
}

void core_wait_blocked(int on)
{
	uint64_t now = smap_rdtsc();

	/* Leaving starts the clock again: a rank just out of its wait must
	 * not look stuck in it. */
	wait_look(now, !on || now - wait_state.seen > smap_tsc_hz() / WAIT_GAP_DIV);
	__atomic_store_n(&wait_state.blocked, on, __ATOMIC_RELEASE);
}

void core_wait_init(void)
{
	atexit(wait_exited);
}

/* Appends " rank(s) R.. in CALL" for the waiting ranks in `call`, once per
 * call, in rank order of the first rank in each (the job's numbering). */
static size_t wait_list(char *buf, size_t len, size_t at, const char *call)
{
	unsigned n = 0, first = 1;

	for (unsigned r = 0; r < core.ji.nranks; r++) {
		const struct wait_state *s = remote_address(r, &wait_state);
		const char *c = *(const char *const *)remote_address(r, &core_call);

		if (!s->exited && c == call)
			n++;
	}
	for (unsigned r = 0; r < core.ji.nranks && at < len - 16; r++) {
		const struct wait_state *s = remote_address(r, &wait_state);
		const char *c = *(const char *const *)remote_address(r, &core_call);

		if (s->exited || c != call)
			continue;
		if (first)
			at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? ", " : "",
					       n > 1 ? "ranks" : "rank");
		first = 0;
		at += (size_t)snprintf(buf + at, len - at, " %u", core.ji.node * core.ji.nranks + r);
	}
	if (at < len - 16)
		at += (size_t)snprintf(buf + at, len - at, " in %s", call ? call : "libsmap");
	return at < len ? at : len - 1;
}

/* nodes: the job's, when every other node reported its ranks stuck too
 * (or left).  Ranks are named in the job's numbering. */
static void wait_deadlock(uint64_t hz, uint64_t now, unsigned nodes)
{
	char waiting[512] = "", gone[256] = "", others[64] = "";
	unsigned base = core.ji.node * core.ji.nranks;
	size_t w = 0, g = 0;
	uint32_t *reported = remote_address(0, &wait_state.reported), no = 0;

	/* Every stuck rank sees the deadlock; the first tells and ends the
	 * job, the others go on waiting for the end. */
	if (!__atomic_compare_exchange_n(reported, &no, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		return;

	for (unsigned r = 0; r < core.ji.nranks; r++) {
		const struct wait_state *s = remote_address(r, &wait_state);
		const char *c = *(const char *const *)remote_address(r, &core_call);
		unsigned q;

		if (s->exited) {
			if (g < sizeof(gone) - 12)
				g += (size_t)snprintf(gone + g, sizeof(gone) - g, " %u", base + r);
			continue;
		}
		/* The first waiting rank in each call lists that call's ranks. */
		for (q = 0; q < r; q++)
			if (!((const struct wait_state *)remote_address(q, &wait_state))->exited &&
			    *(const char *const *)remote_address(q, &core_call) == c)
				break;
		if (q == r)
			w = wait_list(waiting, sizeof(waiting), w, c);
	}
	if (nodes == 2)
		snprintf(others, sizeof(others), "; node %u: every rank waits or has exited",
			 1 - core.ji.node);
	else if (nodes > 2 && !core.ji.node)
		snprintf(others, sizeof(others), "; nodes 1-%u: every rank waits or has exited",
			 nodes - 1);
	else if (nodes > 2)
		snprintf(others, sizeof(others), "; every other node: every rank waits or has exited");
	core_warn("libsmap: rank %u: deadlock: waiting in libsmap for %lu s with nothing left "
		  "to wake them: %s%s%s%s: ending the job", base + core.ji.rank,
		  (unsigned long)((now - wait_state.start) / hz), waiting, g ? "; exited:" : "",
		  gone, others);
	smap_abort(SMAPOS_EXIT_DEADLOCK);
}

/* Whether every live rank of this node has spun in one wait for
 * WAIT_STUCK_S and, since a first scan found so, looked at its condition
 * again with no rank exiting meanwhile (wait_judge: one scan cannot tell
 * a rank just released from a stuck one); *stamp: the latest start of
 * those waits. */
static int wait_node_quiet(uint64_t now, uint64_t hz, uint64_t *stamp)
{
	uint64_t since = wait_first.start == wait_state.start ? wait_first.since : 0;
	unsigned gone = 0, unsure = 0;

	*stamp = 0;
	for (unsigned r = 0; r < core.ji.nranks; r++) {
		const struct wait_state *s = remote_address(r, &wait_state);
		uint64_t before, start;

		if (__atomic_load_n(&s->exited, __ATOMIC_ACQUIRE)) {
			gone++;
			continue;
		}
		before = __atomic_load_n(&s->before, __ATOMIC_ACQUIRE);
		start = __atomic_load_n(&s->start, __ATOMIC_RELAXED);
		switch (wait_judge(start, before, __atomic_load_n(&s->seen, __ATOMIC_RELAXED),
				   __atomic_load_n(&s->blocked, __ATOMIC_ACQUIRE), now, hz, since)) {
		case WAIT_BUSY:
			wait_first.since = 0;
			return 0;
		case WAIT_UNSURE:
			unsure = 1;
			break;
		case WAIT_STUCK:
			break;
		}
		*stamp = start > *stamp ? start : *stamp;
	}
	if (!since || gone != wait_first.gone) {
		wait_first.start = wait_state.start;
		wait_first.since = smap_rdtsc();
		wait_first.gone = gone;
		return 0;
	}
	return !unsure;
}

/* Whether this rank is on the network, attaching it if it never used it
 * (a rank whose barriers take the wire may not have): a quiet node must
 * report, and the judge read the reports. */
static int wait_net(void)
{
	int r;

	if (net_up())
		return 1;
	wait_reporting = 1;	/* the attach's own waits are part of this one */
	r = net_init();
	wait_reporting = 0;
	return !r;
}

/* This node is quiet: report it to the judge (another node), or judge
 * every node's reports. */
static void wait_nodes_check(uint64_t now, uint64_t hz, uint64_t stamp)
{
	typeof(wait_nodes) *n0 = remote_address(0, &wait_nodes);
	unsigned nn = core.ji.nnodes, quiet = 1, judge = 0;
	uint64_t sent, gone = net_gone_nodes();

	if (nn > ENG_MAX_NODES || !wait_net())
		return;
	while (gone >> judge & 1)
		judge++;
	if (judge != wait_judge_seen.node) {
		wait_judge_seen.node = judge;
		wait_judge_seen.since = now;
	}
	if (core.ji.node != judge) {
		sent = __atomic_load_n(&n0->sent, __ATOMIC_RELAXED);
		if (now - sent < hz / WAIT_REPORT_DIV ||
		    !__atomic_compare_exchange_n(&n0->sent, &sent, now, 0, __ATOMIC_ACQ_REL,
						 __ATOMIC_RELAXED))
			return;
		wait_reporting = 1;
		net_cmd(&wait_report, SNOP_AMO, SNAMO_SET, 0, judge * core.ji.nranks, NULL,
			(uintptr_t)&wait_nodes.report[core.ji.node], 0,
			(int64_t)(WAIT_REPORT_QUIET | ((stamp >> 8) & 0xffffffffull) << 24 |
				  (__atomic_add_fetch(&n0->tick, 1, __ATOMIC_RELAXED) & 0xffffff)), 0);
		wait_reporting = 0;
		return;
	}
	/* Taking over from nodes that left: a node leaves by ending the job
	 * too (an abort), which takes this one with it within a second. */
	if (judge && now - wait_judge_seen.since < hz)
		return;
	for (unsigned k = 0; k < nn; k++) {
		uint64_t r = __atomic_load_n(&n0->report[k], __ATOMIC_ACQUIRE);

		/* A node whose job left can never move again. */
		if (k == judge || gone >> k & 1)
			continue;
		if (r != n0->seen[k]) {
			if ((r ^ n0->seen[k]) >> 24)
				n0->steady[k] = now;
			n0->seen[k] = r;
			n0->ticked[k] = now;
		}
		if (!r || now - n0->ticked[k] > hz || now - n0->steady[k] < hz)
			quiet = 0;
	}
	if (quiet)
		wait_deadlock(hz, now, nn);
}

void core_wait_check(unsigned spins)
{
	uint64_t now, hz, stamp;
	int reporting = 0;

	/* The network's own waits for this rank's report come back here:
	 * they are part of the wait that sends it. */
	if ((spins & WAIT_CHECK_MASK) || wait_reporting)
		return;
	now = smap_rdtsc();
	hz = smap_tsc_hz();
	/* Waits do not announce themselves (some spin a while before their
	 * first call here): a look with no more spins than the last one, or
	 * long after it, belongs to a new wait.  A rank whose network
	 * commands are in flight (a rendezvous get streaming in) is not stuck:
	 * its wait starts again. */
	wait_look(now, spins <= wait_spins || now - wait_state.seen > hz / WAIT_GAP_DIV ||
		  (core.ji.nnodes > 1 && net_in_flight(&wait_report, &reporting)));
	wait_spins = spins;
	if (now - wait_state.start < WAIT_STUCK_S * hz || !wait_node_quiet(now, hz, &stamp))
		return;
	if (core.ji.nnodes == 1)
		wait_deadlock(hz, now, 0);
	else if (!reporting)
		wait_nodes_check(now, hz, stamp);
}
