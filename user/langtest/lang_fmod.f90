! lang_fmod.f90 - Fortran with `use mpi`, built by tools/smapfort: point-to-point
! (blocking, nonblocking, probe, status), collectives, communicators, derived
! types, Fortran's named types, a user reduction, info strings (Fortran's own
! rules: blanks stripped, lengths without a NUL), generalized requests and
! MPI_SIZEOF, and attributes across languages (with lang_fmod_c.c).  Rank 0 prints one TAP line per behaviour with
! the verdicts of all ranks.
module report_m
  use mpi
  implicit none
  integer :: eh_comm = -1, eh_code = 0, deleted = 0
contains
  subroutine on_delete(comm, keyval, attr, extra, ierr)
    integer :: comm, keyval, ierr
    integer(kind=MPI_ADDRESS_KIND) :: attr, extra
    if (attr == 77 .and. extra == 5) deleted = deleted + 1
    ierr = MPI_SUCCESS
  end subroutine

  subroutine greq_query(extra, status, ierr)
    integer(kind=MPI_ADDRESS_KIND) :: extra
    integer :: status(MPI_STATUS_SIZE), ierr
    status(MPI_SOURCE) = 3
    status(MPI_TAG) = int(extra)
    call MPI_Status_set_elements(status, MPI_BYTE, 0, ierr)
    call MPI_Status_set_cancelled(status, .false., ierr)
    ierr = MPI_SUCCESS
  end subroutine

  subroutine greq_free(extra, ierr)
    integer(kind=MPI_ADDRESS_KIND) :: extra
    integer :: ierr
    extra = extra + 100
    ierr = MPI_SUCCESS
  end subroutine

  subroutine greq_cancel(extra, complete, ierr)
    integer(kind=MPI_ADDRESS_KIND) :: extra
    logical :: complete
    integer :: ierr
    ierr = MPI_SUCCESS
  end subroutine

  subroutine on_error(comm, code)
    integer :: comm, code
    eh_comm = comm
    eh_code = code
  end subroutine

  subroutine report(name, ok)
    character(len=*), intent(in) :: name
    logical, intent(in) :: ok
    logical :: all
    integer :: ierr, rank
    call MPI_Allreduce(ok, all, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD, ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    if (rank == 0) then
      if (all) then
        write (*, '(A,A)') 'ok ', name
      else
        write (*, '(A,A,A)') 'not ok ', name, ' - a rank disagreed'
      end if
    end if
  end subroutine
end module

subroutine absmax(invec, inoutvec, n, dtype)
  implicit none
  integer :: n, dtype, i
  double precision :: invec(n), inoutvec(n)
  do i = 1, n
    inoutvec(i) = max(abs(invec(i)), abs(inoutvec(i)))
  end do
end subroutine

program lang_fmod
  use mpi
  use report_m
  implicit none
  external absmax
  integer :: ierr, rank, nranks, peer, from, i, n, newcomm, sub, subrank, vec, op
  integer :: status(MPI_STATUS_SIZE), reqs(2), stats(MPI_STATUS_SIZE, 2), idx
  integer :: status2(MPI_STATUS_SIZE)
  type(MPI_Status) :: f08status
  integer :: ibuf(100), iget(100), counts(4)
  double precision :: d(1000), dsum(1000), t0, t1
  real :: r(10)
  character(len=MPI_MAX_PROCESSOR_NAME) :: pname
  character(len=MPI_MAX_ERROR_STRING) :: estr
  logical :: flag, ok
  integer(kind=MPI_ADDRESS_KIND) :: tagub, lb, extent
  integer :: eh, key, dup2, count, tag, length
  integer(kind=MPI_ADDRESS_KIND) :: aval, extra
  real :: pr(2), pro(2)
  double precision :: pd(2), pdo(2)
  integer(kind=16) :: i16, s16
  real(kind=16) :: q, sq
  character(len=MPI_MAX_OBJECT_NAME) :: tname, tname2
  integer :: info, buflen, greq, sz(6)
  logical(kind=1) :: l1(4)
  complex(kind=8) :: z8
  character :: ch
  character(len=20) :: val
  logical :: flag2

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  call report('f_init_rank_size', ierr == MPI_SUCCESS .and. rank >= 0 .and. rank < nranks)
  peer = mod(rank + 1, nranks)
  from = mod(rank + nranks - 1, nranks)

  ! blocking ring with a status
  ibuf = [(rank * 1000 + i, i = 1, 100)]
  if (mod(rank, 2) == 0) then
    call MPI_Send(ibuf, 100, MPI_INTEGER, peer, 7, MPI_COMM_WORLD, ierr)
    call MPI_Recv(iget, 100, MPI_INTEGER, from, 7, MPI_COMM_WORLD, status, ierr)
  else
    call MPI_Recv(iget, 100, MPI_INTEGER, from, 7, MPI_COMM_WORLD, status, ierr)
    call MPI_Send(ibuf, 100, MPI_INTEGER, peer, 7, MPI_COMM_WORLD, ierr)
  end if
  call MPI_Get_count(status, MPI_INTEGER, n, ierr)
  call report('f_send_recv_status', iget(100) == from * 1000 + 100 .and. &
              status(MPI_SOURCE) == from .and. status(MPI_TAG) == 7 .and. n == 100)

  ! module mpi declares type(MPI_Status) for the conversions to mpi_f08's
  call MPI_Status_f2f08(status, f08status, ierr)
  status2 = -1
  call MPI_Status_f082f(f08status, status2, i)
  call MPI_Get_count(status2, MPI_INTEGER, n, ierr)
  call report('f_status_f2f08_f082f', f08status%MPI_SOURCE == from .and. &
              f08status%MPI_TAG == 7 .and. all(status2 == status) .and. n == 100 .and. &
              i == MPI_SUCCESS)

  ! nonblocking with Waitall, reals, then MPI_STATUS_IGNORE
  r = real(rank)
  call MPI_Irecv(d, 10, MPI_REAL, from, 8, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Isend(r, 10, MPI_REAL, peer, 8, MPI_COMM_WORLD, reqs(2), ierr)
  call MPI_Waitall(2, reqs, stats, ierr)
  ok = reqs(1) == MPI_REQUEST_NULL .and. reqs(2) == MPI_REQUEST_NULL .and. &
       stats(MPI_SOURCE, 1) == from
  call MPI_Isend(r, 1, MPI_REAL, peer, 9, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Recv(r, 1, MPI_REAL, from, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call MPI_Waitany(1, reqs, idx, status, ierr)
  call report('f_isend_irecv_waitall_waitany', ok .and. idx == 1 .and. r(1) == real(from))

  ! probe, then receive what the probe saw
  call MPI_Send(ibuf, 3, MPI_INTEGER, peer, 11, MPI_COMM_WORLD, ierr)
  call MPI_Probe(MPI_ANY_SOURCE, 11, MPI_COMM_WORLD, status, ierr)
  call MPI_Get_count(status, MPI_INTEGER, n, ierr)
  call MPI_Recv(iget, n, MPI_INTEGER, status(MPI_SOURCE), 11, MPI_COMM_WORLD, status, ierr)
  call report('f_probe', n == 3 .and. iget(1) == from * 1000 + 1)

  ! collectives
  d = dble(rank + 1)
  call MPI_Allreduce(d, dsum, 1000, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call report('f_allreduce_double', all(dsum == dble(nranks * (nranks + 1) / 2)))
  dsum = d
  call MPI_Allreduce(MPI_IN_PLACE, dsum, 1000, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
  call report('f_allreduce_in_place', all(dsum == dble(nranks)))
  i = 0
  if (rank == 0) i = 4242
  call MPI_Bcast(i, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call report('f_bcast', i == 4242)
  counts = 0
  call MPI_Gather(rank, 1, MPI_INTEGER, counts, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  ok = .true.
  if (rank == 0) ok = counts(nranks) == nranks - 1
  call report('f_gather', ok)
  call MPI_Allgather(rank * 2, 1, MPI_INTEGER, counts, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call report('f_allgather', counts(nranks) == 2 * (nranks - 1))
  call MPI_Barrier(MPI_COMM_WORLD, ierr)

  ! Fortran's named types: their own names, the MINLOC pairs of reals,
  ! INTEGER(16) and REAL(16)
  call MPI_Type_get_name(MPI_INTEGER, tname, n, ierr)
  call MPI_Type_get_name(MPI_2DOUBLE_PRECISION, tname2, i, ierr)
  call report('f_type_names', tname(1:n) == 'MPI_INTEGER' .and. &
              tname2(1:i) == 'MPI_2DOUBLE_PRECISION')
  pr(1) = real(mod(rank * 7, 5))
  pr(2) = real(rank)
  call MPI_Allreduce(pr, pro, 1, MPI_2REAL, MPI_MINLOC, MPI_COMM_WORLD, ierr)
  pd(1) = dble(mod(rank * 7, 5))
  pd(2) = dble(rank)
  call MPI_Allreduce(pd, pdo, 1, MPI_2DOUBLE_PRECISION, MPI_MAXLOC, MPI_COMM_WORLD, ierr)
  call report('f_minloc_2real_maxloc_2double_precision', pro(1) == 0.0 .and. pro(2) == 0.0 &
              .and. pdo(1) == dble(maxval([(mod(i * 7, 5), i = 0, nranks - 1)])) .and. &
              pdo(2) == dble(maxloc([(mod(i * 7, 5), i = 0, nranks - 1)], 1) - 1))
  i16 = 2_16**100 + rank
  call MPI_Allreduce(i16, s16, 1, MPI_INTEGER16, MPI_SUM, MPI_COMM_WORLD, ierr)
  q = 1.0_16 / 3.0_16 * (rank + 1)
  call MPI_Allreduce(q, sq, 1, MPI_REAL16, MPI_SUM, MPI_COMM_WORLD, ierr)
  call report('f_integer16_real16_sum', s16 == nranks * 2_16**100 + nranks * (nranks - 1) / 2 &
              .and. abs(sq - nranks * (nranks + 1) / 6.0_16) < 1e-30_16)

  ! communicators, a derived type, a user operation
  call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), -rank, sub, ierr)
  call MPI_Comm_rank(sub, subrank, ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, newcomm, ierr)
  call MPI_Comm_free(newcomm, ierr)
  call report('f_comm_split_dup_free', subrank >= 0 .and. newcomm == MPI_COMM_NULL)
  call MPI_Comm_free(sub, ierr)
  call MPI_Type_vector(5, 1, 2, MPI_INTEGER, vec, ierr)
  call MPI_Type_commit(vec, ierr)
  call MPI_Type_get_extent(vec, lb, extent, ierr)
  call MPI_Sendrecv(ibuf, 1, vec, peer, 12, iget, 5, MPI_INTEGER, from, 12, &
                    MPI_COMM_WORLD, status, ierr)
  call MPI_Type_free(vec, ierr)
  call report('f_type_vector', extent == 36 .and. iget(5) == from * 1000 + 9 .and. &
              vec == MPI_DATATYPE_NULL)
  call MPI_Op_create(absmax, .true., op, ierr)
  d = -dble(rank + 1)
  call MPI_Allreduce(d, dsum, 1000, MPI_DOUBLE_PRECISION, op, MPI_COMM_WORLD, ierr)
  call MPI_Op_free(op, ierr)
  call report('f_user_op', all(abs(dsum) == dble(nranks)) .and. op == MPI_OP_NULL)

  ! strings, attributes, time, error strings
  call MPI_Get_processor_name(pname, n, ierr)
  call MPI_Error_string(MPI_ERR_TRUNCATE, estr, i, ierr)
  call report('f_strings', n > 0 .and. len_trim(pname) == n .and. i > 0 .and. len_trim(estr) == i)
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, tagub, flag, ierr)
  call report('f_attr_tag_ub', flag .and. tagub >= 32767)
  t0 = MPI_Wtime()
  t1 = MPI_Wtime()
  call report('f_wtime', t1 >= t0 .and. MPI_Wtick() > 0d0)
  call MPI_Comm_dup(MPI_COMM_WORLD, newcomm, ierr)
  call MPI_Comm_create_errhandler(on_error, eh, ierr)
  call MPI_Comm_set_errhandler(newcomm, eh, ierr)
  call MPI_Comm_call_errhandler(newcomm, MPI_ERR_TAG, ierr)
  call report('f_comm_errhandler_fortran', eh_comm == newcomm .and. eh_code == MPI_ERR_TAG)
  call MPI_Errhandler_free(eh, ierr)
  call MPI_Comm_free(newcomm, ierr)
  extra = 5
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, on_delete, key, extra, ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, newcomm, ierr)
  aval = 77
  call MPI_Comm_set_attr(newcomm, key, aval, ierr)
  call MPI_Comm_dup(newcomm, dup2, ierr)
  aval = 0
  call MPI_Comm_get_attr(dup2, key, aval, flag, ierr)
  call MPI_Comm_free(dup2, ierr)
  call MPI_Comm_free(newcomm, ierr)
  call MPI_Comm_free_keyval(key, ierr)
  call report('f_keyval_dup_fn_and_delete', flag .and. aval == 77 .and. deleted == 2)
  call MPI_Initialized(flag, ierr)
  call report('f_initialized', flag)
  ! Info: keys and values lose leading and trailing blanks; a key not
  ! found leaves the value alone; get_string copies buflen characters and
  ! gives back the value's length.
  call MPI_Info_create(info, ierr)
  call MPI_Info_set(info, '  the key ', ' 123456 ', ierr)
  val = 'canary'
  call MPI_Info_get(info, 'no key', 10, val, flag, ierr)
  ok = .not. flag .and. val == 'canary'
  call MPI_Info_get(info, 'the key', 10, val, flag, ierr)
  ok = ok .and. flag .and. val == '123456'
  buflen = 0
  call MPI_Info_get_string(info, 'the key', buflen, val, flag, ierr)
  ok = ok .and. flag .and. buflen == 6 .and. val == '123456'
  buflen = 2
  call MPI_Info_get_string(info, 'the key', buflen, val, flag, ierr)
  ok = ok .and. flag .and. buflen == 6 .and. val == '12'
  call MPI_Info_free(info, ierr)
  call report('f_info_strings', ok .and. info == MPI_INFO_NULL)
  ! MPI_SIZEOF: one element's bytes, of a scalar or an array
  call MPI_Sizeof(d, sz(1), ierr)
  call MPI_Sizeof(i16, sz(2), ierr)
  call MPI_Sizeof(q, sz(3), ierr)
  call MPI_Sizeof(l1, sz(4), ierr)
  call MPI_Sizeof(z8, sz(5), ierr)
  call MPI_Sizeof(ch, sz(6), ierr)
  call report('f_sizeof', all(sz == (/ 8, 16, 16, 1, 16, 1 /)) .and. ierr == MPI_SUCCESS)
  ! Attributes across languages: C reads Fortran's integer through a
  ! pointer; Fortran reads C's pointer as an integer.
  call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, key, extra, ierr)
  aval = 123456789012_MPI_ADDRESS_KIND
  call MPI_Comm_set_attr(MPI_COMM_WORLD, key, aval, ierr)
  call c_read_fortran_attr(MPI_COMM_WORLD, key, lb, flag)
  ok = flag .and. lb == aval
  call c_set_attr(MPI_COMM_WORLD, key, extent)
  call MPI_Comm_get_attr(MPI_COMM_WORLD, key, aval, flag, ierr)
  ok = ok .and. flag .and. aval == extent
  call MPI_Comm_delete_attr(MPI_COMM_WORLD, key, ierr)
  call MPI_Comm_free_keyval(key, ierr)
  call report('f_attr_across_languages', ok)
  ! A generalized request: its query sets the status, its free callback
  ! gets the program's extra_state variable.
  extra = 9
  call MPI_Grequest_start(greq_query, greq_free, greq_cancel, extra, greq, ierr)
  call MPI_Test(greq, flag, status, ierr)
  flag2 = flag
  call MPI_Grequest_complete(greq, ierr)
  call MPI_Wait(greq, status, ierr)
  call report('f_grequest', .not. flag2 .and. status(MPI_SOURCE) == 3 .and. &
       status(MPI_TAG) == 9 .and. extra == 109 .and. greq == MPI_REQUEST_NULL)
  ! MPI 4.1 from Fortran: MPI_BUFFER_AUTOMATIC (a COMMON sentinel), a
  ! buffered send to itself, a status accessor, the flush and the detach.
  call MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, 0, ierr)
  ok = ierr == MPI_SUCCESS
  call MPI_Bsend(rank, 1, MPI_INTEGER, rank, 41, MPI_COMM_WORLD, ierr)
  call MPI_Recv(count, 1, MPI_INTEGER, rank, 41, MPI_COMM_WORLD, status, ierr)
  call MPI_Status_get_tag(status, tag, ierr)
  call MPI_Buffer_flush(ierr)
  call MPI_Buffer_detach(aval, length, ierr)
  call report('f_mpi41_buffer_automatic', ok .and. count == rank .and. tag == 41 .and. &
       length == 0 .and. ierr == MPI_SUCCESS)

  call MPI_Finalize(ierr)
end program
