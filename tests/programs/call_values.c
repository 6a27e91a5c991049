/* call_values.c: an MPI program whose functions' integer arguments and
 * return values are known, for the test of args= and retval (call_values.sh).
 * On rank R, for i = 0 .. N-1 (N from the command line, default 5):
 *   combine(R * 1000 + i, -1, 3 * i) returns arg1 - arg3 = R * 1000 - 2 * i;
 *   six(i, 2, 3, -4 * i, 5 * i, 6 * i + R) returns their sum, 8 * i + 5 + R;
 *   plain(i) returns i + 1 (hooked without values);
 *   where(i) returns the address of slots[i % 4], the pointer it also
 *   prints, as "where R i ADDRESS".
 * With "abort" after N, rank 0 calls MPI_Abort once both ranks are done
 * (for scope recover), and each rank writes its lines to abort-R.txt
 * instead: a launcher may drop what the ranks printed as it kills the job.
 * With "files" after N, each rank writes them to lines-R.txt: a launcher
 * may interleave the many lines of two ranks mid-line on its output. */
#include <string.h>
#include <unistd.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static long slots[4];

__attribute__((noinline, noipa)) long combine(long a, long b, long c)
{
    __asm__ volatile("" : "+r"(b));
    return a - c;
}

__attribute__((noinline, noipa)) long six(long a, long b, long c, long d, long e, long f)
{
    return a + b + c + d + e + f;
}

__attribute__((noinline, noipa)) long plain(long x)
{
    return x + 1;
}

__attribute__((noinline, noipa)) long *where(long i)
{
    return &slots[i % 4];
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    long n = argc > 1 ? atol(argv[1]) : 5, sum = 0;
    int aborts = argc > 2 && strcmp(argv[2], "abort") == 0;
    int to_file = aborts || (argc > 2 && strcmp(argv[2], "files") == 0);
    char name[32];
    snprintf(name, sizeof name, "%s-%d.txt", aborts ? "abort" : "lines", rank);
    FILE *out = to_file ? fopen(name, "w") : stdout;
    if (!out)
        MPI_Abort(MPI_COMM_WORLD, 4);
    for (long i = 0; i < n; i++) {
        sum += combine(rank * 1000 + i, -1, 3 * i);
        sum += six(i, 2, 3, -4 * i, 5 * i, 6 * i + rank);
        sum += plain(i);
        long *p = where(i);
        fprintf(out, "where %d %ld %lld\n", rank, i, (long long)(intptr_t)p);
    }
    /* the pid: the test recovers rank 0's run after MPI_Abort by it */
    fprintf(out, "call_values %d: sum %ld (pid %ld)\n", rank, sum, (long)getpid());
    if (to_file)
        fclose(out);
    if (aborts) {
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0)
            MPI_Abort(MPI_COMM_WORLD, 3);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
