/* make_many_ranks.c: writes, with libscope-writer as libscope would, a
 * profile of many ranks x many regions (the reader benchmark's file for
 * the cost of HDF5 objects): each rank calls each region CALLS times, one
 * call after another, so every region's self time is its total.
 * Usage: make_many_ranks OUTPUT.h5 [RANKS [REGIONS]] (1024 x 20) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "scope_writer.h"

#define CALLS 100          /* per region and rank */
#define NAME_LEN 32

/* Region r's calls on rank `rank`: CALLS calls of (r + 1) us and a bit,
 * 1 us apart, the regions one after another. */
static int write_region(const struct scope_writer_api *api, scope_writer *w, int rank, int r)
{
    char name[NAME_LEN];
    snprintf(name, sizeof name, "region_%02d", r);
    int64_t start[CALLS], end[CALLS], total = 0;
    int64_t t = 1000000000 + (int64_t)r * CALLS * 50000;
    for (int i = 0; i < CALLS; i++) {
        start[i] = t;
        end[i] = t + (r + 1) * 1000 + (rank * 7 + i * 13) % 500;
        total += end[i] - start[i];
        t = end[i] + 1000;
    }
    struct scope_region_info info = {.name = name, .symbol = name, .library = "/bin/app",
                                     .address = 0x1000u + (uint64_t)r, .has_self = 1,
                                     .self_ns = total};
    if (api->begin_region(w, &info) < 0 || api->append(w, start, end, NULL, NULL, CALLS) < 0)
        return -1;
    return api->end_region(w);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: make_many_ranks OUTPUT.h5 [RANKS [REGIONS]]\n");
        return 2;
    }
    int ranks = argc > 2 ? atoi(argv[2]) : 1024, regions = argc > 3 ? atoi(argv[3]) : 20;
    const struct scope_writer_api *api = scope_writer_api();
    struct scope_run_info run = {.version = "bench", .mpi_size = ranks,
                                 .run_start_time = 999000000};
    char err[512];
    scope_writer *w = api->create(argv[1], &run, err, sizeof err);
    if (!w) {
        fprintf(stderr, "make_many_ranks: %s\n", err);
        return 1;
    }
    for (int rank = 0; rank < ranks; rank++) {
        struct scope_rank_info info = {.rank = rank, .hostname = "bench", .pid = rank,
                                       .run_start_time = 999000000};
        int rc = api->begin_rank(w, &info);
        for (int r = 0; rc == 0 && r < regions; r++)
            rc = write_region(api, w, rank, r);
        if (rc < 0 || api->end_rank(w) < 0) {
            fprintf(stderr, "make_many_ranks: %s\n", api->error(w));
            api->abort(w);
            return 1;
        }
    }
    if (api->finish(w) < 0) {
        fprintf(stderr, "make_many_ranks: %s\n", api->error(NULL));
        return 1;
    }
    return 0;
}
