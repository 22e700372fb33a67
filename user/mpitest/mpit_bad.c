/*
 * mpit_bad.c - bad arguments met at the door, and collectives whose
 * members disagree (tests/suites/failures.py).
 *
 *   mpit_bad CASE     under MPI_ERRORS_ARE_FATAL: the job must end with
 *                     the call's one line and its error class as status
 *   mpit_bad return   every case under MPI_ERRORS_RETURN: one TAP line
 *                     per case, checking the class returned
 *
 * Door cases (rank 0 makes the call): send-null, recv-null, bcast-null,
 * allreduce-null, wait-garbage, wait-freed, test-garbage,
 * waitall-garbage, comm-garbage, comm-freed, type-garbage,
 * type-uncommitted, type-freed, op-garbage, allreduce-alias (the send
 * buffer is the receive buffer), comm-size-null, group-garbage,
 * keyval-kind (a datatype keyval on a communicator).
 *
 * Collective cases (every rank calls; member r of MPI_COMM_WORLD, or of a
 * duplicate under MPI_ERRORS_RETURN): bcast-root (root r % 2),
 * bcast-count (10 ints from rank 0, 5 elsewhere), allreduce-op (MPI_SUM
 * on rank 0, MPI_MAX elsewhere), allreduce-type (MPI_INT on rank 0,
 * MPI_FLOAT elsewhere), reduce-root (root r % 2), barrier-bcast
 * (MPI_Barrier on rank 0, MPI_Bcast from 0 elsewhere), gather-count (one
 * int per rank at the root 0, two from the others).  Under
 * MPI_ERRORS_RETURN, every rank gets success or the class, and at least
 * one gets the class; then every assignment of roots to up to 4 members
 * for gather, reduce, bcast and scatter (coll_roots).
 */
#include <stdint.h>
#include <stdlib.h>
#include "mpit.h"

/* Words of a live object's size that are no object: what a garbage
 * handle may point to inside the program's own memory. */
static uint64_t junk[64];

static int one_null_send(void)
{
	return MPI_Send(NULL, 10, MPI_INT, 0, 0, MPI_COMM_SELF);
}

static int one_null_recv(void)
{
	return MPI_Recv(NULL, 10, MPI_INT, 0, 0, MPI_COMM_SELF, MPI_STATUS_IGNORE);
}

static int one_null_bcast(void)
{
	return MPI_Bcast(NULL, 10, MPI_INT, 0, MPI_COMM_SELF);
}

static int one_null_allreduce(void)
{
	int x = 1;

	return MPI_Allreduce(&x, NULL, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF);
}

static int one_gatherv_null(void)
{
	int x = 1, y;

	return MPI_Gatherv(&x, 1, MPI_INT, &y, NULL, NULL, MPI_INT, 0, MPI_COMM_SELF);
}

static int one_alltoallv_negative(void)
{
	int x = 1, y, c[1] = { -1 }, d[1] = { 0 };

	return MPI_Alltoallv(&x, c, d, MPI_INT, &y, c, d, MPI_INT, MPI_COMM_SELF);
}

static int one_wait_garbage(void)
{
	MPI_Request r = (MPI_Request)(void *)&junk[8];

	return MPI_Wait(&r, MPI_STATUS_IGNORE);
}

static int one_wait_freed(void)
{
	MPI_Request r, copy;
	int x = 1, y = 0, err;

	MPI_Irecv(&y, 1, MPI_INT, 0, 5, MPI_COMM_SELF, &r);
	copy = r;
	MPI_Send(&x, 1, MPI_INT, 0, 5, MPI_COMM_SELF);
	MPI_Wait(&r, MPI_STATUS_IGNORE);
	err = MPI_Wait(&copy, MPI_STATUS_IGNORE);
	return err;
}

static int one_test_garbage(void)
{
	MPI_Request r = (MPI_Request)(uintptr_t)0xdeadbeef;
	int flag;

	return MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
}

static int one_waitall_garbage(void)
{
	MPI_Request r[3] = { MPI_REQUEST_NULL, MPI_REQUEST_NULL,
			     (MPI_Request)(void *)&junk[16] };

	return MPI_Waitall(3, r, MPI_STATUSES_IGNORE);
}

static int one_comm_garbage(void)
{
	int x = 1;

	return MPI_Send(&x, 1, MPI_INT, 0, 0, (MPI_Comm)(void *)&junk[24]);
}

static int one_comm_freed(void)
{
	MPI_Comm c, copy;
	int x = 1;

	MPI_Comm_dup(MPI_COMM_SELF, &c);
	MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
	copy = c;
	MPI_Comm_free(&c);
	return MPI_Send(&x, 1, MPI_INT, 0, 0, copy);
}

static int one_type_garbage(void)
{
	int x = 1;

	return MPI_Send(&x, 1, (MPI_Datatype)(void *)&junk[32], 0, 0, MPI_COMM_SELF);
}

static int one_type_uncommitted(void)
{
	MPI_Datatype t;
	int x[2] = { 1, 2 }, err;

	MPI_Type_contiguous(2, MPI_INT, &t);
	err = MPI_Send(x, 1, t, 0, 0, MPI_COMM_SELF);
	MPI_Type_free(&t);
	return err;
}

static int one_type_freed(void)
{
	MPI_Datatype t, copy;
	int x[2] = { 1, 2 };

	MPI_Type_contiguous(2, MPI_INT, &t);
	MPI_Type_commit(&t);
	copy = t;
	MPI_Type_free(&t);
	return MPI_Send(x, 1, copy, 0, 0, MPI_COMM_SELF);
}

static int one_op_garbage(void)
{
	int x = 1, y;

	return MPI_Allreduce(&x, &y, 1, MPI_INT, (MPI_Op)(void *)&junk[40], MPI_COMM_SELF);
}

static int one_allreduce_alias(void)
{
	int x[4] = { 1, 2, 3, 4 };

	return MPI_Allreduce(x, x, 4, MPI_INT, MPI_SUM, MPI_COMM_SELF);
}

static int one_comm_size_null(void)
{
	return MPI_Comm_size(MPI_COMM_SELF, NULL);
}

static int one_group_garbage(void)
{
	int n;

	return MPI_Group_size((MPI_Group)(void *)&junk[48], &n);
}

static int one_keyval_kind(void)
{
	int key, err, v = 1;

	MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &key, NULL);
	err = MPI_Comm_set_attr(MPI_COMM_SELF, key, &v);
	MPI_Type_free_keyval(&key);
	return err;
}

/* ---- collectives whose members disagree, on comm ---- */

static int rank_of(MPI_Comm comm)
{
	int r;

	MPI_Comm_rank(comm, &r);
	return r;
}

static int coll_bcast_root(MPI_Comm comm)
{
	int x[10] = { 0 };

	return MPI_Bcast(x, 10, MPI_INT, rank_of(comm) % 2, comm);
}

static int coll_bcast_count(MPI_Comm comm)
{
	int x[10] = { 0 };

	return MPI_Bcast(x, rank_of(comm) ? 5 : 10, MPI_INT, 0, comm);
}

static int coll_allreduce_op(MPI_Comm comm)
{
	int x = 1, y;

	return MPI_Allreduce(&x, &y, 1, MPI_INT, rank_of(comm) ? MPI_MAX : MPI_SUM, comm);
}

static int coll_allreduce_type(MPI_Comm comm)
{
	int x[2] = { 1, 1 }, y[2];

	return MPI_Allreduce(x, y, 2, rank_of(comm) ? MPI_FLOAT : MPI_INT, MPI_SUM, comm);
}

static int coll_reduce_root(MPI_Comm comm)
{
	int x = 1, y;

	return MPI_Reduce(&x, &y, 1, MPI_INT, MPI_SUM, rank_of(comm) % 2, comm);
}

static int coll_barrier_bcast(MPI_Comm comm)
{
	int x = 0;

	if (rank_of(comm) == 0)
		return MPI_Barrier(comm);
	return MPI_Bcast(&x, 1, MPI_INT, 0, comm);
}

static int coll_gather_count(MPI_Comm comm)
{
	int x[2] = { 1, 2 }, all[64 * 2];
	int me = rank_of(comm);

	return MPI_Gather(x, me ? 2 : 1, MPI_INT, all, 1, MPI_INT, 0, comm);
}

static const struct coll_case {
	const char *name;
	int (*run)(MPI_Comm comm);
	int class;
} colls[] = {
	{ "bcast-root", coll_bcast_root, MPI_ERR_ROOT },
	{ "bcast-count", coll_bcast_count, MPI_ERR_COUNT },
	{ "allreduce-op", coll_allreduce_op, MPI_ERR_OP },
	{ "allreduce-type", coll_allreduce_type, MPI_ERR_TYPE },
	{ "reduce-root", coll_reduce_root, MPI_ERR_ROOT },
	{ "barrier-bcast", coll_barrier_bcast, MPI_ERR_OTHER },
	{ "gather-count", coll_gather_count, MPI_ERR_COUNT },
};

#define NCOLLS	(int)(sizeof colls / sizeof colls[0])

/* Under MPI_ERRORS_RETURN, on a duplicate of MPI_COMM_WORLD (unusable
 * for collectives after the error, so never used again). */
static void coll_return(const struct coll_case *c)
{
	MPI_Comm comm;
	char name[64];
	int err, cls = MPI_SUCCESS, hit, any;

	MPI_Comm_dup(MPI_COMM_WORLD, &comm);
	MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
	err = c->run(comm);
	if (err != MPI_SUCCESS)
		MPI_Error_class(err, &cls);
	if (cls != MPI_SUCCESS && cls != c->class)
		mpit_fail("%s: class %d, expected %d or success", c->name, cls, c->class);
	hit = cls == c->class;
	MPI_Allreduce(&hit, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	if (!any)
		mpit_fail("%s: no rank got class %d", c->name, c->class);
	snprintf(name, sizeof name, "errors_return_coll_%s", c->name);
	mpit_report(name);
}

/*
 * Every assignment of roots to the members (size^size of them) for each
 * rooted call, by value (one int per member) and by reference (ROOTS_BIG
 * ints, past the engine's 2 KiB by-value limit): every member gets
 * success or MPI_ERR_ROOT, some member MPI_ERR_ROOT exactly when two
 * members name different roots, and when they agree the data is right.
 * The rooted calls' extra looks (libsmap/coll/check.c) are what catch the
 * assignments where each member believes itself a non-root.
 */
#define ROOTS_BIG	1024
#define ROOTS_MAX	4	/* 4^4 assignments; larger worlds sweep their first 4 members' */

enum { R_GATHER, R_REDUCE, R_BCAST, R_SCATTER, R_CALLS };

static const char *const root_calls[R_CALLS] = { "gather", "reduce", "bcast", "scatter" };

/* One rooted call on comm with this member's root; 1 when the data is
 * right for an agreeing call. */
static int roots_call(int call, int count, int root, MPI_Comm comm, int *err)
{
	int me = rank_of(comm), n, ok = 1, *in, *out;

	MPI_Comm_size(comm, &n);
	in = malloc(sizeof(int) * (size_t)(count * n));
	out = malloc(sizeof(int) * (size_t)(count * n));
	for (int i = 0; i < count * n; i++) {
		in[i] = me == root ? 1000 * i + 7 : me + 1 + i;
		out[i] = -1;
	}
	switch (call) {
	case R_GATHER:
		*err = MPI_Gather(in, count, MPI_INT, out, count, MPI_INT, root, comm);
		for (int i = 0; me == root && *err == MPI_SUCCESS && i < count * n; i++)
			ok &= out[i] == (i / count == root ? 1000 * (i % count) + 7 :
					 i / count + 1 + i % count);
		break;
	case R_REDUCE:
		*err = MPI_Reduce(in, out, count, MPI_INT, MPI_SUM, root, comm);
		for (int i = 0; me == root && *err == MPI_SUCCESS && i < count; i++)
			ok &= out[i] == 1000 * i + 7 + (n * (n + 1) / 2 - (root + 1)) + (n - 1) * i;
		break;
	case R_BCAST:
		*err = MPI_Bcast(in, count, MPI_INT, root, comm);
		for (int i = 0; *err == MPI_SUCCESS && i < count; i++)
			ok &= in[i] == 1000 * i + 7;
		break;
	default:
		*err = MPI_Scatter(in, count, MPI_INT, out, count, MPI_INT, root, comm);
		for (int i = 0; *err == MPI_SUCCESS && i < count; i++)
			ok &= out[i] == 1000 * (me * count + i) + 7;
		break;
	}
	free(in);
	free(out);
	return ok;
}

static void coll_roots(void)
{
	int n = 0, m, combos = 1;

	MPI_Comm_size(MPI_COMM_WORLD, &n);
	m = n < ROOTS_MAX ? n : ROOTS_MAX;
	for (int i = 0; i < m; i++)
		combos *= m;
	for (int call = 0; call < R_CALLS; call++)
		for (int big = 0; big < 2; big++) {
			char name[64];

			for (int a = 0; a < combos; a++) {
				MPI_Comm comm;
				int me = rank_of(MPI_COMM_WORLD), root = 0, agree = 1, err, cls = MPI_SUCCESS;
				int mine[2], any[2];

				/* member i's root: digit i of a in base m (members past m: member 0's) */
				for (int i = 0, v = a, r0 = a % m; i < m; i++, v /= m) {
					if (i == me)
						root = v % m;
					agree &= v % m == r0;
				}
				if (me >= m)
					root = a % m;
				MPI_Comm_dup(MPI_COMM_WORLD, &comm);
				MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
				mine[1] = !roots_call(call, big ? ROOTS_BIG : 1, root, comm, &err);
				if (err != MPI_SUCCESS)
					MPI_Error_class(err, &cls);
				if (cls != MPI_SUCCESS && cls != MPI_ERR_ROOT)
					mpit_fail("%s roots %d: class %d", root_calls[call], a, cls);
				mine[0] = cls == MPI_ERR_ROOT;
				MPI_Allreduce(mine, any, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
				if (any[0] == agree)
					mpit_fail("%s of %d ints, roots %d (base %d, member 0 last): %s",
						  root_calls[call], big ? ROOTS_BIG : 1, a, m,
						  agree ? "MPI_ERR_ROOT though the roots agree"
							: "no member found the roots differ");
				if (agree && any[1])
					mpit_fail("%s roots %d: wrong data", root_calls[call], a);
				MPI_Comm_free(&comm);
			}
			snprintf(name, sizeof name, "errors_return_roots_%s_%s", root_calls[call],
				 big ? "by_reference" : "by_value");
			mpit_report(name);
		}
}

/* Packed data agrees with typed data of its bytes: no error, the data. */
static void coll_packed_agrees(void)
{
	int x[4] = { 0 }, err, pos = 0;
	char buf[64];

	if (rank_of(MPI_COMM_WORLD) == 0) {
		int v[4] = { 7, 8, 9, 10 };

		MPI_Pack(v, 4, MPI_INT, buf, sizeof buf, &pos, MPI_COMM_WORLD);
		err = MPI_Bcast(buf, pos, MPI_PACKED, 0, MPI_COMM_WORLD);
		x[3] = 10;
	} else {
		err = MPI_Bcast(x, 4, MPI_INT, 0, MPI_COMM_WORLD);
	}
	mpit_expect_int("MPI_Bcast of MPI_PACKED against MPI_INT", MPI_SUCCESS, err);
	mpit_expect_int("last int", 10, x[3]);
	mpit_report("coll_packed_matches_typed_data");
}

static const struct bad_case {
	const char *name;
	int (*run)(void);
	int class;
} cases[] = {
	{ "send-null", one_null_send, MPI_ERR_BUFFER },
	{ "recv-null", one_null_recv, MPI_ERR_BUFFER },
	{ "bcast-null", one_null_bcast, MPI_ERR_BUFFER },
	{ "allreduce-null", one_null_allreduce, MPI_ERR_BUFFER },
	{ "gatherv-null", one_gatherv_null, MPI_ERR_ARG },
	{ "alltoallv-negative", one_alltoallv_negative, MPI_ERR_COUNT },
	{ "wait-garbage", one_wait_garbage, MPI_ERR_REQUEST },
	{ "wait-freed", one_wait_freed, MPI_ERR_REQUEST },
	{ "test-garbage", one_test_garbage, MPI_ERR_REQUEST },
	{ "waitall-garbage", one_waitall_garbage, MPI_ERR_REQUEST },
	{ "comm-garbage", one_comm_garbage, MPI_ERR_COMM },
	{ "comm-freed", one_comm_freed, MPI_ERR_COMM },
	{ "type-garbage", one_type_garbage, MPI_ERR_TYPE },
	{ "type-uncommitted", one_type_uncommitted, MPI_ERR_TYPE },
	{ "type-freed", one_type_freed, MPI_ERR_TYPE },
	{ "op-garbage", one_op_garbage, MPI_ERR_OP },
	{ "allreduce-alias", one_allreduce_alias, MPI_ERR_BUFFER },
	{ "comm-size-null", one_comm_size_null, MPI_ERR_ARG },
	{ "group-garbage", one_group_garbage, MPI_ERR_GROUP },
	{ "keyval-kind", one_keyval_kind, MPI_ERR_KEYVAL },
};

#define NCASES	(int)(sizeof cases / sizeof cases[0])

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "return";
	int rank, i;

	for (i = 0; i < (int)sizeof junk / 8; i++)
		junk[i] = 0x5a5a5a5a5a5a5a5aull + i;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (!strcmp(mode, "return")) {
		MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
		MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
		for (i = 0; i < NCASES; i++) {
			char name[64];
			int err = cases[i].run(), cls = -1;

			if (err != MPI_SUCCESS)
				MPI_Error_class(err, &cls);
			mpit_expect_int(cases[i].name, cases[i].class, cls);
			snprintf(name, sizeof name, "errors_return_%s", cases[i].name);
			mpit_report(name);
		}
		coll_packed_agrees();
		for (i = 0; i < NCOLLS; i++)
			coll_return(&colls[i]);
		coll_roots();
		MPI_Finalize();
		return 0;
	}
	for (i = 0; i < NCOLLS; i++)
		if (!strcmp(colls[i].name, mode)) {
			colls[i].run(MPI_COMM_WORLD);
			printf("mpit_bad: %s returned under MPI_ERRORS_ARE_FATAL\n", mode);
			fflush(stdout);
			MPI_Finalize();
			return 0;
		}
	for (i = 0; i < NCASES && strcmp(cases[i].name, mode); i++)
		;
	if (i == NCASES) {
		fprintf(stderr, "mpit_bad: unknown case %s\n", mode);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	if (rank == 0) {
		cases[i].run();
		printf("mpit_bad: %s returned under MPI_ERRORS_ARE_FATAL\n", mode);
		fflush(stdout);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
