/* test_event_groups.c: Check unit tests of reading a process's records
 * back (spill file, then buffer, per thread) and grouping them by region:
 * start order within a region, the same result whether the events fit one
 * window or are sorted in runs and merged (every field kept by the runs'
 * encoding), and self times from the order
 * the calls ended (nesting by containment, per thread), exact whatever
 * the number of calls waiting for a caller, refused when the calls do not
 * come in that order; and each region's clones (GCC's
 * copies of its function) named once. */
#include <check.h>

#include "check_main.h"
#include "event_groups.h"
#include "region_clones.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* hook h belongs to region h (identity), 3 hooks */
static const uint32_t hook_region[] = {0, 1, 2};

struct call {
    int64_t start, end;
    uint32_t hook;
};

/* Threads as scope leaves them (segment.h): each its calls in records, the
 * first `spilled` of them in a spill file, the rest in its ring. A thread
 * that did not spill has two empty slots at the end of its ring; one that
 * did has two empty slots at the end of the spill file's slices. */
struct process {
    struct scope_thread_records t[4];
    struct scope_record *records[4];
    char spill[4][64];
    size_t n;
    struct scope_clock_map same_clock;
};

static void add_thread(struct process *p, const struct call *c, size_t n, size_t spilled)
{
    size_t k = p->n++;
    struct scope_record empty[2] = {{0}};
    struct scope_record *calls = calloc(n, sizeof(struct scope_record));
    for (size_t i = 0; i < n; i++)
        scope_record_encode(&calls[i], (uint64_t)c[i].start, (uint64_t)c[i].end, c[i].hook);
    snprintf(p->spill[k], sizeof p->spill[k], "/tmp/scope-test-eg-%d-%zu.spill", (int)getpid(), k);
    /* the spilled records, the slice's empty end, then what an earlier
     * process with the same pid left at that path (every thread's records
     * once more): not ours */
    FILE *f = fopen(p->spill[k], "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(calls, sizeof(struct scope_record), spilled, f), spilled);
    ck_assert_uint_eq(fwrite(empty, sizeof(struct scope_record), 2, f), 2);
    ck_assert_uint_eq(fwrite(calls, sizeof(struct scope_record), n, f), n);
    fclose(f);
    /* the ring: record g in slot g % capacity, from number `in_file` on */
    uint64_t in_file = spilled ? spilled + 2 : 0;
    size_t capacity = n - spilled + 2;
    p->records[k] = calloc(capacity, sizeof(struct scope_record));
    for (size_t i = spilled; i < n; i++)
        p->records[k][(in_file + i - spilled) % capacity] = calls[i];
    free(calls);
    p->t[k] = (struct scope_thread_records){.spill_path = p->spill[k], .spilled = in_file,
                                            .records = p->records[k], .capacity = capacity,
                                            .ready = capacity, .recycled = in_file,
                                            .clock_base = 0, .thread = (int32_t)k};
}

static void free_process(struct process *p)
{
    for (size_t k = 0; k < p->n; k++) {
        unlink(p->spill[k]);
        free(p->records[k]);
    }
}

static void build(struct process *p, struct scope_event_groups *g, size_t window,
                  size_t self_calls)
{
    struct scope_clock_calibration ns = {0};
    scope_clock_map_init(&p->same_clock, &ns, &(struct scope_clock_offsets){0});
    struct scope_record_reader in;
    scope_record_reader_init(&in, p->t, p->n, &p->same_clock);
    char err[256] = "";
    ck_assert_msg(scope_event_groups_build(g, &in, hook_region, 3, 3, window, self_calls, err,
                                                           sizeof err) == 0,
                  "build: %s", err);
    scope_record_reader_close(&in);
}

START_TEST(self_times_in_end_order)
{
    /* thread 0: a[10,100] holds b[20,40] (which holds c[25,30]) and c[50,60];
     *           then a[200,210] alone. thread 1: b[5,1000] holds a[15,905]. */
    struct call t0[] = {{25, 30, 2}, {20, 40, 1}, {50, 60, 2}, {10, 100, 0}, {200, 210, 0}};
    struct call t1[] = {{15, 905, 0}, {5, 1000, 1}};
    for (size_t window = 2; window <= SCOPE_MERGE_WINDOW; window *= 1024) {
        struct process p = {0};
        add_thread(&p, t0, 5, 2);
        add_thread(&p, t1, 2, 0);
        struct scope_event_groups g;
        build(&p, &g, window, SCOPE_SELF_CALLS);
        ck_assert_uint_eq(g.runs.nruns > 0, window == 2);
        ck_assert_int_eq(g.self_known, 1);
        ck_assert_int_eq(g.region_self[0], (90 - 20 - 10) + 10 + 890);  /* a */
        ck_assert_int_eq(g.region_self[1], (20 - 5) + (995 - 890));     /* b */
        ck_assert_int_eq(g.region_self[2], 5 + 10);                     /* c */
        struct scope_chunk *chunk = malloc(sizeof *chunk);
        ck_assert_uint_eq(scope_event_groups_calls(&g, 0), 3);
        ck_assert_uint_eq(scope_event_groups_chunk(&g, 0, 0, chunk), 3);
        ck_assert_int_eq(chunk->start[0], 10);
        ck_assert_int_eq(chunk->start[1], 15);
        ck_assert_int_eq(chunk->thread[1], 1);
        ck_assert_int_eq(chunk->end[2], 210);
        free(chunk);
        scope_event_groups_free(&g);
        free_process(&p);
    }
}
END_TEST

/* Many nested calls on three threads, sorted at once or in runs and
 * merged: the same chunks and counts; the same self times while the calls
 * open at once (1000 roots a thread) fit the window, else none. */
static void assert_same_groups(struct scope_event_groups *once, struct scope_event_groups *runs)
{
    struct scope_chunk *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    ck_assert_uint_gt(runs->runs.nruns, 1);
    ck_assert_uint_eq(once->count, runs->count);
    for (size_t r = 0; r < 3; r++) {
        ck_assert_uint_eq(scope_event_groups_calls(once, r), scope_event_groups_calls(runs, r));
        scope_event_groups_chunk(once, r, 0, a);
        scope_event_groups_chunk(runs, r, 0, b);
        ck_assert_uint_eq(a->n, scope_event_groups_calls(once, r));
        ck_assert_uint_eq(a->n, b->n);
        for (size_t i = 0; i < a->n; i++) {
            ck_assert_int_eq(a->start[i], b->start[i]);
            ck_assert_int_eq(a->end[i], b->end[i]);
            ck_assert_int_eq(a->thread[i], b->thread[i]);
            ck_assert_int_eq(a->callsite[i], b->callsite[i]);
            ck_assert(i == 0 || a->start[i - 1] <= a->start[i]);
        }
    }
    /* a region read again, from the middle */
    size_t n = scope_event_groups_calls(once, 0);
    ck_assert_uint_eq(scope_event_groups_chunk(runs, 0, 500, b), n);
    scope_event_groups_chunk(once, 0, 500, a);
    ck_assert_int_eq(a->start[0], b->start[0]);
    ck_assert_int_eq(a->start[n - 501], b->start[n - 501]);
    free(a);
    free(b);
}

START_TEST(runs_merge_like_one_window)
{
    enum { N = 3000 };
    struct call *c = malloc(N * sizeof *c);
    struct process p = {0};
    for (int thread = 0; thread < 3; thread++) {
        /* in end order: two leaves, then the parent holding them */
        for (int i = 0; i < N; i++) {
            int64_t base = 1000 * (i / 3) + 10 * thread;
            c[i] = i % 3 == 2 ? (struct call){base, base + 900, 0}
                              : (struct call){base + 100 + 300 * (i % 3), base + 300 + 300 * (i % 3),
                                              (uint32_t)(1 + (i + thread) % 2)};
        }
        add_thread(&p, c, N, thread == 1 ? 1000 : 0);
    }
    struct scope_event_groups once, runs;
    build(&p, &once, SCOPE_MERGE_WINDOW, SCOPE_SELF_CALLS);
    ck_assert_uint_eq(once.runs.nruns, 0);
    ck_assert_uint_eq(once.count, 3 * N);
    ck_assert_int_eq(once.self_known, 1);
    ck_assert_int_eq(once.region_self[0], 3 * (N / 3) * (900 - 400));
    build(&p, &runs, 64, SCOPE_SELF_CALLS);
    assert_same_groups(&once, &runs);
    ck_assert_int_eq(runs.self_known, 1);
    for (size_t r = 0; r < 3; r++)
        ck_assert_int_eq(once.region_self[r], runs.region_self[r]);
    scope_event_groups_free(&runs);
    build(&p, &runs, 64, 999);   /* 1000 roots a thread: some wait in a file */
    assert_same_groups(&once, &runs);
    ck_assert_int_eq(runs.self_known, 1);
    for (size_t r = 0; r < 3; r++)
        ck_assert_int_eq(once.region_self[r], runs.region_self[r]);
    free(c);
    scope_event_groups_free(&once);
    scope_event_groups_free(&runs);
    free_process(&p);
}
END_TEST

/* The runs' compact encoding keeps every field whatever its size, and the
 * merge interleaves runs in start order, ties by end. */
START_TEST(sorted_runs_keep_every_field)
{
    const int64_t big = INT64_MAX / 4;
    /* region 0: three events; region 1: one; two runs */
    struct scope_event run1[] = {
        {.start = -big, .end = big, .thread = INT32_MAX, .callsite = -1, .carries = 1,
         .nitems = 0, .item_first = 7},
        {.start = 5, .end = 5, .thread = 0, .callsite = INT32_MAX, .values = 0x41,
         .item_first = UINT64_MAX / 3},
        {.start = 7, .end = 9, .thread = 3, .callsite = 0, .carries = 1, .nitems = UINT32_MAX,
         .values = 0x7f, .item_first = 2},
    };
    struct scope_event run2[] = {
        {.start = 5, .end = 4000000000, .thread = 1, .callsite = 12},
        {.start = 6, .end = 6, .thread = 2, .callsite = -1, .values = 1, .item_first = 0},
    };
    size_t offsets1[] = {0, 3, 3}, offsets2[] = {0, 1, 2};
    struct scope_sorted_runs s;
    char err[256];
    scope_sorted_runs_init(&s, 2);
    ck_assert_int_eq(scope_sorted_runs_add(&s, run1, 3, offsets1, err, sizeof err), 0);
    ck_assert_int_eq(scope_sorted_runs_add(&s, run2, 2, offsets2, err, sizeof err), 0);
    const struct scope_event *want[] = {&run1[0], &run1[1], &run2[0], &run1[2]};
    for (int pass = 0; pass < 2; pass++) {   /* a region merged again from its start */
        ck_assert_int_eq(scope_sorted_runs_start(&s, 0), 0);
        for (size_t i = 0; i < 4; i++) {
            struct scope_event e = scope_sorted_runs_next(&s);
            ck_assert_int_eq(e.start, want[i]->start);
            ck_assert_int_eq(e.end, want[i]->end);
            ck_assert_int_eq(e.thread, want[i]->thread);
            ck_assert_int_eq(e.callsite, want[i]->callsite);
            ck_assert_int_eq(e.carries, want[i]->carries);
            ck_assert_uint_eq(e.nitems, want[i]->nitems);
            ck_assert_uint_eq(e.values, want[i]->values);
            ck_assert_uint_eq(e.item_first, want[i]->item_first);
        }
    }
    ck_assert_int_eq(scope_sorted_runs_start(&s, 1), 0);
    struct scope_event e = scope_sorted_runs_next(&s);
    ck_assert_int_eq(e.start, 6);
    ck_assert_int_eq(e.callsite, -1);
    ck_assert_uint_eq(e.values, 1);
    ck_assert_str_eq(s.error, "");
    scope_sorted_runs_free(&s);
}
END_TEST

/* Runs of a region that follow each other (a tie at the seam included)
 * are read one after the other, runs that overlap through the heap, and
 * both give every event in start order. */
START_TEST(runs_that_follow_each_other_read_in_turn)
{
    /* region 0: 1..3 | 3..5 (tie at 3) | none | 6; region 1: 10, 30 | 20 */
    struct scope_event run1[] = {{.start = 1, .end = 2}, {.start = 3, .end = 4, .thread = 1},
                                 {.start = 10, .end = 11}, {.start = 30, .end = 31}};
    struct scope_event run2[] = {{.start = 3, .end = 4, .thread = 2}, {.start = 5, .end = 6},
                                 {.start = 20, .end = 21}};
    struct scope_event run3[] = {{.start = 6, .end = 7, .callsite = 4}};
    size_t offsets1[] = {0, 2, 4}, offsets2[] = {0, 2, 3}, offsets3[] = {0, 1, 1};
    struct scope_sorted_runs s;
    char err[256];
    scope_sorted_runs_init(&s, 2);
    ck_assert_int_eq(scope_sorted_runs_add(&s, run1, 4, offsets1, err, sizeof err), 0);
    ck_assert_int_eq(scope_sorted_runs_add(&s, run2, 3, offsets2, err, sizeof err), 0);
    ck_assert_int_eq(scope_sorted_runs_add(&s, run3, 1, offsets3, err, sizeof err), 0);
    static const int64_t starts0[] = {1, 3, 3, 5, 6}, threads0[] = {0, 1, 2, 0, 0};
    ck_assert_int_eq(scope_sorted_runs_start(&s, 0), 0);
    ck_assert_int_eq(s.chained, 1);
    for (size_t i = 0; i < 5; i++) {
        struct scope_event e = scope_sorted_runs_next(&s);
        ck_assert_int_eq(e.start, starts0[i]);
        ck_assert_int_eq(e.thread, threads0[i]);
        ck_assert_int_eq(e.callsite, i == 4 ? 4 : 0);
    }
    static const int64_t starts1[] = {10, 20, 30};
    ck_assert_int_eq(scope_sorted_runs_start(&s, 1), 0);
    ck_assert_int_eq(s.chained, 0);
    for (size_t i = 0; i < 3; i++)
        ck_assert_int_eq(scope_sorted_runs_next(&s).start, starts1[i]);
    ck_assert_str_eq(s.error, "");
    scope_sorted_runs_free(&s);
}
END_TEST

START_TEST(self_times_refused_out_of_order)
{
    /* the outer call before its child: not end order */
    struct call out_of_order[] = {{0, 100, 0}, {10, 40, 1}};
    struct process p = {0};
    add_thread(&p, out_of_order, 2, 0);
    struct scope_event_groups g;
    build(&p, &g, SCOPE_MERGE_WINDOW, SCOPE_SELF_CALLS);
    ck_assert_int_eq(g.self_known, 0);
    ck_assert_uint_eq(g.count, 2);
    scope_event_groups_free(&g);
    free_process(&p);
}
END_TEST

START_TEST(self_times_of_more_waiting_calls_than_memory)
{
    /* thread 0: leaves c[10i + 1, 10i + 5] for i < 20 000 + 300 (those from
     * `from` on inside a[10 from, 200 000], a zero-length c at its end), then
     * b[0, 300 000] around everything: with 2, 7 or 10 000 waiting calls in
     * memory most wait in the file, and a claims from the middle of a block, at a
     * block's edge or all of them, then b the rest */
    enum { LEAVES = 20000, AFTER = 300 };
    static const int64_t froms[] = {0, 1, 4095, 4096, 4097, 5000, 19999};
    struct call *calls = malloc((LEAVES + AFTER + 3) * sizeof *calls);
    for (size_t f = 0; f < sizeof froms / sizeof froms[0]; f++) {
        int64_t from = froms[f];
        size_t n = 0;
        for (int64_t i = 0; i < LEAVES; i++)
            calls[n++] = (struct call){10 * i + 1, 10 * i + 5, 2};
        calls[n++] = (struct call){10 * LEAVES, 10 * LEAVES, 2};
        calls[n++] = (struct call){10 * from, 10 * LEAVES, 0};
        for (int64_t i = LEAVES; i < LEAVES + AFTER; i++)
            calls[n++] = (struct call){10 * i + 1, 10 * i + 5, 2};
        calls[n++] = (struct call){0, 300000, 1};
        static const size_t memories[] = {2, 7, 10000};   /* blocks of 1, 3, 4 096 */
        for (size_t m = 0; m < sizeof memories / sizeof memories[0]; m++) {
            size_t memory = memories[m];
            struct process p = {0};
            add_thread(&p, calls, n, n / 2);
            struct scope_event_groups g;
            build(&p, &g, memory == 2 ? 4096 : SCOPE_MERGE_WINDOW, memory);
            ck_assert_int_eq(g.self_known, 1);
            ck_assert_uint_eq(g.count, n);
            int64_t a = 10 * (LEAVES - from);
            ck_assert_int_eq(g.region_self[2], 4 * (LEAVES + AFTER));
            ck_assert_int_eq(g.region_self[0], a - 4 * (LEAVES - from));
            ck_assert_int_eq(g.region_self[1], 300000 - 4 * from - a - 4 * AFTER);
            scope_event_groups_free(&g);
            free_process(&p);
        }
    }
    free(calls);
}
END_TEST

START_TEST(inverted_call_kept_and_reported)
{
    /* thread 0: a[10,100], then b whose records say [300,200] */
    struct call t0[] = {{10, 100, 0}, {300, 200, 1}};
    struct process p = {0};
    add_thread(&p, t0, 2, 0);
    struct scope_event_groups g;
    build(&p, &g, SCOPE_MERGE_WINDOW, SCOPE_SELF_CALLS);
    ck_assert_int_eq(g.anomaly.found, 1);
    ck_assert_uint_eq(g.anomaly.hook, 1);
    ck_assert_int_eq(g.anomaly.start, 300);
    ck_assert_int_eq(g.anomaly.end, 200);
    struct scope_chunk *chunk = malloc(sizeof *chunk);
    ck_assert_uint_eq(scope_event_groups_chunk(&g, 1, 0, chunk), 1);
    ck_assert_int_eq(chunk->start[0], 300);
    ck_assert_int_eq(chunk->end[0], 300);
    ck_assert_int_eq(g.region_self[1], 0);
    char line[256];
    scope_event_anomaly_text(&g.anomaly, "b", line, sizeof line);
    ck_assert_str_eq(line, "bug: thread 0: a call of b ends before it starts ([300, 200] ns), "
                           "kept as ending there; please report it");
    free(chunk);
    scope_event_groups_free(&g);
    free_process(&p);
}
END_TEST

START_TEST(clones_named_per_region)
{
    /* region 0: a function, its .isra clone twice (two modules) and a
     * constprop of the isra; region 1: a C++ clone; region 2: no clone,
     * a .part (not a clone); region 3: a hook without a symbol */
    const char *symbols[] = {"solve", "solve.isra.0", "solve.isra.0", "solve.constprop.1.isra.0",
                             "_Z5weighRK4pair.isra.0", "f.part.0", NULL};
    const uint32_t regions[] = {0, 0, 0, 0, 1, 2, 3};
    char **clones = scope_region_clones(symbols, regions, 7, 4);
    ck_assert_ptr_nonnull(clones);
    ck_assert_str_eq(clones[0], "isra.0 constprop.1.isra.0");
    ck_assert_str_eq(clones[1], "isra.0");
    ck_assert_ptr_null(clones[2]);
    ck_assert_ptr_null(clones[3]);
    scope_region_clones_free(clones, 4);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("event_groups");
    TCase *tc = tcase_create("groups");
    tcase_set_timeout(tc, 60);   /* hundreds of runs merged: seconds under ASan */
    tcase_add_test(tc, self_times_in_end_order);
    tcase_add_test(tc, runs_merge_like_one_window);
    tcase_add_test(tc, runs_that_follow_each_other_read_in_turn);
    tcase_add_test(tc, sorted_runs_keep_every_field);
    tcase_add_test(tc, self_times_refused_out_of_order);
    tcase_add_test(tc, self_times_of_more_waiting_calls_than_memory);
    tcase_add_test(tc, inverted_call_kept_and_reported);
    tcase_add_test(tc, clones_named_per_region);
    suite_add_tcase(s, tc);
    return scope_check_run(s);
}
