/* test_waits.c - the rule by which a rank judges a peer's wait when it
 * looks for a deadlock (libsmap/core/waitrule.h), on the states the races
 * of a real job leave behind. */
#include <stdint.h>
#include "unit.h"
#include "../../libsmap/core/waitrule.h"

#define HZ	1000000000ull		/* ticks are nanoseconds here */
#define S(x)	((uint64_t)((x) * HZ))

int main(void)
{
	uint64_t now = S(100), since = S(99.9);

	/* A first scan (since 0): a wait of 3 s, looked at a moment ago. */
	CHECK("first scan: 3 s in one wait, seen 10 ms ago, is stuck",
	      wait_judge(S(97), S(99.98), S(99.99), 0, now, HZ, 0) == WAIT_STUCK, "not stuck");
	CHECK("first scan: 1.5 s in one wait is busy",
	      wait_judge(S(98.5), S(99.98), S(99.99), 0, now, HZ, 0) == WAIT_BUSY, "not busy");
	CHECK("a look older than 1/4 s is busy: the rank computes or is descheduled",
	      wait_judge(S(90), S(99.6), S(99.7), 0, now, HZ, 0) == WAIT_BUSY, "not busy");
	CHECK("blocked in a system call, a look older than 1/4 s is still stuck",
	      wait_judge(S(90), S(99.6), S(99.7), 1, now, HZ, 0) == WAIT_STUCK, "not stuck");
	CHECK("a look after the judge's clock reading is fresh, not stale",
	      wait_judge(S(90), S(99.99), now + 5, 0, now, HZ, 0) == WAIT_STUCK, "not stuck");
	CHECK("a wait begun after the judge's clock reading is busy",
	      wait_judge(now + 5, S(99.99), now + 5, 0, now, HZ, 0) == WAIT_BUSY, "not busy");

	/* The second scan.  The race that ended a 64-rank job with 123: the
	 * last rank flips the barrier and exits; its peers' states still read
	 * as before the flip until each looks again. */
	CHECK("second scan: no look since the first scan is unsure",
	      wait_judge(S(97), S(99.8), S(99.85), 0, now, HZ, since) == WAIT_UNSURE, "not unsure");
	CHECK("second scan: one look since the first scan is still unsure "
	      "(its condition may have been read before)",
	      wait_judge(S(97), S(99.85), S(99.95), 0, now, HZ, since) == WAIT_UNSURE, "not unsure");
	CHECK("second scan: two looks since the first scan, same wait, is stuck",
	      wait_judge(S(97), S(99.92), S(99.97), 0, now, HZ, since) == WAIT_STUCK, "not stuck");
	CHECK("second scan: a wait begun since the first scan is busy",
	      wait_judge(S(99.95), S(99.92), S(99.97), 0, now, HZ, since) == WAIT_BUSY, "not busy");
	CHECK("second scan: a rank gone stale since is busy",
	      wait_judge(S(97), S(99.5), S(99.6), 0, now, HZ, since) == WAIT_BUSY, "not busy");
	return unit_failed;
}
