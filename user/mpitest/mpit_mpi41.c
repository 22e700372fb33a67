/*
 * mpit_mpi41.c - the functions MPI 4.1 added: status field accessors, the
 * non-destructive request tests over arrays, MPI_Type_get_value_index,
 * removing error classes, codes and strings, the hardware resource info,
 * and buffered sends through the process's, a communicator's and a
 * session's buffer (flushes, MPI_BUFFER_AUTOMATIC, a full buffer).  Runs
 * on any number of ranks and nodes.
 */
#include <stdlib.h>
#include "mpit.h"

static int rank, size, next, prev;

static int class_of(int err)
{
	int cls;

	MPI_Error_class(err, &cls);
	return cls;
}

static void status_accessors(void)
{
	MPI_Status st;
	int v = 0;

	MPI_Status_set_source(&st, 3);
	MPI_Status_set_tag(&st, 77);
	MPI_Status_set_error(&st, MPI_ERR_TAG);
	mpit_expect_int("source field", 3, st.MPI_SOURCE);
	MPI_Status_get_source(&st, &v);
	mpit_expect_int("get_source", 3, v);
	MPI_Status_get_tag(&st, &v);
	mpit_expect_int("get_tag", 77, v);
	MPI_Status_get_error(&st, &v);
	mpit_expect_int("get_error", MPI_ERR_TAG, v);
	mpit_expect_int("NULL status is MPI_ERR_ARG", MPI_ERR_ARG,
			class_of(MPI_Status_get_tag(NULL, &v)));
	mpit_report("mpi41_status_get_set_source_tag_error");
}

static int queried;

static int count_query(void *extra, MPI_Status *st)
{
	(void)extra;
	queried++;
	MPI_Status_set_source(st, 5);
	return MPI_SUCCESS;
}

static int no_free(void *extra)
{
	(void)extra;
	return MPI_SUCCESS;
}

static int no_cancel(void *extra, int complete)
{
	(void)extra;
	(void)complete;
	return MPI_SUCCESS;
}

/* Requests tested in place: none is freed or made inactive. */
static void request_get_status_arrays(void)
{
	MPI_Request r[3];
	MPI_Status st[3], one;
	int got = -1, flag = -1, index = -2, out = -2, idx[3], want = prev * 10;

	MPI_Irecv(&got, 1, MPI_INT, prev, 41, MPI_COMM_WORLD, &r[0]);
	r[1] = MPI_REQUEST_NULL;
	MPI_Grequest_start(count_query, no_free, no_cancel, NULL, &r[2]);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Request_get_status_all(3, r, &flag, st);
	mpit_expect_int("all before the send", 0, flag);
	MPI_Request_get_status_any(1, r, &index, &flag, &one);
	mpit_expect_int("any before the send", 0, flag);
	mpit_expect_int("any's index before the send", MPI_UNDEFINED, index);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Send((int[]){ rank * 10 }, 1, MPI_INT, next, 41, MPI_COMM_WORLD);
	MPI_Grequest_complete(r[2]);
	do
		MPI_Request_get_status_all(3, r, &flag, st);
	while (!flag);
	mpit_expect_int("all: the receive's source", prev, st[0].MPI_SOURCE);
	mpit_expect_int("all: the receive's tag", 41, st[0].MPI_TAG);
	mpit_expect_int("all: the null request's source", MPI_ANY_SOURCE, st[1].MPI_SOURCE);
	mpit_expect_int("all: the generalized request's query", 5, st[2].MPI_SOURCE);
	mpit_expect_int("all: data", want, got);
	MPI_Request_get_status_any(3, r, &index, &flag, &one);
	mpit_expect_int("any: flag", 1, flag);
	mpit_expect_int("any: first done", 0, index);
	MPI_Request_get_status_some(3, r, &out, idx, st);
	mpit_expect_int("some: both active ones", 2, out);
	mpit_expect_int("some: the second", 2, idx[1]);
	mpit_expect_int("some: its status", 5, st[1].MPI_SOURCE);
	mpit_expect_int("still active", 1, r[0] != MPI_REQUEST_NULL && r[2] != MPI_REQUEST_NULL);
	mpit_expect_int("query ran at each look at it done", 2, queried);
	MPI_Waitall(3, r, MPI_STATUSES_IGNORE);
	MPI_Request_get_status_any(3, r, &index, &flag, &one);
	mpit_expect_int("any of none active: flag", 1, flag);
	mpit_expect_int("any of none active: index", MPI_UNDEFINED, index);
	MPI_Request_get_status_some(3, r, &out, idx, MPI_STATUSES_IGNORE);
	mpit_expect_int("some of none active", MPI_UNDEFINED, out);
	mpit_report("mpi41_request_get_status_all_any_some");
}

static void value_index(void)
{
	MPI_Datatype t = MPI_DATATYPE_NULL;

	MPI_Type_get_value_index(MPI_DOUBLE, MPI_INT, &t);
	mpit_expect_int("double,int", 1, t == MPI_DOUBLE_INT);
	MPI_Type_get_value_index(MPI_INT, MPI_INT, &t);
	mpit_expect_int("int,int", 1, t == MPI_2INT);
	MPI_Type_get_value_index(MPI_LONG_DOUBLE, MPI_INT, &t);
	mpit_expect_int("long double,int", 1, t == MPI_LONG_DOUBLE_INT);
	MPI_Type_get_value_index(MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, &t);
	mpit_expect_int("2 double precision", 1, t == MPI_2DOUBLE_PRECISION);
	MPI_Type_get_value_index(MPI_CHAR, MPI_INT, &t);
	mpit_expect_int("char,int has none", 1, t == MPI_DATATYPE_NULL);
	mpit_report("mpi41_type_get_value_index");
}

static void remove_errors(void)
{
	int cls, code, got, len;
	char s[MPI_MAX_ERROR_STRING];

	MPI_Add_error_class(&cls);
	MPI_Add_error_code(cls, &code);
	MPI_Add_error_string(code, "a code to remove");
	mpit_expect_int("a class with a code stays", MPI_ERR_ARG,
			class_of(MPI_Remove_error_class(cls)));
	MPI_Remove_error_string(code);
	MPI_Error_string(code, s, &len);
	mpit_expect_int("the string is gone", 0, len);
	mpit_expect_int("remove the code", MPI_SUCCESS, MPI_Remove_error_code(code));
	mpit_expect_int("the code is gone", 1, MPI_Error_class(code, &got) != MPI_SUCCESS);
	mpit_expect_int("remove the class", MPI_SUCCESS, MPI_Remove_error_class(cls));
	mpit_expect_int("a predefined class stays", MPI_ERR_ARG,
			class_of(MPI_Remove_error_class(MPI_ERR_TAG)));
	mpit_report("mpi41_remove_error_class_code_string");
}

static void hw_info(void)
{
	MPI_Info info;
	char v[MPI_MAX_INFO_VAL + 1];
	int flag = 0;

	MPI_Get_hw_resource_info(&info);
	MPI_Info_get(info, "mpi_hw_resource_type", MPI_MAX_INFO_VAL, v, &flag);
	mpit_expect_int("mpi_hw_resource_type", 1, flag && !strcmp(v, "mpi_shared_memory"));
	MPI_Info_free(&info);
	mpit_report("mpi41_get_hw_resource_info");
}

#define MSG	10000

/* MPICH's bsend_iflush: the buffer holds one message; a second buffered
 * send fails at once (it is local), an iflush completes once the first
 * has been received, and then there is room. */
static void buffer_full_then_iflush(void)
{
	static char out[MSG], in[MSG];
	int n = MPI_BSEND_OVERHEAD + MSG, bsize = 0;
	char *buf = malloc((size_t)n);
	void *back = NULL;
	MPI_Request req;

	MPI_Buffer_attach(buf, n);
	mpit_expect_int("first Bsend", MPI_SUCCESS,
			MPI_Bsend(out, MSG, MPI_BYTE, rank, 1, MPI_COMM_WORLD));
	mpit_expect_int("second Bsend: MPI_ERR_BUFFER", MPI_ERR_BUFFER,
			class_of(MPI_Bsend(out, MSG, MPI_BYTE, rank, 1, MPI_COMM_WORLD)));
	MPI_Buffer_iflush(&req);
	MPI_Recv(in, MSG, MPI_BYTE, rank, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	mpit_expect_int("Bsend after the flush", MPI_SUCCESS,
			MPI_Bsend(out, MSG, MPI_BYTE, rank, 1, MPI_COMM_WORLD));
	MPI_Recv(in, MSG, MPI_BYTE, rank, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Buffer_flush();
	MPI_Buffer_detach(&back, &bsize);
	mpit_expect_int("detach gives the buffer", 1, back == buf && bsize == n);
	free(buf);
	mpit_report("mpi41_buffer_full_fails_iflush_frees");
}

/* Many messages in flight to the next rank: the library finds the room. */
static void buffer_automatic(void)
{
	enum { N = 64 };
	static int data[N][256], got[N][256];
	void *back = NULL;
	int i, j, bsize = -1;

	MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, 0);
	for (i = 0; i < N; i++) {
		for (j = 0; j < 256; j++)
			data[i][j] = rank * 100000 + i * 256 + j;
		MPI_Bsend(data[i], 256, MPI_INT, next, 2, MPI_COMM_WORLD);
	}
	for (i = 0; i < N; i++)
		MPI_Recv(got[i], 256, MPI_INT, prev, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	mpit_expect_int("last value", prev * 100000 + N * 256 - 1, got[N - 1][255]);
	MPI_Buffer_flush();
	MPI_Buffer_detach(&back, &bsize);
	mpit_expect_int("detach gives MPI_BUFFER_AUTOMATIC", 1, back == MPI_BUFFER_AUTOMATIC);
	mpit_expect_int("and size 0", 0, bsize);
	mpit_report("mpi41_buffer_automatic");
}

/* A communicator's own buffer: used by its buffered sends only. */
static void comm_buffer(void)
{
	MPI_Comm dup;
	MPI_Request req;
	int n = 4 * (MPI_BSEND_OVERHEAD + 64), v = rank, got = -1, bsize = 0;
	char *buf = malloc((size_t)n);
	void *back = NULL;

	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	MPI_Comm_attach_buffer(dup, buf, n);
	mpit_expect_int("world has no buffer", MPI_ERR_BUFFER,
			class_of(MPI_Bsend(&v, 1, MPI_INT, next, 3, MPI_COMM_WORLD)));
	mpit_expect_int("the dup's Bsend", MPI_SUCCESS, MPI_Bsend(&v, 1, MPI_INT, next, 3, dup));
	MPI_Comm_iflush_buffer(dup, &req);
	MPI_Recv(&got, 1, MPI_INT, prev, 3, dup, MPI_STATUS_IGNORE);
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	mpit_expect_int("value", prev, got);
	MPI_Comm_flush_buffer(dup);
	MPI_Comm_detach_buffer(dup, &back, &bsize);
	mpit_expect_int("detach gives it back", 1, back == buf && bsize == n);
	mpit_expect_int("a second detach gives none", MPI_SUCCESS,
			MPI_Comm_detach_buffer(dup, &back, &bsize));
	mpit_expect_int("none", 1, back == NULL && bsize == 0);
	MPI_Comm_free(&dup);
	free(buf);
	mpit_report("mpi41_comm_attach_detach_flush_buffer");
}

/* A session's buffer serves the communicators made from its groups, and
 * theirs derived from them. */
static void session_buffer(void)
{
	MPI_Session s;
	MPI_Group g;
	MPI_Comm c, d;
	MPI_Request req;
	int n = 4 * (MPI_BSEND_OVERHEAD + 64), v = rank, got = -1, bsize = 0, srank = 0, ssize;
	char *buf = malloc((size_t)n);
	void *back = NULL;

	MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s);
	MPI_Group_from_session_pset(s, "mpi://WORLD", &g);
	MPI_Comm_create_from_group(g, "mpit_mpi41", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c);
	MPI_Comm_rank(c, &srank);
	MPI_Comm_size(c, &ssize);
	mpit_expect_int("without a buffer", MPI_ERR_BUFFER,
			class_of(MPI_Bsend(&v, 1, MPI_INT, (srank + 1) % ssize, 4, c)));
	MPI_Session_attach_buffer(s, buf, n);
	mpit_expect_int("the session's buffer", MPI_SUCCESS,
			MPI_Bsend(&v, 1, MPI_INT, (srank + 1) % ssize, 4, c));
	MPI_Recv(&got, 1, MPI_INT, (srank + ssize - 1) % ssize, 4, c, MPI_STATUS_IGNORE);
	mpit_expect_int("value", prev, got);
	MPI_Comm_dup(c, &d);
	mpit_expect_int("a dup's Bsend uses it too", MPI_SUCCESS,
			MPI_Bsend(&v, 1, MPI_INT, (srank + 1) % ssize, 5, d));
	MPI_Session_iflush_buffer(s, &req);
	MPI_Recv(&got, 1, MPI_INT, (srank + ssize - 1) % ssize, 5, d, MPI_STATUS_IGNORE);
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	MPI_Session_flush_buffer(s);
	MPI_Session_detach_buffer(s, &back, &bsize);
	mpit_expect_int("detach gives it back", 1, back == buf && bsize == n);
	MPI_Comm_free(&d);
	MPI_Comm_free(&c);
	MPI_Group_free(&g);
	MPI_Session_finalize(&s);
	free(buf);
	mpit_report("mpi41_session_attach_detach_flush_buffer");
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	next = (rank + 1) % size;
	prev = (rank + size - 1) % size;
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

	status_accessors();
	request_get_status_arrays();
	value_index();
	remove_errors();
	hw_info();
	buffer_full_then_iflush();
	buffer_automatic();
	comm_buffer();
	session_buffer();
	MPI_Finalize();
	return 0;
}
