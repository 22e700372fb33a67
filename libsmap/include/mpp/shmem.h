/*
 * mpp/shmem.h - SHMEM's header where SGI's and Cray's SHMEM kept it, and
 * where Open MPI's man pages and SOS still offer it: programs written
 * against them include this path.  The API is shmem.h's.
 */
#include <shmem.h>
