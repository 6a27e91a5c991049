/* crash_in_hook.c: an MPI program that dies of a fault inside a hooked
 * function: every rank calls work() 1000 times, writes its pid to the file
 * named by argv[1] (one line per rank), then the last rank calls crunch()
 * on a null pointer from main while the others wait for a message that
 * never comes (the launcher ends them). With a second argument "abort",
 * crunch() calls abort() instead; with "overflow", it calls dive(), which
 * recurses until the stack overflows. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

__attribute__((noinline)) long work(long x)
{
    __asm__ volatile("");
    return x + 1;
}

/* Never reached: the compiler cannot prove the recursion endless. */
static volatile long bottom = -1;

/* 64 bytes of stack a level that the compiler cannot drop, and work after
 * the recursive call so that it is not a jump. */
__attribute__((noinline)) long dive(long level)
{
    volatile long pad[8];
    if (level == bottom)
        return 0;
    pad[level & 7] = level;
    return dive(level + 1) + pad[(level + 3) & 7];
}

enum crash_kind { NULL_POINTER, ABORT, OVERFLOW };

__attribute__((noinline)) long crunch(volatile long *values, enum crash_kind kind)
{
    __asm__ volatile("");
    if (kind == ABORT)
        abort();
    if (kind == OVERFLOW)
        return dive(0) + 1;   /* not a tail call: crunch's frame stays */
    return values[7] * 3;
}

int main(int argc, char **argv)
{
    int rank = 0, size = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long sum = 0;
    for (long i = 0; i < 1000; i++)
        sum += work(i);
    FILE *pids = fopen(argv[1], "a");
    if (!pids)
        MPI_Abort(MPI_COMM_WORLD, 3);
    fprintf(pids, "%d %d\n", rank, (int)getpid());
    fclose(pids);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank != size - 1)
        MPI_Recv(&sum, 1, MPI_LONG, size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    volatile long *nowhere = NULL;
    enum crash_kind kind = NULL_POINTER;
    if (argc > 2)
        kind = strcmp(argv[2], "abort") == 0 ? ABORT : OVERFLOW;
    sum += crunch(nowhere, kind);
    printf("%ld\n", sum);
    MPI_Finalize();
    return 0;
}
