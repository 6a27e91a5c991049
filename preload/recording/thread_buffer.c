/* thread_buffer.c: gives a thread a buffer and shadow stack on its first
 * hooked call (and tells the hot path where its stacks are), takes them
 * back when it ends for the next thread, makes buffers ready a stretch at
 * a time, moves a thread on to its buffer's next slice when one is full
 * (spill_writer.c writes the full ones out), counting its records then for
 * trace_limit (fold.h), and tells where they all are. */
#include "thread_buffer.h"
#include "fault_stack.h"
#include "fold.h"
#include "peer_totals.h"
#include "log.h"
#include "process_meta.h"
#include "profile_table.h"
#include "record_files.h"
#include "segment.h"
#include "spill_writer.h"
#include "thread_state.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define SHADOW_FRAMES (1u << 20)   /* reserved lazily: 104 MiB of address space */
#define SHADOW_BYTES (SHADOW_FRAMES * sizeof(struct scope_shadow_frame))
/* Records made ready at a time: the first stretch of a buffer is small (a
 * short thread touches little), the later ones up to 1 MiB. */
#define READY_FIRST ((size_t)4096)
#define READY_MOST ((size_t)65536)

/* A buffer and what else a thread records with. It serves one thread at a
 * time; when that thread ends, it waits in the free list for the next. */
struct scope_thread_buffer {
    struct scope_thread_buffer *next;        /* every buffer ever made */
    struct scope_thread_buffer *next_free;
    struct scope_segment_header *header;
    struct scope_record *records;
    struct scope_spill_ring ring;
    struct scope_shadow_frame *shadow;
    struct scope_profile_table *profile;     /* profile mode, or folding (fold.h) */
    int number;
    uint64_t counted;                        /* its records counted for trace_limit */
    /* Where the thread that ended left off, for the next one: */
    struct scope_record *cur, *end;
    struct scope_stack_table *stacks;
    void *fault_stack;
    char shm_name[96];
};

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct scope_thread_buffer *registry, *free_buffers;
static int thread_count, buffer_count;
static size_t records_per_buffer = (8u << 20) / sizeof(struct scope_record);
/* The smallest buffer: slices of 32 records, room for the longest
 * reservation (a stack definition of 9 records). */
#define RECORDS_LEAST ((size_t)32 * SCOPE_RING_SLICES)
static uint64_t clock_base;
static pthread_key_t thread_end_key;
static int thread_end_watched;

void scope_buffers_configure(size_t buffer_bytes, uint64_t base, void (*at_thread_end)(void *))
{
    size_t n = buffer_bytes / sizeof(struct scope_record);
    n -= n % SCOPE_RING_SLICES;
    records_per_buffer = n < RECORDS_LEAST ? RECORDS_LEAST : n;
    clock_base = base;
    thread_end_watched = pthread_key_create(&thread_end_key, at_thread_end) == 0;
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

/* A first write to a shared page costs microseconds: pay it for a whole
 * stretch of the buffer at once rather than once every 256 calls in the
 * hot path. */
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

/* Makes the next stretch of b's segment ready (its first pass only: after
 * it, every slot is). */
static void make_ready(struct scope_thread_buffer *b)
{
    size_t ready = b->header->ready, capacity = b->header->capacity;
    size_t step = ready < READY_FIRST ? READY_FIRST : ready > READY_MOST ? READY_MOST : ready;
    step = step < capacity - ready ? step : capacity - ready;
    prefault(b->records + ready, step * sizeof(struct scope_record));
    b->header->ready = ready + step;
}

/* Where a thread records in b's current slice from its start: *cur, up
 * to *end, the slice's end or, in the buffer's first pass, the end of its
 * stretch made ready. */
static void enter_slice(struct scope_thread_buffer *b, struct scope_record **cur,
                        struct scope_record **end)
{
    size_t slot = scope_spill_ring_slot(&b->ring, b->ring.current);
    if (b->header->ready <= slot)
        make_ready(b);
    size_t stop = slot + b->ring.slice;
    *cur = b->records + slot;
    *end = b->records + (b->header->ready < stop ? b->header->ready : stop);
}

static struct scope_thread_buffer *buffer_create(int number, int thread)
{
    struct scope_thread_buffer *b = calloc(1, sizeof(*b));
    if (!b)
        return NULL;
    b->shadow = mmap(NULL, SHADOW_BYTES, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (b->shadow == MAP_FAILED)
        goto fail;
    scope_record_buffer_shm_name(b->shm_name, sizeof(b->shm_name), number);
    size_t map_bytes = SCOPE_SEGMENT_HEADER_BYTES + records_per_buffer * sizeof(struct scope_record);
    void *map = scope_record_shm_create(b->shm_name, map_bytes);
    if (!map)
        goto fail_shadow;
    b->header = map;
    b->records = (struct scope_record *)((char *)map + SCOPE_SEGMENT_HEADER_BYTES);
    prefault(map, SCOPE_SEGMENT_HEADER_BYTES);
    memcpy(b->header->magic, SCOPE_SEGMENT_MAGIC, 8);
    b->header->pid = (int32_t)getpid();
    b->header->thread_number = thread;
    b->header->tid = (int32_t)syscall(SYS_gettid);
    b->header->capacity = records_per_buffer;
    b->header->clock_base = clock_base;
    scope_record_spill_path(b->header->spill_path, sizeof(b->header->spill_path), number);
    scope_spill_ring_init(&b->ring, b->header, b->records);
    enter_slice(b, &b->cur, &b->end);
    b->number = number;
    if (scope_profile_tables && !(b->profile = scope_profile_table_create(number))) {
        shm_unlink(b->shm_name);
        munmap(map, map_bytes);
        goto fail_shadow;
    }
    return b;
fail_shadow:
    munmap(b->shadow, SHADOW_BYTES);
fail:
    free(b);
    return NULL;
}

/* A buffer for the calling thread, which gets its number in *thread: one
 * a finished thread left, or a new one. */
static struct scope_thread_buffer *buffer_take(int *thread)
{
    pthread_mutex_lock(&registry_lock);
    *thread = thread_count++;
    struct scope_thread_buffer *b = free_buffers;
    if (b) {
        free_buffers = b->next_free;
    } else if ((b = buffer_create(buffer_count, *thread))) {
        buffer_count++;
        b->next = registry;
        registry = b;
    }
    pthread_mutex_unlock(&registry_lock);
    return b;
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

/* A buffer that served another thread: this one's records begin with a
 * thread-start record. */
static void mark_thread_start(struct scope_thread *t, int thread)
{
    if (t->cur >= t->end)
        scope_thread_flush(t);
    if (t->cur < t->end)
        scope_threadstart_encode(t->cur++, (uint32_t)thread, (uint32_t)syscall(SYS_gettid));
}

void scope_thread_activate(void *arg)
{
    struct scope_thread *t = arg;
    /* calls open across a fork: the child's returns go through them */
    struct scope_shadow_frame *carried = t->sp_base, *carried_sp = t->sp;
    t->busy++;
    t->status = SCOPE_THREAD_OFF;
    int thread;
    struct scope_thread_buffer *b = buffer_take(&thread);
    if (!b) {
        scope_log("cannot create a shared-memory buffer (%s): thread %ld not profiled",
                  strerror(errno), (long)syscall(SYS_gettid));
        goto out;
    }
    if (stack_bounds(&t->stack_low, &t->stack_high) != 0) {
        t->stack_low = 0;
        t->stack_high = UINTPTR_MAX;
    }
    if (carried) {
        munmap(b->shadow, SHADOW_BYTES);
        b->shadow = carried;
    }
    t->buffer = b;
    t->cur = b->cur;
    t->end = b->end;
    t->stacks = b->stacks;
    t->profile = b->profile;
    t->sp_base = b->shadow;
    t->sp = carried ? carried_sp : b->shadow;
    t->sp_limit = t->sp_base + SHADOW_FRAMES;
    t->status = SCOPE_THREAD_ACTIVE;
    if (b->header->thread_number != thread)
        mark_thread_start(t, thread);
    scope_fault_stack_install(&b->fault_stack);
    if (thread_end_watched)
        pthread_setspecific(thread_end_key, b);
out:
    t->busy--;
}

int scope_thread_end_later(void *arg)
{
    struct scope_thread *t = arg;
    if (!t->buffer || t->end_rounds + 1 >= PTHREAD_DESTRUCTOR_ITERATIONS)
        return 0;
    t->end_rounds++;
    t->busy++;
    int again = pthread_setspecific(thread_end_key, t->buffer) == 0;
    t->busy--;
    return again;
}

void scope_thread_release(void *arg)
{
    struct scope_thread *t = arg;
    struct scope_thread_buffer *b = t->buffer;
    if (!b || (t->status != SCOPE_THREAD_ACTIVE && t->status != SCOPE_THREAD_FULL))
        return;
    t->busy++;
    /* cur may lie past the end when a signal handler raced for the last slot */
    b->cur = t->cur < t->end ? t->cur : t->end;
    b->end = t->end;
    b->stacks = t->stacks;
    scope_fault_stack_release(b->fault_stack);
    t->status = SCOPE_THREAD_ENDED;
    t->buffer = NULL;
    t->cur = t->end = NULL;
    t->sp = t->sp_base = t->sp_limit = NULL;
    t->stacks = NULL;
    pthread_mutex_lock(&registry_lock);
    b->next_free = free_buffers;
    free_buffers = b;
    pthread_mutex_unlock(&registry_lock);
    t->busy--;
}

/* The buffer window is full. In the buffer's first pass, while the
 * current slice has slots not made ready yet, its next stretch is made
 * ready. Else the thread moves on to the next slice of the ring, whose
 * slots the writer thread has normally written out and cleared long
 * before (spill_writer.h): no copy, no page fault and no system call on
 * this thread but the writer's wake-up, memory bounded, nothing dropped;
 * the slots the slice leaves unused (a reservation that did not fit) stay
 * zeros, skipped. If the ring cannot be written out, recording stops on
 * this thread (the records so far are kept, later calls are counted as
 * dropped) and scope says so once. */
void scope_thread_flush(void *arg)
{
    struct scope_thread *t = arg;
    struct scope_thread_buffer *b = t->buffer;
    if (t->status != SCOPE_THREAD_ACTIVE)
        return;   /* stopped by an earlier failure: said once already */
    t->busy++;
    size_t slot = scope_spill_ring_slot(&b->ring, b->ring.current);
    struct scope_record *slice_end = b->records + slot + b->ring.slice;
    char why[1200] = "";
    /* cur may lie past the end when a signal handler raced for the last slot */
    struct scope_record *last = t->cur < t->end ? t->cur : t->end;
    uint64_t filled = b->ring.current * b->ring.slice + (uint64_t)(last - (b->records + slot));
    scope_fold_count_records(filled - b->counted);
    b->counted = filled;
    if (t->end < slice_end) {
        make_ready(b);
        t->end = b->records + b->header->ready < slice_end ? b->records + b->header->ready
                                                           : slice_end;
    } else if (scope_spill_next_slice(&b->ring, why, sizeof(why)) == 0) {
        enter_slice(b, &t->cur, &t->end);
    } else {
        scope_log("%s: recording stops on this thread (its first %llu records are kept, later "
                  "calls are counted as dropped_events)", why, (unsigned long long)filled);
        t->status = SCOPE_THREAD_FULL;
        t->cur = t->end = last;
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
    scope_spill_writer_drain();
    pthread_mutex_lock(&registry_lock);
    size_t n = 0;
    for (struct scope_thread_buffer *b = registry; b; b = b->next)
        n++;
    struct scope_thread_records *t = malloc((n + 1) * sizeof(*t));
    n = 0;
    for (struct scope_thread_buffer *b = registry; t && b; b = b->next)
        t[n++] = scope_thread_records_of(b->header, records_per_buffer, b->header->spill_path);
    pthread_mutex_unlock(&registry_lock);
    *threads = t;
    *count = n;
    return t ? 0 : -1;
}

int scope_buffers_profiles(struct scope_profile_table ***tables,
                           struct scope_thread_records **records, size_t *count)
{
    scope_spill_writer_drain();
    pthread_mutex_lock(&registry_lock);
    size_t n = 0;
    for (struct scope_thread_buffer *b = registry; b; b = b->next)
        n++;
    struct scope_profile_table **t = malloc((n + 1) * sizeof(*t));
    struct scope_thread_records *r = malloc((n + 1) * sizeof(*r));
    n = 0;
    for (struct scope_thread_buffer *b = registry; t && r && b; b = b->next)
        if (b->profile) {
            r[n] = scope_thread_records_of(b->header, records_per_buffer, b->header->spill_path);
            t[n++] = b->profile;
        }
    pthread_mutex_unlock(&registry_lock);
    if (!t || !r) {
        free(t);
        free(r);
        t = NULL;
        r = NULL;
    }
    *tables = t;
    *records = r;
    *count = n;
    return t ? 0 : -1;
}

void scope_buffers_remove(void)
{
    scope_spill_writer_drain();
    pthread_mutex_lock(&registry_lock);
    for (struct scope_thread_buffer *b = registry; b; b = b->next) {
        if (b->ring.fd >= 0) {
            close(b->ring.fd);
            b->ring.fd = -1;
        }
        unlink(b->header->spill_path);
        shm_unlink(b->shm_name);
        if (b->profile)
            scope_profile_table_remove(b->profile, b->number);
        b->profile = NULL;
    }
    pthread_mutex_unlock(&registry_lock);
    scope_peer_totals_remove();
    scope_meta_remove();
}

void scope_buffers_after_fork_child(void)
{
    /* first: a thread the child does not have may have held it at the fork
     * (a thread taking its buffer) */
    pthread_mutex_init(&registry_lock, NULL);
    struct scope_thread *t = &scope_tls;
    if (t->status == SCOPE_THREAD_ACTIVE || t->status == SCOPE_THREAD_FULL)
        t->status = SCOPE_THREAD_NEW;   /* its shadow stack stays: see activate */
    t->buffer = NULL;
    t->cur = t->end = NULL;
    t->stacks = NULL;
    t->end_rounds = 0;
    registry = free_buffers = NULL;
    thread_count = buffer_count = 0;
    scope_spill_writer_after_fork_child();
    scope_fold_after_fork_child();
    scope_peer_totals_after_fork_child();
}
