/* callsites.c: one hooked function reached from four callers, once, twice,
 * three times, and twice from one line (two calls on it), each call on a
 * line the program prints ("line caller_b 42"), so that a test can check that every call is attributed to its
 * caller and line. Built at -O2 -g like a user's code; the callers use the
 * result after the call, so that none of them becomes a tail call. With
 * the argument "abort", rank 0 also prints its pid and calls MPI_Abort once
 * every rank made its calls (for `scope recover`). Rank 0 prints into the
 * file callsites.txt of the current directory: a launcher may lose the
 * output of a job that aborts. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int line_a, line_b, line_c, line_d;

/* The call, noting the line it is on. */
#define CALL(line, x) ((line) = __LINE__, measured(x))

__attribute__((noinline)) double measured(double x)
{
    __asm__ volatile("" : "+x"(x));
    return x * 1.5;
}

__attribute__((noinline)) double caller_a(double x)
{
    return CALL(line_a, x) + 1.0;
}

__attribute__((noinline)) double caller_b(double x)
{
    for (int i = 0; i < 2; i++)
        x = CALL(line_b, x) + 2.0;
    return x;
}

__attribute__((noinline)) double caller_c(double x)
{
    for (int i = 0; i < 3; i++)
        x = CALL(line_c, x) - 3.0;
    return x;
}

__attribute__((noinline)) double caller_d(double x)
{
    return CALL(line_d, x) * CALL(line_d, x + 1.0);
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double x = caller_a(rank) + caller_b(rank) + caller_c(rank) + caller_d(rank);
    int abort_after = argc > 1 && strcmp(argv[1], "abort") == 0;
    if (rank == 0) {
        FILE *out = fopen("callsites.txt", "w");
        if (!out || fprintf(out, "line caller_a %d\nline caller_b %d\nline caller_c %d\n"
                            "line caller_d %d\nresult %g\npid %d\n", line_a, line_b, line_c,
                            line_d, x, (int)getpid()) < 0 || fclose(out) != 0) {
            perror("callsites.txt");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    if (abort_after) {
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0)
            MPI_Abort(MPI_COMM_WORLD, 3);
        MPI_Barrier(MPI_COMM_WORLD);   /* until the abort ends this rank */
    }
    MPI_Finalize();
    return 0;
}
