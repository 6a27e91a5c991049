/* Who sent how much to whom: the point-to-point matrix from the message
 * rows and the peer totals of the calls without rows (each pair's sent
 * side from the sender's, its received side from the receiver's; each
 * rank's summed per peer first, so that the pairs, not the messages, are
 * sorted), the bytes a family of regions (collectives) moved per rank,
 * and the v and w collectives' bytes per pair from their peer totals. */
#include "grow_array.h"
#include "reader_internal.h"

#include <stdlib.h>

static int by_pair(const void *a, const void *b)
{
    const scope_comm_pair *x = a, *y = b;
    if (x->sender != y->sender)
        return x->sender < y->sender ? -1 : 1;
    return (x->receiver > y->receiver) - (x->receiver < y->receiver);
}

/* Sorts the list and merges the entries of one pair. */
static void merge_pairs(scope_comm_pair *list, size_t *n)
{
    qsort(list, *n, sizeof *list, by_pair);
    size_t out = 0;
    for (size_t i = 0; i < *n; i++) {
        scope_comm_pair *last = out > 0 ? &list[out - 1] : NULL;
        if (last && by_pair(last, &list[i]) == 0) {
            last->messages += list[i].messages;
            last->bytes += list[i].bytes;
            last->recv_messages += list[i].recv_messages;
            last->recv_bytes += list[i].recv_bytes;
        } else {
            list[out++] = list[i];
        }
    }
    *n = out;
}

typedef struct pair_list {
    scope_comm_pair *items;
    size_t n, cap;
} pair_list;

static int push_pair(pair_list *pl, scope_comm_pair p, scope_error *err)
{
    if (scope_grow_array((void **)&pl->items, &pl->cap, pl->n + 1, sizeof *pl->items) != 0)
        return reader_fail(err, "out of memory");
    pl->items[pl->n++] = p;
    return 0;
}

/* One rank's messages summed per peer (by the peer's rank index), both
 * directions; `touched` lists the peers summed into, to reset them. */
typedef struct rank_sums {
    scope_comm_pair *by_peer;
    size_t *touched;
    size_t n_touched;
} rank_sums;

/* The message rows of one series into the rank's sums; a row whose peer
 * is no rank of the file becomes a pair of its own. */
static int add_messages(rank_sums *rs, pair_list *pl, const scope_payload *p, int rank,
                        const scope_file *f, scope_error *err)
{
    for (size_t i = 0; i < p->n_messages; i++) {
        bool sent = p->msg_kind[i] == 0;
        uint64_t bytes = (uint64_t)p->msg_bytes[i];
        long pi = reader_rank_index(f, p->msg_peer[i]);
        scope_comm_pair one = {.sender = sent ? rank : p->msg_peer[i],
                               .receiver = sent ? p->msg_peer[i] : rank};
        scope_comm_pair *sum = pi >= 0 ? &rs->by_peer[pi] : &one;
        if (pi >= 0 && sum->messages + sum->recv_messages == 0)
            rs->touched[rs->n_touched++] = (size_t)pi;
        sum->messages += sent;
        sum->bytes += sent ? bytes : 0;
        sum->recv_messages += !sent;
        sum->recv_bytes += sent ? 0 : bytes;
        if (pi < 0 && push_pair(pl, one, err) < 0)
            return -1;
    }
    return 0;
}

/* One (peer, direction) total of a rank into its sums, as add_messages. */
static int add_total(rank_sums *rs, pair_list *pl, const scope_peer_total *t, int rank,
                     const scope_file *f, scope_error *err)
{
    bool sent = t->direction == 0;
    long pi = reader_rank_index(f, t->peer);
    scope_comm_pair one = {.sender = sent ? rank : t->peer, .receiver = sent ? t->peer : rank};
    scope_comm_pair *sum = pi >= 0 ? &rs->by_peer[pi] : &one;
    if (pi >= 0 && sum->messages + sum->recv_messages == 0)
        rs->touched[rs->n_touched++] = (size_t)pi;
    sum->messages += sent ? t->messages : 0;
    sum->bytes += sent ? t->bytes : 0;
    sum->recv_messages += sent ? 0 : t->messages;
    sum->recv_bytes += sent ? 0 : t->bytes;
    return pi < 0 ? push_pair(pl, one, err) : 0;
}

/* The peer totals of region r (point-to-point) on rank index ri. */
static int add_totals(rank_sums *rs, pair_list *pl, const scope_file *f, size_t r, size_t ri,
                      scope_error *err)
{
    size_t n = 0;
    scope_peer_total *t = scope_region_peer_totals(f, r, f->ranks[ri], &n, err);
    if (!t)
        return -1;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = add_total(rs, pl, &t[i], f->ranks[ri], f, err);
    free(t);
    return rc;
}

/* The rank's sums become pairs (rank -> peer for what it sent, peer ->
 * rank for what it received) when their sender is selected; reset. */
static int flush_rank(rank_sums *rs, pair_list *pl, const scope_file *f, size_t ri,
                      const bool *sender_keep, scope_error *err)
{
    int rc = 0;
    for (size_t k = 0; k < rs->n_touched; k++) {
        size_t pi = rs->touched[k];
        scope_comm_pair *sum = &rs->by_peer[pi];
        int rank = f->ranks[ri], peer = f->ranks[pi];
        if (rc == 0 && sum->messages && (!sender_keep || sender_keep[ri]))
            rc = push_pair(pl, (scope_comm_pair){rank, peer, sum->messages, sum->bytes, 0, 0},
                           err);
        if (rc == 0 && sum->recv_messages && (!sender_keep || sender_keep[pi]))
            rc = push_pair(pl, (scope_comm_pair){peer, rank, 0, 0, sum->recv_messages,
                                                 sum->recv_bytes}, err);
        *sum = (scope_comm_pair){0};
    }
    rs->n_touched = 0;
    return rc;
}

/* Pairs of senders outside the filter's ranks, made of rows whose peer is
 * no rank of the file, are dropped here. */
static void drop_unselected(pair_list *pl, const scope_file *f, const bool *sender_keep)
{
    size_t out = 0;
    for (size_t i = 0; i < pl->n; i++) {
        long si = reader_rank_index(f, pl->items[i].sender);
        if (!sender_keep || (si >= 0 && sender_keep[si]))
            pl->items[out++] = pl->items[i];
    }
    pl->n = out;
}

scope_comm_pair *scope_comm_matrix(const scope_file *f, const scope_filter *flt, size_t *count,
                                   scope_error *err)
{
    size_t nr = f->n_regions, np = f->n_ranks;
    reader_selection sel;
    pair_list pl = {.items = malloc(sizeof *pl.items), .cap = 1};
    rank_sums rs = {.by_peer = calloc(np + 1, sizeof *rs.by_peer),
                    .touched = calloc(np + 1, sizeof *rs.touched)};
    int rc = reader_select(f, flt, &sel, err);
    if (rc == 0 && (!pl.items || !rs.by_peer || !rs.touched))
        rc = reader_fail(err, "out of memory");
    const bool *keep = sel.keep;
    if (rc == 0) /* the receivers' side of a selected sender: every rank */
        rc = reader_load_payload(f, keep, NULL, PAYLOAD_MESSAGES, err);
    const bool *sender_keep = flt && flt->n_ranks ? sel.rank_keep : NULL;
    for (size_t ri = 0; rc == 0 && ri < np; ri++) {
        for (size_t r = 0; rc == 0 && r < nr; r++) {
            const series *s = keep[r] ? reader_series(f, r, ri) : NULL;
            if (s && s->has_messages)
                rc = add_messages(&rs, &pl, reader_payload_of(s), f->ranks[ri], f, err);
            if (rc == 0 && s && s->peer_family == SCOPE_PAYLOAD_P2P)
                rc = add_totals(&rs, &pl, f, r, ri, err);
        }
        if (rc == 0)
            rc = flush_rank(&rs, &pl, f, ri, sender_keep, err);
    }
    if (rc == 0) {
        drop_unselected(&pl, f, sender_keep);
        merge_pairs(pl.items, &pl.n);
    }
    free(rs.by_peer);
    free(rs.touched);
    reader_selection_free(&sel);
    return reader_rows(pl.items, pl.n, rc, count);
}

/* Is the region an MPI function's of the family on some rank (whether
 * its calls there carried anything)? */
static bool region_has_family(const scope_file *f, size_t r, scope_payload_family family)
{
    for (size_t ri = 0; ri < f->n_ranks; ri++) {
        const series *s = reader_series(f, r, ri);
        if (s && s->declared == family)
            return true;
    }
    return false;
}

scope_rank_bytes *scope_family_bytes(const scope_file *f, const scope_filter *flt,
                                     scope_payload_family family, size_t *count,
                                     scope_error *err)
{
    size_t nr = f->n_regions, np = f->n_ranks, n = 0;
    reader_selection sel;
    scope_rank_bytes *out = calloc(np + 1, sizeof *out);
    int rc = reader_select(f, flt, &sel, err);
    if (rc == 0 && !out)
        rc = reader_fail(err, "out of memory");
    bool *keep = sel.keep;
    const bool *rank_keep = sel.rank_keep;
    for (size_t r = 0; rc == 0 && r < nr; r++)
        keep[r] = keep[r] && region_has_family(f, r, family);
    if (rc == 0)
        rc = reader_load_payload(f, keep, rank_keep, PAYLOAD_CALLS, err);
    for (size_t ri = 0; rc == 0 && ri < np; ri++) {
        if (!rank_keep[ri])
            continue;
        scope_rank_bytes *rb = &out[n++];
        rb->rank = f->ranks[ri];
        for (size_t r = 0; rc == 0 && r < nr; r++) {
            const series *s = keep[r] ? reader_series(f, r, ri) : NULL;
            reader_call_totals beyond;   /* of the calls not stored as rows */
            if (!s || s->declared != family ||
                (rc = reader_region_call_totals(f, r, ri, &beyond, err)) < 0)
                continue;
            const scope_payload *p = reader_payload_of(s);
            rb->calls += (uint64_t)s->stats.calls;
            rb->bytes += beyond.bytes;
            for (size_t i = 0; i < p->count; i++)
                rb->bytes += (uint64_t)p->bytes[i];
        }
    }
    reader_selection_free(&sel);
    return reader_rows(out, n, rc, count);
}

static int by_region_pair(const void *a, const void *b)
{
    const scope_collective_pair *x = a, *y = b;
    if (x->region != y->region)
        return x->region < y->region ? -1 : 1;
    if (x->sender != y->sender)
        return x->sender < y->sender ? -1 : 1;
    return (x->receiver > y->receiver) - (x->receiver < y->receiver);
}

/* Region r's peer totals on rank index ri as pairs (sent: rank -> peer,
 * received: peer -> rank), those of selected senders. */
static int push_collective_pairs(const scope_file *f, size_t r, size_t ri,
                                 const bool *sender_keep, scope_collective_pair **list,
                                 size_t *n, size_t *cap, scope_error *err)
{
    size_t count = 0;
    int rank = f->ranks[ri];
    scope_peer_total *t = scope_region_peer_totals(f, r, rank, &count, err);
    if (!t)
        return -1;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < count; i++) {
        bool sent = t[i].direction == 0;
        scope_collective_pair p = {r, sent ? rank : t[i].peer, sent ? t[i].peer : rank,
                                   sent ? t[i].messages : 0, sent ? t[i].bytes : 0,
                                   sent ? 0 : t[i].messages, sent ? 0 : t[i].bytes};
        long si = reader_rank_index(f, p.sender);
        if (sender_keep && (si < 0 || !sender_keep[si]))
            continue;
        if (scope_grow_array((void **)list, cap, *n + 1, sizeof **list) != 0)
            rc = reader_fail(err, "out of memory");
        else
            (*list)[(*n)++] = p;
    }
    free(t);
    return rc;
}

scope_collective_pair *scope_collective_pairs(const scope_file *f, const scope_filter *flt,
                                              size_t *count, scope_error *err)
{
    reader_selection sel;
    scope_collective_pair *list = malloc(sizeof *list);
    size_t n = 0, cap = 1;
    int rc = reader_select(f, flt, &sel, err);
    if (rc == 0 && !list)
        rc = reader_fail(err, "out of memory");
    const bool *sender_keep = flt && flt->n_ranks ? sel.rank_keep : NULL;
    for (size_t r = 0; rc == 0 && r < f->n_regions; r++) {
        for (size_t ri = 0; rc == 0 && sel.keep[r] && ri < f->n_ranks; ri++) {
            const series *s = reader_series(f, r, ri);
            if (s && s->peer_family == SCOPE_PAYLOAD_COLLECTIVE)
                rc = push_collective_pairs(f, r, ri, sender_keep, &list, &n, &cap, err);
        }
    }
    if (rc == 0 && n > 0) {
        qsort(list, n, sizeof *list, by_region_pair);
        size_t out = 0;
        for (size_t i = 0; i < n; i++) {
            scope_collective_pair *last = out > 0 ? &list[out - 1] : NULL;
            if (last && by_region_pair(last, &list[i]) == 0) {
                last->calls += list[i].calls;
                last->bytes += list[i].bytes;
                last->recv_calls += list[i].recv_calls;
                last->recv_bytes += list[i].recv_bytes;
            } else {
                list[out++] = list[i];
            }
        }
        n = out;
    }
    reader_selection_free(&sel);
    return reader_rows(list, n, rc, count);
}
