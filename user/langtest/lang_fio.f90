! lang_fio.f90 - Fortran MPI-IO through `use mpi`: every rank writes its
! piece with a collective write at explicit offsets, reads its neighbour's,
! checks the size, and rank 0 deletes the file.  Each rank prints its TAP
! lines (the same names: one check for the job).
program lang_fio
  use mpi
  implicit none
  integer :: ierr, rank, nranks, fh, i, buf(4), got(4), status(MPI_STATUS_SIZE)
  integer(kind=MPI_OFFSET_KIND) :: off, sz
  character(len=*), parameter :: path = 'lang_fio.dat'

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  call MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE + MPI_MODE_RDWR, MPI_INFO_NULL, &
                     fh, ierr)
  call tap('f_file_open', ierr == MPI_SUCCESS .and. fh /= MPI_FILE_NULL)
  buf = [(rank * 10 + i, i = 1, 4)]
  off = rank * 16
  call MPI_File_write_at_all(fh, off, buf, 4, MPI_INTEGER, status, ierr)
  call MPI_File_sync(fh, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  off = mod(rank + 1, nranks) * 16
  call MPI_File_read_at(fh, off, got, 4, MPI_INTEGER, status, ierr)
  call tap('f_file_write_at_all_read_at', got(4) == mod(rank + 1, nranks) * 10 + 4)
  call MPI_File_get_size(fh, sz, ierr)
  call tap('f_file_get_size', sz == 16 * nranks)
  call MPI_File_close(fh, ierr)
  call tap('f_file_close', ierr == MPI_SUCCESS .and. fh == MPI_FILE_NULL)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) call MPI_File_delete(path, MPI_INFO_NULL, ierr)
  call MPI_Finalize(ierr)
contains
  subroutine tap(name, ok)
    character(len=*), intent(in) :: name
    logical, intent(in) :: ok
    if (ok) then
      print '(A,A,A,I0)', 'ok ', name, ' rank ', rank
    else
      print '(A,A,A,I0,A)', 'not ok ', name, ' rank ', rank, ' - wrong result'
    end if
  end subroutine
end program
