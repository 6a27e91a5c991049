/* scope_writer.c: the writer's entry points. Checks that calls come in the
 * documented order, keeps HDF5 quiet while it works, and owns the file's
 * life: created under a temporary name, renamed by finish, removed by abort.
 * Region datasets are streamed by region_stream.c. */
#include "scope_writer.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "callsite_table.h"
#include "comm_table.h"
#include "file_index.h"
#include "h5_util.h"

#define SCOPE_METADATA_CACHE ((size_t)64 << 10)   /* bytes of metadata kept in memory */
#include "profile_datasets.h"
#include "region_stream.h"

enum writer_state { IN_FILE, IN_RANK, IN_REGION, FAILED };

struct scope_writer {
    enum writer_state state;
    char *path;
    char *tmp;
    hid_t file, rank, regions;
    int rank_number;
    struct region_stream region;
    struct file_index index;   /* of the ranks and regions written so far */
    struct h5_quiet quiet;
    char err[512];
    struct h5_err e;
};

/* The message of a writer that no longer exists (failed create or finish). */
static __thread char last_error[512];

static const char *where(const scope_writer *w)
{
    static const char *const phrase[] = {
        [IN_FILE] = "outside any rank",
        [IN_RANK] = "inside a rank but outside any region",
        [IN_REGION] = "inside a region",
    };
    return phrase[w->state];  /* never FAILED: enter() stops before */
}

/* Starts an entry point that needs state `need`; -1 if it must not run. */
static int enter(scope_writer *w, enum writer_state need, const char *what)
{
    if (!w)
        return -1;
    if (w->state == FAILED)
        return -1;  /* the first failure's message stays */
    if (w->state != need) {
        snprintf(w->err, sizeof w->err, "%s: out of order, called %s", what, where(w));
        return -1;
    }
    w->quiet = h5_quiet_begin();
    return 0;
}

static int leave(scope_writer *w, int rc)
{
    h5_quiet_end(w->quiet);
    if (rc < 0)
        w->state = FAILED;
    return rc;
}

/* Closes everything, removes the temporary file, frees w. */
static void destroy(scope_writer *w)
{
    region_stream_free(&w->region);
    file_index_free(&w->index);
    h5_close(&w->regions);
    h5_close(&w->rank);
    h5_close(&w->file);
    if (w->tmp)
        unlink(w->tmp);
    free(w->tmp);
    free(w->path);
    free(w);
}

static scope_writer *writer_new(const char *path, char *err, size_t errlen)
{
    scope_writer *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err, errlen, "out of memory for the writer");
        return NULL;
    }
    w->file = w->rank = w->regions = H5I_INVALID_HID;
    w->e = (struct h5_err){w->err, sizeof w->err};
    w->path = strdup(path);
    if (!w->path || asprintf(&w->tmp, "%s.tmp.%ld", path, (long)getpid()) < 0) {
        w->tmp = NULL;
        snprintf(w->err, sizeof w->err, "out of memory for the file name");
    } else if (region_stream_init(&w->region, w->e) == 0) {
        return w;
    }
    snprintf(err, errlen, "%s", w->err);
    destroy(w);
    return NULL;
}

/* HDF5's metadata cache grows to 32 MiB by default, and a file written
 * once keeps every object it creates in it, dirty, until it is closed:
 * fresh pages for each region group (about 16 page faults each). A small
 * fixed cache writes them out as it goes and reuses its memory. 64 KiB
 * wrote LAMMPS's 443 profile regions in 0.12 s (256 KiB: 0.14 s, 16 KiB:
 * 0.13 s) and a node part of 64 ranks in 0.16 s (256 KiB: 0.20 s); at
 * 32 KiB the links of 4 096 ranks took four times as long. */
static int small_metadata_cache(hid_t fapl)
{
    H5AC_cache_config_t c = {.version = H5AC__CURR_CACHE_CONFIG_VERSION};
    if (H5Pget_mdc_config(fapl, &c) < 0)
        return -1;
    c.set_initial_size = 1;
    c.initial_size = c.max_size = SCOPE_METADATA_CACHE;
    c.min_size = SCOPE_METADATA_CACHE / 2;
    c.incr_mode = H5C_incr__off;
    c.flash_incr_mode = H5C_flash_incr__off;
    c.decr_mode = H5C_decr__off;
    return H5Pset_mdc_config(fapl, &c) < 0 ? -1 : 0;
}

/* Creating the file ourselves first gives the real reason (errno) when the
 * directory is missing or unwritable; HDF5 then truncates it. */
static int create_file(scope_writer *w)
{
    int fd = open(w->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) {
        snprintf(w->err, sizeof w->err, "cannot create %s: %s", w->tmp, strerror(errno));
        return -1;
    }
    close(fd);
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (fapl >= 0 && H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG) >= 0 &&
        H5Pset_libver_bounds(fapl, H5F_LIBVER_V110, H5F_LIBVER_V110) >= 0 &&
        small_metadata_cache(fapl) == 0)
        w->file = H5Fcreate(w->tmp, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    int rc = w->file < 0 ? h5_fail(&w->e, "cannot create HDF5 file %s", w->tmp) : 0;
    if (fapl >= 0)
        H5Pclose(fapl);
    return rc;
}

static int write_metadata(scope_writer *w, const struct scope_run_info *run)
{
    const struct { const char *name, *value; } strings[] = {
        {"version", run->version}, {"hostname", run->hostname},
        {"platform", run->platform}, {"user", run->user},
        {"working_directory", run->working_directory},
        {"timestamp", run->timestamp}, {"command", run->command},
        {"config", run->config}, {"clock", run->clock},
    };
    const struct { const char *name; int64_t value; } ints[] = {
        {"mpi_size", run->mpi_size}, {"omp_num_threads", run->omp_num_threads},
        {"total_cores", run->total_cores}, {"run_start_time", run->run_start_time},
    };
    hid_t g = h5_group_create(w->file, "metadata");
    if (g < 0)
        return h5_fail(&w->e, "cannot create /metadata");
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < sizeof strings / sizeof strings[0]; i++)
        rc = h5_attr_string(g, strings[i].name, strings[i].value, &w->e);
    for (size_t i = 0; rc == 0 && i < sizeof ints / sizeof ints[0]; i++)
        rc = h5_attr_int64(g, ints[i].name, ints[i].value, &w->e);
    if (rc == 0)
        rc = h5_attr_string(g, "mode", run->mode ? run->mode : "trace", &w->e);
    if (rc == 0 && run->hook_cost_ns > 0)
        rc = h5_attr_int64(g, "hook_cost_ns", run->hook_cost_ns, &w->e);
    if (rc == 0 && run->min_duration_ns > 0)
        rc = h5_attr_int64(g, "min_duration_ns", run->min_duration_ns, &w->e);
    if (rc == 0 && run->trace_limit_bytes > 0)
        rc = h5_attr_int64(g, "trace_limit_bytes", run->trace_limit_bytes, &w->e);
    H5Gclose(g);
    return rc;
}

/* A file with /metadata (run given) or of ranks only (run NULL). */
static scope_writer *open_writer(const char *path, const struct scope_run_info *run, char *err,
                                 size_t errlen)
{
    scope_writer *w = writer_new(path, err, errlen);
    if (!w)
        return NULL;
    struct h5_quiet q = h5_quiet_begin();
    int rc = create_file(w) < 0 ? -1 : run ? write_metadata(w, run) : 0;
    if (rc < 0) {
        snprintf(err, errlen, "%s", w->err);
        snprintf(last_error, sizeof last_error, "%s", w->err);
        destroy(w);
        w = NULL;
    }
    h5_quiet_end(q);
    return w;
}

static scope_writer *w_create(const char *path, const struct scope_run_info *run,
                              char *err, size_t errlen)
{
    if (!path || !run) {
        snprintf(err, errlen, "create: path and run info are required");
        return NULL;
    }
    return open_writer(path, run, err, errlen);
}

static scope_writer *w_create_part(const char *path, char *err, size_t errlen)
{
    if (!path) {
        snprintf(err, errlen, "create_part: a path is required");
        return NULL;
    }
    return open_writer(path, NULL, err, errlen);
}

static int w_link_rank(scope_writer *w, int rank, const char *part)
{
    if (enter(w, IN_FILE, "link_rank") < 0)
        return -1;
    char name[32];
    snprintf(name, sizeof name, "rank%d", rank);
    char target[40];
    snprintf(target, sizeof target, "/%s", name);
    int rc = rank < 0 || !part ||
                     H5Lcreate_external(part, target, w->file, name, H5P_DEFAULT, H5P_DEFAULT) < 0
                 ? h5_fail(&w->e, "cannot link /%s to %s", name, part ? part : "(none)")
                 : 0;
    return leave(w, rc);
}

static int open_rank(scope_writer *w, const struct scope_rank_info *info)
{
    char name[32];
    snprintf(name, sizeof name, "rank%d", info->rank);
    w->rank = h5_group_create(w->file, name);
    if (w->rank < 0)
        return h5_fail(&w->e, "cannot create /%s", name);
    w->rank_number = info->rank;
    if (h5_attr_string(w->rank, "hostname", info->hostname, &w->e) < 0 ||
        h5_attr_int64(w->rank, "pid", info->pid, &w->e) < 0 ||
        h5_attr_int64(w->rank, "run_start_time", info->run_start_time, &w->e) < 0 ||
        h5_attr_int64(w->rank, "clock_offset_ns", info->clock_offset_ns, &w->e) < 0 ||
        h5_attr_int64(w->rank, "dropped_events", info->dropped_events, &w->e) < 0 ||
        (info->trace_limit_passed_ns &&
         h5_attr_int64(w->rank, "trace_limit_passed_ns", info->trace_limit_passed_ns, &w->e) < 0) ||
        (info->callpath_parents &&
         profile_callpaths_write(w->rank, info->callpath_parents, info->ncallpaths, &w->e) < 0) ||
        file_index_add_rank(&w->index, &(struct file_index_rank){info->rank, info->dropped_events},
                            &w->e) < 0)
        return -1;
    w->regions = h5_group_create(w->rank, "regions");
    if (w->regions < 0)
        return h5_fail(&w->e, "cannot create /%s/regions", name);
    w->state = IN_RANK;
    return 0;
}

static int w_begin_rank(scope_writer *w, const struct scope_rank_info *info)
{
    if (enter(w, IN_FILE, "begin_rank") < 0)
        return -1;
    if (!info || info->rank < 0) {
        snprintf(w->err, sizeof w->err, "begin_rank: a rank number >= 0 is required");
        return leave(w, -1);
    }
    return leave(w, open_rank(w, info));
}

static int w_begin_region(scope_writer *w, const struct scope_region_info *info)
{
    if (enter(w, IN_RANK, "begin_region") < 0)
        return -1;
    int rc = region_begin(&w->region, w->regions, info);
    if (rc == 0)
        w->state = IN_REGION;
    return leave(w, rc);
}

static int w_append(scope_writer *w, const int64_t *start, const int64_t *end,
                    const int32_t *thread_ids, const int32_t *callsite_ids, size_t n)
{
    if (enter(w, IN_REGION, "append") < 0)
        return -1;
    return leave(w, region_append(&w->region, start, end, thread_ids, callsite_ids, NULL, n));
}

static int w_append_payload(scope_writer *w, const int64_t *start, const int64_t *end,
                            const int32_t *thread_ids, const int32_t *callsite_ids,
                            const struct region_payload *payload, size_t n)
{
    if (enter(w, IN_REGION, "append_payload") < 0)
        return -1;
    return leave(w, region_append(&w->region, start, end, thread_ids, callsite_ids, payload, n));
}

static int w_put_window(scope_writer *w, const struct region_window *win)
{
    if (enter(w, IN_REGION, "put_window") < 0)
        return -1;
    return leave(w, region_put_window(&w->region, win));
}

static int w_callsites(scope_writer *w, const struct scope_callsite_table *table)
{
    if (enter(w, IN_FILE, "callsites") < 0)
        return -1;
    return leave(w, callsite_table_write(w->file, table, &w->e));
}

static int w_communicators(scope_writer *w, const struct scope_comm_table *table)
{
    if (enter(w, IN_FILE, "communicators") < 0)
        return -1;
    return leave(w, comm_table_write(w->file, table, &w->e));
}

static int w_end_region(scope_writer *w)
{
    if (enter(w, IN_REGION, "end_region") < 0)
        return -1;
    struct file_index_region row;
    char *name = NULL;
    int rc = region_end(&w->region, &row, &name);
    if (rc == 0) {
        row.rank = w->rank_number;
        rc = file_index_add_region(&w->index, &row, name, &w->e);
    }
    if (rc == 0)
        w->state = IN_RANK;
    return leave(w, rc);
}

static int w_end_rank(scope_writer *w)
{
    if (enter(w, IN_RANK, "end_rank") < 0)
        return -1;
    int rc = h5_close(&w->regions) < 0 || h5_close(&w->rank) < 0
                 ? h5_fail(&w->e, "cannot close /rank%d", w->rank_number) : 0;
    if (rc == 0)
        w->state = IN_FILE;
    return leave(w, rc);
}

static int close_and_rename(scope_writer *w)
{
    if (file_index_write(&w->index, w->file, &w->e) < 0)
        return -1;
    if (h5_close(&w->file) < 0)
        return h5_fail(&w->e, "cannot close %s", w->tmp);
    if (rename(w->tmp, w->path) < 0) {
        snprintf(w->err, sizeof w->err, "cannot rename %s to %s: %s", w->tmp,
                 w->path, strerror(errno));
        return -1;
    }
    free(w->tmp);
    w->tmp = NULL;  /* nothing left to remove */
    return 0;
}

static int w_finish(scope_writer *w)
{
    if (!w)
        return -1;
    int rc = enter(w, IN_FILE, "finish");
    if (rc == 0)
        rc = leave(w, close_and_rename(w));
    if (rc < 0)
        snprintf(last_error, sizeof last_error, "%s", w->err);
    struct h5_quiet q = h5_quiet_begin();
    destroy(w);
    h5_quiet_end(q);
    return rc;
}

static void w_abort(scope_writer *w)
{
    if (!w)
        return;
    struct h5_quiet q = h5_quiet_begin();
    destroy(w);
    h5_quiet_end(q);
}

static const char *w_error(const scope_writer *w)
{
    return w ? w->err : last_error;
}

static const char *w_temp_path(const scope_writer *w)
{
    return w->tmp;
}

/* HDF5 is not closed down at exit in a process that writes with this
 * library: after a write that failed (a full disk), HDF5 keeps the file
 * half-closed, and its exit-time cleanup would crash on it, taking the
 * profiled program's exit status with it. Every file a writer completes is
 * closed by finish, so the cleanup has nothing to do. Takes effect only
 * before HDF5's first call in the process (always so for libscope's
 * namespace and for `scope recover`). */
__attribute__((visibility("default")))
const struct scope_writer_api *scope_writer_api(void)
{
    H5dont_atexit();
    static const struct scope_writer_api api = {
        .create = w_create,
        .create_part = w_create_part,
        .link_rank = w_link_rank,
        .begin_rank = w_begin_rank,
        .begin_region = w_begin_region,
        .append = w_append,
        .append_payload = w_append_payload,
        .put_window = w_put_window,
        .end_region = w_end_region,
        .end_rank = w_end_rank,
        .callsites = w_callsites,
        .communicators = w_communicators,
        .finish = w_finish,
        .abort = w_abort,
        .error = w_error,
        .temp_path = w_temp_path,
    };
    return &api;
}
