/* reader_run_tasks(): a counter the threads take tasks from (reader_tasks.h). */
#include "reader_tasks.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <unistd.h>

typedef struct pool {
    atomic_size_t next;
    size_t n;
    reader_task_fn fn;
    void *ctx;
} pool;

typedef struct worker {
    pool *p;
    size_t thread;
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    for (size_t t; (t = atomic_fetch_add(&w->p->next, 1)) < w->p->n;)
        w->p->fn(w->p->ctx, t, w->thread);
    return NULL;
}

size_t reader_task_threads(size_t n, size_t max)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    size_t k = max && max < READER_MAX_THREADS ? max : READER_MAX_THREADS;
    if (cores > 0 && (size_t)cores < k)
        k = (size_t)cores;
    if (n < k)
        k = n;
    return k ? k : 1;
}

void reader_run_tasks(size_t n, size_t threads, reader_task_fn fn, void *ctx)
{
    pool p = {.n = n, .fn = fn, .ctx = ctx};
    atomic_init(&p.next, 0);
    pthread_t tid[READER_MAX_THREADS];
    worker w[READER_MAX_THREADS];
    bool started[READER_MAX_THREADS] = {false};
    if (threads > READER_MAX_THREADS)
        threads = READER_MAX_THREADS;
    for (size_t i = 1; i < threads; i++) {
        w[i] = (worker){&p, i};
        started[i] = pthread_create(&tid[i], NULL, work, &w[i]) == 0;
    }
    w[0] = (worker){&p, 0};
    work(&w[0]);
    for (size_t i = 1; i < threads; i++)
        if (started[i])
            pthread_join(tid[i], NULL);
}
