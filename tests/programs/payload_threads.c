/* payload_threads.c: MPI requests made on one thread and started or
 * completed on another, under MPI_THREAD_MULTIPLE, on 2 ranks. The main
 * thread makes a persistent send of 8 ints and a persistent receive of 8
 * ints to and from the other rank (tag 5) and posts an MPI_Irecv of 3
 * doubles (tag 9); a second thread then starts the persistent pair 3
 * times (MPI_Start, MPI_Wait on each), sends the 3 doubles with MPI_Send
 * and completes the main thread's MPI_Irecv with MPI_Wait. Each rank
 * sends the other 4 messages of 3 x 32 + 24 = 120 bytes and receives the
 * same: `scope comm` must say exactly that. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

enum { ROUNDS = 3 };

struct requests {
    MPI_Request send, recv, irecv;
    int peer;
    double out[3];
};

static void *other_thread(void *arg)
{
    struct requests *r = arg;
    for (int i = 0; i < ROUNDS; i++) {
        MPI_Start(&r->recv);
        MPI_Start(&r->send);
        MPI_Wait(&r->send, MPI_STATUS_IGNORE);
        MPI_Wait(&r->recv, MPI_STATUS_IGNORE);
    }
    MPI_Send(r->out, 3, MPI_DOUBLE, r->peer, 9, MPI_COMM_WORLD);
    MPI_Wait(&r->irecv, MPI_STATUS_IGNORE);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, rank, size;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2 || provided < MPI_THREAD_SERIALIZED) {
        fprintf(stderr, "payload_threads: run on 2 ranks with MPI_THREAD_MULTIPLE (got %d)\n",
                provided);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int sent[8] = {rank}, got[8];
    double in[3];
    struct requests r = {.peer = 1 - rank, .out = {rank, rank, rank}};
    MPI_Send_init(sent, 8, MPI_INT, r.peer, 5, MPI_COMM_WORLD, &r.send);
    MPI_Recv_init(got, 8, MPI_INT, r.peer, 5, MPI_COMM_WORLD, &r.recv);
    MPI_Irecv(in, 3, MPI_DOUBLE, r.peer, 9, MPI_COMM_WORLD, &r.irecv);
    pthread_t t;
    if (pthread_create(&t, NULL, other_thread, &r) != 0 || pthread_join(t, NULL) != 0) {
        fprintf(stderr, "payload_threads: no thread\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Request_free(&r.send);
    MPI_Request_free(&r.recv);
    if (got[0] != r.peer || in[0] != r.peer)
        fprintf(stderr, "payload_threads: rank %d received the wrong data\n", rank);
    else
        printf("payload_threads: rank %d done\n", rank);
    MPI_Finalize();
    return 0;
}
