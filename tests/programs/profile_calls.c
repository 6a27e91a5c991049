/* profile_calls.c: an MPI program of known calls and nesting for profile
 * mode's tests: N steps (N from the command line), each one outer() that
 * calls middle() twice, each calling leaf() three times; outer() also
 * calls leaf() once itself, and every tenth step calls descend(3), which
 * recurses down to descend(0). Per rank: outer N, middle 2N, leaf 7N,
 * descend 4 * ceil(N / 10). Each leaf spins for a fixed amount of work, so
 * that a trace run and a profile run spend about the same time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) long leaf(long x)
{
    for (int i = 0; i < 2000; i++)
        __asm__ volatile("" : "+r"(x));
    return x + 1;
}

__attribute__((noinline)) long middle(long x)
{
    for (int i = 0; i < 3; i++)
        x = leaf(x);
    __asm__ volatile("" : "+r"(x));
    return x;
}

__attribute__((noinline)) long outer(long x)
{
    x = middle(x);
    x = middle(x);
    x = leaf(x);
    __asm__ volatile("" : "+r"(x));
    return x;
}

__attribute__((noinline)) long descend(int depth)
{
    long x = depth ? descend(depth - 1) : 0;
    __asm__ volatile("" : "+r"(x));
    return x + 1;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    long n = argc > 1 ? atol(argv[1]) : 1000, sum = 0;
    for (long i = 0; i < n; i++) {
        sum += outer(i);
        if (i % 10 == 0)
            sum += descend(3);
    }
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        printf("profile_calls: %ld steps per rank (checksum %ld)\n", n, sum);
    MPI_Finalize();
    return 0;
}
