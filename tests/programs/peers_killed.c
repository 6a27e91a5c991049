/* peers_killed.c: traffic whose every message and byte per peer is known
 * in advance, for the recover test of the peer totals
 * (tests/e2e/peers_recover.sh). On 4 ranks, ROUNDS rounds of: rank r
 * sends 10 (r + 1) ints to its right (tag 7) with MPI_Isend, receives its
 * left's with MPI_Irecv, both completed by MPI_Waitall; then an
 * MPI_Alltoallv where rank r sends (r + 1) + 10 d ints to rank d (itself
 * included). Then an MPI_Barrier, rank 0 prints "peers_killed: rank 0 pid
 * PID", and with "kill" every rank sends itself SIGKILL (no MPI_Finalize:
 * its records stay in shared memory for `scope recover`).
 * usage: peers_killed ROUNDS [kill] */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RANKS 4
#define MAX_INTS 1000

static __attribute__((noinline)) void ring(int rank)
{
    static int in[MAX_INTS], out[MAX_INTS];
    int right = (rank + 1) % RANKS, left = (rank + RANKS - 1) % RANKS;
    MPI_Request req[2];
    MPI_Status status[2];
    MPI_Irecv(in, 10 * (left + 1), MPI_INT, left, 7, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(out, 10 * (rank + 1), MPI_INT, right, 7, MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, status);
}

static __attribute__((noinline)) void all_to_all(int rank)
{
    static int in[MAX_INTS], out[MAX_INTS];
    int send_counts[RANKS], recv_counts[RANKS], send_at[RANKS], recv_at[RANKS];
    for (int d = 0, s = 0, r = 0; d < RANKS; d++) {
        send_counts[d] = (rank + 1) + 10 * d;
        recv_counts[d] = (d + 1) + 10 * rank;
        send_at[d] = s;
        recv_at[d] = r;
        s += send_counts[d];
        r += recv_counts[d];
    }
    MPI_Alltoallv(out, send_counts, send_at, MPI_INT, in, recv_counts, recv_at, MPI_INT,
                  MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != RANKS || argc < 2) {
        if (rank == 0)
            fprintf(stderr, "usage: mpirun -n %d peers_killed ROUNDS [kill]\n", RANKS);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int rounds = atoi(argv[1]);
    for (int i = 0; i < rounds; i++) {
        ring(rank);
        all_to_all(rank);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("peers_killed: rank 0 pid %d\n", (int)getpid());
        fflush(stdout);
    }
    if (argc > 2 && strcmp(argv[2], "kill") == 0) {
        MPI_Barrier(MPI_COMM_WORLD);   /* rank 0 has said its pid */
        kill(getpid(), SIGKILL);
    }
    MPI_Finalize();
    return 0;
}
