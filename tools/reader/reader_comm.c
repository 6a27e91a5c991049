/* Who sent how much to whom: the point-to-point matrix from the message
 * rows (each pair's sent side from the sender's rows, its received side
 * from the receiver's), and the bytes a family of regions (collectives)
 * moved per rank. */
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

/* Sorts list[from .. *n) and merges the entries of one pair. */
static void merge_pairs(scope_comm_pair *list, size_t from, size_t *n)
{
    qsort(list + from, *n - from, sizeof *list, by_pair);
    size_t out = from;
    for (size_t i = from; i < *n; i++) {
        scope_comm_pair *last = out > from ? &list[out - 1] : NULL;
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

/* The message rows of one series, as pairs of one message each; a row
 * counts when its sender is selected. */
static int add_messages(pair_list *pl, const scope_payload *p, int rank,
                        const scope_file *f, const bool *sender_keep, scope_error *err)
{
    if (scope_grow_array((void **)&pl->items, &pl->cap, pl->n + p->n_messages,
                         sizeof *pl->items) != 0)
        return reader_fail(err, "out of memory");
    for (size_t i = 0; i < p->n_messages; i++) {
        bool sent = p->msg_kind[i] == 0;
        int sender = sent ? rank : p->msg_peer[i];
        long si = reader_rank_index(f, sender);
        if (sender_keep && (si < 0 || !sender_keep[si]))
            continue;
        uint64_t bytes = (uint64_t)p->msg_bytes[i];
        pl->items[pl->n++] = (scope_comm_pair){
            .sender = sender, .receiver = sent ? p->msg_peer[i] : rank,
            .messages = sent, .bytes = sent ? bytes : 0,
            .recv_messages = !sent, .recv_bytes = sent ? 0 : bytes,
        };
    }
    return 0;
}

scope_comm_pair *scope_comm_matrix(const scope_file *f, const scope_filter *flt, size_t *count,
                                   scope_error *err)
{
    size_t nr = f->n_regions, np = f->n_ranks;
    bool *keep = calloc(nr + 1, sizeof *keep), *rank_keep = calloc(np + 1, sizeof *rank_keep);
    pair_list pl = {.items = malloc(sizeof *pl.items), .cap = 1};
    int rc = keep && rank_keep && pl.items ? 0 : reader_fail(err, "out of memory");
    if (rc == 0)
        rc = reader_apply_filter(f, flt, keep, rank_keep, err);
    if (rc == 0) /* the receivers' side of a selected sender: every rank */
        rc = reader_load_payload(f, keep, NULL, err);
    const bool *sender_keep = flt && flt->n_ranks ? rank_keep : NULL;
    for (size_t ri = 0; rc == 0 && ri < np; ri++) {
        size_t first = pl.n;
        for (size_t r = 0; rc == 0 && r < nr; r++) {
            const series *s = keep[r] ? reader_series(f, r, ri) : NULL;
            if (s && s->has_messages)
                rc = add_messages(&pl, &s->payload, f->ranks[ri], f, sender_keep, err);
        }
        merge_pairs(pl.items, first, &pl.n); /* few pairs a rank: keeps the list short */
    }
    if (rc == 0)
        merge_pairs(pl.items, 0, &pl.n);
    free(keep);
    free(rank_keep);
    if (rc < 0) {
        free(pl.items);
        return NULL;
    }
    *count = pl.n;
    return pl.items;
}

scope_rank_bytes *scope_family_bytes(const scope_file *f, const scope_filter *flt,
                                     scope_payload_family family, size_t *count,
                                     scope_error *err)
{
    size_t nr = f->n_regions, np = f->n_ranks, n = 0;
    bool *keep = calloc(nr + 1, sizeof *keep), *rank_keep = calloc(np + 1, sizeof *rank_keep);
    scope_rank_bytes *out = calloc(np + 1, sizeof *out);
    int rc = keep && rank_keep && out ? 0 : reader_fail(err, "out of memory");
    if (rc == 0)
        rc = reader_apply_filter(f, flt, keep, rank_keep, err);
    for (size_t r = 0; rc == 0 && r < nr; r++)
        keep[r] = keep[r] && scope_region_payload_family(f, r) == family;
    if (rc == 0)
        rc = reader_load_payload(f, keep, rank_keep, err);
    for (size_t ri = 0; rc == 0 && ri < np; ri++) {
        if (!rank_keep[ri])
            continue;
        scope_rank_bytes *rb = &out[n++];
        rb->rank = f->ranks[ri];
        for (size_t r = 0; r < nr; r++) {
            const series *s = keep[r] ? reader_series(f, r, ri) : NULL;
            if (!s || s->family != family)
                continue;
            rb->calls += s->payload.count;
            for (size_t i = 0; i < s->payload.count; i++)
                rb->bytes += (uint64_t)s->payload.bytes[i];
        }
    }
    free(keep);
    free(rank_keep);
    if (rc < 0) {
        free(out);
        return NULL;
    }
    *count = n;
    return out;
}
