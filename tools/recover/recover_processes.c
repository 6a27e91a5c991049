/* recover_processes.c: finding the processes of unfinished runs and their
 * files (recover_processes.h). */
#include "recover_processes.h"

#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grow_array.h"
#include "process_alive.h"
#include "record_files.h"
#include "segment.h"

/* Maps a file of this user (not a symlink, not someone else's) read-only. */
void *recover_map_file(const char *path, size_t *bytes)
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

static int add_process(struct recover_process **out, size_t *n, size_t *cap, const struct recover_process *p)
{
    if (scope_grow_array((void **)out, cap, *n + 1, sizeof **out) != 0)
        return -1;
    (*out)[(*n)++] = *p;
    return 0;
}

/* The meta segments of this user's processes in dir and, when nodes is
 * set, in its subdirectories (one per node, made by --gather). */
int recover_scan_processes(const struct scope_recover_options *o, const char *dir, int nodes,
                          struct recover_process **out, size_t *n, size_t *cap, FILE *report)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    struct dirent *e;
    int rc = 0;
    while (rc == 0 && (e = readdir(d))) {
        struct recover_process p = {0};
        int pid;
        snprintf(p.dir, sizeof(p.dir), "%s", dir);
        char path[8192];
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        struct stat st;
        if (nodes && e->d_name[0] != '.' && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            recover_scan_processes(o, path, 0, out, n, cap, report);
            continue;
        }
        if (!scope_record_parse_meta(e->d_name, &pid, p.stem, sizeof(p.stem)))
            continue;
        p.meta = recover_map_file(path, &p.meta_bytes);
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
const char *recover_segments_dir(const struct scope_recover_options *o)
{
    return o->dir ? o->dir : SCOPE_SHM_DIR;
}

int recover_find_processes(const struct scope_recover_options *o, struct recover_process **out,
                          size_t *n, FILE *report)
{
    size_t cap = 0;
    return recover_scan_processes(o, recover_segments_dir(o), 1, out, n, &cap, report);
}

int recover_by_run_then_rank(const void *a, const void *b)
{
    const struct scope_meta_header *x = ((const struct recover_process *)a)->meta;
    const struct scope_meta_header *y = ((const struct recover_process *)b)->meta;
    if (x->root_pid != y->root_pid)
        return x->root_pid < y->root_pid ? -1 : 1;
    if (x->root_start_ns != y->root_start_ns)
        return x->root_start_ns < y->root_start_ns ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

/* The raw-to-ns calibration of a process: closed when it stopped cleanly,
 * else closed now (the TSC and CLOCK_MONOTONIC kept running). */
struct scope_clock_calibration recover_calibration(const struct scope_meta_header *m)
{
    struct scope_clock_calibration c = {m->clock_raw0, m->clock_raw1, m->clock_ns0,
                                        m->clock_ns1, m->uses_tsc};
    if (!m->stopped && m->uses_tsc) {
        c.raw1 = __builtin_ia32_rdtsc();
        c.ns1 = scope_monotonic_ns();
    }
    return c;
}

/* Where a process's buffer segment (buffer >= 0), meta segment or copy of
 * its maps is in dir. */
void recover_segment_path(char *out, size_t len, const char *dir, const char *stem, int buffer)
{
    if (buffer == SEGMENT_MAPS)
        snprintf(out, len, "%s/%s-maps", dir, stem);
    else if (buffer < 0)
        snprintf(out, len, "%s/%s-meta", dir, stem);
    else
        snprintf(out, len, "%s/%s-%d", dir, stem, buffer);
}

void recover_peer_table_path(char *out, size_t len, const char *dir, const char *stem, int table)
{
    snprintf(out, len, "%s/%s-m%d", dir, stem, table);
}

/* A thread's spill file: beside its segment when gathered there from its
 * node, else where the thread wrote it. */
void recover_spill_location(char *out, size_t len, const char *dir, const char *recorded)
{
    const char *slash = strrchr(recorded, '/');
    snprintf(out, len, "%s/%s", dir, slash ? slash + 1 : recorded);
    if (!*recorded || access(out, F_OK) != 0)
        snprintf(out, len, "%s", recorded);
}

void recover_remove_segments(const struct recover_process *proc)
{
    char path[4096];
    for (int buffer = 0;; buffer++) {
        recover_segment_path(path, sizeof(path), proc->dir, proc->stem, buffer);
        size_t bytes;
        struct scope_segment_header *h = recover_map_file(path, &bytes);
        if (!h)
            break;
        if (bytes >= sizeof(*h)) {
            char recorded[sizeof(h->spill_path)], spill[4096];
            memcpy(recorded, h->spill_path, sizeof(recorded));
            recorded[sizeof(recorded) - 1] = '\0';
            recover_spill_location(spill, sizeof(spill), proc->dir, recorded);
            unlink(spill);
        }
        munmap(h, bytes);
        unlink(path);
        snprintf(path, sizeof(path), "%s/%s-p%d", proc->dir, proc->stem, buffer);
        unlink(path);   /* its profile table, in profile mode (not read back) */
    }
    for (int64_t table = 0; table < proc->meta->peer_tables; table++) {
        recover_peer_table_path(path, sizeof(path), proc->dir, proc->stem, (int)table);
        unlink(path);
        size_t at = strlen(path);   /* and its copy, when killed while making it */
        snprintf(path + at, sizeof(path) - at, "-next");
        unlink(path);
    }
    recover_segment_path(path, sizeof(path), proc->dir, proc->stem, SEGMENT_META);
    unlink(path);
    recover_segment_path(path, sizeof(path), proc->dir, proc->stem, SEGMENT_MAPS);
    unlink(path);
}
