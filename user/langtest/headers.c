/* Every public header of libsmap at once: tests/suites/lang.py compiles this
 * as C11 and as C++11, -pedantic -Wall -Wextra -Werror (docs/languages.md). */
#include <mpi.h>
#include <pshmem.h>
#include <rpipe.h>
#include <shmem.h>
#include <smap.h>
#include <mpp/shmem.h>

int headers_compile(void);

int headers_compile(void)
{
	return SHMEM_MAJOR_VERSION + MPI_VERSION;
}
