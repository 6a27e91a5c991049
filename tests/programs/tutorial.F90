! tutorial.F90: the bundled example in Fortran, an ordinary MPI program
! shaped like the tutorial's run (setup, six timesteps of assemble + a
! slowing solve, a checkpoint every third step). Built three ways by the
! preprocessor: -DMPI_BINDING=1 `use mpi`, 2 `include 'mpif.h'`,
! 3 `use mpi_f08`, so each Fortran binding of MPI_Init/MPI_Finalize is run.
subroutine pause_ms(ms)
  use iso_c_binding, only: c_int
  implicit none
  integer, intent(in) :: ms
  integer(c_int) :: rc
  interface
    integer(c_int) function usleep(us) bind(C, name='usleep')
      import :: c_int
      integer(c_int), value :: us
    end function usleep
  end interface
  rc = usleep(int(ms * 1000, c_int))
end subroutine pause_ms

subroutine setup()
  call pause_ms(10)
end subroutine setup

subroutine assemble()
  call pause_ms(2)
end subroutine assemble

subroutine solve(step)
  integer, intent(in) :: step
  call pause_ms(2 + step)
end subroutine solve

subroutine checkpoint()
  call pause_ms(4)
end subroutine checkpoint

subroutine timestep(step)
  integer, intent(in) :: step
  call assemble()
  call solve(step)
end subroutine timestep

program tutorial
#if MPI_BINDING == 1
  use mpi
#elif MPI_BINDING == 3
  use mpi_f08
#endif
  implicit none
#if MPI_BINDING == 2
  include 'mpif.h'
#endif
  integer :: ierr, rank, nranks, step
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  call setup()
  do step = 0, 5
    call timestep(step)
    if (mod(step, 3) == 2) call checkpoint()
  end do
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) write (*, '(a,i0,a)') 'tutorial: ', nranks, ' rank(s) done'
  call MPI_Finalize(ierr)
end program tutorial
