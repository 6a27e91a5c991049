/* node_writer.c: a node's writer takes in its node's ranks (node_writer.h).
 * Every message comes from one rank of the node at a time, after a go, so
 * the writer's memory holds one window (and one region's peer totals)
 * whatever the ranks or calls. */
#include "node_writer.h"

#include "callsite_exchange.h"
#include "log.h"
#include "merge_wire.h"
#include "part_paths.h"
#include "profile_rank.h"
#include "run_info.h"
#include "runtime.h"
#include "thread_buffer.h"
#include "write_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Receives one message from rank r of the node into buf; its length. */
static size_t recv_blob(const struct scope_merge_comms *c, int r, int tag, char *buf)
{
    MPI_Status st;
    int n;
    PMPI_Recv(buf, (int)SCOPE_WIRE_MESSAGE_BYTES, MPI_BYTE, r, tag, c->node, &st);
    PMPI_Get_count(&st, MPI_BYTE, &n);
    return (size_t)n;
}

/* Receives one region of rank r: its facts, its peer totals (held whole
 * until the region begins), then its windows up to the last one of its
 * calls (region_encode.h); places them when w is not NULL. */
static int receive_region(int r, const struct scope_writer_api *api, scope_writer *w,
                          struct scope_node_intake *s, size_t *events)
{
    struct scope_region_info info;
    uint64_t calls = 0;
    size_t len = recv_blob(s->c, r, TAG_REGION, s->buf);
    uint64_t peer_rows = scope_wire_region_peer_rows(s->buf, len);
    int ok = scope_wire_region_decode(s->buf, len, &info, &calls) == 0;
    for (size_t filled = 0; filled < peer_rows;) {
        len = recv_blob(s->c, r, TAG_PEERS, s->buf);
        s->others_bytes += len;
        ok = scope_wire_peers_decode(s->buf, len, (struct scope_peer_totals *)info.peers,
                                     &filled) == 0 && ok;
    }
    ok = ok && w && api->begin_region(w, &info) == 0;
    for (int ended = 0; !ended;) {
        struct region_window win;
        len = recv_blob(s->c, r, TAG_WINDOW, s->buf);
        s->others_bytes += len;
        int decoded = scope_wire_window_decode(s->buf, len, &win) == 0;
        ended = !decoded || (win.group == REGION_CALLS && win.last);
        ok = ok && decoded && api->put_window(w, &win) == 0;
    }
    *events += calls;
    ok = ok && api->end_region(w) == 0;
    scope_wire_region_free(&info);
    return ok ? 0 : -1;
}

/* A node's writer: takes every other rank of its node in turn. With w NULL
 * (writing failed) it still drains them, so that no rank waits forever. */
static int receive_node(const struct scope_writer_api *api, scope_writer *w,
                        struct scope_node_intake *s, size_t *events)
{
    const struct scope_merge_comms *c = s->c;
    int rc = 0;
    int64_t t0 = scope_monotonic_ns();
    if (s->write_began && !s->own_ns)
        s->own_ns = t0 - s->write_began;
    for (; s->next < s->node_size; s->next++) {
        int r = s->next;
        scope_progress(scope_monotonic_ns() - s->began, "merging rank %d of %d", s->world_rank[r], c->size);
        PMPI_Send(NULL, 0, MPI_BYTE, r, TAG_GO, c->node);
        struct scope_wire_rank rank = {0};
        size_t len = recv_blob(s->c, r, TAG_RANK, s->buf);
        if (scope_wire_rank_decode(s->buf, len, &rank) != 0 || rank.nregions < 0)
            rc = -1;
        struct scope_rank_info info = {s->world_rank[r], rank.hostname, rank.pid,
                                       rank.run_start_time, rank.clock_offset_ns,
                                       rank.dropped_events, rank.callpath_parents,
                                       rank.ncallpaths > 0 ? (size_t)rank.ncallpaths : 0,
                                       rank.trace_limit_passed_ns};
        if (w && (rc != 0 || api->begin_rank(w, &info) != 0))
            rc = -1;
        for (int64_t k = 0; k < rank.nregions; k++)
            if (receive_region(r, api, rc == 0 ? w : NULL, s, events) != 0)
                rc = -1;
        if (w && rc == 0 && api->end_rank(w) != 0)
            rc = -1;
        free(rank.hostname);
        free(rank.callpath_parents);
    }
    scope_progress_end();
    s->others_ns += scope_monotonic_ns() - t0;
    return w ? rc : -1;
}

/* Rank 0 of a run on several nodes: every other node's writer says whether
 * its part is complete, and how many calls it holds; then the run's file
 * links each rank of the parts (w NULL: only listens). */
static int collect_parts(const struct scope_writer_api *api, scope_writer *w,
                         struct scope_node_intake *s, size_t *events)
{
    const struct scope_merge_comms *c = s->c;
    int64_t mine[2] = {0, 0}, *all = malloc(2 * (size_t)s->c->nodes * sizeof(int64_t));
    if (!all) {
        scope_log("out of memory collecting the nodes' files");
        abort();   /* the nodes' writers would wait forever otherwise */
    }
    PMPI_Gather(mine, 2, MPI_INT64_T, all, 2, MPI_INT64_T, 0, c->leaders);
    s->parts_collected = 1;
    int rc = w ? 0 : -1;
    for (int n = 1; n < s->c->nodes; n++) {
        if (all[2 * n] != 0)
            rc = -1;
        *events += (size_t)all[2 * n + 1];
    }
    free(all);
    char part[PATH_MAX], link[PATH_MAX];
    for (int r = 0; rc == 0 && r < c->size; r++) {
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
    struct scope_node_intake *s = ctx;
    int rc = receive_node(api, w, s, events);
    if (s->c->nodes > 1 && collect_parts(api, rc == 0 ? w : NULL, s, events) != 0)
        rc = -1;
    return rc;
}

static int receive_node_only(const struct scope_writer_api *api, scope_writer *w, void *ctx,
                             size_t *events)
{
    return receive_node(api, w, ctx, events);
}

/* This process's facts as the file's /rank{N} attributes. */
static struct scope_rank_info own_rank(const struct scope_merge_comms *c,
                                       const struct scope_event_groups *le)
{
    return (struct scope_rank_info){c->rank, scope_facts.hostname, scope_facts.pid,
                                    scope_rt.run_start_ns, 0, (int64_t)scope_buffers_dropped(),
                                    le->profile ? le->profile->parents : NULL,
                                    le->profile ? le->profile->npaths : 0,
                                    le->profile ? le->profile->trace_limit_passed_ns : 0};
}

int scope_write_as_root(struct scope_node_intake *s, struct scope_event_groups *le,
                        const struct scope_site_table *sites, int64_t run_start,
                        const struct scope_comm_table *comms)
{
    const struct scope_merge_comms *c = s->c;
    struct scope_rank_info own = own_rank(c, le);
    struct scope_callsite_set callsites;
    int32_t *own_ids = NULL;
    int64_t t0 = scope_monotonic_ns();
    scope_write_file_callsites(sites, &callsites, &own_ids);
    scope_merge_callsites(c, &callsites);
    s->write_began = scope_monotonic_ns();
    s->callsites_ns = s->write_began - t0;
    int rc = scope_write_file(c->size, run_start, &own, le, &callsites, own_ids, comms,
                              receive_ranks, s);
    scope_debug("finalize on rank 0: call sites of %d rank(s) merged in %.3f ms; its own %zu "
                "calls encoded and written in %.3f s; %d other rank(s) of its node placed "
                "(%.1f MB) in %.3f s", c->size, (double)s->callsites_ns / 1e6, le->count,
                (double)s->own_ns / 1e9, s->node_size - 1, (double)s->others_bytes / 1e6,
                (double)s->others_ns / 1e9);
    size_t ignored = 0;
    if (s->next < s->node_size)
        receive_node(NULL, NULL, s, &ignored);
    if (s->c->nodes > 1 && !s->parts_collected)
        collect_parts(NULL, NULL, s, &ignored);
    free(own_ids);
    scope_callsite_set_free(&callsites);
    return rc;
}

/* The first rank of a node other than rank 0's: its node's part, then
 * whether it is complete to rank 0. */
int scope_write_as_node(struct scope_node_intake *s, struct scope_event_groups *le,
                        const int32_t *own_ids, int64_t my_start, int64_t offset)
{
    const struct scope_merge_comms *c = s->c;
    struct scope_rank_info own = own_rank(c, le);
    own.run_start_time = my_start;
    own.clock_offset_ns = offset;
    size_t events = 0;
    char link[PATH_MAX];
    scope_part_paths(s->file, c->node_index, s->part, link, sizeof s->part);
    int rc = scope_write_part(s->part, &own, le, own_ids, receive_node_only, s, &events);
    if (s->next < s->node_size) {
        size_t ignored = 0;
        receive_node(NULL, NULL, s, &ignored);
    }
    int64_t mine[2] = {rc, (int64_t)events};
    PMPI_Gather(mine, 2, MPI_INT64_T, NULL, 2, MPI_INT64_T, 0, c->leaders);
    return rc;
}

/* Who is where: each rank of this node as a world rank; on rank 0 of a run
 * on several nodes, each world rank's node. */
static void map_nodes(const struct scope_merge_comms *c, struct scope_node_intake *s)
{
    MPI_Group node_group, world_group;
    PMPI_Comm_size(c->node, &s->node_size);
    int *local = malloc((size_t)s->node_size * sizeof(int));
    s->world_rank = malloc((size_t)s->node_size * sizeof(int));
    s->node_of = c->rank == 0 ? malloc((size_t)c->size * sizeof(int)) : NULL;
    if (!local || !s->world_rank || (c->rank == 0 && !s->node_of)) {
        scope_log("rank %d: out of memory for the merge", c->rank);
        abort();   /* the other ranks would wait forever otherwise */
    }
    for (int i = 0; i < s->node_size; i++)
        local[i] = i;
    PMPI_Comm_group(c->node, &node_group);
    PMPI_Comm_group(c->world, &world_group);
    PMPI_Group_translate_ranks(node_group, s->node_size, local, world_group, s->world_rank);
    PMPI_Group_free(&node_group);
    PMPI_Group_free(&world_group);
    free(local);
    PMPI_Gather(&c->node_index, 1, MPI_INT, s->node_of, 1, MPI_INT, 0, c->world);
}

/* The run's file, named on rank 0, to the other nodes' writers. */
static void share_file_name(const struct scope_merge_comms *c, char *file, size_t len)
{
    if (c->rank == 0)
        scope_output_file_path(file, len);
    if (c->leaders != MPI_COMM_NULL)
        PMPI_Bcast(file, (int)len, MPI_CHAR, 0, c->leaders);
}


void scope_node_intake_init(struct scope_node_intake *s, const struct scope_merge_comms *c,
                            char *buf, int64_t began)
{
    *s = (struct scope_node_intake){.c = c, .next = 1, .buf = buf, .began = began};
    map_nodes(c, s);
    share_file_name(c, s->file, sizeof s->file);
}

void scope_node_intake_free(struct scope_node_intake *s)
{
    free(s->world_rank);
    free(s->node_of);
    s->world_rank = s->node_of = NULL;
}
