/* recover_gather.c: `scope recover --gather DIR` (recover.h): a node's
 * records copied into DIR/HOSTNAME, for one `scope recover --dir DIR` to
 * write a job that ran across nodes. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "recover.h"
#include "recover_processes.h"
#include "segment.h"

static int all_zero(const char *p, size_t n)
{
    return n == 0 || (p[0] == 0 && memcmp(p, p + 1, n - 1) == 0);
}

/* A copy whose stretches of zeros stay holes: a profile table is 40 MB of
 * address space, mostly never touched. */
static int copy_file(const char *from, const char *to)
{
    int in = open(from, O_RDONLY | O_CLOEXEC);
    int out = in >= 0 ? open(to, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600) : -1;
    char chunk[1 << 16];
    ssize_t got = out >= 0 ? 1 : -1;
    off_t size = 0;
    while (got > 0 && (got = read(in, chunk, sizeof(chunk))) > 0) {
        size += got;
        if (all_zero(chunk, (size_t)got) ? lseek(out, got, SEEK_CUR) < 0
                                          : write(out, chunk, (size_t)got) != got)
            got = -1;
    }
    if (got == 0 && ftruncate(out, size) != 0)
        got = -1;
    if (in >= 0)
        close(in);
    if (out >= 0 && close(out) != 0)
        got = -1;
    return got == 0 ? 0 : -1;
}

/* Copies one process's buffer segments (and profile tables), peer-totals
 * tables, spill files and maps into dir, then its
 * meta segment with the clock calibration closed on this node's clock
 * (last, so that a partial copy is not taken for a process). */
static int gather_process(const struct recover_process *proc, const char *dir, char *err, size_t errlen)
{
    const struct scope_meta_header *m = proc->meta;
    char from[4096], to[4096];
    int rc = 0;
    for (int thread = 0; rc == 0; thread++) {
        recover_segment_path(from, sizeof(from), proc->dir, proc->stem, thread);
        size_t bytes;
        struct scope_segment_header *h = recover_map_file(from, &bytes);
        if (!h)
            break;
        recover_segment_path(to, sizeof(to), dir, proc->stem, thread);
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
        snprintf(from, sizeof(from), "%s/%s-p%d", proc->dir, proc->stem, thread);
        snprintf(to, sizeof(to), "%s/%s-p%d", dir, proc->stem, thread);
        if (rc == 0 && access(from, F_OK) == 0)   /* its profile table, in profile mode */
            rc = copy_file(from, to);
    }
    for (int64_t table = 0; rc == 0 && table < m->peer_tables; table++) {
        recover_peer_table_path(from, sizeof(from), proc->dir, proc->stem, (int)table);
        recover_peer_table_path(to, sizeof(to), dir, proc->stem, (int)table);
        if (access(from, F_OK) == 0)   /* its peer totals, when it made MPI calls */
            rc = copy_file(from, to);
    }
    recover_segment_path(from, sizeof(from), proc->dir, proc->stem, SEGMENT_MAPS);
    recover_segment_path(to, sizeof(to), dir, proc->stem, SEGMENT_MAPS);
    if (rc == 0 && access(from, F_OK) == 0)
        rc = copy_file(from, to);
    struct scope_meta_header *copy = rc == 0 ? malloc(proc->meta_bytes) : NULL;
    if (copy) {
        memcpy(copy, m, proc->meta_bytes);
        struct scope_clock_calibration c = recover_calibration(m);
        copy->clock_raw1 = c.raw1;
        copy->clock_ns1 = c.ns1;
        copy->stopped = 1;
        snprintf(to, sizeof(to), "%s/.%s-meta.part", dir, proc->stem);
        int fd = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
        ssize_t put = fd >= 0 ? write(fd, copy, proc->meta_bytes) : -1;
        if (fd < 0 || close(fd) != 0 || put != (ssize_t)proc->meta_bytes)
            rc = -1;
        recover_segment_path(from, sizeof(from), dir, proc->stem, SEGMENT_META);
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
    struct recover_process *procs = NULL;
    size_t n = 0, cap = 0;
    char host[256] = "", dir[2048];
    err[0] = '\0';
    gethostname(host, sizeof(host) - 1);
    snprintf(dir, sizeof(dir), "%s/%s", o->gather, host);
    if ((mkdir(o->gather, 0700) != 0 && errno != EEXIST) || (mkdir(dir, 0700) != 0 && errno != EEXIST)) {
        snprintf(err, errlen, "%s: %s", dir, strerror(errno));
        return -1;
    }
    if (recover_scan_processes(o, recover_segments_dir(o), 0, &procs, &n, &cap, report) != 0) {
        snprintf(err, errlen, "%s: %s", recover_segments_dir(o), strerror(errno));
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
            recover_remove_segments(&procs[i]);
        munmap(procs[i].meta, procs[i].meta_bytes);
    }
    free(procs);
    return rc == 0 ? (int)n : -1;
}
