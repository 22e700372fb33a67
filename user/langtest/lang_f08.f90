! lang_f08.f90 - Fortran 2008 `use mpi_f08`, built by tools/smapfort: handle
! types and their comparisons, optional ierror, type(MPI_Status) and its
! conversions, p2p,
! nonblocking, collectives, communicators, strings.  Rank 0 prints one TAP
! line per behaviour with the verdicts of all ranks.
module report08_m
  use mpi_f08
  implicit none
contains
  subroutine report(name, ok)
    character(len=*), intent(in) :: name
    logical, intent(in) :: ok
    logical :: all
    integer :: rank
    call MPI_Allreduce(ok, all, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    if (rank == 0) then
      if (all) then
        write (*, '(A,A)') 'ok ', name
      else
        write (*, '(A,A,A)') 'not ok ', name, ' - a rank disagreed'
      end if
    end if
  end subroutine
end module

program lang_f08
  use mpi_f08
  use report08_m
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
  implicit none
  type(MPI_Comm) :: dup, sub
  type(MPI_Status) :: status, status2
  integer :: fstatus(MPI_STATUS_SIZE)
  type(MPI_Request) :: reqs(2)
  type(MPI_Datatype) :: vec
  integer :: ierr, rank, nranks, peer, from, n, i
  integer :: ibuf(10), iget(10)
  double precision :: x, xsum
  character(len=MPI_MAX_PROCESSOR_NAME) :: pname
  type(c_ptr) :: mem
  integer, pointer :: arr(:)
  integer :: key
  integer(kind=MPI_ADDRESS_KIND) :: extra, aval
  integer(kind=MPI_COUNT_KIND) :: big, got, tsize
  logical :: flag
  type(MPI_Session) :: session
  type(MPI_Group) :: wgroup
  type(MPI_Comm) :: scomm
  character(len=MPI_MAX_PSET_NAME_LEN) :: pset

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks)
  call report('f08_init_optional_ierror', ierr == MPI_SUCCESS .and. rank < nranks)
  peer = mod(rank + 1, nranks)
  from = mod(rank + nranks - 1, nranks)

  ibuf = [(rank * 100 + i, i = 1, 10)]
  call MPI_Sendrecv(ibuf, 10, MPI_INTEGER, peer, 3, iget, 10, MPI_INTEGER, from, 3, &
                    MPI_COMM_WORLD, status)
  call MPI_Get_count(status, MPI_INTEGER, n)
  call report('f08_sendrecv_status', iget(10) == from * 100 + 10 .and. &
              status%MPI_SOURCE == from .and. status%MPI_TAG == 3 .and. n == 10)

  ! A status through an INTEGER array and back keeps what it says.
  call MPI_Status_f082f(status, fstatus)
  call MPI_Status_f2f08(fstatus, status2, ierr)
  call MPI_Get_count(status2, MPI_INTEGER, n)
  call MPI_Status_f082f(MPI_STATUS_IGNORE, fstatus, i)
  call report('f08_status_f082f_f2f08', fstatus(MPI_SOURCE) == from .and. &
              fstatus(MPI_TAG) == 3 .and. status2%MPI_SOURCE == from .and. &
              status2%MPI_TAG == 3 .and. n == 10 .and. ierr == MPI_SUCCESS .and. i /= MPI_SUCCESS)

  call MPI_Irecv(iget, 10, MPI_INTEGER, from, 4, MPI_COMM_WORLD, reqs(1))
  call MPI_Isend(ibuf, 10, MPI_INTEGER, peer, 4, MPI_COMM_WORLD, reqs(2))
  call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE)
  call report('f08_nonblocking_request_null', reqs(1) == MPI_REQUEST_NULL .and. &
              reqs(2) == MPI_REQUEST_NULL .and. iget(1) == from * 100 + 1)

  x = dble(rank + 1)
  call MPI_Allreduce(x, xsum, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD)
  i = merge(55, 0, rank == 0)
  call MPI_Bcast(i, 1, MPI_INTEGER, 0, MPI_COMM_WORLD)
  call report('f08_collectives', xsum == dble(nranks * (nranks + 1) / 2) .and. i == 55)

  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  call MPI_Comm_split(dup, 0, rank, sub)
  call MPI_Comm_size(sub, n)
  call MPI_Comm_free(sub)
  call MPI_Comm_free(dup)
  call report('f08_comm_handles_compare', n == nranks .and. dup == MPI_COMM_NULL .and. &
              sub == MPI_COMM_NULL .and. MPI_COMM_WORLD /= MPI_COMM_SELF)

  call MPI_Type_contiguous(2, MPI_INTEGER, vec)
  call MPI_Type_commit(vec)
  call MPI_Sendrecv(ibuf, 2, vec, peer, 5, iget, 4, MPI_INTEGER, from, 5, MPI_COMM_WORLD, &
                    MPI_STATUS_IGNORE)
  call MPI_Type_free(vec)
  call report('f08_derived_type', iget(4) == from * 100 + 4 .and. vec == MPI_DATATYPE_NULL)

  call MPI_Get_processor_name(pname, n)
  call report('f08_strings_wtime', n > 0 .and. len_trim(pname) == n .and. MPI_Wtime() > 0d0)

  ! Addresses are TYPE(C_PTR) in mpi_f08
  call MPI_Alloc_mem(40_MPI_ADDRESS_KIND, MPI_INFO_NULL, mem)
  call c_f_pointer(mem, arr, [10])
  arr = rank
  call MPI_Sendrecv(arr, 10, MPI_INTEGER, peer, 6, iget, 10, MPI_INTEGER, from, 6, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  call MPI_Free_mem(arr)
  call report('f08_alloc_mem_c_ptr', iget(10) == from)

  ! The predefined attribute functions and PMPI_ names of the functions
  extra = 0
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, key, extra, ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  aval = 31
  call MPI_Comm_set_attr(dup, key, aval)
  call MPI_Comm_dup(dup, sub)
  aval = 0
  call MPI_Comm_get_attr(sub, key, aval, flag)
  call MPI_Comm_free(sub)
  call MPI_Comm_free(dup)
  call MPI_Comm_free_keyval(key)
  call report('f08_predefined_attr_fns_pmpi_wtime', flag .and. aval == 31 .and. &
              PMPI_Wtime() > 0d0 .and. .not. MPI_SUBARRAYS_SUPPORTED)

  ! MPI 4.0 large counts: an INTEGER(MPI_COUNT_KIND) count picks the _c
  ! routine through the same generic name (MPI_Send_f08c ...)
  big = 10
  iget = -1
  call MPI_Sendrecv(ibuf, big, MPI_INTEGER, peer, 7, iget, big, MPI_INTEGER, from, 7, &
                    MPI_COMM_WORLD, status)
  call MPI_Get_count(status, MPI_INTEGER, got)
  call MPI_Type_size(MPI_DOUBLE_PRECISION, tsize)
  x = dble(rank + 1)
  call MPI_Allreduce(x, xsum, 1_MPI_COUNT_KIND, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD)
  call MPI_Irecv(iget, big, MPI_INTEGER, from, 8, MPI_COMM_WORLD, reqs(1))
  call MPI_Send(ibuf, big, MPI_INTEGER, peer, 8, MPI_COMM_WORLD)
  call MPI_Wait(reqs(1), MPI_STATUS_IGNORE)
  call report('f08_large_count_overloads', got == 10 .and. iget(10) == from * 100 + 10 .and. &
              tsize == 8 .and. xsum == dble(nranks * (nranks + 1) / 2))

  ! MPI_Register_datarep is bound; only native and external32 exist, so it
  ! fails as in C, through MPI_COMM_WORLD's handler
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  extra = 0
  call MPI_Register_datarep('mine', no_conversion, no_conversion, no_extent, extra, ierr)
  call MPI_Error_class(ierr, i)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL)
  call report('f08_register_datarep_bound', i == MPI_ERR_UNSUPPORTED_DATAREP)

  ! MPI 4.0 partitioned point-to-point: 5 partitions of 2 sent, readied
  ! last to first, 1 of 10 received; MPI_F_sync_reg after the Waitall
  big = 2
  call MPI_Psend_init(ibuf, 5, big, MPI_INTEGER, peer, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &
                      reqs(1))
  big = 10
  call MPI_Precv_init(iget, 1, big, MPI_INTEGER, from, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &
                      reqs(2))
  iget = -1
  call MPI_Startall(2, reqs)
  do i = 4, 0, -1
    call MPI_Pready(i, reqs(1))
  end do
  flag = .false.
  do while (.not. flag)
    call MPI_Parrived(reqs(2), 0, flag)
  end do
  call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE)
  ! iget was written while no call named it: read it from memory again
  call MPI_F_sync_reg(iget)
  call report('f08_partitioned', iget(1) == from * 100 + 1 .and. iget(10) == from * 100 + 10 &
              .and. reqs(1) /= MPI_REQUEST_NULL)
  call MPI_Request_free(reqs(1))
  call MPI_Request_free(reqs(2))

  ! MPI 4.0 sessions beside the world model: the first process set's
  ! name, its group, a communicator made from it
  call MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, session)
  i = 0
  call MPI_Session_get_nth_pset(session, MPI_INFO_NULL, 0, i, pset)
  n = i
  call MPI_Session_get_nth_pset(session, MPI_INFO_NULL, 0, n, pset)
  call MPI_Group_from_session_pset(session, trim(pset), wgroup)
  call MPI_Comm_create_from_group(wgroup, 'org.smapos.lang_f08', MPI_INFO_NULL, &
                                  MPI_ERRORS_RETURN, scomm)
  call MPI_Allreduce(1, n, 1, MPI_INTEGER, MPI_SUM, scomm)
  call MPI_Comm_free(scomm)
  call MPI_Group_free(wgroup)
  call MPI_Session_finalize(session, ierr)
  call report('f08_session_world_pset_comm', trim(pset) == 'mpi://WORLD' .and. i == 12 .and. &
              n == nranks .and. session == MPI_SESSION_NULL .and. ierr == MPI_SUCCESS)

  call MPI_Finalize()
contains
  subroutine no_conversion()
  end subroutine
  subroutine no_extent()
  end subroutine
end program
