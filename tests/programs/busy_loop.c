/* busy_loop.c: an MPI program that never finishes on its own: every rank
 * calls work() in a loop and, after each call, counts it in a file shared
 * by all ranks (one 64-bit slot per rank), so a test that kills the job
 * knows how many calls each rank completed (slot 32 + rank holds the
 * rank's pid, for `scope recover --run`). With a second argument N,
 * rank 0 calls MPI_Abort after N calls; with a third argument "exit", every
 * rank calls exit(0) after N calls instead, without MPI_Finalize. */
#include <fcntl.h>
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

__attribute__((noinline)) long work(long x)
{
    __asm__ volatile("");
    usleep(20);
    return x + 1;
}

int main(int argc, char **argv)
{
    int rank = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc < 2)
        MPI_Abort(MPI_COMM_WORLD, 2);
    long stop_after = argc > 2 ? atol(argv[2]) : -1;
    int exit_instead = argc > 3 && strcmp(argv[3], "exit") == 0;
    int fd = open(argv[1], O_RDWR | O_CREAT, 0600);
    if (fd < 0 || ftruncate(fd, 64 * sizeof(uint64_t)) != 0)
        MPI_Abort(MPI_COMM_WORLD, 3);
    volatile uint64_t *count = mmap(NULL, 64 * sizeof(uint64_t), PROT_READ | PROT_WRITE,
                                    MAP_SHARED, fd, 0);
    if (count == MAP_FAILED)
        MPI_Abort(MPI_COMM_WORLD, 4);
    count[rank] = 0;
    count[32 + rank] = (uint64_t)getpid();
    for (long i = 0;; i++) {
        work(i);
        count[rank]++;
        if (count[rank] == (uint64_t)stop_after && exit_instead)
            exit(0);
        if (rank == 0 && count[rank] == (uint64_t)stop_after)
            MPI_Abort(MPI_COMM_WORLD, 7);
    }
}
