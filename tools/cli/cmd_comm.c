/* scope comm: who sent how much to whom (the point-to-point matrix of
 * scope_comm_matrix), its totals with whether every byte sent was
 * received, and with --collectives the bytes collectives moved per rank
 * and the v and w forms' bytes per pair (scope_collective_pairs). */
#include "cli.h"

#include <stdlib.h>

static void totals_table(const scope_comm_pair *m, size_t n, report *out)
{
    uint64_t sent[2] = {0, 0}, received[2] = {0, 0}; /* messages, bytes */
    for (size_t i = 0; i < n; i++) {
        sent[0] += m[i].messages;
        sent[1] += m[i].bytes;
        received[0] += m[i].recv_messages;
        received[1] += m[i].recv_bytes;
    }
    table *t = report_table(out, "totals", true);
    static const char *const names[] = {"messages_sent", "bytes_sent", "messages_received",
                                        "bytes_received"};
    const uint64_t values[] = {sent[0], sent[1], received[0], received[1]};
    table_column(t, "pairs", COL_INT);
    for (size_t c = 0; c < 4; c++)
        table_column(t, names[c], COL_INT);
    table_column(t, "sent_equals_received", COL_TEXT);
    table_int(t, (int64_t)n);
    for (size_t c = 0; c < 4; c++)
        table_int(t, (int64_t)values[c]);
    table_text(t, sent[0] == received[0] && sent[1] == received[1] ? "yes" : "no");
}

static int collectives_table(const scope_file *f, const scope_filter *flt, report *out,
                             scope_error *err)
{
    size_t n = 0;
    scope_rank_bytes *rb = scope_family_bytes(f, flt, SCOPE_PAYLOAD_COLLECTIVE, &n, err);
    if (!rb)
        return -1;
    table *t = report_table(out, "collectives", false);
    table_column(t, "rank", COL_INT);
    table_column(t, "calls", COL_INT);
    table_column(t, "bytes", COL_INT);
    for (size_t i = 0; i < n; i++) {
        table_int(t, rb[i].rank);
        table_int(t, (int64_t)rb[i].calls);
        table_int(t, (int64_t)rb[i].bytes);
    }
    free(rb);
    size_t np = 0;
    scope_collective_pair *pairs = scope_collective_pairs(f, flt, &np, err);
    if (!pairs)
        return -1;
    t = report_table(out, "collective_pairs", false);
    table_column(t, "region", COL_TEXT);
    table_column(t, "sender", COL_INT);
    table_column(t, "receiver", COL_INT);
    table_column(t, "calls", COL_INT);
    table_column(t, "bytes", COL_INT);
    table_column(t, "received_bytes", COL_INT);
    for (size_t i = 0; i < np; i++) {
        table_text(t, scope_region_name(f, pairs[i].region));
        table_int(t, pairs[i].sender);
        table_int(t, pairs[i].receiver);
        table_int(t, (int64_t)pairs[i].calls);
        table_int(t, (int64_t)pairs[i].bytes);
        table_int(t, (int64_t)pairs[i].recv_bytes);
    }
    free(pairs);
    return 0;
}

static int run(scope_file *f, const cli_options *opt, report *out, scope_error *err)
{
    scope_filter flt;
    size_t n = 0;
    if (cli_matrix_filter(f, opt, &flt, err) < 0)
        return -1;
    scope_comm_pair *m = scope_comm_matrix(f, &flt, &n, err);
    if (!m)
        return -1;
    table *t = report_table(out, "matrix", false);
    table_column(t, "sender", COL_INT);
    table_column(t, "receiver", COL_INT);
    table_column(t, "messages", COL_INT);
    table_column(t, "bytes", COL_INT);
    for (size_t i = 0; i < n; i++) {
        table_int(t, m[i].sender);
        table_int(t, m[i].receiver);
        table_int(t, (int64_t)m[i].messages);
        table_int(t, (int64_t)m[i].bytes);
    }
    if (opt->format != FORMAT_CSV) /* csv: the matrix alone, for scripts */
        totals_table(m, n, out);
    free(m);
    return opt->collectives ? collectives_table(f, &flt, out, err) : 0;
}

const cli_command cmd_comm = {
    .name = "comm",
    .summary = "who sent how much to whom: the point-to-point matrix; bytes of collectives",
    .description =
        "The point-to-point communication matrix of a run that recorded MPI payload\n"
        "(an MPI config): one row per sender and receiver (world ranks) with the\n"
        "messages and bytes the sender sent (csv: exactly sender,receiver,messages,\n"
        "bytes). The table and json add the totals sent and received (from the\n"
        "receivers' records) and whether they are equal. --ranks keeps the messages\n"
        "of those senders; --include/--exclude select regions on both sides (so\n"
        "--include MPI_Isend keeps sends without their receives). The messages of\n"
        "calls not stored one by one (a profile, folded calls) count from their\n"
        "peer totals, so a profile's matrix is the trace's. --collectives adds per\n"
        "rank the calls of collectives and the bytes they moved (what left the\n"
        "rank's send buffer), then per region, sender and receiver the bytes of the\n"
        "v and w collectives (Alltoallv/w, Gatherv, Scatterv, Allgatherv,\n"
        "Reduce_scatter): calls, bytes sent, and bytes received by the receiver.\n"
        "A file without payload is an error with a hint.",
    .example = "scope comm profiling_data.h5 --format csv --collectives",
    .options = OPT_REGIONS | OPT_RANKS | OPT_SORT | OPT_TOP | OPT_COLLECTIVES,
    .run = run,
};
