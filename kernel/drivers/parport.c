/*
 * parport.c - the hardware barrier on a PC parallel port (Hoefler et al.,
 * "Adding Low-Cost Hardware Barrier Support to Small Commodity Clusters").
 *
 * Each node drives one output line and reads one input line from a central
 * box, a two-state AND/OR machine: in state 0 it raises every input once
 * all outputs are 1, in state 1 it drops them once all outputs are 0.
 *   OUT = data bit 0 (D0, pin 2)      IN = status bit 6 (nAck, pin 10)
 * A node enters a barrier by toggling its state, writing it to OUT and
 * spinning until IN shows the same state.  See docs/barrier.md for the
 * wiring and for the emulated box (tools/barrier-hub).
 *
 * Invariant: outside a barrier, OUT equals `state`, which equals the IN
 * line the box drives.  Nothing here ever changes D0 except to enter a
 * barrier or to back out of one that failed, so a node that boots or
 * probes while the others already wait cannot complete their barrier.
 */
#include <arch/cpu.h>
#include <arch/io.h>
#include <string.h>
#include "smapos_abi.h"
#include "errno.h"
#include "format.h"
#include "hwbarrier.h"
#include "job.h"
#include "param.h"
#include "printk.h"
#include "proc.h"
#include "spinlock.h"
#include "time.h"

static uint64_t barrier_port = 0x378;
KPARAM(barrier_port, PARAM_UINT, &barrier_port,
       "I/O base of the parallel port wired to the barrier box (0 disables); default 0x378");
/* Only for a job the network engine does not serve (no NIC or no CPU to
 * spare): then nothing else can tell a node that died from one computing,
 * so the wait ends after long enough for the latter. */
static uint64_t barrier_timeout_ms = 30000;
KPARAM(barrier_timeout, PARAM_UINT, &barrier_timeout_ms,
       "milliseconds a node waits in a hardware barrier before failing it when no network "
       "engine watches the nodes (no NIC, or no CPU to spare; 0: no limit); default 30000");

#define OUT_BIT		0x01
#define IN_SHIFT	6

static int present;
static unsigned state;
static struct spinlock lock = SPINLOCK_INIT;
static unsigned nodev_job = ~0u;	/* the job last told it has no port */

static struct {
	uint64_t barriers, spins, ticks, write_ticks, read_ticks, timeouts;
	uint8_t last_status;
} stats;

/* The counters as the last job report left them. */
static uint64_t reported_barriers, reported_spins, reported_ticks, reported_timeouts;

static uint16_t data_reg(void)
{
	return (uint16_t)barrier_port;
}

static uint16_t status_reg(void)
{
	return (uint16_t)(barrier_port + 1);
}

/* An SPP data register reads back what was written; an absent port floats
 * to 0xFF.  Bits 1..7 are tried both ways, D0 is left where it is. */
static int probe(uint8_t d0)
{
	static const uint8_t pattern[] = { 0x54, 0xAA };

	for (unsigned i = 0; i < sizeof(pattern); i++) {
		outb(data_reg(), pattern[i] | d0);
		if (inb(data_reg()) != (pattern[i] | d0))
			return 0;
	}
	outb(data_reg(), d0);
	return 1;
}

void hwbarrier_init(void)
{
	char who[24] = "auto";	/* node=auto: the network numbers the node later */

	if (!barrier_port)
		return;
	if (barrier_port > 0xFFFD) {
		pr_warn("barrier: barrier_port=%#lx is not an I/O port base\n", barrier_port);
		return;
	}
	state = (inb(status_reg()) >> IN_SHIFT) & 1;
	present = probe((uint8_t)state);
	if (!job_node_auto)
		snprintf(who, sizeof(who), "%lu", job_node);
	if (present)
		pr_info("barrier: parallel port at %#lx, IN line %u, node %s of %lu, timeout %lu ms\n",
			barrier_port, state, who, job_nnodes, barrier_timeout_ms);
	else if (job_nnodes > 1)
		pr_warn("barrier: no parallel port at %#lx: hardware barrier unavailable on node %s\n",
			barrier_port, who);
}

int hwbarrier_present(void)
{
	return present;
}

unsigned hwbarrier_port(void)
{
	return present ? (unsigned)barrier_port : 0;
}

/* The barrier this node has entered and not finished: a wait may return
 * before it completes (a slice) and the next call resumes it. */
static struct {
	int open;
	uint64_t t0;		/* TSC at entry */
	uint64_t write_ticks, read_ticks, spins;
} pend;

/* Back out of a barrier that will not complete: OUT returns to the level
 * the box still shows, so the box stays coherent for whoever retries. */
static void back_out(void)
{
	state ^= 1;
	outb(data_reg(), (uint8_t)(state & OUT_BIT));
	pend.open = 0;
}

long hwbarrier_wait(struct proc *p, uint64_t slice_ms, int watched)
{
	uint64_t f, t1, t2, deadline, until;
	uint8_t st;
	long ret = -EAGAIN;

	if (!present) {
		if (__atomic_exchange_n(&nodev_job, p->job->id, __ATOMIC_RELAXED) != p->job->id)
			pr_err("barrier: rank %u asked for the hardware barrier, but node %lu has no "
			       "parallel port (barrier_port=%#lx)\n", p->rank, job_node, barrier_port);
		return -ENODEV;
	}
	/* Interrupts stay off so nothing stretches the barrier; a job being
	 * stopped is seen through p->killed instead of its kill IPI. */
	f = spin_lock_irqsave(&lock);
	if (!pend.open) {
		state ^= 1;
		pend = (typeof(pend)){ .open = 1, .t0 = rdtsc() };
		outb(data_reg(), (uint8_t)(state & OUT_BIT));
		pend.write_ticks = rdtsc() - pend.t0;
	}
	/* Watched, a slow node is no failure: the network engine ends the
	 * job when one stops answering, and libsmap when a node left. */
	deadline = watched || !barrier_timeout_ms ? UINT64_MAX
						  : pend.t0 + barrier_timeout_ms * (tsc_hz / 1000);
	until = slice_ms ? rdtsc() + slice_ms * (tsc_hz / 1000) : UINT64_MAX;
	t1 = rdtsc();
	for (;;) {
		st = inb(status_reg());
		t2 = rdtsc();
		pend.read_ticks += t2 - t1;
		t1 = t2;
		if ((st >> IN_SHIFT & 1) == state) {
			ret = 0;
			break;
		}
		pend.spins++;
		if (p->killed) {
			back_out();
			ret = -EINTR;
			break;
		}
		if (t2 > deadline) {
			back_out();
			stats.timeouts++;
			pr_err("barrier: node %lu: hardware barrier %lu timed out after %lu ms: "
			       "another node never entered it\n", job_node, stats.barriers + 1,
			       barrier_timeout_ms);
			ret = -ETIMEDOUT;
			break;
		}
		if (t2 > until)
			break;
	}
	if (!ret) {
		pend.open = 0;
		stats.barriers++;
		stats.spins += pend.spins;
		stats.ticks += t1 - pend.t0;
		stats.read_ticks += pend.read_ticks;
		stats.write_ticks += pend.write_ticks;
		stats.last_status = st;
	}
	spin_unlock_irqrestore(&lock, f);
	return ret;
}

long hwbarrier_abandon(const char *why)
{
	uint64_t f = spin_lock_irqsave(&lock);
	int open = pend.open;

	if (open) {
		back_out();
		pr_err("barrier: node %lu: hardware barrier %lu abandoned: %s\n", job_node,
		       stats.barriers + 1, why);
	}
	spin_unlock_irqrestore(&lock, f);
	return open ? -ESRCH : 0;
}

long hwbarrier_info(struct proc *p, uint64_t buf, uint64_t size)
{
	struct smapos_hwbarrier hb;
	uint64_t f;

	memset(&hb, 0, sizeof(hb));
	hb.version = SMAPOS_JOBINFO_VERSION;
	hb.size = sizeof(hb);
	hb.port = hwbarrier_port();
	hb.timeout_ms = barrier_timeout_ms;
	f = spin_lock_irqsave(&lock);
	hb.state = state;
	hb.barriers = stats.barriers;
	hb.spins = stats.spins;
	hb.ticks = stats.ticks;
	hb.write_ticks = stats.write_ticks;
	hb.read_ticks = stats.read_ticks;
	hb.timeouts = stats.timeouts;
	hb.last_status = stats.last_status;
	spin_unlock_irqrestore(&lock, f);
	return copy_record(p, buf, size, &hb, sizeof(hb));
}

void hwbarrier_job_end(unsigned job)
{
	uint64_t f;

	hwbarrier_abandon("its job ended while a rank waited in it");
	f = spin_lock_irqsave(&lock);
	uint64_t n = stats.barriers - reported_barriers, spins = stats.spins - reported_spins;
	uint64_t ticks = stats.ticks - reported_ticks, timeouts = stats.timeouts - reported_timeouts;

	reported_barriers = stats.barriers;
	reported_spins = stats.spins;
	reported_ticks = stats.ticks;
	reported_timeouts = stats.timeouts;
	spin_unlock_irqrestore(&lock, f);
	if (!n && !timeouts)
		return;
	uint64_t ns = n ? tsc_to_ns(ticks) / n : 0;

	pr_info("barrier: job %u: %lu hardware barrier%s on node %lu, %lu.%03lu us and %lu port "
		"reads each, %lu timed out\n", job, n, n == 1 ? "" : "s", job_node, ns / 1000,
		ns % 1000, n ? spins / n : 0, timeouts);
}
