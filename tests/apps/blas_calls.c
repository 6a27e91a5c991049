/* blas_calls.c: an MPI program that makes a known number of BLAS and
 * LAPACK calls per rank, through CBLAS and through the Fortran symbols:
 *   blas_work():   3 cblas_dgemm, 2 dgemm_, 4 ddot_, 2 daxpy_, 1 dgemv_
 *   lapack_work(): 1 dgetrf_, 1 dgetrs_, 1 dpotrf_ (which call BLAS inside)
 * then 1 MPI_Allreduce of a checksum. Prints "blas_calls: N rank(s) ok". */
#include <cblas.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>

#define N 48

/* The Fortran BLAS and LAPACK entry points (every argument by reference). */
void dgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k,
            const double *alpha, const double *a, const int *lda, const double *b,
            const int *ldb, const double *beta, double *c, const int *ldc);
void dgemv_(const char *t, const int *m, const int *n, const double *alpha, const double *a,
            const int *lda, const double *x, const int *incx, const double *beta, double *y,
            const int *incy);
double ddot_(const int *n, const double *x, const int *incx, const double *y, const int *incy);
void daxpy_(const int *n, const double *alpha, const double *x, const int *incx, double *y,
            const int *incy);
void dgetrf_(const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);
void dgetrs_(const char *t, const int *n, const int *nrhs, const double *a, const int *lda,
             const int *ipiv, double *b, const int *ldb, int *info);
void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info);

static double a[N * N], b[N * N], c[N * N], x[N], y[N];

__attribute__((noinline)) double blas_work(int rank)
{
    const int n = N, one = 1;
    const double alpha = 1.0, beta = 0.0;
    for (int i = 0; i < N * N; i++) {
        a[i] = (i % 7) * 0.25 + rank;
        b[i] = (i % 5) * 0.5;
    }
    for (int i = 0; i < N; i++)
        x[i] = y[i] = i * 0.01;
    for (int i = 0; i < 3; i++)
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, N, N, N, 1.0, a, N, b, N,
                    i * 0.5, c, N);
    for (int i = 0; i < 2; i++)
        dgemm_("N", "T", &n, &n, &n, &alpha, a, &n, c, &n, &beta, b, &n);
    double dot = 0;
    for (int i = 0; i < 4; i++)
        dot += ddot_(&n, x, &one, y, &one);
    for (int i = 0; i < 2; i++)
        daxpy_(&n, &alpha, x, &one, y, &one);
    dgemv_("N", &n, &n, &alpha, a, &n, x, &one, &beta, y, &one);
    return dot + y[N - 1];
}

__attribute__((noinline)) double lapack_work(void)
{
    const int n = N, nrhs = 1;
    int ipiv[N], info = 0;
    /* a diagonally dominant matrix for LU, its product with its transpose
     * plus the identity for Cholesky */
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++)
            a[i + j * N] = (i == j ? 2.0 * N : 0.0) + 1.0 / (1 + i + j);
    for (int i = 0; i < N; i++)
        x[i] = 1.0;
    dgetrf_(&n, &n, a, &n, ipiv, &info);
    if (info != 0)
        return NAN;
    dgetrs_("N", &n, &nrhs, a, &n, ipiv, x, &n, &info);
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++)
            c[i + j * N] = (i == j ? N : 0.0) + 1.0 / (1 + i + j);
    dpotrf_("L", &n, c, &n, &info);
    return info == 0 ? x[0] : NAN;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double local = blas_work(rank) + lapack_work(), total = 0;
    MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf(isfinite(total) ? "blas_calls: %d rank(s) ok\n" : "blas_calls: %d rank(s) FAILED\n",
               size);
    MPI_Finalize();
    return isfinite(total) ? 0 : 1;
}
