/* recursion.c: deep recursion through a hooked function (100 000 levels, on
 * a thread with a 256 MiB stack) and mutual recursion of two hooked
 * functions. The profile must hold every call, nested one inside the
 * other: depth 100 000 for rec, 500 each for ping and pong. */
#define CORPUS_MAIN
#include "corpus.h"

#include <pthread.h>

#define DEPTH 100000
#define MUTUAL 1000

static long max_depth, cur_depth;

/* Not a tail call: the work after the recursive call keeps every frame. */
HOOKED long rec(long n)
{
    cur_depth++;
    if (cur_depth > max_depth)
        max_depth = cur_depth;
    long r = n == 1 ? SEED : rec(n - 1);
    cur_depth--;
    return (r * 3 + n) % 1000003;
}

HOOKED long pong(long n);

HOOKED long ping(long n)
{
    return n == 0 ? SEED : pong(n - 1) * 2 % 1009 + 1;
}

HOOKED long pong(long n)
{
    return n == 0 ? SEED : ping(n - 1) * 3 % 1013 + 2;
}

/* The same values computed by loops. */
static long rec_want(long n)
{
    long r = (1 * 3 + 1) % 1000003;   /* rec(1) with SEED == 1 */
    for (long i = 2; i <= n; i++)
        r = (r * 3 + i) % 1000003;
    return r;
}

static long ping_want(long n)
{
    long p = 1, q = 1;                /* ping(0), pong(0) */
    for (long i = 1; i <= n; i++) {
        long np = q * 2 % 1009 + 1, nq = p * 3 % 1013 + 2;
        p = np;
        q = nq;
    }
    return p;
}

HOOKED void *rec_driver(void *arg)
{
    (void)arg;
    long r = rec(DEPTH);
    CHECK(r == rec_want(DEPTH), "rec(%d) = %ld, want %ld", DEPTH, r, rec_want(DEPTH));
    CHECK(max_depth == DEPTH, "max depth %ld", max_depth);
    long m = ping(MUTUAL);
    CHECK(m == ping_want(MUTUAL), "ping(%d) = %ld, want %ld", MUTUAL, m, ping_want(MUTUAL));
    return NULL;
}

int main(void)
{
    pthread_attr_t attr;
    pthread_t th;
    CHECK(pthread_attr_init(&attr) == 0, "pthread_attr_init");
    CHECK(pthread_attr_setstacksize(&attr, 256ul << 20) == 0, "stack size");
    CHECK(pthread_create(&th, &attr, rec_driver, NULL) == 0, "pthread_create");
    CHECK(pthread_join(th, NULL) == 0, "pthread_join");
    puts("recursion: ok");
    return 0;
}
