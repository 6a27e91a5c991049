/* posix_calls.c: an MPI program in which every rank does a known number of
 * libc file calls on a temporary file of its own (PREFIX-RANK.dat):
 *   posix_work(): 1 open, WRITES write (argv[2], default 2000), 2 fsync,
 *                 2 pwrite, 1 lseek, 3 read, 1 pread, 1 close, and
 *                 3 malloc + 3 free of its own buffers;
 *   stdio_work(): 1 fopen, 5 fwrite, 1 fflush (one write inside), 1 fclose.
 * Many small writes make libscope spill its buffers (with a small
 * `buffer =`) while the hooks record: the spill's own open/write calls must
 * not be recorded. Prints "posix_calls: N rank(s) ok" on rank 0. */
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RECORD 16

__attribute__((noinline)) int posix_work(const char *path, int writes)
{
    char *rec = malloc(RECORD), *back = malloc(RECORD), *scratch = malloc(4 * RECORD);
    if (!rec || !back || !scratch)
        return 1;
    memset(rec, 'a', RECORD);
    int bad = 0;
    int fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0600);
    if (fd < 0)
        bad = 1;
    for (int i = 0; i < writes && !bad; i++) {
        rec[0] = (char)('a' + i % 26);
        bad |= write(fd, rec, RECORD) != RECORD;
        if (i == writes / 2)
            bad |= fsync(fd) != 0;
    }
    memset(scratch, 'z', 4 * RECORD);
    bad |= pwrite(fd, scratch, RECORD, 0) != RECORD;
    bad |= pwrite(fd, scratch, RECORD, RECORD) != RECORD;
    bad |= fsync(fd) != 0;
    bad |= lseek(fd, 0, SEEK_SET) != 0;
    for (int i = 0; i < 3; i++)
        bad |= read(fd, back, RECORD) != RECORD;   /* records 0 1 2 */
    bad |= back[0] != 'c' || back[1] != 'a';
    bad |= pread(fd, back, RECORD, 0) != RECORD || back[0] != 'z';
    bad |= close(fd) != 0;
    free(scratch);
    free(back);
    free(rec);
    return bad;
}

__attribute__((noinline)) int stdio_work(const char *path)
{
    static const char line[] = "one line of a small text file\n";
    FILE *f = fopen(path, "w");
    if (!f)
        return 1;
    int bad = 0;
    for (int i = 0; i < 5; i++)
        bad |= fwrite(line, 1, sizeof line - 1, f) != sizeof line - 1;
    bad |= fflush(f) != 0;
    bad |= fclose(f) != 0;
    return bad;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *prefix = argc > 1 ? argv[1] : "posix_calls";
    int writes = argc > 2 ? atoi(argv[2]) : 2000;
    char path[4096], text[4096];
    snprintf(path, sizeof path, "%s-%d.dat", prefix, rank);
    snprintf(text, sizeof text, "%s-%d.txt", prefix, rank);
    int bad = posix_work(path, writes) | stdio_work(text), any_bad = 0;
    unlink(path);
    unlink(text);
    MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0)
        printf("posix_calls: %d rank(s) %s\n", size, any_bad ? "FAILED" : "ok");
    MPI_Finalize();
    return any_bad;
}
