/* spill_writer.c: the writer thread, its queue of rings with slices to
 * write, and a recording thread's move to its next slice (see
 * spill_writer.h). The writer takes one slice at a time, rings in turn,
 * and wakes the threads waiting for a slice after each. */
#include "spill_writer.h"
#include "record_files.h"
#include "thread_state.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#define WRITER_STACK_BYTES ((size_t)128 << 10)

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work = PTHREAD_COND_INITIALIZER;   /* a ring was queued */
static pthread_cond_t done = PTHREAD_COND_INITIALIZER;   /* a slice was written, or failed */
static struct scope_spill_ring *head, *tail;   /* rings with slices to write */
static int writing;                            /* slices being written now */
static enum { WRITER_NONE, WRITER_THREAD, WRITER_INLINE } writer;

static void enqueue(struct scope_spill_ring *r)
{
    r->queued = 1;
    r->next_queued = NULL;
    if (tail)
        tail->next_queued = r;
    else
        head = r;
    tail = r;
}

static struct scope_spill_ring *dequeue(void)
{
    struct scope_spill_ring *r = head;
    head = r->next_queued;
    if (!head)
        tail = NULL;
    return r;
}

static int pending(const struct scope_spill_ring *r)
{
    return !r->error && r->header->spilled < r->submitted;
}

/* Writes r's oldest slice; called with the lock held, dropped meanwhile. */
static void write_one(struct scope_spill_ring *r)
{
    writing++;
    pthread_mutex_unlock(&lock);
    int error = scope_spill_ring_write_oldest(r);
    pthread_mutex_lock(&lock);
    writing--;
    if (error)
        r->error = error;
    pthread_cond_broadcast(&done);
}

static void *writer_main(void *arg)
{
    (void)arg;
    scope_tls.status = SCOPE_THREAD_OFF;   /* its calls are scope's, not the program's */
    pthread_mutex_lock(&lock);
    for (;;) {
        while (!head)
            pthread_cond_wait(&work, &lock);
        struct scope_spill_ring *r = dequeue();
        write_one(r);
        if (pending(r))
            enqueue(r);
        else
            r->queued = 0;
    }
    return NULL;
}

/* Starts the writer thread, with every signal blocked (the program's
 * signals go to its own threads); called with the lock held. */
static void start_writer(void)
{
    pthread_attr_t attr;
    pthread_t id;
    sigset_t all, old;
    int ok = pthread_attr_init(&attr) == 0;
    if (ok) {
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        pthread_attr_setstacksize(&attr, WRITER_STACK_BYTES);
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &old);
        ok = pthread_create(&id, &attr, writer_main, NULL) == 0;
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        pthread_attr_destroy(&attr);
    }
    writer = ok ? WRITER_THREAD : WRITER_INLINE;
}

void scope_spill_writer_start(void)
{
    pthread_mutex_lock(&lock);
    if (writer == WRITER_NONE)
        start_writer();
    pthread_mutex_unlock(&lock);
}

/* Hands r's records before `upto` to the writer; called with the lock held. */
static void submit(struct scope_spill_ring *r, uint64_t upto)
{
    r->submitted = upto;
    if (writer == WRITER_NONE)
        start_writer();
    if (writer == WRITER_INLINE) {
        while (pending(r))
            write_one(r);
    } else if (!r->queued && pending(r)) {
        enqueue(r);
        pthread_cond_signal(&work);
    }
}

int scope_spill_next_slice(struct scope_spill_ring *r, char *why, size_t len)
{
    uint64_t next = r->current + 1;
    if (next >= SCOPE_SPILL_LAG && r->fd < 0 && !r->error) {
        r->fd = scope_record_spill_create(r->header->spill_path, why, len);
        if (r->fd < 0)
            return -1;
    }
    /* slice `next` takes the slots of slice next - SCOPE_RING_SLICES */
    uint64_t freed = next >= SCOPE_RING_SLICES ? (next - SCOPE_RING_SLICES + 1) * r->slice : 0;
    pthread_mutex_lock(&lock);
    if (next >= SCOPE_SPILL_LAG && !r->error)
        submit(r, (next - SCOPE_SPILL_LAG + 1) * r->slice);
    while (!r->error && __atomic_load_n(&r->header->recycled, __ATOMIC_ACQUIRE) < freed)
        pthread_cond_wait(&done, &lock);
    int error = r->error;
    pthread_mutex_unlock(&lock);
    if (error) {
        snprintf(why, len, "cannot spill to %s: %s", r->header->spill_path, strerror(error));
        return -1;
    }
    r->current = next;
    return 0;
}

void scope_spill_writer_drain(void)
{
    pthread_mutex_lock(&lock);
    while (head || writing)
        pthread_cond_wait(&done, &lock);
    pthread_mutex_unlock(&lock);
}

void scope_spill_writer_after_fork_child(void)
{
    head = tail = NULL;
    writing = 0;
    writer = WRITER_NONE;
    pthread_mutex_init(&lock, NULL);
    pthread_cond_init(&work, NULL);
    pthread_cond_init(&done, NULL);
}
