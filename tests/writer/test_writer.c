/* test_writer.c: Check unit tests of libscope-writer. Writes the sample
 * file (sample.c) and reads it back with the plain HDF5 C API; checks the
 * temporary-file protocol, name escaping, that every kind of error comes
 * back as -1 with a message and without HDF5 printing anything, and MPI
 * payload (per call and per message, across windows of both, appended or
 * put as windows) with the communicator table, argument and return values
 * (only the datasets recorded), and that /metadata's index agrees with the
 * groups it indexes. */
#include <check.h>

#include "check_main.h"
#include <dirent.h>
#include <fcntl.h>
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file_index_format.h"
#include "region_stream.h"
#include "sample.h"

static char dir[64];
static char path[128];

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/scope-writer-test-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/out.h5", dir);
}

static void teardown(void)
{
    DIR *d = opendir(dir);
    char file[512];
    for (struct dirent *e; d && (e = readdir(d));) {
        snprintf(file, sizeof file, "%s/%s", dir, e->d_name);
        if (e->d_name[0] != '.')
            remove(file);
    }
    if (d)
        closedir(d);
    rmdir(dir);
}

/* Number of entries in the test directory other than . and .. */
static int dir_entries(void)
{
    DIR *d = opendir(dir);
    int n = 0;
    ck_assert_ptr_nonnull(d);
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

static const struct scope_writer_api *api(void)
{
    return scope_writer_api();
}

/* ---- reading back ---- */

static void assert_string_attr(hid_t obj, const char *name, const char *want)
{
    hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
    ck_assert_msg(a >= 0, "attribute %s missing", name);
    hid_t t = H5Aget_type(a);
    ck_assert_int_eq(H5Tget_class(t), H5T_STRING);
    ck_assert(H5Tis_variable_str(t) > 0);
    ck_assert_int_eq(H5Tget_cset(t), H5T_CSET_UTF8);
    hid_t s = H5Aget_space(a);
    ck_assert_int_eq(H5Sget_simple_extent_type(s), H5S_SCALAR);
    char *value = NULL;
    ck_assert_int_ge(H5Aread(a, t, &value), 0);
    ck_assert_str_eq(value, want ? want : "");
    H5free_memory(value);
    H5Sclose(s);
    H5Tclose(t);
    H5Aclose(a);
}

static void assert_int_attr(hid_t obj, const char *name, hid_t want_type,
                            int64_t want)
{
    hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
    ck_assert_msg(a >= 0, "attribute %s missing", name);
    hid_t t = H5Aget_type(a);
    ck_assert_msg(H5Tequal(t, want_type) > 0, "attribute %s has the wrong type", name);
    int64_t value = 0;
    ck_assert_int_ge(H5Aread(a, H5T_NATIVE_INT64, &value), 0);
    ck_assert_int_eq(value, want);
    H5Tclose(t);
    H5Aclose(a);
}

static void assert_metadata(hid_t file)
{
    const struct scope_run_info *r = &sample_run;
    hid_t g = H5Gopen2(file, "metadata", H5P_DEFAULT);
    ck_assert_int_ge(g, 0);
    const char *names[] = {"version", "hostname", "platform", "user",
                           "working_directory", "timestamp", "command",
                           "config", "clock"};
    const char *values[] = {r->version, r->hostname, r->platform, r->user,
                            r->working_directory, r->timestamp, r->command,
                            r->config, r->clock};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        assert_string_attr(g, names[i], values[i]);
    assert_int_attr(g, "mpi_size", H5T_STD_I64LE, r->mpi_size);
    assert_int_attr(g, "omp_num_threads", H5T_STD_I64LE, r->omp_num_threads);
    assert_int_attr(g, "total_cores", H5T_STD_I64LE, r->total_cores);
    assert_int_attr(g, "run_start_time", H5T_STD_I64LE, r->run_start_time);
    H5Gclose(g);
}

/* Reads a whole 1-D dataset of the given file type; returns its length. */
static size_t read_column(hid_t group, const char *name, hid_t ftype,
                          hid_t mtype, size_t elsize, void **data)
{
    hid_t d = H5Dopen2(group, name, H5P_DEFAULT);
    ck_assert_msg(d >= 0, "dataset %s missing", name);
    hid_t t = H5Dget_type(d);
    ck_assert_msg(H5Tequal(t, ftype) > 0, "dataset %s has the wrong type", name);
    hid_t s = H5Dget_space(d);
    ck_assert_int_eq(H5Sget_simple_extent_ndims(s), 1);
    hsize_t n = 0;
    H5Sget_simple_extent_dims(s, &n, NULL);
    *data = malloc((size_t)n * elsize + 1);
    ck_assert_int_ge(H5Dread(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, *data), 0);
    H5Sclose(s);
    H5Tclose(t);
    H5Dclose(d);
    return (size_t)n;
}

/* Big regions are chunked with shuffle + deflate, small ones compact. */
static void assert_layout(hid_t group, size_t events)
{
    hid_t d = H5Dopen2(group, "start_times", H5P_DEFAULT);
    hid_t dcpl = H5Dget_create_plist(d);
    int compressed = events >= REGION_COMPRESS_MIN;
    ck_assert_int_eq(H5Pget_layout(dcpl), compressed ? H5D_CHUNKED : H5D_COMPACT);
    ck_assert_int_eq(H5Pget_nfilters(dcpl), compressed ? 2 : 0);
    if (compressed) {
        unsigned flags;
        ck_assert(H5Pget_filter_by_id2(dcpl, H5Z_FILTER_SHUFFLE, &flags, NULL,
                                       NULL, 0, NULL, NULL) >= 0);
        ck_assert(H5Pget_filter_by_id2(dcpl, H5Z_FILTER_DEFLATE, &flags, NULL,
                                       NULL, 0, NULL, NULL) >= 0);
    }
    H5Pclose(dcpl);
    H5Dclose(d);
}

static void assert_events(hid_t group, int rank, size_t region)
{
    int64_t *start, *end;
    int32_t *tid;
    size_t n = sample_regions[region].events;
    ck_assert_uint_eq(read_column(group, "start_times", H5T_STD_I64LE,
                                  H5T_NATIVE_INT64, 8, (void **)&start), n);
    ck_assert_uint_eq(read_column(group, "end_times", H5T_STD_I64LE,
                                  H5T_NATIVE_INT64, 8, (void **)&end), n);
    if (n > 1) {   /* sample_event: call i on thread i % 3 */
        ck_assert_uint_eq(read_column(group, "thread_ids", H5T_STD_I32LE,
                                      H5T_NATIVE_INT32, 4, (void **)&tid), n);
    } else {
        ck_assert_int_eq(H5Lexists(group, "thread_ids", H5P_DEFAULT), 0);
        tid = calloc(1, sizeof *tid);
    }
    for (size_t i = 0; i < n; i++) {
        int64_t s, e;
        int32_t t;
        sample_event(rank, region, i, &s, &e, &t);
        ck_assert_msg(start[i] == s && end[i] == e && tid[i] == t,
                      "rank %d region %zu event %zu differs", rank, region, i);
    }
    free(start);
    free(end);
    free(tid);
}

static double double_attr(hid_t obj, const char *name)
{
    hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
    ck_assert_msg(a >= 0, "attribute %s missing", name);
    double value = -1;
    ck_assert_int_ge(H5Aread(a, H5T_NATIVE_DOUBLE, &value), 0);
    H5Aclose(a);
    return value;
}

/* The statistics attributes (region_stats.h) against the events, computed
 * here the plain way (two passes for the squared deviations). */
static void assert_stats(hid_t group, int rank, size_t region)
{
    size_t n = sample_regions[region].events;
    int64_t total = 0, min = 0, max = 0, first = 0, last = 0, s, e;
    int32_t t;
    for (size_t i = 0; i < n; i++) {
        sample_event(rank, region, i, &s, &e, &t);
        int64_t d = e - s;
        total += d;
        min = i == 0 || d < min ? d : min;
        max = i == 0 || d > max ? d : max;
        first = i == 0 || s < first ? s : first;
        last = i == 0 || e > last ? e : last;
    }
    double mean = n ? (double)total / (double)n : 0, m2 = 0;
    for (size_t i = 0; i < n; i++) {
        sample_event(rank, region, i, &s, &e, &t);
        m2 += ((double)(e - s) - mean) * ((double)(e - s) - mean);
    }
    assert_int_attr(group, "calls", H5T_STD_I64LE, (int64_t)n);
    assert_int_attr(group, "total_ns", H5T_STD_I64LE, total);
    assert_int_attr(group, "min_ns", H5T_STD_I64LE, min);
    assert_int_attr(group, "max_ns", H5T_STD_I64LE, max);
    assert_int_attr(group, "first_start_ns", H5T_STD_I64LE, first);
    assert_int_attr(group, "last_end_ns", H5T_STD_I64LE, last);
    double got = double_attr(group, "m2_ns2");
    ck_assert_msg(got >= 0 && got <= m2 * (1 + 1e-9) + 1e-6 && got >= m2 * (1 - 1e-9) - 1e-6,
                  "region %zu: m2_ns2 %g, want %g", region, got, m2);
    if (region == 0)
        assert_int_attr(group, "self_ns", H5T_STD_I64LE, SAMPLE_SELF_NS);
    else
        ck_assert_int_eq(H5Aexists(group, "self_ns"), 0);
}

static void assert_region(hid_t regions, int rank, size_t g)
{
    const struct sample_region *s = &sample_regions[g];
    hid_t group = H5Gopen2(regions, s->escaped, H5P_DEFAULT);
    ck_assert_msg(group >= 0, "region %s missing", s->escaped);
    assert_string_attr(group, "symbol", s->symbol);
    assert_string_attr(group, "library", s->library);
    assert_int_attr(group, "address", H5T_STD_U64LE, (int64_t)s->address);
    H5G_info_t info;
    H5Gget_info(group, &info);
    ck_assert_uint_eq(info.nlinks, s->events > 1 ? 3 : 2);   /* thread_ids: a call off thread 0 */
    assert_layout(group, s->events);
    assert_events(group, rank, g);
    assert_stats(group, rank, g);
    H5Gclose(group);
}

static void assert_rank(hid_t file, int rank)
{
    char name[16];
    snprintf(name, sizeof name, "rank%d", rank);
    hid_t g = H5Gopen2(file, name, H5P_DEFAULT);
    ck_assert_int_ge(g, 0);
    struct scope_rank_info r = sample_rank(rank);
    assert_string_attr(g, "hostname", r.hostname);
    assert_int_attr(g, "pid", H5T_STD_I64LE, r.pid);
    assert_int_attr(g, "run_start_time", H5T_STD_I64LE, r.run_start_time);
    assert_int_attr(g, "clock_offset_ns", H5T_STD_I64LE, r.clock_offset_ns);
    assert_int_attr(g, "dropped_events", H5T_STD_I64LE, r.dropped_events);
    hid_t regions = H5Gopen2(g, "regions", H5P_DEFAULT);
    ck_assert_int_ge(regions, 0);
    H5G_info_t info;
    H5Gget_info(regions, &info);
    ck_assert_uint_eq(info.nlinks, sample_nregions);
    for (size_t i = 0; i < sample_nregions; i++)
        assert_region(regions, rank, i);
    H5Gclose(regions);
    H5Gclose(g);
}

static herr_t check_top_level(hid_t g, const char *name, const H5L_info_t *info,
                              void *count)
{
    (void)g;
    (void)info;
    ck_assert_msg(strcmp(name, "metadata") == 0 || strcmp(name, "rank0") == 0 ||
                      strcmp(name, "rank1") == 0,
                  "unexpected top-level object %s", name);
    ++*(int *)count;
    return 0;
}

static void write_sample_file(void)
{
    char err[512] = "";
    ck_assert_msg(sample_write(path, err, sizeof err) == 0, "sample_write: %s", err);
}

static herr_t count_rank_groups(hid_t g, const char *name, const H5L_info_t *info, void *data)
{
    (void)g;
    (void)info;
    *(size_t *)data += strncmp(name, "rank", 4) == 0;
    return 0;
}

/* /metadata's index says what the groups say: a row per rank group with
 * its dropped_events, a row per region group with its statistics, its
 * mpi_payload and, for each dataset named in dataset_bits, its bit set
 * exactly when the group links that dataset. */
static void assert_index_matches(hid_t file)
{
    hid_t d = H5Dopen2(file, "/metadata/index_ranks", H5P_DEFAULT);
    hid_t space = H5Dget_space(d);
    size_t nranks = (size_t)H5Sget_simple_extent_npoints(space);
    struct file_index_rank *ranks = calloc(nranks + 1, sizeof *ranks);
    hid_t rank_type = file_index_rank_type(0);
    ck_assert_int_ge(H5Dread(d, rank_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, ranks), 0);
    H5Tclose(rank_type);
    H5Sclose(space);
    H5Dclose(d);
    size_t groups = 0;
    for (size_t i = 0; i < nranks; i++) {
        char name[64];
        snprintf(name, sizeof name, "/rank%d", ranks[i].rank);
        hid_t g = H5Gopen2(file, name, H5P_DEFAULT);
        ck_assert_int_ge(g, 0);
        int64_t dropped = -1;
        hid_t a = H5Aopen(g, "dropped_events", H5P_DEFAULT);
        H5Aread(a, H5T_NATIVE_INT64, &dropped);
        H5Aclose(a);
        ck_assert_int_eq(dropped, ranks[i].dropped_events);
        H5Gclose(g);
    }
    H5Literate(file, H5_INDEX_NAME, H5_ITER_NATIVE, NULL, count_rank_groups, &groups);
    ck_assert_uint_eq(groups, nranks);

    d = H5Dopen2(file, "/metadata/index_names", H5P_DEFAULT);
    space = H5Dget_space(d);
    size_t nnames = (size_t)H5Sget_simple_extent_npoints(space);
    char **names = calloc(nnames + 1, sizeof *names);
    hid_t str = H5Dget_type(d);
    ck_assert_int_ge(H5Dread(d, str, H5S_ALL, H5S_ALL, H5P_DEFAULT, names), 0);
    H5Sclose(space);
    H5Dclose(d);
    d = H5Dopen2(file, "/metadata/index_regions", H5P_DEFAULT);
    space = H5Dget_space(d);
    size_t nregions = (size_t)H5Sget_simple_extent_npoints(space);
    struct file_index_region *rows = calloc(nregions + 1, sizeof *rows);
    hid_t region_type = file_index_region_type(0);
    ck_assert_int_ge(H5Dread(d, region_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows), 0);
    H5Tclose(region_type);
    char *bits[32] = {0};
    hid_t a = H5Aopen(d, "dataset_bits", H5P_DEFAULT);
    hid_t bits_space = H5Aget_space(a);
    size_t nbits = (size_t)H5Sget_simple_extent_npoints(bits_space);
    ck_assert_uint_le(nbits, 32);
    ck_assert_int_ge(H5Aread(a, str, bits), 0);
    H5Sclose(bits_space);
    H5Aclose(a);
    H5Sclose(space);
    H5Dclose(d);
    size_t linked = 0;
    for (size_t i = 0; i < nregions; i++) {
        const struct file_index_region *r = &rows[i];
        ck_assert(r->name >= 0 && (size_t)r->name < nnames);
        char where[600];
        snprintf(where, sizeof where, "/rank%d/regions/%s", r->rank, names[r->name]);
        hid_t g = H5Gopen2(file, where, H5P_DEFAULT);
        ck_assert_msg(g >= 0, "index row %zu: no group %s", i, where);
        int64_t calls = -1, total = -1;
        hid_t c = H5Aopen(g, "calls", H5P_DEFAULT), t = H5Aopen(g, "total_ns", H5P_DEFAULT);
        H5Aread(c, H5T_NATIVE_INT64, &calls);
        H5Aread(t, H5T_NATIVE_INT64, &total);
        H5Aclose(c);
        H5Aclose(t);
        ck_assert_int_eq(calls, r->calls);
        ck_assert_int_eq(total, r->total_ns);
        for (size_t b = 0; b < nbits; b++)
            ck_assert_msg((H5Lexists(g, bits[b], H5P_DEFAULT) > 0) == ((r->datasets >> b) & 1),
                          "%s: %s and its bit disagree", where, bits[b]);
        char payload[32] = "";
        if (H5Aexists(g, "mpi_payload") > 0) {
            hid_t p = H5Aopen(g, "mpi_payload", H5P_DEFAULT), ptype = H5Aget_type(p);
            char *text = NULL;
            H5Aread(p, ptype, &text);
            snprintf(payload, sizeof payload, "%s", text);
            H5free_memory(text);
            H5Tclose(ptype);
            H5Aclose(p);
        }
        ck_assert_str_eq(file_index_payload_names[r->payload], payload);
        H5Gclose(g);
    }
    for (size_t i = 0; i < nranks; i++) {
        char where[64];
        snprintf(where, sizeof where, "/rank%d/regions", ranks[i].rank);
        hid_t g = H5Gopen2(file, where, H5P_DEFAULT);
        H5G_info_t info;
        H5Gget_info(g, &info);
        linked += info.nlinks;
        H5Gclose(g);
    }
    ck_assert_uint_eq(linked, nregions);   /* every region group has its row */
    for (size_t i = 0; i < nnames; i++)
        H5free_memory(names[i]);
    for (size_t i = 0; i < nbits; i++)
        H5free_memory(bits[i]);
    H5Tclose(str);
    free(names);
    free(rows);
    free(ranks);
}

START_TEST(sample_reads_back)
{
    write_sample_file();
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    ck_assert_int_ge(file, 0);
    int count = 0;
    H5Literate(file, H5_INDEX_NAME, H5_ITER_NATIVE, NULL, check_top_level, &count);
    ck_assert_int_eq(count, 1 + SAMPLE_RANKS);
    assert_metadata(file);
    for (int r = 0; r < SAMPLE_RANKS; r++)
        assert_rank(file, r);
    assert_index_matches(file);
    H5Fclose(file);
}
END_TEST

START_TEST(finish_leaves_only_the_final_file)
{
    write_sample_file();
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(dir_entries(), 1);
}
END_TEST

/* create, then begin_rank/begin_region/append so there is something open. */
static scope_writer *open_region(void)
{
    char err[512];
    scope_writer *w = api()->create(path, &sample_run, err, sizeof err);
    ck_assert_msg(w != NULL, "create: %s", err);
    struct scope_rank_info rank = sample_rank(0);
    struct scope_region_info region = {.name = "solve"};
    int64_t t[2] = {1, 2};
    ck_assert_int_eq(api()->begin_rank(w, &rank), 0);
    ck_assert_int_eq(api()->begin_region(w, &region), 0);
    ck_assert_int_eq(api()->append(w, t, t + 1, NULL, NULL, 1), 0);
    return w;
}

START_TEST(create_uses_temporary_name)
{
    scope_writer *w = open_region();
    char tmp[256];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    ck_assert_int_eq(access(tmp, F_OK), 0);
    ck_assert_int_ne(access(path, F_OK), 0);
    api()->abort(w);
}
END_TEST

START_TEST(abort_leaves_nothing)
{
    api()->abort(open_region());
    ck_assert_int_eq(dir_entries(), 0);
    api()->abort(NULL);
}
END_TEST

START_TEST(missing_directory_is_reported)
{
    char err[512] = "";
    scope_writer *w = api()->create("/no/such/dir/x.h5", &sample_run, err, sizeof err);
    ck_assert_ptr_null(w);
    char want[128];
    snprintf(want, sizeof want, "cannot create /no/such/dir/x.h5.tmp.%ld: "
             "No such file or directory", (long)getpid());
    ck_assert_str_eq(err, want);
    ck_assert_str_eq(api()->error(NULL), want);
}
END_TEST

START_TEST(file_as_directory_is_reported)
{
    char bad[256], err[512] = "";
    write_sample_file();
    snprintf(bad, sizeof bad, "%s/x.h5", path);
    ck_assert_ptr_null(api()->create(bad, &sample_run, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "Not a directory"));
}
END_TEST

START_TEST(calls_out_of_order_fail)
{
    char err[512];
    scope_writer *w = api()->create(path, &sample_run, err, sizeof err);
    struct scope_rank_info rank = sample_rank(0);
    struct scope_region_info region = {.name = "solve"};
    int64_t t = 1;
    ck_assert_int_eq(api()->append(w, &t, &t, NULL, NULL, 1), -1);
    ck_assert_str_eq(api()->error(w), "append: out of order, called outside any rank");
    ck_assert_int_eq(api()->begin_region(w, &region), -1);
    ck_assert_int_eq(api()->end_region(w), -1);
    ck_assert_int_eq(api()->end_rank(w), -1);
    ck_assert_int_eq(api()->begin_rank(w, &rank), 0);
    ck_assert_int_eq(api()->begin_rank(w, &rank), -1);
    ck_assert_int_eq(api()->end_region(w), -1);
    ck_assert_str_eq(api()->error(w), "end_region: out of order, called inside a "
                     "rank but outside any region");
    ck_assert_int_eq(api()->finish(w), -1);  /* frees w, removes the file */
    ck_assert_str_eq(api()->error(NULL), "finish: out of order, called inside a "
                     "rank but outside any region");
    ck_assert_int_eq(dir_entries(), 0);
}
END_TEST

START_TEST(null_writer_fails)
{
    int64_t t = 0;
    ck_assert_int_eq(api()->begin_rank(NULL, NULL), -1);
    ck_assert_int_eq(api()->begin_region(NULL, NULL), -1);
    ck_assert_int_eq(api()->append(NULL, &t, &t, NULL, NULL, 1), -1);
    ck_assert_int_eq(api()->end_region(NULL), -1);
    ck_assert_int_eq(api()->end_rank(NULL), -1);
    ck_assert_int_eq(api()->finish(NULL), -1);
}
END_TEST

START_TEST(bad_arguments_fail)
{
    scope_writer *w = open_region();
    ck_assert_int_eq(api()->append(w, NULL, NULL, NULL, NULL, 1), -1);
    ck_assert_str_eq(api()->error(w), "append: start and end must not be NULL");
    api()->abort(w);
    char err[512];
    ck_assert_ptr_null(api()->create(NULL, &sample_run, err, sizeof err));
    ck_assert_ptr_null(api()->create(path, NULL, err, sizeof err));
    w = api()->create(path, &sample_run, err, sizeof err);
    struct scope_rank_info rank = sample_rank(0);
    struct scope_region_info unnamed = {.name = ""};
    ck_assert_int_eq(api()->begin_rank(w, &rank), 0);
    ck_assert_int_eq(api()->begin_region(w, &unnamed), -1);
    ck_assert_str_eq(api()->error(w), "begin_region: a region needs a name");
    api()->abort(w);
}
END_TEST

/* Runs fn with stderr going to a file; returns how much it printed there. */
static long stderr_bytes_of(void (*fn)(void))
{
    char log[160];
    snprintf(log, sizeof log, "%s/stderr.log", dir);
    fflush(stderr);
    int saved = dup(2), fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(fd, 2);
    fn();
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(fd);
    struct stat st;
    stat(log, &st);
    remove(log);
    return (long)st.st_size;
}

/* A second region of the same name is an HDF5 error inside the writer. */
static void duplicate_region(void)
{
    scope_writer *w = open_region();
    struct scope_region_info region = {.name = "solve"};
    int64_t t = 0;
    ck_assert_int_eq(api()->end_region(w), 0);
    ck_assert_int_eq(api()->begin_region(w, &region), -1);
    ck_assert_ptr_nonnull(strstr(api()->error(w), "cannot create region 'solve' (HDF5: "));
    ck_assert_int_eq(api()->append(w, &t, &t, NULL, NULL, 1), -1);  /* stays failed */
    ck_assert_ptr_nonnull(strstr(api()->error(w), "cannot create region 'solve'"));
    api()->abort(w);
}

START_TEST(hdf5_errors_are_quiet)
{
    H5E_auto2_t before_func, after_func;
    void *before_data, *after_data;
    H5Eget_auto2(H5E_DEFAULT, &before_func, &before_data);
    ck_assert_ptr_nonnull((void *)before_func);
    ck_assert_int_eq(stderr_bytes_of(duplicate_region), 0);
    H5Eget_auto2(H5E_DEFAULT, &after_func, &after_data);
    ck_assert(after_func == before_func && after_data == before_data);
    ck_assert_int_eq(dir_entries(), 0);
}
END_TEST

START_TEST(failed_rename_removes_temporary)
{
    char err[512];
    mkdir(path, 0700);
    char inside[192];
    snprintf(inside, sizeof inside, "%s/keep", path);
    close(open(inside, O_WRONLY | O_CREAT, 0600));  /* a non-empty directory */
    scope_writer *w = api()->create(path, &sample_run, err, sizeof err);
    ck_assert_ptr_nonnull(w);
    ck_assert_int_eq(api()->finish(w), -1);
    ck_assert_ptr_nonnull(strstr(api()->error(NULL), "cannot rename"));
    ck_assert_int_eq(dir_entries(), 1);  /* only the directory */
    remove(inside);
}
END_TEST

START_TEST(escape_names)
{
    const char *cases[][2] = {
        {"solve", "solve"}, {"a/b", "a%2Fb"}, {"/", "%2F"}, {"50%", "50%25"},
        {"%2F", "%252F"}, {".", "%2E"}, {"..", ".."}, {"a.b", "a.b"},
        {"operator/", "operator%2F"}, {"", ""},
    };
    char out[64];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t n = scope_escape_region_name(cases[i][0], out, sizeof out);
        ck_assert_str_eq(out, cases[i][1]);
        ck_assert_uint_eq(n, strlen(cases[i][1]));
    }
}
END_TEST

START_TEST(escape_truncates)
{
    char out[4] = "xyz";
    ck_assert_uint_eq(scope_escape_region_name("a/b", NULL, 0), 5);
    ck_assert_uint_eq(scope_escape_region_name("a/b", out, sizeof out), 5);
    ck_assert_str_eq(out, "a%2");
    ck_assert_uint_eq(scope_escape_region_name("abc", out, 1), 3);
    ck_assert_str_eq(out, "");
}
END_TEST

/* Appends n calls (start i, end i + 1) from `from`, with ids[i] or none. */
/* n calls from `from` on, one ns each, with thread and call-site ids
 * (either NULL: none). */
static void append_calls(scope_writer *w, size_t from, size_t n, const int32_t *threads,
                         const int32_t *sites)
{
    int64_t *t = malloc((n + 1) * sizeof *t);
    for (size_t i = 0; i <= n; i++)
        t[i] = (int64_t)(from + i);
    ck_assert_int_eq(api()->append(w, t, t + 1, threads, sites, n), 0);
    free(t);
}

/* The id of call k of those with ids: call-site ids k % 3 but -1 for every
 * third, thread ids k % 3. */
static int32_t id_of(const char *column, size_t k)
{
    return strcmp(column, "callsite_ids") == 0 && k % 3 == 2 ? -1 : (int32_t)(k % 3);
}

/* Region `name`: `plain` calls without ids, then `with_ids` with the ids
 * id_of gives in column ("thread_ids" or "callsite_ids"). */
static void write_region(scope_writer *w, const char *name, const char *column, size_t plain,
                         size_t with_ids)
{
    struct scope_region_info region = {.name = name};
    ck_assert_int_eq(api()->begin_region(w, &region), 0);
    append_calls(w, 0, plain, NULL, NULL);
    int32_t *ids = malloc((with_ids + 1) * sizeof *ids);
    for (size_t k = 0; k < with_ids; k++)
        ids[k] = id_of(column, k);
    int threads = strcmp(column, "thread_ids") == 0;
    append_calls(w, plain, with_ids, threads ? ids : NULL, threads ? NULL : ids);
    free(ids);
    ck_assert_int_eq(api()->end_region(w), 0);
}

/* Column `column` of region `name` in rank 0 as write_region wrote it: the
 * calls without ids read as `none` (thread 0, or -1: no call site). */
static void assert_ids(hid_t file, const char *name, const char *column, size_t plain,
                       size_t with_ids)
{
    char group_path[64];
    snprintf(group_path, sizeof group_path, "/rank0/regions/%s", name);
    hid_t g = H5Gopen2(file, group_path, H5P_DEFAULT);
    ck_assert_int_ge(g, 0);
    int32_t *ids, none = strcmp(column, "thread_ids") == 0 ? 0 : -1;
    ck_assert_uint_eq(read_column(g, column, H5T_STD_I32LE, H5T_NATIVE_INT32, sizeof *ids,
                                  (void **)&ids), plain + with_ids);
    for (size_t i = 0; i < plain + with_ids; i++) {
        int32_t want = i < plain ? none : id_of(column, i - plain);
        ck_assert_msg(ids[i] == want, "%s: call %zu has %s %d, not %d", name, i, column, ids[i],
                      want);
    }
    free(ids);
    H5Gclose(g);
}

/* Payload of call i of the test regions: bytes 10 i, peer i % 4, tag i % 7,
 * comm i % 2, and i % 3 messages k: kind k % 2, peer k, bytes i + k, tag
 * k, comm 1. */
struct payload_columns {
    int64_t *bytes, *msg_call, *msg_bytes;
    int32_t *peer, *tag, *comm, *msg_peer, *msg_tag, *msg_comm;
    int8_t *msg_kind;
    size_t nmessages;
};

static struct payload_columns payload_of(size_t from, size_t n)
{
    struct payload_columns p = {
        malloc(n * 8 + 8), malloc(2 * n * 8 + 8), malloc(2 * n * 8 + 8), malloc(n * 4 + 4),
        malloc(n * 4 + 4), malloc(n * 4 + 4), malloc(2 * n * 4 + 4), malloc(2 * n * 4 + 4),
        malloc(2 * n * 4 + 4), malloc(2 * n + 1), 0};
    for (size_t j = 0; j < n; j++) {
        size_t i = from + j;
        p.bytes[j] = 10 * (int64_t)i;
        p.peer[j] = (int32_t)(i % 4);
        p.tag[j] = (int32_t)(i % 7);
        p.comm[j] = (int32_t)(i % 2);
        for (size_t k = 0; k < i % 3; k++, p.nmessages++) {
            p.msg_call[p.nmessages] = (int64_t)j;
            p.msg_kind[p.nmessages] = (int8_t)(k % 2);
            p.msg_peer[p.nmessages] = (int32_t)k;
            p.msg_bytes[p.nmessages] = (int64_t)(i + k);
            p.msg_tag[p.nmessages] = (int32_t)k;
            p.msg_comm[p.nmessages] = 1;
        }
    }
    return p;
}

static struct region_payload payload_view(const struct payload_columns *p)
{
    return (struct region_payload){p->bytes, p->peer, p->tag, p->comm, p->nmessages,
                                   p->msg_call, p->msg_kind, p->msg_peer, p->msg_bytes,
                                   p->msg_tag, p->msg_comm, NULL, {NULL}};
}

static void payload_free(struct payload_columns *p)
{
    void *v[] = {p->bytes, p->msg_call, p->msg_bytes, p->peer, p->tag, p->comm, p->msg_peer,
                 p->msg_tag, p->msg_comm, p->msg_kind};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        free(v[i]);
}

static int put_window_into(void *ctx, const struct region_window *win)
{
    return api()->put_window(ctx, win);
}

/* Region `name` of n calls with payload, appended in pieces of `piece`
 * calls, or encoded here and put as windows (piece 0). */
static void write_payload_region(scope_writer *w, const char *name, size_t n, size_t piece)
{
    struct scope_region_info region = {.name = name, .payload = "p2p"};
    ck_assert_int_eq(api()->begin_region(w, &region), 0);
    int64_t *t = malloc((n + 1) * sizeof *t);
    for (size_t i = 0; i <= n; i++)
        t[i] = (int64_t)i;
    struct region_encoder enc;
    const char *why = NULL;
    if (piece == 0) {
        ck_assert_int_eq(region_encoder_init(&enc), 0);
        ck_assert_int_eq(region_encoder_begin(&enc, REGION_MESSAGE_PAYLOAD), 0);
    }
    for (size_t from = 0; from < n; from += piece ? piece : n) {
        size_t k = piece && n - from > piece ? piece : n - from;
        struct payload_columns p = payload_of(from, k);
        struct region_payload view = payload_view(&p);
        if (piece)
            ck_assert_int_eq(api()->append_payload(w, t + from, t + from + 1, NULL, NULL, &view, k),
                             0);
        else
            ck_assert_int_eq(region_encoder_add(&enc, t + from, t + from + 1, NULL, NULL, &view,
                                                k, put_window_into, w, &why), 0);
        payload_free(&p);
    }
    if (piece == 0) {
        ck_assert_int_eq(region_encoder_end(&enc, put_window_into, w, &why), 0);
        region_encoder_free(&enc);
    }
    ck_assert_int_eq(api()->end_region(w), 0);
    free(t);
}

static void assert_payload_region(hid_t file, const char *name, size_t n)
{
    char group_path[64];
    snprintf(group_path, sizeof group_path, "/rank0/regions/%s", name);
    hid_t g = H5Gopen2(file, group_path, H5P_DEFAULT);
    ck_assert_int_ge(g, 0);
    ck_assert_int_gt(H5Aexists(g, "mpi_payload"), 0);
    struct payload_columns want = payload_of(0, n), got;
    ck_assert_uint_eq(read_column(g, "bytes", H5T_STD_I64LE, H5T_NATIVE_INT64, 8,
                                  (void **)&got.bytes), n);
    ck_assert_uint_eq(read_column(g, "peer", H5T_STD_I32LE, H5T_NATIVE_INT32, 4,
                                  (void **)&got.peer), n);
    ck_assert_uint_eq(read_column(g, "tag", H5T_STD_I32LE, H5T_NATIVE_INT32, 4,
                                  (void **)&got.tag), n);
    ck_assert_uint_eq(read_column(g, "comm", H5T_STD_I32LE, H5T_NATIVE_INT32, 4,
                                  (void **)&got.comm), n);
    size_t m = want.nmessages;
    ck_assert_uint_eq(read_column(g, "msg_call", H5T_STD_I64LE, H5T_NATIVE_INT64, 8,
                                  (void **)&got.msg_call), m);
    ck_assert_uint_eq(read_column(g, "msg_kind", H5T_STD_I8LE, H5T_NATIVE_INT8, 1,
                                  (void **)&got.msg_kind), m);
    ck_assert_uint_eq(read_column(g, "msg_peer", H5T_STD_I32LE, H5T_NATIVE_INT32, 4,
                                  (void **)&got.msg_peer), m);
    ck_assert_uint_eq(read_column(g, "msg_bytes", H5T_STD_I64LE, H5T_NATIVE_INT64, 8,
                                  (void **)&got.msg_bytes), m);
    ck_assert_uint_eq(read_column(g, "msg_tag", H5T_STD_I32LE, H5T_NATIVE_INT32, 4,
                                  (void **)&got.msg_tag), m);
    ck_assert_uint_eq(read_column(g, "msg_comm", H5T_STD_I32LE, H5T_NATIVE_INT32, 4,
                                  (void **)&got.msg_comm), m);
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(got.bytes[i] == want.bytes[i] && got.peer[i] == want.peer[i] &&
                      got.tag[i] == want.tag[i] && got.comm[i] == want.comm[i],
                      "%s: call %zu's payload", name, i);
    for (size_t k = 0; k < m; k++)   /* msg_call: rows of the whole region */
        ck_assert_msg(got.msg_call[k] == want.msg_call[k] && got.msg_kind[k] == want.msg_kind[k] &&
                      got.msg_peer[k] == want.msg_peer[k] &&
                      got.msg_bytes[k] == want.msg_bytes[k] && got.msg_tag[k] == want.msg_tag[k] &&
                      got.msg_comm[k] == want.msg_comm[k],
                      "%s: message %zu", name, k);
    payload_free(&want);
    payload_free(&got);
    H5Gclose(g);
}

START_TEST(payload_reads_back)
{
    char err[512];
    scope_writer *w = api()->create(path, &sample_run, err, sizeof err);
    ck_assert_msg(w != NULL, "create: %s", err);
    struct scope_rank_info rank = sample_rank(0);
    ck_assert_int_eq(api()->begin_rank(w, &rank), 0);
    /* ~ 100 000 messages: two windows of messages; calls in two windows */
    write_payload_region(w, "appended", 150000, 40000);
    write_payload_region(w, "windows", 150000, 0);
    write_payload_region(w, "small", 50, 7);
    struct payload_columns one = payload_of(0, 1);   /* call 0: no message */
    struct region_payload none = payload_view(&one);
    struct scope_region_info empty = {.name = "nothing", .payload = "collective"};
    int64_t t = 5;
    ck_assert_int_eq(api()->begin_region(w, &empty), 0);
    ck_assert_int_eq(api()->append(w, &t, &t, NULL, NULL, 1), -1);   /* payload missing */
    ck_assert_ptr_nonnull(strstr(api()->error(w), "payload"));
    api()->abort(w);
    w = api()->create(path, &sample_run, err, sizeof err);
    ck_assert_int_eq(api()->begin_rank(w, &rank), 0);
    write_payload_region(w, "appended", 150000, 40000);
    write_payload_region(w, "windows", 150000, 0);
    write_payload_region(w, "small", 50, 7);
    ck_assert_int_eq(api()->begin_region(w, &empty), 0);
    ck_assert_int_eq(api()->append_payload(w, &t, &t, NULL, NULL, &none, 1), 0);
    ck_assert_int_eq(api()->end_region(w), 0);
    payload_free(&one);
    ck_assert_int_eq(api()->end_rank(w), 0);
    const int64_t sizes[] = {3, 2};
    const int32_t members[] = {0, 1, 2, 2, 0};
    struct scope_comm_table comms = {sizes, 2, members};
    ck_assert_int_eq(api()->communicators(w, &comms), 0);
    ck_assert_int_eq(api()->finish(w), 0);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    ck_assert_int_ge(file, 0);
    assert_payload_region(file, "appended", 150000);
    assert_payload_region(file, "windows", 150000);
    assert_payload_region(file, "small", 50);
    /* a collective: its bytes per call, no message datasets */
    hid_t g = H5Gopen2(file, "/rank0/regions/nothing", H5P_DEFAULT);
    int64_t *bytes;
    ck_assert_uint_eq(read_column(g, "bytes", H5T_STD_I64LE, H5T_NATIVE_INT64, 8,
                                  (void **)&bytes), 1);
    free(bytes);
    ck_assert_int_eq(H5Lexists(g, "msg_call", H5P_DEFAULT), 0);
    H5Gclose(g);
    hid_t d = H5Dopen2(file, "/metadata/communicators", H5P_DEFAULT);
    int64_t rows[4];
    ck_assert_int_ge(H5Dread(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows), 0);
    ck_assert(rows[0] == 3 && rows[1] == 0 && rows[2] == 2 && rows[3] == 3);
    H5Dclose(d);
    g = H5Gopen2(file, "/metadata", H5P_DEFAULT);
    int32_t *got;
    ck_assert_uint_eq(read_column(g, "communicator_members", H5T_STD_I32LE, H5T_NATIVE_INT32, 4,
                                  (void **)&got), 5);
    ck_assert_mem_eq(got, members, sizeof members);
    free(got);
    H5Gclose(g);
    assert_index_matches(file);
    H5Fclose(file);
}
END_TEST

/* Region `name` of n calls recording argument 1 and the return value
 * (arg1 = 3 i - 7, retval = -i), encoded here and put as windows. */
static void write_values_region(scope_writer *w, const char *name, size_t n)
{
    struct scope_region_info region = {.name = name};
    ck_assert_int_eq(api()->begin_region(w, &region), 0);
    int64_t *t = malloc((n + 1) * sizeof *t), *arg1 = malloc(n * sizeof *arg1),
            *retval = malloc(n * sizeof *retval);
    for (size_t i = 0; i <= n; i++)
        t[i] = (int64_t)i;
    for (size_t i = 0; i < n; i++) {
        arg1[i] = 3 * (int64_t)i - 7;
        retval[i] = -(int64_t)i;
    }
    struct region_payload values = {.values = {arg1, [REGION_VALUE_SLOTS - 1] = retval}};
    struct region_encoder enc;
    const char *why = NULL;
    ck_assert_int_eq(region_encoder_init(&enc), 0);
    ck_assert_int_eq(region_encoder_begin(&enc, 0), 0);
    ck_assert_int_eq(region_encoder_record_values(&enc, 1 | 1 << (REGION_VALUE_SLOTS - 1)), 0);
    ck_assert_int_eq(region_encoder_add(&enc, t, t + 1, NULL, NULL, NULL, n, put_window_into, w,
                                        &why), -1);   /* the values are missing */
    ck_assert_int_eq(region_encoder_add(&enc, t, t + 1, NULL, NULL, &values, n, put_window_into,
                                        w, &why), 0);
    ck_assert_int_eq(region_encoder_end(&enc, put_window_into, w, &why), 0);
    region_encoder_free(&enc);
    ck_assert_int_eq(api()->end_region(w), 0);
    free(t);
    free(arg1);
    free(retval);
}

/* Argument and return values: the datasets recorded, only those, one value
 * per call, over several windows and in a compact region. */
START_TEST(values_read_back)
{
    char err[512];
    scope_writer *w = api()->create(path, &sample_run, err, sizeof err);
    ck_assert_msg(w != NULL, "create: %s", err);
    struct scope_rank_info rank = sample_rank(0);
    ck_assert_int_eq(api()->begin_rank(w, &rank), 0);
    write_values_region(w, "big", 150000);
    write_values_region(w, "small", 50);
    ck_assert_int_eq(api()->end_rank(w), 0);
    ck_assert_int_eq(api()->finish(w), 0);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    ck_assert_int_ge(file, 0);
    const struct { const char *name; size_t n; } regions[] = {{"big", 150000}, {"small", 50}};
    for (size_t k = 0; k < 2; k++) {
        char where[64];
        snprintf(where, sizeof where, "/rank0/regions/%s", regions[k].name);
        hid_t g = H5Gopen2(file, where, H5P_DEFAULT);
        ck_assert_int_ge(g, 0);
        int64_t *arg1, *retval;
        ck_assert_uint_eq(read_column(g, "arg1", H5T_STD_I64LE, H5T_NATIVE_INT64, 8,
                                      (void **)&arg1), regions[k].n);
        ck_assert_uint_eq(read_column(g, "retval", H5T_STD_I64LE, H5T_NATIVE_INT64, 8,
                                      (void **)&retval), regions[k].n);
        for (size_t i = 0; i < regions[k].n; i++)
            ck_assert_msg(arg1[i] == 3 * (int64_t)i - 7 && retval[i] == -(int64_t)i,
                          "%s: call %zu's values", regions[k].name, i);
        ck_assert_int_eq(H5Lexists(g, "arg2", H5P_DEFAULT), 0);
        ck_assert_int_eq(H5Lexists(g, "bytes", H5P_DEFAULT), 0);
        free(arg1);
        free(retval);
        H5Gclose(g);
    }
    assert_index_matches(file);
    H5Fclose(file);
}
END_TEST

struct frame_back {
    char *module, *function, *file;
    uint64_t offset;
    int32_t line;
};

START_TEST(callsites_read_back)
{
    char err[512];
    scope_writer *w = api()->create(path, &sample_run, err, sizeof err);
    ck_assert_msg(w != NULL, "create: %s", err);
    struct scope_rank_info rank = sample_rank(0);
    ck_assert_int_eq(api()->begin_rank(w, &rank), 0);
    write_region(w, "small", "callsite_ids", 2, 5);   /* compact */
    write_region(w, "late", "callsite_ids", REGION_WINDOW + 7, REGION_WINDOW + 10);
    write_region(w, "none", "callsite_ids", 3, 0);
    ck_assert_int_eq(api()->end_rank(w), 0);
    const struct scope_callsite_frame frames[] = {
        {"/bin/app", "caller_a", "app.c", 15, 26},
        {"/bin/app", "main", "app.c", 61, 48},
        {"/lib/libx.so", NULL, NULL, 0x1234, 0},
    };
    const int32_t sites[] = {0, 1, 2, -1, 0, -1};
    struct scope_callsite_table table = {frames, 3, sites, 3, 2};
    ck_assert_int_eq(api()->callsites(w, &table), 0);
    ck_assert_msg(api()->finish(w) == 0, "finish: %s", api()->error(NULL));

    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    ck_assert_int_ge(file, 0);
    assert_ids(file, "small", "callsite_ids", 2, 5);
    assert_ids(file, "late", "callsite_ids", REGION_WINDOW + 7, REGION_WINDOW + 10);
    ck_assert_int_eq(H5Lexists(file, "/rank0/regions/none/callsite_ids", H5P_DEFAULT), 0);

    hid_t d = H5Dopen2(file, "/metadata/callsites", H5P_DEFAULT);
    ck_assert_int_ge(d, 0);
    hid_t space = H5Dget_space(d);
    hsize_t dims[2];
    ck_assert_int_eq(H5Sget_simple_extent_dims(space, dims, NULL), 2);
    ck_assert_uint_eq(dims[0], 3);
    ck_assert_uint_eq(dims[1], 2);
    int32_t back[6];
    ck_assert_int_ge(H5Dread(d, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, back), 0);
    ck_assert_mem_eq(back, sites, sizeof sites);
    H5Sclose(space);
    H5Dclose(d);

    hid_t str = H5Tcopy(H5T_C_S1);
    H5Tset_size(str, H5T_VARIABLE);
    H5Tset_cset(str, H5T_CSET_UTF8);
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(struct frame_back));
    H5Tinsert(t, "module", HOFFSET(struct frame_back, module), str);
    H5Tinsert(t, "function", HOFFSET(struct frame_back, function), str);
    H5Tinsert(t, "file", HOFFSET(struct frame_back, file), str);
    H5Tinsert(t, "offset", HOFFSET(struct frame_back, offset), H5T_NATIVE_UINT64);
    H5Tinsert(t, "line", HOFFSET(struct frame_back, line), H5T_NATIVE_INT32);
    d = H5Dopen2(file, "/metadata/callsite_frames", H5P_DEFAULT);
    ck_assert_int_ge(d, 0);
    struct frame_back f[3];
    ck_assert_int_ge(H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, f), 0);
    for (size_t i = 0; i < 3; i++) {
        ck_assert_str_eq(f[i].module, frames[i].module);
        ck_assert_str_eq(f[i].function, frames[i].function ? frames[i].function : "");
        ck_assert_str_eq(f[i].file, frames[i].file ? frames[i].file : "");
        ck_assert_uint_eq(f[i].offset, frames[i].offset);
        ck_assert_int_eq(f[i].line, frames[i].line);
    }
    space = H5Dget_space(d);
    H5Dvlen_reclaim(t, space, H5P_DEFAULT, f);
    H5Sclose(space);
    H5Dclose(d);
    H5Tclose(t);
    H5Tclose(str);
    H5Fclose(file);
}
END_TEST

/* A region gets thread_ids once a call ran off thread 0: created late, the
 * calls before read as thread 0; never, when every call ran on it. */
START_TEST(thread_ids_only_off_the_first_thread)
{
    char err[512];
    scope_writer *w = api()->create(path, &sample_run, err, sizeof err);
    ck_assert_msg(w != NULL, "create: %s", err);
    struct scope_rank_info rank = sample_rank(0);
    ck_assert_int_eq(api()->begin_rank(w, &rank), 0);
    write_region(w, "small", "thread_ids", 2, 5);   /* compact */
    write_region(w, "late", "thread_ids", REGION_WINDOW + 7, REGION_WINDOW + 10);
    write_region(w, "first_only", "thread_ids", REGION_WINDOW + 3, 0);
    write_region(w, "zeros_given", "thread_ids", 0, 1);   /* thread id 0, given */
    ck_assert_int_eq(api()->end_rank(w), 0);
    ck_assert_msg(api()->finish(w) == 0, "finish: %s", api()->error(NULL));

    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    ck_assert_int_ge(file, 0);
    assert_ids(file, "small", "thread_ids", 2, 5);
    assert_ids(file, "late", "thread_ids", REGION_WINDOW + 7, REGION_WINDOW + 10);
    ck_assert_int_eq(H5Lexists(file, "/rank0/regions/first_only/thread_ids", H5P_DEFAULT), 0);
    ck_assert_int_eq(H5Lexists(file, "/rank0/regions/zeros_given/thread_ids", H5P_DEFAULT), 0);
    H5Fclose(file);
}
END_TEST

START_TEST(callsites_out_of_order_fail)
{
    scope_writer *w = open_region();
    const struct scope_callsite_frame frame = {"/bin/app", "main", "app.c", 1, 1};
    const int32_t site = 0;
    struct scope_callsite_table table = {&frame, 1, &site, 1, 1};
    ck_assert_int_eq(api()->callsites(w, &table), -1);
    ck_assert_ptr_nonnull(strstr(api()->error(w), "callsites: out of order"));
    api()->abort(w);
}
END_TEST

static Suite *writer_suite(void)
{
    Suite *s = suite_create("writer");
    TCase *file = tcase_create("file");
    tcase_add_checked_fixture(file, setup, teardown);
    tcase_add_test(file, sample_reads_back);
    tcase_add_test(file, finish_leaves_only_the_final_file);
    tcase_add_test(file, create_uses_temporary_name);
    tcase_add_test(file, abort_leaves_nothing);
    tcase_add_test(file, missing_directory_is_reported);
    tcase_add_test(file, file_as_directory_is_reported);
    tcase_add_test(file, calls_out_of_order_fail);
    tcase_add_test(file, null_writer_fails);
    tcase_add_test(file, bad_arguments_fail);
    tcase_add_test(file, hdf5_errors_are_quiet);
    tcase_add_test(file, failed_rename_removes_temporary);
    tcase_add_test(file, callsites_read_back);
    tcase_add_test(file, callsites_out_of_order_fail);
    tcase_add_test(file, thread_ids_only_off_the_first_thread);
    tcase_add_test(file, payload_reads_back);
    tcase_add_test(file, values_read_back);
    suite_add_tcase(s, file);
    TCase *escape = tcase_create("escape");
    tcase_add_test(escape, escape_names);
    tcase_add_test(escape, escape_truncates);
    suite_add_tcase(s, escape);
    return s;
}

int main(void)
{
    return scope_check_run(writer_suite());
}
