/* payload_collectives.c: collectives whose every byte and root is known in
 * advance, for the payload end-to-end test (tests/e2e/payload.sh), on 4
 * ranks: MPI_Alltoallv with unequal counts (rank r sends (r + 1)(j + 2)
 * ints to rank j), MPI_Bcast of 5 elements of an MPI_Type_vector (3 blocks
 * of 2 doubles, stride 4: 48 bytes each) from root 2, MPI_Reduce of 10
 * doubles to root 1, MPI_Gather of 7 ints to root 3 (MPI_IN_PLACE there),
 * MPI_Scatterv from root 0 (j + 1 ints to rank j), MPI_Gatherv to root 2
 * (2j + 1 ints from rank j), MPI_Allreduce of 3 ints,
 * MPI_Iallreduce of 4 doubles, MPI_Barrier, and on a communicator split
 * by parity an MPI_Allreduce of 2 ints and an MPI_Bcast of 1 int from its
 * rank 1; on the intercommunicator of the two halves (leaders world ranks
 * 0 and 1) MPI_Gatherv to world rank 0 (MPI_ROOT; world rank 2:
 * MPI_PROC_NULL) of r + 1 ints from each odd rank r and MPI_Scatterv from
 * world rank 3 (MPI_ROOT; world rank 1: MPI_PROC_NULL) of r + 1 ints to
 * each even rank r, and MPI_Reduce of 2 ints from each even rank to world
 * rank 1 (MPI_ROOT; world rank 3: MPI_PROC_NULL); last, with MPI_ERRORS_RETURN, an MPI_Bcast of an invalid
 * datatype, which fails and must be recorded all the same. Where the MPI
 * library has the MPI-4 large-count forms (SCOPE_MPI_LARGE_COUNT, their
 * prototypes from preload/mpi/large_count.h), before that: MPI_Bcast_c of
 * 6 doubles from root 1, MPI_Allreduce_c of 5 ints, and MPI_Bcast_c of
 * 3 000 000 000 bytes on MPI_COMM_SELF, a count no int holds (one rank:
 * nothing moves, the buffer is not read), MPI_Scan_c of 2 ints,
 * MPI_Exscan_c of 3 and MPI_Reduce_scatter_block_c of 1 int per rank,
 * MPI_Gatherv_c of r + 2 ints to root 1 and MPI_Alltoallv_c of j + 1 ints
 * to rank j. Where it has the MPI-4 persistent collectives
 * (SCOPE_MPI_PERSISTENT_COLLECTIVES), then: MPI_Allreduce_init of 6 ints
 * and MPI_Alltoallv_init of r + j + 1 ints to rank j, each started 3 times
 * by MPI_Start, and MPI_Bcast_init of 9 doubles from root 3 started twice
 * by MPI_Startall, all three freed by MPI_Request_free. */
#include <mpi.h>
#include <stdio.h>

#include "large_count.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 4) {
        fprintf(stderr, "payload_collectives: run on 4 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    static int ints[4096], more[4096];
    static double doubles[4096], out[4096];
    int sendcounts[4], recvcounts[4], sdispls[4], rdispls[4];
    for (int j = 0, s = 0, r = 0; j < 4; j++) {
        sendcounts[j] = (rank + 1) * (j + 2);
        recvcounts[j] = (j + 1) * (rank + 2);
        sdispls[j] = s;
        rdispls[j] = r;
        s += sendcounts[j];
        r += recvcounts[j];
    }
    MPI_Alltoallv(ints, sendcounts, sdispls, MPI_INT, more, recvcounts, rdispls, MPI_INT,
                  MPI_COMM_WORLD);
    MPI_Datatype vector;
    MPI_Type_vector(3, 2, 4, MPI_DOUBLE, &vector);
    MPI_Type_commit(&vector);
    MPI_Bcast(doubles, 5, vector, 2, MPI_COMM_WORLD);
    MPI_Type_free(&vector);
    MPI_Reduce(doubles, out, 10, MPI_DOUBLE, MPI_SUM, 1, MPI_COMM_WORLD);
    MPI_Gather(rank == 3 ? MPI_IN_PLACE : ints, 7, MPI_INT, more, 7, MPI_INT, 3, MPI_COMM_WORLD);
    int scounts[4] = {1, 2, 3, 4}, displs[4] = {0, 1, 3, 6};
    MPI_Scatterv(ints, scounts, displs, MPI_INT, more, rank + 1, MPI_INT, 0, MPI_COMM_WORLD);
    int gcounts[4] = {1, 3, 5, 7}, gdispls[4] = {0, 1, 4, 9};
    MPI_Gatherv(ints, 2 * rank + 1, MPI_INT, more, gcounts, gdispls, MPI_INT, 2, MPI_COMM_WORLD);
    MPI_Allreduce(ints, more, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Request request;
    MPI_Iallreduce(doubles, out, 4, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Allreduce(ints, more, 2, MPI_INT, MPI_SUM, half);
    MPI_Bcast(ints, 1, MPI_INT, 1, half);
    MPI_Comm inter;
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - rank % 2, 77, &inter);
    int odd = rank % 2, from_odd[2] = {2, 4}, from_odd_at[2] = {0, 2};
    int to_even[2] = {1, 3}, to_even_at[2] = {0, 1};
    MPI_Gatherv(ints, odd ? rank + 1 : 0, MPI_INT, more, from_odd, from_odd_at, MPI_INT,
                odd ? 0 : rank == 0 ? MPI_ROOT : MPI_PROC_NULL, inter);
    MPI_Scatterv(ints, to_even, to_even_at, MPI_INT, more, odd ? 0 : rank + 1, MPI_INT,
                 odd ? (rank == 3 ? MPI_ROOT : MPI_PROC_NULL) : 1, inter);
    MPI_Reduce(ints, more, 2, MPI_INT, MPI_SUM, odd ? (rank == 1 ? MPI_ROOT : MPI_PROC_NULL) : 0,
               inter);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
#ifdef SCOPE_MPI_LARGE_COUNT
    MPI_Bcast_c(doubles, (MPI_Count)6, MPI_DOUBLE, 1, MPI_COMM_WORLD);
    MPI_Allreduce_c(ints, more, (MPI_Count)5, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Bcast_c(out, (MPI_Count)3000000000, MPI_BYTE, 0, MPI_COMM_SELF);
    MPI_Scan_c(ints, more, (MPI_Count)2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Exscan_c(ints, more, (MPI_Count)3, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Reduce_scatter_block_c(ints, more, (MPI_Count)1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Count gathered[4] = {2, 3, 4, 5}, to_each[4] = {1, 2, 3, 4}, from_each[4];
    MPI_Aint gathered_at[4] = {0, 2, 5, 9}, to_at[4] = {0, 1, 3, 6}, from_at[4];
    for (int j = 0; j < 4; j++) {
        from_each[j] = rank + 1;
        from_at[j] = j * (rank + 1);
    }
    MPI_Gatherv_c(ints, (MPI_Count)rank + 2, MPI_INT, more, gathered, gathered_at, MPI_INT, 1,
                  MPI_COMM_WORLD);
    MPI_Alltoallv_c(ints, to_each, to_at, MPI_INT, more, from_each, from_at, MPI_INT,
                    MPI_COMM_WORLD);
#endif
#ifdef SCOPE_MPI_PERSISTENT_COLLECTIVES
    MPI_Request persistent[3];
    int to_peer[4], to_peer_at[4], from_peer[4], from_peer_at[4];
    for (int j = 0; j < 4; j++) {
        to_peer[j] = from_peer[j] = rank + j + 1;
        to_peer_at[j] = from_peer_at[j] = j * 8;
    }
    MPI_Allreduce_init(ints, more, 6, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                       &persistent[0]);
    MPI_Bcast_init(doubles, 9, MPI_DOUBLE, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &persistent[1]);
    MPI_Alltoallv_init(ints, to_peer, to_peer_at, MPI_INT, more + 2048, from_peer, from_peer_at,
                       MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &persistent[2]);
    for (int round = 0; round < 3; round++) {
        MPI_Start(&persistent[0]);
        MPI_Wait(&persistent[0], MPI_STATUS_IGNORE);
        MPI_Start(&persistent[2]);
        MPI_Wait(&persistent[2], MPI_STATUS_IGNORE);
    }
    for (int round = 0; round < 2; round++) {
        MPI_Startall(1, &persistent[1]);
        MPI_Wait(&persistent[1], MPI_STATUS_IGNORE);
    }
    for (int i = 0; i < 3; i++)
        MPI_Request_free(&persistent[i]);
#endif
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (MPI_Bcast(ints, 1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD) == MPI_SUCCESS) {
        fprintf(stderr, "payload_collectives: MPI_Bcast of MPI_DATATYPE_NULL succeeded\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Finalize();
    if (rank == 0)
        printf("payload_collectives: done\n");
    return 0;
}
