/* bench_scale_writer.c: the writers' share of the scale model, measured on
 * the real writer code with synthetic ranks. One rank's calls (REGIONS
 * regions of CALLS calls each) are encoded once, as every rank encodes its
 * own at MPI_Finalize; then a node writer places them for every rank of a
 * node of RANKS_PER_NODE ranks (its part file), and rank 0 writes the
 * run's file for TOTAL ranks: its own node's ranks placed, an external
 * link for every other rank, /metadata and the call sites.
 * usage: bench_scale_writer DIR CALLS RANKS_PER_NODE TOTAL...
 * Prints one "RESULT" line per step, times in seconds. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "region_encode.h"
#include "scope_writer.h"
#include "synthetic_calls.h"

#define REGIONS 20

struct stored_window {
    struct region_window win;
    unsigned char *bytes;   /* the columns, one after the other */
};

struct stored_region {
    struct stored_window *windows;
    size_t n, cap;
};

static struct stored_region regions[REGIONS];

static void *must(void *p)
{
    if (!p) {
        fprintf(stderr, "bench_scale_writer: out of memory\n");
        exit(1);
    }
    return p;
}

/* Keeps a copy of a window the encoder produced (its buffers are reused). */
static int keep_window(void *ctx, const struct region_window *win)
{
    struct stored_region *r = ctx;
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 4;
        r->windows = must(realloc(r->windows, r->cap * sizeof(*r->windows)));
    }
    struct stored_window *s = &r->windows[r->n++];
    size_t total = 0;
    for (int c = 0; c < REGION_NCOLUMNS; c++)
        total += win->bytes[c];
    s->win = *win;
    s->bytes = must(malloc(total ? total : 1));
    size_t at = 0;
    for (int c = 0; c < REGION_NCOLUMNS; c++) {
        if (win->bytes[c])
            memcpy(s->bytes + at, win->data[c], win->bytes[c]);
        s->win.data[c] = s->bytes + at;
        at += win->bytes[c];
    }
    return 0;
}

/* Seconds to encode every region of one rank. */
static double encode_rank(size_t calls)
{
    int64_t *start = must(malloc(calls * sizeof(int64_t)));
    int64_t *end = must(malloc(calls * sizeof(int64_t)));
    struct region_encoder enc;
    if (region_encoder_init(&enc) != 0)
        must(NULL);
    /* sorted calls 100 ns to 3 us apart, 20 ns to 2 us long */
    const struct synthetic_shape shape = {.gap_min = 100, .gap_span = 2900, .len_min = 20,
                                          .len_span = 1980, .after_end = 1};
    double took = 0;
    for (int g = 0; g < REGIONS; g++) {
        synthetic_calls(&shape, 88172645463325252ull + (uint64_t)g, calls, start, end, NULL);
        const char *why = NULL;
        double t0 = bench_now();
        region_encoder_begin(&enc, REGION_NO_PAYLOAD);
        if (region_encoder_add(&enc, start, end, NULL, NULL, NULL, calls, keep_window,
                               &regions[g], &why) != 0 ||
            region_encoder_end(&enc, keep_window, &regions[g], &why) != 0) {
            fprintf(stderr, "bench_scale_writer: %s\n", why ? why : "encoding failed");
            exit(1);
        }
        took += bench_now() - t0;
    }
    region_encoder_free(&enc);
    free(start);
    free(end);
    return took;
}

static size_t rank_bytes(void)
{
    size_t bytes = 0;
    for (int g = 0; g < REGIONS; g++)
        for (size_t i = 0; i < regions[g].n; i++)
            for (int c = 0; c < REGION_NCOLUMNS; c++)
                bytes += regions[g].windows[i].win.bytes[c];
    return bytes;
}

static void fail(const struct scope_writer_api *api, scope_writer *w)
{
    fprintf(stderr, "bench_scale_writer: %s\n", api->error(w));
    exit(1);
}

/* Places the stored windows as rank `rank`. */
static void place_rank(const struct scope_writer_api *api, scope_writer *w, int rank)
{
    struct scope_rank_info info = {.rank = rank, .hostname = "node", .pid = 1000 + rank};
    if (api->begin_rank(w, &info) != 0)
        fail(api, w);
    for (int g = 0; g < REGIONS; g++) {
        char name[32];
        snprintf(name, sizeof name, "solver_step_%d", g);
        struct scope_region_info region = {.name = name, .symbol = name,
                                           .library = "/opt/app/bin/app",
                                           .address = 0x401000u + 64u * (uint64_t)g};
        if (api->begin_region(w, &region) != 0)
            fail(api, w);
        for (size_t i = 0; i < regions[g].n; i++)
            if (api->put_window(w, &regions[g].windows[i].win) != 0)
                fail(api, w);
        if (api->end_region(w) != 0)
            fail(api, w);
    }
    if (api->end_rank(w) != 0)
        fail(api, w);
}

static void finish(const struct scope_writer_api *api, scope_writer *w)
{
    if (api->finish(w) != 0) {
        fprintf(stderr, "bench_scale_writer: %s\n", api->error(NULL));
        exit(1);
    }
}

/* A node writer's part: every rank of the node placed. */
static double write_part(const char *dir, int per_node)
{
    const struct scope_writer_api *api = scope_writer_api();
    char path[4096], err[512];
    snprintf(path, sizeof path, "%s/run.h5.d/node1.h5", dir);
    double t0 = bench_now();
    scope_writer *w = api->create_part(path, err, sizeof err);
    if (!w) {
        fprintf(stderr, "bench_scale_writer: %s\n", err);
        exit(1);
    }
    for (int r = 0; r < per_node; r++)
        place_rank(api, w, per_node + r);
    finish(api, w);
    return bench_now() - t0;
}

/* Rank 0's file for `total` ranks; *links_s: the time of the links alone. */
static double write_root(const char *dir, int per_node, int total, double *links_s)
{
    const struct scope_writer_api *api = scope_writer_api();
    char path[4096], err[512];
    snprintf(path, sizeof path, "%s/run.h5", dir);
    struct scope_run_info run = {.version = "bench", .hostname = "node0", .mpi_size = total,
                                 .command = "app", .clock = "CLOCK_MONOTONIC via rdtsc"};
    double t0 = bench_now();
    scope_writer *w = api->create(path, &run, err, sizeof err);
    if (!w) {
        fprintf(stderr, "bench_scale_writer: %s\n", err);
        exit(1);
    }
    for (int r = 0; r < per_node && r < total; r++)
        place_rank(api, w, r);
    double l0 = bench_now();
    for (int r = per_node; r < total; r++) {
        char part[64];
        snprintf(part, sizeof part, "run.h5.d/node%d.h5", r / per_node);
        if (api->link_rank(w, r, part) != 0)
            fail(api, w);
    }
    *links_s = bench_now() - l0;
    struct scope_callsite_frame frame = {.module = "/opt/app/bin/app", .function = "main",
                                         .file = "app.c", .offset = 16, .line = 10};
    int32_t site = 0;
    struct scope_callsite_table sites = {&frame, 1, &site, 1, 1};
    if (api->callsites(w, &sites) != 0)
        fail(api, w);
    finish(api, w);
    return bench_now() - t0;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s DIR CALLS RANKS_PER_NODE TOTAL...\n", argv[0]);
        return 2;
    }
    const char *dir = argv[1];
    size_t calls = strtoul(argv[2], NULL, 10);
    int per_node = atoi(argv[3]);
    char parts[4096];
    snprintf(parts, sizeof parts, "%s/run.h5.d", dir);
    mkdir(parts, 0755);

    double encode_s = encode_rank(calls);
    size_t bytes = rank_bytes();
    printf("RESULT encode calls=%zu seconds=%.4f bytes=%zu\n", calls * REGIONS, encode_s, bytes);
    double part_s = write_part(dir, per_node);
    printf("RESULT node_part ranks=%d seconds=%.4f bytes=%zu\n", per_node, part_s,
           bytes * (size_t)per_node);
    for (int i = 4; i < argc; i++) {
        int total = atoi(argv[i]);
        double links_s = 0;
        double root_s = write_root(dir, per_node, total, &links_s);
        printf("RESULT root_file ranks=%d seconds=%.4f links_seconds=%.4f\n", total, root_s,
               links_s);
    }
    return 0;
}
