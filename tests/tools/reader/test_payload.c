/* Check unit tests of what MPI calls carried (fx_payload: a 4-rank ring of
 * Isend/Irecv/Waitall, a Sendrecv on a Cartesian communicator, Alltoallv
 * and Bcast from root 2): the payload columns per region and rank, the
 * communicators, the point-to-point matrix with its receive side, the
 * bytes of collectives per rank, the bytes in the summary and per call
 * site, the message sizes, events, sends matched to receives, the filters, damaged files, and files without payload. Each with and without the writer's statistics. */
#include "fixtures.h"
#include "scope_reader.h"

#include <check.h>

#include "check_main.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static scope_file *open_payload(bool stats, fx_payload_damage damage, scope_error *err)
{
    char path[256];
    snprintf(path, sizeof path, "/tmp/scope-payload-test-%d.h5", (int)getpid());
    fx_payload(path, damage);
    if (stats)
        fx_add_stats(path);
    scope_file *f = scope_open(path, err);
    unlink(path);
    return f;
}

static scope_file *open_good(bool stats)
{
    scope_error err = {{0}};
    scope_file *f = open_payload(stats, FX_PAYLOAD_OK, &err);
    ck_assert_msg(f != NULL, "open: %s", err.message);
    return f;
}

static size_t region(const scope_file *f, const char *name)
{
    long r = scope_region_find(f, name);
    ck_assert_msg(r >= 0, "no region %s", name);
    return (size_t)r;
}

START_TEST(columns_per_region_and_rank)
{
    scope_file *f = open_good(_i);
    scope_error err = {{0}};
    ck_assert(scope_has_payload(f));
    ck_assert_int_eq(scope_region_payload_family(f, region(f, "MPI_Isend")), SCOPE_PAYLOAD_P2P);
    ck_assert_int_eq(scope_region_payload_family(f, region(f, "MPI_Bcast")),
                     SCOPE_PAYLOAD_COLLECTIVE);
    ck_assert_int_eq(scope_region_payload_family(f, region(f, "main")), SCOPE_PAYLOAD_NONE);
    ck_assert_str_eq(scope_payload_family_name(SCOPE_PAYLOAD_COLLECTIVE), "collective");
    ck_assert(scope_region_has_payload(f, region(f, "MPI_Bcast"), 3));
    ck_assert(!scope_region_has_payload(f, region(f, "main"), 3));
    ck_assert(!scope_region_has_payload(f, region(f, "MPI_Bcast"), 4));
    ck_assert_ptr_null(scope_region_payload(f, region(f, "main"), 0, &err));
    ck_assert_str_eq(err.message, "no MPI payload for region 0 on rank 0");

    const scope_payload *p = scope_region_payload(f, region(f, "MPI_Isend"), 3, &err);
    ck_assert_msg(p != NULL, "%s", err.message);
    ck_assert_uint_eq(p->count, 2);
    ck_assert_int_eq(p->bytes[0], 400);
    ck_assert_int_eq(p->bytes[1], 800);
    ck_assert_int_eq(p->peer[1], 0);
    ck_assert_int_eq(p->tag[0], 7);
    ck_assert_int_eq(p->comm[0], 0);
    ck_assert_uint_eq(p->n_messages, 2);
    ck_assert_int_eq(p->msg_call[1], 1);
    ck_assert_int_eq(p->msg_kind[1], 0);
    ck_assert_int_eq(p->msg_peer[1], 0);
    ck_assert_int_eq(p->msg_bytes[1], 800);

    p = scope_region_payload(f, region(f, "MPI_Waitall"), 0, &err);
    ck_assert_int_eq(p->peer[0], 3); /* ANY_SOURCE resolved: prev of 0 */
    ck_assert_int_eq(p->msg_kind[0], 1);
    ck_assert_int_eq(p->msg_bytes[1], 800);
    p = scope_region_payload(f, region(f, "MPI_Irecv"), 0, &err);
    ck_assert_uint_eq(p->n_messages, 0);
    ck_assert_int_eq(p->peer[1], -1);
    p = scope_region_payload(f, region(f, "MPI_Sendrecv"), 1, &err);
    ck_assert_int_eq(p->bytes[0], 16);
    ck_assert_int_eq(p->comm[0], 1);
    ck_assert_int_eq(p->msg_peer[0], 0);
    ck_assert_int_eq(p->msg_peer[1], 2);
    p = scope_region_payload(f, region(f, "MPI_Bcast"), 2, &err);
    ck_assert_int_eq(p->bytes[0], 1024);
    ck_assert_int_eq(p->peer[0], 2);
    ck_assert_ptr_null(p->msg_call);
    ck_assert_ptr_null(scope_region_payload(f, region(f, "MPI_Bcast"), 9, &err));
    scope_close(f);
}
END_TEST

START_TEST(communicators)
{
    scope_file *f = open_good(_i);
    size_t size = 0;
    ck_assert_uint_eq(scope_communicator_count(f), 2);
    const int32_t *m = scope_communicator_members(f, 1, &size);
    ck_assert_uint_eq(size, 4);
    ck_assert_int_eq(m[0], 2);
    ck_assert_int_eq(m[1], 0);
    ck_assert_int_eq(m[3], 1);
    ck_assert_int_eq(scope_communicator_members(f, 0, &size)[2], 2);
    ck_assert_ptr_null(scope_communicator_members(f, 2, &size));
    scope_close(f);
}
END_TEST

START_TEST(matrix)
{
    scope_file *f = open_good(_i);
    scope_error err = {{0}};
    size_t n = 0;
    scope_comm_pair *m = scope_comm_matrix(f, NULL, &n, &err);
    ck_assert_msg(m != NULL, "%s", err.message);
    static const scope_comm_pair want[] = {
        {0, 1, 2, 300, 2, 300}, {0, 3, 1, 8, 1, 8}, {1, 0, 1, 8, 1, 8}, {1, 2, 2, 600, 2, 600},
        {2, 1, 1, 8, 1, 8}, {2, 3, 2, 900, 2, 900}, {3, 0, 2, 1200, 2, 1200}, {3, 2, 1, 8, 1, 8},
    };
    ck_assert_uint_eq(n, 8);
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(memcmp(&m[i], &want[i], sizeof *m) == 0,
                      "pair %zu: %d -> %d %lu msgs %lu bytes, received %lu %lu", i, m[i].sender,
                      m[i].receiver, (unsigned long)m[i].messages, (unsigned long)m[i].bytes,
                      (unsigned long)m[i].recv_messages, (unsigned long)m[i].recv_bytes);
    free(m);

    /* --ranks selects senders; the receive side still comes from the receivers */
    const int ranks[] = {3};
    scope_filter flt = {.ranks = ranks, .n_ranks = 1};
    m = scope_comm_matrix(f, &flt, &n, &err);
    ck_assert_uint_eq(n, 2);
    ck_assert_int_eq(m[0].receiver, 0);
    ck_assert_uint_eq(m[0].bytes, 1200);
    ck_assert_uint_eq(m[0].recv_bytes, 1200);
    ck_assert_uint_eq(m[1].bytes, 8);
    free(m);

    /* regions on both sides: only the sends kept, nothing received */
    const char *inc[] = {"^MPI_Isend$"};
    flt = (scope_filter){.include = inc, .n_include = 1};
    m = scope_comm_matrix(f, &flt, &n, &err);
    ck_assert_uint_eq(n, 4);
    ck_assert_uint_eq(m[3].bytes, 1200);
    ck_assert_uint_eq(m[3].recv_messages, 0);
    free(m);
    /* the matrix read the message rows alone: the columns per call follow */
    const scope_payload *p = scope_region_payload(f, region(f, "MPI_Isend"), 3, &err);
    ck_assert_msg(p != NULL, "%s", err.message);
    ck_assert_uint_eq(p->count, 2);
    ck_assert_int_eq(p->bytes[0], 400);
    ck_assert_uint_eq(p->n_messages, 2);
    ck_assert_int_eq(p->msg_bytes[1], 800);
    const int bad_rank[] = {7};
    flt = (scope_filter){.ranks = bad_rank, .n_ranks = 1};
    ck_assert_ptr_null(scope_comm_matrix(f, &flt, &n, &err));
    scope_close(f);
}
END_TEST

START_TEST(collective_bytes_per_rank)
{
    scope_file *f = open_good(_i);
    scope_error err = {{0}};
    size_t n = 0;
    scope_rank_bytes *rb = scope_family_bytes(f, NULL, SCOPE_PAYLOAD_COLLECTIVE, &n, &err);
    ck_assert_msg(rb != NULL, "%s", err.message);
    ck_assert_uint_eq(n, 4);
    const uint64_t want[] = {40, 80, 1144, 160};
    for (size_t i = 0; i < 4; i++) {
        ck_assert_int_eq(rb[i].rank, (int)i);
        ck_assert_uint_eq(rb[i].calls, 2);
        ck_assert_uint_eq(rb[i].bytes, want[i]);
    }
    free(rb);
    const char *exc[] = {"Bcast"};
    const int ranks[] = {2};
    scope_filter flt = {.exclude = exc, .n_exclude = 1, .ranks = ranks, .n_ranks = 1};
    rb = scope_family_bytes(f, &flt, SCOPE_PAYLOAD_COLLECTIVE, &n, &err);
    ck_assert_uint_eq(n, 1);
    ck_assert_uint_eq(rb[0].calls, 1);
    ck_assert_uint_eq(rb[0].bytes, 120);
    free(rb);
    rb = scope_family_bytes(f, NULL, SCOPE_PAYLOAD_P2P, &n, &err);
    ck_assert_uint_eq(rb[0].calls, 7); /* Isend 2, Irecv 2, Waitall 2, Sendrecv 1 */
    ck_assert_uint_eq(rb[0].bytes, 300 + 1200 + 16);
    free(rb);
    scope_close(f);
}
END_TEST

START_TEST(collective_pairs)
{
    scope_file *f = open_good(_i);
    scope_error err = {{0}};
    size_t n = 0;
    size_t alltoallv = region(f, "MPI_Alltoallv");
    scope_peer_total *t = scope_region_peer_totals(f, alltoallv, 2, &n, &err);
    ck_assert_msg(t != NULL, "%s", err.message);
    ck_assert_uint_eq(n, 8);
    ck_assert_int_eq(t[5].peer, 2);
    ck_assert_int_eq(t[5].direction, 1);
    ck_assert_uint_eq(t[5].bytes, 30);
    ck_assert_uint_eq(t[6].bytes, 30);   /* rank 2 sends 10(2+1) to rank 3 */
    free(t);
    t = scope_region_peer_totals(f, region(f, "MPI_Bcast"), 2, &n, &err);
    ck_assert(t != NULL && n == 0);
    free(t);
    const int ranks[] = {1};
    scope_filter flt = {.ranks = ranks, .n_ranks = 1};
    scope_collective_pair *p = scope_collective_pairs(f, &flt, &n, &err);
    ck_assert_msg(p != NULL, "%s", err.message);
    ck_assert_uint_eq(n, 4);
    for (size_t i = 0; i < 4; i++) {
        ck_assert_uint_eq(p[i].region, alltoallv);
        ck_assert_int_eq(p[i].sender, 1);
        ck_assert_int_eq(p[i].receiver, (int)i);
        ck_assert_uint_eq(p[i].calls, 1);
        ck_assert_uint_eq(p[i].bytes, 20);
        ck_assert_uint_eq(p[i].recv_calls, 1);
        ck_assert_uint_eq(p[i].recv_bytes, 20);
    }
    free(p);
    scope_close(f);
}
END_TEST

START_TEST(summary_bytes)
{
    scope_file *f = open_good(_i);
    scope_error err = {{0}};
    size_t n = 0;
    scope_region_stats *st = scope_summary(f, NULL, &n, &err);
    ck_assert_msg(st != NULL, "%s", err.message);
    static const struct {
        const char *name;
        bool has;
        uint64_t bytes;
        double mean;
    } want[] = {
        {"main", false, 0, 0}, {"MPI_Irecv", true, 0, 0}, {"MPI_Isend", true, 3000, 375},
        {"MPI_Waitall", true, 3000, 375}, {"MPI_Sendrecv", true, 64, 16},
        {"MPI_Alltoallv", true, 400, 100}, {"MPI_Bcast", true, 1024, 256},
    };
    ck_assert_uint_eq(n, 7);
    for (size_t i = 0; i < n; i++) {
        ck_assert_str_eq(scope_region_name(f, st[i].region), want[i].name);
        ck_assert_int_eq(st[i].has_bytes, want[i].has);
        ck_assert_uint_eq(st[i].bytes, want[i].bytes);
        if (want[i].has)
            ck_assert_double_eq(st[i].mean_bytes, want[i].mean);
    }
    free(st);
    const int ranks[] = {2};
    scope_filter flt = {.ranks = ranks, .n_ranks = 1};
    st = scope_summary(f, &flt, &n, &err);
    ck_assert_uint_eq(st[6].bytes, 1024);
    ck_assert_double_eq(st[6].mean_bytes, 1024);
    ck_assert_uint_eq(st[2].bytes, 900);
    free(st);
    scope_close(f);
}
END_TEST

START_TEST(callsite_message_sizes)
{
    scope_file *f = open_good(_i);
    scope_error err = {{0}};
    size_t n = 0;
    scope_callsite_stats *st = scope_callsites(f, NULL, &n, &err);
    ck_assert_msg(st != NULL, "%s", err.message);
    ck_assert_uint_eq(n, 2);
    ck_assert_int_eq(st[0].callsite, 0);
    ck_assert_uint_eq(st[0].calls, 4);
    ck_assert(st[0].has_bytes);
    ck_assert_int_eq(st[0].min_bytes, 100);
    ck_assert_int_eq(st[0].max_bytes, 400);
    ck_assert_uint_eq(st[0].total_bytes, 1000);
    ck_assert_double_eq(st[0].mean_bytes, 250);
    ck_assert_int_eq(st[1].min_bytes, 200);
    ck_assert_int_eq(st[1].max_bytes, 800);
    ck_assert_uint_eq(st[1].total_bytes, 2000);
    free(st);
    const int ranks[] = {1, 3};
    scope_filter flt = {.ranks = ranks, .n_ranks = 2};
    st = scope_callsites(f, &flt, &n, &err);
    ck_assert_int_eq(st[1].min_bytes, 400);
    ck_assert_double_eq(st[1].mean_bytes, 600);
    free(st);
    scope_close(f);
}
END_TEST

START_TEST(size_histogram)
{
    ck_assert_uint_eq(scope_size_bin(0), 0);
    ck_assert_uint_eq(scope_size_bin(1), 1);
    ck_assert_uint_eq(scope_size_bin(3), 2);
    ck_assert_uint_eq(scope_size_bin(4), 3);
    ck_assert_uint_eq(scope_size_bin(1023), 10);
    ck_assert_uint_eq(scope_size_bin(1024), 11);
    ck_assert_uint_eq(scope_size_bin(INT64_MAX), 63);
    scope_file *f = open_good(_i);
    scope_error err = {{0}};
    size_t n = 0;
    scope_size_histogram *h = scope_message_sizes(f, NULL, &n, &err);
    ck_assert_msg(h != NULL, "%s", err.message);
    ck_assert_uint_eq(n, 6); /* main has no payload */
    ck_assert_str_eq(scope_region_name(f, h[0].region), "MPI_Irecv");
    ck_assert(h[0].messages);
    ck_assert_uint_eq(h[0].count, 0);
    /* Isend: 100 200 300 400, then 200 400 600 800 */
    ck_assert_uint_eq(h[1].count, 8);
    ck_assert_uint_eq(h[1].bins[7], 1);
    ck_assert_uint_eq(h[1].bins[8], 2);
    ck_assert_uint_eq(h[1].bins[9], 3);
    ck_assert_uint_eq(h[1].bins[10], 2);
    ck_assert_int_eq(h[1].min_bytes, 100);
    ck_assert_int_eq(h[1].max_bytes, 800);
    ck_assert_uint_eq(h[1].total_bytes, 3000);
    ck_assert_uint_eq(h[3].bins[4], 8); /* Sendrecv: 8 messages of 8 bytes */
    ck_assert(!h[5].messages);          /* Bcast: calls, 0 0 1024 0 */
    ck_assert_uint_eq(h[5].bins[0], 3);
    ck_assert_uint_eq(h[5].bins[11], 1);
    free(h);
    const char *inc[] = {"Bcast"};
    const int ranks[] = {0, 1};
    scope_filter flt = {.include = inc, .n_include = 1, .ranks = ranks, .n_ranks = 2};
    h = scope_message_sizes(f, &flt, &n, &err);
    ck_assert_uint_eq(n, 1);
    ck_assert_uint_eq(h[0].bins[0], 2);
    ck_assert_uint_eq(h[0].bins[11], 0);
    free(h);
    scope_close(f);
}
END_TEST

START_TEST(events_carry_payload)
{
    scope_file *f = open_good(_i);
    scope_error err = {{0}};
    const int ranks[] = {1};
    const char *inc[] = {"main", "Waitall", "Bcast"};
    scope_filter flt = {.include = inc, .n_include = 3, .ranks = ranks, .n_ranks = 1};
    size_t n = 0;
    scope_event *ev = scope_events(f, &flt, &n, &err);
    ck_assert_msg(ev != NULL, "%s", err.message);
    ck_assert_uint_eq(n, 4);
    ck_assert_str_eq(ev[0].name, "main");
    ck_assert(!ev[0].has_payload);
    ck_assert_int_eq(ev[0].bytes, -1);
    ck_assert_int_eq(ev[0].peer, -1);
    ck_assert_str_eq(ev[2].name, "MPI_Waitall");
    ck_assert(ev[2].has_payload);
    ck_assert_int_eq(ev[2].bytes, 200);
    ck_assert_int_eq(ev[2].peer, 0);
    ck_assert_int_eq(ev[2].tag, 7);
    ck_assert_int_eq(ev[2].comm, 0);
    ck_assert_int_eq(ev[3].bytes, 0);   /* Bcast on a non-root rank */
    ck_assert_int_eq(ev[3].peer, 2);
    free(ev);
    scope_close(f);
}
END_TEST

START_TEST(flows_match_in_order)
{
    scope_file *f = open_good(_i);
    scope_error err = {{0}};
    size_t n = 0, unmatched = 9;
    scope_message_flow *fl = scope_message_flows(f, &n, &unmatched, &err);
    ck_assert_msg(fl != NULL, "%s", err.message);
    ck_assert_uint_eq(n, 12);
    ck_assert_uint_eq(unmatched, 0);
    size_t isend = region(f, "MPI_Isend"), waitall = region(f, "MPI_Waitall"),
           sendrecv = region(f, "MPI_Sendrecv");
    for (size_t i = 0; i < n; i++) {
        int r = fl[i].sender;
        ck_assert_int_eq(r, (int)(i / 3)); /* per sender: Isend 0, Isend 1, Sendrecv */
        if (fl[i].send_region == isend) {
            size_t k = fl[i].send_call;
            ck_assert_int_eq(fl[i].receiver, (r + 1) % 4);
            ck_assert_int_eq(fl[i].bytes, 100 * (r + 1) * (int)(k + 1));
            ck_assert_uint_eq(fl[i].recv_region, waitall);
            ck_assert_uint_eq(fl[i].recv_call, k); /* the k-th send, the k-th receive */
            ck_assert_int_eq(fl[i].tag, 7);
        } else {
            ck_assert_uint_eq(fl[i].send_region, sendrecv);
            ck_assert_uint_eq(fl[i].recv_region, sendrecv);
            ck_assert_int_eq(fl[i].receiver, (r + 3) % 4);
            ck_assert_int_eq(fl[i].comm, 1);
            ck_assert_int_eq(fl[i].bytes, 8);
        }
    }
    free(fl);
    scope_close(f);
}
END_TEST

START_TEST(damaged_payload)
{
    static const struct {
        fx_payload_damage damage;
        const char *message;
    } cases[] = {
        {FX_PAYLOAD_SHORT_BYTES, "rank0/regions/MPI_Isend: 1 bytes but 2 calls"},
        {FX_PAYLOAD_BAD_COMM, "rank2/regions/MPI_Isend: message 1: call 1 of 2, kind 0, peer 3, "
                              "bytes 600, comm 2 out of range"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        scope_error err = {{0}};
        scope_file *f = open_payload(_i, cases[i].damage, &err);
        ck_assert_msg(f != NULL, "%s", err.message); /* read on first use */
        ck_assert_ptr_null(scope_region_payload(f, region(f, "MPI_Isend"), 3, &err));
        ck_assert_str_eq(err.message, cases[i].message);
        size_t n = 0; /* what reads the damaged part fails alike */
        void *out = cases[i].damage == FX_PAYLOAD_SHORT_BYTES
                        ? (void *)scope_summary(f, NULL, &n, &err)
                        : (void *)scope_comm_matrix(f, NULL, &n, &err);
        ck_assert_ptr_null(out);
        ck_assert_str_eq(err.message, cases[i].message);
        scope_close(f);
    }
    scope_error err = {{0}};
    ck_assert_ptr_null(open_payload(_i, FX_PAYLOAD_BAD_FAMILY, &err));
    ck_assert_str_eq(err.message, "rank1/regions/MPI_Isend: mpi_payload 'pt2pt' is not p2p, "
                                  "collective, rma or io");
}
END_TEST

START_TEST(files_without_payload)
{
    char path[256];
    snprintf(path, sizeof path, "/tmp/scope-payload-none-%d.h5", (int)getpid());
    fx_callsites(path, FX_SITE_OK);
    scope_error err = {{0}};
    scope_file *f = scope_open(path, &err);
    unlink(path);
    ck_assert(!scope_has_payload(f));
    ck_assert_uint_eq(scope_communicator_count(f), 0);
    size_t n = 9;
    scope_comm_pair *m = scope_comm_matrix(f, NULL, &n, &err);
    ck_assert_ptr_nonnull(m);
    ck_assert_uint_eq(n, 0);
    free(m);
    scope_callsite_stats *cs = scope_callsites(f, NULL, &n, &err);
    ck_assert(!cs[0].has_bytes);
    free(cs);
    scope_region_stats *st = scope_summary(f, NULL, &n, &err);
    ck_assert(!st[1].has_bytes);
    free(st);
    size_t unmatched = 9;
    scope_message_flow *fl = scope_message_flows(f, &n, &unmatched, &err);
    ck_assert_ptr_nonnull(fl);
    ck_assert_uint_eq(n + unmatched, 0);
    free(fl);
    scope_event *ev = scope_events(f, NULL, &n, &err);
    ck_assert(!ev[0].has_payload);
    free(ev);
    scope_rank_bytes *rb = scope_family_bytes(f, NULL, SCOPE_PAYLOAD_COLLECTIVE, &n, &err);
    ck_assert_uint_eq(n, 2);
    ck_assert_uint_eq(rb[1].calls + rb[1].bytes, 0);
    free(rb);
    scope_close(f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("reader-payload");
    TCase *tc = tcase_create("payload");
    /* _i: 0 without the writer's statistics, 1 with */
    tcase_add_loop_test(tc, columns_per_region_and_rank, 0, 2);
    tcase_add_loop_test(tc, communicators, 0, 2);
    tcase_add_loop_test(tc, matrix, 0, 2);
    tcase_add_loop_test(tc, collective_bytes_per_rank, 0, 2);
    tcase_add_loop_test(tc, collective_pairs, 0, 2);
    tcase_add_loop_test(tc, summary_bytes, 0, 2);
    tcase_add_loop_test(tc, callsite_message_sizes, 0, 2);
    tcase_add_loop_test(tc, size_histogram, 0, 2);
    tcase_add_loop_test(tc, events_carry_payload, 0, 2);
    tcase_add_loop_test(tc, flows_match_in_order, 0, 2);
    tcase_add_loop_test(tc, damaged_payload, 0, 2);
    tcase_add_test(tc, files_without_payload);
    suite_add_tcase(s, tc);
    return scope_check_run(s);
}
