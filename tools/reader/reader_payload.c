/* What MPI calls carried (the mpi_payload datasets of a region group):
 * the family of a region, found at open, and its columns, read on first
 * use in one batch like the calls (reader_columns.c), the columns per call
 * and the message rows each when asked for, checked against the calls and
 * the file's communicators, kept in the series. */
#include "reader_columns.h"
#include "reader_h5.h"

#include <stdlib.h>
#include <string.h>

static const char *const family_names[] = {"", "p2p", "collective", "rma", "io"};

const char *scope_payload_family_name(scope_payload_family family)
{
    return (size_t)family < sizeof family_names / sizeof family_names[0] ? family_names[family]
                                                                          : "";
}

int reader_read_family(hid_t group, series *s, const char *where, scope_error *err)
{
    if (H5Aexists(group, "mpi_payload") <= 0)
        return 0;
    bool rows = h5_has_link(group, "bytes"), peers = h5_has_link(group, "peer_ranks");
    scope_meta m = {0};
    if (h5_read_attr(group, "mpi_payload", &m, err) < 0)
        return -1;
    scope_payload_family family = SCOPE_PAYLOAD_NONE;
    for (size_t k = 1; k < sizeof family_names / sizeof family_names[0]; k++)
        if (m.kind == SCOPE_META_STRING && strcmp(m.text, family_names[k]) == 0)
            family = (scope_payload_family)k;
    s->declared = family;
    s->family = rows ? family : SCOPE_PAYLOAD_NONE;
    s->peer_family = peers ? family : SCOPE_PAYLOAD_NONE;
    int rc = family != SCOPE_PAYLOAD_NONE
                 ? 0
                 : reader_fail(err, "%s: mpi_payload '%s' is not p2p, collective, rma or io",
                               where, m.text);
    h5_clear_meta(&m);
    s->has_messages = rc == 0 && h5_has_link(group, "msg_call");
    return rc;
}

/* The datasets, in the order of the arrays in scope_payload: the first
 * PER_CALL have a value per call, then one per message, and last the
 * offset per call of I/O regions. */
static const struct {
    const char *name;
    size_t size; /* bytes of a value: int64, int32 or int8 */
} columns[] = {
    {"bytes", 8}, {"peer", 4}, {"tag", 4}, {"comm", 4},
    {"msg_call", 8}, {"msg_kind", 1}, {"msg_peer", 4}, {"msg_bytes", 8}, {"msg_tag", 4},
    {"msg_comm", 4}, {"offset", 8},
};
#define N_COLUMNS (sizeof columns / sizeof columns[0])
#define PER_CALL 4
#define OFFSET (N_COLUMNS - 1)

static hid_t mem_type(size_t size)
{
    return size == 8 ? H5T_NATIVE_INT64 : size == 4 ? H5T_NATIVE_INT32 : H5T_NATIVE_INT8;
}

typedef struct reading {
    series *s;
    unsigned parts; /* PAYLOAD_* bits to read */
    void *data[N_COLUMNS];
    size_t len[N_COLUMNS];
} reading;

/* The columns of the parts asked for: [*first, *end), and the offset when
 * reads_offset says so. */
static void part_columns(unsigned parts, size_t *first, size_t *end)
{
    *first = parts & PAYLOAD_CALLS ? 0 : PER_CALL;
    *end = parts & PAYLOAD_MESSAGES ? OFFSET : PER_CALL;
}

static bool reads_offset(const reading *r)
{
    return (r->parts & PAYLOAD_CALLS) && r->s->family == SCOPE_PAYLOAD_IO;
}

static int plan(const scope_file *f, column_batch *b, reading *r, scope_error *err)
{
    const char *where = r->s->where;
    hid_t g = H5Gopen2(f->h5, where, H5P_DEFAULT);
    if (g < 0)
        return reader_fail(err, "%s: cannot open the group", where);
    int rc = 0;
    size_t first, end;
    part_columns(r->parts, &first, &end);
    for (size_t c = first; rc == 0 && c < end; c++)
        rc = reader_columns_add(b, g, columns[c].name, mem_type(columns[c].size), &r->data[c],
                                &r->len[c], where, err);
    if (rc == 0 && reads_offset(r))
        rc = reader_columns_add(b, g, columns[OFFSET].name, H5T_NATIVE_INT64, &r->data[OFFSET],
                                &r->len[OFFSET], where, err);
    H5Gclose(g);
    return rc;
}

/* A communicator id: -1, or a row of the file's table (any id >= 0 when
 * the file has none). */
static bool known_comm(const scope_file *f, int32_t id)
{
    return id >= -1 && (f->n_comms == 0 || id < (int64_t)f->n_comms);
}

static int check(const scope_file *f, const reading *r, scope_error *err)
{
    const series *s = r->s;
    size_t calls = s->pub.count, first, end;
    part_columns(r->parts, &first, &end);
    for (size_t c = first; c < end; c++) {
        size_t want = c < PER_CALL ? calls : r->len[PER_CALL];
        if (r->len[c] != want)
            return reader_fail(err, "%s: %zu %s but %zu %s", s->where, r->len[c],
                               columns[c].name, want, c < PER_CALL ? "calls" : "msg_call");
    }
    if (reads_offset(r) && r->len[OFFSET] != calls)
        return reader_fail(err, "%s: %zu offset but %zu calls", s->where, r->len[OFFSET], calls);
    const int64_t *bytes = r->data[0], *msg_call = r->data[4], *msg_bytes = r->data[7];
    const int32_t *peer = r->data[1], *comm = r->data[3], *msg_peer = r->data[6],
                  *msg_comm = r->data[9];
    const int8_t *kind = r->data[5];
    for (size_t i = 0; first == 0 && i < calls; i++)
        if (bytes[i] < 0 || peer[i] < -1 || !known_comm(f, comm[i]))
            return reader_fail(err, "%s: call %zu: bytes %lld, peer %d, comm %d out of range",
                               s->where, i, (long long)bytes[i], peer[i], comm[i]);
    for (size_t i = 0; end == OFFSET && i < r->len[PER_CALL]; i++)
        if (msg_call[i] < 0 || msg_call[i] >= (int64_t)calls || (kind[i] != 0 && kind[i] != 1) ||
            msg_peer[i] < 0 || msg_bytes[i] < 0 || !known_comm(f, msg_comm[i]))
            return reader_fail(err, "%s: message %zu: call %lld of %zu, kind %d, peer %d, "
                               "bytes %lld, comm %d out of range", s->where, i,
                               (long long)msg_call[i], calls, kind[i], msg_peer[i],
                               (long long)msg_bytes[i], msg_comm[i]);
    return 0;
}

const scope_payload *reader_payload_of(const series *s)
{
    static const scope_payload none;
    return s->payload ? s->payload : &none;
}

/* The columns read become the series' payload. */
static int keep_columns(series *s, reading *r, scope_error *err)
{
    if (!s->payload && !(s->payload = calloc(1, sizeof *s->payload)))
        return reader_fail(err, "out of memory");
    scope_payload *p = s->payload;
    if (r->parts & PAYLOAD_CALLS) {
        p->count = s->pub.count;
        p->bytes = r->data[0];
        p->peer = r->data[1];
        p->tag = r->data[2];
        p->comm = r->data[3];
        p->offset = r->data[OFFSET];
    }
    if (r->parts & PAYLOAD_MESSAGES) {
        p->n_messages = r->len[PER_CALL];
        p->msg_call = r->data[4];
        p->msg_kind = r->data[5];
        p->msg_peer = r->data[6];
        p->msg_bytes = r->data[7];
        p->msg_tag = r->data[8];
        p->msg_comm = r->data[9];
    }
    memset(r->data, 0, sizeof r->data);
    s->payload_parts |= r->parts;
    return 0;
}

void reader_free_payload(series *s)
{
    scope_payload *p = s->payload;
    if (p) {
        const void *arrays[] = {p->bytes, p->peer, p->tag, p->comm, p->msg_call, p->msg_kind,
                                p->msg_peer, p->msg_bytes, p->msg_tag, p->msg_comm, p->offset};
        for (size_t c = 0; c < N_COLUMNS; c++)
            free((void *)arrays[c]);
        free(p);
    }
    s->payload = NULL;
    s->payload_parts = 0;
}

/* The parts of s still to read: those asked for that it has. */
static unsigned missing_parts(const series *s, unsigned parts)
{
    unsigned has = s->family == SCOPE_PAYLOAD_NONE ? 0
                   : s->has_messages               ? PAYLOAD_ALL
                                                   : PAYLOAD_CALLS;
    return parts & has & ~s->payload_parts;
}

/* reader_load_payload with the file's lock held. */
static int load_locked(const scope_file *f, const bool *keep, const bool *rank_keep,
                       unsigned parts, scope_error *err)
{
    size_t n_series = f->n_regions * f->n_ranks, k = 0;
    reading *list = calloc(n_series + 1, sizeof *list);
    column_batch *b = reader_columns_new();
    int rc = list && b ? 0 : reader_fail(err, "out of memory");
    for (size_t r = 0; rc == 0 && r < f->n_regions; r++)
        for (size_t ri = 0; rc == 0 && ri < f->n_ranks && (!keep || keep[r]); ri++) {
            series *s = (series *)reader_series(f, r, ri);
            unsigned want = s && (!rank_keep || rank_keep[ri]) ? missing_parts(s, parts) : 0;
            if (!want)
                continue;
            list[k] = (reading){.s = s, .parts = want};
            rc = plan(f, b, &list[k++], err);
        }
    if (rc == 0)
        rc = reader_columns_run(b, 0, err);
    else
        reader_columns_free(b);
    for (size_t i = 0; rc == 0 && i < k; i++) {
        rc = check(f, &list[i], err);
        if (rc == 0)
            rc = keep_columns(list[i].s, &list[i], err);
    }
    for (size_t i = 0; list && i < k; i++)
        for (size_t c = 0; c < N_COLUMNS; c++)
            free(list[i].data[c]);
    free(list);
    return rc;
}

int reader_load_payload(const scope_file *f, const bool *keep, const bool *rank_keep,
                        unsigned parts, scope_error *err)
{
    if (!f->has_payload)
        return 0;
    h5_quiet q = reader_hold(f);
    int rc = load_locked(f, keep, rank_keep, parts, err);
    reader_release(f, q);
    return rc;
}

bool scope_has_payload(const scope_file *f)
{
    return f->has_payload;
}

bool scope_has_peer_totals(const scope_file *f)
{
    return f->has_peer_totals;
}

scope_payload_family scope_region_payload_family(const scope_file *f, size_t region)
{
    for (size_t ri = 0; region < f->n_regions && ri < f->n_ranks; ri++) {
        const series *s = reader_series(f, region, ri);
        if (s && s->family != SCOPE_PAYLOAD_NONE)
            return s->family;
    }
    return SCOPE_PAYLOAD_NONE;
}

bool scope_region_has_payload(const scope_file *f, size_t region, int rank)
{
    long ri = reader_rank_index(f, rank);
    const series *s = ri < 0 ? NULL : reader_series(f, region, (size_t)ri);
    return s && s->family != SCOPE_PAYLOAD_NONE;
}

const scope_payload *scope_region_payload(const scope_file *f, size_t region, int rank,
                                          scope_error *err)
{
    if (!scope_region_has_payload(f, region, rank)) {
        reader_fail(err, "no MPI payload for region %zu on rank %d", region, rank);
        return NULL;
    }
    const series *s = reader_series(f, region, (size_t)reader_rank_index(f, rank));
    if (!missing_parts(s, PAYLOAD_ALL))
        return reader_payload_of(s);
    bool *keep = calloc(f->n_regions, sizeof *keep);
    if (!keep) {
        reader_fail(err, "out of memory");
        return NULL;
    }
    keep[region] = true;
    int rc = reader_load_payload(f, keep, NULL, PAYLOAD_ALL, err);
    free(keep);
    return rc == 0 ? reader_payload_of(s) : NULL;
}
