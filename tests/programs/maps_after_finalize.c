/* maps_after_finalize.c: calls work() once between MPI_Init and
 * MPI_Finalize, then prints which libraries its process has mapped, as
 * "rank R: hdf5 N curl N crypto N gnutls N" (mappings of each), so that a
 * test sees what writing scope's file loaded into the process. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) void work(void);
__attribute__((noinline)) void work(void)
{
    __asm__ volatile("");
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    work();
    MPI_Finalize();
    static const char *const libraries[] = {"/libhdf5", "/libcurl", "/libcrypto.so",
                                            "/libgnutls"};
    int count[4] = {0};
    char line[4096];
    FILE *maps = fopen("/proc/self/maps", "r");
    while (maps && fgets(line, sizeof line, maps))
        for (int i = 0; i < 4; i++)
            count[i] += strstr(line, libraries[i]) != NULL;
    printf("rank %d: hdf5 %d curl %d crypto %d gnutls %d\n", rank, count[0], count[1], count[2],
           count[3]);
    return maps ? 0 : 1;
}
