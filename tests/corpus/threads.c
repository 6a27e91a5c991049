/* threads.c: 4 threads each call a hooked function (which calls another
 * hooked one) 100 000 times at once, while the main thread calls nothing
 * hooked. Every result is checked; the profile must hold exactly 100 000
 * calls per thread under 4 distinct thread ids, each leaf inside its
 * caller on the same thread. */
#define CORPUS_MAIN
#include "corpus.h"

#include <pthread.h>

#define THREADS 4
#define CALLS 100000

HOOKED long th_leaf(long x, long id)
{
    return x * 13 + id;
}

HOOKED long th_work(long x, long id)
{
    return th_leaf(x, id) ^ (id << 40);
}

static void *thread_main(void *arg)
{
    long id = (long)arg + SEED;
    for (long i = 0; i < CALLS; i++) {
        long r = th_work(i, id);
        CHECK(r == ((i * 13 + id) ^ (id << 40)), "thread %ld: th_work(%ld) = %ld", id, i, r);
    }
    return NULL;
}

int main(void)
{
    pthread_t th[THREADS];
    for (long t = 0; t < THREADS; t++)
        CHECK(pthread_create(&th[t], NULL, thread_main, (void *)t) == 0, "pthread_create");
    for (int t = 0; t < THREADS; t++)
        CHECK(pthread_join(th[t], NULL) == 0, "pthread_join");
    puts("threads: ok");
    return 0;
}
