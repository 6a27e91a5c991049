! payload_fortran.F90: Fortran MPI calls whose payload is known in
! advance, for the payload end-to-end test (tests/e2e/payload.sh), on 4
! ranks, with `use mpi` (-DMPI_BINDING=1) or `use mpi_f08` (3): in
! subroutine exchange, each rank sends 5 (r + 1) integers to its right
! (tag 50 + r) with MPI_Send and receives from its left with MPI_Recv;
! in subroutine collectives, MPI_Bcast of 6 doubles from root 1,
! MPI_Reduce of 3 integers to root 2, MPI_Allreduce of 2 doubles and
! MPI_Barrier.
#if MPI_BINDING == 3
#define USE_MPI use mpi_f08
#else
#define USE_MPI use mpi
#endif
  subroutine exchange(rank, nranks)
    USE_MPI
    implicit none
    integer, intent(in) :: rank, nranks
    integer :: out(64), in(64), ierr
#if MPI_BINDING == 3
    type(MPI_Status) :: st
#else
    integer :: st(MPI_STATUS_SIZE)
#endif
    out = rank
    call MPI_Send(out, 5 * (rank + 1), MPI_INTEGER, mod(rank + 1, nranks), 50 + rank, &
                  MPI_COMM_WORLD, ierr)
    call MPI_Recv(in, 64, MPI_INTEGER, mod(rank + nranks - 1, nranks), MPI_ANY_TAG, &
                  MPI_COMM_WORLD, st, ierr)
  end subroutine exchange

  subroutine collectives()
    USE_MPI
    implicit none
    double precision :: d(6), s(2), t(2)
    integer :: i(3), j(3), ierr
    d = 1.0d0
    s = 2.0d0
    i = 3
    call MPI_Bcast(d, 6, MPI_DOUBLE_PRECISION, 1, MPI_COMM_WORLD, ierr)
    call MPI_Reduce(i, j, 3, MPI_INTEGER, MPI_SUM, 2, MPI_COMM_WORLD, ierr)
    call MPI_Allreduce(s, t, 2, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
  end subroutine collectives

program payload_fortran
  USE_MPI
  implicit none
  integer :: rank, nranks, ierr
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  call exchange(rank, nranks)
  call collectives()
  call MPI_Finalize(ierr)
  if (rank == 0) print '(a)', 'payload_fortran: done'
end program payload_fortran
