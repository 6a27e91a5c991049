/* bench_page_cost.c: what this machine charges for memory a process
 * touches for the first time, the floor under hooking many functions:
 * an inline hook writes into the function's code page, whose first write
 * copies the page (copy-on-write of a private file mapping), and every
 * trampoline block, buffer or table is fresh anonymous memory. Prints the
 * median over rounds of microseconds per page for both, on FILE (default:
 * this program).
 *
 * usage: bench_page_cost [FILE [PAGES]] */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define ROUNDS 5

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Microseconds per page to write one byte into each of n pages at p. */
static double touch(volatile char *p, size_t n, size_t page)
{
    double t0 = now();
    for (size_t i = 0; i < n; i++)
        p[i * page] = 1;
    return (now() - t0) * 1e6 / (double)n;
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "/proc/self/exe";
    size_t page = (size_t)sysconf(_SC_PAGESIZE), n = argc > 2 ? strtoul(argv[2], NULL, 10) : 0;
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size < (off_t)page) {
        fprintf(stderr, "bench_page_cost: cannot read %s\n", path);
        return 1;
    }
    size_t in_file = (size_t)st.st_size / page;
    n = n == 0 || n > in_file ? in_file : n;
    double fresh[ROUNDS], cow[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
        char *a = mmap(NULL, n * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        char *f = mmap(NULL, n * page, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
        if (a == MAP_FAILED || f == MAP_FAILED) {
            perror("bench_page_cost: mmap");
            return 1;
        }
        volatile char sum = 0;
        for (size_t i = 0; i < n; i++)   /* mapped and read, as running code is */
            sum = (char)(sum + f[i * page]);
        fresh[r] = touch(a, n, page);
        cow[r] = touch(f, n, page);
        munmap(a, n * page);
        munmap(f, n * page);
    }
    qsort(fresh, ROUNDS, sizeof *fresh, by_value);
    qsort(cow, ROUNDS, sizeof *cow, by_value);
    printf("pages %zu: first write to fresh memory %.2f us/page, to a read page of %s "
           "(copy on write) %.2f us/page\n", n, fresh[ROUNDS / 2], path, cow[ROUNDS / 2]);
    printf("RESULT page_cost fresh_us=%.2f cow_us=%.2f\n", fresh[ROUNDS / 2], cow[ROUNDS / 2]);
    close(fd);
    return 0;
}
