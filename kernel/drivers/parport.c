/*
 * parport.c - the hardware barrier on a PC parallel port (Hoefler et al.,
 * "Adding Low-Cost Hardware Barrier Support to Small Commodity Clusters").
 *
 * Each node drives one output line and reads one input line from a central
 * box, a two-state AND/OR machine: in state 0 it raises every input once
 * all outputs are 1, in state 1 it drops them once all outputs are 0.
 *   OUT = data bit 0 (D0, pin 2)      IN = status bit 6 (nACK, pin 10)
 * A node enters a barrier by toggling its state, writing it to OUT and
 * spinning until IN shows the same state.  See docs/barrier.md for wiring.
 */
#include <arch/cpu.h>
#include <arch/io.h>
#include "errno.h"
#include "hwbarrier.h"
#include "job.h"
#include "param.h"
#include "printk.h"
#include "spinlock.h"
#include "time.h"

static uint64_t barrier_port = 0x378;
KPARAM(barrier_port, PARAM_UINT, &barrier_port,
       "I/O base of the parallel port wired to the barrier box (0 disables); default 0x378");
static uint64_t barrier_timeout_ms = 5000;
KPARAM(barrier_timeout, PARAM_UINT, &barrier_timeout_ms,
       "milliseconds a node waits in a hardware barrier before failing it; default 5000");

#define OUT_BIT		0x01
#define IN_SHIFT	6

static int present;
static unsigned state;
static struct spinlock lock = SPINLOCK_INIT;

struct hwbarrier_stats {
	uint64_t barriers, spins, ticks;
} hwbarrier_stats;

static unsigned read_in(void)
{
	return (inb((uint16_t)(barrier_port + 1)) >> IN_SHIFT) & 1;
}

void hwbarrier_init(void)
{
	uint16_t data = (uint16_t)barrier_port;

	if (!data)
		return;
	/* An SPP data register reads back what was written; an absent port
	 * floats to 0xFF. */
	outb(data, 0x55);
	if (inb(data) != 0x55)
		goto absent;
	outb(data, 0xAA);
	if (inb(data) != 0xAA)
		goto absent;
	state = read_in();
	outb(data, (uint8_t)state);
	present = 1;
	pr_info("barrier: parallel port at %#lx, IN line %u, node %lu of %lu\n", barrier_port,
		state, job_node, job_nnodes);
	return;
absent:
	if (job_nnodes > 1)
		pr_warn("barrier: no parallel port at %#lx: hardware barrier unavailable\n",
			barrier_port);
}

int hwbarrier_present(void)
{
	return present;
}

unsigned hwbarrier_port(void)
{
	return present ? (unsigned)barrier_port : 0;
}

long hwbarrier_wait(void)
{
	uint64_t f, t0, deadline, spins = 0;
	long ret = 0;

	if (!present)
		return -ENODEV;
	f = spin_lock_irqsave(&lock);
	state ^= 1;
	t0 = rdtsc();
	deadline = t0 + barrier_timeout_ms * (tsc_hz / 1000);
	outb((uint16_t)barrier_port, (uint8_t)(state & OUT_BIT));
	while (read_in() != state) {
		spins++;
		if (rdtsc() > deadline) {
			pr_err("barrier: node %lu: timed out after %lu ms in hardware barrier %lu "
			       "(another node never arrived)\n", job_node, barrier_timeout_ms,
			       hwbarrier_stats.barriers + 1);
			/* back to the state the box still has, so a retry is coherent */
			state ^= 1;
			outb((uint16_t)barrier_port, (uint8_t)(state & OUT_BIT));
			ret = -ETIMEDOUT;
			break;
		}
	}
	if (!ret) {
		hwbarrier_stats.barriers++;
		hwbarrier_stats.spins += spins;
		hwbarrier_stats.ticks += rdtsc() - t0;
	}
	spin_unlock_irqrestore(&lock, f);
	return ret;
}
