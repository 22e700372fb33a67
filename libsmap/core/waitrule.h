/*
 * waitrule.h - how one rank's wait looks to a peer that judges whether the
 * job can ever move again (waits.c).  Pure, so tests/unit/test_waits.c
 * drives it with the states a race leaves behind.
 */
#ifndef SMAP_WAITRULE_H
#define SMAP_WAITRULE_H

#include <stdint.h>

#define WAIT_STUCK_S	2		/* seconds in one wait */
#define WAIT_FRESH_DIV	4		/* still spinning: seen within 1/4 s */

struct wait_state {
	_Alignas(64) uint64_t start;	/* TSC when this rank's current wait began */
	uint64_t before;		/* TSC of the look before its latest */
	uint64_t seen;			/* TSC of its latest look */
	uint32_t exited;
	uint32_t blocked;		/* in a system call that waits (core_wait_blocked) */
	uint32_t reported;		/* rank 0's: one rank tells */
};

enum wait_look {
	WAIT_BUSY,	/* computing, or in a wait that has not lasted */
	WAIT_UNSURE,	/* stuck, but not seen to look again since the first scan */
	WAIT_STUCK,	/* still in the same wait, its condition false after `since` */
};

/*
 * A rank's wait (start, before, seen, blocked), read as `before` first: a
 * rank writes start, then before, then seen.  `since`: 0 for a first scan,
 * else the TSC at the end of the first scan that found every rank stuck.
 * One scan cannot prove a deadlock: a rank released a moment ago still
 * looks stuck until its next look, up to 1/WAIT_FRESH_DIV s later.  A
 * rank whose look before its latest came after `since` read its condition
 * between the two and found it false - after every store the first scan
 * could have missed.
 */
static inline enum wait_look wait_judge(uint64_t start, uint64_t before, uint64_t seen,
					int blocked, uint64_t now, uint64_t hz, uint64_t since)
{
	if (!blocked && (int64_t)(now - seen) > (int64_t)(hz / WAIT_FRESH_DIV))
		return WAIT_BUSY;
	if ((int64_t)(now - start) < (int64_t)(WAIT_STUCK_S * hz) || (since && start >= since))
		return WAIT_BUSY;
	if (since && (int64_t)(before - since) < 0)
		return WAIT_UNSURE;
	return WAIT_STUCK;
}

#endif
