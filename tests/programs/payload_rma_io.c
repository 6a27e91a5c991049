/* payload_rma_io.c: one-sided calls and MPI-IO whose bytes and targets are
 * known in advance, for the payload end-to-end test (tests/e2e/payload.sh),
 * on 4 ranks: a window over a communicator whose rank order is the world's
 * reversed (its rank k is world rank 3 - k); between fences each rank puts
 * 3 (r + 1) ints to its rank 0, gets 2 doubles from its rank 1 and
 * accumulates 4 ints to its rank 2; in a passive epoch each accumulates 2
 * ints to its rank 3 fetching them (MPI_Get_accumulate), fetches 3 ints
 * from it (MPI_NO_OP), adds to a long long of world rank r - 1
 * (MPI_Fetch_and_op) and swaps one of world rank r + 2
 * (MPI_Compare_and_swap; Open MPI 4.1's osc/rdma crashes in an atomic on
 * the rank's own window over vader, so no atomic targets its own rank);
 * then each writes 10 (r + 1) bytes at
 * offset 100 r of a shared file (MPI_File_write_at) and all read 5 ints
 * back (MPI_File_read_at_all); each writes 4 bytes at its file pointer
 * moved to 100 r + 50 (MPI_File_write), 3 ints at 100 r + 60
 * (MPI_File_iwrite_at), reads 2 ints at its pointer, now 100 r + 54
 * (MPI_File_iread), writes 2 bytes at the shared pointer
 * (MPI_File_write_shared) and r + 1 in rank order
 * (MPI_File_write_ordered); split collectives: 3 bytes at its pointer
 * moved to 100 r + 74 (MPI_File_write_all_begin/end), 2 ints read at
 * 100 r (MPI_File_read_at_all_begin/end), 2 (r + 1) bytes read in rank
 * order (MPI_File_read_ordered_begin/end); and through a view of ints
 * from byte 1000 reads its third int, at byte 1008 (MPI_File_read_at). Where the MPI
 * library has the MPI-4 large-count forms (SCOPE_MPI_LARGE_COUNT, their
 * prototypes from preload/mpi/large_count.h): a second window over the
 * reversed communicator made by MPI_Win_create_c, between fences
 * MPI_Put_c of 5 ints to its rank 1 and MPI_Accumulate_c of 2 ints to its
 * rank 3; before the view, MPI_File_write_at_c of 6 bytes at 100 r + 80
 * and MPI_File_read_at_c of 1 int there, MPI_File_write_at_all_begin_c
 * of 5 bytes at 100 r + 90 (and its _end). */
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
        fprintf(stderr, "payload_rma_io: run on 4 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Comm reversed;
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &reversed);
    static int window_ints[64], ints[64];
    static double doubles[8];
    MPI_Win win;
    MPI_Win_create(window_ints, sizeof window_ints, sizeof(int), MPI_INFO_NULL, reversed, &win);
    MPI_Win_fence(0, win);
    MPI_Put(ints, 3 * (rank + 1), MPI_INT, 0, 16 * rank, 3 * (rank + 1), MPI_INT, win);
    MPI_Get(doubles, 2, MPI_DOUBLE, 1, 0, 4, MPI_INT, win);
    MPI_Accumulate(ints, 4, MPI_INT, 2, 60, 4, MPI_INT, MPI_SUM, win);
    MPI_Win_fence(0, win);
    static long long fetched[8];
    long long one = 1, compare = 0;
    MPI_Win_lock_all(0, win);
    MPI_Get_accumulate(ints, 2, MPI_INT, fetched, 2, MPI_INT, 3, 40, 2, MPI_INT, MPI_SUM, win);
    MPI_Get_accumulate(NULL, 0, MPI_INT, fetched, 3, MPI_INT, 3, 40, 3, MPI_INT, MPI_NO_OP, win);
    MPI_Fetch_and_op(&one, fetched, MPI_LONG_LONG, (4 - rank) % 4, 50, MPI_SUM, win);
    MPI_Compare_and_swap(&one, &compare, fetched, MPI_LONG_LONG, (5 - rank) % 4, 52, win);
    MPI_Win_unlock_all(win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
#ifdef SCOPE_MPI_LARGE_COUNT
    MPI_Win_create_c(window_ints, sizeof window_ints, (MPI_Aint)sizeof(int), MPI_INFO_NULL,
                     reversed, &win);
    MPI_Win_fence(0, win);
    MPI_Put_c(ints, (MPI_Count)5, MPI_INT, 1, 5 * rank, (MPI_Count)5, MPI_INT, win);
    MPI_Accumulate_c(ints, (MPI_Count)2, MPI_INT, 3, 30, (MPI_Count)2, MPI_INT, MPI_SUM, win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
#endif
    MPI_Comm_free(&reversed);
    MPI_File fh;
    MPI_File_open(MPI_COMM_WORLD, "payload-io.dat", MPI_MODE_CREATE | MPI_MODE_RDWR,
                  MPI_INFO_NULL, &fh);
    char bytes[64] = {0};
    MPI_File_write_at(fh, 100 * rank, bytes, 10 * (rank + 1), MPI_BYTE, MPI_STATUS_IGNORE);
    MPI_File_read_at_all(fh, 0, ints, 5, MPI_INT, MPI_STATUS_IGNORE);
    MPI_File_seek(fh, 100 * rank + 50, MPI_SEEK_SET);
    MPI_File_write(fh, bytes, 4, MPI_BYTE, MPI_STATUS_IGNORE);
    MPI_Request request;
    MPI_File_iwrite_at(fh, 100 * rank + 60, bytes, 3, MPI_INT, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    MPI_File_iread(fh, ints, 2, MPI_INT, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    MPI_File_write_shared(fh, bytes, 2, MPI_BYTE, MPI_STATUS_IGNORE);
    MPI_File_write_ordered(fh, bytes, rank + 1, MPI_BYTE, MPI_STATUS_IGNORE);
    MPI_File_seek(fh, 100 * rank + 74, MPI_SEEK_SET);
    MPI_File_write_all_begin(fh, bytes, 3, MPI_BYTE);
    MPI_File_write_all_end(fh, bytes, MPI_STATUS_IGNORE);
    MPI_File_read_at_all_begin(fh, 100 * rank, ints, 2, MPI_INT);
    MPI_File_read_at_all_end(fh, ints, MPI_STATUS_IGNORE);
    MPI_File_read_ordered_begin(fh, bytes, 2 * (rank + 1), MPI_BYTE);
    MPI_File_read_ordered_end(fh, bytes, MPI_STATUS_IGNORE);
#ifdef SCOPE_MPI_LARGE_COUNT
    MPI_File_write_at_c(fh, 100 * rank + 80, bytes, (MPI_Count)6, MPI_BYTE, MPI_STATUS_IGNORE);
    MPI_File_read_at_c(fh, 100 * rank + 80, ints, (MPI_Count)1, MPI_INT, MPI_STATUS_IGNORE);
    MPI_File_write_at_all_begin_c(fh, 100 * rank + 90, bytes, (MPI_Count)5, MPI_BYTE);
    MPI_File_write_at_all_end(fh, bytes, MPI_STATUS_IGNORE);
#endif
    MPI_File_set_view(fh, 1000, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
    MPI_File_read_at(fh, 2, ints, 1, MPI_INT, MPI_STATUS_IGNORE);
    MPI_File_close(&fh);
    MPI_Finalize();
    if (rank == 0)
        printf("payload_rma_io: done\n");
    return 0;
}
