/* test_profile_rank.c: Check unit tests of profile mode's tables added up
 * for a rank: two threads' tables with the same call paths in another
 * order become one set of paths (parents first, each path once), hooks
 * that share a region become one region, statistics and histograms add up
 * and turn into ns, totals rounded on their own stay between
 * calls x min and calls x max, and calls of one hook from two call sites
 * are two paths, in the table and for the rank, named with the file's
 * site ids; only the hooks a table marks as written are read. */
#include <check.h>

#include "check_main.h"
#include "profile_rank.h"

#include <stdlib.h>
#include <sys/mman.h>

static struct scope_profile_table *new_table(void)
{
    void *p = mmap(NULL, sizeof(struct scope_profile_table), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    ck_assert_ptr_ne(p, MAP_FAILED);
    return p;
}

/* A call of hook under `parent` (a path of t, or SCOPE_PROFILE_ROOT), from
 * start to end with `children` ticks in callees; returns its path. */
static uint32_t call(struct scope_profile_table *t, uint32_t parent, uint32_t hook,
                     uint64_t start, uint64_t end, uint64_t children)
{
    uint32_t path = scope_profile_path_of(t, parent, hook, 0, 0);
    scope_profile_add(t, hook, path, start, end, children);
    return path;
}

/* hooks 0 (main), 1 and 2 (two hooks of region 1, "solve"), 3 (region 2) */
static const uint32_t hook_region[] = {0, 1, 1, 2};

static struct scope_clock_map map_of(unsigned __int128 mult)
{
    return (struct scope_clock_map){.raw0 = 0, .base = 0, .mult = mult};
}

START_TEST(threads_and_hooks_merge)
{
    struct scope_profile_table *a = new_table(), *b = new_table();
    uint32_t main_a = call(a, SCOPE_PROFILE_ROOT, 0, 100, 1100, 700);
    call(a, main_a, 1, 200, 600, 0);     /* main > solve (hook 1) */
    call(a, main_a, 2, 600, 900, 100);   /* main > solve (hook 2): the same path */
    uint32_t solve_b = call(b, SCOPE_PROFILE_ROOT, 3, 50, 60, 0);   /* b: region 2 first */
    (void)solve_b;
    uint32_t main_b = call(b, SCOPE_PROFILE_ROOT, 0, 2000, 2500, 0);
    (void)main_b;
    struct scope_profile_table *tables[] = {a, b};
    struct scope_clock_map m = map_of((unsigned __int128)1 << 64);   /* 1 ns a tick */
    struct scope_rank_profile p;
    char err[128];
    ck_assert_int_eq(scope_rank_profile_build(&p, tables, NULL, 2, hook_region, 4, 3, &m, 0, err,
                                              sizeof err), 0);
    ck_assert_uint_eq(p.npaths, 3);   /* main, main > solve, region 2 */
    const struct scope_region_profile *main = scope_rank_profile_region(&p, 0), *solve = scope_rank_profile_region(&p, 1);
    ck_assert_int_eq(main->stats.calls, 2);
    ck_assert_int_eq(main->stats.total_ns, 1500);
    ck_assert_int_eq(main->stats.min_ns, 500);
    ck_assert_int_eq(main->stats.max_ns, 1000);
    ck_assert_int_eq(main->stats.first_start_ns, 100);
    ck_assert_int_eq(main->stats.last_end_ns, 2500);
    ck_assert_int_eq(main->self_ns, 300 + 500);
    ck_assert_double_eq_tol(main->stats.m2_ns2, 125000.0, 1e-6);   /* (500-750)^2 + (1000-750)^2 */
    ck_assert_int_eq(main->histogram[8], 1);   /* 500 ns */
    ck_assert_int_eq(main->histogram[9], 1);   /* 1000 ns */
    ck_assert_int_eq(solve->stats.calls, 2);
    ck_assert_int_eq(solve->stats.total_ns, 700);
    ck_assert_int_eq(solve->self_ns, 600);
    ck_assert_uint_eq(solve->npaths, 1);
    ck_assert_int_eq(solve->path_calls[0], 2);
    ck_assert_int_eq(solve->path_total_ns[0], 700);
    ck_assert_int_eq(p.parents[solve->path_ids[0]], main->path_ids[0]);
    ck_assert_int_eq(p.parents[main->path_ids[0]], -1);
    ck_assert_uint_eq(main->npaths, 1);
    ck_assert_int_eq(main->path_calls[0], 2);
    ck_assert_int_eq(main->pathless_calls, 0);
    ck_assert_int_eq(scope_rank_profile_region(&p, 2)->stats.calls, 1);
    scope_rank_profile_free(&p);
}
END_TEST

/* Three ticks to the ns: two calls of 190 ticks (63 ns each, 127 ns
 * together once rounded) keep a total of at most 2 x 63. */
START_TEST(rounded_total_stays_consistent)
{
    struct scope_profile_table *t = new_table();
    call(t, SCOPE_PROFILE_ROOT, 0, 1000, 1190, 0);
    call(t, SCOPE_PROFILE_ROOT, 0, 2000, 2190, 0);
    struct scope_profile_table *tables[] = {t};
    struct scope_clock_map m = map_of(((unsigned __int128)1 << 64) / 3);
    struct scope_rank_profile p;
    char err[128];
    ck_assert_int_eq(scope_rank_profile_build(&p, tables, NULL, 1, hook_region, 1, 1, &m, 0, err,
                                              sizeof err), 0);
    const struct call_stats *s = &scope_rank_profile_region(&p, 0)->stats;
    ck_assert_int_eq(s->min_ns, 63);
    ck_assert_int_eq(s->max_ns, 63);
    ck_assert_int_le(s->total_ns, s->max_ns * s->calls);
    ck_assert_int_ge(s->total_ns, s->min_ns * s->calls);
    ck_assert_int_le(scope_rank_profile_region(&p, 0)->self_ns, s->total_ns);
    scope_rank_profile_free(&p);
}
END_TEST

/* Of 4 hooks, only hook 3 was called: hook 1's entry holds counts the table
 * never marked as written (as a damaged table may) and is not read; the
 * regions never called have no calls and no paths. */
START_TEST(only_written_hooks_are_read)
{
    struct scope_profile_table *t = new_table();
    call(t, SCOPE_PROFILE_ROOT, 3, 10, 30, 0);
    t->regions[1].calls = 5;
    t->regions[1].total = 500;
    struct scope_profile_table *tables[] = {t};
    struct scope_clock_map m = map_of((unsigned __int128)1 << 64);
    struct scope_rank_profile p;
    char err[128];
    ck_assert_int_eq(scope_rank_profile_build(&p, tables, NULL, 1, hook_region, 4, 3, &m, 0, err,
                                              sizeof err), 0);
    ck_assert_uint_eq(p.nused, 1);
    ck_assert_int_eq(scope_rank_profile_region(&p, 2)->stats.calls, 1);
    ck_assert_int_eq(scope_rank_profile_region(&p, 2)->stats.total_ns, 20);
    for (size_t r = 0; r < 2; r++) {
        ck_assert_int_eq(scope_rank_profile_region(&p, r)->stats.calls, 0);
        ck_assert_uint_eq(scope_rank_profile_region(&p, r)->npaths, 0);
    }
    scope_rank_profile_free(&p);
    munmap(t, sizeof *t);
}
END_TEST

/* Deeper than SCOPE_PROFILE_DEPTH: counted in the region, on no path. */
START_TEST(too_deep_is_pathless)
{
    struct scope_profile_table *t = new_table();
    uint32_t path = SCOPE_PROFILE_ROOT;
    for (int depth = 0; depth < SCOPE_PROFILE_DEPTH + 3; depth++)
        path = call(t, path, 0, 10, 20, 0);
    ck_assert_uint_eq(path, SCOPE_PROFILE_NO_PATH);
    struct scope_profile_table *tables[] = {t};
    struct scope_clock_map m = map_of((unsigned __int128)1 << 64);
    struct scope_rank_profile p;
    char err[128];
    ck_assert_int_eq(scope_rank_profile_build(&p, tables, NULL, 1, hook_region, 1, 1, &m, 0, err,
                                              sizeof err), 0);
    ck_assert_int_eq(scope_rank_profile_region(&p, 0)->stats.calls, SCOPE_PROFILE_DEPTH + 3);
    ck_assert_uint_eq(p.npaths, SCOPE_PROFILE_DEPTH);
    ck_assert_int_eq(scope_rank_profile_region(&p, 0)->pathless_calls, 3);
    scope_rank_profile_free(&p);
}
END_TEST

/* solve called under main from two call sites (return addresses 0x1111
 * and 0x2222; the second with stack 1 of its buffer), 2 and 3 times, in
 * two threads' tables whose sites map to process sites 7 and 4, then to
 * file ids 40 and 70. */
START_TEST(call_sites_split_paths)
{
    struct scope_profile_table *a = new_table(), *b = new_table();
    struct scope_profile_table *tables[] = {a, b};
    uint32_t site_a[2], site_b[2];
    for (int t = 0; t < 2; t++) {
        uint32_t main_path = call(tables[t], SCOPE_PROFILE_ROOT, 0, 100, 1100, 0);
        uint32_t *sites = t ? site_b : site_a;
        sites[0] = scope_profile_path_of(tables[t], main_path, 1, 0x1111, 0);
        sites[1] = scope_profile_path_of(tables[t], main_path, 1, 0x2222, 1);
        ck_assert_uint_ne(sites[0], sites[1]);
        ck_assert_uint_eq(scope_profile_path_of(tables[t], main_path, 1, 0x1111, 0), sites[0]);
        ck_assert_uint_eq(tables[t]->paths[sites[1]].caller, 0x2222);
        ck_assert_uint_eq(tables[t]->paths[sites[1]].stack, 1);
        for (int k = 0; k < 1 + t; k++)
            scope_profile_add(tables[t], 1, sites[0], 200, 210, 0);
        for (int k = 0; k < 2 - t; k++)
            scope_profile_add(tables[t], 1, sites[1], 300, 330, 0);
    }
    int32_t sites_a[3] = {-1, 7, 4}, sites_b[3] = {-1, 7, 4};   /* path order: main, 0x1111, 0x2222 */
    ck_assert_uint_eq(site_a[0], 1);
    ck_assert_uint_eq(site_b[1], 2);
    int32_t *path_sites[] = {sites_a, sites_b};
    struct scope_clock_map m = map_of((unsigned __int128)1 << 64);
    struct scope_rank_profile p;
    char err[128];
    ck_assert_int_eq(scope_rank_profile_build(&p, tables, path_sites, 2, hook_region, 2, 2, &m, 0,
                                              err, sizeof err), 0);
    int32_t file_ids[8] = {0, 0, 0, 0, 70, 0, 0, 40};
    scope_rank_profile_name_sites(&p, file_ids);
    const struct scope_region_profile *main = scope_rank_profile_region(&p, 0), *solve = scope_rank_profile_region(&p, 1);
    ck_assert_ptr_null(main->path_sites);   /* main records no call sites */
    ck_assert_uint_eq(solve->npaths, 2);
    ck_assert_ptr_nonnull(solve->path_sites);
    for (size_t i = 0; i < 2; i++) {
        int at_40 = solve->path_sites[i] == 40;
        ck_assert(at_40 || solve->path_sites[i] == 70);
        ck_assert_int_eq(solve->path_calls[i], 3);
        ck_assert_int_eq(solve->path_total_ns[i], at_40 ? 30 : 90);
        ck_assert_int_eq(p.parents[solve->path_ids[i]], main->path_ids[0]);
    }
    ck_assert_int_eq(solve->pathless_calls, 0);
    scope_rank_profile_free(&p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("profile_rank");
    TCase *tc = tcase_create("profile_rank");
    tcase_add_test(tc, threads_and_hooks_merge);
    tcase_add_test(tc, rounded_total_stays_consistent);
    tcase_add_test(tc, too_deep_is_pathless);
    tcase_add_test(tc, only_written_hooks_are_read);
    tcase_add_test(tc, call_sites_split_paths);
    suite_add_tcase(s, tc);
    return scope_check_run(s);
}
