/*
 * rpt_example.c - the example program of docs/rpipe.md, a reconstruction
 * of the kind of program Wickramasinghe and Lumsdaine describe (their
 * source was not found): rank 0 streams records of irregular sizes to
 * rank 1, each in memory it allocates in rank 1 itself; rank 1 adds them
 * up where they landed, frees them, and answers over the same pipe.  When
 * rank 1 falls behind, rank 0's heap fills and rmalloc says so until rank
 * 1's frees make room.  Not a line of synchronisation besides the pipe.
 */
#include <rpipe.h>
#include <stdio.h>

#define RECORDS	1000
#define LONGEST	500

int main(void)
{
	long rec[LONGEST], sent = 0, sum = 0, *in;
	int rank, size, i, k, len;
	rpipe_t rp;
	raddr_t ra;

	rinit(&rank, &size);
	if (size >= 2 && rank < 2) {
		rpipe(&rp, 1 - rank, RPIPE_DUPLEX | RMALLOC_BEST_FIT, 1 << 20);
		if (rank == 0) {
			for (i = 0; i < RECORDS; i++) {
				len = 1 + i * 7919 % LONGEST;
				for (k = 0; k < len; k++)
					sent += rec[k] = i + k;
				while ((ra = rmalloc(rp, len * sizeof(long))) == RADDR_NULL)
					;	/* rank 1's heap is full: its rfree()s make room */
				rwrite(rp, ra, rec, len * sizeof(long));
			}
			rread(rp, &ra, &sum, sizeof sum);
			rfree(rp, ra);
			printf("rank 0 sent %d records adding up to %ld; rank 1 counted %ld: %s\n",
			       RECORDS, sent, sum, sum == sent ? "right" : "WRONG");
		} else {
			for (i = 0; i < RECORDS; i++) {
				len = rread(rp, &ra, NULL, 0) / sizeof(long);
				in = rmem(rp, ra);
				for (k = 0; k < len; k++)
					sum += in[k];
				rfree(rp, ra);
			}
			ra = rmalloc(rp, sizeof sum);
			rwrite(rp, ra, &sum, sizeof sum);
		}
		rclose(rp);
	}
	rfinalize();
	return 0;
}
