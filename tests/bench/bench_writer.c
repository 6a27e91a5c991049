/* bench_writer.c: times libscope-writer on 10 M events (4 ranks x 5 regions,
 * appended in chunks as the finalize merge would send them) and prints the
 * events/s, the file size and the bytes per event.
 * Usage: bench_writer [output.h5] [events] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "scope_writer.h"
#include "synthetic_calls.h"

#define RANKS 4
#define REGIONS 5
#define CHUNK 10000  /* events per append */

struct events {
    int64_t *start, *end;
    int32_t *tid;
    size_t n;
};

/* Sorted calls, 50 ns to 2 us apart, 20 ns to 1 us long, a few on threads. */
static struct events make_events(size_t n)
{
    struct events ev = {malloc(n * sizeof(int64_t)), malloc(n * sizeof(int64_t)),
                        malloc(n * sizeof(int32_t)), n};
    if (!ev.start || !ev.end || !ev.tid) {
        fprintf(stderr, "bench_writer: out of memory\n");
        exit(1);
    }
    const struct synthetic_shape shape = {.gap_min = 50, .gap_span = 1950, .len_min = 20,
                                          .len_span = 980};
    synthetic_calls(&shape, 88172645463325252ull, n, ev.start, ev.end, ev.tid);
    return ev;
}

static int write_region(const struct scope_writer_api *api, scope_writer *w,
                        const struct events *ev, int region)
{
    char name[32];
    snprintf(name, sizeof name, "region_%d", region);
    struct scope_region_info info = {.name = name, .symbol = name,
                                     .library = "/usr/lib/libbench.so",
                                     .address = 0x1000u + (uint64_t)region};
    if (api->begin_region(w, &info) < 0)
        return -1;
    for (size_t i = 0; i < ev->n; i += CHUNK) {
        size_t k = ev->n - i < CHUNK ? ev->n - i : CHUNK;
        if (api->append(w, ev->start + i, ev->end + i, ev->tid + i, NULL, k) < 0)
            return -1;
    }
    return api->end_region(w);
}

static int write_file(const char *path, const struct events *ev)
{
    const struct scope_writer_api *api = scope_writer_api();
    struct scope_run_info run = {.version = "bench", .mpi_size = RANKS};
    char err[512];
    scope_writer *w = api->create(path, &run, err, sizeof err);
    if (!w) {
        fprintf(stderr, "bench_writer: %s\n", err);
        return -1;
    }
    for (int r = 0; r < RANKS; r++) {
        struct scope_rank_info rank = {.rank = r, .hostname = "bench", .pid = r};
        int rc = api->begin_rank(w, &rank);
        for (int g = 0; rc == 0 && g < REGIONS; g++)
            rc = write_region(api, w, ev, g);
        if (rc < 0 || api->end_rank(w) < 0) {
            fprintf(stderr, "bench_writer: %s\n", api->error(w));
            api->abort(w);
            return -1;
        }
    }
    if (api->finish(w) < 0) {
        fprintf(stderr, "bench_writer: %s\n", api->error(NULL));
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "bench_writer.h5";
    size_t total = argc > 2 ? strtoul(argv[2], NULL, 10) : 10000000;
    struct events ev = make_events(total / (RANKS * REGIONS));
    size_t events = ev.n * RANKS * REGIONS;

    double t0 = bench_now();
    if (write_file(path, &ev) < 0)
        return 1;
    double dt = bench_now() - t0;

    struct stat st;
    if (stat(path, &st) < 0) {
        perror(path);
        return 1;
    }
    printf("bench_writer: %zu events (%d ranks x %d regions) in %.3f s: "
           "%.1f M events/s, file %.1f MB, %.2f bytes/event\n",
           events, RANKS, REGIONS, dt, (double)events / dt * 1e-6,
           (double)st.st_size * 1e-6, (double)st.st_size / (double)events);
    remove(path);
    free(ev.start);
    free(ev.end);
    free(ev.tid);
    return 0;
}
