/*
 * mprobe.c - matched probes (MPI_Mprobe, Improbe, Mrecv, Imrecv).
 *
 * A matched probe must take the message it reports out of matching, so
 * that no other receive can have it.  Here the probe receives it at once,
 * as bytes, into a buffer of the message's size: the receive names the
 * probed message's source and tag on the same communicator, and messages
 * from one source are matched in order, so it is that message and no
 * other, whether it came through SMARTMAP or the network.  MPI_Mrecv then
 * unpacks the bytes with the caller's datatype (the bytes of a typed
 * message are its elements in order, as MPI_Pack lays them out), and
 * MPI_Imrecv completes at once.  The cost is one extra copy of the
 * message, paid by the matched-probe calls only.
 */
#include <stdlib.h>
#include <string.h>
#include "impl.h"

#define SMPI_LIVE_MSG	0x2067736du	/* "msg " */

struct smpi_message {
	uint32_t live;
	MPI_Comm comm;
	MPI_Status status;	/* source, tag and bytes of the message */
	char *data;
};

/* What a probe of MPI_PROC_NULL returns: Mrecv on it receives nothing. */
struct smpi_message smpi_message_no_proc = {
	.live = SMPI_LIVE_MSG,
	.status = { .MPI_SOURCE = MPI_PROC_NULL, .MPI_TAG = MPI_ANY_TAG },
};

static int msg_take(MPI_Comm comm, MPI_Message *message, MPI_Status *status,
		    const MPI_Status *probed, const char *fn)
{
	struct smpi_message *m = malloc(sizeof *m);
	MPI_Status st;
	int64_t bytes = probed->smpi_bytes;

	if (!m || !(m->data = malloc(bytes ? (size_t)bytes : 1))) {
		free(m);
		return smpi_err(comm, MPI_ERR_NO_MEM, fn, "no memory for a message of %lld bytes",
				(long long)bytes);
	}
	smpi_p2p_recv(m->data, bytes, MPI_BYTE, probed->MPI_SOURCE, probed->MPI_TAG, comm,
		      comm->ctx, &st);
	m->live = SMPI_LIVE_MSG;
	m->comm = comm;
	m->status = st;
	smpi_comm_hold(comm);
	*message = m;
	if (status != MPI_STATUS_IGNORE)
		*status = st;
	return MPI_SUCCESS;
}

static int msg_probe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
		     MPI_Status *status, int block, const char *fn)
{
	unsigned spins = 0;
	MPI_Status st;
	int err;

	core_call = fn;
	if ((err = smpi_check_init(fn)) || (err = smpi_comm_check(comm, fn)))
		return err;
	if ((unsigned)source >= (unsigned)comm->size && source != MPI_ANY_SOURCE &&
	    source != MPI_PROC_NULL)
		return smpi_err(comm, MPI_ERR_RANK, fn, "source %d of a communicator of %d ranks",
				source, comm->size);
	if (tag < 0 && tag != MPI_ANY_TAG)
		return smpi_err(comm, MPI_ERR_TAG, fn, "tag %d is not valid", tag);
	if (!message || (!block && !flag))
		return smpi_err(comm, MPI_ERR_ARG, fn, "message or flag pointer is NULL");
	if (source == MPI_PROC_NULL) {
		if (flag)
			*flag = 1;
		*message = &smpi_message_no_proc;
		if (status != MPI_STATUS_IGNORE)
			smpi_status_set(status, MPI_PROC_NULL, MPI_ANY_TAG, MPI_SUCCESS, 0);
		return MPI_SUCCESS;
	}
	while (!smpi_p2p_probe(comm, source, tag, &st)) {
		if (!block) {
			*flag = 0;
			*message = MPI_MESSAGE_NULL;
			core_poll(0);
			return MPI_SUCCESS;
		}
		smpi_spin(&spins);
	}
	if (flag)
		*flag = 1;
	core_poll(1);
	return msg_take(comm, message, status, &st, fn);
}

int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
	int kept = smpi_status_error(status);

	return smpi_status_keep(status, kept, msg_probe(source, tag, comm, NULL, message, status,
							1, "MPI_Mprobe"));
}

int PMPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
		 MPI_Status *status)
{
	int kept = smpi_status_error(status);

	return smpi_status_keep(status, kept, msg_probe(source, tag, comm, flag, message, status,
							0, "MPI_Improbe"));
}

/* Receives *message into buf and frees it; *st gets the status. */
static int msg_recv(void *buf, int count, MPI_Datatype type, MPI_Message *message,
		    MPI_Status *st, const char *fn)
{
	struct smpi_message *m;
	MPI_Comm comm;
	int64_t cap, bytes, total;
	int err, pos = 0;

	if ((err = smpi_check_init(fn)))
		return err;
	if (!message)
		return smpi_err(NULL, MPI_ERR_ARG, fn, "message pointer is NULL");
	m = *message;
	if (m == MPI_MESSAGE_NULL || !smpi_in_region(m, sizeof *m) || m->live != SMPI_LIVE_MSG)
		return smpi_err(NULL, MPI_ERR_REQUEST, fn,
				"message %p is not a matched message (already received?)", (void *)m);
	if (m == &smpi_message_no_proc) {
		*st = m->status;
		st->smpi_bytes = 0;
		*message = MPI_MESSAGE_NULL;
		return MPI_SUCCESS;
	}
	comm = m->comm;
	if (count < 0)
		return smpi_err(comm, MPI_ERR_COUNT, fn, "count %d is negative", count);
	if ((err = smpi_type_check(comm, type, fn)) ||
	    (err = smpi_buf_check(comm, buf, count, type, fn)))
		return err;
	cap = (int64_t)count * smpi_type_size(type);
	total = m->status.smpi_bytes;
	bytes = total < cap ? total : cap;
	*st = m->status;
	if (bytes > 0)
		err = PMPI_Unpack(m->data, (int)bytes, &pos, buf,
				  (int)(bytes / smpi_type_size(type)), type, comm);
	*message = MPI_MESSAGE_NULL;
	m->live = 0;
	free(m->data);
	free(m);
	if (!err && total > cap) {
		st->smpi_bytes = bytes;
		st->MPI_ERROR = MPI_ERR_TRUNCATE;
		err = smpi_err(comm, MPI_ERR_TRUNCATE, fn,
			       "message of %lld bytes, receive buffer of %lld", (long long)total,
			       (long long)cap);
	}
	smpi_comm_release(comm);
	return err;
}

static int mrecv_one(void *buf, int count, MPI_Datatype type, MPI_Message *message,
		     MPI_Status *status)
{
	MPI_Status st = { .MPI_ERROR = MPI_SUCCESS };
	int err = msg_recv(buf, count, type, message, &st, "MPI_Mrecv");

	if (status != MPI_STATUS_IGNORE)
		*status = st;
	return err;
}

int PMPI_Mrecv(void *buf, int count, MPI_Datatype type, MPI_Message *message,
	       MPI_Status *status)
{
	int kept = smpi_status_error(status);

	return smpi_status_keep(status, kept, mrecv_one(buf, count, type, message, status));
}

int PMPI_Imrecv(void *buf, int count, MPI_Datatype type, MPI_Message *message,
		MPI_Request *request)
{
	MPI_Comm comm;
	MPI_Status st = { .MPI_ERROR = MPI_SUCCESS };
	int err;

	if (!request)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Imrecv", "request pointer is NULL");
	comm = message && *message && *message != &smpi_message_no_proc &&
	       smpi_in_region(*message, sizeof **message) &&
	       (*message)->live == SMPI_LIVE_MSG ? (*message)->comm : MPI_COMM_SELF;
	smpi_comm_hold(comm);
	err = msg_recv(buf, count, type, message, &st, "MPI_Imrecv");
	if (!err || st.MPI_ERROR == MPI_ERR_TRUNCATE) {
		/* Complete already: Wait or Test hands the status out. */
		*request = smpi_req_alloc(SMPI_REQ_RECV, SMPI_MODE_STD, buf, count, type,
					  st.MPI_SOURCE, st.MPI_TAG, comm);
		(*request)->status = st;
		(*request)->state = SMPI_ST_DONE;
	}
	smpi_comm_release(comm);
	return err;
}

SMPI_ALIAS(Mprobe)
SMPI_ALIAS(Improbe)
SMPI_ALIAS(Mrecv)
SMPI_ALIAS(Imrecv)
