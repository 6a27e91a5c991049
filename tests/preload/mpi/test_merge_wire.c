/* test_merge_wire.c: Check unit tests of the merge's messages: what a rank
 * encodes, rank 0 decodes unchanged (rank facts, region facts with their
 * clones, peer totals in messages of rows, also beyond one message's worth,
 * windows of encoded calls), and a short message is refused. */
#include <check.h>

#include "check_main.h"
#include "merge_wire.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static char *buf;

START_TEST(region_round_trip)
{
    struct scope_region_info in = {.name = "weigh(pair const&)", .symbol = "_Z5weighRK4pair.isra.0",
                                   .library = "/bin/app", .address = 0x12d0, .clones = "isra.0", .unfinished = 3,
                                   .has_self = 1, .self_ns = 42};
    size_t len = scope_wire_region_encode(buf, &in, 10);
    struct scope_region_info out;
    uint64_t calls;
    ck_assert_int_eq(scope_wire_region_decode(buf, len, &out, &calls), 0);
    ck_assert_uint_eq(calls, 10);
    ck_assert_str_eq(out.name, in.name);
    ck_assert_str_eq(out.symbol, in.symbol);
    ck_assert_str_eq(out.library, in.library);
    ck_assert_str_eq(out.clones, "isra.0");
    ck_assert_uint_eq(out.address, 0x12d0);
    ck_assert_uint_eq(out.unfinished, 3);
    ck_assert_int_eq(out.has_self, 1);
    ck_assert_int_eq(out.self_ns, 42);
    scope_wire_region_free(&out);
    /* a region without clones or symbol: empty strings */
    in.clones = in.symbol = NULL;
    len = scope_wire_region_encode(buf, &in, 1);
    ck_assert_int_eq(scope_wire_region_decode(buf, len, &out, &calls), 0);
    ck_assert_str_eq(out.clones, "");
    ck_assert_str_eq(out.symbol, "");
    scope_wire_region_free(&out);
    /* cut short: refused */
    ck_assert_int_eq(scope_wire_region_decode(buf, len - 1, &out, &calls), -1);
    scope_wire_region_free(&out);
}
END_TEST

START_TEST(rank_round_trip)
{
    struct scope_wire_rank in = {1234, 5, -6, 7, 3, "node17", NULL, -1, 987654321}, out;
    size_t len = scope_wire_rank_encode(buf, &in);
    ck_assert_int_eq(scope_wire_rank_decode(buf, len, &out), 0);
    ck_assert_int_eq(out.pid, 1234);
    ck_assert_int_eq(out.trace_limit_passed_ns, 987654321);
    ck_assert_int_eq(out.clock_offset_ns, -6);
    ck_assert_int_eq(out.dropped_events, 7);
    ck_assert_int_eq(out.nregions, 3);
    ck_assert_str_eq(out.hostname, "node17");
    ck_assert_ptr_null(out.callpath_parents);
    free(out.hostname);
    ck_assert_int_eq(scope_wire_rank_decode(buf, 8, &out), -1);
    /* profile mode: the call paths' parents follow the host name */
    int32_t parents[] = {-1, 0, 1, 0};
    in.callpath_parents = parents;
    in.ncallpaths = 4;
    len = scope_wire_rank_encode(buf, &in);
    ck_assert_int_eq(scope_wire_rank_decode(buf, len, &out), 0);
    ck_assert_str_eq(out.hostname, "node17");
    ck_assert_int_eq(out.ncallpaths, 4);
    ck_assert_mem_eq(out.callpath_parents, parents, sizeof parents);
    free(out.hostname);
    free(out.callpath_parents);
    ck_assert_int_eq(scope_wire_rank_decode(buf, len - 1, &out), -1);
    free(out.hostname);
}
END_TEST

/* Profile mode: a region's statistics, histogram and call paths (with
 * their call sites when it has them) travel with its facts. */
START_TEST(profile_round_trip)
{
    int32_t ids[] = {3, 7};
    int64_t calls[] = {10, 20}, total[] = {100, 400}, self[] = {50, 300};
    struct scope_region_profile p = {.stats = {.calls = 31, .total_ns = 520, .min_ns = 2,
                                               .max_ns = 90, .m2_ns2 = 12.5},
                                     .self_ns = 360, .pathless_calls = 1, .npaths = 2,
                                     .path_ids = ids, .path_calls = calls,
                                     .path_total_ns = total, .path_self_ns = self};
    p.histogram[3] = 30;
    p.histogram[6] = 1;
    struct scope_region_info in = {.name = "solve", .profile = &p}, out;
    uint64_t n;
    size_t len = scope_wire_region_encode(buf, &in, 0);
    ck_assert_int_eq(scope_wire_region_decode(buf, len, &out, &n), 0);
    ck_assert_str_eq(out.name, "solve");
    ck_assert_ptr_nonnull(out.profile);
    ck_assert_int_eq(out.profile->stats.calls, 31);
    ck_assert_double_eq(out.profile->stats.m2_ns2, 12.5);
    ck_assert_int_eq(out.profile->self_ns, 360);
    ck_assert_int_eq(out.profile->pathless_calls, 1);
    ck_assert_int_eq(out.profile->folded, 0);
    ck_assert_int_eq(out.profile->histogram[3], 30);
    ck_assert_int_eq(out.profile->histogram[6], 1);
    ck_assert_uint_eq(out.profile->npaths, 2);
    ck_assert_mem_eq(out.profile->path_ids, ids, sizeof ids);
    ck_assert_mem_eq(out.profile->path_calls, calls, sizeof calls);
    ck_assert_mem_eq(out.profile->path_total_ns, total, sizeof total);
    ck_assert_mem_eq(out.profile->path_self_ns, self, sizeof self);
    ck_assert_ptr_null(out.profile->path_sites);
    scope_wire_region_free(&out);
    ck_assert_int_eq(scope_wire_region_decode(buf, len - 1, &out, &n), -1);
    scope_wire_region_free(&out);
    /* paths with call sites: their ids travel too */
    int32_t sites[] = {-1, 5};
    p.path_sites = sites;
    len = scope_wire_region_encode(buf, &in, 0);
    ck_assert_int_eq(scope_wire_region_decode(buf, len, &out, &n), 0);
    ck_assert_ptr_nonnull(out.profile->path_sites);
    ck_assert_mem_eq(out.profile->path_sites, sites, sizeof sites);
    ck_assert_mem_eq(out.profile->path_self_ns, self, sizeof self);
    scope_wire_region_free(&out);
    ck_assert_int_eq(scope_wire_region_decode(buf, len - 1, &out, &n), -1);
    scope_wire_region_free(&out);
    p.path_sites = NULL;
    /* a trace's folded calls (min_duration, trace_limit) say so */
    p.folded = 1;
    len = scope_wire_region_encode(buf, &in, 5);
    ck_assert_int_eq(scope_wire_region_decode(buf, len, &out, &n), 0);
    ck_assert_int_eq(out.profile->folded, 1);
    ck_assert_uint_eq(n, 5);
    scope_wire_region_free(&out);
}
END_TEST

/* A region's peer totals, with a profile before them and with its family,
 * through the wire: the region message says how many rows and the family,
 * a message of rows fills them; any cut refused. */
START_TEST(peers_round_trip)
{
    int32_t peer[] = {0, 0, 5};
    int8_t direction[] = {0, 1, 0};
    int64_t messages[] = {3, 4, 1}, bytes[] = {300, 0, 1LL << 40};
    struct scope_peer_totals t = {"p2p", 3, peer, direction, messages, bytes};
    struct scope_region_profile p = {.stats = {.calls = 8}, .npaths = 0};
    struct scope_region_info in = {.name = "MPI_Isend", .profile = &p, .peers = &t}, out;
    uint64_t n;
    size_t len = scope_wire_region_encode(buf, &in, 0);
    ck_assert_uint_eq(scope_wire_region_peer_rows(buf, len), 3);
    ck_assert_int_eq(scope_wire_region_decode(buf, len, &out, &n), 0);
    for (size_t cut = 1; cut < 30; cut++) {
        struct scope_region_info short_info;
        ck_assert_int_eq(scope_wire_region_decode(buf, len - cut, &short_info, &n), -1);
        scope_wire_region_free(&short_info);
    }
    ck_assert_ptr_nonnull(out.peers);
    ck_assert_uint_eq(out.peers->n, 3);
    ck_assert_str_eq(out.peers->family, "p2p");
    ck_assert_int_eq(out.profile->stats.calls, 8);
    len = scope_wire_peers_encode(buf, &t, 0, 3);
    size_t filled = 0;
    for (size_t cut = 1; cut < len; cut += 7) {
        ck_assert_int_eq(scope_wire_peers_decode(buf, len - cut, NULL, &filled), -1);
        ck_assert_uint_eq(filled, SIZE_MAX);
        filled = 0;
    }
    ck_assert_int_eq(scope_wire_peers_decode(buf, len, (struct scope_peer_totals *)out.peers,
                                             &filled), 0);
    ck_assert_uint_eq(filled, 3);
    ck_assert_mem_eq(out.peers->peer, peer, sizeof peer);
    ck_assert_mem_eq(out.peers->direction, direction, sizeof direction);
    ck_assert_mem_eq(out.peers->messages, messages, sizeof messages);
    ck_assert_mem_eq(out.peers->bytes, bytes, sizeof bytes);
    /* one row too many: refused, but counted (the receiver stops after it) */
    ck_assert_int_eq(scope_wire_peers_decode(buf, len, (struct scope_peer_totals *)out.peers,
                                             &filled), -1);
    ck_assert_uint_eq(filled, 6);
    scope_wire_region_free(&out);
}
END_TEST

/* A region with more peer totals than one message holds (over 350 000
 * (peer, direction) pairs) travels in two messages of rows, every row
 * arriving: none dropped. */
START_TEST(peers_beyond_one_message)
{
    size_t most = scope_wire_peers_max_rows(), rows = most + 1000;
    ck_assert_uint_gt(most, 300000);
    int32_t *peer = malloc(rows * sizeof *peer);
    int8_t *direction = malloc(rows);
    int64_t *messages = malloc(rows * sizeof *messages), *bytes = malloc(rows * sizeof *bytes);
    for (size_t i = 0; i < rows; i++) {
        peer[i] = (int32_t)(i / 2);
        direction[i] = (int8_t)(i % 2);
        messages[i] = (int64_t)i + 1;
        bytes[i] = 8 * (int64_t)i;
    }
    struct scope_peer_totals t = {"collective", rows, peer, direction, messages, bytes};
    struct scope_region_info in = {.name = "MPI_Alltoallv", .peers = &t}, out;
    uint64_t n;
    size_t len = scope_wire_region_encode(buf, &in, 0);
    ck_assert_int_eq(scope_wire_region_decode(buf, len, &out, &n), 0);
    ck_assert_uint_eq(out.peers->n, rows);
    size_t filled = 0, messages_sent = 0;
    for (size_t from = 0; from < rows; from += most, messages_sent++) {
        len = scope_wire_peers_encode(buf, &t, from, rows - from < most ? rows - from : most);
        ck_assert_uint_le(len, SCOPE_WIRE_MESSAGE_BYTES);
        ck_assert_int_eq(scope_wire_peers_decode(buf, len, (struct scope_peer_totals *)out.peers,
                                                 &filled), 0);
    }
    ck_assert_uint_eq(messages_sent, 2);
    ck_assert_uint_eq(filled, rows);
    ck_assert_mem_eq(out.peers->peer, peer, rows * sizeof *peer);
    ck_assert_mem_eq(out.peers->direction, direction, rows);
    ck_assert_mem_eq(out.peers->messages, messages, rows * sizeof *messages);
    ck_assert_mem_eq(out.peers->bytes, bytes, rows * sizeof *bytes);
    ck_assert_str_eq(out.peers->family, "collective");
    scope_wire_region_free(&out);
    free(peer);
    free(direction);
    free(messages);
    free(bytes);
}
END_TEST

/* A window as an encoder hands it over, through the wire: the same fields
 * and bytes; any cut refused. */
START_TEST(window_round_trip)
{
    static const unsigned char start[] = {1, 2, 3}, end[] = {4, 5}, thread[] = {6};
    struct region_window in = {.n = 70000, .chunk = REGION_WINDOW, .extensible = 1, .last = 1,
                               .has_callsites = 0, .bytes = {3, 2, 1, 0},
                               .data = {start, end, thread, NULL},
                               .stats = {.calls = 70000, .total_ns = 9, .mean_ns = 0.5}};
    size_t len = scope_wire_window_encode(buf, &in);
    struct region_window out;
    ck_assert_int_eq(scope_wire_window_decode(buf, len, &out), 0);
    ck_assert_uint_eq(out.n, 70000);
    ck_assert_uint_eq(out.chunk, REGION_WINDOW);
    ck_assert_int_eq(out.extensible, 1);
    ck_assert_int_eq(out.last, 1);
    ck_assert_int_eq(out.has_callsites, 0);
    ck_assert_uint_eq(out.bytes[0], 3);
    ck_assert_uint_eq(out.bytes[3], 0);
    ck_assert_mem_eq(out.data[0], start, 3);
    ck_assert_mem_eq(out.data[1], end, 2);
    ck_assert_mem_eq(out.data[2], thread, 1);
    ck_assert_int_eq(out.stats.calls, 70000);
    ck_assert_double_eq(out.stats.mean_ns, 0.5);
    ck_assert_int_eq(scope_wire_window_decode(buf, len - 1, &out), -1);
    ck_assert_int_eq(scope_wire_window_decode(buf, 10, &out), -1);
}
END_TEST

int main(void)
{
    buf = malloc(SCOPE_WIRE_MESSAGE_BYTES);
    Suite *s = suite_create("merge_wire");
    TCase *tc = tcase_create("wire");
    tcase_add_test(tc, region_round_trip);
    tcase_add_test(tc, rank_round_trip);
    tcase_add_test(tc, profile_round_trip);
    tcase_add_test(tc, peers_round_trip);
    tcase_add_test(tc, peers_beyond_one_message);
    tcase_add_test(tc, window_round_trip);
    suite_add_tcase(s, tc);
    return scope_check_run(s);
}
