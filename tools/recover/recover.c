/* recover.c: `scope recover`'s work (see recover.h). Each process left a
 * meta segment naming its run (rank 0's pid and start time), its rank, its
 * clock calibration and its hooks; its threads left buffer segments and
 * maybe spill files. Processes are grouped into runs, their records decoded
 * and converted to rank 0's clock, and each run is written like a finished
 * one, through the same writer. Call sites are named from the copy of
 * /proc/PID/maps each process left (scope-UID-PID-maps). */
#include "recover.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "callsite_resolve.h"
#include "clock.h"
#include "demangle.h"
#include "event_groups.h"
#include "grow_array.h"
#include "process_alive.h"
#include "process_meta.h"
#include "record_files.h"
#include "region_clones.h"
#include "scope_build_config.h"
#include "scope_writer.h"
#include "segment.h"
#include "segment_decode.h"
#include "write_rank.h"

struct process {
    struct scope_meta_header *meta;
    size_t meta_bytes;
    char dir[2048];           /* where its segments are: the scanned dir or a node's */
    char stem[256];           /* their names without the suffix: scope-UID-PID-TAG */
};

struct run {
    struct process *procs;    /* sorted by rank */
    size_t n;
};

/* Maps a file of this user (not a symlink, not someone else's) read-only. */
static void *map_file(const char *path, size_t *bytes)
{
    int fd = scope_record_open_owned(path);
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

static int valid_meta(const struct scope_meta_header *m, size_t bytes, int pid)
{
    return bytes >= sizeof(*m) && memcmp(m->magic, SCOPE_META_MAGIC, 8) == 0 && m->pid == pid &&
           m->nhooks >= 0 && m->nregions >= 0 &&
           bytes >= sizeof(*m) + (size_t)m->nhooks * sizeof(struct scope_meta_hook) +
                        m->strings_bytes;
}

/* Whether the process still runs; one of another node (a gathered
 * directory) is not asked about here. */
static int alive(const struct scope_meta_header *m)
{
    char host[256] = "";
    gethostname(host, sizeof(host) - 1);
    if (strncmp(m->hostname, host, sizeof(m->hostname)) != 0)
        return 0;
    return scope_process_alive(m->pid);
}

static int add_process(struct process **out, size_t *n, size_t *cap, const struct process *p)
{
    if (scope_grow_array((void **)out, cap, *n + 1, sizeof **out) != 0)
        return -1;
    (*out)[(*n)++] = *p;
    return 0;
}

/* The meta segments of this user's processes in dir and, when nodes is
 * set, in its subdirectories (one per node, made by --gather). */
static int scan_processes(const struct scope_recover_options *o, const char *dir, int nodes,
                          struct process **out, size_t *n, size_t *cap, FILE *report)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    struct dirent *e;
    int rc = 0;
    while (rc == 0 && (e = readdir(d))) {
        struct process p = {0};
        int pid;
        snprintf(p.dir, sizeof(p.dir), "%s", dir);
        char path[8192];
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        struct stat st;
        if (nodes && e->d_name[0] != '.' && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            scan_processes(o, path, 0, out, n, cap, report);
            continue;
        }
        if (!scope_record_parse_meta(e->d_name, &pid, p.stem, sizeof(p.stem)))
            continue;
        p.meta = map_file(path, &p.meta_bytes);
        if (!p.meta || !valid_meta(p.meta, p.meta_bytes, pid)) {
            fprintf(report, "scope recover: %s: %s, skipped\n", path,
                    !p.meta && errno == EPERM ? "not a file of yours"
                                              : "not a scope meta segment");
            if (p.meta)
                munmap(p.meta, p.meta_bytes);
            continue;
        }
        if (o->run && p.meta->root_pid != o->run) {
            munmap(p.meta, p.meta_bytes);
            continue;
        }
        if (alive(p.meta) && !o->force) {
            fprintf(report, "scope recover: pid %d (rank %d of the run of pid %d) is still "
                    "running, skipped (--force takes it)\n", p.meta->pid, p.meta->rank,
                    p.meta->root_pid);
            munmap(p.meta, p.meta_bytes);
            continue;
        }
        rc = add_process(out, n, cap, &p);
        if (rc != 0)
            munmap(p.meta, p.meta_bytes);
    }
    closedir(d);
    return rc;
}

/* Where the segments are: --dir, else where processes leave them. */
static const char *segments_dir(const struct scope_recover_options *o)
{
    return o->dir ? o->dir : SCOPE_SHM_DIR;
}

static int find_processes(const struct scope_recover_options *o, struct process **out,
                          size_t *n, FILE *report)
{
    size_t cap = 0;
    return scan_processes(o, segments_dir(o), 1, out, n, &cap, report);
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

enum { SEGMENT_META = -1, SEGMENT_MAPS = -2 };

/* Where a process's buffer segment (buffer >= 0), meta segment or copy of
 * its maps is in dir. */
static void segment_path(char *out, size_t len, const char *dir, const char *stem, int buffer)
{
    if (buffer == SEGMENT_MAPS)
        snprintf(out, len, "%s/%s-maps", dir, stem);
    else if (buffer < 0)
        snprintf(out, len, "%s/%s-meta", dir, stem);
    else
        snprintf(out, len, "%s/%s-%d", dir, stem, buffer);
}

/* A thread's spill file: beside its segment when gathered there from its
 * node, else where the thread wrote it. */
static void spill_location(char *out, size_t len, const char *dir, const char *recorded)
{
    const char *slash = strrchr(recorded, '/');
    snprintf(out, len, "%s/%s", dir, slash ? slash + 1 : recorded);
    if (!*recorded || access(out, F_OK) != 0)
        snprintf(out, len, "%s", recorded);
}

/* The buffer segments a process left, mapped, and where their records are. */
struct process_segments {
    struct scope_thread_records *threads;
    void **maps;
    size_t *bytes;
    char (*spill)[4096];
    size_t n;
    size_t threads_cap, maps_cap, bytes_cap, spill_cap;
    uint64_t dropped;   /* calls the threads could not record */
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

static int map_segments(const struct process *proc, struct process_segments *p)
{
    *p = (struct process_segments){0};
    for (int buffer = 0;; buffer++) {
        char path[4096];
        segment_path(path, sizeof(path), proc->dir, proc->stem, buffer);
        size_t bytes;
        struct scope_segment_header *h = map_file(path, &bytes);
        if (!h)
            return 0;
        size_t n = p->n + 1;
        if (scope_grow_array((void **)&p->threads, &p->threads_cap, n, sizeof(*p->threads)) != 0 ||
            scope_grow_array((void **)&p->maps, &p->maps_cap, n, sizeof(*p->maps)) != 0 ||
            scope_grow_array((void **)&p->bytes, &p->bytes_cap, n, sizeof(*p->bytes)) != 0 ||
            scope_grow_array((void **)&p->spill, &p->spill_cap, n, sizeof(*p->spill)) != 0) {
            munmap(h, bytes);
            return -1;
        }
        p->maps[p->n] = h;
        p->bytes[p->n] = bytes;
        int ok = bytes >= SCOPE_SEGMENT_HEADER_BYTES && h->pid == proc->meta->pid &&
                 memcmp(h->magic, SCOPE_SEGMENT_MAGIC, 8) == 0;
        size_t slots = ok ? (bytes - SCOPE_SEGMENT_HEADER_BYTES) / sizeof(struct scope_record) : 0;
        char recorded[sizeof(h->spill_path)];
        memcpy(recorded, h->spill_path, sizeof(recorded));
        recorded[sizeof(recorded) - 1] = '\0';
        spill_location(p->spill[p->n], sizeof(p->spill[0]), proc->dir, ok ? recorded : "");
        p->dropped += ok ? h->dropped : 0;
        p->threads[p->n] = ok ? scope_thread_records_of(h, slots, p->spill[p->n])
                              : (struct scope_thread_records){.thread = -1};
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
                                      .clones = g->region_clones ? g->region_clones[r] : NULL,
                                      .unfinished = g->region_unfinished[r],
                                      .has_self = g->self_known, .self_ns = g->region_self[r]};
}

/* Groups one process's events by its regions, on rank 0's clock; the
 * strings stay valid as long as its meta segment is mapped. *dropped: the
 * calls its threads could not record. */
static int group_process(const struct process *proc, struct scope_event_groups *g,
                         struct scope_site_table *sites, size_t *events, uint64_t *dropped,
                         char *err, size_t errlen)
{
    const struct scope_meta_header *m = proc->meta;
    const struct scope_meta_hook *hooks = scope_meta_hooks(m);
    uint32_t *hook_region = malloc(((size_t)m->nhooks + 1) * sizeof(uint32_t));
    const char **hook_symbol = malloc(((size_t)m->nhooks + 1) * sizeof(char *));
    struct process_segments segs = {0};
    int rc = hook_region && hook_symbol && map_segments(proc, &segs) == 0 ? 0 : -1;
    for (int32_t h = 0; rc == 0 && h < m->nhooks; h++) {
        hook_region[h] = hooks[h].region;
        hook_symbol[h] = scope_meta_strings(m) + hooks[h].symbol;
        if (hooks[h].region >= (uint32_t)m->nregions || hooks[h].name >= m->strings_bytes ||
            hooks[h].symbol >= m->strings_bytes)
            rc = -1;
    }
    *g = (struct scope_event_groups){.runs = {.fd = -1}};
    if (rc == 0) {
        struct scope_clock_calibration c = calibration(m);
        struct scope_clock_offsets to_root = {0, m->clock_offset_ns, 0, m->clock_offset_ns};
        struct scope_clock_map map;
        scope_clock_map_init(&map, &c, &to_root);
        struct scope_record_reader in;
        scope_record_reader_init(&in, segs.threads, segs.n, &map);
        in.sites = sites;
        rc = scope_event_groups_build(g, &in, hook_region, (size_t)m->nhooks, (size_t)m->nregions,
                                      SCOPE_MERGE_WINDOW, SCOPE_SELF_CALLS, err, errlen);
        scope_record_reader_close(&in);
    }
    if (rc == 0)
        g->region_clones = scope_region_clones(hook_symbol, hook_region, (size_t)m->nhooks,
                                               (size_t)m->nregions);
    *events = rc == 0 ? g->count : 0;
    *dropped = segs.dropped;
    unmap_segments(&segs);
    free(hook_region);
    free(hook_symbol);
    if (rc != 0 && !*err)
        snprintf(err, errlen, "pid %d: damaged meta segment or out of memory", m->pid);
    return rc;
}

static void remove_segments(const struct process *proc)
{
    char path[4096];
    for (int buffer = 0;; buffer++) {
        segment_path(path, sizeof(path), proc->dir, proc->stem, buffer);
        size_t bytes;
        struct scope_segment_header *h = map_file(path, &bytes);
        if (!h)
            break;
        if (bytes >= sizeof(*h)) {
            char recorded[sizeof(h->spill_path)], spill[4096];
            memcpy(recorded, h->spill_path, sizeof(recorded));
            recorded[sizeof(recorded) - 1] = '\0';
            spill_location(spill, sizeof(spill), proc->dir, recorded);
            unlink(spill);
        }
        munmap(h, bytes);
        unlink(path);
    }
    segment_path(path, sizeof(path), proc->dir, proc->stem, SEGMENT_META);
    unlink(path);
    segment_path(path, sizeof(path), proc->dir, proc->stem, SEGMENT_MAPS);
    unlink(path);
}

static int copy_file(const char *from, const char *to)
{
    int in = open(from, O_RDONLY | O_CLOEXEC);
    int out = in >= 0 ? open(to, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600) : -1;
    char chunk[1 << 16];
    ssize_t got = out >= 0 ? 1 : -1;
    while (got > 0 && (got = read(in, chunk, sizeof(chunk))) > 0)
        if (write(out, chunk, (size_t)got) != got)
            got = -1;
    if (in >= 0)
        close(in);
    if (out >= 0 && close(out) != 0)
        got = -1;
    return got == 0 ? 0 : -1;
}

/* Copies one process's buffer segments, spill files and maps into dir, then its
 * meta segment with the clock calibration closed on this node's clock
 * (last, so that a partial copy is not taken for a process). */
static int gather_process(const struct process *proc, const char *dir, char *err, size_t errlen)
{
    const struct scope_meta_header *m = proc->meta;
    char from[4096], to[4096];
    int rc = 0;
    for (int thread = 0; rc == 0; thread++) {
        segment_path(from, sizeof(from), proc->dir, proc->stem, thread);
        size_t bytes;
        struct scope_segment_header *h = map_file(from, &bytes);
        if (!h)
            break;
        segment_path(to, sizeof(to), dir, proc->stem, thread);
        rc = copy_file(from, to);
        if (rc == 0 && bytes >= sizeof(*h)) {
            char recorded[sizeof(h->spill_path)];
            memcpy(recorded, h->spill_path, sizeof(recorded));
            recorded[sizeof(recorded) - 1] = '\0';
            const char *name = strrchr(recorded, '/');
            snprintf(to, sizeof(to), "%s/%s", dir, name ? name + 1 : recorded);
            if (*recorded && access(recorded, F_OK) == 0)
                rc = copy_file(recorded, to);
        }
        munmap(h, bytes);
    }
    segment_path(from, sizeof(from), proc->dir, proc->stem, SEGMENT_MAPS);
    segment_path(to, sizeof(to), dir, proc->stem, SEGMENT_MAPS);
    if (rc == 0 && access(from, F_OK) == 0)
        rc = copy_file(from, to);
    struct scope_meta_header *copy = rc == 0 ? malloc(proc->meta_bytes) : NULL;
    if (copy) {
        memcpy(copy, m, proc->meta_bytes);
        struct scope_clock_calibration c = calibration(m);
        copy->clock_raw1 = c.raw1;
        copy->clock_ns1 = c.ns1;
        copy->stopped = 1;
        snprintf(to, sizeof(to), "%s/.%s-meta.part", dir, proc->stem);
        int fd = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
        ssize_t put = fd >= 0 ? write(fd, copy, proc->meta_bytes) : -1;
        if (fd < 0 || close(fd) != 0 || put != (ssize_t)proc->meta_bytes)
            rc = -1;
        segment_path(from, sizeof(from), dir, proc->stem, SEGMENT_META);
        if (rc == 0 && rename(to, from) != 0)
            rc = -1;
        free(copy);
    }
    if (rc != 0 || !copy)
        snprintf(err, errlen, "pid %d: cannot copy its records into %s: %s", m->pid, dir,
                 strerror(errno));
    return rc == 0 && copy ? 0 : -1;
}

int scope_recover_gather(const struct scope_recover_options *o, FILE *report, char *err,
                         size_t errlen)
{
    struct process *procs = NULL;
    size_t n = 0, cap = 0;
    char host[256] = "", dir[2048];
    err[0] = '\0';
    gethostname(host, sizeof(host) - 1);
    snprintf(dir, sizeof(dir), "%s/%s", o->gather, host);
    if ((mkdir(o->gather, 0700) != 0 && errno != EEXIST) || (mkdir(dir, 0700) != 0 && errno != EEXIST)) {
        snprintf(err, errlen, "%s: %s", dir, strerror(errno));
        return -1;
    }
    if (scan_processes(o, segments_dir(o), 0, &procs, &n, &cap, report) != 0) {
        snprintf(err, errlen, "%s: %s", segments_dir(o), strerror(errno));
        free(procs);
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        const struct scope_meta_header *m = procs[i].meta;
        if (rc == 0 && !o->list_only)
            rc = gather_process(&procs[i], dir, err, errlen);
        if (rc == 0)
            fprintf(report, "scope recover: pid %d (rank %d of the run of pid %d) -> %s\n",
                    m->pid, m->rank, m->root_pid, dir);
        if (rc == 0 && !o->keep && !o->list_only)
            remove_segments(&procs[i]);
        munmap(procs[i].meta, procs[i].meta_bytes);
    }
    free(procs);
    return rc == 0 ? (int)n : -1;
}

/* The copy of the process's /proc/PID/maps, NUL-terminated and malloc'd;
 * NULL when it left none. */
static char *read_maps(const struct process *proc)
{
    char path[4096];
    size_t bytes;
    segment_path(path, sizeof(path), proc->dir, proc->stem, SEGMENT_MAPS);
    char *mapped = map_file(path, &bytes), *text = mapped ? malloc(bytes + 1) : NULL;
    if (text) {
        memcpy(text, mapped, bytes);
        text[bytes] = '\0';
    }
    if (mapped)
        munmap(mapped, bytes);
    return text;
}

static const struct scope_resolve_api *linked_resolver(char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    return scope_resolve_api();
}

/* Names the process's call sites into the run's; *map as
 * scope_callsites_resolve gives it, NULL when they cannot be named (said
 * on report: the calls are kept without them). */
static void name_callsites(const struct process *proc, const struct scope_site_table *sites,
                           struct scope_callsite_set *run_sites, int32_t **map, FILE *report)
{
    char why[512];
    char *maps = sites->nsites ? read_maps(proc) : NULL;
    *map = NULL;
    if (sites->nsites && !maps)
        fprintf(report, "scope recover: pid %d: its call sites are left out: it left no maps\n",
                proc->meta->pid);
    else if (maps && scope_callsites_resolve(linked_resolver, maps, sites, run_sites, map, why,
                                             sizeof(why)) != 0)
        fprintf(report, "scope recover: pid %d: its call sites are left out: %s\n",
                proc->meta->pid, why);
    free(maps);
}

/* Where the run's file goes: -o, else where the run would have written it,
 * else (that directory is gone or not writable) its name in the current
 * directory, said on report. */
static const char *output_path(const struct scope_recover_options *o,
                               const struct scope_meta_header *root, FILE *report)
{
    if (o->output)
        return o->output;
    const char *slash = strrchr(root->output, '/');
    if (!slash)
        return root->output;
    char dir[sizeof(root->output)];
    snprintf(dir, sizeof(dir), "%.*s", (int)(slash - root->output), root->output);
    if (access(*dir ? dir : "/", W_OK) == 0)
        return root->output;
    fprintf(report, "scope recover: run of pid %d: %s: %s, writing %s here instead\n",
            root->root_pid, *dir ? dir : "/", strerror(errno), slash + 1);
    return slash + 1;
}

static int write_run(const struct scope_recover_options *o, const struct run *run, FILE *report,
                     char *err, size_t errlen)
{
    const struct scope_meta_header *root = run->procs[0].meta;
    const char *path = output_path(o, root, report);
    bool exists = access(path, F_OK) == 0 && !o->force;
    if (exists && !o->list_only) {
        snprintf(err, errlen, "%s exists: give another name with -o, or --force", path);
        return -1;
    }
    fprintf(report, "scope recover: run of pid %d: %zu of %d rank(s) -> %s%s\n", root->root_pid,
            run->n, root->nranks, path, exists ? " (exists: -o another name, or --force)" : "");
    if (o->list_only)
        return 0;
    const struct scope_writer_api *api = scope_writer_api();
    struct scope_run_info info = {
        SCOPE_VERSION, root->hostname, root->platform, root->user, root->cwd, root->timestamp,
        root->command, root->config, root->uses_tsc ? "CLOCK_MONOTONIC via rdtsc" : "CLOCK_MONOTONIC",
        root->nranks, 1, sysconf(_SC_NPROCESSORS_ONLN), root->root_start_ns,
        root->hook_cost_ns};
    scope_writer *w = api->create(path, &info, err, errlen);
    size_t total = 0;
    int rc = w ? 0 : -1;
    struct scope_callsite_set run_sites;
    scope_callsite_set_init(&run_sites);
    scope_demangle_may_load();
    for (size_t i = 0; rc == 0 && i < run->n; i++) {
        struct scope_event_groups g;
        struct scope_site_table sites;
        size_t events = 0;
        uint64_t dropped = 0;
        scope_site_table_init(&sites);
        rc = group_process(&run->procs[i], &g, &sites, &events, &dropped, err, errlen);
        if (rc == 0) {
            const struct scope_meta_header *m = run->procs[i].meta;
            struct scope_rank_info info = {m->rank, m->hostname, m->pid,
                                           m->run_start_ns - m->clock_offset_ns,
                                           m->clock_offset_ns, (int64_t)dropped};
            int32_t *map;
            if (g.anomaly.found) {
                char line[512];
                const struct scope_meta_hook *h = &scope_meta_hooks(m)[g.anomaly.hook];
                scope_event_anomaly_text(&g.anomaly, scope_meta_strings(m) + h->name, line,
                                         sizeof line);
                fprintf(report, "scope recover: pid %d: %s\n", m->pid, line);
            }
            name_callsites(&run->procs[i], &sites, &run_sites, &map, report);
            rc = scope_write_rank(api, w, &info, &g, map, meta_region_info, m);
            if (rc != 0)
                snprintf(err, errlen, "%s",
                         scope_event_groups_error(&g) ? scope_event_groups_error(&g) : api->error(w));
            free(map);
            scope_event_groups_free(&g);
        }
        scope_site_table_free(&sites);
        total += events;
    }
    if (rc == 0 && scope_write_callsites(api, w, &run_sites) != 0) {
        snprintf(err, errlen, "%s", api->error(w));
        rc = -1;
    }
    scope_callsite_set_free(&run_sites);
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
        remove_segments(&run->procs[i]);
    return 0;
}

int scope_recover(const struct scope_recover_options *o, FILE *report, char *err, size_t errlen)
{
    struct process *procs = NULL;
    size_t n = 0;
    err[0] = '\0';
    if (find_processes(o, &procs, &n, report) != 0) {
        snprintf(err, errlen, "%s: %s", segments_dir(o), strerror(errno));
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
    size_t failed = 0;
    for (size_t r = 0; rc == 0 && r < nruns; r++) {
        if (write_run(o, &runs[r], report, err, errlen) == 0) {
            written++;
        } else {   /* said, and the other runs still go */
            fprintf(report, "scope recover: run of pid %d: %s\n",
                    runs[r].procs[0].meta->root_pid, err);
            failed++;
        }
    }
    if (rc == 0 && failed) {
        snprintf(err, errlen, "%zu of %zu runs not recovered (see above), %d written", failed,
                 nruns, written);
        rc = -1;
    }
    free(runs);
    for (size_t i = 0; i < n; i++)
        munmap(procs[i].meta, procs[i].meta_bytes);
    free(procs);
    return rc == 0 ? written : -1;
}
