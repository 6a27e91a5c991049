/* suggest_mix.c: an MPI program for the test of `scope suggest`: tiny
 * functions of a few ns called 200 000 times per rank each (tiny_*, and
 * named_tiny, which the test's config names), one called only 100 times
 * (rare_tiny), an MPI function called 100 000 times (MPI_Comm_rank), and
 * heavy ones: a 200 ms solve called 5 times, a step of about 1 us called
 * 20 000 times, an exchange around MPI_Allreduce. Built with -O2 like user
 * code; every function is kept out of line, and the call counts are fixed,
 * so that two runs compare. */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

#define TINY_CALLS 200000
#define RARE_CALLS 100
#define RANK_CALLS 100000
#define SOLVES 5
#define STEPS 20000
#define EXCHANGES 50

__attribute__((noinline)) long tiny_add(long x)
{
    __asm__ volatile("");
    return x + 3;
}

__attribute__((noinline)) long tiny_mul(long x)
{
    __asm__ volatile("");
    return x * 5;
}

__attribute__((noinline)) long tiny_flag(long x)
{
    __asm__ volatile("");
    return x & 1;
}

__attribute__((noinline)) long named_tiny(long x)
{
    __asm__ volatile("");
    return x ^ 7;
}

__attribute__((noinline)) long rare_tiny(long x)
{
    __asm__ volatile("");
    return x - 1;
}

/* Waits rather than computes: two ranks share two cores with the tests
 * running beside them. Its time makes the run long enough that the tiny
 * functions stay well under 1 % of it. */
__attribute__((noinline)) void heavy_solve(void)
{
    struct timespec ts = {0, 200 * 1000 * 1000};
    nanosleep(&ts, NULL);
}

__attribute__((noinline)) double heavy_step(double x)
{
    for (int i = 0; i < 500; i++)
        x = x * 0.999 + 1.0;
    return x;
}

__attribute__((noinline)) double heavy_exchange(double x)
{
    double sum = 0;
    MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return sum;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, size = 1;
    long sum = 0;
    for (long i = 0; i < TINY_CALLS; i++)
        sum += tiny_add(i) + tiny_mul(i) + tiny_flag(i) + named_tiny(i);
    for (long i = 0; i < RARE_CALLS; i++)
        sum += rare_tiny(i);
    for (long i = 0; i < RANK_CALLS; i++) {
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        sum += rank;
    }
    double x = 0;
    for (int i = 0; i < STEPS; i++)
        x = heavy_step(x);
    for (int i = 0; i < SOLVES; i++)
        heavy_solve();
    for (int i = 0; i < EXCHANGES; i++)
        x += heavy_exchange(1.0);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0)
        printf("suggest_mix: %d rank(s) done (checksum %ld %.3f)\n", size, sum, x);
    MPI_Finalize();
    return 0;
}
