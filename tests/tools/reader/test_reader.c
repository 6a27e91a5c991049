/* Check unit tests of libscope-reader against files written with the plain
 * HDF5 C API: the tutorial's numbers, origins, recursion, threads, and every
 * kind of bad input. */
#include "fixtures.h"
#include "reader_internal.h"
#include "scope_reader.h"

#include <check.h>

#include "check_main.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char path[256];

static void make_path(const char *tag)
{
    snprintf(path, sizeof path, "/tmp/scope-reader-test-%d-%s.h5", (int)getpid(), tag);
}

static scope_file *open_ok(void)
{
    scope_error err = {{0}};
    scope_file *f = scope_open(path, &err);
    ck_assert_msg(f != NULL, "open failed: %s", err.message);
    return f;
}

/* Open must fail with a message containing `want`, printing nothing. */
static void open_fails(const char *want)
{
    char log[300];
    snprintf(log, sizeof log, "%s.stderr", path);
    fflush(stderr);
    FILE *saved = freopen(log, "w", stderr);
    ck_assert_ptr_nonnull(saved);
    scope_error err = {{0}};
    scope_file *f = scope_open(path, &err);
    fflush(stderr);
    struct stat st;
    ck_assert_int_eq(stat(log, &st), 0);
    unlink(log);
    ck_assert_int_eq(st.st_size, 0);
    ck_assert_ptr_null(f);
    ck_assert_msg(strstr(err.message, want), "message '%s' lacks '%s'", err.message, want);
}

/* ---- (a) the tutorial's two-rank file ---------------------------------- */

START_TEST(two_ranks_events)
{
    make_path("two");
    fx_two_ranks(path);
    scope_file *f = open_ok();
    ck_assert_int_eq(scope_rank_count(f), 2);
    ck_assert_int_eq(scope_region_count(f), 1);
    ck_assert_str_eq(scope_region_name(f, 0), "solve");
    ck_assert(!scope_has_run_start_time(f));
    ck_assert(isnan(scope_run_start_time(f)));

    size_t n = 0;
    scope_event *ev = scope_events(f, NULL, &n, NULL);
    ck_assert_int_eq(n, 6);
    const double start[] = {0, 0.5, 1.0, 0, 0.5, 1.0};
    const double end[] = {0.2, 0.75, 1.2, 0.32, 0.9, 1.32};
    for (size_t i = 0; i < n; i++) {
        ck_assert_str_eq(ev[i].name, "solve");
        ck_assert_int_eq(ev[i].rank, (int)(i / 3));
        ck_assert_int_eq(ev[i].call_index, i % 3);
        ck_assert_double_eq_tol(ev[i].start, start[i], 1e-9);
        ck_assert_double_eq_tol(ev[i].end, end[i], 1e-9);
        ck_assert_double_eq_tol(ev[i].duration, end[i] - start[i], 1e-9);
        ck_assert_int_eq(ev[i].call_id, (long)(i % 3));
        ck_assert_int_eq(ev[i].parent_id, -1);
    }
    free(ev);
    scope_close(f);
    unlink(path);
}
END_TEST

START_TEST(two_ranks_imbalance)
{
    make_path("imb");
    fx_two_ranks(path);
    scope_file *f = open_ok();
    int ranks[2];
    double totals[2];
    ck_assert_int_eq(scope_region_total_durations(f, 0, ranks, totals), 2);
    ck_assert_int_eq(ranks[0], 0);
    ck_assert_int_eq(ranks[1], 1);
    ck_assert_double_eq_tol(totals[0], 0.65, 1e-9);
    ck_assert_double_eq_tol(totals[1], 1.04, 1e-9);

    scope_imbalance im;
    ck_assert_int_eq(scope_region_imbalance(f, 0, NULL, &im, NULL), 0);
    ck_assert_int_eq(im.ranks, 2);
    ck_assert_int_eq(im.max_rank, 1);
    ck_assert_int_eq(im.min_rank, 0);
    ck_assert_double_eq_tol(im.max_over_min, 1.6, 1e-9);
    ck_assert_double_eq_tol(im.max_over_mean, 1.04 / 0.845, 1e-9);

    int one = 1;
    scope_filter only1 = {.ranks = &one, .n_ranks = 1};
    ck_assert_int_eq(scope_region_imbalance(f, 0, &only1, &im, NULL), 0);
    ck_assert_int_eq(im.ranks, 1);
    ck_assert_double_eq_tol(im.max_over_min, 1.0, 1e-12);

    size_t n = 0;
    scope_region_stats *st = scope_summary(f, NULL, &n, NULL);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(st[0].calls, 6);
    ck_assert_double_eq_tol(st[0].total, 1.69, 1e-9);
    ck_assert_double_eq_tol(st[0].share, 1.69 / 2 / 1.32, 1e-9);
    ck_assert_double_eq_tol(st[0].self, 1.69, 1e-9);
    free(st);
    scope_close(f);
    unlink(path);
}
END_TEST

/* ---- (b) the tutorial's single-rank run -------------------------------- */

START_TEST(tutorial_regions_and_times)
{
    make_path("tut");
    fx_tutorial(path, true);
    scope_file *f = open_ok();
    const char *order[] = {"setup", "timestep", "assemble", "solve", "checkpoint"};
    ck_assert_int_eq(scope_region_count(f), 5);
    for (size_t r = 0; r < 5; r++)
        ck_assert_str_eq(scope_region_name(f, r), order[r]);
    ck_assert_int_eq(scope_event_count(f), 21);
    ck_assert(scope_has_run_start_time(f));
    ck_assert_int_eq(scope_run_start_time_ns(f), fx_tutorial_run_start_ns);
    ck_assert_double_eq_tol(scope_startup_time(f), 0.00196, 1e-12);
    ck_assert_double_eq(scope_time_origin(f), scope_run_start_time(f));
    ck_assert_double_eq_tol(scope_time_span(f),
                            scope_maximum_end_time(f) - scope_minimum_start_time(f), 1e-9);

    const scope_meta *host = scope_metadata_find(f, "hostname"); /* fixed-length */
    const scope_meta *ver = scope_metadata_find(f, "version");   /* variable-length */
    ck_assert_ptr_nonnull(host);
    ck_assert_ptr_nonnull(ver);
    ck_assert_str_eq(host->text, "node01");
    ck_assert_str_eq(ver->text, "0.1.0");
    ck_assert_int_eq(scope_metadata_find(f, "mpi_size")->int_value, 1);

    long solve = scope_region_find(f, "solve");
    const scope_series *s = scope_region_on_rank(f, (size_t)solve, 0);
    ck_assert_int_eq(s->count, 6);
    int64_t dns[6];
    double d[6];
    scope_region_durations_ns(f, (size_t)solve, 0, dns);
    scope_region_durations(f, (size_t)solve, 0, d);
    ck_assert_int_eq(dns[5], 7068000);
    ck_assert_double_eq_tol(d[0], 0.002068, 1e-12);
    ck_assert_int_eq(scope_region_total_ns(f, (size_t)solve, 0), 27408000);
    ck_assert_ptr_null(scope_region_on_rank(f, (size_t)solve, 3));
    scope_close(f);
    unlink(path);
}
END_TEST

START_TEST(tutorial_call_ids)
{
    make_path("ids");
    fx_tutorial(path, true);
    scope_file *f = open_ok();
    size_t n = 0;
    scope_event *ev = scope_events(f, NULL, &n, NULL);
    ck_assert_int_eq(n, 21);
    ck_assert_str_eq(ev[0].name, "setup");
    ck_assert_int_eq(ev[0].call_id, 0);
    ck_assert_int_eq(ev[0].parent_id, -1);
    ck_assert_int_eq(ev[1].call_id, 1);
    ck_assert_int_eq(ev[2].call_id, 4);
    ck_assert_int_eq(ev[3].call_id, 7);
    free(ev);

    const char *inc[] = {"solve"};
    scope_filter flt = {.include = inc, .n_include = 1};
    ev = scope_events(f, &flt, &n, NULL);
    ck_assert_int_eq(n, 6);
    ck_assert_int_eq(ev[5].call_index, 5);
    ck_assert_int_eq(ev[5].call_id, 19);
    ck_assert_int_eq(ev[5].parent_id, 17);
    ck_assert_double_eq_tol(ev[5].duration, 0.007068, 1e-12);
    free(ev);

    const char *two[] = {"solve", "assemble"}, *exc[] = {"checkpoint"};
    flt = (scope_filter){.include = two, .n_include = 2};
    ev = scope_events(f, &flt, &n, NULL);
    ck_assert_int_eq(n, 12);
    ck_assert_str_eq(ev[0].name, "assemble");
    free(ev);
    flt = (scope_filter){.exclude = exc, .n_exclude = 1};
    ev = scope_events(f, &flt, &n, NULL);
    ck_assert_int_eq(n, 19);
    free(ev);
    const char *anchored[] = {"^s"};
    flt = (scope_filter){.include = anchored, .n_include = 1};
    ev = scope_events(f, &flt, &n, NULL);
    ck_assert_int_eq(n, 7); /* setup + solve: search semantics, ^ honoured */
    free(ev);
    scope_close(f);
    unlink(path);
}
END_TEST

START_TEST(tutorial_call_stack)
{
    make_path("stack");
    fx_tutorial(path, true);
    scope_file *f = open_ok();
    size_t n = 0, n_roots = 0;
    scope_call *calls = scope_call_stack(f, 0, &n, NULL);
    ck_assert_int_eq(n, 21);
    const char *first[] = {"setup", "timestep", "assemble", "solve", "timestep"};
    const int depth[] = {0, 0, 1, 1, 0};
    for (int i = 0; i < 5; i++) {
        ck_assert_str_eq(calls[i].name, first[i]);
        ck_assert_int_eq(calls[i].depth, depth[i]);
    }
    ck_assert_int_eq(calls[2].parent, 1);
    ck_assert_int_eq(calls[19].parent, 17);
    ck_assert_double_eq_tol(calls[1].duration, 0.004155, 1e-12);

    size_t *roots = scope_call_stack_roots(calls, n, &n_roots);
    ck_assert_int_eq(n_roots, 9);
    const char *root_names[] = {"setup", "timestep", "timestep", "timestep", "checkpoint",
                                "timestep", "timestep", "timestep", "checkpoint"};
    scope_children ch;
    ck_assert_int_eq(scope_call_stack_children(calls, n, &ch, NULL), 0);
    for (size_t i = 0; i < n_roots; i++) {
        size_t r = roots[i], nc = ch.offsets[r + 1] - ch.offsets[r];
        ck_assert_str_eq(calls[r].name, root_names[i]);
        ck_assert_int_eq(nc, strcmp(root_names[i], "timestep") == 0 ? 2 : 0);
        if (nc) {
            ck_assert_str_eq(calls[ch.items[ch.offsets[r]]].name, "assemble");
            ck_assert_str_eq(calls[ch.items[ch.offsets[r] + 1]].name, "solve");
        }
    }
    scope_children_free(&ch);
    free(roots);
    free(calls);

    int64_t self[5];
    ck_assert_int_eq(scope_self_times_ns(f, 0, self, NULL), 0);
    ck_assert_int_eq(self[0], 10080000);  /* setup */
    ck_assert_int_eq(self[1], 120000);    /* timestep: 6 x 20 us */
    ck_assert_int_eq(self[2], 12402000);  /* assemble */
    ck_assert_int_eq(self[3], 27408000);  /* solve */
    ck_assert_int_eq(self[4], 8138000);   /* checkpoint */

    size_t ns = 0;
    scope_region_stats *st = scope_summary(f, NULL, &ns, NULL);
    ck_assert_int_eq(ns, 5);
    ck_assert(isnan(st[0].std));
    ck_assert_double_eq_tol(st[1].total, 0.03993, 1e-12);
    ck_assert_double_eq_tol(st[1].self, 0.00012, 1e-12);
    ck_assert_double_eq_tol(st[3].mean, 0.027408 / 6, 1e-12);
    ck_assert_double_eq_tol(st[3].std, 0.0018708287, 1e-9); /* 1 ms steps, ddof = 1 */
    ck_assert_double_eq_tol(st[0].share, 0.01008 / scope_time_span(f), 1e-12);
    free(st);
    scope_close(f);
    unlink(path);
}
END_TEST

START_TEST(tutorial_origins)
{
    make_path("origin");
    fx_tutorial(path, true);
    scope_file *f = open_ok();
    const char *inc[] = {"^setup$"};
    scope_filter flt = {.include = inc, .n_include = 1};
    size_t n = 0;
    scope_event *ev = scope_events(f, &flt, &n, NULL);
    ck_assert_int_eq(n, 1);
    ck_assert_double_eq_tol(ev[0].start, 0.00196, 1e-12);
    free(ev);

    flt.absolute = true;
    ev = scope_events(f, &flt, &n, NULL);
    ck_assert_int_eq(ev[0].start_ns, fx_tutorial_run_start_ns + 1960000);
    ck_assert_double_eq_tol(ev[0].start, 163.431173445, 1e-9);
    free(ev);

    flt.absolute = false;
    flt.has_origin = true;
    flt.origin_ns = scope_minimum_start_time_ns(f);
    ev = scope_events(f, &flt, &n, NULL);
    ck_assert_double_eq_tol(ev[0].start, 0.0, 1e-15);
    ck_assert_double_eq_tol(ev[0].end, 0.01008, 1e-12);
    free(ev);
    scope_close(f);
    unlink(path);
}
END_TEST

/* ---- (c) no run_start_time -------------------------------------------- */

START_TEST(no_run_start)
{
    make_path("nostart");
    fx_tutorial(path, false);
    scope_file *f = open_ok();
    ck_assert(!scope_has_run_start_time(f));
    ck_assert(isnan(scope_run_start_time(f)));
    ck_assert(isnan(scope_startup_time(f)));
    ck_assert_int_eq(scope_time_origin_ns(f), scope_minimum_start_time_ns(f));
    size_t n = 0;
    scope_event *ev = scope_events(f, NULL, &n, NULL);
    ck_assert_double_eq_tol(ev[0].start, 0.0, 1e-15); /* setup is the first entry */
    free(ev);
    scope_close(f);
    unlink(path);
}
END_TEST

START_TEST(escaped_names)
{
    make_path("escape");
    hid_t file = fx_create(path);
    hid_t regions = fx_rank(file, 0);
    int64_t s[] = {0}, e[] = {5};
    fx_region(regions, "a%2Fb", s, 1, e, 1, NULL, 0);
    fx_region(regions, "%2E", s, 1, e, 1, NULL, 0);
    fx_region(regions, "100%25", s, 1, e, 1, NULL, 0);
    H5Gclose(regions);
    fx_close(file);
    scope_file *f = open_ok();
    ck_assert_int_ge(scope_region_find(f, "a/b"), 0);
    ck_assert_int_ge(scope_region_find(f, "."), 0);
    ck_assert_int_ge(scope_region_find(f, "100%"), 0);
    scope_close(f);
    unlink(path);
}
END_TEST

/* ---- (d) recursion, unsorted storage, equal starts ---------------------- */

START_TEST(recursion)
{
    make_path("recursion");
    hid_t file = fx_create(path);
    hid_t regions = fx_rank(file, 0);
    int64_t fs[] = {20, 0, 10}, fe[] = {80, 100, 90}; /* stored out of order */
    int64_t os[] = {0}, oe[] = {200}, ls[] = {30}, le[] = {40};
    fx_region(regions, "fib", fs, 3, fe, 3, NULL, 0);
    fx_region(regions, "outer", os, 1, oe, 1, NULL, 0);
    fx_region(regions, "leaf", ls, 1, le, 1, NULL, 0);
    H5Gclose(regions);
    fx_close(file);
    scope_file *f = open_ok();
    size_t n = 0;
    scope_call *calls = scope_call_stack(f, 0, &n, NULL);
    ck_assert_int_eq(n, 5);
    const char *names[] = {"outer", "fib", "fib", "fib", "leaf"};
    for (int i = 0; i < 5; i++) {
        ck_assert_str_eq(calls[i].name, names[i]);
        ck_assert_int_eq(calls[i].depth, i);
        ck_assert_int_eq(calls[i].parent, i - 1);
    }
    ck_assert_int_eq(calls[1].call_index, 1);
    free(calls);

    size_t ne = 0;
    scope_event *ev = scope_events(f, NULL, &ne, NULL);
    /* region order: outer and fib both start at 0 (name decides), then leaf */
    ck_assert_str_eq(ev[0].name, "fib");
    ck_assert_int_eq(ev[0].call_index, 0);
    ck_assert_int_eq(ev[0].call_id, 3);
    ck_assert_int_eq(ev[0].parent_id, 2);
    free(ev);

    int64_t self[3];
    ck_assert_int_eq(scope_self_times_ns(f, 0, self, NULL), 0);
    long fib = scope_region_find(f, "fib"), outer = scope_region_find(f, "outer");
    ck_assert_int_eq(self[fib], 240 - 80 - 60 - 10);
    ck_assert_int_eq(self[outer], 100);
    scope_close(f);
    unlink(path);
}
END_TEST

/* ---- (e) threads ---------------------------------------------------------- */

START_TEST(threads)
{
    make_path("threads");
    hid_t file = fx_create(path);
    hid_t regions = fx_rank(file, 0);
    int64_t ws[] = {0, 10}, we[] = {100, 50}, is[] = {20}, ie[] = {30};
    int32_t wt[] = {0, 1}, it[] = {1};
    fx_region(regions, "work", ws, 2, we, 2, wt, 2);
    fx_region(regions, "inner", is, 1, ie, 1, it, 1);
    H5Gclose(regions);
    fx_close(file);
    scope_file *f = open_ok();
    ck_assert(scope_has_thread_ids(f));
    size_t n = 0;
    scope_call *calls = scope_call_stack(f, 0, &n, NULL);
    ck_assert_int_eq(n, 3);
    ck_assert_int_eq(calls[0].thread_id, 0);
    ck_assert_int_eq(calls[1].thread_id, 1);
    ck_assert_int_eq(calls[1].depth, 0); /* overlaps call 0 but on another thread */
    ck_assert_int_eq(calls[1].parent, -1);
    ck_assert_str_eq(calls[2].name, "inner");
    ck_assert_int_eq(calls[2].parent, 1);
    ck_assert_int_eq(calls[2].depth, 1);
    free(calls);
    scope_close(f);
    unlink(path);
}
END_TEST

/* ---- (f) bad input -------------------------------------------------------- */

START_TEST(bad_missing_and_not_hdf5)
{
    make_path("missing");
    open_fails("No such file");
    make_path("text");
    FILE *fp = fopen(path, "w");
    fputs("this is not HDF5\n", fp);
    fclose(fp);
    open_fails("not an HDF5 file");
    unlink(path);
}
END_TEST

START_TEST(bad_truncated)
{
    make_path("full");
    fx_tutorial(path, true);
    char full[256];
    snprintf(full, sizeof full, "%s", path);
    FILE *in = fopen(full, "rb");
    fseek(in, 0, SEEK_END);
    long size = ftell(in);
    rewind(in);
    char *buf = malloc((size_t)size);
    ck_assert_int_eq(fread(buf, 1, (size_t)size, in), (size_t)size);
    fclose(in);
    make_path("truncated");
    FILE *out = fopen(path, "wb");
    fwrite(buf, 1, (size_t)size / 2, out);
    fclose(out);
    free(buf);
    open_fails("");
    unlink(path);
    unlink(full);
}
END_TEST

/* Build one bad file with `build`, expect `want` in the message. */
static void bad_layout(void (*build)(hid_t file), const char *want)
{
    make_path("layout");
    hid_t file = fx_create(path);
    build(file);
    fx_close(file);
    open_fails(want);
    unlink(path);
}

static void no_regions(hid_t file)
{
    H5Gclose(H5Gcreate2(file, "rank0", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
}

static void mismatched(hid_t file)
{
    int64_t s[] = {0, 10}, e[] = {5};
    hid_t g = fx_rank(file, 0);
    fx_region(g, "solve", s, 2, e, 1, NULL, 0);
    H5Gclose(g);
}

static void mismatched_threads(hid_t file)
{
    int64_t s[] = {0, 10}, e[] = {5, 15};
    int32_t t[] = {0};
    hid_t g = fx_rank(file, 0);
    fx_region(g, "solve", s, 2, e, 2, t, 1);
    H5Gclose(g);
}

static void missing_end(hid_t file)
{
    int64_t s[] = {0};
    hid_t g = fx_rank(file, 0);
    fx_region(g, "solve", s, 1, NULL, 0, NULL, 0);
    H5Gclose(g);
}

static void ends_early(hid_t file)
{
    int64_t s[] = {10}, e[] = {5};
    hid_t g = fx_rank(file, 0);
    fx_region(g, "solve", s, 1, e, 1, NULL, 0);
    H5Gclose(g);
}

static void negative_dropped(hid_t file)
{
    fx_rank_dropped(file, 0, -3);
}

static void stray_group(hid_t file)
{
    H5Gclose(fx_rank(file, 0));
    H5Gclose(H5Gcreate2(file, "results", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
}

static void only_metadata(hid_t file)
{
    fx_metadata(file, 5);
}

START_TEST(bad_layouts)
{
    bad_layout(no_regions, "rank0: no 'regions' group");
    bad_layout(mismatched, "2 start_times but 1 end_times");
    bad_layout(mismatched_threads, "2 start_times but 1 thread_ids");
    bad_layout(missing_end, "missing start_times or end_times");
    bad_layout(ends_early, "ends before it starts");
    bad_layout(stray_group, "unexpected top-level object 'results'");
    bad_layout(only_metadata, "no rank{N} groups");
    bad_layout(negative_dropped, "rank0: dropped_events is not a count");
}
END_TEST

/* dropped_events per rank; a file without it (the seed's) has none. */
START_TEST(dropped_calls)
{
    make_path("dropped");
    hid_t file = fx_create(path);
    fx_metadata(file, 0);
    int64_t s[] = {0}, e[] = {5};
    for (int rank = 0; rank < 3; rank++) {
        hid_t g = fx_rank(file, rank);
        fx_region(g, "solve", s, 1, e, 1, NULL, 0);
        H5Gclose(g);
    }
    fx_rank_dropped(file, 1, 51424);
    fx_rank_dropped(file, 2, 0);
    fx_close(file);
    scope_file *f = open_ok();
    ck_assert_uint_eq(scope_rank_dropped(f, 0), 0);
    ck_assert_uint_eq(scope_rank_dropped(f, 1), 51424);
    ck_assert_uint_eq(scope_rank_dropped(f, 2), 0);
    ck_assert_uint_eq(scope_rank_dropped(f, 3), 0);   /* no such rank index */
    scope_close(f);
    unlink(path);
}
END_TEST

/* A region group's attributes and the bytes of its datasets, read when
 * asked: from the lowest rank that has them, over every rank. */
START_TEST(region_group)
{
    make_path("group");
    fx_suggest(path);
    scope_file *f = open_ok();
    long dot = scope_region_find(f, "ns::Vec::dot(double const*) const");
    long add = scope_region_find(f, "tiny_add");
    ck_assert(dot >= 0 && add >= 0);
    char *symbol = scope_region_attribute(f, (size_t)dot, "symbol");
    char *library = scope_region_attribute(f, (size_t)dot, "library");
    ck_assert_str_eq(symbol, "_ZNK2ns3Vec3dotEPKd");
    ck_assert_str_eq(library, "/opt/app/bin/app");
    ck_assert_ptr_null(scope_region_attribute(f, (size_t)add, "symbol"));
    ck_assert_ptr_null(scope_region_attribute(f, (size_t)dot, "no_such_attribute"));
    scope_error err = {{0}};
    /* 2 ranks x 40000 calls x start and end x 8 bytes, stored as they are */
    ck_assert_int_eq(scope_region_storage_bytes(f, (size_t)dot, &err), 1280000);
    free(symbol);
    free(library);
    scope_close(f);
    unlink(path);
}
END_TEST

START_TEST(bad_regex_and_rank)
{
    make_path("badre");
    fx_two_ranks(path);
    scope_file *f = open_ok();
    scope_error err = {{0}};
    size_t n = 0;
    const char *bad[] = {"so(lve"};
    scope_filter flt = {.include = bad, .n_include = 1};
    ck_assert_ptr_null(scope_events(f, &flt, &n, &err));
    ck_assert_ptr_nonnull(strstr(err.message, "bad regular expression 'so(lve'"));
    flt = (scope_filter){.exclude = bad, .n_exclude = 1};
    ck_assert_ptr_null(scope_summary(f, &flt, &n, &err));
    ck_assert_int_eq(scope_filter_region(f, &flt, 0, &err), -1);

    int seven = 7;
    flt = (scope_filter){.ranks = &seven, .n_ranks = 1};
    ck_assert_ptr_null(scope_events(f, &flt, &n, &err));
    ck_assert_str_eq(err.message, "unknown rank 7");
    ck_assert_ptr_null(scope_call_stack(f, 7, &n, &err));
    ck_assert_str_eq(err.message, "unknown rank 7");
    int64_t self[1];
    ck_assert_int_eq(scope_self_times_ns(f, 7, self, NULL), -1);
    scope_close(f);
    unlink(path);
}
END_TEST

/* ---- statistics stored by scope's writer -------------------------------- */

/* One rank, region "outer" (2 calls) containing "inner" (1 call), with
 * statistics attributes that are `st_outer` (valid but deliberately not the
 * calls' own, so a test can tell which were used) and the true ones of
 * inner without self time. */
static const int64_t st_s[] = {100, 1000}, st_e[] = {400, 1500};
static const int64_t in_s[] = {150}, in_e[] = {250};
static fx_stats st_outer = {.calls = 2, .total_ns = 700, .min_ns = 200, .max_ns = 500,
                            .first_start_ns = 100, .last_end_ns = 1500, .self_ns = 650,
                            .m2_ns2 = 45000};

static void stats_file(const fx_stats *outer)
{
    make_path("stats");
    hid_t file = fx_create(path);
    fx_metadata(file, 50);
    hid_t g = fx_rank(file, 0);
    fx_region(g, "outer", st_s, 2, st_e, 2, NULL, 0);
    fx_region(g, "inner", in_s, 1, in_e, 1, NULL, 0);
    fx_region_stats(g, "outer", outer);
    fx_region_stats(g, "inner", &(fx_stats){.calls = 1, .total_ns = 100, .min_ns = 100,
                                            .max_ns = 100, .first_start_ns = 150,
                                            .last_end_ns = 250, .self_ns = -1});
    H5Gclose(g);
    fx_close(file);
}

START_TEST(stored_stats_are_used)
{
    st_outer.total_ns = 700; /* the calls say 300 + 500 = 800 */
    stats_file(&st_outer);
    scope_error err = {{0}};
    for (int recompute = 0; recompute < 2; recompute++) {
        scope_file *f = scope_open_ex(path, recompute ? SCOPE_OPEN_RECOMPUTE : 0, &err);
        ck_assert_msg(f != NULL, "open failed: %s", err.message);
        size_t n = 0;
        scope_region_stats *st = scope_summary(f, NULL, &n, &err);
        ck_assert_ptr_nonnull(st);
        ck_assert_uint_eq(n, 2);
        ck_assert_str_eq(scope_region_name(f, st[0].region), "outer");
        ck_assert_uint_eq(st[0].calls, 2);
        ck_assert_double_eq_tol(st[0].total, recompute ? 800e-9 : 700e-9, 1e-15);
        ck_assert_double_eq_tol(st[0].std, sqrt(recompute ? 20000.0 : 45000.0) / 1e9, 1e-15);
        /* inner has no self_ns: self times of rank 0 come from the calls */
        ck_assert_double_eq_tol(st[0].self, 700e-9, 1e-15);
        ck_assert_double_eq_tol(st[1].self, 100e-9, 1e-15);
        ck_assert_int_eq(scope_region_total_ns(f, 0, 0), recompute ? 800 : 700);
        /* the calls themselves are read on first use */
        const scope_series *ser = scope_region_on_rank(f, 0, 0);
        ck_assert_ptr_nonnull(ser);
        ck_assert_int_eq(ser->end_ns[1], 1500);
        free(st);
        scope_close(f);
    }
    unlink(path);
}
END_TEST

START_TEST(stored_self_is_used)
{
    stats_file(&st_outer);
    hid_t file = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t g = H5Gopen2(file, "rank0/regions/inner", H5P_DEFAULT);
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(g, "self_ns", H5T_STD_I64LE, space, H5P_DEFAULT, H5P_DEFAULT);
    int64_t v = 90;
    H5Awrite(a, H5T_NATIVE_INT64, &v);
    H5Aclose(a);
    H5Sclose(space);
    H5Gclose(g);
    H5Fclose(file);
    scope_file *f = open_ok();
    int64_t self[2];
    ck_assert_int_eq(scope_self_times_ns(f, 0, self, NULL), 0);
    ck_assert_int_eq(self[0], 650);
    ck_assert_int_eq(self[1], 90);
    scope_close(f);
    unlink(path);
}
END_TEST

START_TEST(damaged_stats)
{
    fx_stats bad = st_outer;
    bad.min_ns = 600; /* above max */
    stats_file(&bad);
    open_fails("rank0/regions/outer: damaged statistics (");
    bad = st_outer;
    bad.calls = 3; /* the datasets hold 2: found when the calls are first read */
    bad.min_ns = 100;
    stats_file(&bad);
    scope_file *f = open_ok();
    scope_error err = {{0}};
    size_t n = 0;
    ck_assert_ptr_null(scope_events(f, NULL, &n, &err));
    ck_assert_str_eq(err.message, "rank0/regions/outer: 2 calls but the statistics say 3");
    ck_assert_ptr_null(scope_region_on_rank(f, 0, 0));
    scope_close(f);
    bad = st_outer;
    bad.self_ns = 701; /* more than the total */
    stats_file(&bad);
    open_fails("damaged statistics");
    unlink(path);
}
END_TEST

/* How many of the file's series have their calls in memory. */
static size_t series_loaded(const scope_file *f)
{
    size_t n = 0;
    for (size_t i = 0; i < f->n_regions * f->n_ranks; i++)
        n += f->table[i] && f->table[i]->loaded;
    return n;
}

/* Opening a file with statistics reads no calls, nor do the questions the
 * statistics answer (info, summary, imbalance, self times); the calls are
 * read when asked for, only the series asked for or its rank's. A file
 * without statistics has its calls read at open. */
START_TEST(lazy_open)
{
    stats_file(&st_outer);
    hid_t file = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t g = H5Gopen2(file, "rank0/regions/inner", H5P_DEFAULT);
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(g, "self_ns", H5T_STD_I64LE, space, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, H5T_NATIVE_INT64, &(int64_t){100});
    H5Aclose(a);
    H5Sclose(space);
    H5Gclose(g);
    H5Fclose(file);
    scope_file *f = open_ok();
    ck_assert_uint_eq(scope_event_count(f), 3);
    ck_assert_double_eq_tol(scope_time_span(f), 1400e-9, 1e-15);
    size_t n = 0;
    scope_region_stats *st = scope_summary(f, NULL, &n, NULL);
    ck_assert_ptr_nonnull(st);
    ck_assert_double_eq_tol(st[0].self, 650e-9, 1e-15);
    free(st);
    scope_imbalance im;
    ck_assert_int_eq(scope_region_imbalance(f, 0, NULL, &im, NULL), 0);
    ck_assert_uint_eq(series_loaded(f), 0);
    ck_assert_ptr_nonnull(scope_region_on_rank(f, 1, 0));
    ck_assert_uint_eq(series_loaded(f), 1);
    scope_event *ev = scope_events(f, NULL, &n, NULL);
    ck_assert_ptr_nonnull(ev);
    free(ev);
    ck_assert_uint_eq(series_loaded(f), 2);
    scope_close(f);

    fx_tutorial(path, true);
    f = open_ok();
    ck_assert_uint_eq(series_loaded(f), 5);
    scope_close(f);
    unlink(path);
}
END_TEST

static Suite *reader_suite(void)
{
    Suite *s = suite_create("reader");
    struct {
        const char *name;
        const TTest *test;
    } cases[] = {
        {"two_ranks", two_ranks_events},        {"two_ranks", two_ranks_imbalance},
        {"tutorial", tutorial_regions_and_times}, {"tutorial", tutorial_call_ids},
        {"tutorial", tutorial_call_stack},      {"tutorial", tutorial_origins},
        {"no_run_start", no_run_start},         {"no_run_start", escaped_names},
        {"recursion", recursion},               {"threads", threads},
        {"bad_input", bad_missing_and_not_hdf5}, {"bad_input", bad_truncated},
        {"bad_input", bad_layouts},             {"bad_input", bad_regex_and_rank},
        {"bad_input", dropped_calls},           {"region_group", region_group},
        {"stats", stored_stats_are_used},       {"stats", stored_self_is_used},
        {"stats", damaged_stats},               {"stats", lazy_open},
    };
    TCase *tc = NULL;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (!tc || strcmp(cases[i - 1].name, cases[i].name) != 0) {
            tc = tcase_create(cases[i].name);
            suite_add_tcase(s, tc);
        }
        tcase_add_test(tc, cases[i].test);
    }
    return s;
}

int main(void)
{
    return scope_check_run(reader_suite());
}
