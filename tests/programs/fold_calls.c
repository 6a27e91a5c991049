/* fold_calls.c: an MPI program of known short and long calls for the
 * min_duration test: N steps (N from the command line), each one outer()
 * that calls tiny() 50 times and, every fourth step, wait_us(60), which
 * spins on the clock for at least 60 us. Per rank: outer N, tiny 50N,
 * wait_us ceil(N / 4); every tiny() and wait_us() call inside an outer(). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

__attribute__((noinline)) long tiny(long x)
{
    __asm__ volatile("" : "+r"(x));
    return x + 1;
}

__attribute__((noinline)) long wait_us(long us)
{
    long until = now_ns() + us * 1000, spins = 0;
    while (now_ns() < until)
        spins++;
    return spins;
}

__attribute__((noinline)) long outer(long step)
{
    long x = step;
    for (int i = 0; i < 50; i++)
        x = tiny(x);
    if (step % 4 == 0)
        x += wait_us(60);
    __asm__ volatile("" : "+r"(x));
    return x;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    long n = argc > 1 ? atol(argv[1]) : 1000, sum = 0;
    for (long i = 0; i < n; i++)
        sum += outer(i);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        printf("fold_calls: %ld steps per rank (checksum %ld)\n", n, sum);
    MPI_Finalize();
    return 0;
}
