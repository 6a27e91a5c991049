/* merge_wire.c: encoders and decoders of the merge's messages
 * (merge_wire.h). */
#include "merge_wire.h"
#include "profile_wire.h"

#include <stdlib.h>
#include <string.h>

/* Fixed parts; strings follow them. */
struct rank_fixed {
    int64_t pid, run_start_time, clock_offset_ns, dropped_events, nregions;
    int64_t ncallpaths;            /* -1: no call paths (trace mode) */
    int64_t trace_limit_passed_ns;
    uint64_t host_len;
};
struct region_fixed {
    uint64_t address, calls, unfinished, profile_len, npeers;
    int64_t self_ns;
    uint32_t name_len, symbol_len, library_len, clones_len, payload_len, has_self;
    uint32_t peer_family_len, pad;
};

/* A region's peer totals travel as four columns, in this order. */
static const size_t peer_column_size[4] = {sizeof(int32_t), sizeof(int8_t), sizeof(int64_t),
                                           sizeof(int64_t)};
#define PEER_ROW (sizeof(int32_t) + sizeof(int8_t) + 2 * sizeof(int64_t))

static void *peer_column(const struct scope_peer_totals *p, int c)
{
    const void *const columns[] = {p->peer, p->direction, p->messages, p->bytes};
    return (void *)columns[c];
}

static size_t put_string(char *buf, size_t at, const char *s, uint32_t *len)
{
    *len = s ? (uint32_t)strlen(s) : 0;
    if (*len)
        memcpy(buf + at, s, *len);
    return at + *len;
}

size_t scope_wire_rank_encode(char *buf, const struct scope_wire_rank *rank)
{
    struct rank_fixed f = {rank->pid, rank->run_start_time, rank->clock_offset_ns,
                           rank->dropped_events, rank->nregions,
                           rank->callpath_parents ? rank->ncallpaths : -1,
                           rank->trace_limit_passed_ns, 0};
    uint32_t host_len;
    size_t len = put_string(buf, sizeof(f), rank->hostname, &host_len);
    f.host_len = host_len;
    if (rank->callpath_parents)
        len += scope_wire_parents_encode(buf + len, rank->callpath_parents,
                                         (size_t)rank->ncallpaths);
    memcpy(buf, &f, sizeof(f));
    return len;
}

int scope_wire_rank_decode(const char *buf, size_t len, struct scope_wire_rank *rank)
{
    struct rank_fixed f;
    *rank = (struct scope_wire_rank){0};
    if (len < sizeof(f))
        return -1;
    memcpy(&f, buf, sizeof(f));
    if (f.host_len > len - sizeof(f))
        return -1;
    const char *rest = buf + sizeof(f) + f.host_len;
    size_t rest_len = len - sizeof(f) - f.host_len;
    *rank = (struct scope_wire_rank){f.pid, f.run_start_time, f.clock_offset_ns,
                                     f.dropped_events, f.nregions,
                                     strndup(buf + sizeof(f), f.host_len), NULL, f.ncallpaths,
                                     f.trace_limit_passed_ns};
    if (f.ncallpaths >= 0 &&
        !(rank->callpath_parents = scope_wire_parents_decode(rest, rest_len, (size_t)f.ncallpaths)))
        return -1;
    return rank->hostname ? 0 : -1;
}

size_t scope_wire_region_encode(char *buf, const struct scope_region_info *info, uint64_t calls)
{
    struct region_fixed f = {.address = info->address, .calls = calls,
                             .unfinished = info->unfinished, .self_ns = info->self_ns,
                             .has_self = (uint32_t)info->has_self};
    size_t at = put_string(buf, sizeof(f), info->name, &f.name_len);
    at = put_string(buf, at, info->symbol, &f.symbol_len);
    at = put_string(buf, at, info->library, &f.library_len);
    at = put_string(buf, at, info->clones, &f.clones_len);
    at = put_string(buf, at, info->payload, &f.payload_len);
    if (info->profile)
        f.profile_len = scope_wire_profile_encode(buf + at, info->profile);
    at += f.profile_len;
    if (info->peers && (info->peers->n || info->peers->family)) {
        f.npeers = info->peers->n;
        at = put_string(buf, at, info->peers->family, &f.peer_family_len);
    }
    memcpy(buf, &f, sizeof(f));
    return at;
}

/* Room for a region's n peer-total rows and its family (family_len bytes
 * of buf), malloc'd in one block (the struct, its columns, the family);
 * NULL when the family is cut or out of memory. */
static struct scope_peer_totals *peers_new(const char *buf, size_t len, uint64_t n,
                                           uint32_t family_len)
{
    if (family_len != len || n > SIZE_MAX / (2 * PEER_ROW))
        return NULL;
    char *block = malloc(sizeof(struct scope_peer_totals) + n * PEER_ROW + family_len + 1);
    if (!block)
        return NULL;
    struct scope_peer_totals *p = (struct scope_peer_totals *)block;
    /* int64 columns first: aligned after the struct */
    char *at = block + sizeof *p;
    p->n = n;
    p->messages = (int64_t *)at;
    p->bytes = (int64_t *)(at + n * sizeof(int64_t));
    p->peer = (int32_t *)(at + 2 * n * sizeof(int64_t));
    p->direction = (int8_t *)(at + 2 * n * sizeof(int64_t) + n * sizeof(int32_t));
    char *family = block + sizeof *p + n * PEER_ROW;
    memcpy(family, buf, family_len);
    family[family_len] = '\0';
    p->family = family_len ? family : NULL;
    return p;
}

int scope_wire_region_decode(const char *buf, size_t len, struct scope_region_info *info,
                             uint64_t *calls)
{
    struct region_fixed f;
    *info = (struct scope_region_info){0};
    if (len < sizeof(f))
        return -1;
    memcpy(&f, buf, sizeof(f));
    uint64_t strings = (uint64_t)f.name_len + f.symbol_len + f.library_len + f.clones_len +
                       f.payload_len;
    if (strings > len - sizeof(f) || f.profile_len > len - sizeof(f) - strings)
        return -1;
    const char *p = buf + sizeof(f);
    const char *payload = p + f.name_len + f.symbol_len + f.library_len + f.clones_len;
    *info = (struct scope_region_info){
        .name = strndup(p, f.name_len),
        .symbol = strndup(p + f.name_len, f.symbol_len),
        .library = strndup(p + f.name_len + f.symbol_len, f.library_len),
        .clones = strndup(p + f.name_len + f.symbol_len + f.library_len, f.clones_len),
        .address = f.address, .unfinished = f.unfinished, .has_self = (int)f.has_self,
        .self_ns = f.self_ns,
        .payload = f.payload_len ? strndup(payload, f.payload_len) : NULL};
    if (f.profile_len &&
        !(info->profile = scope_wire_profile_decode(p + strings, f.profile_len)))
        return -1;
    size_t before_peers = sizeof(f) + strings + f.profile_len;
    if ((f.npeers || f.peer_family_len) &&
        !(info->peers = peers_new(buf + before_peers, len - before_peers, f.npeers,
                                  f.peer_family_len)))
        return -1;
    *calls = f.calls;
    return info->name && info->symbol && info->library && info->clones &&
                   (!f.payload_len || info->payload) ? 0 : -1;
}

uint64_t scope_wire_region_peer_rows(const char *buf, size_t len)
{
    struct region_fixed f;
    if (len < sizeof(f))
        return 0;
    memcpy(&f, buf, sizeof(f));
    return f.npeers;
}

/* A message of peer-total rows: which, then each column's values. */
struct peers_fixed {
    uint64_t from, count;
};

size_t scope_wire_peers_max_rows(void)
{
    return (SCOPE_WIRE_MESSAGE_BYTES - sizeof(struct peers_fixed)) / PEER_ROW;
}

size_t scope_wire_peers_encode(char *buf, const struct scope_peer_totals *p, size_t from,
                               size_t count)
{
    struct peers_fixed f = {from, count};
    memcpy(buf, &f, sizeof f);
    size_t at = sizeof f;
    for (int c = 0; c < 4; c++) {
        memcpy(buf + at, (const char *)peer_column(p, c) + from * peer_column_size[c],
               count * peer_column_size[c]);
        at += count * peer_column_size[c];
    }
    return at;
}

int scope_wire_peers_decode(const char *buf, size_t len, struct scope_peer_totals *p,
                            size_t *filled)
{
    struct peers_fixed f = {0, 0};
    if (len >= sizeof f)
        memcpy(&f, buf, sizeof f);
    if (len < sizeof f || f.count == 0 || f.count != (len - sizeof f) / PEER_ROW ||
        f.count * PEER_ROW != len - sizeof f) {
        *filled = SIZE_MAX;
        return -1;
    }
    size_t at = *filled;
    *filled += f.count;
    if (!p || f.from != at || at > p->n || f.count > p->n - at)
        return -1;
    buf += sizeof f;
    for (int c = 0; c < 4; c++) {
        memcpy((char *)peer_column(p, c) + at * peer_column_size[c], buf,
               f.count * peer_column_size[c]);
        buf += f.count * peer_column_size[c];
    }
    return 0;
}

void scope_wire_region_free(struct scope_region_info *info)
{
    free((char *)info->name);
    free((char *)info->symbol);
    free((char *)info->library);
    free((char *)info->clones);
    free((char *)info->payload);
    scope_wire_profile_free((struct scope_region_profile *)info->profile);
    free((struct scope_peer_totals *)info->peers);
    *info = (struct scope_region_info){0};
}

/* A window: its fixed part, then each column's bytes. */
struct window_fixed {
    uint64_t n, chunk, bytes[REGION_NCOLUMNS];
    int32_t group, extensible, last, has_threads, has_callsites, has_payload, values;
    struct call_stats stats;
};

size_t scope_wire_window_encode(char *buf, const struct region_window *win)
{
    struct window_fixed f = {.n = win->n, .chunk = win->chunk, .group = win->group,
                             .extensible = win->extensible, .last = win->last,
                             .has_threads = win->has_threads,
                             .has_callsites = win->has_callsites,
                             .has_payload = win->has_payload, .values = win->values,
                             .stats = win->stats};
    size_t at = sizeof(f);
    for (int c = 0; c < REGION_NCOLUMNS; c++) {
        f.bytes[c] = win->data[c] ? win->bytes[c] : 0;
        if (f.bytes[c])
            memcpy(buf + at, win->data[c], f.bytes[c]);
        at += f.bytes[c];
    }
    memcpy(buf, &f, sizeof(f));
    return at;
}

int scope_wire_window_decode(const char *buf, size_t len, struct region_window *win)
{
    struct window_fixed f;
    if (len < sizeof(f))
        return -1;
    memcpy(&f, buf, sizeof(f));
    *win = (struct region_window){.n = f.n, .chunk = f.chunk, .group = f.group,
                                  .extensible = f.extensible, .last = f.last,
                                  .has_threads = f.has_threads,
                                  .has_callsites = f.has_callsites,
                                  .has_payload = f.has_payload, .values = f.values,
                                  .stats = f.stats};
    size_t at = sizeof(f);
    for (int c = 0; c < REGION_NCOLUMNS; c++) {
        if (f.bytes[c] > len - at)
            return -1;
        win->bytes[c] = f.bytes[c];
        win->data[c] = (const unsigned char *)buf + at;
        at += f.bytes[c];
    }
    return at == len ? 0 : -1;
}
