/* process_meta.c: writes and updates this process's meta segment. */
#include "process_meta.h"
#include "grow_array.h"
#include "log.h"
#include "output_path.h"
#include "record_files.h"
#include "run_info.h"
#include "runtime.h"
#include "thread_state.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAPS_FIRST_BYTES ((size_t)1 << 16)   /* /proc/self/maps is read into this much first */

static struct scope_meta_header *meta;
static size_t meta_bytes;
static char meta_name[64];

static size_t strings_size(void)
{
    size_t n = 0;
    for (size_t h = 0; h < scope_rt.nhooks; h++)
        n += strlen(scope_rt.hooks[h].name) + strlen(scope_rt.hooks[h].symbol) +
             strlen(scope_rt.hooks[h].module) + 3;
    return n;
}

static uint32_t put(char *strings, size_t *at, const char *s)
{
    uint32_t off = (uint32_t)*at;
    size_t len = strlen(s) + 1;
    memcpy(strings + *at, s, len);
    *at += len;
    return off;
}

/* Copies as much of src as fits, always terminated. */
static void set_text(char *dst, size_t size, const char *src)
{
    size_t n = strnlen(src, size - 1);
    memcpy(dst, src, n);
    dst[n] = '\0';
}

static void fill_header(struct scope_meta_header *m)
{
    memcpy(m->magic, SCOPE_META_MAGIC, 8);
    m->pid = (int32_t)scope_facts.pid;
    m->nranks = 1;
    m->nnodes = 1;
    m->root_pid = m->pid;
    m->root_start_ns = m->run_start_ns = scope_rt.run_start_ns;
    m->uses_tsc = scope_rt.clock.uses_tsc;
    m->clock_raw0 = scope_rt.clock.raw0;
    m->clock_ns0 = scope_rt.clock.ns0;
    m->hook_cost_ns = scope_rt.hook_cost_ns;
    m->min_duration_ns = scope_rt.config.profile_mode ? 0 : scope_rt.config.min_duration_ns;
    m->trace_limit_bytes = scope_rt.config.profile_mode ? 0 : scope_rt.config.trace_limit_bytes;
    m->nhooks = (int32_t)scope_rt.nhooks;
    m->nregions = (int32_t)scope_rt.nregions;
    char out[PATH_MAX];
    scope_expand_output_path(scope_rt.config.output_file, (pid_t)scope_facts.pid,
                             scope_rt.start_wall, out, sizeof(out));
    char absolute[2 * PATH_MAX];
    snprintf(absolute, sizeof(absolute), "%s%s%s", out[0] == '/' ? "" : scope_facts.cwd,
             out[0] == '/' ? "" : "/", out);
    set_text(m->output, sizeof(m->output), absolute);
    set_text(m->hostname, sizeof(m->hostname), scope_facts.hostname);
    set_text(m->command, sizeof(m->command), scope_facts.command);
    set_text(m->config, sizeof(m->config), scope_rt.config.path ? scope_rt.config.path : "");
    set_text(m->cwd, sizeof(m->cwd), scope_facts.cwd);
    set_text(m->timestamp, sizeof(m->timestamp), scope_facts.timestamp);
    set_text(m->platform, sizeof(m->platform), scope_facts.platform);
    set_text(m->user, sizeof(m->user), scope_facts.user);
}

void scope_meta_publish(void)
{
    size_t strings = strings_size(), old_bytes = meta ? meta_bytes : 0;
    struct scope_meta_header old = {0};
    if (meta) {   /* keep the rank, set since: the segment is truncated below */
        old = *meta;
        munmap(meta, old_bytes);
        meta = NULL;
    }
    meta_bytes = sizeof(*meta) + scope_rt.nhooks * sizeof(struct scope_meta_hook) + strings;
    if (old_bytes)   /* our own, replaced: never truncate a segment that exists */
        shm_unlink(meta_name);
    scope_record_shm_name(meta_name, sizeof(meta_name), "meta");
    void *map = scope_record_shm_create(meta_name, meta_bytes);
    if (!map) {
        scope_log("cannot create %s%s: %s: a killed run could not be recovered", SCOPE_SHM_DIR,
                  meta_name, strerror(errno));
        return;
    }
    meta = map;
    fill_header(meta);
    if (old_bytes) {   /* published again after a dlopen hooked more functions */
        meta->rank = old.rank;
        meta->nranks = old.nranks;
        meta->node = old.node;
        meta->nnodes = old.nnodes;
        meta->root_pid = old.root_pid;
        meta->root_start_ns = old.root_start_ns;
        meta->clock_offset_ns = old.clock_offset_ns;
        meta->trace_limit_passed_raw = old.trace_limit_passed_raw;
        meta->peer_tables = old.peer_tables;
    }
    meta->strings_bytes = strings;
    struct scope_meta_hook *hooks = (struct scope_meta_hook *)(meta + 1);
    char *area = (char *)(hooks + scope_rt.nhooks);
    size_t at = 0;
    for (size_t h = 0; h < scope_rt.nhooks; h++) {
        const struct scope_hook *k = &scope_rt.hooks[h];
        hooks[h] = (struct scope_meta_hook){k->region, put(area, &at, k->name),
                                            put(area, &at, k->symbol), put(area, &at, k->module),
                                            k->value};
    }
    scope_meta_save_maps();
}

static void maps_path(char *out, size_t len, const char *suffix)
{
    snprintf(out, len, SCOPE_SHM_DIR "/%s-maps%s", scope_record_stem(), suffix);
}

static int any_callsites(void)
{
    for (size_t h = 0; h < scope_rt.nhooks; h++)
        if (scope_hook_callsite_depth[h] & SCOPE_HOOK_DEPTH_MASK)
            return 1;
    return 0;
}

/* The whole of /proc/self/maps, malloc'd; NULL when unreadable. */
static char *read_maps(size_t *len)
{
    int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    char *text = NULL;
    size_t cap = 0;
    ssize_t got = 1;
    for (*len = 0; fd >= 0 && got > 0; *len += (size_t)got) {
        if (scope_grow_array((void **)&text, &cap,
                             *len < MAPS_FIRST_BYTES ? MAPS_FIRST_BYTES : *len + 1, 1) != 0)
            break;
        got = read(fd, text + *len, cap - *len);
        if (got < 0) {
            free(text);
            text = NULL;
        }
    }
    if (fd >= 0)
        close(fd);
    return text;
}

void scope_meta_save_maps(void)
{
    if (!meta || !any_callsites())
        return;
    size_t len;
    char *text = read_maps(&len), part[128], path[128];
    maps_path(part, sizeof(part), ".part");
    maps_path(path, sizeof(path), "");
    int fd = text ? open(part, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600) : -1;
    int ok = fd >= 0 && write(fd, text, len) == (ssize_t)len;
    if (fd >= 0 && (close(fd) != 0 || !ok || rename(part, path) != 0))
        unlink(part);
    free(text);
}

void scope_meta_set_rank(const struct scope_meta_rank *r)
{
    if (!meta)
        return;
    meta->rank = r->rank;
    meta->nranks = r->nranks;
    meta->node = r->node;
    meta->nnodes = r->nnodes;
    meta->root_pid = r->root_pid;
    meta->root_start_ns = r->root_start_ns;
    meta->clock_offset_ns = r->clock_offset_ns;
}

int scope_meta_run_pid(void)
{
    return meta ? meta->root_pid : (int)scope_facts.pid;
}

void scope_meta_set_trace_limit_passed(uint64_t raw)
{
    if (meta)
        meta->trace_limit_passed_raw = raw;
}

void scope_meta_set_peer_tables(int tables)
{
    if (meta)
        meta->peer_tables = tables;
}

void scope_meta_set_stopped(uint64_t raw, int64_t ns)
{
    if (!meta)
        return;
    meta->clock_raw1 = raw;
    meta->clock_ns1 = ns;
    meta->stopped = 1;
}

void scope_meta_remove(void)
{
    if (!meta)
        return;
    munmap(meta, meta_bytes);
    meta = NULL;
    shm_unlink(meta_name);
    char path[128];
    maps_path(path, sizeof(path), "");
    unlink(path);
}

void scope_meta_forget(void)
{
    if (meta)
        munmap(meta, meta_bytes);
    meta = NULL;
}
