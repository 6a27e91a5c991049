/* test_segment_decode.c: Check unit tests of decoding a thread's record
 * stream with call sites (record.h): a call followed by its call-site
 * record, stacks defined before use and redefined when the thread starts
 * its numbering again, definitions cut short by a kill, and the same events
 * whatever the batch size and wherever the spill file ends and the ring
 * (wrapping around its end) begins; payload items and communicator
 * definitions, whole and cut short; argument and return values; the
 * sites of call sites named once the reader is done (profile mode); the
 * last hook id read as a call, not as a marker. */
#include <check.h>

#include "check_main.h"
#include "segment_decode.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* The stream: calls a (hook 1, caller 0x401000), b (hook 2, stack 0 =
 * {0x402000, 0x403000, 0x404000}), c (hook 3, no call site), d (hook 2,
 * stack 0 again), e (hook 1, stack 0 redefined as {0x405000, 0x406000}),
 * f (hook 1, caller 0x401000 again) and a definition cut short by a kill
 * before g (hook 3, no call site). */
static size_t stream(struct scope_record *r)
{
    size_t n = 0;
    scope_record_encode(&r[n++], 10, 20, 1);
    scope_callsite_encode(&r[n++], 0x401000, 0);
    scope_stackdef_encode(&r[n++], 0, 3);
    r[n++] = (struct scope_record){0x402000, 0x403000};
    r[n++] = (struct scope_record){0x404000, 0};
    scope_record_encode(&r[n++], 30, 40, 2);
    scope_callsite_encode(&r[n++], 0x402000, 1);
    scope_record_encode(&r[n++], 50, 60, 3);
    scope_record_encode(&r[n++], 70, 80, 2);
    scope_callsite_encode(&r[n++], 0x402000, 1);
    scope_stackdef_encode(&r[n++], 0, 2);
    r[n++] = (struct scope_record){0x405000, 0x406000};
    scope_record_encode(&r[n++], 90, 100, 1);
    scope_callsite_encode(&r[n++], 0x405000, 1);
    scope_record_encode(&r[n++], 110, 120, 1);
    scope_callsite_encode(&r[n++], 0x401000, 0);
    scope_stackdef_encode(&r[n++], 1, 4);
    r[n++] = (struct scope_record){0, 0};   /* killed: the payload never came */
    scope_record_encode(&r[n++], 130, 140, 3);
    return n;
}

static void check_events(const struct scope_event *e, size_t n, struct scope_site_table *sites)
{
    static const struct { int64_t start; uint32_t hook; size_t depth; uint64_t caller; } want[] = {
        {10, 1, 1, 0x401000}, {30, 2, 3, 0x402000}, {50, 3, 0, 0}, {70, 2, 3, 0x402000},
        {90, 1, 2, 0x405000}, {110, 1, 1, 0x401000}, {130, 3, 0, 0},
    };
    ck_assert_uint_eq(n, 7);
    for (size_t i = 0; i < n; i++) {
        ck_assert_int_eq(e[i].start, want[i].start);
        ck_assert_int_eq(e[i].end, want[i].start + 10);
        ck_assert_uint_eq(e[i].hook, want[i].hook);
        if (!want[i].depth) {
            ck_assert_int_eq(e[i].callsite, -1);
            continue;
        }
        ck_assert_int_ge(e[i].callsite, 0);
        ck_assert_uint_eq(scope_site_depth(sites, (size_t)e[i].callsite), want[i].depth);
        ck_assert_uint_eq(scope_site_addrs(sites, (size_t)e[i].callsite)[0], want[i].caller);
    }
    ck_assert_int_eq(e[0].callsite, e[5].callsite);   /* the same caller: one site */
    ck_assert_int_eq(e[1].callsite, e[3].callsite);   /* the same stack */
    ck_assert_uint_eq(scope_site_addrs(sites, (size_t)e[1].callsite)[2], 0x404000);
    ck_assert_uint_eq(scope_site_addrs(sites, (size_t)e[4].callsite)[1], 0x406000);
    ck_assert_uint_eq(sites->nsites, 3);
}

/* Reads the stream with its first `in_spill` records in a spill file and
 * the rest in a ring of 24 slots (segment.h), `cap` events at a time. The
 * spill file begins with RING_BASE empty slots (the unused ends of earlier
 * slices), so that the ring's records wrap around its end. */
#define RING_SLOTS 24
#define RING_BASE 20
static void read_back(size_t in_spill, size_t cap)
{
    struct scope_record r[32], ring[RING_SLOTS] = {{0}}, empty[RING_BASE] = {{0}};
    size_t n = stream(r);
    char spill[64];
    snprintf(spill, sizeof spill, "/tmp/scope-test-decode-%d.spill", (int)getpid());
    FILE *f = fopen(spill, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(empty, sizeof(r[0]), RING_BASE, f), RING_BASE);
    ck_assert_uint_eq(fwrite(r, sizeof(r[0]), in_spill, f), in_spill);
    fclose(f);
    uint64_t spilled = RING_BASE + in_spill;
    for (size_t i = in_spill; i < n; i++)
        ring[(RING_BASE + i) % RING_SLOTS] = r[i];
    struct scope_thread_records t = {.spill_path = spill, .spilled = spilled, .records = ring,
                                     .capacity = RING_SLOTS, .ready = RING_SLOTS,
                                     .recycled = spilled};
    struct scope_clock_calibration ns = {0};
    struct scope_clock_map same;
    scope_clock_map_init(&same, &ns, &(struct scope_clock_offsets){0});
    struct scope_site_table sites;
    scope_site_table_init(&sites);
    static struct scope_record_reader in;
    scope_record_reader_init(&in, &t, 1, &same);
    in.sites = &sites;
    struct scope_event e[16];
    size_t got = 0;
    char err[128];
    for (long k; (k = scope_record_reader_next(&in, e + got, cap, err, sizeof err)) != 0;) {
        ck_assert_msg(k > 0, "%s", err);
        got += (size_t)k;
        ck_assert_uint_le(got, 9);
    }
    scope_record_reader_close(&in);
    unlink(spill);
    check_events(e, got, &sites);
    /* done, the reader still names its buffer's stacks as they were last
     * defined (profile mode's paths), a number never defined by its caller */
    ck_assert_int_eq(scope_record_reader_site(&in, 0x405000, 1), e[4].callsite);
    ck_assert_int_eq(scope_record_reader_site(&in, 0x401000, 0), e[0].callsite);
    int32_t alone = scope_record_reader_site(&in, 0x407000, 2);
    ck_assert_int_eq(alone, 3);
    ck_assert_uint_eq(scope_site_depth(&sites, 3), 1);
    scope_site_table_free(&sites);
}

START_TEST(every_batch_and_split)
{
    for (size_t in_spill = 0; in_spill <= 19; in_spill++)
        for (size_t cap = 1; cap <= 8; cap++)
            read_back(in_spill, cap);
}
END_TEST

START_TEST(without_sites_table)
{
    struct scope_record r[32];
    size_t n = stream(r);
    struct scope_thread_records t = {.records = r, .capacity = 24, .ready = n};
    struct scope_clock_calibration ns = {0};
    struct scope_clock_map same;
    scope_clock_map_init(&same, &ns, &(struct scope_clock_offsets){0});
    static struct scope_record_reader in;
    scope_record_reader_init(&in, &t, 1, &same);
    struct scope_event e[16];
    char err[128];
    size_t got = 0;
    for (long k; (k = scope_record_reader_next(&in, e + got, 16 - got, err, sizeof err)) > 0;)
        got += (size_t)k;
    ck_assert_uint_eq(got, 7);
    for (size_t i = 0; i < 7; i++)
        ck_assert_int_eq(e[i].callsite, -1);
}
END_TEST

/* Reads one thread's records r[0..n) (its ring of `capacity` slots) back,
 * `batch` events at a time, into e; the items and values go to store.
 * Returns how many events. */
static size_t read_thread(struct scope_record *r, size_t n, size_t capacity, size_t batch,
                          struct scope_payload_store *store, struct scope_event *e)
{
    struct scope_thread_records t = {.records = r, .capacity = capacity, .ready = n};
    struct scope_clock_calibration ns = {0};
    struct scope_clock_map same;
    scope_clock_map_init(&same, &ns, &(struct scope_clock_offsets){0});
    static struct scope_record_reader in;
    scope_record_reader_init(&in, &t, 1, &same);
    in.payload = store;
    char err[128];
    size_t got = 0;
    for (long k; (k = scope_record_reader_next(&in, e + got, batch, err, sizeof err)) > 0;)
        got += (size_t)k;
    return got;
}

/* Calls carrying payload (payload.h): a send with its call site and one
 * item, a Waitall's two received messages without a call site, a
 * communicator of 5 members defined between them, one cut short by a kill
 * (left out), and a call whose items were cut short (it keeps those that
 * came). */
START_TEST(payload_and_communicators)
{
    struct scope_record r[32];
    size_t n = 0;
    const struct scope_payload_item sent = {4096, 3, 7, 1, SCOPE_ITEM_SENT},
                                    got1 = {8, 0, -1, 0, SCOPE_ITEM_RECEIVED},
                                    got2 = {0, 2, 99, 1, SCOPE_ITEM_RECEIVED};
    scope_commdef_encode(&r[n++], 1, 5);
    r[n++] = (struct scope_record){1 | (uint64_t)4 << 32, 6 | (uint64_t)3 << 32};   /* 0 3 5 2 */
    r[n++] = (struct scope_record){2, 0};                                            /* 1 */
    scope_record_encode(&r[n++], 10, 20, 1);
    scope_callsite_encode(&r[n++], 0x401000, 0);
    scope_payload_header_encode(&r[n++], 1);
    scope_item_encode(&r[n++], &sent);
    scope_commdef_encode(&r[n++], 2, 6);
    r[n++] = (struct scope_record){1 | (uint64_t)2 << 32, 3 | (uint64_t)4 << 32};
    r[n++] = (struct scope_record){0, 0};   /* killed before its last two members */
    scope_record_encode(&r[n++], 30, 40, 2);
    scope_payload_header_encode(&r[n++], 2);
    scope_item_encode(&r[n++], &got1);
    scope_item_encode(&r[n++], &got2);
    scope_record_encode(&r[n++], 50, 60, 2);
    scope_payload_header_encode(&r[n++], 3);
    scope_item_encode(&r[n++], &got2);   /* killed after one item */
    struct scope_payload_store store = {0};
    struct scope_event e[16];
    ck_assert_uint_eq(read_thread(r, n, 32, 2, &store, e), 3);
    ck_assert_uint_eq(e[0].nitems, 1);
    ck_assert_uint_eq(e[1].nitems, 2);
    ck_assert_uint_eq(e[2].nitems, 1);
    ck_assert_uint_eq(store.nitems, 4);
    const struct scope_payload_item *a = &store.items[e[0].item_first], *b = &store.items[e[1].item_first + 1];
    ck_assert_int_eq(a->bytes, 4096);
    ck_assert_int_eq(a->peer, 3);
    ck_assert_int_eq(a->tag, 7);
    ck_assert_int_eq(a->comm, 1);
    ck_assert_int_eq(a->kind, SCOPE_ITEM_SENT);
    ck_assert_int_eq(store.items[e[1].item_first].tag, -1);
    ck_assert_int_eq(b->bytes, 0);
    ck_assert_int_eq(b->peer, 2);
    ck_assert_int_eq(b->tag, 99);
    ck_assert_int_eq(b->kind, SCOPE_ITEM_RECEIVED);
    ck_assert_uint_eq(store.ncomms, 1);
    ck_assert_int_eq(store.comms[0].id, 1);
    ck_assert_uint_eq(store.comms[0].size, 5);
    const int32_t want[5] = {0, 3, 5, 2, 1};
    for (size_t i = 0; i < 5; i++)
        ck_assert_int_eq(store.members[store.comms[0].first + i], want[i]);
    scope_payload_store_free(&store);
}
END_TEST

/* Calls with argument and return values (call_values.h): after a call
 * site, with an all-zero values record (not an unused slot), one value
 * alone in its record, and values cut short where the thread's records
 * end (0 for those missing). */
START_TEST(call_values)
{
    struct scope_record r[16];
    size_t n = 0;
    const uint64_t first[SCOPE_VALUE_SLOTS] = {0, 0, 0, 0, 0, (uint64_t)-5, 42};
    const uint64_t second[SCOPE_VALUE_SLOTS] = {0x7fff0000, 0, 0, 0, 0, 0, 0};
    const uint64_t third[SCOPE_VALUE_SLOTS] = {1, 2, 3, 0, 0, 0, 0};
    scope_record_encode(&r[n++], 10, 20, 1);
    scope_callsite_encode(&r[n++], 0x401000, 0);
    scope_values_encode(&r[n], 0x1 | 0x2 | 0x20 | 0x40, first);   /* args 1, 2, 6, retval */
    n += scope_values_records(0x63);
    scope_record_encode(&r[n++], 30, 40, 2);
    scope_values_encode(&r[n], 0x1, second);
    n += scope_values_records(0x1);
    scope_record_encode(&r[n++], 50, 60, 1);
    scope_values_encode(&r[n], 0x7, third);
    n += scope_values_records(0x7) - 1;   /* the thread ended before the last record */
    ck_assert_uint_eq(n, 11);
    struct scope_payload_store store = {0};
    struct scope_event e[8];
    ck_assert_uint_eq(read_thread(r, n, 16, 1, &store, e), 3);
    ck_assert_uint_eq(e[0].values, 0x63);
    ck_assert_uint_eq(e[1].values, 0x1);
    ck_assert_uint_eq(e[2].values, 0x7);
    ck_assert_int_eq(e[1].start, 30);
    ck_assert_uint_eq(store.nvalues, 4 + 1 + 3);
    const int64_t want[] = {0, 0, -5, 42, 0x7fff0000, 1, 2, 0};
    for (size_t i = 0; i < 8; i++)
        ck_assert_int_eq(store.values[i], want[i]);
    ck_assert_uint_eq(e[0].item_first, 0);
    ck_assert_uint_eq(e[1].item_first, 4);
    ck_assert_uint_eq(e[2].item_first, 5);
    scope_payload_store_free(&store);
}
END_TEST

/* Every hook id, the last one too, reads as a call: no id is one of the
 * markers (the values header was 0xfff9, the last id once). */
START_TEST(last_hook_id_is_a_call)
{
    struct scope_record r[3];
    scope_record_encode(&r[0], 10, 20, SCOPE_MAX_HOOKS - 1);
    scope_record_encode(&r[1], 30, 40, 0);
    scope_record_encode(&r[2], 50, 60, SCOPE_MAX_HOOKS - 1);
    struct scope_payload_store store = {0};
    struct scope_event e[4];
    ck_assert_uint_eq(read_thread(r, 3, 3, 1, &store, e), 3);
    for (size_t i = 0; i < 3; i++) {
        ck_assert_uint_eq(e[i].hook, i == 1 ? 0 : SCOPE_MAX_HOOKS - 1);
        ck_assert_int_eq(e[i].start, 10 + 20 * (int64_t)i);
        ck_assert_uint_eq(e[i].values, 0);
    }
    ck_assert_uint_eq(store.nvalues, 0);
    scope_payload_store_free(&store);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("segment_decode");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, every_batch_and_split);
    tcase_add_test(tc, without_sites_table);
    tcase_add_test(tc, payload_and_communicators);
    tcase_add_test(tc, call_values);
    tcase_add_test(tc, last_hook_id_is_a_call);
    suite_add_tcase(s, tc);
    return scope_check_run(s);
}
