/* Chrome trace-event JSON (chrome://tracing, ui.perfetto.dev): one process
 * per rank, one track per thread, an "X" (complete) event per call in
 * call-stack order, so parents come before the children they contain, with
 * what MPI calls carried in their args; then an arrow ("s"/"f" flow
 * events) from each matched send to the call that received it. */
#include "callsite_text.h"
#include "escape.h"
#include "export.h"
#include "selection.h"

#include <inttypes.h>
#include <stdlib.h>

/* The rank's distinct thread ids in order of first call; NULL: no memory. */
static int *thread_ids(const scope_call *calls, size_t n, size_t *n_threads)
{
    int *tids = malloc((n + 1) * sizeof *tids);
    *n_threads = 0;
    for (size_t i = 0; tids && i < n; i++) {
        size_t k = 0;
        while (k < *n_threads && tids[k] != calls[i].thread_id)
            k++;
        if (k == *n_threads)
            tids[(*n_threads)++] = calls[i].thread_id;
    }
    return tids;
}

/* Start the next element of traceEvents. */
static void next_event(FILE *out, bool *first)
{
    fputs(*first ? "\n{" : ",\n{", out);
    *first = false;
}

static void metadata(FILE *out, bool *first, const char *what, int pid, int tid,
                     const char *name, int sort_index)
{
    next_event(out, first);
    fprintf(out, "\"ph\": \"M\", \"name\": \"%s\", \"pid\": %d, \"tid\": %d, \"args\": {",
            what, pid, tid);
    if (name) {
        fputs("\"name\": ", out);
        escape_json(name, out);
    } else {
        fprintf(out, "\"sort_index\": %d", sort_index);
    }
    fputs("}}", out);
}

static void microseconds(FILE *out, const char *key, int64_t ns)
{
    /* exact: ns / 1000 with three decimals, no rounding through a double */
    int64_t a = ns < 0 ? -ns : ns;
    fprintf(out, "\"%s\": %s%" PRId64 ".%03" PRId64, key, ns < 0 ? "-" : "", a / 1000, a % 1000);
}

/* The payload of each kept region with one on the rank (NULL for the
 * others); NULL on error. */
static const scope_payload **rank_payloads(const scope_file *f, int rank, const bool *keep,
                                           scope_error *err)
{
    size_t nr = scope_region_count(f);
    const scope_payload **pay = calloc(nr + 1, sizeof *pay);
    if (!pay)
        snprintf(err->message, sizeof err->message, "out of memory");
    for (size_t r = 0; pay && r < nr; r++) {
        if (!keep[r] || !scope_region_has_payload(f, r, rank))
            continue;
        if (!(pay[r] = scope_region_payload(f, r, rank, err))) {
            free(pay);
            return NULL;
        }
    }
    return pay;
}

/* What an MPI call carried, in its args. */
static void payload_args(FILE *out, const scope_payload *p, size_t i)
{
    fprintf(out, ", \"bytes\": %" PRId64 ", \"peer\": %d, \"tag\": %d, \"comm\": %d",
            p->bytes[i], p->peer[i], p->tag[i], p->comm[i]);
    if (p->offset)
        fprintf(out, ", \"offset\": %" PRId64, p->offset[i]);
}

/* The argument and return value columns of the rank's selected regions:
 * [region * SCOPE_VALUE_SLOTS + slot], NULL where not recorded. */
static const int64_t **rank_values(const scope_file *f, int rank, const bool *keep,
                                   scope_error *err)
{
    size_t nr = scope_region_count(f);
    const int64_t **vals = calloc(nr * SCOPE_VALUE_SLOTS + 1, sizeof *vals);
    if (!vals)
        snprintf(err->message, sizeof err->message, "out of memory");
    for (size_t r = 0; vals && r < nr; r++) {
        unsigned mask = keep[r] ? scope_region_values(f, r) : 0;
        for (size_t v = 0; v < SCOPE_VALUE_SLOTS; v++) {
            if (!(mask & (1u << v)))
                continue;
            const int64_t *col = scope_region_value_column(f, r, rank, v, err);
            if (!col && err->message[0]) {
                free(vals);
                return NULL;
            }
            vals[r * SCOPE_VALUE_SLOTS + v] = col;
        }
    }
    return vals;
}

static int write_rank(const scope_file *f, int rank, const bool *keep, int64_t origin,
                      FILE *out, bool *first, scope_error *err)
{
    size_t n = 0, n_threads = 0;
    scope_call *calls = scope_call_stack(f, rank, &n, err);
    int *tids = calls ? thread_ids(calls, n, &n_threads) : NULL;
    const scope_payload **pay = tids ? rank_payloads(f, rank, keep, err) : NULL;
    const int64_t **vals = pay ? rank_values(f, rank, keep, err) : NULL;
    if (!vals) {
        free(pay);
        free(tids);
        free(calls);
        return -1;
    }
    char label[64];
    snprintf(label, sizeof label, "rank %d", rank);
    metadata(out, first, "process_name", rank, 0, label, 0);
    metadata(out, first, "process_sort_index", rank, 0, NULL, rank);
    for (size_t k = 0; k < n_threads; k++) {
        if (scope_has_thread_ids(f))
            snprintf(label, sizeof label, "thread %d", tids[k]);
        metadata(out, first, "thread_name", rank, tids[k], label, 0);
        metadata(out, first, "thread_sort_index", rank, tids[k], NULL, (int)k);
    }
    for (size_t i = 0; i < n; i++) {
        const scope_call *c = &calls[i];
        if (!keep[c->region])
            continue;
        next_event(out, first);
        fputs("\"ph\": \"X\", \"name\": ", out);
        escape_json(c->name, out);
        fprintf(out, ", \"cat\": \"region\", \"pid\": %d, \"tid\": %d, ", rank, c->thread_id);
        microseconds(out, "ts", c->start_ns - origin);
        fputs(", ", out);
        microseconds(out, "dur", c->end_ns - c->start_ns);
        fprintf(out, ", \"args\": {\"call_index\": %zu, \"call_id\": %zu, \"depth\": %d",
                c->call_index, i, c->depth);
        if (c->callsite >= 0) {
            char stack[4096];
            fprintf(out, ", \"callsite_id\": %ld, \"callsite\": ", c->callsite);
            escape_json(callsite_text(f, c->callsite, 0, scope_callsite_depth(f), " < ", stack,
                                      sizeof stack), out);
        }
        if (pay[c->region])
            payload_args(out, pay[c->region], c->call_index);
        for (size_t v = 0; v < SCOPE_VALUE_SLOTS; v++) {
            const int64_t *col = vals[c->region * SCOPE_VALUE_SLOTS + v];
            if (col)
                fprintf(out, ", \"%s\": %" PRId64, scope_value_name(v), col[c->call_index]);
        }
        fputs("}}", out);
    }
    free(vals);
    free(pay);
    free(tids);
    free(calls);
    return 0;
}

/* One end of a message's arrow: "s" on the call that sent it, "f" on the
 * call that completed its receive (bound to that call: "bp": "e"). */
static void flow_end(const scope_file *f, FILE *out, bool *first, const char *phase,
                     size_t id, int rank, size_t region, size_t call, int64_t origin)
{
    const scope_series *s = scope_region_on_rank(f, region, rank); /* read by the matching */
    next_event(out, first);
    fprintf(out, "\"ph\": \"%s\", %s\"id\": %zu, \"name\": \"message\", \"cat\": \"mpi\", "
            "\"pid\": %d, \"tid\": %d, ", phase, phase[0] == 'f' ? "\"bp\": \"e\", " : "", id,
            rank, s->thread_ids ? s->thread_ids[call] : 0);
    microseconds(out, "ts", s->start_ns[call] - origin);
    fputc('}', out);
}

static bool has_rank(const int *ranks, size_t n, int rank)
{
    for (size_t i = 0; i < n; i++)
        if (ranks[i] == rank)
            return true;
    return false;
}

/* An arrow per matched message whose two calls are written. */
static int write_flows(const scope_file *f, const bool *keep, const int *ranks, size_t n_ranks,
                       int64_t origin, FILE *out, bool *first, scope_error *err)
{
    size_t n = 0, unmatched = 0;
    scope_message_flow *fl = scope_message_flows(f, &n, &unmatched, err);
    if (!fl)
        return -1;
    for (size_t i = 0; i < n; i++) {
        const scope_message_flow *m = &fl[i];
        if (!keep[m->send_region] || !keep[m->recv_region] ||
            !has_rank(ranks, n_ranks, m->sender) || !has_rank(ranks, n_ranks, m->receiver))
            continue;
        flow_end(f, out, first, "s", i + 1, m->sender, m->send_region, m->send_call, origin);
        flow_end(f, out, first, "f", i + 1, m->receiver, m->recv_region, m->recv_call, origin);
    }
    free(fl);
    return 0;
}

int export_chrome(const scope_file *f, const scope_filter *flt, FILE *out, scope_error *err)
{
    size_t n_ranks = 0;
    bool *keep = selected_regions(f, flt, err);
    int *ranks = keep ? selected_ranks(f, flt, &n_ranks, err) : NULL;
    int rc = ranks ? 0 : -1;
    int64_t origin = scope_filter_origin_ns(f, flt);
    bool first = true;
    if (rc == 0) {
        fputs("{\"displayTimeUnit\": \"ms\", \"otherData\": {\"file\": ", out);
        escape_json(scope_file_path(f), out);
        fprintf(out, ", \"origin_ns\": %" PRId64 "},\n\"traceEvents\": [", origin);
    }
    for (size_t i = 0; rc == 0 && i < n_ranks; i++)
        rc = write_rank(f, ranks[i], keep, origin, out, &first, err);
    if (rc == 0 && scope_has_payload(f))
        rc = write_flows(f, keep, ranks, n_ranks, origin, out, &first, err);
    if (rc == 0)
        fputs("\n]}\n", out);
    free(keep);
    free(ranks);
    return rc;
}
