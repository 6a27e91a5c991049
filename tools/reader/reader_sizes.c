/* Message sizes per MPI function in powers of two: point-to-point regions
 * count each message they sent or completed (its own size, from the
 * message rows), the others each call (the bytes it moved). */
#include "reader_internal.h"

#include <stdlib.h>

size_t scope_size_bin(int64_t bytes)
{
    return bytes <= 0 ? 0 : (size_t)(64 - __builtin_clzll((unsigned long long)bytes));
}

static void add_size(scope_size_histogram *h, int64_t bytes)
{
    h->min_bytes = h->count == 0 || bytes < h->min_bytes ? bytes : h->min_bytes;
    h->max_bytes = h->count == 0 || bytes > h->max_bytes ? bytes : h->max_bytes;
    h->count++;
    h->total_bytes += (uint64_t)bytes;
    h->bins[scope_size_bin(bytes)]++;
}

scope_size_histogram *scope_message_sizes(const scope_file *f, const scope_filter *flt,
                                          size_t *count, scope_error *err)
{
    size_t nr = f->n_regions, np = f->n_ranks, n = 0;
    reader_selection sel;
    scope_size_histogram *out = calloc(nr + 1, sizeof *out);
    int rc = reader_select(f, flt, &sel, err);
    if (rc == 0 && !out)
        rc = reader_fail(err, "out of memory");
    const bool *keep = sel.keep, *rank_keep = sel.rank_keep;
    if (rc == 0)
        rc = reader_load_payload(f, keep, rank_keep, PAYLOAD_ALL, err);
    for (size_t r = 0; rc == 0 && r < nr; r++) {
        scope_payload_family family = keep[r] ? scope_region_payload_family(f, r)
                                              : SCOPE_PAYLOAD_NONE;
        if (family == SCOPE_PAYLOAD_NONE)
            continue;
        scope_size_histogram *h = &out[n++];
        h->region = r;
        h->family = family;
        for (size_t ri = 0; ri < np; ri++) {
            const series *s = rank_keep[ri] ? reader_series(f, r, ri) : NULL;
            if (!s || s->family == SCOPE_PAYLOAD_NONE)
                continue;
            /* by family, not by the datasets: files of older versions
             * have empty message datasets for collectives */
            const scope_payload *p = reader_payload_of(s);
            int by_message = family == SCOPE_PAYLOAD_P2P && s->has_messages;
            h->messages |= by_message;
            for (size_t i = 0; by_message && i < p->n_messages; i++)
                add_size(h, p->msg_bytes[i]);
            for (size_t i = 0; !by_message && i < p->count; i++)
                add_size(h, p->bytes[i]);
        }
    }
    reader_selection_free(&sel);
    return reader_rows(out, n, rc, count);
}
