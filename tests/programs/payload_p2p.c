/* payload_p2p.c: point-to-point traffic whose every byte, peer and tag is
 * known in advance, for the payload end-to-end test (tests/e2e/payload.sh).
 * On 4 ranks: a ring on a duplicate of MPI_COMM_WORLD, each rank posting
 * two MPI_Irecv from MPI_ANY_SOURCE with MPI_ANY_TAG, sending 10 (r + 1)
 * ints to its right (tag 100 + r) and 20 (r + 1) doubles to its left (tag
 * 200 + r) with MPI_Isend, then MPI_Waitall; a 2-D halo exchange with
 * MPI_Sendrecv on a periodic 2 x 2 Cartesian communicator made with
 * reorder, 5 doubles along dimension 0 and 7 along dimension 1 (tag
 * 10 dim + dir), whose neighbours as world ranks each rank writes to
 * payload-expected-rank{r}.txt; a blocking MPI_Send/MPI_Recv pair and one
 * to MPI_PROC_NULL; persistent requests around the ring (MPI_Send_init of
 * 3 (r + 1) ints to the right, tag 300 + r, MPI_Recv_init from the left,
 * twice MPI_Startall and MPI_Waitall); 5 ints from rank 0 to rank 1 (tag
 * 400) taken by MPI_Mprobe and MPI_Mrecv, 9 doubles from rank 1 to rank 2
 * (tag 401) found by MPI_Probe and taken by MPI_Recv; where the MPI library
 * has the MPI-4 large-count forms (SCOPE_MPI_LARGE_COUNT, their prototypes
 * from preload/mpi/large_count.h), 100 doubles from rank 0 to rank 3 (tag
 * 500) by MPI_Send_c taken by MPI_Recv_c from MPI_ANY_SOURCE, 33 ints back
 * (tag 501) by MPI_Isend_c and MPI_Wait taken by MPI_Irecv_c and MPI_Wait,
 * 4 doubles from rank 0 to rank 3 (tag 502) by MPI_Send_c found by
 * MPI_Mprobe and taken by MPI_Mrecv_c.
 * With "abort", MPI_Abort ends the job (for scope
 * recover) instead of MPI_Finalize; with "rounds N" the ring and the halo
 * exchange go N rounds instead of 3 (tests/e2e/payload_modes.sh). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "large_count.h"

#define ITERATIONS 3

static __attribute__((noinline)) void ring(MPI_Comm comm, int rank, int size)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    static int ints_in[1000], ints_out[1000];
    static double doubles_in[1000], doubles_out[1000];
    MPI_Request req[4];
    MPI_Irecv(ints_in, 1000, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &req[0]);
    MPI_Irecv(doubles_in, 1000, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &req[1]);
    MPI_Isend(ints_out, 10 * (rank + 1), MPI_INT, right, 100 + rank, comm, &req[2]);
    MPI_Isend(doubles_out, 20 * (rank + 1), MPI_DOUBLE, left, 200 + rank, comm, &req[3]);
    /* statuses ignored: scope must resolve the sources all the same (GCC
     * takes MPICH's MPI_STATUSES_IGNORE for a too small array) */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
#pragma GCC diagnostic pop
}

static __attribute__((noinline)) void halo(MPI_Comm cart, int iteration, FILE *expected)
{
    static double out[16], in[16];
    const int counts[2] = {5, 7};
    for (int dim = 0; dim < 2; dim++)
        for (int dir = 0; dir < 2; dir++) {
            int source, dest;
            MPI_Cart_shift(cart, dim, dir ? 1 : -1, &source, &dest);
            MPI_Sendrecv(out, counts[dim], MPI_DOUBLE, dest, 10 * dim + dir, in, 16, MPI_DOUBLE,
                         source, 10 * dim + dir, cart, MPI_STATUS_IGNORE);
            MPI_Group cart_group, world_group;
            MPI_Comm_group(cart, &cart_group);
            MPI_Comm_group(MPI_COMM_WORLD, &world_group);
            int ranks[2] = {dest, source}, world[2];
            MPI_Group_translate_ranks(cart_group, 2, ranks, world_group, world);
            MPI_Group_free(&cart_group);
            MPI_Group_free(&world_group);
            fprintf(expected, "halo %d %d %d %d %d %d\n", iteration, dim, dir, world[0], world[1],
                    counts[dim] * 8);
        }
}

static __attribute__((noinline)) void blocking(int rank)
{
    int v[64] = {0};
    if (rank == 0)
        MPI_Send(v, 64, MPI_INT, 1, 7, MPI_COMM_WORLD);
    else if (rank == 1)
        MPI_Recv(v, 64, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(v, 64, MPI_INT, MPI_PROC_NULL, 8, MPI_COMM_WORLD);
}

static __attribute__((noinline)) void persistent(int rank, int size)
{
    static int out[64], in[64];
    MPI_Request req[2];
    MPI_Status st[2];
    MPI_Send_init(out, 3 * (rank + 1), MPI_INT, (rank + 1) % size, 300 + rank, MPI_COMM_WORLD,
                  &req[0]);
    MPI_Recv_init(in, 64, MPI_INT, (rank + size - 1) % size, MPI_ANY_TAG, MPI_COMM_WORLD, &req[1]);
    for (int i = 0; i < 2; i++) {
        MPI_Startall(2, req);
        MPI_Waitall(2, req, st);
    }
    MPI_Request_free(&req[0]);
    MPI_Request_free(&req[1]);
}

static __attribute__((noinline)) void probes(int rank)
{
    int ints[5] = {0};
    double doubles[9] = {0};
    MPI_Status st;
    if (rank == 0)
        MPI_Send(ints, 5, MPI_INT, 1, 400, MPI_COMM_WORLD);
    if (rank == 1) {
        MPI_Message m;
        MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &m, &st);
        MPI_Mrecv(ints, 5, MPI_INT, &m, MPI_STATUS_IGNORE);
        MPI_Send(doubles, 9, MPI_DOUBLE, 2, 401, MPI_COMM_WORLD);
    }
    if (rank == 2) {
        MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(doubles, 9, MPI_DOUBLE, 1, 401, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

#ifdef SCOPE_MPI_LARGE_COUNT
static __attribute__((noinline)) void large_count(int rank)
{
    static double doubles[100];
    static int ints[33];
    MPI_Request req;
    if (rank == 0) {
        MPI_Send_c(doubles, (MPI_Count)100, MPI_DOUBLE, 3, 500, MPI_COMM_WORLD);
        MPI_Irecv_c(ints, (MPI_Count)33, MPI_INT, 3, 501, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Send_c(doubles, (MPI_Count)4, MPI_DOUBLE, 3, 502, MPI_COMM_WORLD);
    } else if (rank == 3) {
        MPI_Recv_c(doubles, (MPI_Count)100, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Isend_c(ints, (MPI_Count)33, MPI_INT, 0, 501, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Message m;
        MPI_Mprobe(0, 502, MPI_COMM_WORLD, &m, MPI_STATUS_IGNORE);
        MPI_Mrecv_c(doubles, (MPI_Count)100, MPI_DOUBLE, &m, MPI_STATUS_IGNORE);
    }
}
#endif

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char name[64];
    snprintf(name, sizeof name, "payload-expected-rank%d.txt", rank);
    FILE *expected = fopen(name, "w");
    if (!expected || size != 4) {
        fprintf(stderr, "payload_p2p: run on 4 ranks in a writable directory\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Comm dup, cart;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    int dims[2] = {2, 2}, periods[2] = {1, 1};
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 1, &cart);
    int cart_size;
    MPI_Comm_size(cart, &cart_size);
    MPI_Group cart_group, world_group;
    MPI_Comm_group(cart, &cart_group);
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    for (int i = 0; i < cart_size; i++) {
        int world;
        MPI_Group_translate_ranks(cart_group, 1, &i, world_group, &world);
        fprintf(expected, "cart %d %d\n", i, world);
    }
    MPI_Group_free(&cart_group);
    MPI_Group_free(&world_group);
    int rounds = argc > 2 && strcmp(argv[1], "rounds") == 0 ? atoi(argv[2]) : ITERATIONS;
    for (int i = 0; i < rounds; i++) {
        ring(dup, rank, size);
        halo(cart, i, expected);
    }
    blocking(rank);
    persistent(rank, size);
    probes(rank);
#ifdef SCOPE_MPI_LARGE_COUNT
    large_count(rank);
#endif
    fclose(expected);
    MPI_Comm_free(&dup);
    MPI_Barrier(MPI_COMM_WORLD);
    if (argc > 1 && strcmp(argv[1], "abort") == 0 && rank == 0)
        MPI_Abort(MPI_COMM_WORLD, 3);
    if (argc > 1 && strcmp(argv[1], "abort") == 0)
        for (;;)
            MPI_Barrier(MPI_COMM_WORLD);   /* waits for the abort */
    MPI_Comm_free(&cart);
    MPI_Finalize();
    if (rank == 0)
        printf("payload_p2p: done\n");
    return 0;
}
