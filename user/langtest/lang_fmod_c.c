/*
 * lang_fmod_c.c - lang_fmod's C half: attributes across languages (MPI 3.1
 * section 17.2.7).  C reads an attribute Fortran set through a pointer to
 * its integer; Fortran reads a C attribute's pointer as an integer.
 */
#include <mpi.h>

static int c_value = 42;

/* The value of the Fortran-set attribute keyval on comm, read from C. */
void c_read_fortran_attr_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Aint *val, MPI_Fint *flag)
{
	MPI_Aint *p = 0;
	int f = 0;

	MPI_Comm_get_attr(MPI_Comm_f2c(*comm), *keyval, &p, &f);
	*flag = f;
	*val = f ? *p : 0;
}

/* Sets keyval on comm from C, to &c_value; *addr: that address. */
void c_set_attr_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Aint *addr)
{
	MPI_Comm_set_attr(MPI_Comm_f2c(*comm), *keyval, &c_value);
	*addr = (MPI_Aint)&c_value;
}
