/* Writes the reader's test files with the plain HDF5 C API. */
#include "fixtures.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const int64_t fx_tutorial_run_start_ns = 163429213445LL;

hid_t fx_create(const char *path)
{
    return H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
}

void fx_close(hid_t file)
{
    H5Fclose(file);
}

static void attr_int(hid_t obj, const char *name, int64_t v)
{
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(obj, name, H5T_STD_I64LE, space, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, H5T_NATIVE_INT64, &v);
    H5Aclose(a);
    H5Sclose(space);
}

static void attr_string(hid_t obj, const char *name, const char *v, bool variable)
{
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, variable ? H5T_VARIABLE : strlen(v));
    if (variable) /* as h5py writes str */
        H5Tset_cset(type, H5T_CSET_UTF8);
    hid_t a = H5Acreate2(obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, type, variable ? (const void *)&v : (const void *)v);
    H5Aclose(a);
    H5Tclose(type);
    H5Sclose(space);
}

void fx_metadata(hid_t file, int64_t run_start_ns)
{
    hid_t g = H5Gcreate2(file, "metadata", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    attr_string(g, "version", "0.1.0", true);
    attr_string(g, "hostname", "node01", false);
    attr_int(g, "mpi_size", 1);
    if (run_start_ns >= 0)
        attr_int(g, "run_start_time", run_start_ns);
    H5Gclose(g);
}

void fx_rank_dropped(hid_t file, int rank, int64_t dropped)
{
    char name[32];
    snprintf(name, sizeof name, "rank%d", rank);
    if (H5Lexists(file, name, H5P_DEFAULT) <= 0)
        H5Gclose(fx_rank(file, rank));
    hid_t r = H5Gopen2(file, name, H5P_DEFAULT);
    attr_int(r, "dropped_events", dropped);
    H5Gclose(r);
}

hid_t fx_rank(hid_t file, int rank)
{
    char name[32];
    snprintf(name, sizeof name, "rank%d", rank);
    hid_t r = H5Gcreate2(file, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    hid_t g = H5Gcreate2(r, "regions", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Gclose(r);
    return g;
}

static void dataset(hid_t loc, const char *name, hid_t ftype, hid_t mtype, const void *data,
                    size_t n)
{
    hsize_t dims[1] = {n};
    hid_t space = H5Screate_simple(1, dims, NULL);
    hid_t d = H5Dcreate2(loc, name, ftype, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (n)
        H5Dwrite(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
    H5Dclose(d);
    H5Sclose(space);
}

void fx_region(hid_t regions, const char *raw_name, const int64_t *start, size_t n,
               const int64_t *end, size_t n_end, const int32_t *thr, size_t n_thr)
{
    hid_t g = H5Gcreate2(regions, raw_name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    dataset(g, "start_times", H5T_STD_I64LE, H5T_NATIVE_INT64, start, n);
    if (end)
        dataset(g, "end_times", H5T_STD_I64LE, H5T_NATIVE_INT64, end, n_end);
    if (thr)
        dataset(g, "thread_ids", H5T_STD_I32LE, H5T_NATIVE_INT32, thr, n_thr);
    H5Gclose(g);
}

void fx_region_stats(hid_t regions, const char *raw_name, const fx_stats *st)
{
    hid_t g = H5Gopen2(regions, raw_name, H5P_DEFAULT);
    attr_int(g, "calls", st->calls);
    attr_int(g, "total_ns", st->total_ns);
    attr_int(g, "min_ns", st->min_ns);
    attr_int(g, "max_ns", st->max_ns);
    attr_int(g, "first_start_ns", st->first_start_ns);
    attr_int(g, "last_end_ns", st->last_end_ns);
    if (st->self_ns >= 0)
        attr_int(g, "self_ns", st->self_ns);
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(g, "m2_ns2", H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, H5T_NATIVE_DOUBLE, &st->m2_ns2);
    H5Aclose(a);
    H5Sclose(space);
    H5Gclose(g);
}

void fx_two_ranks(const char *path)
{
    hid_t file = fx_create(path);
    const double factors[] = {1.0, 1.6}, starts[] = {0.0, 0.5, 1.0}, durs[] = {0.2, 0.25, 0.2};
    for (int rank = 0; rank < 2; rank++) {
        int64_t s[3], e[3];
        for (int i = 0; i < 3; i++) { /* numpy: (starts + durations).astype(int64) */
            double st = starts[i] * FX_NS, d = durs[i] * factors[rank] * FX_NS;
            s[i] = (int64_t)st;
            e[i] = (int64_t)(st + d);
        }
        hid_t regions = fx_rank(file, rank);
        fx_region(regions, "solve", s, 3, e, 3, NULL, 0);
        H5Gclose(regions);
    }
    fx_close(file);
}

/* setup, six timesteps of assemble + solve (solve 1 ms slower each step),
 * a checkpoint after steps 2 and 5; see test_reader.c for the numbers. */
void fx_tutorial(const char *path, bool run_start)
{
    int64_t R = fx_tutorial_run_start_ns;
    int64_t setup_s = R + 1960000, setup_e = setup_s + 10080000;
    int64_t ts_s[6], ts_e[6], as_s[6], as_e[6], so_s[6], so_e[6], ck_s[2], ck_e[2];
    int64_t t = setup_e + 180000;
    for (int step = 0, ck = 0; step < 6; step++) {
        ts_s[step] = t;
        as_s[step] = t + 10000;
        as_e[step] = as_s[step] + 2067000;
        so_s[step] = as_e[step];
        so_e[step] = so_s[step] + 2068000 + 1000000LL * step;
        ts_e[step] = so_e[step] + 10000;
        t = ts_e[step] + 5000;
        if (step % 3 == 2) {
            ck_s[ck] = t;
            ck_e[ck] = t + 4069000;
            t = ck_e[ck++] + 5000;
        }
    }
    hid_t file = fx_create(path);
    fx_metadata(file, run_start ? R : -1);
    hid_t regions = fx_rank(file, 0);
    /* created in name order on purpose: the reader orders by first entry */
    fx_region(regions, "assemble", as_s, 6, as_e, 6, NULL, 0);
    fx_region(regions, "checkpoint", ck_s, 2, ck_e, 2, NULL, 0);
    fx_region(regions, "setup", &setup_s, 1, &setup_e, 1, NULL, 0);
    fx_region(regions, "solve", so_s, 6, so_e, 6, NULL, 0);
    fx_region(regions, "timestep", ts_s, 6, ts_e, 6, NULL, 0);
    H5Gclose(regions);
    fx_close(file);
}

/* Two ranks of two threads each; rank r is (1 + r) times slower. The inner
 * region's name needs escaping in JSON and XML. */
void fx_threads(const char *path)
{
    hid_t file = fx_create(path);
    fx_metadata(file, 0);
    for (int rank = 0; rank < 2; rank++) {
        int64_t k = (1 + rank) * 1000000LL; /* 1 ms units */
        int64_t ws[] = {0, 10 * k}, we[] = {100 * k, 50 * k}, is[] = {20 * k}, ie[] = {30 * k};
        int32_t wt[] = {0, 1}, it[] = {1};
        hid_t regions = fx_rank(file, rank);
        fx_region(regions, "work", ws, 2, we, 2, wt, 2);
        fx_region(regions, "op<T>&\"x\"", is, 1, ie, 1, it, 1);
        H5Gclose(regions);
    }
    fx_close(file);
}

void fx_empty(const char *path)
{
    hid_t file = fx_create(path);
    fx_metadata(file, 5);
    hid_t regions = fx_rank(file, 0);
    const int64_t none[1] = {0};
    fx_region(regions, "solve", none, 0, none, 0, NULL, 0);
    H5Gclose(regions);
    fx_close(file);
}

void fx_many_regions(const char *path)
{
    hid_t file = fx_create(path);
    fx_metadata(file, 0);
    hid_t regions = fx_rank(file, 0);
    for (int k = 0; k < 40; k++) {
        char name[16];
        snprintf(name, sizeof name, "r%02d", k);
        const int64_t start[1] = {1000 * k}, end[1] = {1000 * k + 10 * (k + 1)};
        fx_region(regions, name, start, 1, end, 1, NULL, 0);
    }
    H5Gclose(regions);
    fx_close(file);
}

/* One region of fx_suggest: n calls of dur ns, `every` ns apart from
 * start_ns; symbol (and a library) when not NULL. */
static void suggest_region(hid_t regions, const char *name, const char *symbol, size_t n,
                           int64_t dur, int64_t start_ns, int64_t every)
{
    int64_t *start = malloc((n + 1) * sizeof *start), *end = malloc((n + 1) * sizeof *end);
    for (size_t i = 0; i < n; i++) {
        start[i] = start_ns + (int64_t)i * every;
        end[i] = start[i] + dur;
    }
    fx_region(regions, name, start, n, end, n, NULL, 0);
    free(start);
    free(end);
    if (symbol) {
        hid_t g = H5Gopen2(regions, name, H5P_DEFAULT);
        attr_string(g, "symbol", symbol, true);
        attr_string(g, "library", "/opt/app/bin/app", true);
        H5Gclose(g);
    }
}

void fx_suggest(const char *path)
{
    hid_t file = fx_create(path);
    fx_metadata(file, 0);
    hid_t meta = H5Gopen2(file, "metadata", H5P_DEFAULT);
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    attr_string(meta, "working_directory", slash ? dir : ".", true);
    attr_string(meta, "config", "suggest.conf", true);
    attr_int(meta, "hook_cost_ns", 25);
    H5Gclose(meta);
    const int64_t ms = 1000000;
    for (int rank = 0; rank < 2; rank++) {
        hid_t regions = fx_rank(file, rank);
        suggest_region(regions, "tiny_add", NULL, 100000, 12, 0, 200);
        suggest_region(regions, "ns::Vec::dot(double const*) const", "_ZNK2ns3Vec3dotEPKd",
                       40000, 8, 20 * ms, 100);
        suggest_region(regions, "named_tiny", "named_tiny", 30000, 5, 24 * ms, 100);
        suggest_region(regions, "MPI_Allreduce", "MPI_Allreduce", 20000, 30, 27 * ms, 100);
        suggest_region(regions, "work_kernel", NULL, 20000, 60, 29 * ms, 100);
        suggest_region(regions, "tiny_mul", "tiny_mul.isra.0", 15000, 20, 31 * ms, 100);
        suggest_region(regions, "work_medium", NULL, 12000, 500, 33 * ms, 1000);
        suggest_region(regions, "work_rare", NULL, 50, 5, 45 * ms, 1000);
        suggest_region(regions, "work_solve", NULL, 5, 10 * ms, 46 * ms, 10 * ms);
        suggest_region(regions, "from_env", NULL, 3, ms, 96 * ms + ms / 2, ms);
        if (rank == 1)
            suggest_region(regions, "work_idle", NULL, 0, 0, 0, 0);
        H5Gclose(regions);
    }
    fx_close(file);
}

static herr_t add_region_stats(hid_t regions, const char *name, const H5L_info_t *info,
                               void *unused)
{
    (void)info;
    (void)unused;
    hid_t g = H5Gopen2(regions, name, H5P_DEFAULT);
    hid_t ds = H5Dopen2(g, "start_times", H5P_DEFAULT), de = H5Dopen2(g, "end_times", H5P_DEFAULT);
    hid_t space = H5Dget_space(ds);
    hssize_t n = H5Sget_simple_extent_npoints(space);
    int64_t *s = malloc(((size_t)n + 1) * sizeof *s), *e = malloc(((size_t)n + 1) * sizeof *e);
    H5Dread(ds, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, s);
    H5Dread(de, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, e);
    fx_stats st = {.calls = n, .self_ns = -1};
    for (hssize_t i = 0; i < n; i++) {
        int64_t d = e[i] - s[i];
        st.total_ns += d;
        st.min_ns = i == 0 || d < st.min_ns ? d : st.min_ns;
        st.max_ns = i == 0 || d > st.max_ns ? d : st.max_ns;
        st.first_start_ns = i == 0 || s[i] < st.first_start_ns ? s[i] : st.first_start_ns;
        st.last_end_ns = i == 0 || e[i] > st.last_end_ns ? e[i] : st.last_end_ns;
    }
    double mean = n ? (double)st.total_ns / (double)n : 0;
    for (hssize_t i = 0; i < n; i++)
        st.m2_ns2 += ((double)(e[i] - s[i]) - mean) * ((double)(e[i] - s[i]) - mean);
    free(s);
    free(e);
    H5Sclose(space);
    H5Dclose(ds);
    H5Dclose(de);
    H5Gclose(g);
    fx_region_stats(regions, name, &st);
    return 0;
}

static herr_t add_rank_stats(hid_t file, const char *name, const H5L_info_t *info, void *unused)
{
    (void)info;
    if (strncmp(name, "rank", 4) != 0)
        return 0;
    char path[64];
    snprintf(path, sizeof path, "%s/regions", name);
    hid_t regions = H5Gopen2(file, path, H5P_DEFAULT);
    H5Literate(regions, H5_INDEX_NAME, H5_ITER_NATIVE, NULL, add_region_stats, unused);
    H5Gclose(regions);
    return 0;
}

void fx_add_stats(const char *path)
{
    hid_t file = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    H5Literate(file, H5_INDEX_NAME, H5_ITER_NATIVE, NULL, add_rank_stats, NULL);
    H5Fclose(file);
}

/* ---- call sites ---- */

typedef struct fx_frame_row {
    const char *module, *function, *file;
    uint64_t offset;
    int32_t line;
} fx_frame_row;

static void callsite_table(hid_t file, const fx_frame_row *frames, size_t n_frames,
                           const int32_t *sites, size_t n_sites, size_t depth)
{
    hid_t meta = H5Gopen2(file, "metadata", H5P_DEFAULT);
    hid_t str = H5Tcopy(H5T_C_S1);
    H5Tset_size(str, H5T_VARIABLE);
    H5Tset_cset(str, H5T_CSET_UTF8);
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(fx_frame_row));
    H5Tinsert(t, "module", HOFFSET(fx_frame_row, module), str);
    H5Tinsert(t, "function", HOFFSET(fx_frame_row, function), str);
    H5Tinsert(t, "file", HOFFSET(fx_frame_row, file), str);
    H5Tinsert(t, "offset", HOFFSET(fx_frame_row, offset), H5T_NATIVE_UINT64);
    H5Tinsert(t, "line", HOFFSET(fx_frame_row, line), H5T_NATIVE_INT32);
    dataset(meta, "callsite_frames", t, t, frames, n_frames);
    hsize_t dims[2] = {n_sites, depth};
    hid_t space = H5Screate_simple(2, dims, NULL);
    hid_t d = H5Dcreate2(meta, "callsites", H5T_STD_I32LE, space, H5P_DEFAULT, H5P_DEFAULT,
                         H5P_DEFAULT);
    H5Dwrite(d, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, sites);
    H5Dclose(d);
    H5Sclose(space);
    H5Tclose(t);
    H5Tclose(str);
    H5Gclose(meta);
}

void fx_callsites(const char *path, fx_callsite_damage damage)
{
    static const fx_frame_row frames[] = {
        {"/bin/app", "solve_step", "app.c", 0x20, 42},
        {"/bin/app", "main", "app.c", 0x40, 10},
        {"/lib/libx.so", "", "", 0x1234, 0},
        {"/lib/libx.so", "helper", "", 0x10, 0},
    };
    int32_t sites[] = {0, 1, 2, -1, 1, -1, 3, 1};
    if (damage == FX_SITE_BAD_FRAME)
        sites[2] = 4;
    hid_t file = fx_create(path);
    fx_metadata(file, 0);
    if (damage != FX_SITE_NO_TABLE)
        callsite_table(file, frames, 4, sites, 4, 2);
    const int64_t s = FX_NS;
    const int64_t solve_start[] = {0}, solve_end[] = {40 * s};
    const int64_t r0_start[] = {10 * s, 20 * s, 30 * s}, r0_end[] = {12 * s, 25 * s, 31 * s};
    int32_t r0_sites[] = {0, 1, 0};
    const int64_t r1_start[] = {10 * s, 20 * s, 22 * s}, r1_end[] = {14 * s, 21 * s, 23 * s};
    const int32_t r1_sites[] = {0, 2, -1};
    if (damage == FX_SITE_BAD_ID)
        r0_sites[1] = 4;
    hid_t r0 = fx_rank(file, 0);
    fx_region(r0, "solve", solve_start, 1, solve_end, 1, NULL, 0);
    fx_region(r0, "MPI_Allreduce", r0_start, 3, r0_end, 3, NULL, 0);
    hid_t g = H5Gopen2(r0, "MPI_Allreduce", H5P_DEFAULT);
    dataset(g, "callsite_ids", H5T_STD_I32LE, H5T_NATIVE_INT32, r0_sites,
            damage == FX_SITE_SHORT_IDS ? 2 : 3);
    H5Gclose(g);
    H5Gclose(r0);
    hid_t r1 = fx_rank(file, 1);
    fx_region(r1, "MPI_Allreduce", r1_start, 3, r1_end, 3, NULL, 0);
    g = H5Gopen2(r1, "MPI_Allreduce", H5P_DEFAULT);
    dataset(g, "callsite_ids", H5T_STD_I32LE, H5T_NATIVE_INT32, r1_sites, 3);
    H5Gclose(g);
    H5Gclose(r1);
    fx_close(file);
}

void fx_callsites_same_line(const char *path)
{
    static const fx_frame_row frames[] = {
        {"/bin/app", "exchange", "app.c", 0x20, 42},
        {"/bin/app", "exchange", "app.c", 0x38, 42},
    };
    const int32_t sites[] = {0, 1};
    hid_t file = fx_create(path);
    fx_metadata(file, 0);
    callsite_table(file, frames, 2, sites, 2, 1);
    const int64_t s = FX_NS;
    const int64_t start[] = {10 * s, 20 * s, 30 * s}, end[] = {12 * s, 21 * s, 34 * s};
    const int32_t ids[] = {0, 1, 0};
    hid_t r0 = fx_rank(file, 0);
    fx_region(r0, "MPI_Send", start, 3, end, 3, NULL, 0);
    hid_t g = H5Gopen2(r0, "MPI_Send", H5P_DEFAULT);
    dataset(g, "callsite_ids", H5T_STD_I32LE, H5T_NATIVE_INT32, ids, 3);
    H5Gclose(g);
    H5Gclose(r0);
    fx_close(file);
}
