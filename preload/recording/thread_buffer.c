/* thread_buffer.c: sets up a thread's buffer and shadow stack on its first
 * hooked call (and tells the hot path where its stacks are), spills full
 * buffers to disk, and tells where they all are. */
#include "thread_buffer.h"
#include "fault_stack.h"
#include "process_meta.h"
#include "record_files.h"
#include "segment.h"
#include "thread_state.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define SHADOW_FRAMES (1u << 20)   /* reserved lazily: 32 MiB of address space */

struct scope_thread_buffer {
    struct scope_thread_buffer *next;
    struct scope_segment_header *header;
    struct scope_record *records;
    size_t map_bytes;
    int spill_fd;
    void *spill_map;           /* the window of the spill file in use, or NULL */
    size_t spill_windows;      /* windows of the spill file used so far */
    char shm_name[96];
};

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct scope_thread_buffer *registry;
static int thread_count;
static size_t records_per_buffer = (8u << 20) / sizeof(struct scope_record);
static uint64_t clock_base;

void scope_buffers_configure(size_t buffer_bytes, uint64_t base)
{
    size_t n = buffer_bytes / sizeof(struct scope_record);
    records_per_buffer = n < 64 ? 64 : n;
    clock_base = base;
}

uint64_t scope_buffers_dropped(void)
{
    uint64_t dropped = 0;
    pthread_mutex_lock(&registry_lock);
    for (struct scope_thread_buffer *b = registry; b; b = b->next)
        dropped += b->header->dropped;
    pthread_mutex_unlock(&registry_lock);
    return dropped;
}

/* A first write to a shared page costs microseconds: pay it for the whole
 * buffer now rather than once every 256 calls in the hot path. */
static void prefault(void *map, size_t bytes)
{
#ifdef MADV_POPULATE_WRITE
    if (madvise(map, bytes, MADV_POPULATE_WRITE) == 0)
        return;
#endif
    long page = sysconf(_SC_PAGESIZE);
    for (size_t off = 0; off < bytes; off += (size_t)page)
        ((volatile char *)map)[off] = 0;
}

static struct scope_thread_buffer *buffer_create(int number)
{
    struct scope_thread_buffer *b = calloc(1, sizeof(*b));
    if (!b)
        return NULL;
    b->spill_fd = -1;
    scope_record_thread_shm_name(b->shm_name, sizeof(b->shm_name), number);
    b->map_bytes = SCOPE_SEGMENT_HEADER_BYTES + records_per_buffer * sizeof(struct scope_record);
    void *map = scope_record_shm_create(b->shm_name, b->map_bytes);
    if (!map)
        goto fail;
    b->header = map;
    b->records = (struct scope_record *)((char *)map + SCOPE_SEGMENT_HEADER_BYTES);
    prefault(map, b->map_bytes);
    memcpy(b->header->magic, SCOPE_SEGMENT_MAGIC, 8);
    b->header->pid = (int32_t)getpid();
    b->header->thread_number = number;
    b->header->tid = (int32_t)syscall(SYS_gettid);
    b->header->capacity = records_per_buffer;
    b->header->clock_base = clock_base;
    scope_record_spill_path(b->header->spill_path, sizeof(b->header->spill_path), number);
    return b;
fail:
    free(b);
    return NULL;
}

static int stack_bounds(uintptr_t *low, uintptr_t *high)
{
    pthread_attr_t attr;
    void *addr;
    size_t size;
    if (pthread_getattr_np(pthread_self(), &attr) != 0)
        return -1;
    int rc = pthread_attr_getstack(&attr, &addr, &size);
    pthread_attr_destroy(&attr);
    if (rc != 0)
        return -1;
    *low = (uintptr_t)addr;
    *high = (uintptr_t)addr + size;
    return 0;
}

void scope_read_signal_stack(void *out)
{
    struct scope_stack_range *r = out;
    stack_t ss;
    r->low = r->high = 0;
    if (sigaltstack(NULL, &ss) == 0 && !(ss.ss_flags & SS_DISABLE)) {
        r->low = (uintptr_t)ss.ss_sp;
        r->high = r->low + ss.ss_size;
    }
}

void scope_thread_activate(void *arg)
{
    struct scope_thread *t = arg;
    t->busy++;
    t->status = SCOPE_THREAD_OFF;
    size_t shadow_bytes = SHADOW_FRAMES * sizeof(struct scope_shadow_frame);
    void *shadow = mmap(NULL, shadow_bytes, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (shadow == MAP_FAILED)
        goto out;
    if (stack_bounds(&t->stack_low, &t->stack_high) != 0) {
        t->stack_low = 0;
        t->stack_high = UINTPTR_MAX;
    }
    pthread_mutex_lock(&registry_lock);
    struct scope_thread_buffer *b = buffer_create(thread_count);
    if (b) {
        thread_count++;
        b->next = registry;
        registry = b;
    }
    pthread_mutex_unlock(&registry_lock);
    if (!b) {
        munmap(shadow, shadow_bytes);
        fprintf(stderr, "scope: cannot create a shared-memory buffer (%s): thread %ld not profiled\n",
                strerror(errno), (long)syscall(SYS_gettid));
        goto out;
    }
    t->buffer = b;
    t->cur = b->records;
    t->end = b->records + b->header->capacity;
    t->sp = t->sp_base = shadow;
    t->sp_limit = t->sp_base + SHADOW_FRAMES;
    t->status = SCOPE_THREAD_ACTIVE;
    scope_fault_stack_for_this_thread();
out:
    t->busy--;
}

/* Bytes of one spill window: the buffer's size rounded up to whole pages,
 * since a file mapping starts at a page boundary. */
static size_t spill_window_bytes(void)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t bytes = records_per_buffer * sizeof(struct scope_record);
    return (bytes + page - 1) / page * page;
}

/* Adds the window at `offset` to the spill file, its disk blocks reserved
 * now: a full disk is an error here rather than a SIGBUS on a later store. */
static int grow_spill_file(int fd, off_t offset, size_t window)
{
    if (fallocate(fd, 0, offset, (off_t)window) == 0)
        return 0;
    if (errno != EOPNOTSUPP)
        return -1;
    return ftruncate(fd, offset + (off_t)window);
}

/* The buffer window is full. The first time, that is the shared-memory
 * buffer, which stays as it is (full, read at the end or by `scope
 * recover`); from then on the window is a shared mapping of the spill file,
 * and moving on maps its next stretch over the previous one: no copy and
 * no clearing on this thread (the file's new stretch reads as zeros, the
 * unused slots), and what was recorded is in the page cache, which outlives
 * a crash. Memory stays bounded: the written-back pages are the kernel's
 * to reclaim. If the file cannot grow or be mapped, recording stops on this
 * thread (the records so far are kept, later calls are counted as dropped)
 * and scope says so once. */
void scope_thread_flush(void *arg)
{
    struct scope_thread *t = arg;
    struct scope_thread_buffer *b = t->buffer;
    size_t window = spill_window_bytes();
    if (t->status != SCOPE_THREAD_ACTIVE)
        return;   /* stopped by an earlier failure: said once already */
    t->busy++;
    char why[1200] = "";
    if (b->spill_fd < 0)
        b->spill_fd = scope_record_spill_create(b->header->spill_path, why, sizeof(why));
    off_t offset = (off_t)(b->spill_windows * window);
    void *at = b->spill_map;
    void *map = MAP_FAILED;
    if (b->spill_fd >= 0 && grow_spill_file(b->spill_fd, offset, window) == 0)
        map = mmap(at, window, PROT_READ | PROT_WRITE, MAP_SHARED | (at ? MAP_FIXED : 0),
                   b->spill_fd, offset);
    if (map == MAP_FAILED) {
        if (!*why)
            snprintf(why, sizeof(why), "cannot spill to %s: %s", b->header->spill_path,
                     strerror(errno));
        fprintf(stderr, "scope: %s: recording stops on this thread (its first %zu records "
                "are kept, later calls are counted as dropped_events)\n", why,
                (size_t)b->header->capacity + (size_t)b->header->spilled);
        t->status = SCOPE_THREAD_FULL;
        /* cur may lie past the end when a signal handler raced for the last slot */
        t->cur = t->end = t->cur < t->end ? t->cur : t->end;
        if (at)
            munmap(at, window);   /* full, and its records are in the file */
        b->spill_map = NULL;
    } else {
        prefault(map, window);
        b->spill_map = map;
        b->spill_windows++;
        /* a crash leaves the whole window for `scope recover`: its unused
         * slots are zeros, skipped */
        b->header->spilled = b->spill_windows * (window / sizeof(struct scope_record));
        t->cur = map;
        t->end = (struct scope_record *)((char *)map + window);
    }
    t->busy--;
}

/* Counted in the segment, so that `scope recover` sees it too. */
void scope_thread_count_dropped(void *arg)
{
    struct scope_thread *t = arg;
    if (t->buffer)
        t->buffer->header->dropped++;
}

int scope_buffers_threads(struct scope_thread_records **threads, size_t *count)
{
    pthread_mutex_lock(&registry_lock);
    size_t n = 0;
    for (struct scope_thread_buffer *b = registry; b; b = b->next)
        n++;
    struct scope_thread_records *t = malloc((n + 1) * sizeof(*t));
    n = 0;
    for (struct scope_thread_buffer *b = registry; t && b; b = b->next) {
        t[n++] = (struct scope_thread_records){
            .spill_path = b->header->spill_path, .spilled = b->header->spilled,
            .records = b->records,
            .capacity = b->header->capacity, .clock_base = clock_base,
            .thread = b->header->thread_number};
    }
    pthread_mutex_unlock(&registry_lock);
    *threads = t;
    *count = n;
    return t ? 0 : -1;
}

void scope_buffers_remove(void)
{
    pthread_mutex_lock(&registry_lock);
    for (struct scope_thread_buffer *b = registry; b; b = b->next) {
        if (b->spill_map) {
            munmap(b->spill_map, spill_window_bytes());
            b->spill_map = NULL;
        }
        if (b->spill_fd >= 0) {
            close(b->spill_fd);
            b->spill_fd = -1;
        }
        unlink(b->header->spill_path);
        shm_unlink(b->shm_name);
    }
    pthread_mutex_unlock(&registry_lock);
    scope_meta_remove();
}

void scope_buffers_after_fork_child(void)
{
    scope_recording = 0;
    scope_tls.status = SCOPE_THREAD_OFF;
    scope_tls.cur = scope_tls.end = NULL;
    registry = NULL;
    thread_count = 0;
    pthread_mutex_init(&registry_lock, NULL);
}
