C     lang_fh.f - fixed-form Fortran 77 with INCLUDE 'mpif.h', built by
C     tools/smapfort: a ring, a reduction and a broadcast; rank 0 prints
C     one TAP line per behaviour.
      PROGRAM LANGFH
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR, RANK, NP, PEER, FROM, ISTAT(MPI_STATUS_SIZE)
      INTEGER IVAL, ISUM, IGOT, IALL
      DOUBLE PRECISION X, XSUM
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
      CALL MPI_REDUCE(IALL, ISUM, 1, MPI_INTEGER, MPI_SUM, 0,
     &     MPI_COMM_WORLD, IERR)
      IF (RANK .EQ. 0) THEN
         IF (ISUM .EQ. NP) THEN
            WRITE (*, '(A)') 'ok f77_sendrecv'
         ELSE
            WRITE (*, '(A)') 'not ok f77_sendrecv - wrong value'
         END IF
      END IF
      X = DBLE(RANK)
      CALL MPI_ALLREDUCE(X, XSUM, 1, MPI_DOUBLE_PRECISION, MPI_SUM,
     &     MPI_COMM_WORLD, IERR)
      IVAL = 0
      IF (RANK .EQ. 0) IVAL = 77
      CALL MPI_BCAST(IVAL, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, IERR)
      IF (RANK .EQ. 0) THEN
         IF (XSUM .EQ. DBLE(NP * (NP - 1) / 2) .AND. IVAL .EQ. 77) THEN
            WRITE (*, '(A)') 'ok f77_allreduce_bcast'
         ELSE
            WRITE (*, '(A)') 'not ok f77_allreduce_bcast - wrong value'
         END IF
      END IF
      CALL MPI_FINALIZE(IERR)
      END
