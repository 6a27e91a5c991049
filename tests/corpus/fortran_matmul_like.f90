! fortran_matmul_like.f90: a hooked function of fortran.f90 (own file: see
! fortran_scale_add.f90).
! The sum over i, j of x(i) * y(j) * (i - j): a small O(n^2) kernel.
double precision function matmul_like(n, x, y)
  implicit none
  integer, intent(in) :: n
  double precision, intent(in) :: x(n), y(n)
  integer :: i, j
  matmul_like = 0d0
  do j = 1, n
    do i = 1, n
      matmul_like = matmul_like + x(i) * y(j) * dble(i - j)
    end do
  end do
end function matmul_like

