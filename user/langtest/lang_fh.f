C     lang_fh.f - fixed-form Fortran 77 with INCLUDE 'mpif.h', built by
C     tools/smapfort: a ring, a reduction and a broadcast, MPI-1's INTEGER
C     displacements and attributes, and handles Fortran holds twice; rank
C     0 prints one TAP line per behaviour.
      PROGRAM LANGFH
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR, RANK, NP, PEER, FROM, ISTAT(MPI_STATUS_SIZE)
      INTEGER IVAL, IGOT, IALL
      DOUBLE PRECISION X, XSUM
      INTEGER IBUF(10), IPACK(10), IDISP(10), ICNT(10), ITYPE, IDUP
      INTEGER IPOS, I, IOK, IEXT, NINTS(1), ITYPES(1), NLEN
      INTEGER(KIND=MPI_ADDRESS_KIND) IADDS(1)
      CHARACTER*(MPI_MAX_OBJECT_NAME) CNAME
      INTEGER KEY, IEXTRA, NEWC
      LOGICAL FLAG, FLAG2
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      PEER = MOD(RANK + 1, NP)
      FROM = MOD(RANK + NP - 1, NP)
      IVAL = 100 + RANK
      CALL MPI_SENDRECV(IVAL, 1, MPI_INTEGER, PEER, 5, IGOT, 1,
     &     MPI_INTEGER, FROM, 5, MPI_COMM_WORLD, ISTAT, IERR)
      IALL = 0
      IF (IGOT .EQ. 100 + FROM .AND. ISTAT(MPI_SOURCE) .EQ. FROM) IALL=1
      CALL REPORT('f77_sendrecv', IALL)
      X = DBLE(RANK)
      CALL MPI_ALLREDUCE(X, XSUM, 1, MPI_DOUBLE_PRECISION, MPI_SUM,
     &     MPI_COMM_WORLD, IERR)
      IVAL = 0
      IF (RANK .EQ. 0) IVAL = 77
      CALL MPI_BCAST(IVAL, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, IERR)
      IALL = 0
      IF (XSUM .EQ. DBLE(NP * (NP - 1) / 2) .AND. IVAL .EQ. 77) IALL = 1
      CALL REPORT('f77_allreduce_bcast', IALL)
C     MPI-1's hindexed and extent take default INTEGERs (MPI_ADDRESS
C     too, but host mode's addresses do not fit in one)
      CALL MPI_TYPE_EXTENT(MPI_INTEGER, IEXT, IERR)
      DO 10 I = 1, 10
         IDISP(I) = (10 - I) * IEXT
         ICNT(I) = 1
         IBUF(I) = I
   10 CONTINUE
      CALL MPI_TYPE_HINDEXED(10, ICNT, IDISP, MPI_INTEGER, ITYPE, IERR)
      CALL MPI_TYPE_COMMIT(ITYPE, IERR)
      IPOS = 0
      CALL MPI_PACK(IBUF, 1, ITYPE, IPACK, 40, IPOS, MPI_COMM_WORLD,
     &     IERR)
      IOK = 0
      IF (IPOS .EQ. 40 .AND. IPACK(1) .EQ. 10 .AND. IPACK(10) .EQ. 1)
     &     IOK = 1
C     a dup's contents hold the old type a second time; freeing that
C     reference leaves the old one usable, and the dup has no name
      CALL MPI_TYPE_SET_NAME(ITYPE, 'reversed', IERR)
      CALL MPI_TYPE_DUP(ITYPE, IDUP, IERR)
      CALL MPI_TYPE_GET_NAME(IDUP, CNAME, NLEN, IERR)
      IF (NLEN .NE. 0) IOK = 0
      CALL MPI_TYPE_GET_CONTENTS(IDUP, 1, 1, 1, NINTS, IADDS, ITYPES,
     &     IERR)
      IF (ITYPES(1) .NE. ITYPE) IOK = 0
      CALL MPI_TYPE_FREE(ITYPES(1), IERR)
      CALL MPI_TYPE_FREE(IDUP, IERR)
      IPOS = 0
      CALL MPI_PACK(IBUF, 1, ITYPE, IPACK, 40, IPOS, MPI_COMM_WORLD,
     &     IERR)
      IF (IERR .NE. MPI_SUCCESS .OR. IPACK(2) .NE. 9) IOK = 0
      CALL MPI_TYPE_FREE(ITYPE, IERR)
      IF (IERR .NE. MPI_SUCCESS) IOK = 0
      CALL MPI_TYPE_GET_NAME(MPI_C_COMPLEX, CNAME, NLEN, IERR)
      IF (CNAME(1:NLEN) .NE. 'MPI_C_COMPLEX') IOK = 0
      CALL REPORT('f77_mpi1_hindexed_and_held_twice', IOK)
C     MPI-1's attribute calls, with INTEGER values
      CALL MPI_ATTR_GET(MPI_COMM_WORLD, MPI_TAG_UB, IVAL, FLAG, IERR)
      IEXTRA = 3
      CALL MPI_KEYVAL_CREATE(MPI_DUP_FN, MPI_NULL_DELETE_FN, KEY,
     &     IEXTRA, IERR)
      CALL MPI_ATTR_PUT(MPI_COMM_WORLD, KEY, -42, IERR)
      CALL MPI_COMM_DUP(MPI_COMM_WORLD, NEWC, IERR)
      CALL MPI_ATTR_GET(NEWC, KEY, IGOT, FLAG2, IERR)
      CALL MPI_PCONTROL(1)
      IOK = 0
      IF (FLAG .AND. IVAL .GE. 32767 .AND. FLAG2 .AND. IGOT .EQ. -42)
     &     IOK = 1
      CALL MPI_COMM_FREE(NEWC, IERR)
      CALL MPI_ATTR_DELETE(MPI_COMM_WORLD, KEY, IERR)
      CALL MPI_KEYVAL_FREE(KEY, IERR)
      CALL REPORT('f77_mpi1_attributes', IOK)
      CALL MPI_FINALIZE(IERR)
      END
C     One TAP line from rank 0: ok when every rank's IOK is 1.
      SUBROUTINE REPORT(NAME, IOK)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      CHARACTER*(*) NAME
      INTEGER IOK, ISUM, NP, RANK, IERR
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_REDUCE(IOK, ISUM, 1, MPI_INTEGER, MPI_SUM, 0,
     &     MPI_COMM_WORLD, IERR)
      IF (RANK .NE. 0) RETURN
      IF (ISUM .EQ. NP) THEN
         WRITE (*, '(A,A)') 'ok ', NAME
      ELSE
         WRITE (*, '(A,A,A)') 'not ok ', NAME, ' - a rank disagreed'
      END IF
      END
