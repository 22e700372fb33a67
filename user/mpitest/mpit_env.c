/*
 * mpit_env.c - environment, error handling, groups and communicators:
 * error classes under ERRORS_RETURN, Error_string, Comm_dup/split/create/
 * compare, group algebra, attributes (MPI_TAG_UB and user keys), names,
 * Wtime, Comm_free with requests still pending.  Runs on any number of
 * ranks >= 2.
 */
#include <stdlib.h>
#include "mpit.h"

static int rank, size;

static void test_version_and_init(void)
{
	int v, sv, flag = 0, len;
	char name[MPI_MAX_PROCESSOR_NAME];

	MPI_Get_version(&v, &sv);
	mpit_expect_int("MPI_VERSION", MPI_VERSION, v);
	mpit_expect_int("major version at least 3", 1, v >= 3);
	MPI_Initialized(&flag);
	mpit_expect_int("Initialized", 1, flag);
	MPI_Get_processor_name(name, &len);
	mpit_expect_int("processor name length", (long long)strlen(name), len);
	mpit_report("env_version_initialized_processor_name");
}

/* Two ranks have the same processor name exactly when they share a node
 * (MPI_COMM_TYPE_SHARED): programs group node-mates by the name.  Across
 * host nodes (lwkrun --host --nodes) every rank once named the machine.
 * Every rank's name is also checked as text: non-empty, NUL-terminated
 * within MPI_MAX_PROCESSOR_NAME, resultlen its length, the same on a
 * second call. */
static void test_processor_name_is_the_node(void)
{
	char *names = calloc((size_t)size, MPI_MAX_PROCESSOR_NAME);
	char again[MPI_MAX_PROCESSOR_NAME];
	int *first = calloc((size_t)size, sizeof(int));
	int *lens = calloc((size_t)size, sizeof(int));
	int len, len2, mine = rank;
	MPI_Comm node;

	if (!names || !first || !lens) {
		mpit_fail("out of memory");
	} else {
		char *name = names + (size_t)rank * MPI_MAX_PROCESSOR_NAME;

		memset(names, 'x', (size_t)size * MPI_MAX_PROCESSOR_NAME);
		MPI_Get_processor_name(name, &len);
		MPI_Get_processor_name(again, &len2);
		if (len2 != len || strcmp(again, name))
			mpit_fail("a second call named '%s' (%d), the first '%s' (%d)", again, len2,
				  name, len);
		MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, names, MPI_MAX_PROCESSOR_NAME,
			      MPI_CHAR, MPI_COMM_WORLD);
		MPI_Allgather(&len, 1, MPI_INT, lens, 1, MPI_INT, MPI_COMM_WORLD);
		MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
		MPI_Bcast(&mine, 1, MPI_INT, 0, node);
		MPI_Comm_free(&node);
		MPI_Allgather(&mine, 1, MPI_INT, first, 1, MPI_INT, MPI_COMM_WORLD);
		for (int r = 0; r < size; r++) {
			const char *theirs = names + (size_t)r * MPI_MAX_PROCESSOR_NAME;
			size_t n = strnlen(theirs, MPI_MAX_PROCESSOR_NAME);

			if (n == 0 || n == MPI_MAX_PROCESSOR_NAME || (size_t)lens[r] != n) {
				mpit_fail("rank %d's name is %zu bytes long (%s) and it said %d", r, n,
					  n == MPI_MAX_PROCESSOR_NAME ? "no NUL" : "ends", lens[r]);
				continue;
			}
			if (!strcmp(theirs, name) != (first[r] == first[rank]))
				mpit_fail("rank %d is named '%s', this rank '%s', but %s a node", r,
					  theirs, name,
					  first[r] == first[rank] ? "they share" : "they do not share");
		}
	}
	free(names);
	free(first);
	free(lens);
	mpit_report("env_processor_name_names_the_node");
}

static void test_wtime(void)
{
	double t0 = MPI_Wtime(), t1, tick = MPI_Wtick();
	volatile double x = 0;

	for (int i = 0; i < 1000000; i++)
		x += i;
	t1 = MPI_Wtime();
	mpit_expect_int("Wtime increases", 1, t1 > t0);
	mpit_expect_int("Wtick positive and below a millisecond", 1, tick > 0 && tick < 1e-3);
	mpit_report("env_wtime_advances");
}

static void test_errors_return(void)
{
	int x = 0, err, cls, len;
	char msg[MPI_MAX_ERROR_STRING];

	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	err = MPI_Send(&x, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
	MPI_Error_class(err, &cls);
	mpit_expect_int("send to rank = size", MPI_ERR_RANK, cls);
	err = MPI_Send(&x, 1, MPI_INT, 0, -5, MPI_COMM_WORLD);
	MPI_Error_class(err, &cls);
	mpit_expect_int("negative tag", MPI_ERR_TAG, cls);
	err = MPI_Send(&x, -1, MPI_INT, 0, 0, MPI_COMM_WORLD);
	MPI_Error_class(err, &cls);
	mpit_expect_int("negative count", MPI_ERR_COUNT, cls);
	err = MPI_Send(&x, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD);
	MPI_Error_class(err, &cls);
	mpit_expect_int("null datatype", MPI_ERR_TYPE, cls);
	err = MPI_Bcast(&x, 1, MPI_INT, size + 3, MPI_COMM_WORLD);
	MPI_Error_class(err, &cls);
	mpit_expect_int("bad root", MPI_ERR_ROOT, cls);
	err = MPI_Allreduce(&x, &x, 1, MPI_DOUBLE, MPI_BAND, MPI_COMM_WORLD);
	MPI_Error_class(err, &cls);
	mpit_expect_int("BAND on double", MPI_ERR_OP, cls);
	err = MPI_Comm_size(MPI_COMM_NULL, &x);
	MPI_Error_class(err, &cls);
	mpit_expect_int("null communicator", MPI_ERR_COMM, cls);
	MPI_Error_string(MPI_ERR_TRUNCATE, msg, &len);
	mpit_expect_int("error string is text", 1, len > 0 && (int)strlen(msg) == len);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	mpit_report("env_errors_return_reports_the_class");
}

static int handler_calls, handler_code;

static void handler(MPI_Comm *c, int *code, ...)
{
	(void)c;
	handler_calls++;
	handler_code = *code;
}

static void test_user_errhandler(void)
{
	MPI_Errhandler h;
	MPI_Comm c;
	int x = 0, cls = -1;

	MPI_Comm_dup(MPI_COMM_WORLD, &c);
	MPI_Comm_create_errhandler(handler, &h);
	MPI_Comm_set_errhandler(c, h);
	MPI_Errhandler_free(&h);
	MPI_Send(&x, 1, MPI_INT, -7, 0, c);
	mpit_expect_int("handler called once", 1, handler_calls);
	MPI_Error_class(handler_code, &cls);
	mpit_expect_int("handler sees the code", MPI_ERR_RANK, cls);
	MPI_Comm_free(&c);
	mpit_report("env_user_error_handler_is_called");
}

static void test_comm_ops(void)
{
	MPI_Comm dup, split, created;
	MPI_Group world, odd, evens, u, inter;
	int res, r, n, x, i, *ranks = malloc(size * sizeof *ranks), k = 0;

	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	MPI_Comm_compare(MPI_COMM_WORLD, dup, &res);
	mpit_expect_int("dup is congruent", MPI_CONGRUENT, res);
	MPI_Comm_compare(dup, dup, &res);
	mpit_expect_int("same handle is ident", MPI_IDENT, res);
	/* Messages on the dup never match receives on world. */
	x = rank;
	MPI_Sendrecv_replace(&x, 1, MPI_INT, (rank + 1) % size, 0, (rank + size - 1) % size, 0,
			     dup, MPI_STATUS_IGNORE);
	mpit_expect_int("ring on dup", (rank + size - 1) % size, x);
	MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &split);
	MPI_Comm_size(split, &n);
	MPI_Comm_rank(split, &r);
	mpit_expect_int("split size", rank % 2 ? size / 2 : (size + 1) / 2, n);
	mpit_expect_int("split rank follows the key", (size - 1 - rank) / 2, r);
	MPI_Comm_compare(MPI_COMM_WORLD, split, &res);
	mpit_expect_int("split is unequal", MPI_UNEQUAL, res);
	MPI_Comm_group(MPI_COMM_WORLD, &world);
	for (i = 1; i < size; i += 2)
		ranks[k++] = i;
	MPI_Group_incl(world, k, ranks, &odd);
	MPI_Group_excl(world, k, ranks, &evens);
	MPI_Group_union(evens, odd, &u);
	MPI_Group_compare(u, world, &res);
	mpit_expect_int("evens then odds: similar to world (ident on 2 ranks)", size > 2 ? MPI_SIMILAR : MPI_IDENT, res);
	MPI_Group_intersection(evens, odd, &inter);
	MPI_Group_size(inter, &n);
	mpit_expect_int("evens and odds share nobody", 0, n);
	MPI_Group_translate_ranks(odd, 1, &(int){ 0 }, world, &x);
	mpit_expect_int("odd rank 0 is world rank 1", 1, x);
	MPI_Comm_create(MPI_COMM_WORLD, odd, &created);
	if (rank % 2) {
		MPI_Comm_rank(created, &r);
		mpit_expect_int("created comm rank", rank / 2, r);
		MPI_Comm_free(&created);
	} else {
		mpit_expect_int("non-member gets COMM_NULL", 1, created == MPI_COMM_NULL);
	}
	MPI_Group_free(&world);
	MPI_Group_free(&odd);
	MPI_Group_free(&evens);
	MPI_Group_free(&u);
	MPI_Group_free(&inter);
	MPI_Comm_free(&split);
	MPI_Comm_free(&dup);
	mpit_expect_int("free sets COMM_NULL", 1, dup == MPI_COMM_NULL);
	free(ranks);
	mpit_report("env_dup_split_create_compare_groups");
}

/*
 * MPI_Comm_free with requests pending on both sides: they complete
 * normally once their messages arrive (the receiver takes them after the
 * free), and a communicator made meanwhile gets a context of its own - a
 * message on it, with the tag of a receive still pending on the freed one,
 * goes to the new communicator's receive.  The pending receive is then
 * cancelled.  (MPICH 4.0 hands the context on at once: there the old
 * receive takes the new message and the job hangs.)
 */
static void test_comm_free_pending(void)
{
	int n = 50000, small = 0, other = 0, v = 0, flag = 0, i, bad = -1;
	int *big = malloc(n * sizeof *big);
	MPI_Request rq[3];
	MPI_Status st[3];
	MPI_Comm c, d;

	MPI_Comm_dup(MPI_COMM_WORLD, &c);
	if (rank == 0) {
		for (i = 0; i < n; i++)
			big[i] = i * 3;
		small = 77;
		MPI_Isend(big, n, MPI_INT, 1, 5, c, &rq[0]);
		MPI_Isend(&small, 1, MPI_INT, 1, 6, c, &rq[1]);
	} else if (rank == 1) {
		MPI_Irecv(big, n, MPI_INT, 0, 5, c, &rq[0]);
		MPI_Irecv(&small, 1, MPI_INT, 0, 6, c, &rq[1]);
		MPI_Irecv(&other, 1, MPI_INT, 0, 7, c, &rq[2]);
	}
	MPI_Comm_free(&c);
	mpit_expect_int("handle after Comm_free is MPI_COMM_NULL", 1, c == MPI_COMM_NULL);
	MPI_Comm_dup(MPI_COMM_WORLD, &d);
	if (rank == 0) {
		v = 99;
		MPI_Send(&v, 1, MPI_INT, 1, 7, d);
		MPI_Waitall(2, rq, st);
	} else if (rank == 1) {
		MPI_Recv(&v, 1, MPI_INT, 0, 7, d, MPI_STATUS_IGNORE);
		mpit_expect_int("message on the new communicator", 99, v);
		MPI_Waitall(2, rq, st);
		for (i = 0; i < n && bad < 0; i++)
			if (big[i] != i * 3)
				bad = i;
		mpit_expect_int("first wrong element of the large message", -1, bad);
		mpit_expect_int("large message's source", 0, st[0].MPI_SOURCE);
		mpit_expect_int("small message", 77, small);
		MPI_Test(&rq[2], &flag, &st[2]);
		mpit_expect_int("receive on the freed communicator matched", 0, flag);
		MPI_Cancel(&rq[2]);
		MPI_Wait(&rq[2], &st[2]);
		MPI_Test_cancelled(&st[2], &flag);
		mpit_expect_int("pending receive cancelled", 1, flag);
	}
	MPI_Comm_free(&d);
	free(big);
	mpit_report("env_comm_free_with_pending_requests_completes_them_and_keeps_its_context");
}

static void test_split_type(void)
{
	MPI_Comm shm;
	int n, lo, hi, sum, one = 1, first;

	/* One communicator per node: as many members on every node (the
	 * launchers start N per node), and together the whole job; on one
	 * node, everybody. */
	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &shm);
	MPI_Comm_size(shm, &n);
	MPI_Allreduce(&n, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	MPI_Allreduce(&n, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	mpit_expect_int("every node's communicator has the same size", lo, hi);
	mpit_expect_int("node communicators tile the job", 0, size % n);
	/* Its first member counts the nodes. */
	MPI_Comm_rank(shm, &first);
	first = first == 0;
	MPI_Allreduce(&first, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	mpit_expect_int("one node communicator per node", size / n, sum);
	MPI_Allreduce(MPI_IN_PLACE, &one, 1, MPI_INT, MPI_SUM, shm);
	mpit_expect_int("a node communicator reduces over its members", n, one);
	MPI_Comm_free(&shm);
	mpit_report("env_split_type_shared");
}

/* MPI 4.0's hardware-guided splits: "mpi_shared_memory" is the node, as
 * SHARED; a resource type nobody knows gives nothing; unguided gives the
 * next level below the whole (nodes, then single ranks). */
static void test_split_type_hw(void)
{
	MPI_Comm shm, hw, below;
	MPI_Info info;
	char v[64];
	int cmp = -1, n, flag = 0, nodes;

	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &shm);
	MPI_Comm_size(shm, &n);
	nodes = size / n;
	MPI_Info_create(&info);
	MPI_Info_set(info, "mpi_hw_resource_type", "mpi_shared_memory");
	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, rank, info, &hw);
	MPI_Comm_compare(shm, hw, &cmp);
	mpit_expect_int("mpi_shared_memory is the node", MPI_CONGRUENT, cmp);
	MPI_Info_free(&info);
	MPI_Comm_get_info(hw, &info);
	MPI_Info_get(info, "mpi_hw_resource_type", sizeof v - 1, v, &flag);
	mpit_expect_int("its info names it", 1, flag && !strcmp(v, "mpi_shared_memory"));
	MPI_Info_free(&info);
	MPI_Comm_free(&hw);
	MPI_Info_create(&info);
	MPI_Info_set(info, "mpi_hw_resource_type", "quantum_foam");
	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, rank, info, &hw);
	mpit_expect_int("an unknown resource gives MPI_COMM_NULL", 1, hw == MPI_COMM_NULL);
	MPI_Info_free(&info);
	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, rank, MPI_INFO_NULL, &hw);
	mpit_expect_int("no resource gives MPI_COMM_NULL", 1, hw == MPI_COMM_NULL);
	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_UNGUIDED, rank, MPI_INFO_NULL, &hw);
	if (nodes > 1) {
		MPI_Comm_compare(shm, hw, &cmp);
		mpit_expect_int("below several nodes: the nodes", MPI_CONGRUENT, cmp);
	} else if (size > 1) {
		MPI_Comm_size(hw, &n);
		mpit_expect_int("below one node: single ranks", 1, n);
	} else {
		mpit_expect_int("below one rank: nothing", 1, hw == MPI_COMM_NULL);
	}
	if (hw != MPI_COMM_NULL) {
		MPI_Comm_split_type(hw, MPI_COMM_TYPE_HW_UNGUIDED, rank, MPI_INFO_NULL, &below);
		MPI_Comm_size(hw, &n);
		mpit_expect_int("and below that, less", 1, n > 1 ? below != MPI_COMM_NULL :
				below == MPI_COMM_NULL);
		if (below != MPI_COMM_NULL)
			MPI_Comm_free(&below);
		MPI_Comm_free(&hw);
	}
	MPI_Comm_free(&shm);
	mpit_report("env_split_type_hw_guided_and_unguided");
}

static int type_copied(MPI_Datatype t, int key, void *extra, void *in, void *out, int *flag)
{
	return MPI_TYPE_DUP_FN(t, key, extra, in, out, flag);
}

/* Predefined names a program may take for granted: MPI_TYPE_DUP_FN, MPI
 * 4.0's MPI_ERRORS_ABORT, error classes and mpi_f08 status conversions. */
static void test_predefined_names(void)
{
	static int val = 42;
	MPI_Datatype t, t2;
	MPI_Errhandler e;
	MPI_Comm dup;
	MPI_Status st = { 0 }, back;
	MPI_F08_status f08;
	MPI_Fint f[MPI_F_STATUS_SIZE];
	char msg[MPI_MAX_ERROR_STRING];
	int key, flag = 0, len, *got = NULL;

	MPI_Type_create_keyval(type_copied, MPI_TYPE_NULL_DELETE_FN, &key, NULL);
	MPI_Type_contiguous(2, MPI_INT, &t);
	MPI_Type_set_attr(t, key, &val);
	MPI_Type_dup(t, &t2);
	MPI_Type_get_attr(t2, key, &got, &flag);
	mpit_expect_int("MPI_TYPE_DUP_FN copies the value", 1, flag && got == &val);
	MPI_Type_free(&t2);
	MPI_Type_free(&t);
	MPI_Type_free_keyval(&key);
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	MPI_Comm_set_errhandler(dup, MPI_ERRORS_ABORT);
	MPI_Comm_get_errhandler(dup, &e);
	mpit_expect_int("MPI_ERRORS_ABORT set and got", 1,
			e == MPI_ERRORS_ABORT && e != MPI_ERRORS_ARE_FATAL);
	MPI_Errhandler_free(&e);
	MPI_Comm_free(&dup);
	MPI_Error_string(MPI_ERR_VALUE_TOO_LARGE, msg, &len);
	mpit_expect_int("MPI 4.0 classes have text", 1,
			len > 0 && MPI_ERR_LASTCODE >= MPI_T_ERR_NOT_SUPPORTED);
	st.MPI_SOURCE = 3;
	st.MPI_TAG = 77;
	MPI_Status_c2f08(&st, &f08);
	MPI_Status_f082f(&f08, f);
	MPI_Status_f082c(&f08, &back);
	mpit_expect_int("f08 status source", 3, f08.MPI_SOURCE);
	mpit_expect_int("Fortran status tag at MPI_F_TAG", 77, f[MPI_F_TAG]);
	mpit_expect_int("round trip", 77, back.MPI_TAG);
	mpit_report("env_predefined_names_type_dup_fn_errors_abort_f08_status");
}

static int deleted;

static int del_fn(MPI_Comm c, int key, void *val, void *extra)
{
	(void)c;
	(void)key;
	(void)extra;
	deleted += *(int *)val;
	return MPI_SUCCESS;
}

static void test_attributes(void)
{
	int *ub, flag = 0, key, val = 5, *got;
	MPI_Comm dup;
	char name[MPI_MAX_OBJECT_NAME];
	int len;

	MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
	mpit_expect_int("TAG_UB present", 1, flag);
	mpit_expect_int("TAG_UB at least 32767", 1, *ub >= 32767);
	MPI_Comm_create_keyval(MPI_COMM_DUP_FN, del_fn, &key, NULL);
	MPI_Comm_set_attr(MPI_COMM_WORLD, key, &val);
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	MPI_Comm_get_attr(dup, key, &got, &flag);
	mpit_expect_int("attribute copied by dup", 1, flag && got == &val);
	MPI_Comm_free(&dup);
	mpit_expect_int("delete callback on free", 5, deleted);
	MPI_Comm_delete_attr(MPI_COMM_WORLD, key);
	MPI_Comm_get_attr(MPI_COMM_WORLD, key, &got, &flag);
	mpit_expect_int("attribute gone", 0, flag);
	MPI_Comm_free_keyval(&key);
	/* A keyval freed while an attribute uses it lives on for that one. */
	MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del_fn, &key, NULL);
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	MPI_Comm_set_attr(dup, key, &val);
	MPI_Comm_free_keyval(&key);
	MPI_Comm_free(&dup);
	mpit_expect_int("delete callback of a freed keyval on free", 15, deleted);
	MPI_Comm_get_name(MPI_COMM_WORLD, name, &len);
	if (strcmp(name, "MPI_COMM_WORLD"))
		mpit_fail("world's name: got '%s'", name);
	MPI_Comm_set_name(MPI_COMM_SELF, "me");
	MPI_Comm_get_name(MPI_COMM_SELF, name, &len);
	mpit_expect_int("renamed self", 2, len);
	mpit_report("env_attributes_and_names");
}

static int fail_fn(MPI_Comm c, int key, void *val, void *extra)
{
	(void)c;
	(void)key;
	(void)val;
	return *(int *)extra ? MPI_ERR_OTHER : MPI_SUCCESS;
}

static int copy_fail_fn(MPI_Comm c, int key, void *extra, void *in, void *out, int *flag)
{
	(void)c;
	(void)key;
	(void)extra;
	*(void **)out = in;
	*flag = 1;
	return MPI_ERR_OTHER;
}

static int type_copy_fail_fn(MPI_Datatype t, int key, void *extra, void *in, void *out,
			     int *flag)
{
	(void)t;
	return copy_fail_fn(MPI_COMM_NULL, key, extra, in, out, flag);
}

static int free_own_keyval_fn(MPI_Comm c, int key, void *val, void *extra)
{
	(void)c;
	(void)val;
	(void)extra;
	return MPI_Comm_free_keyval(&key);
}

/* MPI 3.1 section 6.7: a keyval lives while an attribute uses it, freeing
 * it again then is harmless, and a callback's error fails its call. */
static void test_attribute_lifetimes_and_errors(void)
{
	int key, saved, key2, val = 1, *got, flag = -1, failing = 1, cls;
	MPI_Comm dup = MPI_COMM_SELF;
	MPI_Datatype t = MPI_INT, tdup = MPI_INT;

	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, free_own_keyval_fn, &key, NULL);
	saved = key;
	MPI_Comm_set_attr(MPI_COMM_WORLD, key, &val);
	mpit_expect_int("free a keyval in use", MPI_SUCCESS, MPI_Comm_free_keyval(&key));
	mpit_expect_int("freeing it sets KEYVAL_INVALID", MPI_KEYVAL_INVALID, key);
	key = saved;
	mpit_expect_int("free it again while in use", MPI_SUCCESS, MPI_Comm_free_keyval(&key));
	MPI_Comm_get_attr(MPI_COMM_WORLD, saved, &got, &flag);
	mpit_expect_int("its attribute is still there", 1, flag == 1 && got == &val);
	mpit_expect_int("delete it (the callback frees the keyval too)", MPI_SUCCESS,
			MPI_Comm_delete_attr(MPI_COMM_WORLD, saved));
	MPI_Error_class(MPI_Comm_get_attr(MPI_COMM_WORLD, saved, &got, &flag), &cls);
	mpit_expect_int("then the keyval is gone", MPI_ERR_KEYVAL, cls);

	MPI_Comm_create_keyval(copy_fail_fn, fail_fn, &key, &failing);
	MPI_Comm_set_attr(MPI_COMM_WORLD, key, &val);
	MPI_Error_class(MPI_Comm_set_attr(MPI_COMM_WORLD, key, &flag), &cls);
	mpit_expect_int("a failing delete callback fails set_attr", MPI_ERR_OTHER, cls);
	MPI_Error_class(MPI_Comm_delete_attr(MPI_COMM_WORLD, key), &cls);
	mpit_expect_int("and delete_attr", MPI_ERR_OTHER, cls);
	MPI_Comm_get_attr(MPI_COMM_WORLD, key, &got, &flag);
	mpit_expect_int("which keeps the attribute", 1, flag == 1 && got == &val);
	MPI_Error_class(MPI_Comm_dup(MPI_COMM_WORLD, &dup), &cls);
	mpit_expect_int("a failing copy callback fails Comm_dup", MPI_ERR_OTHER, cls);
	mpit_expect_int("leaving MPI_COMM_NULL", 1, dup == MPI_COMM_NULL);
	failing = 0;
	MPI_Comm_delete_attr(MPI_COMM_WORLD, key);
	MPI_Comm_free_keyval(&key);

	MPI_Type_contiguous(2, MPI_INT, &t);
	MPI_Type_create_keyval(type_copy_fail_fn, MPI_TYPE_NULL_DELETE_FN, &key2, NULL);
	MPI_Type_set_attr(t, key2, &val);
	MPI_Type_free_keyval(&key2);
	MPI_Error_class(MPI_Type_dup(t, &tdup), &cls);
	mpit_expect_int("a failing copy callback fails Type_dup", MPI_ERR_OTHER, cls);
	mpit_expect_int("leaving MPI_DATATYPE_NULL", 1, tdup == MPI_DATATYPE_NULL);
	MPI_Type_free(&t);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	mpit_report("env_attribute_lifetimes_and_callback_errors");
}

static void test_self_comm(void)
{
	int n, r, x = 3, y = 0;

	MPI_Comm_size(MPI_COMM_SELF, &n);
	MPI_Comm_rank(MPI_COMM_SELF, &r);
	mpit_expect_int("self size", 1, n);
	mpit_expect_int("self rank", 0, r);
	MPI_Sendrecv(&x, 1, MPI_INT, 0, 1, &y, 1, MPI_INT, 0, 1, MPI_COMM_SELF, MPI_STATUS_IGNORE);
	mpit_expect_int("message to self on COMM_SELF", 3, y);
	MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF);
	mpit_expect_int("allreduce on COMM_SELF", 3, y);
	mpit_report("env_comm_self");
}

static void test_alloc_mem(void)
{
	double *p = NULL;

	MPI_Alloc_mem(1 << 20, MPI_INFO_NULL, &p);
	mpit_expect_int("Alloc_mem gives memory", 1, p != NULL);
	p[0] = 1;
	p[(1 << 17) - 1] = 2;
	MPI_Free_mem(p);
	mpit_report("env_alloc_mem");
}

int main(int argc, char **argv)
{
	int provided, flag = 1;

	MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	mpit_expect_int("thread level provided", 1, provided >= MPI_THREAD_SINGLE);
	mpit_report("env_init_thread");
	test_version_and_init();
	test_processor_name_is_the_node();
	test_wtime();
	test_errors_return();
	test_user_errhandler();
	test_comm_ops();
	test_comm_free_pending();
	test_split_type();
	test_split_type_hw();
	test_predefined_names();
	test_attributes();
	test_attribute_lifetimes_and_errors();
	test_self_comm();
	test_alloc_mem();
	MPI_Finalize();
	MPI_Finalized(&flag);
	if (rank == 0)
		printf("%s env_finalized\n", flag ? "ok" : "not ok");
	return 0;
}
