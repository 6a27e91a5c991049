/* recover.c: `scope recover`'s work (see recover.h). Each process left a
 * meta segment naming its run (rank 0's pid and start time), its rank, its
 * clock calibration and its hooks; its threads left buffer segments and
 * maybe spill files. Processes are grouped into runs, their records decoded
 * and converted to rank 0's clock, and each run is written like a finished
 * one, through the same writer. */
#include "recover.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "event_groups.h"
#include "process_meta.h"
#include "scope_build_config.h"
#include "scope_writer.h"
#include "segment.h"
#include "segment_decode.h"
#include "write_rank.h"

struct process {
    struct scope_meta_header *meta;
    size_t meta_bytes;
};

struct run {
    struct process *procs;    /* sorted by rank */
    size_t n;
};

static void *map_file(const char *path, size_t *bytes)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    void *p = MAP_FAILED;
    if (fd >= 0 && fstat(fd, &st) == 0 && st.st_size > 0) {
        *bytes = (size_t)st.st_size;
        p = mmap(NULL, *bytes, PROT_READ, MAP_PRIVATE, fd, 0);
    }
    if (fd >= 0)
        close(fd);
    return p == MAP_FAILED ? NULL : p;
}

static int valid_meta(const struct scope_meta_header *m, size_t bytes)
{
    return bytes >= sizeof(*m) && memcmp(m->magic, SCOPE_META_MAGIC, 8) == 0 &&
           m->nhooks >= 0 && m->nregions >= 0 &&
           bytes >= sizeof(*m) + (size_t)m->nhooks * sizeof(struct scope_meta_hook) +
                        m->strings_bytes;
}

static int alive(int pid)
{
    return kill(pid, 0) == 0 || errno == EPERM;
}

/* The meta segments of this user's processes in dir. */
static int find_processes(const struct scope_recover_options *o, struct process **out,
                          size_t *n, FILE *report)
{
    DIR *d = opendir(o->dir);
    if (!d)
        return -1;
    char prefix[64];
    snprintf(prefix, sizeof(prefix), "scope-%d-", (int)getuid());
    struct dirent *e;
    size_t cap = 0;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (strncmp(e->d_name, prefix, strlen(prefix)) != 0 || len < 5 ||
            strcmp(e->d_name + len - 5, "-meta") != 0)
            continue;
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s", o->dir, e->d_name);
        struct process p = {0};
        p.meta = map_file(path, &p.meta_bytes);
        if (!p.meta || !valid_meta(p.meta, p.meta_bytes)) {
            fprintf(report, "scope recover: %s: not a scope meta segment, skipped\n", path);
            if (p.meta)
                munmap(p.meta, p.meta_bytes);
            continue;
        }
        if (o->run && p.meta->root_pid != o->run) {
            munmap(p.meta, p.meta_bytes);
            continue;
        }
        if (alive(p.meta->pid) && !o->force) {
            fprintf(report, "scope recover: pid %d is still running, skipped (--force takes it)\n",
                    p.meta->pid);
            munmap(p.meta, p.meta_bytes);
            continue;
        }
        if (*n == cap) {
            cap = cap ? cap * 2 : 16;
            struct process *grown = realloc(*out, cap * sizeof(*grown));
            if (!grown) {
                closedir(d);
                return -1;
            }
            *out = grown;
        }
        (*out)[(*n)++] = p;
    }
    closedir(d);
    return 0;
}

static int by_run_then_rank(const void *a, const void *b)
{
    const struct scope_meta_header *x = ((const struct process *)a)->meta;
    const struct scope_meta_header *y = ((const struct process *)b)->meta;
    if (x->root_pid != y->root_pid)
        return x->root_pid < y->root_pid ? -1 : 1;
    if (x->root_start_ns != y->root_start_ns)
        return x->root_start_ns < y->root_start_ns ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

/* The raw-to-ns calibration of a process: closed when it stopped cleanly,
 * else closed now (the TSC and CLOCK_MONOTONIC kept running). */
static struct scope_clock_calibration calibration(const struct scope_meta_header *m)
{
    struct scope_clock_calibration c = {m->clock_raw0, m->clock_raw1, m->clock_ns0,
                                        m->clock_ns1, m->uses_tsc};
    if (!m->stopped && m->uses_tsc) {
        c.raw1 = __builtin_ia32_rdtsc();
        c.ns1 = scope_monotonic_ns();
    }
    return c;
}

/* The segments a process's threads left, mapped, and where their records are. */
struct process_segments {
    struct scope_thread_records *threads;
    void **maps;
    size_t *bytes;
    char (*spill)[sizeof(((struct scope_segment_header *)0)->spill_path)];
    size_t n;
};

static void unmap_segments(struct process_segments *p)
{
    for (size_t i = 0; i < p->n; i++)
        munmap(p->maps[i], p->bytes[i]);
    free(p->threads);
    free(p->maps);
    free(p->bytes);
    free(p->spill);
    *p = (struct process_segments){0};
}

static int map_segments(const struct scope_recover_options *o, const struct scope_meta_header *m,
                        struct process_segments *p)
{
    *p = (struct process_segments){0};
    for (int thread = 0;; thread++) {
        char path[4096];
        snprintf(path, sizeof(path), "%s/scope-%d-%d-%d", o->dir, (int)getuid(), m->pid, thread);
        size_t bytes;
        struct scope_segment_header *h = map_file(path, &bytes);
        if (!h)
            return 0;
        size_t n = p->n + 1;
        struct scope_thread_records *t = realloc(p->threads, n * sizeof(*t));
        void **maps = t ? realloc(p->maps, n * sizeof(*maps)) : NULL;
        size_t *sizes = maps ? realloc(p->bytes, n * sizeof(*sizes)) : NULL;
        void *spill = sizes ? realloc(p->spill, n * sizeof(*p->spill)) : NULL;
        if (t)
            p->threads = t;
        if (maps)
            p->maps = maps;
        if (sizes)
            p->bytes = sizes;
        if (spill)
            p->spill = spill;
        if (!spill) {
            munmap(h, bytes);
            return -1;
        }
        p->maps[p->n] = h;
        p->bytes[p->n] = bytes;
        int ok = bytes >= SCOPE_SEGMENT_HEADER_BYTES && memcmp(h->magic, SCOPE_SEGMENT_MAGIC, 8) == 0;
        size_t capacity = ok ? (bytes - SCOPE_SEGMENT_HEADER_BYTES) / sizeof(struct scope_record) : 0;
        if (ok && capacity > h->capacity)
            capacity = h->capacity;
        memcpy(p->spill[p->n], h->spill_path, sizeof(p->spill[0]));
        p->spill[p->n][sizeof(p->spill[0]) - 1] = '\0';
        p->threads[p->n] = (struct scope_thread_records){
            .spill_path = ok ? p->spill[p->n] : NULL, .spilled = ok ? h->spilled : 0,
            .records = (const struct scope_record *)((const char *)h + SCOPE_SEGMENT_HEADER_BYTES),
            .capacity = capacity, .clock_base = ok ? h->clock_base : 0, .thread = thread};
        p->n = n;
    }
}

/* A region's attributes from the hook table of a meta segment. */
static struct scope_region_info meta_region_info(const struct scope_event_groups *g, size_t r,
                                                 const void *ctx)
{
    const struct scope_meta_header *m = ctx;
    const struct scope_meta_hook *h = &scope_meta_hooks(m)[g->region_hook[r]];
    const char *strings = scope_meta_strings(m);
    return (struct scope_region_info){.name = strings + h->name, .symbol = strings + h->symbol,
                                      .library = strings + h->module, .address = h->value,
                                      .has_self = g->self_known, .self_ns = g->region_self[r]};
}

/* Groups one process's events by its regions, on rank 0's clock; the
 * strings stay valid as long as its meta segment is mapped. */
static int group_process(const struct scope_recover_options *o, const struct scope_meta_header *m,
                         struct scope_event_groups *g, size_t *events, char *err, size_t errlen)
{
    const struct scope_meta_hook *hooks = scope_meta_hooks(m);
    uint32_t *hook_region = malloc(((size_t)m->nhooks + 1) * sizeof(uint32_t));
    struct process_segments segs;
    int rc = hook_region && map_segments(o, m, &segs) == 0 ? 0 : -1;
    for (int32_t h = 0; rc == 0 && h < m->nhooks; h++) {
        hook_region[h] = hooks[h].region;
        if (hooks[h].region >= (uint32_t)m->nregions || hooks[h].name >= m->strings_bytes)
            rc = -1;
    }
    *g = (struct scope_event_groups){.runs_fd = -1};
    if (rc == 0) {
        struct scope_clock_calibration c = calibration(m);
        struct scope_clock_offsets to_root = {0, m->clock_offset_ns, 0, m->clock_offset_ns};
        struct scope_clock_map map;
        scope_clock_map_init(&map, &c, &to_root);
        struct scope_record_reader in;
        scope_record_reader_init(&in, segs.threads, segs.n, &map);
        rc = scope_event_groups_build(g, &in, hook_region, (size_t)m->nhooks, (size_t)m->nregions,
                                      SCOPE_MERGE_WINDOW, err, errlen);
        scope_record_reader_close(&in);
    }
    *events = rc == 0 ? g->count : 0;
    unmap_segments(&segs);
    free(hook_region);
    if (rc != 0 && !*err)
        snprintf(err, errlen, "pid %d: damaged meta segment or out of memory", m->pid);
    return rc;
}

static void remove_segments(const struct scope_recover_options *o, const struct scope_meta_header *m)
{
    char path[4096];
    for (int thread = 0;; thread++) {
        snprintf(path, sizeof(path), "%s/scope-%d-%d-%d", o->dir, (int)getuid(), m->pid, thread);
        size_t bytes;
        struct scope_segment_header *h = map_file(path, &bytes);
        if (!h)
            break;
        if (bytes >= sizeof(*h)) {
            char spill[sizeof(h->spill_path)];
            memcpy(spill, h->spill_path, sizeof(spill));
            spill[sizeof(spill) - 1] = '\0';
            unlink(spill);
        }
        munmap(h, bytes);
        unlink(path);
    }
    snprintf(path, sizeof(path), "%s/scope-%d-%d-meta", o->dir, (int)getuid(), m->pid);
    unlink(path);
}

static int write_run(const struct scope_recover_options *o, const struct run *run, FILE *report,
                     char *err, size_t errlen)
{
    const struct scope_meta_header *root = run->procs[0].meta;
    const char *path = o->output ? o->output : root->output;
    if (access(path, F_OK) == 0 && !o->force) {
        snprintf(err, errlen, "%s exists: give another name with -o, or --force", path);
        return -1;
    }
    fprintf(report, "scope recover: run of pid %d: %zu of %d rank(s) -> %s\n", root->root_pid,
            run->n, root->nranks, path);
    if (o->list_only)
        return 0;
    const struct scope_writer_api *api = scope_writer_api();
    struct scope_run_info info = {
        SCOPE_VERSION, root->hostname, root->platform, root->user, root->cwd, root->timestamp,
        root->command, root->config, root->uses_tsc ? "CLOCK_MONOTONIC via rdtsc" : "CLOCK_MONOTONIC",
        root->nranks, 1, sysconf(_SC_NPROCESSORS_ONLN), root->root_start_ns};
    scope_writer *w = api->create(path, &info, err, errlen);
    size_t total = 0;
    int rc = w ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < run->n; i++) {
        struct scope_event_groups g;
        size_t events = 0;
        rc = group_process(o, run->procs[i].meta, &g, &events, err, errlen);
        if (rc == 0) {
            const struct scope_meta_header *m = run->procs[i].meta;
            struct scope_rank_info info = {m->rank, m->hostname, m->pid,
                                           m->run_start_ns - m->clock_offset_ns,
                                           m->clock_offset_ns, 0};
            rc = scope_write_rank(api, w, &info, &g, meta_region_info, m);
            if (rc != 0)
                snprintf(err, errlen, "%s", api->error(w));
            scope_event_groups_free(&g);
        }
        total += events;
    }
    if (rc != 0) {
        if (w)
            api->abort(w);
        return -1;
    }
    if (api->finish(w) != 0) {
        snprintf(err, errlen, "%s", api->error(NULL));
        return -1;
    }
    fprintf(report, "scope recover: wrote %s (%zu calls)\n", path, total);
    for (size_t i = 0; !o->keep && i < run->n; i++)
        remove_segments(o, run->procs[i].meta);
    return 0;
}

int scope_recover(const struct scope_recover_options *o, FILE *report, char *err, size_t errlen)
{
    struct process *procs = NULL;
    size_t n = 0;
    err[0] = '\0';
    if (find_processes(o, &procs, &n, report) != 0) {
        snprintf(err, errlen, "%s: %s", o->dir, strerror(errno));
        free(procs);
        return -1;
    }
    qsort(procs, n, sizeof(*procs), by_run_then_rank);
    size_t nruns = 0;
    struct run *runs = malloc((n ? n : 1) * sizeof(*runs));
    for (size_t i = 0; runs && i < n;) {
        size_t j = i + 1;
        while (j < n && procs[j].meta->root_pid == procs[i].meta->root_pid &&
               procs[j].meta->root_start_ns == procs[i].meta->root_start_ns)
            j++;
        runs[nruns++] = (struct run){procs + i, j - i};
        i = j;
    }
    int written = 0, rc = runs ? 0 : -1;
    if (!runs) {
        snprintf(err, errlen, "out of memory");
    } else if (o->output && nruns > 1) {
        int at = snprintf(err, errlen, "%zu runs found (rank 0 pids", nruns);
        for (size_t r = 0; r < nruns && at > 0 && (size_t)at < errlen; r++)
            at += snprintf(err + at, errlen - (size_t)at, " %d", runs[r].procs[0].meta->root_pid);
        if (at > 0 && (size_t)at < errlen)
            snprintf(err + at, errlen - (size_t)at, "): pick one with --run PID, or drop -o");
        rc = -1;
    }
    for (size_t r = 0; rc == 0 && r < nruns; r++)
        if (write_run(o, &runs[r], report, err, errlen) == 0)
            written++;
        else
            rc = -1;
    free(runs);
    for (size_t i = 0; i < n; i++)
        munmap(procs[i].meta, procs[i].meta_bytes);
    free(procs);
    return rc == 0 ? written : -1;
}
