/* mpi_merge.c: the collective end of an MPI run. The first rank of each
 * node measures its clock's offset to rank 0 (min-RTT ping-pong) for the
 * ranks of its node; every rank converts its events to rank
 * 0's clock, names its call sites (rank 0 gives back their ids in the
 * file), and encodes its calls as the file stores them, all ranks at once;
 * then rank 0 takes the ranks one at a time and places their encoded
 * windows in the file (a memory copy per call), so its work and memory do
 * not grow with the calls of the other ranks. All of it runs on a private
 * communicator. */
#include <limits.h>
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
#include "message_log.h"
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
enum { TAG_SYNC = 1, TAG_OFFSET, TAG_SITES, TAG_SITE_MAP, TAG_GO, TAG_RANK, TAG_REGION, TAG_WINDOW };
#define SYNC_ROUNDS 16
#define SYNC_MAX_ROUNDS 200
#define SYNC_GOOD_RTT_NS 50000

static MPI_Comm comm = MPI_COMM_NULL;
static MPI_Comm node_comm = MPI_COMM_NULL;   /* the ranks sharing this rank's clock */
static MPI_Comm leader_comm = MPI_COMM_NULL; /* the first rank of each node; */
                                             /* NULL on the others */
static int my_rank, nranks;
static struct scope_clock_offsets to_root;   /* this clock vs rank 0's */
static int64_t init_error;                   /* of to_root.offset0 */

/* A clock offset and the bound of its error. */
struct measured_offset {
    int64_t offset, error;
};

/* Rank 0's side of the ping-pong with node leader l: l's clock minus ours,
 * from the round trip with the smallest time (it bounds the error by half
 * of it). Goes on past SYNC_ROUNDS, up to SYNC_MAX_ROUNDS, while no round
 * trip was short: an oversubscribed node needs more tries. */
static struct measured_offset measure_offset(int l)
{
    int64_t best_rtt = INT64_MAX, offset = 0, theirs;
    for (int k = 0;; k++) {
        int more = k + 1 < SYNC_ROUNDS || (best_rtt > SYNC_GOOD_RTT_NS && k + 1 < SYNC_MAX_ROUNDS);
        int64_t t0 = scope_monotonic_ns();
        PMPI_Send(&more, 1, MPI_INT, l, TAG_SYNC, leader_comm);
        PMPI_Recv(&theirs, 1, MPI_INT64_T, l, TAG_SYNC, leader_comm, MPI_STATUS_IGNORE);
        int64_t t1 = scope_monotonic_ns();
        if (t1 - t0 < best_rtt) {
            best_rtt = t1 - t0;
            offset = theirs - (t0 + (t1 - t0) / 2);
        }
        if (!more)
            return (struct measured_offset){offset, best_rtt / 2};
    }
}

/* This rank's offset to rank 0's clock (0 on rank 0's node), with its
 * error. Ranks of one node share one clock: only the first rank of each
 * node measures it against rank 0, and tells the others of its node. */
static struct measured_offset sync_clocks(void)
{
    int64_t pair[2] = {0, 0};
    int leaders, me;
    if (leader_comm != MPI_COMM_NULL) {
        PMPI_Comm_size(leader_comm, &leaders);
        PMPI_Comm_rank(leader_comm, &me);
        for (int l = 1; me == 0 && l < leaders; l++) {
            struct measured_offset off = measure_offset(l);
            int64_t theirs[2] = {off.offset, off.error};
            PMPI_Send(theirs, 2, MPI_INT64_T, l, TAG_OFFSET, leader_comm);
        }
        for (int more = me != 0; more;) {
            PMPI_Recv(&more, 1, MPI_INT, 0, TAG_SYNC, leader_comm, MPI_STATUS_IGNORE);
            int64_t now = scope_monotonic_ns();
            PMPI_Send(&now, 1, MPI_INT64_T, 0, TAG_SYNC, leader_comm);
        }
        if (me != 0)
            PMPI_Recv(pair, 2, MPI_INT64_T, 0, TAG_OFFSET, leader_comm, MPI_STATUS_IGNORE);
    }
    PMPI_Bcast(pair, 2, MPI_INT64_T, 0, node_comm);
    return (struct measured_offset){pair[0], pair[1]};
}

/* The ranks that share a clock: those of one shared-memory node, or, with
 * SCOPE_TEST_RANKS_PER_NODE=N (test-only), pretend nodes of N ranks in
 * rank order, so that every multi-node path runs on one machine. Rank 0 is
 * the first rank of its node (ranks keep their order). */
static void find_nodes(void)
{
    const char *v = getenv("SCOPE_TEST_RANKS_PER_NODE");
    int per_node = v ? atoi(v) : 0;
    if (per_node > 0)
        PMPI_Comm_split(comm, my_rank / per_node, my_rank, &node_comm);
    else
        PMPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, my_rank, MPI_INFO_NULL, &node_comm);
    int node_rank;
    PMPI_Comm_rank(node_comm, &node_rank);
    PMPI_Comm_split(comm, node_rank == 0 ? 0 : MPI_UNDEFINED, my_rank, &leader_comm);
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
    find_nodes();
    int64_t began = scope_monotonic_ns();
    struct measured_offset at_init = sync_clocks();
    if (my_rank == 0) {
        int nodes;
        PMPI_Comm_size(leader_comm, &nodes);
        scope_debug("MPI_Init: clock offsets of %d node(s) measured in %.3f ms", nodes,
                    (double)(scope_monotonic_ns() - began) / 1e6);
    }
    to_root.offset0 = at_init.offset;
    init_error = at_init.error;
    to_root.t0 = scope_monotonic_ns();
    int64_t root[2] = {scope_facts.pid, scope_rt.run_start_ns};
    PMPI_Bcast(root, 2, MPI_INT64_T, 0, comm);
    scope_meta_set_rank(my_rank, nranks, (int)root[0], root[1], to_root.offset0);
    scope_tls.busy--;
}

/* Rank 0's side of the call-site exchange: every rank's named call sites
 * join the run's set, in rank order; each rank gets back the id in the
 * file of each of its sites (an empty map: its sites are left out). */
static void merge_callsites(struct scope_callsite_set *set)
{
    for (int r = 1; r < nranks; r++) {
        MPI_Status st;
        int len;
        PMPI_Probe(r, TAG_SITES, comm, &st);
        PMPI_Get_count(&st, MPI_BYTE, &len);
        char *blob = malloc(len ? (size_t)len : 1);
        if (!blob) {
            scope_log("out of memory for the call sites of rank %d", r);
            abort();   /* the ranks would wait forever otherwise */
        }
        PMPI_Recv(blob, len, MPI_BYTE, r, TAG_SITES, comm, MPI_STATUS_IGNORE);
        struct scope_callsite_table table = {0};
        struct scope_callsite_frame *frames = NULL;
        int32_t *remap = NULL;
        if (len > 0 &&
            (scope_callsite_blob_unpack(blob, (size_t)len, &table, &frames) != 0 ||
             scope_callsite_set_add_table(set, &table, &remap) != 0)) {
            scope_log("rank %d: its call sites could not be merged", r);
            free(remap);
            remap = NULL;
        }
        PMPI_Send(remap, remap ? (int)table.nsites : 0, MPI_INT32_T, r, TAG_SITE_MAP, comm);
        free(remap);
        free(frames);
        free(blob);
    }
}

/* A non-zero rank's side: its call sites named here (addresses mean
 * nothing elsewhere) go to rank 0; returns each one's id in the file, or
 * NULL when it has none (or they were left out). */
static int32_t *send_callsites(const struct scope_site_table *sites)
{
    char err[512];
    struct scope_callsite_set set;
    struct scope_callsite_table table = {0};
    int32_t *local = NULL, *storage = NULL, *file_ids = NULL;
    size_t len = 0;
    scope_callsite_set_init(&set);
    if (scope_callsites_resolve(scope_load_resolver, NULL, sites, &set, &local, err, sizeof(err)) != 0)
        scope_log("rank %d: call sites left out: %s", my_rank, err);
    char *blob = local && scope_callsite_set_table(&set, &table, &storage) == 0
                     ? scope_callsite_blob_pack(&table, &len)
                     : NULL;
    PMPI_Send(blob, blob ? (int)len : 0, MPI_BYTE, 0, TAG_SITES, comm);   /* empty: none */
    MPI_Status st;
    int n;
    PMPI_Probe(0, TAG_SITE_MAP, comm, &st);
    PMPI_Get_count(&st, MPI_INT32_T, &n);
    int32_t *remap = malloc(n ? (size_t)n * sizeof(int32_t) : 1);
    PMPI_Recv(remap, remap ? n : 0, MPI_INT32_T, 0, TAG_SITE_MAP, comm, MPI_STATUS_IGNORE);
    if (blob && remap && (size_t)n == table.nsites) {   /* ids in the file, in place */
        for (size_t i = 0; i < sites->nsites; i++)
            local[i] = remap[local[i]];
        file_ids = local;
        local = NULL;
    }
    free(remap);
    free(local);
    free(blob);
    free(storage);
    scope_callsite_set_free(&set);
    return file_ids;
}

struct prepared {
    struct scope_message_log log;
    char *buf;                      /* SCOPE_WIRE_MESSAGE_BYTES */
    char err[512];
};

static int log_window(void *ctx, const struct region_window *win)
{
    struct prepared *p = ctx;
    size_t len = scope_wire_window_encode(p->buf, win);
    return scope_message_log_append(&p->log, TAG_WINDOW, p->buf, len, p->err, sizeof p->err);
}

/* One region's facts and its calls, encoded window by window as the file
 * stores them. */
static int prepare_region(struct prepared *p, struct scope_event_groups *le, size_t r,
                          const int32_t *file_ids, struct region_encoder *enc,
                          struct scope_chunk *c)
{
    size_t count = scope_event_groups_calls(le, r);
    struct scope_region_info info = scope_local_region_info(le, r, NULL);
    size_t len = scope_wire_region_encode(p->buf, &info, count);
    if (scope_message_log_append(&p->log, TAG_REGION, p->buf, len, p->err, sizeof p->err) != 0)
        return -1;
    const char *why = NULL;
    region_encoder_begin(enc);
    for (size_t next = 0; next < count;) {
        next = scope_event_groups_chunk(le, r, next, c);
        if (region_encoder_add(enc, c->start, c->end, c->thread,
                               scope_chunk_callsites(c->callsite, c->n, file_ids), c->n,
                               log_window, p, &why) != 0)
            goto fail;
    }
    if (region_encoder_end(enc, log_window, p, &why) != 0)
        goto fail;
    if (scope_event_groups_error(le)) {
        snprintf(p->err, sizeof p->err, "%s", scope_event_groups_error(le));
        return -1;
    }
    return 0;
fail:
    if (why)
        snprintf(p->err, sizeof p->err, "%s", why);
    return -1;
}

/* Everything a non-zero rank sends, encoded now, while the other ranks do
 * the same: its facts, then each region and its windows. A rank that
 * cannot prepare them sends its facts with nregions -1 (rank 0 then writes
 * no file, and every rank keeps its records for `scope recover`). */
static void prepare_rank(struct prepared *p, struct scope_event_groups *le,
                         const int32_t *file_ids, int64_t run_start, int64_t offset)
{
    struct region_encoder enc;
    struct scope_chunk *chunk = malloc(sizeof(*chunk));
    int rc = region_encoder_init(&enc) == 0 && chunk ? 0 : -1;
    if (rc != 0)
        snprintf(p->err, sizeof p->err, "out of memory encoding the calls");
    size_t nonempty = 0;
    for (size_t r = 0; r < le->nregions; r++)
        nonempty += scope_event_groups_calls(le, r) > 0;
    struct scope_wire_rank rank = {scope_facts.pid, run_start, offset,
                                   (int64_t)scope_buffers_dropped(), (int64_t)nonempty,
                                   scope_facts.hostname};
    size_t len = scope_wire_rank_encode(p->buf, &rank);
    if (rc == 0)
        rc = scope_message_log_append(&p->log, TAG_RANK, p->buf, len, p->err, sizeof p->err);
    for (size_t r = 0; rc == 0 && r < le->nregions; r++)
        if (scope_event_groups_calls(le, r) > 0)
            rc = prepare_region(p, le, r, file_ids, &enc, chunk);
    region_encoder_free(&enc);
    free(chunk);
    if (rc == 0)
        return;
    scope_log("rank %d: %s: its records are kept for `scope recover`", my_rank, p->err);
    scope_message_log_free(&p->log);
    rank.nregions = -1;
    len = scope_wire_rank_encode(p->buf, &rank);
    if (scope_message_log_append(&p->log, TAG_RANK, p->buf, len, p->err, sizeof p->err) != 0)
        abort();   /* a few bytes in memory: rank 0 would wait forever otherwise */
}

static int send_message(void *ctx, int tag, const void *data, size_t len)
{
    (void)ctx;
    return PMPI_Send(data, (int)len, MPI_BYTE, 0, tag, node_comm) == MPI_SUCCESS ? 0 : -1;
}

/* A rank that does not write: its prepared messages to its node's writer
 * (the node's first rank), when that one says go. */
static int send_rank(struct prepared *p)
{
    PMPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_GO, node_comm, MPI_STATUS_IGNORE);
    if (scope_message_log_replay(&p->log, send_message, NULL, p->buf, p->err, sizeof p->err) == 0)
        return 0;
    scope_log("rank %d: %s", my_rank, p->err);
    abort();   /* its node's writer waits for the rest of its messages */
}

/* Receives one message from rank r of the node into buf; its length. */
static size_t recv_blob(int r, int tag, char *buf)
{
    MPI_Status st;
    int n;
    PMPI_Recv(buf, (int)SCOPE_WIRE_MESSAGE_BYTES, MPI_BYTE, r, tag, node_comm, &st);
    PMPI_Get_count(&st, MPI_BYTE, &n);
    return (size_t)n;
}

/* What a node's writer (the node's first rank) takes in. */
struct receive_state {
    int next;              /* first rank of the node not yet received */
    int node_size;
    int *world_rank;       /* of each rank of the node */
    int nodes;             /* > 1: each node writes a part */
    int *node_of;          /* rank 0, nodes > 1: each world rank's node */
    const char *file;      /* rank 0, nodes > 1: the run's file */
    int parts_collected;
    char *buf;
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

/* Receives one region of rank r: its facts, then its windows (as many as
 * its calls fill); places them when w is not NULL. */
static int receive_region(int r, const struct scope_writer_api *api, scope_writer *w,
                          struct receive_state *s, size_t *events)
{
    struct scope_region_info info;
    uint64_t calls = 0;
    size_t len = recv_blob(r, TAG_REGION, s->buf);
    int ok = scope_wire_region_decode(s->buf, len, &info, &calls) == 0 && w &&
             api->begin_region(w, &info) == 0;
    uint64_t windows = calls <= REGION_WINDOW ? 1 : (calls + REGION_WINDOW - 1) / REGION_WINDOW;
    for (uint64_t k = 0; k < windows; k++) {
        struct region_window win;
        len = recv_blob(r, TAG_WINDOW, s->buf);
        ok = ok && scope_wire_window_decode(s->buf, len, &win) == 0 &&
             api->put_window(w, &win) == 0;
    }
    *events += calls;
    ok = ok && api->end_region(w) == 0;
    scope_wire_region_free(&info);
    return ok ? 0 : -1;
}

/* A node's writer: takes every other rank of its node in turn. With w NULL
 * (writing failed) it still drains them, so that no rank waits forever. */
static int receive_node(const struct scope_writer_api *api, scope_writer *w,
                        struct receive_state *s, size_t *events)
{
    int rc = 0;
    for (; s->next < s->node_size; s->next++) {
        int r = s->next;
        show_progress(s, s->world_rank[r]);
        PMPI_Send(NULL, 0, MPI_BYTE, r, TAG_GO, node_comm);
        struct scope_wire_rank rank = {0};
        size_t len = recv_blob(r, TAG_RANK, s->buf);
        if (scope_wire_rank_decode(s->buf, len, &rank) != 0 || rank.nregions < 0)
            rc = -1;
        struct scope_rank_info info = {s->world_rank[r], rank.hostname, rank.pid,
                                       rank.run_start_time, rank.clock_offset_ns,
                                       rank.dropped_events};
        if (w && (rc != 0 || api->begin_rank(w, &info) != 0))
            rc = -1;
        for (int64_t k = 0; k < rank.nregions; k++)
            if (receive_region(r, api, rc == 0 ? w : NULL, s, events) != 0)
                rc = -1;
        if (w && rc == 0 && api->end_rank(w) != 0)
            rc = -1;
        free(rank.hostname);
    }
    if (s->progress_shown)
        fputc('\n', stderr);
    s->progress_shown = 0;
    return w ? rc : -1;
}

/* Rank 0 of a run on several nodes: every other node's writer says whether
 * its part is complete, and how many calls it holds; then the run's file
 * links each rank of the parts (w NULL: only listens). */
static int collect_parts(const struct scope_writer_api *api, scope_writer *w,
                         struct receive_state *s, size_t *events)
{
    int64_t mine[2] = {0, 0}, *all = malloc(2 * (size_t)s->nodes * sizeof(int64_t));
    if (!all) {
        scope_log("out of memory collecting the nodes' files");
        abort();   /* the nodes' writers would wait forever otherwise */
    }
    PMPI_Gather(mine, 2, MPI_INT64_T, all, 2, MPI_INT64_T, 0, leader_comm);
    s->parts_collected = 1;
    int rc = w ? 0 : -1;
    for (int n = 1; n < s->nodes; n++) {
        if (all[2 * n] != 0)
            rc = -1;
        *events += (size_t)all[2 * n + 1];
    }
    free(all);
    char part[PATH_MAX], link[PATH_MAX];
    for (int r = 0; rc == 0 && r < nranks; r++) {
        if (s->node_of[r] == 0)
            continue;
        scope_part_paths(s->file, s->node_of[r], part, link, sizeof part);
        rc = api->link_rank(w, r, link);
    }
    return rc;
}

/* Rank 0's `more`: the ranks of its node, then the other nodes' parts. */
static int receive_ranks(const struct scope_writer_api *api, scope_writer *w, void *ctx,
                         size_t *events)
{
    struct receive_state *s = ctx;
    int rc = receive_node(api, w, s, events);
    if (s->nodes > 1 && collect_parts(api, rc == 0 ? w : NULL, s, events) != 0)
        rc = -1;
    return rc;
}

static int receive_node_only(const struct scope_writer_api *api, scope_writer *w, void *ctx,
                             size_t *events)
{
    return receive_node(api, w, ctx, events);
}

/* This process's facts as the file's /rank{N} attributes. */
static struct scope_rank_info own_rank(void)
{
    return (struct scope_rank_info){my_rank, scope_facts.hostname, scope_facts.pid,
                                    scope_rt.run_start_ns, 0, (int64_t)scope_buffers_dropped()};
}

static int write_as_root(struct scope_event_groups *le, const struct scope_site_table *sites,
                         int64_t run_start, struct receive_state *s)
{
    struct scope_rank_info own = own_rank();
    struct scope_callsite_set callsites;
    int32_t *own_ids = NULL;
    scope_write_file_callsites(sites, &callsites, &own_ids);
    merge_callsites(&callsites);
    int rc = scope_write_file(nranks, run_start, &own, le, &callsites, own_ids, receive_ranks, s);
    size_t ignored = 0;
    if (s->next < s->node_size)
        receive_node(NULL, NULL, s, &ignored);
    if (s->nodes > 1 && !s->parts_collected)
        collect_parts(NULL, NULL, s, &ignored);
    free(own_ids);
    scope_callsite_set_free(&callsites);
    return rc;
}

/* The first rank of a node other than rank 0's: its node's part, then
 * whether it is complete to rank 0. */
static void write_as_node(struct scope_event_groups *le, const int32_t *own_ids,
                          const char *part, int64_t my_start, int64_t offset,
                          struct receive_state *s)
{
    struct scope_rank_info own = own_rank();
    own.run_start_time = my_start;
    own.clock_offset_ns = offset;
    size_t events = 0;
    int rc = scope_write_part(part, &own, le, own_ids, receive_node_only, s, &events);
    if (s->next < s->node_size) {
        size_t ignored = 0;
        receive_node(NULL, NULL, s, &ignored);
    }
    int64_t mine[2] = {rc, (int64_t)events};
    PMPI_Gather(mine, 2, MPI_INT64_T, NULL, 2, MPI_INT64_T, 0, leader_comm);
}

/* Who is where: each rank of this node as a world rank; on rank 0 of a run
 * on several nodes, each world rank's node. */
static void map_nodes(struct receive_state *s)
{
    MPI_Group node_group, world_group;
    PMPI_Comm_size(node_comm, &s->node_size);
    int *local = malloc((size_t)s->node_size * sizeof(int));
    s->world_rank = malloc((size_t)s->node_size * sizeof(int));
    int node = 0;
    if (leader_comm != MPI_COMM_NULL) {
        PMPI_Comm_size(leader_comm, &s->nodes);
        PMPI_Comm_rank(leader_comm, &node);
    }
    PMPI_Bcast(&s->nodes, 1, MPI_INT, 0, comm);
    PMPI_Bcast(&node, 1, MPI_INT, 0, node_comm);
    s->node_of = my_rank == 0 ? malloc((size_t)nranks * sizeof(int)) : NULL;
    if (!local || !s->world_rank || (my_rank == 0 && !s->node_of)) {
        scope_log("rank %d: out of memory for the merge", my_rank);
        abort();   /* the other ranks would wait forever otherwise */
    }
    for (int i = 0; i < s->node_size; i++)
        local[i] = i;
    PMPI_Comm_group(node_comm, &node_group);
    PMPI_Comm_group(comm, &world_group);
    PMPI_Group_translate_ranks(node_group, s->node_size, local, world_group, s->world_rank);
    PMPI_Group_free(&node_group);
    PMPI_Group_free(&world_group);
    free(local);
    PMPI_Gather(&node, 1, MPI_INT, s->node_of, 1, MPI_INT, 0, comm);
}

/* The run's file, named on rank 0, to the other nodes' writers. */
static void share_file_name(char *file, size_t len)
{
    if (my_rank == 0)
        scope_output_file_path(file, len);
    if (leader_comm != MPI_COMM_NULL)
        PMPI_Bcast(file, (int)len, MPI_CHAR, 0, leader_comm);
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

    struct prepared p = {.buf = malloc(SCOPE_WIRE_MESSAGE_BYTES)};
    scope_message_log_init(&p.log);
    struct receive_state s = {.next = 1, .nodes = 1, .buf = p.buf, .began = began};
    char file[PATH_MAX] = "", part[PATH_MAX], link[PATH_MAX];
    int written = 0, kept = 0, node_writer = leader_comm != MPI_COMM_NULL;
    if (!p.buf || !le.region_begin) {
        scope_log("rank %d: out of memory for the merge", my_rank);
        abort();   /* the other ranks would wait forever otherwise */
    }
    map_nodes(&s);
    share_file_name(file, sizeof file);
    s.file = file;
    if (my_rank == 0) {
        written = write_as_root(&le, &sites, run_start, &s) == 0;
    } else {
        int32_t *file_ids = send_callsites(&sites);
        if (node_writer) {
            int node;
            PMPI_Comm_rank(leader_comm, &node);
            scope_part_paths(file, node, part, link, sizeof part);
            write_as_node(&le, file_ids, part, my_start, offset, &s);
        } else {
            prepare_rank(&p, &le, file_ids, my_start, offset);
            kept = p.err[0] != '\0';
            send_rank(&p);
        }
        free(file_ids);
    }
    PMPI_Bcast(&written, 1, MPI_INT, 0, comm);
    if (my_rank == 0)
        scope_debug("finalize: clock sync, merge and write took %.3f s; peak memory %ld MiB",
                    (double)(scope_monotonic_ns() - began) / 1e9, scope_peak_memory_mib());
    if (my_rank != 0 && node_writer && !written)
        unlink(part);   /* the run's file does not link it */
    if (written && !kept) {
        scope_rt.written = 1;
        scope_buffers_remove();
    }
    scope_message_log_free(&p.log);
    free(p.buf);
    free(s.world_rank);
    free(s.node_of);
    scope_event_groups_free(&le);
    scope_site_table_free(&sites);
out:
    if (leader_comm != MPI_COMM_NULL)
        PMPI_Comm_free(&leader_comm);
    PMPI_Comm_free(&node_comm);
    PMPI_Comm_free(&comm);
    scope_tls.busy--;
}
