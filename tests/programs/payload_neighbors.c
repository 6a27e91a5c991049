/* payload_neighbors.c: neighborhood collectives whose messages are known
 * in advance, for the payload end-to-end test (tests/e2e/payload.sh with
 * check_neighbors.py), on 4 ranks. On a 2 x 2 Cartesian grid, periodic in
 * its first dimension only (rank r at (r / 2, r % 2)), each rank's
 * neighbors are, in order, the other row's rank twice (both directions of
 * the periodic dimension) then its column neighbor below and above, one
 * of them MPI_PROC_NULL: MPI_Neighbor_alltoall of 3 ints and
 * MPI_Neighbor_allgather of 2 doubles. On a directed ring (a distributed
 * graph, rank r to r + 1): MPI_Neighbor_alltoallv of r + 1 ints to the
 * right and MPI_Ineighbor_allgatherv of r + 1 ints, completed by
 * MPI_Wait. Where the MPI library has the MPI-4 large-count forms
 * (SCOPE_MPI_LARGE_COUNT, prototypes from preload/mpi/large_count.h),
 * on the ring MPI_Neighbor_alltoallv_c of 2 (r + 1) ints to the right and
 * on the grid MPI_Neighbor_alltoall_c of 5 ints. */
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
        fprintf(stderr, "payload_neighbors: run on 4 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int dims[2] = {2, 2}, periods[2] = {1, 0};
    MPI_Comm grid, ring;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
    static int out[64], in[64];
    static double dout[8], din[16];
    MPI_Neighbor_alltoall(out, 3, MPI_INT, in, 3, MPI_INT, grid);
    MPI_Neighbor_allgather(dout, 2, MPI_DOUBLE, din, 2, MPI_DOUBLE, grid);
    int left = (rank + 3) % 4, right = (rank + 1) % 4;
    int weight = 1;   /* weighted: MPI_UNWEIGHTED is a pointer GCC's -O2 warns about */
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &left, &weight, 1, &right, &weight,
                                   MPI_INFO_NULL, 0, &ring);
    int sendcount = rank + 1, recvcount = left + 1, displ = 0;
    MPI_Neighbor_alltoallv(out, &sendcount, &displ, MPI_INT, in, &recvcount, &displ, MPI_INT,
                           ring);
    MPI_Request request;
    MPI_Ineighbor_allgatherv(out, sendcount, MPI_INT, in, &recvcount, &displ, MPI_INT, ring,
                             &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
#ifdef SCOPE_MPI_LARGE_COUNT
    MPI_Count wide_sendcount = 2 * (rank + 1), wide_recvcount = 2 * (left + 1);
    MPI_Aint wide_displ = 0;
    MPI_Neighbor_alltoallv_c(out, &wide_sendcount, &wide_displ, MPI_INT, in, &wide_recvcount,
                             &wide_displ, MPI_INT, ring);
    MPI_Neighbor_alltoall_c(out, (MPI_Count)5, MPI_INT, in, (MPI_Count)5, MPI_INT, grid);
#endif
    MPI_Comm_free(&ring);
    MPI_Comm_free(&grid);
    MPI_Finalize();
    if (rank == 0)
        printf("payload_neighbors: done\n");
    return 0;
}
