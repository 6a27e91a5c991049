/* mpi_merge.c: the collective end of an MPI run. Every rank measures its
 * clock offset to rank 0 (min-RTT ping-pong), converts its events to rank
 * 0's clock, and streams them to rank 0 one rank at a time in bounded
 * chunks; rank 0 writes them as they come, so its memory does not grow
 * with the number of ranks. All of it runs on a private communicator. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "callsite_blob.h"
#include "callsite_resolve.h"
#include "companion_loader.h"
#include "fault_signals.h"
#include "local_events.h"
#include "log.h"
#include "merge_wire.h"
#include "mpi_merge.h"
#include "process_meta.h"
#include "recording_stop.h"
#include "run_info.h"
#include "runtime.h"
#include "thread_buffer.h"
#include "thread_state.h"
#include "write_file.h"
#include "write_rank.h"

/* Tags of the merge's messages, on scope's own duplicate of MPI_COMM_WORLD
 * (no message of the application can match them). */
enum { TAG_SYNC = 1, TAG_OFFSET, TAG_GO, TAG_RANK, TAG_SITES, TAG_REGION, TAG_CHUNK };
#define SYNC_ROUNDS 16
#define SYNC_MAX_ROUNDS 200
#define SYNC_GOOD_RTT_NS 50000

static MPI_Comm comm = MPI_COMM_NULL;
static int my_rank, nranks;
static struct scope_clock_offsets to_root;   /* this clock vs rank 0's */
static int64_t init_error;                   /* of to_root.offset0 */

/* A clock offset and the bound of its error. */
struct measured_offset {
    int64_t offset, error;
};

/* Rank 0's side of the ping-pong with rank r: r's clock minus ours, from
 * the round trip with the smallest time (it bounds the error by half of
 * it). Goes on past SYNC_ROUNDS, up to SYNC_MAX_ROUNDS, while no round trip
 * was short: an oversubscribed node needs more tries. */
static struct measured_offset measure_offset(int r)
{
    int64_t best_rtt = INT64_MAX, offset = 0, theirs;
    for (int k = 0;; k++) {
        int more = k + 1 < SYNC_ROUNDS || (best_rtt > SYNC_GOOD_RTT_NS && k + 1 < SYNC_MAX_ROUNDS);
        int64_t t0 = scope_monotonic_ns();
        PMPI_Send(&more, 1, MPI_INT, r, TAG_SYNC, comm);
        PMPI_Recv(&theirs, 1, MPI_INT64_T, r, TAG_SYNC, comm, MPI_STATUS_IGNORE);
        int64_t t1 = scope_monotonic_ns();
        if (t1 - t0 < best_rtt) {
            best_rtt = t1 - t0;
            offset = theirs - (t0 + (t1 - t0) / 2);
        }
        if (!more)
            return (struct measured_offset){offset, best_rtt / 2};
    }
}

/* This rank's offset to rank 0's clock (0 on rank 0), with its error. */
static struct measured_offset sync_clocks(void)
{
    struct measured_offset m = {0, 0};
    if (my_rank == 0) {
        for (int r = 1; r < nranks; r++) {
            struct measured_offset off = measure_offset(r);
            int64_t pair[2] = {off.offset, off.error};
            PMPI_Send(pair, 2, MPI_INT64_T, r, TAG_OFFSET, comm);
        }
        return m;
    }
    for (int more = 1; more;) {
        PMPI_Recv(&more, 1, MPI_INT, 0, TAG_SYNC, comm, MPI_STATUS_IGNORE);
        int64_t now = scope_monotonic_ns();
        PMPI_Send(&now, 1, MPI_INT64_T, 0, TAG_SYNC, comm);
    }
    int64_t pair[2];
    PMPI_Recv(pair, 2, MPI_INT64_T, 0, TAG_OFFSET, comm, MPI_STATUS_IGNORE);
    return (struct measured_offset){pair[0], pair[1]};
}

/* The offsets at MPI_Init and at MPI_Finalize give the clock's drift only
 * when they differ by more than their errors: ranks of one node share one
 * clock, and a drift read from noise would stretch every duration of the
 * rank (by 0.05 % seen on a loaded node). Else their mean holds for the
 * whole run. */
static void settle_drift(struct scope_clock_offsets *o, int64_t error0, int64_t error1)
{
    int64_t change = o->offset1 - o->offset0;
    if (change <= error0 + error1 && -change <= error0 + error1)
        o->offset0 = o->offset1 = o->offset0 + change / 2;
}

/* Idempotent: a Fortran binding may reach the C wrapper too. Measures the
 * clock offsets once now, so that even a run that never finalizes can be
 * put on one timeline by `scope recover`. */
void scope_mpi_after_init(void)
{
    if (comm != MPI_COMM_NULL)
        return;
    scope_tls.busy++;
    scope_rt.mpi_initialized = 1;
    scope_take_fault_signals();
    PMPI_Comm_dup(MPI_COMM_WORLD, &comm);
    PMPI_Comm_rank(comm, &my_rank);
    PMPI_Comm_size(comm, &nranks);
    struct measured_offset at_init = sync_clocks();
    to_root.offset0 = at_init.offset;
    init_error = at_init.error;
    to_root.t0 = scope_monotonic_ns();
    int64_t root[2] = {scope_facts.pid, scope_rt.run_start_ns};
    PMPI_Bcast(root, 2, MPI_INT64_T, 0, comm);
    scope_meta_set_rank(my_rank, nranks, (int)root[0], root[1], to_root.offset0);
    scope_tls.busy--;
}

static void send_blob(const void *data, size_t len, int tag)
{
    PMPI_Send(data, (int)len, MPI_BYTE, 0, tag, comm);
}

/* This rank's call sites, named here (addresses mean nothing elsewhere),
 * as one message; *map gives each site's index in it (NULL: none). */
static void send_callsites(const struct scope_site_table *sites, int32_t **map)
{
    char err[512];
    struct scope_callsite_set set;
    struct scope_callsite_table table;
    int32_t *storage = NULL;
    size_t len = 0;
    scope_callsite_set_init(&set);
    if (scope_callsites_resolve(scope_load_resolver, NULL, sites, &set, map, err, sizeof(err)) != 0)
        scope_log("rank %d: call sites left out: %s", my_rank, err);
    char *blob = scope_callsite_set_table(&set, &table, &storage) == 0
                     ? scope_callsite_blob_pack(&table, &len)
                     : NULL;
    if (!blob) {
        free(*map);
        *map = NULL;
    }
    send_blob(blob, len, TAG_SITES);   /* empty: none */
    free(blob);
    free(storage);
    scope_callsite_set_free(&set);
}

/* A non-zero rank's side: wait for rank 0's go, then stream everything. */
static void send_rank(struct scope_event_groups *le, const struct scope_site_table *sites,
                      int64_t run_start, int64_t offset, struct scope_chunk *c, char *buf)
{
    PMPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_GO, comm, MPI_STATUS_IGNORE);
    size_t nonempty = 0;
    for (size_t r = 0; r < le->nregions; r++)
        nonempty += scope_event_groups_calls(le, r) > 0;
    struct scope_wire_rank rank = {scope_facts.pid, run_start, offset,
                                   (int64_t)scope_buffers_dropped(), (int64_t)nonempty,
                                   scope_facts.hostname};
    send_blob(buf, scope_wire_rank_encode(buf, &rank), TAG_RANK);
    int32_t *map = NULL;
    send_callsites(sites, &map);
    for (size_t r = 0; r < le->nregions; r++) {
        size_t count = scope_event_groups_calls(le, r);
        if (!count)
            continue;
        struct scope_region_info info = scope_local_region_info(le, r, NULL);
        send_blob(buf, scope_wire_region_encode(buf, &info, count), TAG_REGION);
        for (size_t next = 0; next < count;) {
            next = scope_event_groups_chunk(le, r, next, c);
            send_blob(buf, scope_wire_chunk_encode(buf, c, map), TAG_CHUNK);
        }
    }
    free(map);
}

/* Receives one message from rank r into buf; returns its length. */
static size_t recv_blob(int r, int tag, char *buf, size_t cap)
{
    MPI_Status st;
    int n;
    PMPI_Recv(buf, (int)cap, MPI_BYTE, r, tag, comm, &st);
    PMPI_Get_count(&st, MPI_BYTE, &n);
    return (size_t)n;
}

struct receive_state {
    int next_rank;         /* first rank not yet received */
    int32_t *callsite_map; /* the rank's call sites' ids in the file, or NULL */
    char *buf;
    struct scope_chunk *chunk;
    int64_t began;         /* for the progress line */
    int progress_shown;
};

/* On a terminal, a merge that takes more than a second says how far it is. */
static void show_progress(struct receive_state *s, int rank)
{
    if (!isatty(STDERR_FILENO) || scope_monotonic_ns() - s->began < 1000000000)
        return;
    fprintf(stderr, "\rscope: merging rank %d of %d", rank, nranks);
    s->progress_shown = 1;
}

/* Receives one region of rank r; writes it when w is not NULL. */
static int receive_region(int r, const struct scope_writer_api *api, scope_writer *w,
                          struct receive_state *s, size_t *events)
{
    struct scope_region_info info;
    uint64_t calls = 0;
    size_t len = recv_blob(r, TAG_REGION, s->buf, SCOPE_WIRE_MESSAGE_BYTES);
    int ok = scope_wire_region_decode(s->buf, len, &info, &calls) == 0 && w &&
             api->begin_region(w, &info) == 0;
    for (uint64_t got = 0; got < calls;) {
        struct scope_wire_chunk c;
        size_t bytes = recv_blob(r, TAG_CHUNK, s->buf, SCOPE_WIRE_MESSAGE_BYTES);
        scope_wire_chunk_decode(s->buf, bytes, &c);
        ok = ok && api->append(w, c.start, c.end, c.thread,
                               scope_chunk_callsites(c.callsite, c.n, s->callsite_map), c.n) == 0;
        got += c.n;
        *events += c.n;
    }
    ok = ok && api->end_region(w) == 0;
    scope_wire_region_free(&info);
    return ok ? 0 : -1;
}

/* Rank r's call sites, added to the run's: sets s->callsite_map. */
static int receive_callsites(int r, struct scope_callsite_set *callsites, struct receive_state *s)
{
    MPI_Status st;
    int len;
    PMPI_Probe(r, TAG_SITES, comm, &st);
    PMPI_Get_count(&st, MPI_BYTE, &len);
    char *blob = malloc(len ? (size_t)len : 1);
    PMPI_Recv(blob, len, MPI_BYTE, r, TAG_SITES, comm, MPI_STATUS_IGNORE);
    struct scope_callsite_table table;
    struct scope_callsite_frame *frames = NULL;
    int rc = 0;
    if (blob && len > 0 && callsites) {
        rc = scope_callsite_blob_unpack(blob, (size_t)len, &table, &frames) != 0 ||
                     scope_callsite_set_add_table(callsites, &table, &s->callsite_map) != 0
                 ? -1
                 : 0;
        if (rc != 0)
            scope_log("rank %d: its call sites could not be merged", r);
    }
    free(frames);
    free(blob);
    return blob ? 0 : -1;
}

/* Rank 0: takes every other rank in turn. With w NULL (writing failed) it
 * still drains them, so that no rank waits forever. */
static int receive_ranks(const struct scope_writer_api *api, scope_writer *w,
                         struct scope_callsite_set *callsites, void *ctx, size_t *events)
{
    struct receive_state *s = ctx;
    int rc = 0;
    for (; s->next_rank < nranks; s->next_rank++) {
        int r = s->next_rank;
        show_progress(s, r);
        PMPI_Send(NULL, 0, MPI_BYTE, r, TAG_GO, comm);
        struct scope_wire_rank rank = {0};
        size_t len = recv_blob(r, TAG_RANK, s->buf, SCOPE_WIRE_MESSAGE_BYTES);
        if (scope_wire_rank_decode(s->buf, len, &rank) != 0)
            rc = -1;
        struct scope_rank_info info = {r, rank.hostname, rank.pid, rank.run_start_time,
                                       rank.clock_offset_ns, rank.dropped_events};
        if (receive_callsites(r, w ? callsites : NULL, s) != 0 ||
            (w && (rc != 0 || api->begin_rank(w, &info) != 0)))
            rc = -1;
        for (int64_t k = 0; k < rank.nregions; k++)
            if (receive_region(r, api, rc == 0 ? w : NULL, s, events) != 0)
                rc = -1;
        if (w && rc == 0 && api->end_rank(w) != 0)
            rc = -1;
        free(s->callsite_map);
        s->callsite_map = NULL;
        free(rank.hostname);
    }
    if (s->progress_shown)
        fputc('\n', stderr);
    return w ? rc : -1;
}

static int write_as_root(struct scope_event_groups *le, const struct scope_site_table *sites,
                         int64_t run_start, struct receive_state *s)
{
    struct scope_rank_info own = {0, scope_facts.hostname, scope_facts.pid,
                                  scope_rt.run_start_ns, 0, (int64_t)scope_buffers_dropped()};
    int rc = scope_write_file(nranks, run_start, &own, le, sites, receive_ranks, s);
    if (rc != 0 && s->next_rank < nranks) {
        size_t ignored = 0;
        receive_ranks(NULL, NULL, NULL, s, &ignored);
    }
    return rc;
}

void scope_mpi_before_finalize(void)
{
    if (comm == MPI_COMM_NULL)
        return;   /* never initialised, or already finalised */
    scope_tls.busy++;
    scope_rt.mpi_finalized = 1;
    int64_t began = scope_monotonic_ns();
    int enabled = scope_rt.enabled, any;
    PMPI_Allreduce(&enabled, &any, 1, MPI_INT, MPI_MAX, comm);
    if (!any)
        goto out;
    scope_stop_recording();
    struct measured_offset at_end = sync_clocks();
    to_root.offset1 = at_end.offset;
    to_root.t1 = scope_monotonic_ns();
    settle_drift(&to_root, init_error, at_end.error);
    int64_t offset = to_root.offset1;
    char err[512];
    struct scope_event_groups le = {.runs = {.fd = -1}};
    struct scope_site_table sites;
    scope_site_table_init(&sites);
    int built = enabled ? scope_local_events_build(&le, &sites, &to_root, err, sizeof(err)) : -1;
    if (built != 0) {
        if (enabled)
            scope_log("rank %d: %s", my_rank, err);
        scope_event_groups_free(&le);   /* none: an empty rank */
        le.region_begin = calloc(1, sizeof(size_t));
    }
    int64_t my_start = scope_rt.run_start_ns - scope_clock_offset_at(&to_root, scope_rt.run_start_ns);
    int64_t run_start;
    PMPI_Reduce(&my_start, &run_start, 1, MPI_INT64_T, MPI_MIN, 0, comm);

    struct receive_state s = {1, NULL, malloc(SCOPE_WIRE_MESSAGE_BYTES),
                              malloc(sizeof(struct scope_chunk)), began, 0};
    int written = 0;
    if (!s.buf || !s.chunk) {
        scope_log("rank %d: out of memory for the merge", my_rank);
        abort();   /* the other ranks would wait forever otherwise */
    }
    if (my_rank == 0)
        written = write_as_root(&le, &sites, run_start, &s) == 0;
    else
        send_rank(&le, &sites, my_start, offset, s.chunk, s.buf);
    PMPI_Bcast(&written, 1, MPI_INT, 0, comm);
    if (my_rank == 0)
        scope_debug("finalize: clock sync, merge and write took %.3f s; peak memory %ld MiB",
                    (double)(scope_monotonic_ns() - began) / 1e9, scope_peak_memory_mib());
    if (my_rank != 0 && scope_event_groups_error(&le))
        scope_log("rank %d: %s: its records are kept for `scope recover`", my_rank,
                  scope_event_groups_error(&le));
    else if (written) {
        scope_rt.written = 1;
        scope_buffers_remove();
    }
    free(s.buf);
    free(s.chunk);
    scope_event_groups_free(&le);
    scope_site_table_free(&sites);
out:
    PMPI_Comm_free(&comm);
    scope_tls.busy--;
}
