/* threaded_calls.c: an MPI program whose every rank runs T threads (first
 * argument) that each call one small function N times (second argument),
 * all at once: the load for the test that every call of every thread of
 * every rank reaches the file. With "staggered" (third argument) each
 * thread starts once the one before has ended: the first N calls are all
 * the first thread's. Rank 0 prints the total. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) long thread_work(long x)
{
    __asm__ volatile("");
    return x * 5 + 3;
}

static long calls;

static void *run(void *arg)
{
    long sum = 0;
    for (long i = 0; i < calls; i++)
        sum += thread_work(i);
    *(long *)arg = sum;
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, rank;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int nthreads = argc > 1 ? atoi(argv[1]) : 4;
    calls = argc > 2 ? atol(argv[2]) : 1000000;
    pthread_t *th = calloc((size_t)nthreads, sizeof(*th));
    long *sums = calloc((size_t)nthreads, sizeof(*sums));
    if (!th || !sums)
        return 1;
    int staggered = argc > 3 && strcmp(argv[3], "staggered") == 0;
    for (int t = 0; t < nthreads; t++)
        if (pthread_create(&th[t], NULL, run, &sums[t]) != 0 ||
            (staggered && pthread_join(th[t], NULL) != 0))
            return 1;
    long mine = 0, all = 0;
    for (int t = 0; t < nthreads; t++) {
        if (!staggered)
            pthread_join(th[t], NULL);
        mine += sums[t];
    }
    MPI_Reduce(&mine, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("threaded_calls: %d threads x %ld calls per rank (checksum %ld)\n", nthreads, calls,
               all);
    free(th);
    free(sums);
    MPI_Finalize();
    return 0;
}
