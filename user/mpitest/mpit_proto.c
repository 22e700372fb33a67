/*
 * mpit_proto.c - point-to-point at the edges of libsmap's protocols
 * (docs/mpi.md): every size on both sides of the inline, eager, short and
 * shared-copy limits arrives intact and stops at the end of the receive
 * buffer; blocking sends of 8 KiB complete with no receive posted, also
 * when the receiver is waiting for something else from the same sender
 * (libsmap buffers up to 16 KiB, MPICH up to 8); nonblocking sends up to
 * 16 KiB complete in every wait and test call before the receive is
 * posted, as blocking ones do, and larger ones once it is; large receives
 * truncated into a smaller buffer keep what they report intact and write
 * nothing beyond it; a large Isend completes while its sender computes.  Standard
 * MPI only; runs on any number of ranks >= 2 (ranks 0 and 1 talk, the
 * others only report).
 */
#include <stdlib.h>
#include "mpit.h"

/* Bytes after each receive buffer that no message may touch. */
#define GUARD	64

static int rank;

static unsigned char pattern(long i, int seed)
{
	return (unsigned char)(i * 31 + seed * 7 + (i >> 8));
}

static void fill(unsigned char *b, long n, int seed)
{
	for (long i = 0; i < n; i++)
		b[i] = pattern(i, seed);
}

/* First byte of b[0..n) that is not the pattern, or -1. */
static long first_bad(const unsigned char *b, long n, int seed)
{
	for (long i = 0; i < n; i++)
		if (b[i] != pattern(i, seed))
			return i;
	return -1;
}

/* First guard byte after b[n] that changed, or -1. */
static long guard_bad(const unsigned char *b, long n)
{
	for (long i = n; i < n + GUARD; i++)
		if (b[i] != 0xee)
			return i - n;
	return -1;
}

/* Spends `seconds` computing, with no MPI call that could make progress. */
static void compute(double seconds)
{
	double t0 = MPI_Wtime();

	while (MPI_Wtime() - t0 < seconds)
		;
}

/* Rank 1 checks the n bytes of message `seed` it received into b and the
 * count in st. */
static void check_message(const unsigned char *b, long n, int seed, MPI_Status *st,
			  const char *how)
{
	long bad;
	int count;

	MPI_Get_count(st, MPI_BYTE, &count);
	if (count != n)
		mpit_fail("%s, %ld bytes: count %d", how, n, count);
	else if ((bad = first_bad(b, n, seed)) >= 0)
		mpit_fail("%s, %ld bytes: byte %ld is %d", how, n, bad, b[bad]);
	else if ((bad = guard_bad(b, n)) >= 0)
		mpit_fail("%s, %ld bytes: wrote %ld bytes past the end", how, n, bad + 1);
}

static const long sizes[] = {
	0, 1, 7, 8, 39, 40, 41, 63, 64, 65, 255, 256, 257, 1000, 4095, 4096,
	16383, 16384, 16385, 65535, 65536, 65537, 100001, 1048576 + 13
};
#define NSIZES	((int)(sizeof sizes / sizeof *sizes))

/* Each size, sent by a blocking send and by Isend, with the receive
 * posted before the send and after it. */
static void test_sizes(void)
{
	long max = sizes[NSIZES - 1];
	unsigned char *b = malloc(max + GUARD);
	MPI_Request rq;
	MPI_Status st;
	int k, way;

	for (k = 0; k < NSIZES; k++)
		for (way = 0; way < 4; way++) {
			long n = sizes[k];
			int seed = k * 4 + way, early = way & 1, nonblocking = way & 2;

			if (rank == 0) {
				fill(b, n, seed);
				if (early)
					MPI_Recv(NULL, 0, MPI_BYTE, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
				if (nonblocking) {
					MPI_Isend(b, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD, &rq);
					MPI_Wait(&rq, MPI_STATUS_IGNORE);
				} else {
					MPI_Send(b, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
				}
			} else if (rank == 1) {
				memset(b, 0xee, max + GUARD);
				MPI_Irecv(b, max, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &rq);
				if (early)
					MPI_Send(NULL, 0, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
				MPI_Wait(&rq, &st);
				check_message(b, n, seed, &st,
					      nonblocking ? "Isend" : "Send");
			}
		}
	free(b);
	mpit_report("p2p_every_size_at_the_protocol_limits_arrives_intact");
}

/* Blocking receives of exactly the size sent: the direct paths that copy
 * out of the slot or the ring without a request. */
static void test_sizes_blocking_receive(void)
{
	long max = sizes[NSIZES - 1];
	unsigned char *b = malloc(max + GUARD);
	MPI_Status st;
	int k;

	for (k = 0; k < NSIZES; k++) {
		long n = sizes[k];

		if (rank == 0) {
			fill(b, n, k);
			MPI_Send(b, n, MPI_BYTE, 1, 3, MPI_COMM_WORLD);
		} else if (rank == 1) {
			memset(b, 0xee, max + GUARD);
			MPI_Recv(b, n, MPI_BYTE, 0, 3, MPI_COMM_WORLD, &st);
			check_message(b, n, k, &st, "Recv");
		}
	}
	free(b);
	mpit_report("p2p_blocking_receive_of_every_size_arrives_intact");
}

/* Both ranks send 8 KiB before either receives. */
static void test_blocking_buffered(void)
{
	long n = 8 << 10;
	unsigned char *s = malloc(n), *r = malloc(n + GUARD);
	MPI_Status st;
	int peer = rank ^ 1;

	if (rank <= 1) {
		fill(s, n, 40 + rank);
		memset(r, 0xee, n + GUARD);
		MPI_Send(s, n, MPI_BYTE, peer, 4, MPI_COMM_WORLD);
		MPI_Recv(r, n, MPI_BYTE, peer, 4, MPI_COMM_WORLD, &st);
		check_message(r, n, 40 + peer, &st, "crossed Send");
	}
	free(s);
	free(r);
	mpit_report("p2p_blocking_sends_of_8_kib_complete_before_the_receive");
}

/*
 * Rank 1 waits for tag 6 while rank 0 first sends 8 KiB on tag 5, then a
 * small message on tag 6, then 8 KiB on tag 6 and a last one on tag 7;
 * rank 1 takes tag 6, then 7, then the rest.  Each 8 KiB send finds the
 * receiver waiting, but not for it (another tag, or behind an earlier
 * message that takes the receive): it must complete unreceived.
 */
static void test_waiting_for_another(void)
{
	long n = 8 << 10;
	unsigned char *b = malloc(n + GUARD);
	MPI_Status st;
	int small = 66, got = 0;

	if (rank == 0) {
		/* Long enough for rank 1 to be waiting already. */
		compute(0.002);
		fill(b, n, 50);
		MPI_Send(b, n, MPI_BYTE, 1, 5, MPI_COMM_WORLD);
		MPI_Send(&small, 1, MPI_INT, 1, 6, MPI_COMM_WORLD);
		fill(b, n, 51);
		MPI_Send(b, n, MPI_BYTE, 1, 6, MPI_COMM_WORLD);
		MPI_Send(&small, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
	} else if (rank == 1) {
		MPI_Recv(&got, 1, MPI_INT, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		mpit_expect_int("first message on tag 6", small, got);
		MPI_Recv(&got, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		memset(b, 0xee, n + GUARD);
		MPI_Recv(b, n, MPI_BYTE, 0, 5, MPI_COMM_WORLD, &st);
		check_message(b, n, 50, &st, "tag 5");
		memset(b, 0xee, n + GUARD);
		MPI_Recv(b, n, MPI_BYTE, 0, 6, MPI_COMM_WORLD, &st);
		check_message(b, n, 51, &st, "second on tag 6");
	}
	free(b);
	mpit_report("p2p_blocking_send_to_a_receiver_waiting_for_another_message_completes");
}

/* The calls that complete a request, each tried on a crossed Isend. */
enum { BY_WAIT, BY_WAITALL, BY_WAITANY, BY_WAITSOME, BY_TEST, BY_TESTALL, BY_TESTANY,
       BY_TESTSOME, NBY };
static const char *const by_name[NBY] = {
	"Wait", "Waitall", "Waitany", "Waitsome", "Test", "Testall", "Testany", "Testsome"
};

/* Completes the single request *rq with the call `by`. */
static void complete(MPI_Request *rq, int by)
{
	MPI_Status st[1];
	int flag = 0, index, out;

	switch (by) {
	case BY_WAIT:
		MPI_Wait(rq, MPI_STATUS_IGNORE);
		break;
	case BY_WAITALL:
		MPI_Waitall(1, rq, st);
		break;
	case BY_WAITANY:
		MPI_Waitany(1, rq, &index, MPI_STATUS_IGNORE);
		break;
	case BY_WAITSOME:
		do
			MPI_Waitsome(1, rq, &out, &index, st);
		while (out == 0);
		break;
	case BY_TEST:
		while (!flag)
			MPI_Test(rq, &flag, MPI_STATUS_IGNORE);
		break;
	case BY_TESTALL:
		while (!flag)
			MPI_Testall(1, rq, &flag, st);
		break;
	case BY_TESTANY:
		while (!flag)
			MPI_Testany(1, rq, &index, &flag, MPI_STATUS_IGNORE);
		break;
	default:
		do
			MPI_Testsome(1, rq, &out, &index, st);
		while (out == 0);
	}
}

/*
 * Ranks 0 and 1 both Isend and complete the send before either posts its
 * receive: formally unsafe, but what many programs and benchmarks do.  Up
 * to 16 KiB libsmap completes it as it completes a blocking Send, with
 * every wait and test call.  This is libsmap's promise, not MPI's: on this
 * machine Open MPI 4.1 hangs here from 4 KiB and MPICH 4.0 at 16 KiB.
 */
static void test_isend_completes_before_the_receive(void)
{
	static const long n_of[] = { 257, 4096, 16384 };
	long max = 16384;
	unsigned char *s = malloc(max), *r = malloc(max + GUARD);
	MPI_Request rq;
	MPI_Status st;
	int peer = rank ^ 1, k, by;
	char how[64];

	for (k = 0; k < 3 && rank <= 1; k++)
		for (by = 0; by < NBY; by++) {
			long n = n_of[k];
			int seed = 80 + k * NBY + by;

			fill(s, n, seed + rank);
			memset(r, 0xee, max + GUARD);
			MPI_Isend(s, n, MPI_BYTE, peer, 11, MPI_COMM_WORLD, &rq);
			complete(&rq, by);
			mpit_expect_int("request after completion is MPI_REQUEST_NULL", 1,
					rq == MPI_REQUEST_NULL);
			/* The buffer is the caller's again: what it holds now must
			 * not reach the receiver. */
			memset(s, 0, n);
			MPI_Recv(r, n, MPI_BYTE, peer, 11, MPI_COMM_WORLD, &st);
			snprintf(how, sizeof how, "crossed Isend + %s", by_name[by]);
			check_message(r, n, seed + peer, &st, how);
		}
	free(s);
	free(r);
	mpit_report("p2p_isend_up_to_16_kib_completes_before_its_receive_is_posted");
}

/* Beyond 16 KiB a standard send may need its receive (MPI allows it):
 * the program that posts the receive before completing the send works. */
static void test_isend_beyond_the_limit(void)
{
	long n = 16385;
	unsigned char *s = malloc(n), *r = malloc(n + GUARD);
	MPI_Request rq;
	MPI_Status st;
	int peer = rank ^ 1;

	if (rank <= 1) {
		fill(s, n, 90 + rank);
		memset(r, 0xee, n + GUARD);
		MPI_Isend(s, n, MPI_BYTE, peer, 12, MPI_COMM_WORLD, &rq);
		MPI_Recv(r, n, MPI_BYTE, peer, 12, MPI_COMM_WORLD, &st);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
		check_message(r, n, 90 + peer, &st, "crossed Isend + Recv + Wait");
	}
	free(s);
	free(r);
	mpit_report("p2p_isend_beyond_16_kib_completes_once_its_receive_is_posted");
}

/* Large messages into smaller buffers: MPI_ERR_TRUNCATE and not a byte
 * beyond the buffer; when the status counts the whole buffer received (as
 * libsmap's does; the standard leaves it open), it holds the message's
 * first bytes. */
static void test_truncate_large(void)
{
	static const long sent[] = { 65536, 300000, 4 << 20 };
	static const long room[] = { 65535, 123457, (3 << 20) + 5 };
	unsigned char *b = malloc((4 << 20) + GUARD);
	MPI_Status st;
	long bad;
	int k, err, cls, count;

	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	for (k = 0; k < 3; k++) {
		if (rank == 0) {
			fill(b, sent[k], 60 + k);
			MPI_Send(b, sent[k], MPI_BYTE, 1, 8, MPI_COMM_WORLD);
		} else if (rank == 1) {
			memset(b, 0xee, (4 << 20) + GUARD);
			err = MPI_Recv(b, room[k], MPI_BYTE, 0, 8, MPI_COMM_WORLD, &st);
			MPI_Error_class(err, &cls);
			MPI_Get_count(&st, MPI_BYTE, &count);
			mpit_expect_int("error class", MPI_ERR_TRUNCATE, cls);
			if (count == room[k] && (bad = first_bad(b, count, 60 + k)) >= 0)
				mpit_fail("%ld into %ld bytes: byte %ld wrong", sent[k], room[k], bad);
			else if ((bad = guard_bad(b, room[k])) >= 0)
				mpit_fail("%ld into %ld bytes: wrote past the end", sent[k], room[k]);
		}
	}
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	free(b);
	mpit_report("p2p_large_message_into_a_smaller_buffer_is_truncated_intact");
}

/* Rank 0 computes, making no MPI call, while rank 1 receives its 4 MiB
 * Isend: the receive completes without the sender's share of the copy. */
static void test_isend_while_computing(void)
{
	long n = 4 << 20;
	unsigned char *b = malloc(n + GUARD);
	MPI_Request rq;
	MPI_Status st;
	int done = 0;

	if (rank == 0) {
		fill(b, n, 70);
		MPI_Isend(b, n, MPI_BYTE, 1, 9, MPI_COMM_WORLD, &rq);
		compute(0.05);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
		MPI_Recv(&done, 1, MPI_INT, 1, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		mpit_expect_int("receiver finished", 1, done);
	} else if (rank == 1) {
		memset(b, 0xee, n + GUARD);
		MPI_Recv(b, n, MPI_BYTE, 0, 9, MPI_COMM_WORLD, &st);
		check_message(b, n, 70, &st, "Isend");
		done = 1;
		MPI_Send(&done, 1, MPI_INT, 0, 10, MPI_COMM_WORLD);
	}
	free(b);
	mpit_report("p2p_large_isend_completes_while_its_sender_computes");
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	test_sizes();
	test_sizes_blocking_receive();
	test_blocking_buffered();
	test_waiting_for_another();
	test_isend_completes_before_the_receive();
	test_isend_beyond_the_limit();
	test_truncate_large();
	test_isend_while_computing();
	MPI_Finalize();
	return 0;
}
