/* many_calls.c: an MPI program that calls one small function N times per
 * rank (N from the command line) as fast as it can: the load for tests of
 * bounded buffers and for the finalize benchmark. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) long work(long x)
{
    __asm__ volatile("");
    return x * 7 + 1;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    long n = argc > 1 ? atol(argv[1]) : 1000000, sum = 0;
    for (long i = 0; i < n; i++)
        sum += work(i);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        printf("many_calls: %ld calls per rank (checksum %ld)\n", n, sum);
    MPI_Finalize();
    return 0;
}
