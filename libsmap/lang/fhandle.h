/*
 * fhandle.h - MPI handles as Fortran integers (docs/languages.md).
 *
 * C handles are pointers; Fortran's are INTEGERs.  Each handle type has a
 * table: the Fortran value is an index into it.  Index 0 is the type's NULL
 * handle, then come the predefined handles in the order mpi.h defines them
 * (so mpif.h can make them PARAMETERs), then handles numbered on first
 * conversion.  A hash from pointer to index makes c2f O(1) and gives an
 * object one number for as long as it lives; a handle that a free or a
 * completion turns to NULL gives its number back.  The tables themselves
 * are generated from mpi.h by genf.py (mpi_handles.c).
 */
#ifndef SMPI_FHANDLE_H
#define SMPI_FHANDLE_H

#include <stddef.h>
#include "mpi.h"
#include "../mpi/attr.h"

struct fh_slot {
	void *p;
	MPI_Fint f;
};

struct fh_table {
	void *const *pre;	/* NULL, then the predefined handles */
	int npre;
	int lock;
	void **obj;		/* index -> object */
	int *uses;		/* index -> references handed out beyond the first */
	int n, cap;
	int *free_idx;		/* released indices, reused first */
	int nfree;
	struct fh_slot *hash;	/* object -> index, linear probing */
	size_t hcap, hused;
};

/* The Fortran sentinels' COMMON blocks (mpi_handles.c gives each the size
 * Fortran declares, so the linker sees one size). */
extern MPI_Fint smpi_fbottom_[], smpi_finplace_[], smpi_fstatus_ignore_[],
	smpi_fstatuses_ignore_[], smpi_ferrcodes_ignore_[], smpi_funweighted_[],
	smpi_fweights_empty_[], smpi_fbuffer_automatic_[];

extern struct fh_table smpi_fh_comm, smpi_fh_datatype, smpi_fh_op;

MPI_Fint smpi_fh_c2f(struct fh_table *t, const void *p);
void *smpi_fh_f2c(struct fh_table *t, MPI_Fint f);
/* The Fortran value after a call: c_new's number; `release` (a free or a
 * completion) gives f_old's number back when the call turned c_old to NULL
 * and no other reference Fortran was given to the object (MPI_Comm_group
 * twice, MPI_Type_get_contents of a dup) still holds it. */
MPI_Fint smpi_fh_update(struct fh_table *t, MPI_Fint f_old, const void *c_old, const void *c_new,
			int release);
void **smpi_fh_array(struct fh_table *t, const MPI_Fint *f, int n);
void smpi_fh_array_back(struct fh_table *t, MPI_Fint *f, void **c, int n, int release);
void smpi_fh_array_free(void *c, int n);
int smpi_fh_comm_size(const MPI_Fint *comm);

/* Choice buffers and int arrays: Fortran's sentinels to C's values. */
void *smpi_fbuf(const void *p);
const int *smpi_fints(const int *p);
/* MPI-1's INTEGER addresses and displacements (genf.py's MPI1_INT_AINT):
 * n of them as MPI_Aint (malloc'd; NULL for none), and a result back,
 * which must fit (else MPI_ERR_ARG through MPI_COMM_WORLD's handler). */
MPI_Aint *smpi_faints(const MPI_Fint *f, int n);
int smpi_faint_out(MPI_Fint *f, MPI_Aint v, const char *fn);

/* The error code to Fortran: ierror is optional in mpi_f08 (NULL when
 * absent), required in mpif.h and the mpi module. */
static inline void smpi_fret(MPI_Fint *ierr, int err)
{
	if (ierr)
		*ierr = err;
}

/* Fortran strings: blank-padded, with a hidden length. */
char *smpi_fstr_in(const char *s, size_t len);
/* An info key or value: leading blanks go too. */
char *smpi_fstr_in_info(const char *s, size_t len);
char *smpi_fstr_buf(size_t len);
void smpi_fstr_out(char *dst, size_t len, char *src);

#endif
