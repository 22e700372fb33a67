/*
 * file.c - MPI-IO: the MPI_File chapter on POSIX calls.  Under the kernel
 * those calls go to lwkrun's I/O server (docs/fileio.md); in host mode to
 * Linux.  Either way every rank has its own descriptor of the file and
 * moves its own pieces with pread/pwrite at the offsets its view gives.
 *
 * Views: the filetype's layout (dt.c) is walked with a cursor whose base
 * is the displacement, so each run the cursor yields is a file offset and
 * a length; adjacent runs are joined into one call.  A non-contiguous
 * memory type is packed into (or unpacked from) one buffer by the same
 * engine.  Collective calls are the independent ones on every rank (MPI
 * forbids overlapping writes within one collective, so interleaved
 * pieces land exactly), nonblocking calls complete at once, and a split
 * collective does its work in _begin and hands the status out in _end.
 * The shared file pointer is an MPI_Offset in a window on rank 0, moved
 * with MPI_Fetch_and_op under an exclusive lock; atomic mode locks the
 * file (fcntl) around each access.  Every standard call hands its error
 * to the file's handler (MPI_FILE_NULL's for open and delete), which is
 * MPI_ERRORS_RETURN unless the program sets another, as MPI says.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "impl.h"

#define FILE_MAGIC	0x46494c45u

struct smpi_file {
	unsigned magic;
	MPI_Comm comm;		/* a duplicate of the user's */
	int fd, amode, atomic;
	MPI_Offset disp;
	MPI_Datatype etype, filetype;
	int64_t esize;
	MPI_Offset pos;		/* individual file pointer, in etypes */
	MPI_Win shwin;		/* the shared file pointer lives on rank 0 */
	MPI_Offset *shared;
	int split;		/* a split collective is open */
	MPI_Status split_status;
	int split_err;
	char *name;
	struct smpi_errh *errh;
	MPI_Info info;		/* the hints last given (none acts on anything) */
	int ext32;		/* the view's data representation is external32 */
};

/* The handler of MPI_FILE_NULL: what files opened from now on start with. */
static struct smpi_errh *file_default = MPI_ERRORS_RETURN;

static int errno_class(int e)
{
	switch (e) {
	case ENOENT: case ENOTDIR: case ENAMETOOLONG: case ELOOP:
		return MPI_ERR_NO_SUCH_FILE;
	case EEXIST:
		return MPI_ERR_FILE_EXISTS;
	case EACCES: case EPERM:
		return MPI_ERR_ACCESS;
	case EROFS:
		return MPI_ERR_READ_ONLY;
	case ENOSPC:
		return MPI_ERR_NO_SPACE;
	case EDQUOT:
		return MPI_ERR_QUOTA;
	}
	return MPI_ERR_IO;
}

static int file_ok(MPI_File fh)
{
	return fh != MPI_FILE_NULL && fh->magic == FILE_MAGIC;
}

static int type_ok(MPI_Datatype t)
{
	return t != MPI_DATATYPE_NULL && t->committed;
}

/* ---- errors: each standard call raises its error on the file's handler ---- */

static struct smpi_errh *errh_hold(MPI_File fh)
{
	return smpi_errh_ref(file_ok(fh) ? fh->errh : file_default);
}

/* Hand `code` to h (held by the caller, released here): returns it, or
 * ends the job under MPI_ERRORS_ARE_FATAL. */
static int errh_raise(MPI_File fh, struct smpi_errh *h, int code, const char *fn)
{
	char text[MPI_MAX_ERROR_STRING];
	int len;

	if (code != MPI_SUCCESS && h->fn) {
		/* Made by MPI_File_create_errhandler: a file handler. */
		((MPI_File_errhandler_function *)(void (*)(void))h->fn)(&fh, &code, fn);
	} else if (code != MPI_SUCCESS && h->fatal) {
		if (PMPI_Error_string(code, text, &len) != MPI_SUCCESS)
			snprintf(text, sizeof(text), "bad error code");
		fprintf(stderr, "%s: %s; rank %d ends the job\n", fn, text, smap_world_rank());
		smap_abort(code);
	}
	smpi_errh_release(h);
	return code;
}

int PMPI_File_create_errhandler(MPI_File_errhandler_function *fn, MPI_Errhandler *errhandler)
{
	if (!fn || !errhandler)
		return MPI_ERR_ARG;
	return PMPI_Comm_create_errhandler((MPI_Comm_errhandler_function *)(void (*)(void))fn,
					   errhandler);
}

int PMPI_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler)
{
	if (!errhandler)
		return MPI_ERR_ARG;
	if (file == MPI_FILE_NULL)
		smpi_errh_replace(&file_default, errhandler);
	else if (file_ok(file))
		smpi_errh_replace(&file->errh, errhandler);
	else
		return MPI_ERR_FILE;
	return MPI_SUCCESS;
}

int PMPI_File_get_errhandler(MPI_File file, MPI_Errhandler *errhandler)
{
	if (!errhandler)
		return MPI_ERR_ARG;
	if (file != MPI_FILE_NULL && !file_ok(file))
		return MPI_ERR_FILE;
	*errhandler = errh_hold(file);
	return MPI_SUCCESS;
}

int PMPI_File_call_errhandler(MPI_File fh, int errorcode)
{
	if (fh != MPI_FILE_NULL && !file_ok(fh))
		return MPI_ERR_FILE;
	errh_raise(fh, errh_hold(fh), errorcode, "MPI_File_call_errhandler");
	return MPI_SUCCESS;
}

/* ---- views: file offsets of the data ---- */

/* A cursor over the view's file offsets, `skip` data bytes in. */
static void view_cursor(MPI_File fh, struct dt_cursor *c, int64_t skip)
{
	int64_t fsz = smpi_type_size(fh->filetype), fext = smpi_type_extent(fh->filetype);
	int64_t elem = fsz ? skip / fsz : 0;

	dt_cursor_init(c, fh->filetype->dt, (void *)(uintptr_t)(fh->disp + elem * fext),
		       (int64_t)1 << 40);
	dt_skip(c, (size_t)(skip - elem * fsz));
}

/* Move `bytes` of buf to or from the view at data byte `start`: the bytes
 * moved (fewer at end of file on a read), or -errno. */
static int64_t view_io(MPI_File fh, int64_t start, char *buf, int64_t bytes, int write)
{
	struct dt_cursor c;
	int64_t done = 0;

	view_cursor(fh, &c, start);
	while (done < bytes) {
		size_t len = 0, run = dt_next_run(&c);	/* moves to the next run */
		uintptr_t off = (uintptr_t)c.p;
		ssize_t n;

		if (!run)
			return done;	/* a filetype without data */
		/* join the runs that follow one another in the file */
		while (done + (int64_t)len < bytes && (run = dt_next_run(&c)) &&
		       (uintptr_t)c.p == off + len) {
			size_t take = (size_t)(bytes - done - (int64_t)len);

			take = take < run ? take : run;
			dt_skip(&c, take);
			len += take;
		}
		n = write ? pwrite(fh->fd, buf + done, len, (off_t)off) :
			    pread(fh->fd, buf + done, len, (off_t)off);
		if (n < 0) {
			if (errno == EINTR)
				n = 0;
			else
				return -errno;
		}
		done += n;
		if ((size_t)n < len) {
			if (!write && n == 0)
				return done;	/* end of file */
			/* a short transfer: go on from where it stopped */
			view_cursor(fh, &c, start + done);
		}
	}
	return done;
}

static void file_lock(MPI_File fh, short type)
{
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET };

	if (fh->atomic)
		while (fcntl(fh->fd, F_SETLKW, &fl) < 0 && errno == EINTR)
			;
}

/* Read or write count elements of type at view position `at` (etypes):
 * the error class; the status counts the bytes moved. */
static int file_access(MPI_File fh, MPI_Offset at, void *buf, int count, MPI_Datatype type,
		       int write, MPI_Status *st)
{
	int64_t bytes, got = 0;
	struct dt_cursor mem, flat;
	char *tmp = buf;
	int err = MPI_SUCCESS;

	if (!file_ok(fh))
		return MPI_ERR_FILE;
	if (count < 0)
		return MPI_ERR_COUNT;
	if (!type_ok(type))
		return MPI_ERR_TYPE;
	if (at < 0)
		return MPI_ERR_ARG;
	if (write && (fh->amode & MPI_MODE_RDONLY))
		return MPI_ERR_READ_ONLY;
	if (!write && (fh->amode & MPI_MODE_WRONLY))
		return MPI_ERR_ACCESS;
	bytes = (int64_t)count * smpi_type_size(type);
	if (bytes % fh->esize)
		return MPI_ERR_TYPE;
	if (fh->ext32 && dt_root(type->dt)->xsize != dt_root(type->dt)->size)
		return MPI_ERR_UNSUPPORTED_DATAREP;
	if (!bytes)
		goto out;
	if (!dt_is_dense(type->dt) || fh->ext32) {
		tmp = malloc((size_t)bytes);
		if (!tmp)
			return MPI_ERR_NO_MEM;
		if (write && fh->ext32) {
			MPI_Aint pos = 0;

			PMPI_Pack_external("external32", buf, count, type, tmp, bytes, &pos);
		} else if (write) {
			dt_cursor_init(&mem, type->dt, buf, count);
			dt_cursor_bytes(&flat, tmp, (size_t)bytes);
			dt_copy(&flat, &mem, (size_t)bytes);
		}
	}
	file_lock(fh, write ? F_WRLCK : F_RDLCK);
	got = view_io(fh, at * fh->esize, tmp, bytes, write);
	file_lock(fh, F_UNLCK);
	if (got < 0) {
		err = errno_class((int)-got);
		got = 0;
	}
	if (tmp != buf) {
		if (!write && got && fh->ext32) {
			/* Whole elements only: a part of one cannot be converted. */
			MPI_Aint pos = 0;

			got -= got % smpi_type_size(type);
			PMPI_Unpack_external("external32", tmp, got, &pos, buf,
					     (int)(got / smpi_type_size(type)), type);
		} else if (!write && got) {
			dt_cursor_bytes(&flat, tmp, (size_t)got);
			dt_cursor_init(&mem, type->dt, buf, count);
			dt_copy(&mem, &flat, (size_t)got);
		}
		free(tmp);
	}
out:
	if (st != MPI_STATUS_IGNORE)
		smpi_status_set(st, MPI_ANY_SOURCE, MPI_ANY_TAG, err, got);
	return err;
}

/* ---- open, close, delete ---- */

static int amode_flags(int amode, int *flags)
{
	int rw = !!(amode & MPI_MODE_RDONLY) + !!(amode & MPI_MODE_WRONLY) +
		 !!(amode & MPI_MODE_RDWR);

	if (rw != 1 || (amode & ~511) ||
	    ((amode & MPI_MODE_RDONLY) && (amode & (MPI_MODE_CREATE | MPI_MODE_EXCL))) ||
	    ((amode & MPI_MODE_RDWR) && (amode & MPI_MODE_SEQUENTIAL)))
		return MPI_ERR_AMODE;
	*flags = (amode & MPI_MODE_RDONLY) ? O_RDONLY : (amode & MPI_MODE_WRONLY) ? O_WRONLY : O_RDWR;
	return MPI_SUCCESS;
}

static void file_free(MPI_File fh)
{
	if (fh->fd >= 0)
		close(fh->fd);
	if (fh->shwin != MPI_WIN_NULL)
		PMPI_Win_free(&fh->shwin);
	smpi_type_release(fh->etype);
	smpi_type_release(fh->filetype);
	if (fh->comm != MPI_COMM_NULL)
		PMPI_Comm_free(&fh->comm);
	smpi_errh_release(fh->errh);
	smpi_info_drop(&fh->info);
	fh->magic = 0;
	free(fh->name);
	free(fh);
}

static int file_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh)
{
	MPI_File f;
	int flags, err, e = 0, worst, rank;
	struct stat st;

	if ((err = smpi_check_init("MPI_File_open")))
		return err;
	if (comm == MPI_COMM_NULL)
		return MPI_ERR_COMM;
	if (!filename || !fh)
		return MPI_ERR_ARG;
	if ((err = amode_flags(amode, &flags)))
		return err;
	f = calloc(1, sizeof(*f));
	if (!f)
		return MPI_ERR_NO_MEM;
	f->magic = FILE_MAGIC;
	f->fd = -1;
	f->shwin = MPI_WIN_NULL;
	f->comm = MPI_COMM_NULL;
	f->amode = amode;
	f->etype = f->filetype = MPI_BYTE;
	smpi_type_hold(MPI_BYTE);
	smpi_type_hold(MPI_BYTE);
	f->esize = 1;
	f->errh = smpi_errh_ref(file_default);
	f->name = strdup(filename);
	if (smpi_info_keep(&f->info, info, "MPI_File_open")) {
		file_free(f);
		return MPI_ERR_INFO;
	}
	PMPI_Comm_dup(comm, &f->comm);
	PMPI_Comm_rank(comm, &rank);
	/* Rank 0 creates the file (EXCL decided once), then the others open it. */
	if (rank == 0) {
		f->fd = open(filename, flags | O_CLOEXEC | ((amode & MPI_MODE_CREATE) ? O_CREAT : 0) |
			     ((amode & MPI_MODE_EXCL) ? O_EXCL : 0), 0666);
		e = f->fd < 0 ? errno_class(errno) : 0;
	}
	PMPI_Bcast(&e, 1, MPI_INT, 0, f->comm);
	if (rank != 0 && !e) {
		f->fd = open(filename, flags | O_CLOEXEC);
		e = f->fd < 0 ? errno_class(errno) : 0;
	}
	PMPI_Allreduce(&e, &worst, 1, MPI_INT, MPI_MAX, f->comm);
	if (!worst && PMPI_Win_allocate(rank == 0 ? sizeof(MPI_Offset) : 0, sizeof(MPI_Offset),
					MPI_INFO_NULL, f->comm, &f->shared, &f->shwin))
		worst = MPI_ERR_OTHER;
	if (worst) {
		file_free(f);
		*fh = MPI_FILE_NULL;
		return e ? e : worst;
	}
	if ((amode & MPI_MODE_APPEND) && fstat(f->fd, &st) == 0)
		f->pos = st.st_size;
	if (rank == 0)
		*f->shared = f->pos;
	PMPI_Barrier(f->comm);
	*fh = f;
	return MPI_SUCCESS;
}

static int file_close(MPI_File *fh)
{
	MPI_File f;
	int rank;

	if (!fh || !file_ok(*fh))
		return MPI_ERR_FILE;
	f = *fh;
	PMPI_Comm_rank(f->comm, &rank);
	PMPI_Barrier(f->comm);
	if ((f->amode & MPI_MODE_DELETE_ON_CLOSE) && rank == 0)
		unlink(f->name);
	file_free(f);
	*fh = MPI_FILE_NULL;
	return MPI_SUCCESS;
}

static int file_delete(const char *filename, MPI_Info info)
{
	(void)info;
	if (!filename)
		return MPI_ERR_ARG;
	return unlink(filename) ? errno_class(errno) : MPI_SUCCESS;
}

/* ---- size, info, group, mode ---- */

static int file_get_size(MPI_File fh, MPI_Offset *size)
{
	struct stat st;

	if (!file_ok(fh))
		return MPI_ERR_FILE;
	if (fstat(fh->fd, &st))
		return errno_class(errno);
	*size = st.st_size;
	return MPI_SUCCESS;
}

/* Rank 0 changes the size (all ranks agree on the outcome). */
static int resize(MPI_File fh, MPI_Offset size, int grow_only)
{
	int rank, e = 0;
	struct stat st;

	if (!file_ok(fh))
		return MPI_ERR_FILE;
	if (size < 0)
		return MPI_ERR_ARG;
	if (fh->amode & MPI_MODE_RDONLY)
		return MPI_ERR_READ_ONLY;
	PMPI_Comm_rank(fh->comm, &rank);
	PMPI_Barrier(fh->comm);
	if (rank == 0 && !(grow_only && fstat(fh->fd, &st) == 0 && st.st_size >= size))
		e = ftruncate(fh->fd, size) ? errno_class(errno) : 0;
	PMPI_Bcast(&e, 1, MPI_INT, 0, fh->comm);
	return e;
}

static int file_set_size(MPI_File fh, MPI_Offset size)
{
	return resize(fh, size, 0);
}

static int file_preallocate(MPI_File fh, MPI_Offset size)
{
	return resize(fh, size, 1);
}

static int file_get_group(MPI_File fh, MPI_Group *group)
{
	return file_ok(fh) ? PMPI_Comm_group(fh->comm, group) : MPI_ERR_FILE;
}

static int file_get_amode(MPI_File fh, int *amode)
{
	if (!file_ok(fh))
		return MPI_ERR_FILE;
	*amode = fh->amode;
	return MPI_SUCCESS;
}

/* No hint changes anything here: each is kept, and reported back by
 * MPI_File_get_info, as the standard allows for hints ignored. */
static int file_set_info(MPI_File fh, MPI_Info info)
{
	if (!file_ok(fh))
		return MPI_ERR_FILE;
	return smpi_info_keep(&fh->info, info, "MPI_File_set_info") ? MPI_ERR_INFO : MPI_SUCCESS;
}

static int file_get_info(MPI_File fh, MPI_Info *info_used)
{
	if (!file_ok(fh))
		return MPI_ERR_FILE;
	return smpi_info_give(fh->info, info_used, "MPI_File_get_info");
}

/* ---- views ---- */

static void shared_set(MPI_File fh, MPI_Offset v)
{
	int rank;

	PMPI_Comm_rank(fh->comm, &rank);
	PMPI_Barrier(fh->comm);
	if (rank == 0) {
		PMPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, fh->shwin);
		*fh->shared = v;
		PMPI_Win_unlock(0, fh->shwin);
	}
	PMPI_Barrier(fh->comm);
}

/* Add n etypes to the shared pointer; its value before. */
static MPI_Offset shared_add(MPI_File fh, MPI_Offset n)
{
	MPI_Offset old = 0;

	PMPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, fh->shwin);
	PMPI_Fetch_and_op(&n, &old, MPI_OFFSET, 0, 0, MPI_SUM, fh->shwin);
	PMPI_Win_unlock(0, fh->shwin);
	return old;
}

static int file_get_byte_offset(MPI_File fh, MPI_Offset offset, MPI_Offset *disp);

static int ext32_same_size(MPI_Datatype t)
{
	return dt_root(t->dt)->xsize == dt_root(t->dt)->size;
}

/*
 * MPI 3.1 section 13.3: an etype's and a filetype's displacements are
 * non-negative and monotonically nondecreasing, and when the file can be
 * written neither may overlap itself.  MPI_ERR_IO otherwise, as ROMIO.
 */
static int view_type_ok(MPI_Datatype t, int writable)
{
	int64_t prev = 0, end = 0;
	struct dt_cursor c;
	size_t run;

	dt_cursor_init(&c, t->dt, NULL, 1);
	for (; (run = dt_next_run(&c)); dt_skip(&c, run)) {
		int64_t at = (int64_t)(uintptr_t)c.p;

		if (at < 0 || at < prev || (writable && at < end))
			return 0;
		prev = at;
		end = at + (int64_t)run;
	}
	return 1;
}

static int file_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
		       const char *datarep, MPI_Info info)
{
	int writable;

	if (!file_ok(fh))
		return MPI_ERR_FILE;
	if (!type_ok(etype) || !type_ok(filetype) || smpi_type_size(etype) <= 0 ||
	    smpi_type_size(filetype) % smpi_type_size(etype))
		return MPI_ERR_TYPE;
	writable = !(fh->amode & MPI_MODE_RDONLY);
	if (!view_type_ok(etype, writable) || !view_type_ok(filetype, writable))
		return MPI_ERR_IO;
	/* external32 where it lays the file out as native does (no element
	 * of the view changes size: MPI_LONG, MPI_WCHAR, MPI_LONG_DOUBLE do):
	 * then only the bytes of each element differ. */
	if (datarep && strcmp(datarep, "native") &&
	    (strcmp(datarep, "external32") || !ext32_same_size(etype) ||
	     !ext32_same_size(filetype)))
		return MPI_ERR_UNSUPPORTED_DATAREP;
	fh->ext32 = datarep && !strcmp(datarep, "external32");
	if (disp == MPI_DISPLACEMENT_CURRENT) {
		/* A sequential file has only the shared pointer: the view
		 * starts where it points (every member sees the same). */
		if (!(fh->amode & MPI_MODE_SEQUENTIAL))
			return MPI_ERR_ARG;
		PMPI_Barrier(fh->comm);
		file_get_byte_offset(fh, shared_add(fh, 0), &disp);
	}
	if (disp < 0)
		return MPI_ERR_ARG;
	if (info != MPI_INFO_NULL && smpi_info_keep(&fh->info, info, "MPI_File_set_view"))
		return MPI_ERR_INFO;
	smpi_type_hold(etype);
	smpi_type_hold(filetype);
	smpi_type_release(fh->etype);
	smpi_type_release(fh->filetype);
	fh->etype = etype;
	fh->filetype = filetype;
	fh->esize = smpi_type_size(etype);
	fh->disp = disp;
	fh->pos = 0;
	shared_set(fh, 0);
	return MPI_SUCCESS;
}

static int file_get_view(MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype, MPI_Datatype *filetype,
		       char *datarep)
{
	if (!file_ok(fh))
		return MPI_ERR_FILE;
	*disp = fh->disp;
	smpi_type_hold(fh->etype);
	smpi_type_hold(fh->filetype);
	*etype = fh->etype;
	*filetype = fh->filetype;
	if (datarep)
		strcpy(datarep, fh->ext32 ? "external32" : "native");
	return MPI_SUCCESS;
}

static int file_get_type_extent(MPI_File fh, MPI_Datatype datatype, MPI_Aint *extent)
{
	if (!file_ok(fh))
		return MPI_ERR_FILE;
	if (!type_ok(datatype))
		return MPI_ERR_TYPE;
	*extent = (MPI_Aint)smpi_type_extent(datatype);
	return MPI_SUCCESS;
}

/* ---- explicit offsets ---- */

static int file_read_at(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype,
		      MPI_Status *status)
{
	return file_access(fh, offset, buf, count, datatype, 0, status);
}

static int file_write_at(MPI_File fh, MPI_Offset offset, const void *buf, int count,
		       MPI_Datatype datatype, MPI_Status *status)
{
	return file_access(fh, offset, (void *)buf, count, datatype, 1, status);
}

static int file_read_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count,
			  MPI_Datatype datatype, MPI_Status *status)
{
	return file_read_at(fh, offset, buf, count, datatype, status);
}

static int file_write_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int count,
			   MPI_Datatype datatype, MPI_Status *status)
{
	return file_write_at(fh, offset, buf, count, datatype, status);
}

/* A request that is complete already, carrying st. */
static int done_request(MPI_File fh, int err, const MPI_Status *st, MPI_Request *request)
{
	struct smpi_req *r;

	if (!request)
		return MPI_ERR_REQUEST;
	if (!file_ok(fh)) {
		*request = MPI_REQUEST_NULL;
		return err;
	}
	r = smpi_req_alloc(SMPI_REQ_SEND, 0, NULL, 0, MPI_BYTE, MPI_PROC_NULL, 0, fh->comm);
	r->status = *st;
	r->state = SMPI_ST_DONE;
	*request = r;
	return err;
}

static int file_iread_at(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype,
		       MPI_Request *request)
{
	MPI_Status st;
	int err = file_read_at(fh, offset, buf, count, datatype, &st);

	return done_request(fh, err, &st, request);
}

static int file_iwrite_at(MPI_File fh, MPI_Offset offset, const void *buf, int count,
			MPI_Datatype datatype, MPI_Request *request)
{
	MPI_Status st;
	int err = file_write_at(fh, offset, buf, count, datatype, &st);

	return done_request(fh, err, &st, request);
}

static int file_iread_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count,
			   MPI_Datatype datatype, MPI_Request *request)
{
	return file_iread_at(fh, offset, buf, count, datatype, request);
}

static int file_iwrite_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int count,
			    MPI_Datatype datatype, MPI_Request *request)
{
	return file_iwrite_at(fh, offset, buf, count, datatype, request);
}

/* ---- individual file pointer ---- */

/* The etypes count elements of datatype cover: what a call moves a file
 * pointer by (MPI 3.1 section 13.4.1's new_file_offset), even past the end
 * of file, since a nonblocking call updates it before knowing what it will
 * get. */
static MPI_Offset file_etypes(MPI_File fh, int count, MPI_Datatype datatype)
{
	return (MPI_Offset)count * smpi_type_size(datatype) / fh->esize;
}

static int at_pointer(MPI_File fh, void *buf, int count, MPI_Datatype datatype, int write,
		      MPI_Status *status)
{
	int err;

	if (!file_ok(fh))
		return MPI_ERR_FILE;
	err = file_access(fh, fh->pos, buf, count, datatype, write, status);
	if (err == MPI_SUCCESS)
		fh->pos += file_etypes(fh, count, datatype);
	return err;
}

static int file_read(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
	return at_pointer(fh, buf, count, datatype, 0, status);
}

static int file_write(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
		    MPI_Status *status)
{
	return at_pointer(fh, (void *)buf, count, datatype, 1, status);
}

static int file_read_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
	return at_pointer(fh, buf, count, datatype, 0, status);
}

static int file_write_all(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
			MPI_Status *status)
{
	return at_pointer(fh, (void *)buf, count, datatype, 1, status);
}

static int file_iread(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request)
{
	MPI_Status st;
	int err = at_pointer(fh, buf, count, datatype, 0, &st);

	return done_request(fh, err, &st, request);
}

static int file_iwrite(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
		     MPI_Request *request)
{
	MPI_Status st;
	int err = at_pointer(fh, (void *)buf, count, datatype, 1, &st);

	return done_request(fh, err, &st, request);
}

static int file_iread_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
			MPI_Request *request)
{
	return file_iread(fh, buf, count, datatype, request);
}

static int file_iwrite_all(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
			 MPI_Request *request)
{
	return file_iwrite(fh, buf, count, datatype, request);
}

/* The view position `offset` relative to `whence`: the new position or -1. */
static MPI_Offset seek_to(MPI_File fh, MPI_Offset cur, MPI_Offset offset, int whence)
{
	MPI_Offset size, end = 0;
	struct dt_cursor c;
	int64_t data = 0;

	switch (whence) {
	case MPI_SEEK_SET:
		cur = 0;
		break;
	case MPI_SEEK_CUR:
		break;
	case MPI_SEEK_END:
		/* the first position whose byte lies at or past the end */
		if (file_get_size(fh, &size))
			return -1;
		view_cursor(fh, &c, 0);
		for (size_t run; (run = dt_next_run(&c)) && (uintptr_t)c.p < (uintptr_t)size;) {
			uintptr_t left = (uintptr_t)size - (uintptr_t)c.p;

			data += (int64_t)(run < left ? run : left);
			dt_skip(&c, run);
		}
		end = data / fh->esize;
		cur = end;
		break;
	default:
		return -1;
	}
	return cur + offset < 0 ? -1 : cur + offset;
}

static int file_seek(MPI_File fh, MPI_Offset offset, int whence)
{
	MPI_Offset to;

	if (!file_ok(fh))
		return MPI_ERR_FILE;
	to = seek_to(fh, fh->pos, offset, whence);
	if (to < 0)
		return MPI_ERR_ARG;
	fh->pos = to;
	return MPI_SUCCESS;
}

static int file_get_position(MPI_File fh, MPI_Offset *offset)
{
	if (!file_ok(fh))
		return MPI_ERR_FILE;
	*offset = fh->pos;
	return MPI_SUCCESS;
}

static int file_get_byte_offset(MPI_File fh, MPI_Offset offset, MPI_Offset *disp)
{
	struct dt_cursor c;

	if (!file_ok(fh))
		return MPI_ERR_FILE;
	if (offset < 0)
		return MPI_ERR_ARG;
	view_cursor(fh, &c, offset * fh->esize);
	dt_next_run(&c);
	*disp = (MPI_Offset)(uintptr_t)c.p;
	return MPI_SUCCESS;
}

/* ---- shared file pointer ---- */

static int at_shared(MPI_File fh, void *buf, int count, MPI_Datatype datatype, int write,
		     MPI_Status *status)
{
	MPI_Offset at;

	if (!file_ok(fh))
		return MPI_ERR_FILE;
	if (count < 0 || !type_ok(datatype))
		return count < 0 ? MPI_ERR_COUNT : MPI_ERR_TYPE;
	at = shared_add(fh, file_etypes(fh, count, datatype));
	return file_access(fh, at, buf, count, datatype, write, status);
}

static int file_read_shared(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
			  MPI_Status *status)
{
	return at_shared(fh, buf, count, datatype, 0, status);
}

static int file_write_shared(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
			   MPI_Status *status)
{
	return at_shared(fh, (void *)buf, count, datatype, 1, status);
}

static int file_iread_shared(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
			   MPI_Request *request)
{
	MPI_Status st;
	int err = at_shared(fh, buf, count, datatype, 0, &st);

	return done_request(fh, err, &st, request);
}

static int file_iwrite_shared(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
			    MPI_Request *request)
{
	MPI_Status st;
	int err = at_shared(fh, (void *)buf, count, datatype, 1, &st);

	return done_request(fh, err, &st, request);
}

/* Collective, in rank order: rank r's data follows ranks 0..r-1's. */
static int ordered(MPI_File fh, void *buf, int count, MPI_Datatype datatype, int write,
		   MPI_Status *status)
{
	MPI_Offset mine, before = 0, total, base = 0;
	int rank;

	if (!file_ok(fh))
		return MPI_ERR_FILE;
	if (count < 0 || !type_ok(datatype))
		return count < 0 ? MPI_ERR_COUNT : MPI_ERR_TYPE;
	PMPI_Comm_rank(fh->comm, &rank);
	mine = file_etypes(fh, count, datatype);
	PMPI_Exscan(&mine, &before, 1, MPI_OFFSET, MPI_SUM, fh->comm);
	if (rank == 0)
		before = 0;
	PMPI_Allreduce(&mine, &total, 1, MPI_OFFSET, MPI_SUM, fh->comm);
	if (rank == 0)
		base = shared_add(fh, total);
	PMPI_Bcast(&base, 1, MPI_OFFSET, 0, fh->comm);
	return file_access(fh, base + before, buf, count, datatype, write, status);
}

static int file_read_ordered(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
			   MPI_Status *status)
{
	return ordered(fh, buf, count, datatype, 0, status);
}

static int file_write_ordered(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
			    MPI_Status *status)
{
	return ordered(fh, (void *)buf, count, datatype, 1, status);
}

static int file_seek_shared(MPI_File fh, MPI_Offset offset, int whence)
{
	MPI_Offset cur, to;

	if (!file_ok(fh))
		return MPI_ERR_FILE;
	cur = shared_add(fh, 0);
	to = seek_to(fh, cur, offset, whence);
	if (to < 0)
		return MPI_ERR_ARG;
	shared_set(fh, to);
	return MPI_SUCCESS;
}

static int file_get_position_shared(MPI_File fh, MPI_Offset *offset)
{
	if (!file_ok(fh))
		return MPI_ERR_FILE;
	*offset = shared_add(fh, 0);
	return MPI_SUCCESS;
}

/* ---- split collectives: the work in _begin, the status in _end ---- */

static int split_begin(MPI_File fh, int err, const MPI_Status *st)
{
	if (!file_ok(fh))
		return MPI_ERR_FILE;
	fh->split = 1;
	fh->split_err = err;
	fh->split_status = *st;
	return err;
}

static int split_open(MPI_File fh)
{
	return !file_ok(fh) ? MPI_ERR_FILE : fh->split ? MPI_ERR_OTHER : MPI_SUCCESS;
}

static int split_end(MPI_File fh, MPI_Status *status)
{
	if (!file_ok(fh))
		return MPI_ERR_FILE;
	if (!fh->split)
		return MPI_ERR_OTHER;
	fh->split = 0;
	if (status != MPI_STATUS_IGNORE)
		*status = fh->split_status;
	return fh->split_err;
}

#define SPLIT(call) do {				\
	MPI_Status st_;					\
	int e_ = split_open(fh);			\
	if (e_)						\
		return e_;				\
	return split_begin(fh, call, &st_);		\
} while (0)

static int file_read_at_all_begin(MPI_File fh, MPI_Offset offset, void *buf, int count,
				MPI_Datatype datatype)
{
	SPLIT(file_read_at_all(fh, offset, buf, count, datatype, &st_));
}

static int file_write_at_all_begin(MPI_File fh, MPI_Offset offset, const void *buf, int count,
				 MPI_Datatype datatype)
{
	SPLIT(file_write_at_all(fh, offset, buf, count, datatype, &st_));
}

static int file_read_all_begin(MPI_File fh, void *buf, int count, MPI_Datatype datatype)
{
	SPLIT(file_read_all(fh, buf, count, datatype, &st_));
}

static int file_write_all_begin(MPI_File fh, const void *buf, int count, MPI_Datatype datatype)
{
	SPLIT(file_write_all(fh, buf, count, datatype, &st_));
}

static int file_read_ordered_begin(MPI_File fh, void *buf, int count, MPI_Datatype datatype)
{
	SPLIT(file_read_ordered(fh, buf, count, datatype, &st_));
}

static int file_write_ordered_begin(MPI_File fh, const void *buf, int count, MPI_Datatype datatype)
{
	SPLIT(file_write_ordered(fh, buf, count, datatype, &st_));
}

static int file_read_at_all_end(MPI_File fh, void *buf, MPI_Status *status)
{
	(void)buf;
	return split_end(fh, status);
}

static int file_write_at_all_end(MPI_File fh, const void *buf, MPI_Status *status)
{
	(void)buf;
	return split_end(fh, status);
}

static int file_read_all_end(MPI_File fh, void *buf, MPI_Status *status)
{
	(void)buf;
	return split_end(fh, status);
}

static int file_write_all_end(MPI_File fh, const void *buf, MPI_Status *status)
{
	(void)buf;
	return split_end(fh, status);
}

static int file_read_ordered_end(MPI_File fh, void *buf, MPI_Status *status)
{
	(void)buf;
	return split_end(fh, status);
}

static int file_write_ordered_end(MPI_File fh, const void *buf, MPI_Status *status)
{
	(void)buf;
	return split_end(fh, status);
}

/* ---- consistency ---- */

static int file_set_atomicity(MPI_File fh, int flag)
{
	if (!file_ok(fh))
		return MPI_ERR_FILE;
	fh->atomic = !!flag;
	PMPI_Barrier(fh->comm);
	return MPI_SUCCESS;
}

static int file_get_atomicity(MPI_File fh, int *flag)
{
	if (!file_ok(fh))
		return MPI_ERR_FILE;
	*flag = fh->atomic;
	return MPI_SUCCESS;
}

static int file_sync(MPI_File fh)
{
	int e;

	if (!file_ok(fh))
		return MPI_ERR_FILE;
	e = fsync(fh->fd) ? errno_class(errno) : MPI_SUCCESS;
	PMPI_Barrier(fh->comm);
	return e;
}

/* ---- the standard calls: each raises its error on the file's handler ---- */

/* The handler is taken before the call (which may close the file); fh is
 * what a user handler is given; __func__ + 1 is the MPI_ name. */
#define RAISE(fh, hold, call) do {					\
	struct smpi_errh *h_ = errh_hold(hold);				\
									\
	return errh_raise(fh, h_, call, __func__ + 1);			\
} while (0)

int PMPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh)
{
	RAISE(MPI_FILE_NULL, MPI_FILE_NULL, file_open(comm, filename, amode, info, fh));
}

int PMPI_File_close(MPI_File *fh)
{
	RAISE(MPI_FILE_NULL, fh ? *fh : MPI_FILE_NULL, file_close(fh));
}

int PMPI_File_delete(const char *filename, MPI_Info info)
{
	RAISE(MPI_FILE_NULL, MPI_FILE_NULL, file_delete(filename, info));
}

int PMPI_File_set_size(MPI_File fh, MPI_Offset size)
{
	RAISE(fh, fh, file_set_size(fh, size));
}

int PMPI_File_preallocate(MPI_File fh, MPI_Offset size)
{
	RAISE(fh, fh, file_preallocate(fh, size));
}

int PMPI_File_get_size(MPI_File fh, MPI_Offset *size)
{
	RAISE(fh, fh, file_get_size(fh, size));
}

int PMPI_File_get_group(MPI_File fh, MPI_Group *group)
{
	RAISE(fh, fh, file_get_group(fh, group));
}

int PMPI_File_get_amode(MPI_File fh, int *amode)
{
	RAISE(fh, fh, file_get_amode(fh, amode));
}

int PMPI_File_set_info(MPI_File fh, MPI_Info info)
{
	RAISE(fh, fh, file_set_info(fh, info));
}

int PMPI_File_get_info(MPI_File fh, MPI_Info *info_used)
{
	RAISE(fh, fh, file_get_info(fh, info_used));
}

int PMPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
		const char *datarep, MPI_Info info)
{
	RAISE(fh, fh, file_set_view(fh, disp, etype, filetype, datarep, info));
}

int PMPI_File_get_view(MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype, MPI_Datatype *filetype,
		char *datarep)
{
	RAISE(fh, fh, file_get_view(fh, disp, etype, filetype, datarep));
}

int PMPI_File_read_at(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype,
		MPI_Status *status)
{
	RAISE(fh, fh, file_read_at(fh, offset, buf, count, datatype, status));
}

int PMPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count,
		MPI_Datatype datatype, MPI_Status *status)
{
	RAISE(fh, fh, file_read_at_all(fh, offset, buf, count, datatype, status));
}

int PMPI_File_write_at(MPI_File fh, MPI_Offset offset, const void *buf, int count,
		MPI_Datatype datatype, MPI_Status *status)
{
	RAISE(fh, fh, file_write_at(fh, offset, buf, count, datatype, status));
}

int PMPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int count,
		MPI_Datatype datatype, MPI_Status *status)
{
	RAISE(fh, fh, file_write_at_all(fh, offset, buf, count, datatype, status));
}

int PMPI_File_iread_at(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype,
		MPI_Request *request)
{
	RAISE(fh, fh, file_iread_at(fh, offset, buf, count, datatype, request));
}

int PMPI_File_iwrite_at(MPI_File fh, MPI_Offset offset, const void *buf, int count,
		MPI_Datatype datatype, MPI_Request *request)
{
	RAISE(fh, fh, file_iwrite_at(fh, offset, buf, count, datatype, request));
}

int PMPI_File_iread_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count,
		MPI_Datatype datatype, MPI_Request *request)
{
	RAISE(fh, fh, file_iread_at_all(fh, offset, buf, count, datatype, request));
}

int PMPI_File_iwrite_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int count,
		MPI_Datatype datatype, MPI_Request *request)
{
	RAISE(fh, fh, file_iwrite_at_all(fh, offset, buf, count, datatype, request));
}

int PMPI_File_read(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
	RAISE(fh, fh, file_read(fh, buf, count, datatype, status));
}

int PMPI_File_read_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
	RAISE(fh, fh, file_read_all(fh, buf, count, datatype, status));
}

int PMPI_File_write(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
		MPI_Status *status)
{
	RAISE(fh, fh, file_write(fh, buf, count, datatype, status));
}

int PMPI_File_write_all(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
		MPI_Status *status)
{
	RAISE(fh, fh, file_write_all(fh, buf, count, datatype, status));
}

int PMPI_File_iread(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request)
{
	RAISE(fh, fh, file_iread(fh, buf, count, datatype, request));
}

int PMPI_File_iwrite(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
		MPI_Request *request)
{
	RAISE(fh, fh, file_iwrite(fh, buf, count, datatype, request));
}

int PMPI_File_iread_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
		MPI_Request *request)
{
	RAISE(fh, fh, file_iread_all(fh, buf, count, datatype, request));
}

int PMPI_File_iwrite_all(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
		MPI_Request *request)
{
	RAISE(fh, fh, file_iwrite_all(fh, buf, count, datatype, request));
}

int PMPI_File_seek(MPI_File fh, MPI_Offset offset, int whence)
{
	RAISE(fh, fh, file_seek(fh, offset, whence));
}

int PMPI_File_get_position(MPI_File fh, MPI_Offset *offset)
{
	RAISE(fh, fh, file_get_position(fh, offset));
}

int PMPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset, MPI_Offset *disp)
{
	RAISE(fh, fh, file_get_byte_offset(fh, offset, disp));
}

int PMPI_File_read_shared(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
		MPI_Status *status)
{
	RAISE(fh, fh, file_read_shared(fh, buf, count, datatype, status));
}

int PMPI_File_write_shared(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
		MPI_Status *status)
{
	RAISE(fh, fh, file_write_shared(fh, buf, count, datatype, status));
}

int PMPI_File_iread_shared(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
		MPI_Request *request)
{
	RAISE(fh, fh, file_iread_shared(fh, buf, count, datatype, request));
}

int PMPI_File_iwrite_shared(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
		MPI_Request *request)
{
	RAISE(fh, fh, file_iwrite_shared(fh, buf, count, datatype, request));
}

int PMPI_File_read_ordered(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
		MPI_Status *status)
{
	RAISE(fh, fh, file_read_ordered(fh, buf, count, datatype, status));
}

int PMPI_File_write_ordered(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
		MPI_Status *status)
{
	RAISE(fh, fh, file_write_ordered(fh, buf, count, datatype, status));
}

int PMPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence)
{
	RAISE(fh, fh, file_seek_shared(fh, offset, whence));
}

int PMPI_File_get_position_shared(MPI_File fh, MPI_Offset *offset)
{
	RAISE(fh, fh, file_get_position_shared(fh, offset));
}

int PMPI_File_read_at_all_begin(MPI_File fh, MPI_Offset offset, void *buf, int count,
		MPI_Datatype datatype)
{
	RAISE(fh, fh, file_read_at_all_begin(fh, offset, buf, count, datatype));
}

int PMPI_File_read_at_all_end(MPI_File fh, void *buf, MPI_Status *status)
{
	RAISE(fh, fh, file_read_at_all_end(fh, buf, status));
}

int PMPI_File_write_at_all_begin(MPI_File fh, MPI_Offset offset, const void *buf, int count,
		MPI_Datatype datatype)
{
	RAISE(fh, fh, file_write_at_all_begin(fh, offset, buf, count, datatype));
}

int PMPI_File_write_at_all_end(MPI_File fh, const void *buf, MPI_Status *status)
{
	RAISE(fh, fh, file_write_at_all_end(fh, buf, status));
}

int PMPI_File_read_all_begin(MPI_File fh, void *buf, int count, MPI_Datatype datatype)
{
	RAISE(fh, fh, file_read_all_begin(fh, buf, count, datatype));
}

int PMPI_File_read_all_end(MPI_File fh, void *buf, MPI_Status *status)
{
	RAISE(fh, fh, file_read_all_end(fh, buf, status));
}

int PMPI_File_write_all_begin(MPI_File fh, const void *buf, int count, MPI_Datatype datatype)
{
	RAISE(fh, fh, file_write_all_begin(fh, buf, count, datatype));
}

int PMPI_File_write_all_end(MPI_File fh, const void *buf, MPI_Status *status)
{
	RAISE(fh, fh, file_write_all_end(fh, buf, status));
}

int PMPI_File_read_ordered_begin(MPI_File fh, void *buf, int count, MPI_Datatype datatype)
{
	RAISE(fh, fh, file_read_ordered_begin(fh, buf, count, datatype));
}

int PMPI_File_read_ordered_end(MPI_File fh, void *buf, MPI_Status *status)
{
	RAISE(fh, fh, file_read_ordered_end(fh, buf, status));
}

int PMPI_File_write_ordered_begin(MPI_File fh, const void *buf, int count, MPI_Datatype datatype)
{
	RAISE(fh, fh, file_write_ordered_begin(fh, buf, count, datatype));
}

int PMPI_File_write_ordered_end(MPI_File fh, const void *buf, MPI_Status *status)
{
	RAISE(fh, fh, file_write_ordered_end(fh, buf, status));
}

int PMPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype, MPI_Aint *extent)
{
	RAISE(fh, fh, file_get_type_extent(fh, datatype, extent));
}

int PMPI_File_set_atomicity(MPI_File fh, int flag)
{
	RAISE(fh, fh, file_set_atomicity(fh, flag));
}

int PMPI_File_get_atomicity(MPI_File fh, int *flag)
{
	RAISE(fh, fh, file_get_atomicity(fh, flag));
}

int PMPI_File_sync(MPI_File fh)
{
	RAISE(fh, fh, file_sync(fh));
}

SMPI_ALIAS(File_open)
SMPI_ALIAS(File_close)
SMPI_ALIAS(File_delete)
SMPI_ALIAS(File_set_size)
SMPI_ALIAS(File_preallocate)
SMPI_ALIAS(File_get_size)
SMPI_ALIAS(File_get_group)
SMPI_ALIAS(File_get_amode)
SMPI_ALIAS(File_set_info)
SMPI_ALIAS(File_get_info)
SMPI_ALIAS(File_set_view)
SMPI_ALIAS(File_get_view)
SMPI_ALIAS(File_get_type_extent)
SMPI_ALIAS(File_read_at)
SMPI_ALIAS(File_read_at_all)
SMPI_ALIAS(File_write_at)
SMPI_ALIAS(File_write_at_all)
SMPI_ALIAS(File_iread_at)
SMPI_ALIAS(File_iwrite_at)
SMPI_ALIAS(File_iread_at_all)
SMPI_ALIAS(File_iwrite_at_all)
SMPI_ALIAS(File_read)
SMPI_ALIAS(File_read_all)
SMPI_ALIAS(File_write)
SMPI_ALIAS(File_write_all)
SMPI_ALIAS(File_iread)
SMPI_ALIAS(File_iwrite)
SMPI_ALIAS(File_iread_all)
SMPI_ALIAS(File_iwrite_all)
SMPI_ALIAS(File_seek)
SMPI_ALIAS(File_get_position)
SMPI_ALIAS(File_get_byte_offset)
SMPI_ALIAS(File_read_shared)
SMPI_ALIAS(File_write_shared)
SMPI_ALIAS(File_iread_shared)
SMPI_ALIAS(File_iwrite_shared)
SMPI_ALIAS(File_read_ordered)
SMPI_ALIAS(File_write_ordered)
SMPI_ALIAS(File_seek_shared)
SMPI_ALIAS(File_get_position_shared)
SMPI_ALIAS(File_read_at_all_begin)
SMPI_ALIAS(File_read_at_all_end)
SMPI_ALIAS(File_write_at_all_begin)
SMPI_ALIAS(File_write_at_all_end)
SMPI_ALIAS(File_read_all_begin)
SMPI_ALIAS(File_read_all_end)
SMPI_ALIAS(File_write_all_begin)
SMPI_ALIAS(File_write_all_end)
SMPI_ALIAS(File_read_ordered_begin)
SMPI_ALIAS(File_read_ordered_end)
SMPI_ALIAS(File_write_ordered_begin)
SMPI_ALIAS(File_write_ordered_end)
SMPI_ALIAS(File_set_atomicity)
SMPI_ALIAS(File_get_atomicity)
SMPI_ALIAS(File_sync)
SMPI_ALIAS(File_create_errhandler)
SMPI_ALIAS(File_set_errhandler)
SMPI_ALIAS(File_get_errhandler)
SMPI_ALIAS(File_call_errhandler)
