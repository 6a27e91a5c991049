/* thread_churn.c: 20 000 short threads, created and joined 8 at a time,
 * each calling a hooked function 10 times: a thread pool re-created over
 * and over, or a server's thread per request. Every result is checked, and
 * the process's peak resident memory must stay under 256 MiB: what a
 * finished thread recorded with must serve the next ones. The profile must
 * hold 10 calls under each of 20 000 distinct thread ids. */
#define CORPUS_MAIN
#include "corpus.h"

#include <pthread.h>
#include <string.h>

#ifndef THREADS
#define THREADS 20000
#endif
#define AT_ONCE 8
#define CALLS 10
#define PEAK_LIMIT_KB (256L << 10)

HOOKED long tc_work(long x, long id)
{
    return x * 7 + id;
}

static void *thread_main(void *arg)
{
    long id = (long)arg + SEED;
    long sum = 0;
    for (long i = 0; i < CALLS; i++)
        sum += tc_work(i, id);
    return (void *)sum;
}

/* VmHWM of /proc/self/status: the peak resident set, in KiB. */
static long peak_rss_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    while (f && fgets(line, sizeof(line), f))
        if (strncmp(line, "VmHWM:", 6) == 0)
            kb = atol(line + 6);
    if (f)
        fclose(f);
    return kb;
}

int main(void)
{
    for (long first = 0; first < THREADS; first += AT_ONCE) {
        pthread_t th[AT_ONCE];
        for (long t = 0; t < AT_ONCE; t++)
            CHECK(pthread_create(&th[t], NULL, thread_main, (void *)(first + t)) == 0,
                  "pthread_create");
        for (long t = 0; t < AT_ONCE; t++) {
            void *sum;
            long id = first + t + SEED;
            CHECK(pthread_join(th[t], &sum) == 0, "pthread_join");
            CHECK((long)sum == 7 * CALLS * (CALLS - 1) / 2 + CALLS * id,
                  "thread %ld: sum %ld", id, (long)sum);
        }
    }
    long peak = peak_rss_kb();
    CHECK(peak > 0 && peak < PEAK_LIMIT_KB, "peak resident memory %ld KiB (limit %ld KiB)",
          peak, PEAK_LIMIT_KB);
    printf("thread_churn: ok, peak %ld KiB\n", peak);
    return 0;
}
