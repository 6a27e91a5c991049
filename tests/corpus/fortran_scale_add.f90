! fortran_scale_add.f90: a hooked subroutine of fortran.f90. Each hooked
! procedure has a file of its own: gfortran 12 has no NOINLINE attribute and
! inlines procedures of the same file into each other at -O2/-O3.
subroutine scale_add(n, a, x, y)
  implicit none
  integer, intent(in) :: n
  double precision, intent(in) :: a, x(n)
  double precision, intent(inout) :: y(n)
  double precision, external :: matmul_like
  integer :: i
  do i = 1, n
    y(i) = y(i) + a * x(i)
  end do
  y(1) = y(1) + matmul_like(n, x, x)
end subroutine scale_add
