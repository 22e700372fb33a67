/*
 * mpit_file - MPI-IO conformance: views with derived types, collective
 * writes of interleaved pieces verified byte by byte, explicit offsets,
 * individual and shared pointers, ordered and split collectives,
 * nonblocking calls, sizes, atomicity, error classes, file error
 * handlers (`mpit_file fatal`: MPI_ERRORS_ARE_FATAL ends the job), views
 * the standard forbids, hints kept, MPI_DISPLACEMENT_CURRENT on a
 * sequential file and the external32 representation.  The same binary
 * runs on the kernel (files through the I/O server) and in host mode.
 * Each check is agreed by all ranks and printed once by rank 0.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <mpi.h>

#define B	3	/* ints per piece */
#define NBLK	50	/* pieces per rank */

static int rank, size, failures;

static void check(int ok, const char *name)
{
	int all;

	MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
	if (rank == 0)
		printf("%sok %s\n", all ? "" : "not ", name);
	failures += !all;
}

static int err_class(int err)
{
	int cls;

	MPI_Error_class(err, &cls);
	return cls;
}

/* Rank 0 reads the whole file with plain POSIX calls. */
static long slurp(const char *name, unsigned char *buf, long max)
{
	int fd = open(name, O_RDONLY);
	long n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, (size_t)max);
	close(fd);
	return n;
}

static void interleaved(void)
{
	MPI_Datatype vec, ftype;
	MPI_File fh;
	MPI_Status st;
	MPI_Offset sz, byte;
	int n = NBLK * B, *data = malloc(sizeof(int) * (size_t)n), *back = calloc((size_t)n, sizeof(int));
	long total = (long)size * n * (long)sizeof(int);
	unsigned char *whole = malloc((size_t)total + 16);
	int ok, count;

	/* rank r owns pieces r, r + P, r + 2P...: value = the int's index in the file */
	for (int k = 0; k < NBLK; k++)
		for (int j = 0; j < B; j++)
			data[k * B + j] = (k * size + rank) * B + j;
	MPI_Type_vector(NBLK, B, B * size, MPI_INT, &vec);
	MPI_Type_create_resized(vec, 0, (MPI_Aint)sizeof(int) * B * size * NBLK, &ftype);
	MPI_Type_commit(&ftype);
	ok = MPI_File_open(MPI_COMM_WORLD, "mpiio.dat", MPI_MODE_CREATE | MPI_MODE_RDWR,
			   MPI_INFO_NULL, &fh) == MPI_SUCCESS;
	check(ok, "open CREATE|RDWR");
	ok = MPI_File_set_view(fh, (MPI_Offset)rank * B * sizeof(int), MPI_INT, ftype, "native",
			       MPI_INFO_NULL) == MPI_SUCCESS;
	check(ok, "set_view with a vector filetype");
	ok = MPI_File_write_all(fh, data, n, MPI_INT, &st) == MPI_SUCCESS &&
	     MPI_Get_count(&st, MPI_INT, &count) == MPI_SUCCESS && count == n;
	check(ok, "write_all of interleaved pieces, count in the status");
	MPI_File_sync(fh);
	ok = MPI_File_get_size(fh, &sz) == MPI_SUCCESS && sz == total;
	check(ok, "get_size: every rank's pieces");
	ok = 1;
	if (rank == 0) {
		ok = slurp("mpiio.dat", whole, total + 16) == total;
		for (long i = 0; ok && i < total / (long)sizeof(int); i++) {
			int v = (int)i;

			ok = !memcmp(whole + i * sizeof(int), &v, sizeof(int));
		}
	}
	check(ok, "the file, byte by byte: ranks' pieces interleaved in order");
	ok = MPI_File_read_at_all(fh, 0, back, n, MPI_INT, &st) == MPI_SUCCESS &&
	     !memcmp(back, data, sizeof(int) * (size_t)n);
	check(ok, "read_at_all through the view gives each rank its pieces");
	ok = MPI_File_get_byte_offset(fh, B, &byte) == MPI_SUCCESS &&
	     byte == (MPI_Offset)(rank + size) * B * (MPI_Offset)sizeof(int);
	check(ok, "get_byte_offset of the second piece");
	{
		MPI_Offset d;
		MPI_Datatype et, ft;
		char rep[MPI_MAX_DATAREP_STRING];

		ok = MPI_File_get_view(fh, &d, &et, &ft, rep) == MPI_SUCCESS &&
		     d == (MPI_Offset)rank * B * (MPI_Offset)sizeof(int) && et == MPI_INT &&
		     !strcmp(rep, "native");
		check(ok, "get_view");
	}
	/* split collective over the same view: rewrite negated, read back */
	for (int i = 0; i < n; i++)
		data[i] = -data[i];
	ok = MPI_File_write_at_all_begin(fh, 0, data, n, MPI_INT) == MPI_SUCCESS &&
	     MPI_File_write_at_all_end(fh, data, &st) == MPI_SUCCESS;
	memset(back, 0, sizeof(int) * (size_t)n);
	ok = ok && MPI_File_seek(fh, 0, MPI_SEEK_SET) == MPI_SUCCESS &&
	     MPI_File_read_all_begin(fh, back, n, MPI_INT) == MPI_SUCCESS &&
	     MPI_File_read_all_end(fh, back, &st) == MPI_SUCCESS &&
	     !memcmp(back, data, sizeof(int) * (size_t)n);
	check(ok, "split collectives: write_at_all_begin/end, read_all_begin/end");
	ok = MPI_File_read_all_end(fh, back, &st) != MPI_SUCCESS;
	check(ok, "an _end without its _begin is an error");
	MPI_File_close(&fh);
	MPI_Type_free(&ftype);
	MPI_Type_free(&vec);
	free(data);
	free(back);
	free(whole);
}

static void pointers(void)
{
	MPI_File fh;
	MPI_Status st;
	MPI_Request rq;
	MPI_Offset pos, sz;
	MPI_Datatype every_other;
	int v[8], got[8] = { 0 }, ok, count;
	int strided[8] = { 10, -1, 11, -1, 12, -1, 13, -1 };
	unsigned char buf[256];

	ok = MPI_File_open(MPI_COMM_WORLD, "mpiio2.dat", MPI_MODE_CREATE | MPI_MODE_RDWR |
			   MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh) == MPI_SUCCESS;
	check(ok, "open with DELETE_ON_CLOSE");
	/* individual pointers, each rank in its own 64-byte block */
	for (int i = 0; i < 8; i++)
		v[i] = rank * 100 + i;
	ok = MPI_File_seek(fh, rank * 64, MPI_SEEK_SET) == MPI_SUCCESS &&
	     MPI_File_write(fh, v, 4, MPI_INT, &st) == MPI_SUCCESS &&
	     MPI_File_get_position(fh, &pos) == MPI_SUCCESS && pos == rank * 64 + 16;
	check(ok, "write at the individual pointer advances it");
	ok = MPI_File_seek(fh, -16, MPI_SEEK_CUR) == MPI_SUCCESS &&
	     MPI_File_read(fh, got, 4, MPI_INT, &st) == MPI_SUCCESS && !memcmp(got, v, 16);
	check(ok, "seek back (SEEK_CUR) and read");
	/* a strided memory type: every other int */
	MPI_Type_vector(4, 1, 2, MPI_INT, &every_other);
	MPI_Type_commit(&every_other);
	ok = MPI_File_write_at(fh, rank * 64 + 32, strided, 1, every_other, &st) == MPI_SUCCESS &&
	     MPI_File_read_at(fh, rank * 64 + 32, got, 4, MPI_INT, &st) == MPI_SUCCESS &&
	     got[0] == 10 && got[1] == 11 && got[2] == 12 && got[3] == 13;
	check(ok, "write_at from a strided memory type packs it");
	memset(strided, 0, sizeof(strided));
	ok = MPI_File_read_at(fh, rank * 64 + 32, strided, 1, every_other, &st) == MPI_SUCCESS &&
	     strided[0] == 10 && strided[2] == 11 && strided[4] == 12 && strided[6] == 13 &&
	     strided[1] == 0;
	check(ok, "read_at into a strided memory type unpacks it");
	MPI_Type_free(&every_other);
	/* nonblocking */
	ok = MPI_File_iwrite_at(fh, rank * 64 + 48, v, 2, MPI_INT, &rq) == MPI_SUCCESS &&
	     MPI_Wait(&rq, &st) == MPI_SUCCESS && MPI_Get_count(&st, MPI_INT, &count) == MPI_SUCCESS &&
	     count == 2 && rq == MPI_REQUEST_NULL;
	ok = ok && MPI_File_iread_at(fh, rank * 64 + 48, got, 2, MPI_INT, &rq) == MPI_SUCCESS &&
	     MPI_Wait(&rq, &st) == MPI_SUCCESS && got[0] == v[0] && got[1] == v[1];
	check(ok, "iwrite_at, iread_at and MPI_Wait");
	/* read past the end: fewer elements */
	MPI_File_get_size(fh, &sz);
	ok = MPI_File_read_at(fh, sz - 4, got, 4, MPI_INT, &st) == MPI_SUCCESS &&
	     MPI_Get_count(&st, MPI_INT, &count) == MPI_SUCCESS && count == 1;
	check(ok, "a read across the end of file counts what it got");
	ok = MPI_File_seek(fh, sz - 4, MPI_SEEK_SET) == MPI_SUCCESS &&
	     MPI_File_read(fh, got, 4, MPI_INT, &st) == MPI_SUCCESS &&
	     MPI_Get_count(&st, MPI_INT, &count) == MPI_SUCCESS && count == 1 &&
	     MPI_File_get_position(fh, &pos) == MPI_SUCCESS && pos == sz + 12;
	check(ok, "a read across the end of file moves the pointer past all it asked for");
	MPI_Barrier(MPI_COMM_WORLD);

	/* shared pointer: each rank writes its rank once, in some order */
	ok = MPI_File_set_size(fh, 0) == MPI_SUCCESS && MPI_File_get_size(fh, &sz) == MPI_SUCCESS &&
	     sz == 0;
	check(ok, "set_size 0");
	ok = MPI_File_seek_shared(fh, 0, MPI_SEEK_SET) == MPI_SUCCESS &&
	     MPI_File_write_shared(fh, &rank, 1, MPI_INT, &st) == MPI_SUCCESS;
	MPI_File_sync(fh);
	ok = ok && MPI_File_get_position_shared(fh, &pos) == MPI_SUCCESS && pos == size * 4;
	check(ok, "write_shared moves the shared pointer by everyone's data");
	ok = 1;
	if (rank == 0) {
		int seen[64] = { 0 }, r;

		for (int i = 0; ok && i < size; i++) {
			ok = MPI_File_read_at(fh, i * 4, &r, 1, MPI_INT, &st) == MPI_SUCCESS &&
			     r >= 0 && r < size && !seen[r];
			if (ok)
				seen[r] = 1;
		}
	}
	check(ok, "write_shared: every rank's int exactly once");
	/* ordered: rank r writes r + 1 bytes of value r, in rank order */
	memset(buf, rank, sizeof(buf));
	ok = MPI_File_write_ordered(fh, buf, rank + 1, MPI_BYTE, &st) == MPI_SUCCESS;
	MPI_File_sync(fh);
	if (rank == 0) {
		MPI_Offset at = size * 4;

		for (int r = 0; ok && r < size; r++) {
			unsigned char b[64];

			ok = MPI_File_read_at(fh, at, b, r + 1, MPI_BYTE, &st) == MPI_SUCCESS;
			for (int i = 0; ok && i <= r; i++)
				ok = b[i] == r;
			at += r + 1;
		}
	}
	check(ok, "write_ordered puts the ranks' data in rank order");
	ok = MPI_File_seek_shared(fh, size * 4, MPI_SEEK_SET) == MPI_SUCCESS &&
	     MPI_File_read_ordered_begin(fh, buf, rank + 1, MPI_BYTE) == MPI_SUCCESS &&
	     MPI_File_read_ordered_end(fh, buf, &st) == MPI_SUCCESS && buf[0] == rank &&
	     buf[rank] == rank;
	check(ok, "read_ordered_begin/end");
	ok = MPI_File_preallocate(fh, 4096) == MPI_SUCCESS &&
	     MPI_File_get_size(fh, &sz) == MPI_SUCCESS && sz == 4096;
	check(ok, "preallocate grows the file");
	{
		int flag = 0, amode = 0;

		ok = MPI_File_set_atomicity(fh, 1) == MPI_SUCCESS &&
		     MPI_File_get_atomicity(fh, &flag) == MPI_SUCCESS && flag &&
		     MPI_File_write_at(fh, rank * 4, &rank, 1, MPI_INT, &st) == MPI_SUCCESS &&
		     MPI_File_set_atomicity(fh, 0) == MPI_SUCCESS &&
		     MPI_File_get_amode(fh, &amode) == MPI_SUCCESS &&
		     (amode & MPI_MODE_DELETE_ON_CLOSE);
		check(ok, "atomic mode, get_amode");
	}
	ok = MPI_File_close(&fh) == MPI_SUCCESS && fh == MPI_FILE_NULL;
	check(ok, "close");
	ok = access("mpiio2.dat", F_OK) < 0 && errno == ENOENT;
	check(ok, "DELETE_ON_CLOSE removed the file");
}

static int handled;

static void count_errors(MPI_File *fh, int *code, ...)
{
	(void)fh;
	handled = *code;
}

static void handlers(void)
{
	MPI_Errhandler eh, got;
	MPI_File fh;
	int ok;

	ok = MPI_File_create_errhandler(count_errors, &eh) == MPI_SUCCESS &&
	     MPI_File_set_errhandler(MPI_FILE_NULL, eh) == MPI_SUCCESS &&
	     MPI_File_open(MPI_COMM_WORLD, "no-such-file", MPI_MODE_RDONLY, MPI_INFO_NULL, &fh) !=
	     MPI_SUCCESS && err_class(handled) == MPI_ERR_NO_SUCH_FILE;
	check(ok, "a handler set on MPI_FILE_NULL sees open's error");
	ok = MPI_File_get_errhandler(MPI_FILE_NULL, &got) == MPI_SUCCESS && got == eh &&
	     MPI_Errhandler_free(&got) == MPI_SUCCESS;
	handled = 0;
	ok = ok && MPI_File_open(MPI_COMM_WORLD, "mpiio3.dat", MPI_MODE_CREATE | MPI_MODE_RDONLY,
				 MPI_INFO_NULL, &fh) != MPI_SUCCESS && handled == MPI_ERR_AMODE;
	check(ok, "get_errhandler; a bad amode reaches the handler");
	ok = MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN) == MPI_SUCCESS &&
	     MPI_Errhandler_free(&eh) == MPI_SUCCESS;
	handled = 0;
	ok = ok && MPI_File_open(MPI_COMM_WORLD, "no-such-file", MPI_MODE_RDONLY, MPI_INFO_NULL,
				 &fh) != MPI_SUCCESS && handled == 0;
	check(ok, "back to MPI_ERRORS_RETURN");
}

static void errors(void)
{
	MPI_File fh;
	MPI_Status st;
	int ok, v = 1;

	ok = err_class(MPI_File_open(MPI_COMM_WORLD, "no-such-file", MPI_MODE_RDONLY, MPI_INFO_NULL,
				     &fh)) == MPI_ERR_NO_SUCH_FILE && fh == MPI_FILE_NULL;
	check(ok, "open of a missing file: MPI_ERR_NO_SUCH_FILE");
	ok = err_class(MPI_File_open(MPI_COMM_WORLD, "mpiio.dat", MPI_MODE_CREATE | MPI_MODE_EXCL |
				     MPI_MODE_WRONLY, MPI_INFO_NULL, &fh)) == MPI_ERR_FILE_EXISTS;
	check(ok, "CREATE|EXCL on an existing file: MPI_ERR_FILE_EXISTS");
	ok = err_class(MPI_File_open(MPI_COMM_WORLD, "mpiio.dat", MPI_MODE_RDONLY | MPI_MODE_RDWR,
				     MPI_INFO_NULL, &fh)) == MPI_ERR_AMODE;
	check(ok, "two access modes: MPI_ERR_AMODE");
	ok = MPI_File_open(MPI_COMM_WORLD, "mpiio.dat", MPI_MODE_RDONLY, MPI_INFO_NULL, &fh) ==
	     MPI_SUCCESS && err_class(MPI_File_write_at(fh, 0, &v, 1, MPI_INT, &st)) ==
	     MPI_ERR_READ_ONLY && MPI_File_close(&fh) == MPI_SUCCESS;
	check(ok, "a write to a read-only file: MPI_ERR_READ_ONLY");
	MPI_Barrier(MPI_COMM_WORLD);
	ok = rank != 0 || MPI_File_delete("mpiio.dat", MPI_INFO_NULL) == MPI_SUCCESS;
	MPI_Barrier(MPI_COMM_WORLD);
	ok = ok && err_class(MPI_File_delete("mpiio.dat", MPI_INFO_NULL)) == MPI_ERR_NO_SUCH_FILE;
	check(ok, "File_delete, and again: MPI_ERR_NO_SUCH_FILE");
}

/* A view's types: non-negative, nondecreasing, and no overlap when the
 * file can be written (MPI_ERR_IO, as ROMIO). */
static int view_refused(MPI_File fh, const int *disp, const int *blen)
{
	MPI_Datatype t;
	int err;

	MPI_Type_indexed(2, blen, disp, MPI_INT, &t);
	MPI_Type_commit(&t);
	err = MPI_File_set_view(fh, 0, MPI_INT, t, "native", MPI_INFO_NULL);
	MPI_Type_free(&t);
	return err_class(err) == MPI_ERR_IO;
}

static void views(void)
{
	static const int neg[] = { -2, 2 }, dec[] = { 3, 0 }, ovl[] = { 0, 1 }, one[] = { 1, 1 },
			 three[] = { 3, 1 };
	MPI_File fh;
	MPI_Info info, used;
	MPI_Status st;
	MPI_Offset at;
	char val[64], rep[MPI_MAX_DATAREP_STRING];
	unsigned char raw[8];
	int ok, flag = 0, v[2] = { 0x01020304, -2 }, w[2] = { 0, 0 };
	MPI_Datatype e, f;

	MPI_Info_create(&info);
	MPI_Info_set(info, "access_style", "write_once");
	ok = MPI_File_open(MPI_COMM_WORLD, "views.dat", MPI_MODE_CREATE | MPI_MODE_RDWR, info,
			   &fh) == MPI_SUCCESS;
	MPI_Info_free(&info);
	ok = ok && view_refused(fh, neg, one) && view_refused(fh, dec, one) &&
	     view_refused(fh, ovl, three);
	check(ok, "views with negative, decreasing or overlapping displacements: MPI_ERR_IO");
	MPI_File_get_info(fh, &used);
	MPI_Info_get(used, "access_style", sizeof val - 1, val, &flag);
	check(flag && !strcmp(val, "write_once"), "File_get_info gives the hints back");
	MPI_Info_free(&used);

	/* external32: big-endian in the file, native in memory */
	MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "external32", MPI_INFO_NULL);
	MPI_File_get_view(fh, &at, &e, &f, rep);
	ok = !strcmp(rep, "external32");
	if (rank == 0)
		ok = ok && MPI_File_write_at(fh, 0, v, 2, MPI_INT, &st) == MPI_SUCCESS;
	MPI_File_sync(fh);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_File_sync(fh);
	ok = ok && MPI_File_read_at(fh, 0, w, 2, MPI_INT, &st) == MPI_SUCCESS && w[0] == v[0] &&
	     w[1] == v[1];
	if (rank == 0) {
		static const unsigned char be[8] = { 1, 2, 3, 4, 0xff, 0xff, 0xff, 0xfe };

		ok = ok && slurp("views.dat", raw, sizeof raw) == 8 && !memcmp(raw, be, 8);
	}
	ok = ok && err_class(MPI_File_set_view(fh, 0, MPI_LONG, MPI_LONG, "external32",
					       MPI_INFO_NULL)) == MPI_ERR_UNSUPPORTED_DATAREP;
	check(ok, "external32 view: big-endian in the file; MPI_LONG's view refused");
	MPI_File_close(&fh);

	/* A sequential file: the view starts at the shared pointer. */
	MPI_File_open(MPI_COMM_WORLD, "views.dat", MPI_MODE_RDONLY | MPI_MODE_SEQUENTIAL |
		      MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh);
	if (rank == 0)
		MPI_File_read_shared(fh, w, 4, MPI_BYTE, &st);
	MPI_Barrier(MPI_COMM_WORLD);
	ok = MPI_File_set_view(fh, MPI_DISPLACEMENT_CURRENT, MPI_BYTE, MPI_BYTE, "native",
			       MPI_INFO_NULL) == MPI_SUCCESS;
	MPI_File_get_view(fh, &at, &e, &f, rep);
	check(ok && at == 4, "MPI_DISPLACEMENT_CURRENT: the shared pointer's place");
	MPI_File_close(&fh);
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc > 1 && !strcmp(argv[1], "fatal")) {
		MPI_File fh;

		/* as Graph500 does: file errors end the job */
		MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_ARE_FATAL);
		MPI_File_open(MPI_COMM_WORLD, "no-such-file", MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
		printf("not ok open of a missing file returned under MPI_ERRORS_ARE_FATAL\n");
		MPI_Finalize();
		return 1;
	}
	interleaved();
	pointers();
	errors();
	handlers();
	views();
	MPI_Finalize();
	return failures ? 1 : 0;
}
