/* Check unit tests of the reader's call sites: the table and its labels,
 * the call site of every event and call, scope_callsites() per region and
 * site over all ranks and over one, the flame tree under the recorded
 * stacks, and files whose call sites cannot be right. */
#include "fixtures.h"
#include "scope_reader.h"

#include <check.h>

#include "check_main.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char path[256];

static scope_file *open_callsites(fx_callsite_damage damage, scope_error *err)
{
    snprintf(path, sizeof path, "/tmp/scope-callsites-test-%d.h5", (int)getpid());
    fx_callsites(path, damage);
    scope_file *f = scope_open(path, err);
    unlink(path);
    return f;
}

static scope_file *open_good(void)
{
    scope_error err = {{0}};
    scope_file *f = open_callsites(FX_SITE_OK, &err);
    ck_assert_msg(f != NULL, "open: %s", err.message);
    return f;
}

START_TEST(table_and_labels)
{
    scope_file *f = open_good();
    ck_assert(scope_has_callsites(f));
    ck_assert_uint_eq(scope_callsite_count(f), 4);
    ck_assert_uint_eq(scope_callsite_depth(f), 2);
    const scope_frame *fr = scope_callsite_frame(f, 0, 0);
    ck_assert_str_eq(fr->function, "solve_step");
    ck_assert_str_eq(fr->file, "app.c");
    ck_assert_int_eq(fr->line, 42);
    ck_assert_str_eq(scope_callsite_frame(f, 0, 1)->function, "main");
    ck_assert_ptr_null(scope_callsite_frame(f, 1, 1));   /* a stack of one frame */
    ck_assert_ptr_null(scope_callsite_frame(f, 4, 0));   /* no such site */
    ck_assert_ptr_null(scope_callsite_frame(f, 0, 2));   /* deeper than recorded */
    char buf[128];
    ck_assert_str_eq(scope_frame_label(fr, buf, sizeof buf), "solve_step (app.c:42)");
    ck_assert_str_eq(scope_frame_label(scope_callsite_frame(f, 1, 0), buf, sizeof buf),
                     "/lib/libx.so+0x1234");
    ck_assert_str_eq(scope_frame_label(scope_callsite_frame(f, 3, 0), buf, sizeof buf),
                     "helper+0x10 (/lib/libx.so)");
    scope_close(f);
}
END_TEST

START_TEST(events_and_calls_carry_their_site)
{
    scope_file *f = open_good();
    size_t n = 0;
    scope_event *ev = scope_events(f, NULL, &n, NULL);
    ck_assert_uint_eq(n, 7);
    /* region order: solve (rank 0), then MPI_Allreduce on ranks 0 and 1 */
    const long want[] = {-1, 0, 1, 0, 0, 2, -1};
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(ev[i].callsite == want[i], "event %zu (%s rank %d): site %ld", i,
                      ev[i].name, ev[i].rank, ev[i].callsite);
    free(ev);
    scope_call *calls = scope_call_stack(f, 1, &n, NULL);
    ck_assert_uint_eq(n, 3);
    ck_assert_int_eq(calls[0].callsite, 0);
    ck_assert_int_eq(calls[1].callsite, 2);
    ck_assert_int_eq(calls[2].callsite, -1);
    free(calls);
    scope_close(f);
}
END_TEST

START_TEST(per_region_and_site)
{
    scope_file *f = open_good();
    size_t n = 0;
    scope_callsite_stats *st = scope_callsites(f, NULL, &n, NULL);
    /* MPI_Allreduce only (solve has no call sites), largest total first */
    ck_assert_uint_eq(n, 4);
    const struct {
        long site;
        size_t calls, ranks;
        double total;
        int slowest[2];
        size_t n_slowest;
    } want[] = {
        {0, 3, 2, 7, {1, 0}, 2},   /* rank 0: 2 + 1 s, rank 1: 4 s */
        {1, 1, 1, 5, {0, 0}, 1},
        {2, 1, 1, 1, {1, 0}, 1},
        {-1, 1, 1, 1, {1, 0}, 1},  /* the call without a site */
    };
    const long order[] = {0, 1, -1, 2};   /* ties (1 s): by site */
    ck_assert_uint_eq(st[0].region, (size_t)scope_region_find(f, "MPI_Allreduce"));
    for (size_t i = 0; i < n; i++) {
        ck_assert_int_eq(st[i].callsite, order[i]);
        size_t k = 0;
        while (want[k].site != order[i])
            k++;
        ck_assert_uint_eq(st[i].calls, want[k].calls);
        ck_assert_uint_eq(st[i].ranks, want[k].ranks);
        ck_assert_double_eq_tol(st[i].total, want[k].total, 1e-9);
        ck_assert_double_eq_tol(st[i].mean, want[k].total / (double)want[k].calls, 1e-9);
        ck_assert_double_eq_tol(st[i].share, want[k].total / 14.0, 1e-9);
        ck_assert_uint_eq(st[i].n_slowest, want[k].n_slowest);
        for (size_t r = 0; r < st[i].n_slowest; r++)
            ck_assert_int_eq(st[i].slowest_ranks[r], want[k].slowest[r]);
    }
    ck_assert_double_eq_tol(st[0].slowest_totals[0], 4, 1e-9);
    ck_assert_double_eq_tol(st[0].slowest_totals[1], 3, 1e-9);
    free(st);

    const int one[] = {1};
    scope_filter rank1 = {.ranks = one, .n_ranks = 1};
    st = scope_callsites(f, &rank1, &n, NULL);
    ck_assert_uint_eq(n, 3);
    ck_assert_int_eq(st[0].callsite, 0);
    ck_assert_uint_eq(st[0].calls, 1);
    ck_assert_double_eq_tol(st[0].total, 4, 1e-9);
    free(st);

    const char *solve[] = {"^solve$"};
    scope_filter only_solve = {.include = solve, .n_include = 1};
    st = scope_callsites(f, &only_solve, &n, NULL);
    ck_assert_ptr_nonnull(st);
    ck_assert_uint_eq(n, 0);
    free(st);
    scope_close(f);
}
END_TEST

START_TEST(flame_under_recorded_stacks)
{
    scope_file *f = open_good();
    size_t n = 0;
    /* rank 1: its calls are outermost, each under its stack, outermost frame
     * first; the one without a site stays a root */
    scope_flame_node *nd = scope_flame_tree_ex(f, NULL, 1, SCOPE_FLAME_CALLSITES, &n, NULL);
    const struct { const char *name; long parent; size_t calls; int64_t total; bool frame; } want[] = {
        {"main", -1, 2, 5 * FX_NS, true},
        {"solve_step", 0, 1, 4 * FX_NS, true},
        {"MPI_Allreduce", 1, 1, 4 * FX_NS, false},
        {"MPI_Allreduce", 0, 1, 1 * FX_NS, false},
        {"MPI_Allreduce", -1, 1, 1 * FX_NS, false},
    };
    ck_assert_uint_eq(n, 5);
    for (size_t i = 0; i < n; i++) {
        ck_assert_str_eq(nd[i].name, want[i].name);
        ck_assert_int_eq(nd[i].parent, want[i].parent);
        ck_assert_uint_eq(nd[i].calls, want[i].calls);
        ck_assert_int_eq(nd[i].total_ns, want[i].total);
        ck_assert_int_eq(nd[i].frame != NULL, want[i].frame);
    }
    ck_assert_int_eq(nd[0].self_ns, 0);
    free(nd);
    /* rank 0: MPI_Allreduce runs inside solve, which has no site: no frames */
    nd = scope_flame_tree_ex(f, NULL, 0, SCOPE_FLAME_CALLSITES, &n, NULL);
    ck_assert_uint_eq(n, 2);
    ck_assert_str_eq(nd[0].name, "solve");
    ck_assert_str_eq(nd[1].name, "MPI_Allreduce");
    free(nd);
    /* without the flag, the tree is the regions' alone */
    nd = scope_flame_tree(f, NULL, 1, &n, NULL);
    ck_assert_uint_eq(n, 1);
    free(nd);
    scope_close(f);
}
END_TEST

START_TEST(damaged_call_sites)
{
    static const struct { fx_callsite_damage damage; const char *message; } bad[] = {
        {FX_SITE_BAD_FRAME, "metadata/callsites: site 1: frame 4 of 4 frames"},
        {FX_SITE_BAD_ID, "rank0/regions/MPI_Allreduce: call 1: call site 4 of 4"},
        {FX_SITE_SHORT_IDS, "rank0/regions/MPI_Allreduce: 3 start_times but 2 callsite_ids"},
        {FX_SITE_NO_TABLE, "rank0/regions/MPI_Allreduce: call 0: call site 0 of 0"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        scope_error err = {{0}};
        scope_file *f = open_callsites(bad[i].damage, &err);
        if (f) {   /* calls read on first use: the damage shows then */
            size_t n;
            scope_event *ev = scope_events(f, NULL, &n, &err);
            ck_assert_ptr_null(ev);
            scope_close(f);
        }
        ck_assert_str_eq(err.message, bad[i].message);
    }
}
END_TEST

START_TEST(no_call_sites)
{
    snprintf(path, sizeof path, "/tmp/scope-callsites-test-%d.h5", (int)getpid());
    fx_tutorial(path, true);
    scope_file *f = scope_open(path, NULL);
    unlink(path);
    ck_assert(!scope_has_callsites(f));
    ck_assert_uint_eq(scope_callsite_count(f), 0);
    ck_assert_ptr_null(scope_callsite_frame(f, 0, 0));
    size_t n = 1;
    scope_callsite_stats *st = scope_callsites(f, NULL, &n, NULL);
    ck_assert_uint_eq(n, 0);
    free(st);
    scope_event *ev = scope_events(f, NULL, &n, NULL);
    for (size_t i = 0; i < n; i++)
        ck_assert_int_eq(ev[i].callsite, -1);
    free(ev);
    scope_close(f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("reader-callsites");
    TCase *tc = tcase_create("callsites");
    tcase_add_test(tc, table_and_labels);
    tcase_add_test(tc, events_and_calls_carry_their_site);
    tcase_add_test(tc, per_region_and_site);
    tcase_add_test(tc, flame_under_recorded_stacks);
    tcase_add_test(tc, damaged_call_sites);
    tcase_add_test(tc, no_call_sites);
    suite_add_tcase(s, tc);
    return scope_check_run(s);
}
