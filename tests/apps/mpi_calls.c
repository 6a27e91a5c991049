/* mpi_calls.c: an MPI program that makes a known number of MPI calls per
 * rank, in three phases that are functions of their own so that a profile
 * can show each MPI call nested inside its phase:
 *   collectives()   every collective family of mpi-collectives.conf,
 *   point_to_point() sends, receives, probes and completions (mpi-p2p.conf),
 *   onesided_io()   RMA and MPI-IO (mpi-onesided-io.conf).
 * The counts here are the table of check_app.py; run with an even number
 * of ranks (pairs exchange). Prints "mpi_calls: N rank(s) ok" on rank 0. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 8

static int rank, size;

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "mpi_calls: rank %d: %s is wrong\n", rank, what);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

__attribute__((noinline)) void collectives(void)
{
    double x = rank + 1, sum = 0;
    for (int i = 0; i < 10; i++)
        MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    check(sum == size * (size + 1) / 2.0, "MPI_Allreduce");
    int root_value = 0;
    for (int i = 0; i < 5; i++) {
        root_value = rank == 0 ? 42 + i : -1;
        MPI_Bcast(&root_value, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    check(root_value == 46, "MPI_Bcast");
    for (int i = 0; i < 3; i++)
        MPI_Barrier(MPI_COMM_WORLD);
    MPI_Reduce(&x, &sum, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&x, &sum, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);

    int *all = calloc((size_t)size * N, sizeof *all);
    int *counts = calloc((size_t)size, sizeof *counts);
    int *displs = calloc((size_t)size, sizeof *displs);
    int mine[N];
    for (int i = 0; i < N; i++)
        mine[i] = rank * 100 + i;
    for (int r = 0; r < size; r++) {
        counts[r] = 1;
        displs[r] = r;
    }
    MPI_Allgather(mine, N, MPI_INT, all, N, MPI_INT, MPI_COMM_WORLD);
    MPI_Allgather(mine, N, MPI_INT, all, N, MPI_INT, MPI_COMM_WORLD);
    check(all[N * (size - 1)] == (size - 1) * 100, "MPI_Allgather");
    MPI_Allgatherv(mine, 1, MPI_INT, all, counts, displs, MPI_INT, MPI_COMM_WORLD);
    MPI_Alltoall(all, 1, MPI_INT, mine, 1, MPI_INT, MPI_COMM_WORLD);
    MPI_Alltoall(all, 1, MPI_INT, mine, 1, MPI_INT, MPI_COMM_WORLD);
    MPI_Alltoallv(all, counts, displs, MPI_INT, mine, counts, displs, MPI_INT, MPI_COMM_WORLD);
    MPI_Gather(mine, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Scatter(all, 1, MPI_INT, mine, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Reduce_scatter_block(all, mine, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Scan(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    check(sum == (rank + 1) * (rank + 2) / 2.0, "MPI_Scan");
    MPI_Exscan(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);

    MPI_Request req[3];
    MPI_Status st[3];
    double y = 0, z = 0;
    MPI_Iallreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req[0]);
    MPI_Iallreduce(&x, &z, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD, &req[1]);
    MPI_Ibcast(&root_value, 1, MPI_INT, 0, MPI_COMM_WORLD, &req[2]);
    MPI_Waitall(3, req, st);
    check(y == size * (size + 1) / 2.0 && z == size, "MPI_Iallreduce");
    free(all);
    free(counts);
    free(displs);
}

__attribute__((noinline)) void point_to_point(void)
{
    int peer = rank ^ 1, tag = 7;
    double out[N], in[N];
    for (int i = 0; i < N; i++)
        out[i] = rank + i;
    /* 2 MPI_Send + 2 MPI_Recv per rank, the even rank sending first */
    for (int i = 0; i < 2; i++) {
        if (rank % 2 == 0) {
            MPI_Send(out, N, MPI_DOUBLE, peer, tag, MPI_COMM_WORLD);
            MPI_Recv(in, N, MPI_DOUBLE, peer, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(in, N, MPI_DOUBLE, peer, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(out, N, MPI_DOUBLE, peer, tag, MPI_COMM_WORLD);
        }
    }
    check(in[1] == peer + 1, "MPI_Recv");
    /* 3 MPI_Isend + 3 MPI_Irecv, 1 MPI_Waitall */
    MPI_Request req[6];
    MPI_Status st[6];
    double bufs[3][N];
    for (int i = 0; i < 3; i++) {
        MPI_Irecv(bufs[i], N, MPI_DOUBLE, peer, 10 + i, MPI_COMM_WORLD, &req[i]);
        MPI_Isend(out, N, MPI_DOUBLE, peer, 10 + i, MPI_COMM_WORLD, &req[3 + i]);
    }
    MPI_Waitall(6, req, st);
    /* 1 MPI_Isend + 1 MPI_Irecv completed by 1 MPI_Waitany, 1 MPI_Wait,
     * then 1 MPI_Test on the finished (null) request */
    int which, flag;
    MPI_Irecv(in, N, MPI_DOUBLE, peer, 20, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(out, N, MPI_DOUBLE, peer, 20, MPI_COMM_WORLD, &req[1]);
    MPI_Waitany(2, req, &which, MPI_STATUS_IGNORE);
    MPI_Wait(&req[1 - which], MPI_STATUS_IGNORE);
    MPI_Test(&req[0], &flag, MPI_STATUS_IGNORE);
    check(flag, "MPI_Test");
    /* 2 MPI_Sendrecv, 1 MPI_Sendrecv_replace */
    MPI_Sendrecv(out, N, MPI_DOUBLE, peer, 30, in, N, MPI_DOUBLE, peer, 30,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(out, N, MPI_DOUBLE, peer, 31, in, N, MPI_DOUBLE, peer, 31,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv_replace(out, N, MPI_DOUBLE, peer, 32, peer, 32, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
    check(out[0] == peer, "MPI_Sendrecv_replace");
    /* 1 MPI_Ssend, 1 MPI_Probe, 1 more MPI_Recv (3 in all) */
    if (rank % 2 == 0) {
        MPI_Ssend(out, N, MPI_DOUBLE, peer, 40, MPI_COMM_WORLD);
        MPI_Probe(peer, 41, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(in, N, MPI_DOUBLE, peer, 41, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Probe(peer, 40, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(in, N, MPI_DOUBLE, peer, 40, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Ssend(out, N, MPI_DOUBLE, peer, 41, MPI_COMM_WORLD);
    }
    /* 1 MPI_Iprobe: nothing is pending, whatever it says */
    MPI_Iprobe(peer, 99, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    check(!flag, "MPI_Iprobe");
}

__attribute__((noinline)) void onesided_io(const char *path)
{
    /* RMA: 1 MPI_Win_create, 3 MPI_Win_fence, 2 MPI_Put, 1 MPI_Get,
     * 1 MPI_Accumulate, 1 MPI_Win_lock + 1 MPI_Win_unlock, 1 MPI_Win_free */
    double window[N] = {0}, got[N] = {0}, one = 1;
    MPI_Win win;
    int peer = rank ^ 1;
    MPI_Win_create(window, sizeof window, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    double value = rank + 10;
    MPI_Put(&value, 1, MPI_DOUBLE, peer, 0, 1, MPI_DOUBLE, win);
    MPI_Put(&value, 1, MPI_DOUBLE, peer, 1, 1, MPI_DOUBLE, win);
    MPI_Win_fence(0, win);
    MPI_Get(got, 2, MPI_DOUBLE, peer, 0, 2, MPI_DOUBLE, win);
    MPI_Win_fence(0, win);
    check(window[0] == peer + 10 && got[1] == rank + 10, "MPI_Put/MPI_Get");
    MPI_Win_lock(MPI_LOCK_SHARED, peer, 0, win);
    MPI_Accumulate(&one, 1, MPI_DOUBLE, peer, 2, 1, MPI_DOUBLE, MPI_SUM, win);
    MPI_Win_unlock(peer, win);
    MPI_Win_free(&win);

    /* MPI-IO: 1 MPI_File_open, 2 MPI_File_write_at, 1 MPI_File_write_at_all,
     * 1 MPI_File_sync, 1 MPI_File_read_at, 1 MPI_File_close */
    MPI_File fh;
    int block[N], back[N];
    for (int i = 0; i < N; i++)
        block[i] = rank * 1000 + i;
    MPI_Offset at = (MPI_Offset)rank * 3 * sizeof block;
    check(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR,
                        MPI_INFO_NULL, &fh) == MPI_SUCCESS, "MPI_File_open");
    MPI_File_write_at(fh, at, block, N, MPI_INT, MPI_STATUS_IGNORE);
    MPI_File_write_at(fh, at + sizeof block, block, N, MPI_INT, MPI_STATUS_IGNORE);
    MPI_File_write_at_all(fh, at + 2 * sizeof block, block, N, MPI_INT, MPI_STATUS_IGNORE);
    MPI_File_sync(fh);
    MPI_File_read_at(fh, at + sizeof block, back, N, MPI_INT, MPI_STATUS_IGNORE);
    MPI_File_close(&fh);
    check(memcmp(block, back, sizeof block) == 0, "MPI_File_read_at");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size % 2 != 0) {
        if (rank == 0)
            fprintf(stderr, "mpi_calls: needs an even number of ranks\n");
        MPI_Finalize();
        return 2;
    }
    collectives();
    point_to_point();
    onesided_io(argc > 1 ? argv[1] : "mpi_calls.dat");
    if (rank == 0)
        printf("mpi_calls: %d rank(s) ok\n", size);
    MPI_Finalize();
    return 0;
}
