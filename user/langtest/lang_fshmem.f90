! lang_fshmem.f90 - OpenSHMEM from Fortran (include 'shmem.fh', built by
! tools/smapfort -fcray-pointer): typed and sized puts and gets, strided
! ones, INT4/INT8 atomics, broadcast, collects, reductions, wait_until,
! locks, SHPALLOC through a Cray pointer, accessibility and SHMEM_PTR.  PE 0
! prints one TAP line per behaviour with the verdicts of all PEs.
module fshmem_report_m
  implicit none
  include 'shmem.fh'
  integer :: vote(1), allv(1), wrk(SHMEM_REDUCE_MIN_WRKDATA_SIZE)
  integer*8 :: rsync(SHMEM_REDUCE_SYNC_SIZE)
  save :: vote, allv, wrk, rsync
contains
  subroutine report(name, ok)
    character(len=*), intent(in) :: name
    logical, intent(in) :: ok
    integer :: shmem_my_pe, shmem_n_pes
    vote(1) = merge(1, 0, ok)
    rsync = SHMEM_SYNC_VALUE
    call shmem_barrier_all()
    call shmem_int4_min_to_all(allv, vote, 1, 0, 0, shmem_n_pes(), wrk, rsync)
    if (shmem_my_pe() == 0) then
      if (allv(1) == 1) then
        write (*, '(A,A)') 'ok ', name
      else
        write (*, '(A,A,A)') 'not ok ', name, ' - a PE disagreed'
      end if
    end if
  end subroutine
end module

program lang_fshmem
  use fshmem_report_m
  implicit none
  integer :: shmem_my_pe, shmem_n_pes, shmem_test_lock
  integer*4 :: shmem_int4_swap, shmem_int4_cswap, shmem_int4_fadd, shmem_int4_finc
  integer*8 :: shmem_int8_fadd
  integer :: me, npes, nxt, prv, i, errcode, old, major, minor
  character(len=SHMEM_MAX_NAME_LEN) :: name
  logical :: ok
  integer :: ibuf(8), iget(8)
  double precision :: dbuf(4), dget(4)
  character(len=6) :: cbuf, cget
  integer*4 :: counter, box
  integer*8 :: big, lock, bsync(SHMEM_BCAST_SYNC_SIZE), csync(SHMEM_COLLECT_SYNC_SIZE)
  integer*8 :: dsync(SHMEM_REDUCE_SYNC_SIZE)
  integer :: bsrc(4), bdst(4), gath(64), csrc(2)
  double precision :: dsrc(1), dmax(1), dwrk(SHMEM_REDUCE_MIN_WRKDATA_SIZE)
  integer :: flag
  integer :: heap(16)
  pointer (hp, heap)
  integer*8 :: remote
  save :: ibuf, iget, dbuf, dget, cbuf, cget, counter, box, big, lock, bsync, csync, dsync
  save :: bsrc, bdst, gath, csrc, dsrc, dmax, dwrk, flag

  call shmem_init()
  me = shmem_my_pe()
  npes = shmem_n_pes()
  nxt = mod(me + 1, npes)
  prv = mod(me + npes - 1, npes)
  call report('fs_init_my_pe_n_pes', me >= 0 .and. me < npes)

  ! the library's name and version against shmem.fh's constants
  call shmem_info_get_name(name)
  call shmem_info_get_version(major, minor)
  call report('fs_info_vendor_version', name == SHMEM_VENDOR_STRING .and. &
              major == SHMEM_MAJOR_VERSION .and. minor == SHMEM_MINOR_VERSION)

  ! puts to the next PE, gets from it
  ibuf = [(me * 100 + i, i = 1, 8)]
  dbuf = [(dble(me) + 0.5d0 * i, i = 1, 4)]
  cbuf = 'pe' // achar(iachar('0') + me) // 'xyz'
  call shmem_barrier_all()
  call shmem_integer_put(iget, ibuf, 8, nxt)
  call shmem_double_put(dget, dbuf, 4, nxt)
  call shmem_character_put(cget, cbuf, 6, nxt)
  call shmem_barrier_all()
  ok = iget(8) == prv * 100 + 8 .and. dget(4) == dble(prv) + 2d0 .and. &
       cget == 'pe' // achar(iachar('0') + prv) // 'xyz'
  call shmem_barrier_all()
  iget = 0
  call shmem_get4(iget, ibuf, 8, nxt)
  call shmem_get8(dget, dbuf, 4, nxt)
  ok = ok .and. iget(1) == nxt * 100 + 1 .and. dget(1) == dble(nxt) + 0.5d0
  call report('fs_put_get_typed_and_sized', ok)

  ! every other element, both sides strided
  call shmem_barrier_all()
  iget = -1
  call shmem_barrier_all()
  call shmem_integer_iput(iget, ibuf, 2, 2, 4, nxt)
  call shmem_barrier_all()
  ok = iget(1) == prv * 100 + 1 .and. iget(3) == prv * 100 + 3 .and. iget(2) == -1
  call shmem_iget4(iget, ibuf, 1, 2, 4, nxt)
  ok = ok .and. iget(2) == nxt * 100 + 3
  call report('fs_strided', ok)

  ! atomics on PE 0
  counter = 0
  box = 7
  big = 0
  call shmem_barrier_all()
  old = shmem_int4_finc(counter, 0)
  call shmem_int4_inc(counter, 0)
  call shmem_int4_add(counter, 10, 0)
  old = shmem_int4_fadd(counter, 100, 0)
  call shmem_int8_add(big, int(me + 1, 8), 0)
  call shmem_barrier_all()
  ok = .true.
  if (me == 0) ok = counter == npes * 112 .and. big == int(npes * (npes + 1) / 2, 8) .and. &
                    shmem_int8_fadd(big, 0_8, 0) == big
  call shmem_barrier_all()
  if (me == npes - 1) then
    ok = ok .and. shmem_int4_swap(box, 9, 0) == 7 .and. shmem_int4_cswap(box, 9, 11, 0) == 9
  end if
  call shmem_barrier_all()
  if (me == 0) ok = ok .and. box == 11
  call report('fs_atomics_int4_int8', ok)

  ! broadcast from PE 0, fcollect and collect of every PE's contribution
  bsync = SHMEM_SYNC_VALUE
  csync = SHMEM_SYNC_VALUE
  bsrc = [(40 + i, i = 1, 4)]
  bdst = 0
  call shmem_barrier_all()
  call shmem_broadcast4(bdst, bsrc, 4, 0, 0, 0, npes, bsync)
  ok = me == 0 .or. all(bdst == [41, 42, 43, 44])
  call shmem_barrier_all()
  csrc = bsrc(1:2) + me
  call shmem_barrier_all()
  call shmem_fcollect4(gath, csrc, 2, 0, 0, npes, csync)
  ok = ok .and. gath(2 * npes - 1) == 41 + npes - 1
  call shmem_barrier_all()
  call shmem_collect4(gath, bsrc, me + 1, 0, 0, npes, csync)
  ok = ok .and. gath(1) == 41 .and. gath(npes * (npes + 1) / 2) == 40 + npes
  call report('fs_broadcast_collects', ok)

  ! a REAL*8 max and an INT4 sum across all PEs
  dsync = SHMEM_SYNC_VALUE
  dsrc(1) = dble(me) * 1.5d0
  call shmem_barrier_all()
  call shmem_real8_max_to_all(dmax, dsrc, 1, 0, 0, npes, dwrk, dsync)
  call report('fs_reductions', dmax(1) == dble(npes - 1) * 1.5d0)

  ! a flag set by the previous PE, and a lock around a shared counter
  flag = 0
  lock = 0
  counter = 0
  call shmem_barrier_all()
  call shmem_integer_put(flag, [me + 1], 1, nxt)
  call shmem_int4_wait_until(flag, SHMEM_CMP_NE, 0)
  ok = flag == prv + 1
  call shmem_set_lock(lock)
  call shmem_integer_get(iget, counter, 1, 0)
  call shmem_integer_put(counter, [iget(1) + 1], 1, 0)
  call shmem_quiet()
  call shmem_clear_lock(lock)
  call shmem_barrier_all()
  ! the lock is free again: PE 0 takes it without waiting
  if (me == 0) ok = ok .and. counter == npes .and. shmem_test_lock(lock) == 0
  call shmem_barrier_all()
  if (me == 0) call shmem_clear_lock(lock)
  call report('fs_wait_until_and_locks', ok)

  ! the symmetric heap through a Cray pointer, and who is reachable
  call shpalloc(hp, 16, errcode, 0)
  heap(1:16) = me
  call shmem_barrier_all()
  call shmem_integer_get(iget, heap, 1, nxt)
  ok = errcode == 0 .and. iget(1) == nxt
  ok = ok .and. shmem_pe_accessible(nxt) .and. shmem_addr_accessible(counter, nxt)
  ! SHMEM_PTR: one's own PE is always reachable by load and store (another
  ! node's PE is not: NULL there)
  remote = shmem_ptr(counter, me)
  ok = ok .and. remote == loc(counter)
  call shmem_barrier_all()
  call shpdeallc(hp, errcode, 0)
  call report('fs_shpalloc_accessible_ptr', ok .and. errcode == 0)

  call shmem_finalize()
end program
