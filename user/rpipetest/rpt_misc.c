/*
 * rpt_misc.c - the rest of the rpipe interface and its misuse: rinit's
 * numbers, rpoll before and after a write, rmem and rsize from both ends,
 * EPIPE once the peer closed (while what it wrote can still be read), and
 * every error return (each also prints a line naming the call).  Ranks 2k
 * and 2k+1 form the pairs, on one node or (lwkrun --nodes N -n 1) two.
 *
 *   rpt_misc            the checks, one TAP line each
 *   rpt_misc unmatched  rank 0 makes a pipe to rank 1, which never does:
 *                       the job must end as a deadlock naming rpipe
 */
#include <errno.h>
#include "rpt.h"

static void test_interface(void)
{
	int rank = -1, n = -1, v = 42, got = 0;
	raddr_t ra, rb;
	rpipe_t rp;

	rinit(&rank, &n);
	rpt_expect("rinit's rank", smap_world_rank(), rank);
	rpt_expect("rinit's size", smap_world_size(), n);
	if ((me ^ 1) < np) {
		rpipe(&rp, me ^ 1, me % 2 ? RPIPE_READ : RPIPE_WRITE, 8192);
		if (me % 2 == 0) {
			ra = rmalloc(rp, 100);
			rpt_expect("rsize rounds up to a cache line", 128, rsize(rp, ra));
			/* On a node the writer may store straight into the
			 * reader's memory; across nodes only rwrite reaches it. */
			if ((me ^ 1) / smap_size() == smap_node())
				*(int *)rmem(rp, ra) = 7;
			else
				rpt_expect("rmem of the reader's memory on another node is NULL, "
					   "EREMOTE", 1, rmem(rp, ra) == NULL && errno == EREMOTE);
			rwrite(rp, ra, &v, sizeof v);
			rb = rmalloc(rp, 1);
			rwrite(rp, rb, "x", 1);
			rclose(rp);
		} else {
			while (!rpoll(rp))
				;
			rpt_expect("rread's length", sizeof v, rread(rp, &ra, &got, sizeof got));
			rpt_expect("data", 42, got);
			rpt_expect("rmem at the reader is the same memory", 42, *(int *)rmem(rp, ra));
			rpt_expect("rfree by the reader", 0, rfree(rp, ra));
			/* The writer closed after its second write, which is still here. */
			rpt_expect("read after the writer closed", 1, rread(rp, &rb, NULL, 0));
			rpt_expect("data after the writer closed", 'x', *(char *)rmem(rp, rb));
			rpt_expect("nothing more to read", 0, rpoll(rp));
			rfree(rp, rb);
			rclose(rp);
		}
	}
	rpt_report("rpipe_rinit_rpoll_rmem_rsize_and_reading_after_close");
}

static void test_epipe(void)
{
	rpipe_t rp;
	raddr_t ra;

	if ((me ^ 1) < np) {
		rpipe(&rp, me ^ 1, RPIPE_DUPLEX, 4096);
		/* The odd rank closes first; the even one hears of it. */
		if (me % 2) {
			ra = rmalloc(rp, 8);
			rwrite(rp, ra, "bye", 4);
			rclose(rp);
		} else {
			rread(rp, &ra, NULL, 0);
			rfree(rp, ra);
			while ((ra = rmalloc(rp, 8)) != RADDR_NULL)
				rfree(rp, ra);
			rpt_expect("rmalloc's errno once the peer closed", EPIPE, errno);
			rpt_expect("rwrite once the peer closed", -EPIPE, rwrite(rp, 1, "", 0));
			rclose(rp);
		}
	}
	rpt_report("rpipe_writing_to_a_closed_peer_is_epipe");
}

static void test_errors(void)
{
	char buf[256];
	rpipe_t rp;
	raddr_t ra;

	rpt_expect("pipe to itself", -EINVAL, rpipe(&rp, me, RPIPE_DUPLEX, 0));
	rpt_expect("pipe to rank np", -EINVAL, rpipe(&rp, np, RPIPE_DUPLEX, 0));
	rpt_expect("no direction", -EINVAL, rpipe(&rp, me ^ 1, RMALLOC_BEST_FIT, 0));
	rpt_expect("two policies", -EINVAL,
		   rpipe(&rp, me ^ 1, RPIPE_WRITE | RMALLOC_BEST_FIT | RMALLOC_WORST_FIT, 0));
	rpt_expect("heap too small", -EINVAL, rpipe(&rp, me ^ 1, RPIPE_READ, 100));
	if ((me ^ 1) < np) {
		/* Both ends write: both are told. */
		rpt_expect("flags that do not match", -EINVAL, rpipe(&rp, me ^ 1, RPIPE_WRITE, 0));
		rpipe(&rp, me ^ 1, me % 2 ? RPIPE_READ : RPIPE_WRITE, 4096);
		if (me % 2 == 0) {
			rpt_expect("rread on a writing end", -EBADF, rread(rp, NULL, NULL, 0));
			rpt_expect("rpoll on a writing end", -EBADF, rpoll(rp));
			ra = rmalloc(rp, 64);
			rpt_expect("rwrite larger than the allocation", -EINVAL, rwrite(rp, ra, buf, 65));
			rpt_expect("rwrite to a non-allocation", -EINVAL, rwrite(rp, ra + 64, buf, 1));
			rpt_expect("rmalloc larger than the heap", 1, rmalloc(rp, 8192) == RADDR_NULL && errno == ENOMEM);
			rpt_expect("rfree of something else", -EINVAL, rfree(rp, (raddr_t)(uintptr_t)buf));
			rpt_expect("rfree", 0, rfree(rp, ra));
			rpt_expect("rfree twice", -EINVAL, rfree(rp, ra));
			rpt_expect("rmem of a freed block", 1, rmem(rp, ra) == NULL && errno == EINVAL);
			rpt_expect("rsize of a freed block", 0, rsize(rp, ra));
			/* Done: the reader may close now (a write would be EPIPE after). */
			rwrite(rp, rmalloc(rp, 1), NULL, 0);
		} else {
			rpt_expect("rmalloc on a reading end", 1, rmalloc(rp, 8) == RADDR_NULL && errno == EBADF);
			rpt_expect("rwrite on a reading end", -EBADF, rwrite(rp, 1, buf, 1));
			rread(rp, &ra, NULL, 0);
			rfree(rp, ra);
		}
		rclose(rp);
	}
	rpt_report("rpipe_misuse_is_reported");
}

int main(int argc, char **argv)
{
	rpipe_t rp;

	rpt_init();
	if (argc > 1 && !strcmp(argv[1], "unmatched")) {
		if (me == 0)
			rpipe(&rp, 1, RPIPE_WRITE, 0);
		rfinalize();
		return 0;
	}
	test_interface();
	test_epipe();
	test_errors();
	rfinalize();
	return 0;
}
