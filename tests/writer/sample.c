/* sample.c: writes the writer tests' two-rank sample file through the
 * public API, with regions of every kind the writer handles differently. */
#include "sample.h"

#include <stdio.h>
#include <stdlib.h>

#include "region_stream.h"

const struct scope_run_info sample_run = {
    .version = "test-1.0",
    .hostname = "node0",
    .platform = "Linux-6.1.0-x86_64",
    .user = "tester",
    .working_directory = "/work/run",
    .timestamp = "2024-05-01T12:00:00",
    .command = "./app --size 10",
    .config = NULL,
    .clock = "CLOCK_MONOTONIC via rdtsc",
    .mpi_size = SAMPLE_RANKS,
    .omp_num_threads = 4,
    .total_cores = 2,
    .run_start_time = 123456789,
};

const struct sample_region sample_regions[] = {
    {"solve", "solve", "solve", "/work/app", 0x1140, 3},
    {"ns/func", "ns%2Ffunc", "_ZN2ns4funcEv", "/usr/lib/libns.so", 0x2a0, 10},
    {"empty", "empty", NULL, NULL, 0, 0},
    {"big", "big", "big", "/work/app", 0xdead0, SAMPLE_BIG},
    {"medium", "medium", "medium", "/work/app", 0x42, 5000},
    {"100%", "100%25", "pct", "/work/app", 7, 1},
    {".", "%2E", "dot", "/work/app", 8, 2},
    {"one_window", "one_window", "w", "/work/app", 9, REGION_WINDOW},
    {"window_and_one", "window_and_one", "w1", "/work/app", 10, REGION_WINDOW + 1},
};
const size_t sample_nregions = sizeof sample_regions / sizeof sample_regions[0];

struct scope_rank_info sample_rank(int rank)
{
    return (struct scope_rank_info){
        .rank = rank,
        .hostname = rank == 0 ? "node0" : "node1",
        .pid = 1000 + rank,
        .run_start_time = 123456789 + rank,
        .clock_offset_ns = -5 * rank,
        .dropped_events = 0,
    };
}

void sample_event(int rank, size_t region, size_t i, int64_t *start,
                  int64_t *end, int32_t *thread_id)
{
    *start = 1000000000LL * rank + 1000LL * (int64_t)i + 7 * (int64_t)region;
    *end = *start + 100 + (int64_t)(i % 13) * (rank + 1);
    *thread_id = (int32_t)(i % 3);
}

/* Appends a region's events in pieces of at most SAMPLE_BIG_APPEND. */
static int write_events(const struct scope_writer_api *api, scope_writer *w,
                        int rank, size_t region)
{
    size_t n = sample_regions[region].events;
    int64_t *start = malloc((n + 1) * sizeof *start);
    int64_t *end = malloc((n + 1) * sizeof *end);
    int32_t *tid = malloc((n + 1) * sizeof *tid);
    int rc = start && end && tid ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < n; i++)
        sample_event(rank, region, i, &start[i], &end[i], &tid[i]);
    for (size_t i = 0; rc == 0 && i < n; i += SAMPLE_BIG_APPEND) {
        size_t k = n - i < SAMPLE_BIG_APPEND ? n - i : SAMPLE_BIG_APPEND;
        rc = api->append(w, start + i, end + i, tid + i, NULL, k);
    }
    if (rc == 0)
        rc = api->append(w, start, end, tid, NULL, 0);  /* n == 0 is allowed */
    free(start);
    free(end);
    free(tid);
    return rc;
}

static int write_rank(const struct scope_writer_api *api, scope_writer *w, int rank)
{
    struct scope_rank_info info = sample_rank(rank);
    if (api->begin_rank(w, &info) < 0)
        return -1;
    for (size_t g = 0; g < sample_nregions; g++) {
        const struct sample_region *s = &sample_regions[g];
        struct scope_region_info region = {.name = s->name, .symbol = s->symbol,
                                           .library = s->library, .address = s->address,
                                           .has_self = g == 0, .self_ns = SAMPLE_SELF_NS};
        if (api->begin_region(w, &region) < 0 || write_events(api, w, rank, g) < 0 ||
            api->end_region(w) < 0)
            return -1;
    }
    return api->end_rank(w);
}

int sample_write(const char *path, char *err, size_t errlen)
{
    const struct scope_writer_api *api = scope_writer_api();
    scope_writer *w = api->create(path, &sample_run, err, errlen);
    if (!w)
        return -1;
    for (int r = 0; r < SAMPLE_RANKS; r++) {
        if (write_rank(api, w, r) < 0) {
            snprintf(err, errlen, "%s", api->error(w));
            api->abort(w);
            return -1;
        }
    }
    if (api->finish(w) < 0) {
        snprintf(err, errlen, "%s", api->error(NULL));
        return -1;
    }
    return 0;
}
