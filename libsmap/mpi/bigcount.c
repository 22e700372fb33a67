/*
 * bigcount.c - MPI 4.0's large-count bindings (MPI_Send_c ... MPI_Win_create_c).
 *
 * The library moves bytes in 64-bit counts throughout; what is int is the
 * count argument of the MPI 3.1 calls.  So each _c call hands its counts to
 * the int call: as they are when they fit, and otherwise as one element of
 * a datatype made of them (big_of: contiguous chunks of 2^30 elements and
 * a remainder, resized to the extent count elements have), which every
 * call that takes (count, datatype) accepts and which the requests of the
 * nonblocking calls keep alive after it is freed here.  The type
 * constructors' arrays are converted when every entry fits and refused
 * with MPI_ERR_COUNT, naming the call and the entry, when one does not.
 * The reductions and the v and w collectives are not here: coll.c,
 * nbc_coll.c and topo.c take their counts in 64 bits and read their arrays
 * in either width (struct smpi_ints), so each _c form is its int form's
 * implementation, and a user op sees its own datatype (smpi_op_apply
 * hands an int-count op a count past INT_MAX in pieces).
 */
#include <limits.h>
#include <stdlib.h>
#include "impl.h"

#define BIG_CHUNK	(1ll << 30)

/* count elements of type as an int count of a datatype (big_done frees). */
struct big {
	int n;
	MPI_Datatype t;
	int made;
};

static int big_of(MPI_Count count, MPI_Datatype t, struct big *b, const char *fn)
{
	MPI_Datatype chunk, whole, rest, both, types[2];
	MPI_Aint lb, ext, disp[2];
	MPI_Count q = count / BIG_CHUNK, r = count % BIG_CHUNK;
	int blen[2] = { 1, 1 }, err;

	b->made = 0;
	b->t = t;
	if (count <= INT_MAX || !smpi_live(t, SMPI_LIVE_TYPE)) {
		/* What does not fit goes on as -1, which the int call refuses
		 * naming itself (a negative count) only if the type is bad too. */
		b->n = count <= INT_MAX ? (int)count : -1;
		return MPI_SUCCESS;
	}
	if (q > INT_MAX)
		return smpi_err(NULL, MPI_ERR_COUNT, fn, "count %lld is too large", (long long)count);
	if ((err = PMPI_Type_get_extent(t, &lb, &ext)))
		return err;
	PMPI_Type_contiguous((int)BIG_CHUNK, t, &chunk);
	PMPI_Type_contiguous((int)q, chunk, &whole);
	PMPI_Type_free(&chunk);
	if (r) {
		PMPI_Type_contiguous((int)r, t, &rest);
		types[0] = whole;
		types[1] = rest;
		disp[0] = 0;
		disp[1] = (MPI_Aint)(q * BIG_CHUNK) * ext;
		PMPI_Type_create_struct(2, blen, disp, types, &both);
		PMPI_Type_free(&rest);
		PMPI_Type_free(&whole);
	} else {
		both = whole;
	}
	PMPI_Type_create_resized(both, lb, (MPI_Aint)count * ext, &b->t);
	PMPI_Type_free(&both);
	PMPI_Type_commit(&b->t);
	b->n = 1;
	b->made = 1;
	return MPI_SUCCESS;
}

static int big_done(struct big *b, int err)
{
	if (b->made)
		PMPI_Type_free(&b->t);
	return err;
}

/* n counts as ints (free with free()); NULL c stays NULL. */
static int ints_of(const MPI_Count *c, int n, int **out, const char *what, const char *fn)
{
	*out = NULL;
	if (!c || n <= 0)
		return MPI_SUCCESS;
	*out = malloc((size_t)n * sizeof(int));
	if (!*out)
		return smpi_err(NULL, MPI_ERR_NO_MEM, fn, "no memory for %d %s", n, what);
	for (int i = 0; i < n; i++) {
		if (c[i] > INT_MAX || c[i] < INT_MIN) {
			free(*out);
			*out = NULL;
			return smpi_err(NULL, MPI_ERR_COUNT, fn,
					"%s[%d] = %lld is past INT_MAX: not supported in the v and w forms",
					what, i, (long long)c[i]);
		}
		(*out)[i] = (int)c[i];
	}
	return MPI_SUCCESS;
}


/* ---- point-to-point ---- */

#define SEND_C(name) \
int PMPI_##name##_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, \
		    MPI_Comm comm) \
{ \
	struct big b; \
	int err = big_of(count, type, &b, "MPI_" #name "_c"); \
	return err ? err : big_done(&b, PMPI_##name(buf, b.n, b.t, dest, tag, comm)); \
}
SEND_C(Send)
SEND_C(Ssend)
SEND_C(Rsend)
SEND_C(Bsend)

#define ISEND_C(name) \
int PMPI_##name##_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, \
		    MPI_Comm comm, MPI_Request *request) \
{ \
	struct big b; \
	int err = big_of(count, type, &b, "MPI_" #name "_c"); \
	return err ? err : big_done(&b, PMPI_##name(buf, b.n, b.t, dest, tag, comm, request)); \
}
ISEND_C(Isend)
ISEND_C(Issend)
ISEND_C(Irsend)
ISEND_C(Ibsend)
ISEND_C(Send_init)
ISEND_C(Ssend_init)
ISEND_C(Rsend_init)
ISEND_C(Bsend_init)

int PMPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
		MPI_Status *status)
{
	struct big b;
	int err = big_of(count, type, &b, "MPI_Recv_c");

	return err ? err : big_done(&b, PMPI_Recv(buf, b.n, b.t, source, tag, comm, status));
}

#define IRECV_C(name) \
int PMPI_##name##_c(void *buf, MPI_Count count, MPI_Datatype type, int source, int tag, \
		    MPI_Comm comm, MPI_Request *request) \
{ \
	struct big b; \
	int err = big_of(count, type, &b, "MPI_" #name "_c"); \
	return err ? err : big_done(&b, PMPI_##name(buf, b.n, b.t, source, tag, comm, request)); \
}
IRECV_C(Irecv)
IRECV_C(Recv_init)

int PMPI_Mrecv_c(void *buf, MPI_Count count, MPI_Datatype type, MPI_Message *message,
		 MPI_Status *status)
{
	struct big b;
	int err = big_of(count, type, &b, "MPI_Mrecv_c");

	return err ? err : big_done(&b, PMPI_Mrecv(buf, b.n, b.t, message, status));
}

int PMPI_Imrecv_c(void *buf, MPI_Count count, MPI_Datatype type, MPI_Message *message,
		  MPI_Request *request)
{
	struct big b;
	int err = big_of(count, type, &b, "MPI_Imrecv_c");

	return err ? err : big_done(&b, PMPI_Imrecv(buf, b.n, b.t, message, request));
}

/* Sendrecv_c (request NULL) and Isendrecv_c. */
static int sendrecv_c(const void *sbuf, MPI_Count scount, MPI_Datatype stype, int dest,
		      int stag, void *rbuf, MPI_Count rcount, MPI_Datatype rtype, int source,
		      int rtag, MPI_Comm comm, MPI_Status *status, MPI_Request *request,
		      const char *fn)
{
	struct big s, r;
	int err;

	if ((err = big_of(scount, stype, &s, fn)))
		return err;
	if ((err = big_of(rcount, rtype, &r, fn)))
		return big_done(&s, err);
	if (request)
		err = PMPI_Isendrecv(sbuf, s.n, s.t, dest, stag, rbuf, r.n, r.t, source, rtag, comm,
				     request);
	else
		err = PMPI_Sendrecv(sbuf, s.n, s.t, dest, stag, rbuf, r.n, r.t, source, rtag, comm,
				    status);
	return big_done(&s, big_done(&r, err));
}

int PMPI_Sendrecv_c(const void *sbuf, MPI_Count scount, MPI_Datatype stype, int dest, int stag,
		    void *rbuf, MPI_Count rcount, MPI_Datatype rtype, int source, int rtag,
		    MPI_Comm comm, MPI_Status *status)
{
	return sendrecv_c(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm,
			  status, NULL, "MPI_Sendrecv_c");
}

int PMPI_Isendrecv_c(const void *sbuf, MPI_Count scount, MPI_Datatype stype, int dest, int stag,
		     void *rbuf, MPI_Count rcount, MPI_Datatype rtype, int source, int rtag,
		     MPI_Comm comm, MPI_Request *request)
{
	if (!request)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Isendrecv_c", "request is NULL");
	return sendrecv_c(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm,
			  NULL, request, "MPI_Isendrecv_c");
}

int PMPI_Sendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype type, int dest, int stag,
			    int source, int rtag, MPI_Comm comm, MPI_Status *status)
{
	struct big b;
	int err = big_of(count, type, &b, "MPI_Sendrecv_replace_c");

	return err ? err : big_done(&b, PMPI_Sendrecv_replace(buf, b.n, b.t, dest, stag, source,
							      rtag, comm, status));
}

int PMPI_Isendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype type, int dest, int stag,
			     int source, int rtag, MPI_Comm comm, MPI_Request *request)
{
	struct big b;
	int err = big_of(count, type, &b, "MPI_Isendrecv_replace_c");

	return err ? err : big_done(&b, PMPI_Isendrecv_replace(buf, b.n, b.t, dest, stag, source,
							       rtag, comm, request));
}

int PMPI_Get_count_c(const MPI_Status *status, MPI_Datatype type, MPI_Count *count)
{
	return smpi_get_count(status, type, count, "MPI_Get_count_c");
}

int PMPI_Get_elements_c(const MPI_Status *status, MPI_Datatype type, MPI_Count *count)
{
	return PMPI_Get_elements_x(status, type, count);
}

int PMPI_Status_set_elements_c(MPI_Status *status, MPI_Datatype type, MPI_Count count)
{
	return PMPI_Status_set_elements_x(status, type, count);
}

/* ---- datatypes ---- */

int PMPI_Type_size_c(MPI_Datatype type, MPI_Count *size)
{
	return PMPI_Type_size_x(type, size);
}

int PMPI_Type_get_extent_c(MPI_Datatype type, MPI_Count *lb, MPI_Count *extent)
{
	return PMPI_Type_get_extent_x(type, lb, extent);
}

int PMPI_Type_get_true_extent_c(MPI_Datatype type, MPI_Count *lb, MPI_Count *extent)
{
	return PMPI_Type_get_true_extent_x(type, lb, extent);
}

int PMPI_Type_contiguous_c(MPI_Count count, MPI_Datatype old, MPI_Datatype *newtype)
{
	struct big b;
	int err;

	if (count <= INT_MAX)
		return PMPI_Type_contiguous((int)count, old, newtype);
	if ((err = big_of(count, old, &b, "MPI_Type_contiguous_c")))
		return err;
	if (!newtype)
		return big_done(&b, smpi_err(NULL, MPI_ERR_ARG, "MPI_Type_contiguous_c",
					     "newtype is NULL"));
	/* Uncommitted, as a new type is. */
	return PMPI_Type_dup(b.t, newtype) ? big_done(&b, MPI_ERR_TYPE) : big_done(&b, 0);
}

/* A count argument of a constructor, as an int. */
static int int_of(MPI_Count c, int *out, const char *what, const char *fn)
{
	if (c > INT_MAX || c < INT_MIN)
		return smpi_err(NULL, MPI_ERR_COUNT, fn, "%s %lld is past INT_MAX: not supported",
				what, (long long)c);
	*out = (int)c;
	return MPI_SUCCESS;
}

int PMPI_Type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
		       MPI_Datatype old, MPI_Datatype *newtype)
{
	const char *fn = "MPI_Type_vector_c";
	MPI_Aint lb, ext;
	int n = 0, bl = 0, st = 0, err;

	if ((err = int_of(count, &n, "count", fn)) || (err = int_of(blocklength, &bl, "blocklength", fn)))
		return err;
	if (!int_of(stride, &st, "stride", fn))
		return PMPI_Type_vector(n, bl, st, old, newtype);
	if ((err = PMPI_Type_get_extent(old, &lb, &ext)))
		return err;
	return PMPI_Type_create_hvector(n, bl, (MPI_Aint)stride * ext, old, newtype);
}

int PMPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
			       MPI_Datatype old, MPI_Datatype *newtype)
{
	const char *fn = "MPI_Type_create_hvector_c";
	int n = 0, bl = 0, err;

	if ((err = int_of(count, &n, "count", fn)) || (err = int_of(blocklength, &bl, "blocklength", fn)))
		return err;
	return PMPI_Type_create_hvector(n, bl, (MPI_Aint)stride, old, newtype);
}

/* Whether every one of n counts fits in an int (c NULL: one, c1, for all). */
static int all_fit(const MPI_Count *c, MPI_Count c1, MPI_Count n)
{
	for (MPI_Count i = 0; i < n; i++)
		if ((c ? c[i] : c1) > INT_MAX || (c ? c[i] : c1) < INT_MIN)
			return 0;
	return 1;
}

/*
 * n blocks with a count past INT_MAX somewhere: a struct whose block i is
 * one element of a type made of blens[i] (or blen1) elements of types[i]
 * (or type1), at byte displacement bytes[i] (or elems[i] extents of its
 * type): the same type map as the indexed or struct type asked for.
 */
static int blocks_of(MPI_Count count, const MPI_Count *blens, MPI_Count blen1,
		     const MPI_Count *bytes, const MPI_Count *elems, const MPI_Datatype *types,
		     MPI_Datatype type1, MPI_Datatype *newtype, const char *fn)
{
	int n = 0, err = int_of(count, &n, "count", fn), *bl = NULL, made = 0;
	MPI_Aint *d = NULL, lb, ext;
	struct big *b = NULL;
	MPI_Datatype *ts = NULL;

	if (err)
		return err;
	bl = malloc((size_t)(n ? n : 1) * sizeof(*bl));
	d = malloc((size_t)(n ? n : 1) * sizeof(*d));
	ts = malloc((size_t)(n ? n : 1) * sizeof(*ts));
	b = malloc((size_t)(n ? n : 1) * sizeof(*b));
	if (!bl || !d || !ts || !b) {
		err = smpi_err(NULL, MPI_ERR_NO_MEM, fn, "no memory for %d blocks", n);
		goto out;
	}
	for (; made < n; made++) {
		MPI_Datatype t = types ? types[made] : type1;

		if ((err = big_of(blens ? blens[made] : blen1, t, &b[made], fn)))
			goto out;
		bl[made] = b[made].n;
		ts[made] = b[made].t;
		if (bytes) {
			d[made] = (MPI_Aint)bytes[made];
		} else if ((err = PMPI_Type_get_extent(t, &lb, &ext))) {
			made++;
			goto out;
		} else {
			d[made] = (MPI_Aint)elems[made] * ext;
		}
	}
	err = PMPI_Type_create_struct(n, bl, d, ts, newtype);
out:
	for (int i = 0; i < made; i++)
		big_done(&b[i], 0);
	free(bl);
	free(d);
	free(ts);
	free(b);
	return err;
}

int PMPI_Type_indexed_c(MPI_Count count, const MPI_Count blens[], const MPI_Count displs[],
			MPI_Datatype old, MPI_Datatype *newtype)
{
	const char *fn = "MPI_Type_indexed_c";
	int n = 0, *bl, *d, err;

	if (count > INT_MAX || !blens || !displs || !all_fit(blens, 0, count) ||
	    !all_fit(displs, 0, count))
		return blocks_of(count, blens, 0, NULL, displs, NULL, old, newtype, fn);
	if ((err = int_of(count, &n, "count", fn)) ||
	    (err = ints_of(blens, n, &bl, "array_of_blocklengths", fn)))
		return err;
	if ((err = ints_of(displs, n, &d, "array_of_displacements", fn))) {
		free(bl);
		return err;
	}
	err = PMPI_Type_indexed(n, bl, d, old, newtype);
	free(bl);
	free(d);
	return err;
}

int PMPI_Type_create_hindexed_c(MPI_Count count, const MPI_Count blens[],
				const MPI_Count displs[], MPI_Datatype old, MPI_Datatype *newtype)
{
	const char *fn = "MPI_Type_create_hindexed_c";
	int n = 0, *bl, err;

	if (blens && displs && !all_fit(blens, 0, count))
		return blocks_of(count, blens, 0, displs, NULL, NULL, old, newtype, fn);
	if ((err = int_of(count, &n, "count", fn)) ||
	    (err = ints_of(blens, n, &bl, "array_of_blocklengths", fn)))
		return err;
	err = PMPI_Type_create_hindexed(n, bl, (const MPI_Aint *)displs, old, newtype);
	free(bl);
	return err;
}

int PMPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength,
				     const MPI_Count displs[], MPI_Datatype old,
				     MPI_Datatype *newtype)
{
	const char *fn = "MPI_Type_create_indexed_block_c";
	int n = 0, bl = 0, *d, err;

	if (displs && (!all_fit(NULL, blocklength, 1) || !all_fit(displs, 0, count)))
		return blocks_of(count, NULL, blocklength, NULL, displs, NULL, old, newtype, fn);
	if ((err = int_of(count, &n, "count", fn)) ||
	    (err = int_of(blocklength, &bl, "blocklength", fn)) ||
	    (err = ints_of(displs, n, &d, "array_of_displacements", fn)))
		return err;
	err = PMPI_Type_create_indexed_block(n, bl, d, old, newtype);
	free(d);
	return err;
}

int PMPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength,
				      const MPI_Count displs[], MPI_Datatype old,
				      MPI_Datatype *newtype)
{
	const char *fn = "MPI_Type_create_hindexed_block_c";
	int n = 0, bl = 0, err;

	if (displs && !all_fit(NULL, blocklength, 1))
		return blocks_of(count, NULL, blocklength, displs, NULL, NULL, old, newtype, fn);
	if ((err = int_of(count, &n, "count", fn)) ||
	    (err = int_of(blocklength, &bl, "blocklength", fn)))
		return err;
	return PMPI_Type_create_hindexed_block(n, bl, (const MPI_Aint *)displs, old, newtype);
}

int PMPI_Type_create_struct_c(MPI_Count count, const MPI_Count blens[], const MPI_Count displs[],
			      const MPI_Datatype types[], MPI_Datatype *newtype)
{
	const char *fn = "MPI_Type_create_struct_c";
	int n = 0, *bl, err;

	if (blens && displs && types && !all_fit(blens, 0, count))
		return blocks_of(count, blens, 0, displs, NULL, types, MPI_DATATYPE_NULL, newtype,
				 fn);
	if ((err = int_of(count, &n, "count", fn)) ||
	    (err = ints_of(blens, n, &bl, "array_of_blocklengths", fn)))
		return err;
	err = PMPI_Type_create_struct(n, bl, (const MPI_Aint *)displs, types, newtype);
	free(bl);
	return err;
}

int PMPI_Type_create_subarray_c(int ndims, const MPI_Count sizes[], const MPI_Count subsizes[],
				const MPI_Count starts[], int order, MPI_Datatype old,
				MPI_Datatype *newtype)
{
	const char *fn = "MPI_Type_create_subarray_c";
	int *sz = NULL, *sub = NULL, *st = NULL, err;

	if (!(err = ints_of(sizes, ndims, &sz, "array_of_sizes", fn)) &&
	    !(err = ints_of(subsizes, ndims, &sub, "array_of_subsizes", fn)) &&
	    !(err = ints_of(starts, ndims, &st, "array_of_starts", fn)))
		err = PMPI_Type_create_subarray(ndims, sz, sub, st, order, old, newtype);
	free(sz);
	free(sub);
	free(st);
	return err;
}

int PMPI_Type_create_darray_c(int size, int rank, int ndims, const MPI_Count gsizes[],
			      const int distribs[], const int dargs[], const int psizes[],
			      int order, MPI_Datatype old, MPI_Datatype *newtype)
{
	int *g, err;

	if ((err = ints_of(gsizes, ndims, &g, "array_of_gsizes", "MPI_Type_create_darray_c")))
		return err;
	err = PMPI_Type_create_darray(size, rank, ndims, g, distribs, dargs, psizes, order, old,
				      newtype);
	free(g);
	return err;
}

int PMPI_Type_create_resized_c(MPI_Datatype old, MPI_Count lb, MPI_Count extent,
			       MPI_Datatype *newtype)
{
	return PMPI_Type_create_resized(old, (MPI_Aint)lb, (MPI_Aint)extent, newtype);
}

/* Every type libsmap builds has its arguments in ints and addresses: no
 * large counts among them. */
int PMPI_Type_get_envelope_c(MPI_Datatype type, MPI_Count *num_integers,
			     MPI_Count *num_addresses, MPI_Count *num_large_counts,
			     MPI_Count *num_datatypes, int *combiner)
{
	int ni = 0, na = 0, nd = 0, err;

	err = PMPI_Type_get_envelope(type, &ni, &na, &nd, combiner);
	if (err)
		return err;
	if (!num_integers || !num_addresses || !num_large_counts || !num_datatypes)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Type_get_envelope_c", "NULL argument");
	*num_integers = ni;
	*num_addresses = na;
	*num_large_counts = 0;
	*num_datatypes = nd;
	return MPI_SUCCESS;
}

int PMPI_Type_get_contents_c(MPI_Datatype type, MPI_Count max_integers, MPI_Count max_addresses,
			     MPI_Count max_large_counts, MPI_Count max_datatypes, int integers[],
			     MPI_Aint addresses[], MPI_Count large_counts[],
			     MPI_Datatype datatypes[])
{
	(void)max_large_counts;
	(void)large_counts;
	return PMPI_Type_get_contents(type, max_integers > INT_MAX ? INT_MAX : (int)max_integers,
				      max_addresses > INT_MAX ? INT_MAX : (int)max_addresses,
				      max_datatypes > INT_MAX ? INT_MAX : (int)max_datatypes,
				      integers, addresses, datatypes);
}

/* Pack_c (unpack 0: count elements at data into buf) and Unpack_c (the
 * other way), at *position in buf of size bytes. */
static int pack_c(int unpack, void *data, MPI_Count count, MPI_Datatype type, void *buf,
		  MPI_Count size, MPI_Count *position, MPI_Comm comm, const char *fn)
{
	int64_t bytes;
	struct big b;
	int err;

	if ((err = smpi_check_init(fn)) || (err = smpi_type_check(comm, type, fn)))
		return err;
	if (count < 0 || !position || *position < 0)
		return smpi_err(comm, MPI_ERR_ARG, fn, "bad count %lld or position", (long long)count);
	bytes = count * smpi_type_size(type);
	if (*position + bytes > size)
		return smpi_err(comm, MPI_ERR_TRUNCATE, fn,
				"%lld bytes at position %lld run past the %lld-byte buffer",
				(long long)bytes, (long long)*position, (long long)size);
	if ((err = big_of(count, type, &b, fn)))
		return err;
	if (unpack)
		smpi_type_copy(data, b.n, b.t, (char *)buf + *position, bytes, MPI_BYTE);
	else
		smpi_type_copy((char *)buf + *position, bytes, MPI_BYTE, data, b.n, b.t);
	*position += bytes;
	return big_done(&b, MPI_SUCCESS);
}

int PMPI_Pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype type, void *outbuf,
		MPI_Count outsize, MPI_Count *position, MPI_Comm comm)
{
	return pack_c(0, (void *)inbuf, incount, type, outbuf, outsize, position, comm, "MPI_Pack_c");
}

int PMPI_Unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
		  MPI_Count outcount, MPI_Datatype type, MPI_Comm comm)
{
	return pack_c(1, outbuf, outcount, type, (void *)inbuf, insize, position, comm,
		      "MPI_Unpack_c");
}

int PMPI_Pack_size_c(MPI_Count incount, MPI_Datatype type, MPI_Comm comm, MPI_Count *size)
{
	int err;

	if ((err = smpi_type_check(comm, type, "MPI_Pack_size_c")))
		return err;
	if (incount < 0 || !size)
		return smpi_err(comm, MPI_ERR_ARG, "MPI_Pack_size_c", "bad count %lld or size",
				(long long)incount);
	*size = incount * smpi_type_size(type);
	return MPI_SUCCESS;
}

int PMPI_Pack_external_c(const char datarep[], const void *inbuf, MPI_Count incount,
			 MPI_Datatype type, void *outbuf, MPI_Count outsize, MPI_Count *position)
{
	MPI_Aint pos;
	struct big b;
	int err;

	if (!position)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Pack_external_c", "position is NULL");
	if ((err = big_of(incount, type, &b, "MPI_Pack_external_c")))
		return err;
	pos = *position;
	err = PMPI_Pack_external(datarep, inbuf, b.n, b.t, outbuf, outsize, &pos);
	*position = pos;
	return big_done(&b, err);
}

int PMPI_Unpack_external_c(const char datarep[], const void *inbuf, MPI_Count insize,
			   MPI_Count *position, void *outbuf, MPI_Count outcount,
			   MPI_Datatype type)
{
	MPI_Aint pos;
	struct big b;
	int err;

	if (!position)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Unpack_external_c", "position is NULL");
	if ((err = big_of(outcount, type, &b, "MPI_Unpack_external_c")))
		return err;
	pos = *position;
	err = PMPI_Unpack_external(datarep, inbuf, insize, &pos, outbuf, b.n, b.t);
	*position = pos;
	return big_done(&b, err);
}

int PMPI_Pack_external_size_c(const char datarep[], MPI_Count incount, MPI_Datatype type,
			      MPI_Count *size)
{
	MPI_Aint one;
	int err;

	if (!size)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Pack_external_size_c", "size is NULL");
	if ((err = PMPI_Pack_external_size(datarep, 1, type, &one)))
		return err;
	*size = incount * one;
	return MPI_SUCCESS;
}

int PMPI_Op_create_c(MPI_User_function_c *fn, int commute, MPI_Op *op)
{
	int err;

	if (!fn || !op)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Op_create_c", "NULL argument");
	/* op->user marks a user op; smpi_op_apply calls user_c instead. */
	if ((err = PMPI_Op_create((MPI_User_function *)(void (*)(void))fn, commute, op)))
		return err;
	(*op)->user_c = fn;
	return MPI_SUCCESS;
}

/* ---- collectives: one count, two counts, a reduction ---- */

/* The I form and the persistent form of a call, alongside the blocking
 * one: X, IX(..., request), X_init(..., info, request). */
#define ALL3(decl, idecl, args, call) \
int PMPI_##decl##_c args \
{ \
	const char *fn = "MPI_" #decl "_c"; \
	call(PMPI_##decl, ()) \
} \
int PMPI_##idecl##_c(ARGS_EXPAND args, MPI_Request *request) \
{ \
	const char *fn = "MPI_" #idecl "_c"; \
	call(PMPI_##idecl, (, request)) \
} \
int PMPI_##decl##_init_c(ARGS_EXPAND args, MPI_Info info, MPI_Request *request) \
{ \
	const char *fn = "MPI_" #decl "_init_c"; \
	call(PMPI_##decl##_init, (, info, request)) \
}
#define ARGS_EXPAND(...) __VA_ARGS__
#define TAIL(...) __VA_ARGS__

/* One count and type on a buffer. */
#define BCAST_CALL(f, tail) \
	struct big b; \
	int err = big_of(count, type, &b, fn); \
	return err ? err : big_done(&b, f(buf, b.n, b.t, root, comm TAIL tail));
ALL3(Bcast, Ibcast, (void *buf, MPI_Count count, MPI_Datatype type, int root, MPI_Comm comm),
     BCAST_CALL)

/* A send and a receive count. */
#define TWO(b1, b2) \
	struct big s, r; \
	int err; \
	if ((err = big_of(scount, stype, &s, fn))) \
		return err; \
	if ((err = big_of(rcount, rtype, &r, fn))) \
		return big_done(&s, err);
#define ROOTED_CALL(f, tail) \
	TWO(s, r) \
	err = f(sbuf, s.n, s.t, rbuf, r.n, r.t, root, comm TAIL tail); \
	return big_done(&s, big_done(&r, err));
#define ALL_CALL(f, tail) \
	TWO(s, r) \
	err = f(sbuf, s.n, s.t, rbuf, r.n, r.t, comm TAIL tail); \
	return big_done(&s, big_done(&r, err));
#define ROOTED_ARGS (const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf, \
	MPI_Count rcount, MPI_Datatype rtype, int root, MPI_Comm comm)
#define ALL_ARGS (const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf, \
	MPI_Count rcount, MPI_Datatype rtype, MPI_Comm comm)
ALL3(Gather, Igather, ROOTED_ARGS, ROOTED_CALL)
ALL3(Scatter, Iscatter, ROOTED_ARGS, ROOTED_CALL)
ALL3(Allgather, Iallgather, ALL_ARGS, ALL_CALL)
ALL3(Alltoall, Ialltoall, ALL_ARGS, ALL_CALL)
ALL3(Neighbor_allgather, Ineighbor_allgather, ALL_ARGS, ALL_CALL)
ALL3(Neighbor_alltoall, Ineighbor_alltoall, ALL_ARGS, ALL_CALL)

/* ---- one-sided ---- */

#define RMA_MOVE(name, rname, obuf_t) \
int PMPI_##name##_c(obuf_t obuf, MPI_Count ocount, MPI_Datatype otype, int target, \
		    MPI_Aint disp, MPI_Count tcount, MPI_Datatype ttype, MPI_Win win) \
{ \
	const char *fn = "MPI_" #name "_c"; \
	struct big o, t; \
	int err; \
	if ((err = big_of(ocount, otype, &o, fn))) \
		return err; \
	if ((err = big_of(tcount, ttype, &t, fn))) \
		return big_done(&o, err); \
	err = PMPI_##name(obuf, o.n, o.t, target, disp, t.n, t.t, win); \
	return big_done(&o, big_done(&t, err)); \
} \
int PMPI_##rname##_c(obuf_t obuf, MPI_Count ocount, MPI_Datatype otype, int target, \
		     MPI_Aint disp, MPI_Count tcount, MPI_Datatype ttype, MPI_Win win, \
		     MPI_Request *request) \
{ \
	const char *fn = "MPI_" #rname "_c"; \
	struct big o, t; \
	int err; \
	if ((err = big_of(ocount, otype, &o, fn))) \
		return err; \
	if ((err = big_of(tcount, ttype, &t, fn))) \
		return big_done(&o, err); \
	err = PMPI_##rname(obuf, o.n, o.t, target, disp, t.n, t.t, win, request); \
	return big_done(&o, big_done(&t, err)); \
}
RMA_MOVE(Put, Rput, const void *)
RMA_MOVE(Get, Rget, void *)

/* An accumulate's element counts; the op is predefined, so the made-up
 * types, of one basic type, combine element by element as the user's. */
static int rma_acc_c(const void *obuf, MPI_Count ocount, MPI_Datatype otype, void *rbuf,
		     MPI_Count rcount, MPI_Datatype rtype, int target, MPI_Aint disp,
		     MPI_Count tcount, MPI_Datatype ttype, MPI_Op op, MPI_Win win,
		     MPI_Request *request, int fetch, const char *fn)
{
	struct big o, r = { 0, rtype, 0 }, t;
	int err;

	if ((err = big_of(ocount, otype, &o, fn)))
		return err;
	if (fetch && (err = big_of(rcount, rtype, &r, fn)))
		return big_done(&o, err);
	if ((err = big_of(tcount, ttype, &t, fn)))
		return big_done(&o, big_done(&r, err));
	if (!fetch && request)
		err = PMPI_Raccumulate(obuf, o.n, o.t, target, disp, t.n, t.t, op, win, request);
	else if (!fetch)
		err = PMPI_Accumulate(obuf, o.n, o.t, target, disp, t.n, t.t, op, win);
	else if (request)
		err = PMPI_Rget_accumulate(obuf, o.n, o.t, rbuf, r.n, r.t, target, disp, t.n, t.t,
					   op, win, request);
	else
		err = PMPI_Get_accumulate(obuf, o.n, o.t, rbuf, r.n, r.t, target, disp, t.n, t.t,
					  op, win);
	return big_done(&o, big_done(&r, big_done(&t, err)));
}

int PMPI_Accumulate_c(const void *obuf, MPI_Count ocount, MPI_Datatype otype, int target,
		      MPI_Aint disp, MPI_Count tcount, MPI_Datatype ttype, MPI_Op op, MPI_Win win)
{
	return rma_acc_c(obuf, ocount, otype, NULL, 0, NULL, target, disp, tcount, ttype, op, win,
			 NULL, 0, "MPI_Accumulate_c");
}

int PMPI_Raccumulate_c(const void *obuf, MPI_Count ocount, MPI_Datatype otype, int target,
		       MPI_Aint disp, MPI_Count tcount, MPI_Datatype ttype, MPI_Op op,
		       MPI_Win win, MPI_Request *request)
{
	if (!request)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Raccumulate_c", "request is NULL");
	return rma_acc_c(obuf, ocount, otype, NULL, 0, NULL, target, disp, tcount, ttype, op, win,
			 request, 0, "MPI_Raccumulate_c");
}

int PMPI_Get_accumulate_c(const void *obuf, MPI_Count ocount, MPI_Datatype otype, void *rbuf,
			  MPI_Count rcount, MPI_Datatype rtype, int target, MPI_Aint disp,
			  MPI_Count tcount, MPI_Datatype ttype, MPI_Op op, MPI_Win win)
{
	return rma_acc_c(obuf, ocount, otype, rbuf, rcount, rtype, target, disp, tcount, ttype,
			 op, win, NULL, 1, "MPI_Get_accumulate_c");
}

int PMPI_Rget_accumulate_c(const void *obuf, MPI_Count ocount, MPI_Datatype otype, void *rbuf,
			   MPI_Count rcount, MPI_Datatype rtype, int target, MPI_Aint disp,
			   MPI_Count tcount, MPI_Datatype ttype, MPI_Op op, MPI_Win win,
			   MPI_Request *request)
{
	if (!request)
		return smpi_err(NULL, MPI_ERR_ARG, "MPI_Rget_accumulate_c", "request is NULL");
	return rma_acc_c(obuf, ocount, otype, rbuf, rcount, rtype, target, disp, tcount, ttype,
			 op, win, request, 1, "MPI_Rget_accumulate_c");
}

static int disp_unit_of(MPI_Aint u, int *out, const char *fn)
{
	if (u > INT_MAX || u < INT_MIN)
		return smpi_err(NULL, MPI_ERR_DISP, fn, "disp_unit %lld is past INT_MAX: not supported",
				(long long)u);
	*out = (int)u;
	return MPI_SUCCESS;
}

int PMPI_Win_create_c(void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
		      MPI_Comm comm, MPI_Win *win)
{
	int u = 0, err = disp_unit_of(disp_unit, &u, "MPI_Win_create_c");

	return err ? err : PMPI_Win_create(base, size, u, info, comm, win);
}

int PMPI_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
			void *baseptr, MPI_Win *win)
{
	int u = 0, err = disp_unit_of(disp_unit, &u, "MPI_Win_allocate_c");

	return err ? err : PMPI_Win_allocate(size, u, info, comm, baseptr, win);
}

int PMPI_Win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
			       void *baseptr, MPI_Win *win)
{
	int u = 0, err = disp_unit_of(disp_unit, &u, "MPI_Win_allocate_shared_c");

	return err ? err : PMPI_Win_allocate_shared(size, u, info, comm, baseptr, win);
}

int PMPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit,
			    void *baseptr)
{
	int u = 0, err = PMPI_Win_shared_query(win, rank, size, disp_unit ? &u : NULL, baseptr);

	if (disp_unit && !err)
		*disp_unit = u;
	return err;
}

/* ---- files ---- */

#define FILE_AT_C(name, buf_t, status_t) \
int PMPI_File_##name##_c(MPI_File fh, MPI_Offset offset, buf_t buf, MPI_Count count, \
			 MPI_Datatype type, status_t st) \
{ \
	struct big b; \
	int err = big_of(count, type, &b, "MPI_File_" #name "_c"); \
	return err ? err : big_done(&b, PMPI_File_##name(fh, offset, buf, b.n, b.t, st)); \
}
FILE_AT_C(read_at, void *, MPI_Status *)
FILE_AT_C(read_at_all, void *, MPI_Status *)
FILE_AT_C(write_at, const void *, MPI_Status *)
FILE_AT_C(write_at_all, const void *, MPI_Status *)
FILE_AT_C(iread_at, void *, MPI_Request *)
FILE_AT_C(iwrite_at, const void *, MPI_Request *)
FILE_AT_C(iread_at_all, void *, MPI_Request *)
FILE_AT_C(iwrite_at_all, const void *, MPI_Request *)

#define FILE_C(name, buf_t, status_t) \
int PMPI_File_##name##_c(MPI_File fh, buf_t buf, MPI_Count count, MPI_Datatype type, \
			 status_t st) \
{ \
	struct big b; \
	int err = big_of(count, type, &b, "MPI_File_" #name "_c"); \
	return err ? err : big_done(&b, PMPI_File_##name(fh, buf, b.n, b.t, st)); \
}
FILE_C(read, void *, MPI_Status *)
FILE_C(read_all, void *, MPI_Status *)
FILE_C(write, const void *, MPI_Status *)
FILE_C(write_all, const void *, MPI_Status *)
FILE_C(iread, void *, MPI_Request *)
FILE_C(iwrite, const void *, MPI_Request *)
FILE_C(iread_all, void *, MPI_Request *)
FILE_C(iwrite_all, const void *, MPI_Request *)
FILE_C(read_shared, void *, MPI_Status *)
FILE_C(write_shared, const void *, MPI_Status *)
FILE_C(iread_shared, void *, MPI_Request *)
FILE_C(iwrite_shared, const void *, MPI_Request *)
FILE_C(read_ordered, void *, MPI_Status *)
FILE_C(write_ordered, const void *, MPI_Status *)

#define FILE_BEGIN_AT_C(name, buf_t) \
int PMPI_File_##name##_c(MPI_File fh, MPI_Offset offset, buf_t buf, MPI_Count count, \
			 MPI_Datatype type) \
{ \
	struct big b; \
	int err = big_of(count, type, &b, "MPI_File_" #name "_c"); \
	return err ? err : big_done(&b, PMPI_File_##name(fh, offset, buf, b.n, b.t)); \
}
FILE_BEGIN_AT_C(read_at_all_begin, void *)
FILE_BEGIN_AT_C(write_at_all_begin, const void *)

#define FILE_BEGIN_C(name, buf_t) \
int PMPI_File_##name##_c(MPI_File fh, buf_t buf, MPI_Count count, MPI_Datatype type) \
{ \
	struct big b; \
	int err = big_of(count, type, &b, "MPI_File_" #name "_c"); \
	return err ? err : big_done(&b, PMPI_File_##name(fh, buf, b.n, b.t)); \
}
FILE_BEGIN_C(read_all_begin, void *)
FILE_BEGIN_C(write_all_begin, const void *)
FILE_BEGIN_C(read_ordered_begin, void *)
FILE_BEGIN_C(write_ordered_begin, const void *)

int PMPI_File_get_type_extent_c(MPI_File fh, MPI_Datatype type, MPI_Count *extent)
{
	MPI_Aint e = 0;
	int err = PMPI_File_get_type_extent(fh, type, extent ? &e : NULL);

	if (extent && !err)
		*extent = e;
	return err;
}

SMPI_ALIAS(Send_c)
SMPI_ALIAS(Ssend_c)
SMPI_ALIAS(Rsend_c)
SMPI_ALIAS(Bsend_c)
SMPI_ALIAS(Isend_c)
SMPI_ALIAS(Issend_c)
SMPI_ALIAS(Irsend_c)
SMPI_ALIAS(Ibsend_c)
SMPI_ALIAS(Send_init_c)
SMPI_ALIAS(Ssend_init_c)
SMPI_ALIAS(Rsend_init_c)
SMPI_ALIAS(Bsend_init_c)
SMPI_ALIAS(Recv_c)
SMPI_ALIAS(Irecv_c)
SMPI_ALIAS(Recv_init_c)
SMPI_ALIAS(Mrecv_c)
SMPI_ALIAS(Imrecv_c)
SMPI_ALIAS(Sendrecv_c)
SMPI_ALIAS(Isendrecv_c)
SMPI_ALIAS(Sendrecv_replace_c)
SMPI_ALIAS(Isendrecv_replace_c)
SMPI_ALIAS(Get_count_c)
SMPI_ALIAS(Get_elements_c)
SMPI_ALIAS(Status_set_elements_c)
SMPI_ALIAS(Type_size_c)
SMPI_ALIAS(Type_get_extent_c)
SMPI_ALIAS(Type_get_true_extent_c)
SMPI_ALIAS(Type_contiguous_c)
SMPI_ALIAS(Type_vector_c)
SMPI_ALIAS(Type_create_hvector_c)
SMPI_ALIAS(Type_indexed_c)
SMPI_ALIAS(Type_create_hindexed_c)
SMPI_ALIAS(Type_create_indexed_block_c)
SMPI_ALIAS(Type_create_hindexed_block_c)
SMPI_ALIAS(Type_create_struct_c)
SMPI_ALIAS(Type_create_subarray_c)
SMPI_ALIAS(Type_create_darray_c)
SMPI_ALIAS(Type_create_resized_c)
SMPI_ALIAS(Type_get_envelope_c)
SMPI_ALIAS(Type_get_contents_c)
SMPI_ALIAS(Pack_c)
SMPI_ALIAS(Unpack_c)
SMPI_ALIAS(Pack_size_c)
SMPI_ALIAS(Pack_external_c)
SMPI_ALIAS(Unpack_external_c)
SMPI_ALIAS(Pack_external_size_c)
SMPI_ALIAS(Op_create_c)
SMPI_ALIAS(Bcast_c)
SMPI_ALIAS(Ibcast_c)
SMPI_ALIAS(Bcast_init_c)
SMPI_ALIAS(Gather_c)
SMPI_ALIAS(Igather_c)
SMPI_ALIAS(Gather_init_c)
SMPI_ALIAS(Scatter_c)
SMPI_ALIAS(Iscatter_c)
SMPI_ALIAS(Scatter_init_c)
SMPI_ALIAS(Allgather_c)
SMPI_ALIAS(Iallgather_c)
SMPI_ALIAS(Allgather_init_c)
SMPI_ALIAS(Alltoall_c)
SMPI_ALIAS(Ialltoall_c)
SMPI_ALIAS(Alltoall_init_c)
SMPI_ALIAS(Neighbor_allgather_c)
SMPI_ALIAS(Ineighbor_allgather_c)
SMPI_ALIAS(Neighbor_allgather_init_c)
SMPI_ALIAS(Neighbor_alltoall_c)
SMPI_ALIAS(Ineighbor_alltoall_c)
SMPI_ALIAS(Neighbor_alltoall_init_c)
SMPI_ALIAS(Put_c)
SMPI_ALIAS(Rput_c)
SMPI_ALIAS(Get_c)
SMPI_ALIAS(Rget_c)
SMPI_ALIAS(Accumulate_c)
SMPI_ALIAS(Raccumulate_c)
SMPI_ALIAS(Get_accumulate_c)
SMPI_ALIAS(Rget_accumulate_c)
SMPI_ALIAS(Win_create_c)
SMPI_ALIAS(Win_allocate_c)
SMPI_ALIAS(Win_allocate_shared_c)
SMPI_ALIAS(Win_shared_query_c)
SMPI_ALIAS(File_read_at_c)
SMPI_ALIAS(File_read_at_all_c)
SMPI_ALIAS(File_write_at_c)
SMPI_ALIAS(File_write_at_all_c)
SMPI_ALIAS(File_iread_at_c)
SMPI_ALIAS(File_iwrite_at_c)
SMPI_ALIAS(File_iread_at_all_c)
SMPI_ALIAS(File_iwrite_at_all_c)
SMPI_ALIAS(File_read_c)
SMPI_ALIAS(File_read_all_c)
SMPI_ALIAS(File_write_c)
SMPI_ALIAS(File_write_all_c)
SMPI_ALIAS(File_iread_c)
SMPI_ALIAS(File_iwrite_c)
SMPI_ALIAS(File_iread_all_c)
SMPI_ALIAS(File_iwrite_all_c)
SMPI_ALIAS(File_read_shared_c)
SMPI_ALIAS(File_write_shared_c)
SMPI_ALIAS(File_iread_shared_c)
SMPI_ALIAS(File_iwrite_shared_c)
SMPI_ALIAS(File_read_ordered_c)
SMPI_ALIAS(File_write_ordered_c)
SMPI_ALIAS(File_read_at_all_begin_c)
SMPI_ALIAS(File_write_at_all_begin_c)
SMPI_ALIAS(File_read_all_begin_c)
SMPI_ALIAS(File_write_all_begin_c)
SMPI_ALIAS(File_read_ordered_begin_c)
SMPI_ALIAS(File_write_ordered_begin_c)
SMPI_ALIAS(File_get_type_extent_c)
