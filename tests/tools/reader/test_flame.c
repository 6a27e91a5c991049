/* Check unit tests of the flame tree (scope_flame_tree), the rank selection
 * (scope_filter_ranks) and the per-rank mean of scope_summary, on the
 * tutorial's files and on nested, recursive and threaded ones. */
#include "fixtures.h"
#include "scope_reader.h"

#include <check.h>

#include "check_main.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char path[256];

static scope_file *open_fixture(const char *tag, void (*write)(const char *))
{
    snprintf(path, sizeof path, "/tmp/scope-flame-test-%d-%s.h5", (int)getpid(), tag);
    write(path);
    scope_error err = {{0}};
    scope_file *f = scope_open(path, &err);
    ck_assert_msg(f != NULL, "open failed: %s", err.message);
    unlink(path);
    return f;
}

static void tutorial(const char *p) { fx_tutorial(p, true); }

typedef struct want {
    const char *name;
    long parent;
    int depth;
    size_t calls;
    int64_t total, self;
} want;

static void check_nodes(const scope_flame_node *nd, size_t n, const want *w, size_t nw)
{
    ck_assert_int_eq(n, nw);
    for (size_t i = 0; i < n; i++) {
        ck_assert_str_eq(nd[i].name, w[i].name);
        ck_assert_int_eq(nd[i].parent, w[i].parent);
        ck_assert_int_eq(nd[i].depth, w[i].depth);
        ck_assert_int_eq(nd[i].calls, w[i].calls);
        ck_assert_int_eq(nd[i].total_ns, w[i].total);
        ck_assert_int_eq(nd[i].self_ns, w[i].self);
    }
}

/* The tutorial's six timesteps of assemble + solve merge into one path each. */
START_TEST(tutorial_tree)
{
    scope_file *f = open_fixture("tutorial", tutorial);
    int64_t solve = 6 * 2068000LL + 15000000LL, assemble = 6 * 2067000LL;
    int64_t timestep = solve + assemble + 6 * 20000LL;
    const want w[] = {
        {"setup", -1, 0, 1, 10080000, 10080000},
        {"timestep", -1, 0, 6, timestep, 120000},
        {"assemble", 1, 1, 6, assemble, assemble},
        {"solve", 1, 1, 6, solve, solve},
        {"checkpoint", -1, 0, 2, 2 * 4069000LL, 2 * 4069000LL},
    };
    size_t n = 0;
    scope_flame_node *nd = scope_flame_tree(f, NULL, 0, &n, NULL);
    check_nodes(nd, n, w, 5);
    free(nd);

    /* the same with SCOPE_ALL_RANKS: one rank */
    nd = scope_flame_tree(f, NULL, SCOPE_ALL_RANKS, &n, NULL);
    check_nodes(nd, n, w, 5);
    free(nd);

    /* dropping the container: its children become roots, its own time goes */
    const char *ex[] = {"timestep"};
    scope_filter flt = {.exclude = ex, .n_exclude = 1};
    const want w2[] = {
        {"setup", -1, 0, 1, 10080000, 10080000},
        {"assemble", -1, 0, 6, assemble, assemble},
        {"solve", -1, 0, 6, solve, solve},
        {"checkpoint", -1, 0, 2, 2 * 4069000LL, 2 * 4069000LL},
    };
    nd = scope_flame_tree(f, &flt, 0, &n, NULL);
    check_nodes(nd, n, w2, 4);
    free(nd);

    /* dropping a child: the parent's self time takes it */
    const char *inc[] = {"^timestep$"};
    scope_filter only = {.include = inc, .n_include = 1};
    nd = scope_flame_tree(f, &only, 0, &n, NULL);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(nd[0].self_ns, timestep);
    free(nd);

    /* nothing kept: an empty tree, not an error */
    const char *none[] = {"^nothing$"};
    scope_filter nothing = {.include = none, .n_include = 1};
    nd = scope_flame_tree(f, &nothing, 0, &n, NULL);
    ck_assert_ptr_nonnull(nd);
    ck_assert_int_eq(n, 0);
    free(nd);
    scope_close(f);
}
END_TEST

START_TEST(two_ranks_merge)
{
    scope_file *f = open_fixture("two", fx_two_ranks);
    size_t n = 0;
    scope_flame_node *nd = scope_flame_tree(f, NULL, SCOPE_ALL_RANKS, &n, NULL);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(nd[0].calls, 6);
    ck_assert_int_eq(nd[0].total_ns, 1690000000LL);
    free(nd);
    nd = scope_flame_tree(f, NULL, 1, &n, NULL);
    ck_assert_int_eq(nd[0].total_ns, 1040000000LL);
    free(nd);
    int zero = 0;
    scope_filter r0 = {.ranks = &zero, .n_ranks = 1};
    nd = scope_flame_tree(f, &r0, SCOPE_ALL_RANKS, &n, NULL);
    ck_assert_int_eq(nd[0].total_ns, 650000000LL);
    free(nd);

    scope_error err = {{0}};
    ck_assert_ptr_null(scope_flame_tree(f, NULL, 5, &n, &err));
    ck_assert_str_eq(err.message, "unknown rank 5");
    const char *bad[] = {"("};
    scope_filter bad_re = {.include = bad, .n_include = 1};
    ck_assert_ptr_null(scope_flame_tree(f, &bad_re, 0, &n, &err));
    ck_assert(strstr(err.message, "bad regular expression"));

    /* rank selection: ascending, no repeats */
    int ranks[2], asked[] = {1, 0, 1};
    scope_filter sel = {.ranks = asked, .n_ranks = 3};
    ck_assert_int_eq(scope_filter_ranks(f, &sel, ranks, NULL), 2);
    ck_assert_int_eq(ranks[0], 0);
    ck_assert_int_eq(ranks[1], 1);
    ck_assert_int_eq(scope_filter_ranks(f, NULL, ranks, NULL), 2);
    int seven = 7;
    scope_filter unknown = {.ranks = &seven, .n_ranks = 1};
    ck_assert_int_eq(scope_filter_ranks(f, &unknown, ranks, &err), -1);
    ck_assert_str_eq(err.message, "unknown rank 7");

    /* the mean per-rank total `scope diff` compares */
    size_t ns = 0;
    scope_region_stats *st = scope_summary(f, NULL, &ns, NULL);
    ck_assert_double_eq_tol(st[0].rank_mean, 0.845, 1e-9);
    free(st);
    st = scope_summary(f, &r0, &ns, NULL);
    ck_assert_double_eq_tol(st[0].rank_mean, 0.65, 1e-9);
    free(st);
    scope_close(f);
}
END_TEST

/* outer > fib > fib > fib > leaf: recursion gives one node per depth. */
static void recursive(const char *p)
{
    hid_t file = fx_create(p);
    hid_t regions = fx_rank(file, 0);
    int64_t fs[] = {20, 0, 10, 120}, fe[] = {80, 100, 90, 150};
    int64_t os[] = {0}, oe[] = {200}, ls[] = {30}, le[] = {40};
    fx_region(regions, "fib", fs, 4, fe, 4, NULL, 0);
    fx_region(regions, "outer", os, 1, oe, 1, NULL, 0);
    fx_region(regions, "leaf", ls, 1, le, 1, NULL, 0);
    H5Gclose(regions);
    fx_close(file);
}

START_TEST(recursion_paths)
{
    scope_file *f = open_fixture("recursive", recursive);
    size_t n = 0;
    scope_flame_node *nd = scope_flame_tree(f, NULL, 0, &n, NULL);
    /* outer; outer;fib (the calls at 0 and 120 merge); fib;fib; fib;fib;fib;
     * ...;leaf */
    const want w[] = {
        {"outer", -1, 0, 1, 200, 70},
        {"fib", 0, 1, 2, 130, 50},
        {"fib", 1, 2, 1, 80, 20},
        {"fib", 2, 3, 1, 60, 50},
        {"leaf", 3, 4, 1, 10, 10},
    };
    check_nodes(nd, n, w, 5);
    free(nd);
    scope_close(f);
}
END_TEST

/* Threads nest on their own; their paths merge by name. */
START_TEST(threads_merge)
{
    scope_file *f = open_fixture("threads", fx_threads);
    size_t n = 0;
    scope_flame_node *nd = scope_flame_tree(f, NULL, 0, &n, NULL);
    const want w[] = {
        {"work", -1, 0, 2, 140000000, 130000000},
        {"op<T>&\"x\"", 0, 1, 1, 10000000, 10000000},
    };
    check_nodes(nd, n, w, 2);
    free(nd);
    scope_close(f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("flame");
    TCase *tc = tcase_create("flame");
    tcase_add_test(tc, tutorial_tree);
    tcase_add_test(tc, two_ranks_merge);
    tcase_add_test(tc, recursion_paths);
    tcase_add_test(tc, threads_merge);
    suite_add_tcase(s, tc);
    return scope_check_run(s);
}
