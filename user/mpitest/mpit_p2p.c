/*
 * mpit_p2p.c - point-to-point conformance: ordering, wildcards, probe,
 * truncation, zero-size and 64 MiB messages, self-sends, receives posted
 * after their message came, the exchanges
 * that rely on eager sends, synchronous, buffered and persistent sends,
 * cancel of receives and of sends (every protocol and send mode, on the
 * node and across), PROC_NULL.
 * Runs on any number of ranks >= 2.
 */
#include <stdlib.h>
#include "mpit.h"

static int rank, size;

static void fill(int *b, int n, int seed)
{
	for (int i = 0; i < n; i++)
		b[i] = seed * 1000003 + i;
}

static int first_bad(const int *b, int n, int seed)
{
	for (int i = 0; i < n; i++)
		if (b[i] != seed * 1000003 + i)
			return i;
	return -1;
}

/* Messages with the same (source, tag, comm) arrive in send order,
 * across all three protocols (inline, eager, rendezvous). */
static void test_order(void)
{
	int sizes[] = { 1, 100, 5000, 100000 }, k, i;

	for (k = 0; k < 4; k++) {
		int n = sizes[k], *b = malloc(n * sizeof *b);

		for (i = 0; i < 8; i++) {
			if (rank == 0) {
				fill(b, n, i);
				MPI_Send(b, n, MPI_INT, 1, 7, MPI_COMM_WORLD);
			} else if (rank == 1) {
				MPI_Recv(b, n, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
				if (first_bad(b, n, i) >= 0)
					mpit_fail("message %d of %d ints: element %d wrong", i, n, first_bad(b, n, i));
			}
		}
		free(b);
	}
	mpit_report("p2p_same_tag_messages_arrive_in_send_order");
}

/* A receive for a later tag overtakes earlier messages of other tags. */
static void test_tag_selection(void)
{
	int a = 1, b = 2, got;

	if (rank == 0) {
		MPI_Send(&a, 1, MPI_INT, 1, 10, MPI_COMM_WORLD);
		MPI_Send(&b, 1, MPI_INT, 1, 20, MPI_COMM_WORLD);
	} else if (rank == 1) {
		MPI_Recv(&got, 1, MPI_INT, 0, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		mpit_expect_int("tag 20 first", 2, got);
		MPI_Recv(&got, 1, MPI_INT, 0, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		mpit_expect_int("tag 10 second", 1, got);
	}
	mpit_report("p2p_receive_selects_by_tag");
}

/* ANY_SOURCE/ANY_TAG receive every peer's message once, with the right status. */
static void test_wildcards(void)
{
	MPI_Status st;
	MPI_Comm c;
	int i, v, *seen;

	/* A communicator of its own: the report messages cannot match. */
	MPI_Comm_dup(MPI_COMM_WORLD, &c);
	if (rank != 0) {
		v = rank * 10;
		MPI_Send(&v, 1, MPI_INT, 0, rank, c);
	} else {
		seen = calloc(size, sizeof *seen);
		for (i = 1; i < size; i++) {
			MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, c, &st);
			if (st.MPI_SOURCE < 1 || st.MPI_SOURCE >= size || seen[st.MPI_SOURCE]++)
				mpit_fail("source %d reported twice or out of range", st.MPI_SOURCE);
			mpit_expect_int("tag = source", st.MPI_SOURCE, st.MPI_TAG);
			mpit_expect_int("payload = 10 * source", st.MPI_SOURCE * 10, v);
		}
		free(seen);
	}
	MPI_Comm_free(&c);
	mpit_report("p2p_any_source_any_tag_status");
}

static void test_probe(void)
{
	MPI_Status st;
	int count = -1, flag = 0, *b;

	if (rank == 0) {
		b = calloc(777, sizeof *b);
		MPI_Send(b, 777, MPI_INT, 1, 5, MPI_COMM_WORLD);
		free(b);
	} else if (rank == 1) {
		MPI_Probe(MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &st);
		MPI_Get_count(&st, MPI_INT, &count);
		mpit_expect_int("probed count", 777, count);
		mpit_expect_int("probed source", 0, st.MPI_SOURCE);
		MPI_Iprobe(0, 5, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
		mpit_expect_int("message still there after probe", 1, flag);
		b = malloc(count * sizeof *b);
		MPI_Recv(b, count, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Iprobe(0, 5, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
		mpit_expect_int("gone after receive", 0, flag);
		free(b);
	}
	mpit_report("p2p_probe_sizes_then_receive");
}

/* Truncation: MPI_ERR_TRUNCATE under ERRORS_RETURN, for each protocol. */
static void test_truncate(void)
{
	int sizes[] = { 4, 1000, 200000 }, k, err, cls;
	MPI_Status st;

	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	for (k = 0; k < 3; k++) {
		char *b = calloc(sizes[k], 1);

		if (rank == 0) {
			MPI_Send(b, sizes[k], MPI_CHAR, 1, 3, MPI_COMM_WORLD);
		} else if (rank == 1) {
			err = MPI_Recv(b, sizes[k] / 2, MPI_CHAR, 0, 3, MPI_COMM_WORLD, &st);
			MPI_Error_class(err, &cls);
			mpit_expect_int("error class for a too-small buffer", MPI_ERR_TRUNCATE, cls);
		}
		free(b);
	}
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	mpit_report("p2p_truncation_reports_err_truncate");
}

/* A message that ends inside an element of the receive type (chars sent,
 * ints received, a length that is no whole number of ints) is
 * MPI_ERR_TYPE, blocking and not; whole ints are fine with the same types. */
static void test_partial_element(void)
{
	int sizes[] = { 7, 1003, 200003 }, k, err, cls, count;
	MPI_Request rq;
	MPI_Status st;

	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	for (k = 0; k < 3; k++) {
		int n = sizes[k] / 4 + 1;
		char *b = calloc(4 * n, 1);

		if (rank == 0) {
			MPI_Send(b, sizes[k], MPI_CHAR, 1, 4, MPI_COMM_WORLD);
			MPI_Send(b, sizes[k], MPI_CHAR, 1, 5, MPI_COMM_WORLD);
			MPI_Send(b, sizes[k] - 3, MPI_CHAR, 1, 6, MPI_COMM_WORLD);
		} else if (rank == 1) {
			err = MPI_Recv(b, n, MPI_INT, 0, 4, MPI_COMM_WORLD, &st);
			MPI_Error_class(err, &cls);
			mpit_expect_int("error class of a partial int (Recv)", MPI_ERR_TYPE, cls);
			MPI_Irecv(b, n, MPI_INT, 0, 5, MPI_COMM_WORLD, &rq);
			err = MPI_Wait(&rq, &st);
			MPI_Error_class(err, &cls);
			mpit_expect_int("error class of a partial int (Wait)", MPI_ERR_TYPE, cls);
			err = MPI_Recv(b, n, MPI_INT, 0, 6, MPI_COMM_WORLD, &st);
			MPI_Get_count(&st, MPI_INT, &count);
			mpit_expect_int("whole ints sent as chars", MPI_SUCCESS, err);
			mpit_expect_int("their count", sizes[k] / 4, count);
		}
		free(b);
	}
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	mpit_report("p2p_message_ending_inside_an_element_is_err_type");
}

static void test_zero_and_proc_null(void)
{
	MPI_Status st;
	int count = -1, x = 5;

	if (rank == 0) {
		MPI_Send(NULL, 0, MPI_INT, 1, 9, MPI_COMM_WORLD);
	} else if (rank == 1) {
		MPI_Recv(NULL, 0, MPI_INT, 0, 9, MPI_COMM_WORLD, &st);
		MPI_Get_count(&st, MPI_INT, &count);
		mpit_expect_int("zero-byte count", 0, count);
		mpit_expect_int("zero-byte tag", 9, st.MPI_TAG);
	}
	MPI_Send(&x, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD);
	MPI_Recv(&x, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &st);
	mpit_expect_int("PROC_NULL receive source", MPI_PROC_NULL, st.MPI_SOURCE);
	mpit_expect_int("PROC_NULL receive tag", MPI_ANY_TAG, st.MPI_TAG);
	mpit_expect_int("PROC_NULL leaves buffer", 5, x);
	/* A null request's status is empty: its error too (MPI 3.1 3.7.3). */
	{
		MPI_Request nr = MPI_REQUEST_NULL;
		int flag = 0;

		st.MPI_ERROR = 99;
		MPI_Request_get_status(MPI_REQUEST_NULL, &flag, &st);
		mpit_expect_int("null request's status error", MPI_SUCCESS, st.MPI_ERROR);
		st.MPI_ERROR = 99;
		MPI_Wait(&nr, &st);
		mpit_expect_int("null request's source", MPI_ANY_SOURCE, st.MPI_SOURCE);
		mpit_expect_int("waited null request's status error", MPI_SUCCESS, st.MPI_ERROR);
	}
	mpit_report("p2p_zero_bytes_and_proc_null");
}

static void test_large(void)
{
	int n = 16 << 20, bad;	/* 64 MiB of ints */
	int *b = malloc((size_t)n * sizeof *b);

	if (rank == 0) {
		fill(b, n, 3);
		MPI_Send(b, n, MPI_INT, 1, 1, MPI_COMM_WORLD);
	} else if (rank == 1) {
		MPI_Recv(b, n, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		if ((bad = first_bad(b, n, 3)) >= 0)
			mpit_fail("64 MiB message: element %d is %d", bad, b[bad]);
	}
	free(b);
	mpit_report("p2p_64_mib_message");
}

/* A receive posted after its message arrived (the Barrier lets it come):
 * every protocol, named and any source, nonblocking, persistent and
 * blocking, from rank 0 to the last rank (another node in a job of
 * several).  A receive that met a rendezvous message as it started once
 * completed at once across nodes, without the data. */
static void test_receive_after_arrival(void)
{
	int sizes[] = { 1, 1024, 100000, 1 << 18 }, k, mode, to = size - 1;

	for (k = 0; k < 4; k++)
		for (mode = 0; mode < 5; mode++) {
			int n = sizes[k], *b = malloc((size_t)n * sizeof *b), got = -1, bad;
			int src = mode & 1 ? MPI_ANY_SOURCE : 0;
			MPI_Request r = MPI_REQUEST_NULL;
			MPI_Status st;

			if (rank == 0) {
				fill(b, n, k + mode);
				MPI_Isend(b, n, MPI_INT, to, 30 + mode, MPI_COMM_WORLD, &r);
			} else if (rank == to && mode >= 2 && mode < 4) {
				MPI_Recv_init(b, n, MPI_INT, src, MPI_ANY_TAG, MPI_COMM_WORLD, &r);
			}
			MPI_Barrier(MPI_COMM_WORLD);
			if (rank == to) {
				memset(b, 0, (size_t)n * sizeof *b);
				if (mode == 4) {
					MPI_Recv(b, n, MPI_INT, src, 30 + mode, MPI_COMM_WORLD, &st);
				} else {
					if (mode < 2)
						MPI_Irecv(b, n, MPI_INT, src, 30 + mode, MPI_COMM_WORLD,
							  &r);
					else
						MPI_Start(&r);
					MPI_Wait(&r, &st);
				}
				if (mode >= 2 && mode < 4)
					MPI_Request_free(&r);
				MPI_Get_count(&st, MPI_INT, &got);
				if ((bad = first_bad(b, n, k + mode)) >= 0 || got != n ||
				    st.MPI_SOURCE != 0 || st.MPI_TAG != 30 + mode)
					mpit_fail("%d ints received after they came, mode %d: element %d,"
						  " count %d, source %d, tag %d", n, mode, bad, got,
						  st.MPI_SOURCE, st.MPI_TAG);
			}
			if (rank == 0)
				MPI_Wait(&r, MPI_STATUS_IGNORE);
			free(b);
		}
	mpit_report("p2p_receive_after_arrival");
}

/* A rank sends to itself before receiving: eager sizes, and any size
 * with a nonblocking receive posted first. */
static void test_self(void)
{
	int small[10], got[10], *big, *bigr, n = 1 << 20;
	MPI_Request r;

	fill(small, 10, rank);
	MPI_Send(small, 10, MPI_INT, rank, 2, MPI_COMM_WORLD);
	MPI_Recv(got, 10, MPI_INT, rank, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	if (first_bad(got, 10, rank) >= 0)
		mpit_fail("small self message wrong");
	big = malloc(n * sizeof *big);
	bigr = malloc(n * sizeof *bigr);
	fill(big, n, rank + 1);
	MPI_Irecv(bigr, n, MPI_INT, rank, 4, MPI_COMM_WORLD, &r);
	MPI_Send(big, n, MPI_INT, rank, 4, MPI_COMM_WORLD);
	MPI_Wait(&r, MPI_STATUS_IGNORE);
	if (first_bad(bigr, n, rank + 1) >= 0)
		mpit_fail("4 MiB self message wrong");
	free(big);
	free(bigr);
	mpit_report("p2p_self_send");
}

/* Everybody sends many small messages to everybody before receiving any:
 * more than any queue holds, so it works only if waiting sends drain
 * their own queues. */
static void test_eager_exchange(void)
{
	int per = 300, i, p, v;

	for (i = 0; i < per; i++)
		for (p = 0; p < size; p++) {
			v = rank * 100000 + i;
			MPI_Send(&v, 1, MPI_INT, p, 11, MPI_COMM_WORLD);
		}
	for (p = 0; p < size; p++)
		for (i = 0; i < per; i++) {
			MPI_Recv(&v, 1, MPI_INT, p, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			if (v != p * 100000 + i)
				mpit_fail("from %d message %d: got %d", p, i, v);
		}
	mpit_report("p2p_all_send_then_receive_does_not_deadlock");
}

/* Issend completes only once the receive has matched. */
static void test_ssend(void)
{
	int x = 42, flag = 1, i;
	MPI_Request r;

	if (rank == 0) {
		MPI_Issend(&x, 1, MPI_INT, 1, 8, MPI_COMM_WORLD, &r);
		for (i = 0; i < 1000; i++)
			MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
		mpit_expect_int("Issend done before the receive was posted", 0, flag);
		MPI_Send(&x, 1, MPI_INT, 1, 9, MPI_COMM_WORLD);
		MPI_Wait(&r, MPI_STATUS_IGNORE);
	} else if (rank == 1) {
		MPI_Recv(&x, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Recv(&x, 1, MPI_INT, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		mpit_expect_int("Issend payload", 42, x);
	}
	mpit_report("p2p_issend_waits_for_the_match");
}

static void test_nonblocking_sets(void)
{
	int n = size - 1, i, idx, out, done = 0, *vals = calloc(size, sizeof *vals);
	MPI_Request *rq = malloc(size * sizeof *rq);
	int *ind = malloc(size * sizeof *ind);

	if (rank == 0) {
		for (i = 0; i < n; i++)
			MPI_Irecv(&vals[i], 1, MPI_INT, i + 1, 1, MPI_COMM_WORLD, &rq[i]);
		MPI_Waitany(n, rq, &idx, MPI_STATUS_IGNORE);
		mpit_expect_int("Waitany value", (idx + 1) * 3, vals[idx]);
		done = 1;
		while (done < n) {
			MPI_Waitsome(n, rq, &out, ind, MPI_STATUSES_IGNORE);
			for (i = 0; i < out; i++)
				mpit_expect_int("Waitsome value", (ind[i] + 1) * 3, vals[ind[i]]);
			done += out;
		}
		MPI_Waitsome(n, rq, &out, ind, MPI_STATUSES_IGNORE);
		mpit_expect_int("Waitsome on no active requests", MPI_UNDEFINED, out);
	} else {
		int v = rank * 3;

		MPI_Isend(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, &rq[0]);
		MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
		mpit_expect_int("request freed by Wait", 1, rq[0] == MPI_REQUEST_NULL);
	}
	free(vals);
	free(rq);
	free(ind);
	mpit_report("p2p_waitany_waitsome");
}

static void test_persistent(void)
{
	int x, i, ok = 1;
	MPI_Request r;

	if (rank == 0) {
		MPI_Send_init(&x, 1, MPI_INT, 1, 6, MPI_COMM_WORLD, &r);
		for (i = 0; i < 5; i++) {
			x = i;
			MPI_Start(&r);
			MPI_Wait(&r, MPI_STATUS_IGNORE);
		}
		MPI_Request_free(&r);
	} else if (rank == 1) {
		MPI_Recv_init(&x, 1, MPI_INT, 0, 6, MPI_COMM_WORLD, &r);
		for (i = 0; i < 5; i++) {
			MPI_Start(&r);
			MPI_Wait(&r, MPI_STATUS_IGNORE);
			ok &= x == i;
		}
		mpit_expect_int("persistent request kept after Wait", 1, r != MPI_REQUEST_NULL);
		MPI_Request_free(&r);
		mpit_expect_int("all five rounds", 1, ok);
	}
	mpit_report("p2p_persistent_requests_restart");
}

static void test_cancel(void)
{
	MPI_Request r;
	MPI_Status st;
	int x, flag = 0;

	MPI_Irecv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &r);
	MPI_Cancel(&r);
	MPI_Wait(&r, &st);
	MPI_Test_cancelled(&st, &flag);
	mpit_expect_int("receive cancelled", 1, flag);
	mpit_report("p2p_cancel_unmatched_receive");
}

/* One send of n ints by the even rank of a pair (mode 0 Isend, 1 Issend,
 * 2 Ibsend), cancelled before the odd one receives anything on its tag,
 * and then never delivered: a marker sent next on the same tag is what
 * the receive gets.  A persistent one, restarted, arrives whole. */
static int cancel_one(int peer, int n, int mode, int persistent)
{
	int *b = malloc((n ? n : 1) * sizeof *b), flag = -1, marker = -7, ok = 1, tag = 50 + mode;
	int bsize = n * (int)sizeof *b + MPI_BSEND_OVERHEAD, dsize;
	char *battach = malloc(bsize);
	void *det;
	MPI_Request r;
	MPI_Status st;

	if (!(rank & 1)) {
		fill(b, n, n);
		if (mode == 2)
			MPI_Buffer_attach(battach, bsize);
		if (persistent) {
			MPI_Send_init(b, n, MPI_INT, peer, tag, MPI_COMM_WORLD, &r);
			MPI_Start(&r);
		} else if (mode == 1) {
			MPI_Issend(b, n, MPI_INT, peer, tag, MPI_COMM_WORLD, &r);
		} else if (mode == 2) {
			MPI_Ibsend(b, n, MPI_INT, peer, tag, MPI_COMM_WORLD, &r);
		} else {
			MPI_Isend(b, n, MPI_INT, peer, tag, MPI_COMM_WORLD, &r);
		}
		MPI_Cancel(&r);
		MPI_Wait(&r, &st);
		MPI_Test_cancelled(&st, &flag);
		if (!flag)
			ok = 0;
		if (mode == 2)
			MPI_Buffer_detach(&det, &dsize);
		MPI_Send(&flag, 1, MPI_INT, peer, 49, MPI_COMM_WORLD);
		if (persistent) {
			/* Restarted after a cancel, it sends as usual. */
			MPI_Start(&r);
			MPI_Wait(&r, MPI_STATUS_IGNORE);
			MPI_Request_free(&r);
		}
		MPI_Send(&marker, 1, MPI_INT, peer, tag, MPI_COMM_WORLD);
	} else {
		MPI_Recv(&flag, 1, MPI_INT, peer, 49, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		/* The first send unless cancelled, then the restarted one. */
		for (int k = flag ? 1 : 0; k < 1 + persistent; k++) {
			MPI_Recv(b, n, MPI_INT, peer, tag, MPI_COMM_WORLD, &st);
			if (first_bad(b, n, n) >= 0)
				ok = 0;
		}
		MPI_Recv(b, 1, MPI_INT, peer, tag, MPI_COMM_WORLD, &st);
		if (b[0] != marker)
			ok = 0;
	}
	free(b);
	free(battach);
	return ok;
}

/* Every send no receive has taken is cancelled, on the node and across. */
static void test_cancel_send(void)
{
	int sizes[] = { 0, 1, 100, 3000, 100000, 300000 }, peer = rank ^ 1, ok = 1, k, mode;
	MPI_Request r;
	MPI_Status st;
	int x = 5, flag = -1;

	if (peer < size)
		for (k = 0; k < 6; k++)
			for (mode = 0; mode < 4; mode++)
				if (!cancel_one(peer, sizes[k], mode < 3 ? mode : 0, mode == 3))
					ok = 0;
	mpit_expect_int("unmatched sends cancelled, in every mode", 1, ok);
	/* A send already received completes as sent. */
	if (peer < size) {
		if (!(rank & 1))
			MPI_Isend(&x, 1, MPI_INT, peer, 48, MPI_COMM_WORLD, &r);
		else
			MPI_Recv(&x, 1, MPI_INT, peer, 48, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Barrier(MPI_COMM_WORLD);
		if (!(rank & 1)) {
			MPI_Cancel(&r);
			MPI_Wait(&r, &st);
			MPI_Test_cancelled(&st, &flag);
			mpit_expect_int("a send already received is not cancelled", 0, flag);
		}
	} else {
		MPI_Barrier(MPI_COMM_WORLD);
	}
	mpit_report("p2p_cancel_unmatched_send");
}

static void test_bsend(void)
{
	int bytes = 4 * (100000 * 4 + MPI_BSEND_OVERHEAD), i;
	char *buf = malloc(bytes);
	int *b = malloc(100000 * sizeof *b), sz;
	void *det;

	MPI_Buffer_attach(buf, bytes);
	if (rank == 0) {
		for (i = 0; i < 4; i++) {
			fill(b, 100000, i);
			MPI_Bsend(b, 100000, MPI_INT, 1, 12, MPI_COMM_WORLD);
		}
	} else if (rank == 1) {
		for (i = 0; i < 4; i++) {
			MPI_Recv(b, 100000, MPI_INT, 0, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			if (first_bad(b, 100000, i) >= 0)
				mpit_fail("buffered message %d wrong", i);
		}
	}
	MPI_Buffer_detach(&det, &sz);
	mpit_expect_int("detach returns the buffer", 1, det == buf);
	/* One message of n bytes fits n + MPI_BSEND_OVERHEAD exactly. */
	for (i = 1; i <= 100; i += 33) {
		MPI_Buffer_attach(buf, i + MPI_BSEND_OVERHEAD);
		if (rank == 0) {
			mpit_expect_int("n bytes in n + MPI_BSEND_OVERHEAD", MPI_SUCCESS,
					MPI_Bsend(b, i, MPI_CHAR, 1, 13, MPI_COMM_WORLD));
		} else if (rank == 1) {
			MPI_Recv(b, i, MPI_CHAR, 0, 13, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		}
		MPI_Buffer_detach(&det, &sz);
	}
	free(buf);
	free(b);
	mpit_report("p2p_bsend_completes_from_the_attached_buffer");
}

static void test_sendrecv_ring(void)
{
	int right = (rank + 1) % size, left = (rank + size - 1) % size, v = rank, got = -1;

	MPI_Sendrecv(&v, 1, MPI_INT, right, 4, &got, 1, MPI_INT, left, 4, MPI_COMM_WORLD,
		     MPI_STATUS_IGNORE);
	mpit_expect_int("Sendrecv from the left", left, got);
	MPI_Sendrecv_replace(&v, 1, MPI_INT, right, 5, left, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	mpit_expect_int("Sendrecv_replace from the left", left, v);
	mpit_report("p2p_sendrecv_ring");
}

/* A synchronous send to a rank that posted its receive and went into a
 * whole-job barrier completes before the sender arrives there: the
 * barrier keeps messages moving (across nodes the receiver's side takes
 * the announce; MPICH's rqstatus does this). */
static void test_ssend_into_barrier(void)
{
	int last = size - 1, v = 42, got = -1;
	MPI_Request r = MPI_REQUEST_NULL;

	if (rank == last && last > 0)
		MPI_Irecv(&got, 1, MPI_INT, 0, 6, MPI_COMM_WORLD, &r);
	if (rank == 0 && last > 0)
		MPI_Ssend(&v, 1, MPI_INT, last, 6, MPI_COMM_WORLD);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Wait(&r, MPI_STATUS_IGNORE);
	if (rank == last && last > 0)
		mpit_expect_int("the synchronous send's value", 42, got);
	mpit_report("p2p_ssend_to_a_rank_in_a_barrier");
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	test_order();
	test_tag_selection();
	test_wildcards();
	test_probe();
	test_truncate();
	test_partial_element();
	test_zero_and_proc_null();
	test_large();
	test_self();
	test_receive_after_arrival();
	test_eager_exchange();
	test_ssend();
	test_nonblocking_sets();
	test_persistent();
	test_cancel();
	test_cancel_send();
	test_bsend();
	test_sendrecv_ring();
	test_ssend_into_barrier();
	MPI_Finalize();
	return 0;
}
