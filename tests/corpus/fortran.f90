! fortran.f90: gfortran without MPI: an external subroutine (scale_add_)
! and an external function (matmul_like_), each in a file of its own, hooked by
! their mangled names, the function also called from inside the
! subroutine. The program checks every result (exact floating-point
! comparisons on purpose) and stops with status 1 on a mismatch.
program fortran_corpus
  implicit none
  integer, parameter :: n = 8, rounds = 20
  double precision :: x(n), y(n), want
  double precision, external :: matmul_like
  integer :: i, r
  do i = 1, n
    x(i) = dble(i)
  end do
  do r = 1, rounds
    y = 1d0
    call scale_add(n, 0.5d0, x, y)
    ! The antisymmetric kernel sums to 0 for y == x.
    if (y(1) /= 1.5d0) then
      print *, 'scale_add: y(1) =', y(1), ' want 1.5'
      stop 1
    end if
    do i = 2, n
      if (y(i) /= 1d0 + 0.5d0 * dble(i)) then
        print *, 'scale_add: y(', i, ') =', y(i)
        stop 1
      end if
    end do
    ! With y = 1: sum_i x(i) * sum_j (i - j) = sum_i i * (n*i - n*(n+1)/2)
    want = 0d0
    do i = 1, n
      want = want + dble(i) * (dble(n * i) - dble(n * (n + 1)) / 2d0)
    end do
    y = 1d0
    if (matmul_like(n, x, y) /= want) then
      print *, 'matmul_like =', matmul_like(n, x, y), ' want', want
      stop 1
    end if
  end do
  print '(a)', 'fortran: ok'
end program fortran_corpus
