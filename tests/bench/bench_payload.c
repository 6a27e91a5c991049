/* bench_payload.c: the cost of recording what MPI calls carried: rounds
 * of empty messages (MPI_Irecv, MPI_Isend, MPI_Waitall: 3 calls per round)
 * between 2 ranks, or, on 1 rank, with itself (the messages never leave
 * the process: what is left is the calls' own cost, the most sensitive
 * measure of what scope adds). After N / 10 rounds of warm-up, N rounds in
 * 20 batches, each timed by the thread's CPU clock (a batch the scheduler
 * interrupts is not charged for the time away); rank 0 prints the fastest
 * batch's ns per round (of the slower rank), and the process's CPU time
 * per timed round (scope's spill writer thread included).
 * usage: bench_payload [N]   (default 200 000) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define BATCHES 20

static double cpu_ns(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static void rounds(long n, int peer)
{
    MPI_Request req[2];
    for (long i = 0; i < n; i++) {
        MPI_Irecv(NULL, 0, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &req[0]);
        MPI_Isend(NULL, 0, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &req[1]);
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    long n = argc > 1 ? atol(argv[1]) : 200000;
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > 2 || n < BATCHES) {
        if (rank == 0)
            fprintf(stderr, "bench_payload: 1 or 2 ranks, N >= %d\n", BATCHES);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int peer = size - 1 - rank;
    rounds(n / 10, peer);
    double best = 1e30, process0 = cpu_ns(CLOCK_PROCESS_CPUTIME_ID);
    for (int b = 0; b < BATCHES; b++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = cpu_ns(CLOCK_THREAD_CPUTIME_ID);
        rounds(n / BATCHES, peer);
        double t = (cpu_ns(CLOCK_THREAD_CPUTIME_ID) - t0) / (double)(n / BATCHES);
        best = t < best ? t : best;
    }
    double mine[2] = {best, (cpu_ns(CLOCK_PROCESS_CPUTIME_ID) - process0) /
                                (double)(n / BATCHES * BATCHES)}, slowest[2];
    MPI_Reduce(mine, slowest, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("ns_per_round %.1f\nprocess_ns_per_round %.1f\n", slowest[0], slowest[1]);
    MPI_Finalize();
    return 0;
}
