/* rank_messages.c: a rank's messages prepared, then sent
 * (rank_messages.h). */
#include "rank_messages.h"

#include "encode_threads.h"
#include "local_events.h"
#include "profile_rank.h"
#include "log.h"
#include "merge_wire.h"
#include "run_info.h"
#include "runtime.h"
#include "thread_buffer.h"
#include "write_rank.h"

#include <stdio.h>
#include <stdlib.h>

static int log_window(void *ctx, const struct region_window *win)
{
    struct scope_prepared *p = ctx;
    size_t len = scope_wire_window_encode(p->buf, win);
    return scope_message_log_append(&p->log, TAG_WINDOW, p->buf, len, p->err, sizeof p->err);
}

/* Peer-total rows a message carries: all that fit, or fewer for tests
 * (SCOPE_TEST_PEER_ROWS, test-only: a region sent in several messages
 * without a run of 350 000 peers). */
static size_t peer_rows_per_message(void)
{
    const char *v = getenv("SCOPE_TEST_PEER_ROWS");
    long n = v ? atol(v) : 0;
    size_t most = scope_wire_peers_max_rows();
    return n > 0 && (size_t)n < most ? (size_t)n : most;
}

/* A region's peer totals, in messages of as many rows as fit. */
static int prepare_peers(struct scope_prepared *p, const struct scope_peer_totals *peers)
{
    size_t rows = peer_rows_per_message();
    for (size_t from = 0; peers && from < peers->n; from += rows) {
        size_t count = peers->n - from < rows ? peers->n - from : rows;
        size_t len = scope_wire_peers_encode(p->buf, peers, from, count);
        if (scope_message_log_append(&p->log, TAG_PEERS, p->buf, len, p->err, sizeof p->err) != 0)
            return -1;
    }
    return 0;
}

/* One region's facts, its peer totals and its calls, encoded window by
 * window as the file stores them. */
static int prepare_region(struct scope_prepared *p, struct scope_event_groups *le, size_t r,
                          const int32_t *file_ids, struct region_encoder *enc,
                          struct scope_chunk *chunk)
{
    size_t count = scope_event_groups_calls(le, r);
    struct scope_region_info info = scope_local_region_info(le, r, NULL);
    size_t len = scope_wire_region_encode(p->buf, &info, count);
    if (scope_message_log_append(&p->log, TAG_REGION, p->buf, len, p->err, sizeof p->err) != 0 ||
        prepare_peers(p, info.peers) != 0)
        return -1;
    const char *why = NULL;
    if (scope_encode_region(le, r, file_ids, region_payload_of(info.payload), enc, chunk, log_window, p,
                            &why) != 0)
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
void scope_prepare_rank(const struct scope_merge_comms *c, struct scope_prepared *p, struct scope_event_groups *le,
                         const int32_t *file_ids, int64_t run_start, int64_t offset)
{
    struct region_encoder enc;
    struct scope_chunk *chunk = scope_chunk_new();
    int rc = region_encoder_init(&enc) == 0 && chunk ? 0 : -1;
    region_encoder_use_helpers(&enc, scope_encode_threads());
    if (rc != 0)
        snprintf(p->err, sizeof p->err, "out of memory encoding the calls");
    size_t nonempty = 0;
    scope_rank_profile_name_sites(le->profile, file_ids);
    for (size_t r = 0; r < le->nregions; r++)
        nonempty += scope_event_groups_has_calls(le, r);
    struct scope_wire_rank rank = {scope_facts.pid, run_start, offset,
                                   (int64_t)scope_buffers_dropped(), (int64_t)nonempty,
                                   scope_facts.hostname, le->profile ? le->profile->parents : NULL,
                                   le->profile ? (int64_t)le->profile->npaths : -1,
                                   le->profile ? le->profile->trace_limit_passed_ns : 0};
    size_t len = scope_wire_rank_encode(p->buf, &rank);
    if (rc == 0)
        rc = scope_message_log_append(&p->log, TAG_RANK, p->buf, len, p->err, sizeof p->err);
    for (size_t r = 0; rc == 0 && r < le->nregions; r++)
        if (scope_event_groups_has_calls(le, r))
            rc = prepare_region(p, le, r, file_ids, &enc, chunk);
    region_encoder_free(&enc);
    scope_chunk_free(chunk);
    if (rc == 0)
        return;
    scope_log("rank %d: %s: its records are kept for `scope recover`", c->rank, p->err);
    scope_message_log_free(&p->log);
    rank.nregions = -1;
    len = scope_wire_rank_encode(p->buf, &rank);
    if (scope_message_log_append(&p->log, TAG_RANK, p->buf, len, p->err, sizeof p->err) != 0)
        abort();   /* a few bytes in memory: rank 0 would wait forever otherwise */
}

static int send_message(void *ctx, int tag, const void *data, size_t len)
{
    const struct scope_merge_comms *c = ctx;
    return PMPI_Send(data, (int)len, MPI_BYTE, 0, tag, c->node) == MPI_SUCCESS ? 0 : -1;
}

/* A rank that does not write: its prepared messages to its node's writer
 * (the node's first rank), when that one says go. */
void scope_send_prepared(const struct scope_merge_comms *c, struct scope_prepared *p)
{
    PMPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_GO, c->node, MPI_STATUS_IGNORE);
    if (scope_message_log_replay(&p->log, send_message, (void *)c, p->buf, p->err, sizeof p->err) == 0)
        return;
    scope_log("rank %d: %s", c->rank, p->err);
    abort();   /* its node's writer waits for the rest of its messages */
}

