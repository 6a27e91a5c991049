/* reader_peers.c: a region's peer totals on one rank (peer_ranks,
 * peer_directions, peer_messages, peer_bytes), checked as they are read:
 * equal lengths, directions 0, 1 or 2, peers world ranks (-1 too for
 * direction 2), no negative counts; the totals of direction 2 (the bytes
 * of calls not stored as rows that no message carried) added up apart. */
#include "reader_h5.h"

#include <stdint.h>
#include <stdlib.h>

static int read_totals(const scope_file *f, const series *s, scope_peer_total **out,
                       size_t *count, reader_call_totals *calls, scope_error *err)
{
    hid_t g = H5Gopen2(f->h5, s->where, H5P_DEFAULT);
    if (g < 0)
        return reader_fail(err, "%s: cannot open the group", s->where);
    int32_t *peer = NULL;
    int8_t *direction = NULL;
    int64_t *messages = NULL, *bytes = NULL;
    size_t n = SIZE_MAX;
    int rc = 0;
    if (s->peer_family != SCOPE_PAYLOAD_NONE)
        rc = h5_read_vector(g, "peer_ranks", H5T_NATIVE_INT32, sizeof *peer, (void **)&peer, &n,
                            s->where, err) < 0 ||
                     h5_read_vector(g, "peer_directions", H5T_NATIVE_INT8, sizeof *direction,
                                    (void **)&direction, &n, s->where, err) < 0 ||
                     h5_read_vector(g, "peer_messages", H5T_NATIVE_INT64, sizeof *messages,
                                    (void **)&messages, &n, s->where, err) < 0 ||
                     h5_read_vector(g, "peer_bytes", H5T_NATIVE_INT64, sizeof *bytes,
                                    (void **)&bytes, &n, s->where, err) < 0
                 ? -1 : 0;
    else
        n = 0;
    H5Gclose(g);
    *out = rc == 0 ? malloc((n ? n : 1) * sizeof **out) : NULL;
    if (rc == 0 && !*out)
        rc = reader_fail(err, "out of memory");
    size_t kept = 0;
    *calls = (reader_call_totals){0};
    for (size_t i = 0; rc == 0 && i < n; i++) {
        if (direction[i] < 0 || direction[i] > 2 || peer[i] < (direction[i] == 2 ? -1 : 0) ||
            messages[i] < 0 || bytes[i] < 0) {
            rc = reader_fail(err, "%s: peer totals %zu: peer %d, direction %d, %lld messages, "
                             "%lld bytes", s->where, i, peer[i], direction[i],
                             (long long)messages[i], (long long)bytes[i]);
        } else if (direction[i] == 2) {
            calls->bytes += (uint64_t)bytes[i];
        } else {
            calls->peer_bytes += (uint64_t)bytes[i];
            (*out)[kept++] = (scope_peer_total){peer[i], direction[i], (uint64_t)messages[i],
                                                (uint64_t)bytes[i]};
        }
    }
    free(peer);
    free(direction);
    free(messages);
    free(bytes);
    if (rc != 0) {
        free(*out);
        *out = NULL;
        return -1;
    }
    *count = kept;
    return 0;
}

scope_peer_total *scope_region_peer_totals(const scope_file *f, size_t region, int rank,
                                           size_t *count, scope_error *err)
{
    *count = 0;
    long ri = reader_rank_index(f, rank);
    const series *s = ri >= 0 && region < f->n_regions ? reader_series(f, region, (size_t)ri)
                                                       : NULL;
    if (!s)
        return calloc(1, sizeof(scope_peer_total));
    scope_peer_total *out = NULL;
    reader_call_totals calls;
    h5_quiet q = reader_hold(f);
    read_totals(f, s, &out, count, &calls, err);
    reader_release(f, q);
    return out;
}

int reader_region_call_totals(const scope_file *f, size_t region, size_t ri,
                              reader_call_totals *calls, scope_error *err)
{
    *calls = (reader_call_totals){0};
    const series *s = region < f->n_regions ? reader_series(f, region, ri) : NULL;
    if (!s || s->peer_family == SCOPE_PAYLOAD_NONE)
        return 0;
    scope_peer_total *totals = NULL;
    size_t n = 0;
    h5_quiet q = reader_hold(f);
    int rc = read_totals(f, s, &totals, &n, calls, err);
    reader_release(f, q);
    free(totals);
    return rc;
}
