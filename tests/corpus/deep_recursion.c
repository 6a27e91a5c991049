/* deep_recursion.c: a recursion deeper than scope's shadow stack (1 Mi
 * open calls per thread), on a thread with a 512 MiB stack. The calls past
 * the limit cannot be recorded; they must run normally and be counted in
 * the file's dropped_events, the recorded ones must nest. */
#include <pthread.h>
#include <stdio.h>

#define DEPTH 1100000L

static long *volatile escaped;

__attribute__((noinline)) static void escape(long *p)
{
    escaped = p;
}

/* The local's address escapes, so the frame stays: no tail call. */
__attribute__((noinline)) long descend(long n)
{
    long here = n;
    escape(&here);
    if (n == 0)
        return 0;
    return descend(n - 1) + (here == n);
}

static void *run(void *arg)
{
    *(long *)arg = descend(DEPTH - 1);
    return NULL;
}

int main(void)
{
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 512ul << 20);
    pthread_t thread;
    long result = -1;
    if (pthread_create(&thread, &attr, run, &result) != 0) {
        perror("pthread_create");
        return 1;
    }
    pthread_join(thread, NULL);
    if (result != DEPTH - 1) {
        fprintf(stderr, "descend returned %ld, want %ld\n", result, DEPTH - 1);
        return 1;
    }
    return 0;
}
